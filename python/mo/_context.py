"""The MLIR context mo builds in, and the user's source locations.

One context serves the whole process (creating one loads every dialect, which
costs milliseconds); it is created on first use. Locations point at the
user's code: the innermost stack frame outside the ``mo`` package.
"""

from __future__ import annotations

import functools
import os
import sys
import threading

_lock = threading.Lock()
_context = None
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def context():
    """The process-wide ``mo._mlir.ir.Context`` (created on first use)."""
    global _context
    if _context is None:
        with _lock:
            if _context is None:
                from mo._mlir import ir

                _context = ir.Context()
    return _context


@functools.lru_cache(maxsize=None)
def mlir_type(spelling: str):
    """A builtin MLIR type from its spelling (``f32``, ``si64``), cached."""
    from mo._mlir import ir

    return ir.Type.parse(spelling, context())


def user_frame():
    """(filename, line) of the innermost frame outside the mo package."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return ("<unknown>", 0)
    return (frame.f_code.co_filename, frame.f_lineno)
