"""mo: an MLIR-native tensor-graph compiler for Python.

The `mo` dialect and the upstream MLIR Python bindings live under
`mo._mlir` (their own package prefix and nanobind domain), so mo imports next
to any other MLIR-based package::

    from mo._mlir import ir
    from mo._mlir.dialects import mo as mo_d

Environment variables (all of them, in one place):

* ``MO_DEV_NATIVE``: a directory holding a built ``_mlir`` package (e.g.
  ``build/wheel/python_packages/mo``); lets a source checkout on
  ``PYTHONPATH=python`` use the native part of a build tree without
  reinstalling.
"""

import os as _os

__version__ = "0.1.0"

if _os.environ.get("MO_DEV_NATIVE"):
    __path__.append(_os.environ["MO_DEV_NATIVE"])  # noqa: F821 (package __path__)
