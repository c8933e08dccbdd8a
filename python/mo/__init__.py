"""mo: an MLIR-native tensor-graph compiler for Python.

The `mo` dialect and the upstream MLIR Python bindings live under
`mo._mlir` (their own package prefix and nanobind domain), so mo imports next
to any other MLIR-based package::

    from mo._mlir import ir
    from mo._mlir.dialects import mo as mo_d
"""

__version__ = "0.1.0"
