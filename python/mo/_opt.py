"""`mo-opt`: the mlir-opt command line with the mo dialect and passes.

The driver lives in mo's own native library (no separate binary to ship);
this console script loads it and hands over the command line. It reads each
input chunk in a forked child first (MLIR's parsers trust their input), so
run it as a process of its own, not from a process with threads.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import sys
from pathlib import Path


def _library() -> ctypes.CDLL:
    # Found without importing mo._mlir (whose import loads the bindings).
    spec = importlib.util.find_spec("mo._mlir")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("mo-opt: mo's native library is not installed")
    libs = Path(list(spec.submodule_search_locations)[0]) / "_mlir_libs"
    return ctypes.CDLL(str(libs / "libMoPythonCAPI.so"))


def main(argv: list[str] | None = None) -> int:
    args = [sys.argv[0] if argv is None else "mo-opt"] + (sys.argv[1:] if argv is None else argv)
    lib = _library()
    lib.moOptMain.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    lib.moOptMain.restype = ctypes.c_int
    c_args = (ctypes.c_char_p * (len(args) + 1))(*[os.fsencode(a) for a in args], None)
    sys.stdout.flush()
    sys.stderr.flush()
    return lib.moOptMain(len(args), c_args)


if __name__ == "__main__":
    sys.exit(main())
