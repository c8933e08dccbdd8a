"""mo's JIT (`_moDialects.jit`, mo-c/Jit.h): upstream's ExecutionEngine with
identical functions merged before LLVM's pipeline. A merged function must
still be found by name and compute what it computed."""

import ctypes

import pytest

from mo import _context
from mo._mlir import ir
from mo._mlir._mlir_libs import _moDialects
from mo._mlir.execution_engine import ExecutionEngine

# Two identical functions (as a graph's kernels of one shape are) and one
# that differs; each with a C interface, so each has a name to look up.
MODULE = """
llvm.func @scale_a(%x: i64) -> i64 attributes {llvm.emit_c_interface} {
  %c = llvm.mlir.constant(3 : i64) : i64
  %y = llvm.mul %x, %c : i64
  %z = llvm.add %y, %x : i64
  llvm.return %z : i64
}
llvm.func @scale_b(%x: i64) -> i64 attributes {llvm.emit_c_interface} {
  %c = llvm.mlir.constant(3 : i64) : i64
  %y = llvm.mul %x, %c : i64
  %z = llvm.add %y, %x : i64
  llvm.return %z : i64
}
llvm.func @shift(%x: i64) -> i64 attributes {llvm.emit_c_interface} {
  %c = llvm.mlir.constant(5 : i64) : i64
  %y = llvm.add %x, %c : i64
  llvm.return %y : i64
}
"""


@pytest.mark.parametrize("opt_level", [0, 2, 3])
def test_merged_functions_keep_their_names_and_results(opt_level):
    with _context.context():
        module = ir.Module.parse(MODULE)
        engine = ExecutionEngine._CAPICreate(_moDialects.jit(module, opt_level, []))
    results = {}
    for name in ("scale_a", "scale_b", "shift"):
        # The packed wrapper: void(void **args), the result's slot last.
        address = engine.raw_lookup(name)
        assert address, name
        x, y = ctypes.c_int64(10), ctypes.c_int64(0)
        args = (ctypes.c_void_p * 2)(ctypes.addressof(x), ctypes.addressof(y))
        ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address)(args)
        results[name] = y.value
    assert results == {"scale_a": 40, "scale_b": 40, "shift": 15}


def test_a_module_llvm_cannot_translate_is_an_error():
    """Not the LLVM dialect: the engine's error comes back as RuntimeError."""
    with _context.context():
        module = ir.Module.parse("func.func @f() { return }")
        with pytest.raises(RuntimeError, match="func.func|translat|LLVM"):
            _moDialects.jit(module, 2, [])
