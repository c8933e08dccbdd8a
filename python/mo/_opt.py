"""`mo-opt`: the mlir-opt command line with the mo dialect and passes.

The driver lives in mo's own native library (no separate binary to ship);
this console script loads it and hands over the command line.
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path


def _library() -> ctypes.CDLL:
    libs = Path(__file__).parent / "_mlir" / "_mlir_libs"
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
