"""mo's code generator and loader (`_moDialects.jit_compile` / `Jit`,
mo-c/Jit.h): an LLVM-dialect module to an object file (identical functions
merged, packed wrappers added), linked into the process with ORC; a graph's
kernels compiled apart (`jit_compile_graph`). A merged
function must still be found by name and compute what it computed."""

import ctypes
import os
import re

import pytest

from mo import _context
from mo._mlir import ir
from mo._mlir._mlir_libs import _moDialects

# Two identical functions (as a graph's kernels of one shape are) and one
# that differs; each a C interface (`_mlir_ciface_`), so each gets a packed
# wrapper.
MODULE = """
llvm.func @_mlir_ciface_scale_a(%x: i64) -> i64 {
  %c = llvm.mlir.constant(3 : i64) : i64
  %y = llvm.mul %x, %c : i64
  %z = llvm.add %y, %x : i64
  llvm.return %z : i64
}
llvm.func @_mlir_ciface_scale_b(%x: i64) -> i64 {
  %c = llvm.mlir.constant(3 : i64) : i64
  %y = llvm.mul %x, %c : i64
  %z = llvm.add %y, %x : i64
  llvm.return %z : i64
}
llvm.func @_mlir_ciface_shift(%x: i64) -> i64 {
  %c = llvm.mlir.constant(5 : i64) : i64
  %y = llvm.add %x, %c : i64
  llvm.return %y : i64
}
"""


def compile_module(text: str, opt_level: int = 2) -> list[bytes]:
    with _context.context():
        return _moDialects.jit_compile(ir.Module.parse(text), opt_level)


@pytest.mark.parametrize("opt_level", [0, 2, 3])
def test_merged_functions_keep_their_names_and_results(opt_level):
    obj = compile_module(MODULE, opt_level)
    assert len(obj) == 1 and obj[0][:4] == b"\x7fELF"  # small: one part
    jit = _moDialects.Jit(obj, [])
    results = {}
    for name in ("scale_a", "scale_b", "shift"):
        # The packed wrapper: void(void **args), the result's slot last.
        address = jit.lookup("_mo_packed_" + name)
        assert address, name
        x, y = ctypes.c_int64(10), ctypes.c_int64(0)
        args = (ctypes.c_void_p * 2)(ctypes.addressof(x), ctypes.addressof(y))
        ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address)(args)
        results[name] = y.value
    assert results == {"scale_a": 40, "scale_b": 40, "shift": 15}
    assert jit.lookup("no_such_symbol") == 0


def test_an_object_links_again_in_a_second_jit():
    """The object is self-contained: two loaders link it independently."""
    obj = compile_module(MODULE)
    first, second = _moDialects.Jit(obj, []), _moDialects.Jit(obj, [])
    assert first.lookup("_mo_packed_shift") != second.lookup("_mo_packed_shift") != 0


def test_a_module_llvm_cannot_translate_is_an_error():
    """Not the LLVM dialect: the code generator's error is a RuntimeError."""
    with _context.context():
        module = ir.Module.parse("func.func @f() { return }")
        with pytest.raises(RuntimeError, match="translate"):
            _moDialects.jit_compile(module, 2)


def test_garbage_is_no_object():
    with pytest.raises(RuntimeError):
        _moDialects.Jit([b"\x7fELF not really"], [])


def test_an_unresolved_symbol_is_an_error_not_a_crash():
    obj = compile_module("""
llvm.func @missing_symbol_of_no_library(i64) -> i64
llvm.func @_mlir_ciface_f(%x: i64) -> i64 {
  %y = llvm.call @missing_symbol_of_no_library(%x) : (i64) -> i64
  llvm.return %y : i64
}
""")
    jit = _moDialects.Jit(obj, [])
    assert jit.lookup("_mo_packed_f") == 0


def test_host_target_names_triple_cpu_and_features():
    triple, cpu, features = _moDialects.host_target().split(" ", 2)
    assert triple.startswith(("x86_64", "aarch64")) and cpu and "+" in features


def test_a_missing_library_is_an_error_naming_it():
    obj = compile_module(MODULE)
    with pytest.raises(RuntimeError, match="/nonexistent/libmo-test.so: cannot open"):
        _moDialects.Jit(obj, ["/nonexistent/libmo-test.so"])
    with pytest.raises(RuntimeError, match="not recognized as a valid object file"):
        _moDialects.Jit([b""], [])


def kernels_to_llvm_as(monkeypatch, pipeline):
    """Code generation with ``pipeline`` for each part's mo-cpu-kernels-to-llvm;
    nothing from the compile cache."""
    from mo import compiler

    real = compiler._pass_manager

    def pass_manager(text, verify_each, slot=0):
        if text.startswith("mo-cpu-kernels-to-llvm"):
            text = pipeline
        return real(text, verify_each, slot)

    monkeypatch.setattr(compiler, "_pass_manager", pass_manager)
    monkeypatch.setenv("MO_CACHE", "0")


def test_translation_diagnostics_are_in_the_error_not_on_stderr(monkeypatch, capfd):
    """A graph whose lowering leaves what LLVM cannot translate (the parts'
    memrefs cast, not converted): the translator's diagnostics, from the
    threads that compile the parts, reach the CompileError's message, not
    stderr."""
    from mo import compilation, compiler
    from mo import functional as F
    from mo.driver import CPU
    from mo.dtype import DType
    from mo.sharding import TensorLayout

    kernels_to_llvm_as(monkeypatch, "convert-func-to-llvm,reconcile-unrealized-casts")
    with pytest.raises(compiler.CompileError) as raised:
        compilation.compile(lambda x: F.relu(x @ x))(TensorLayout(DType.float32, [64, 64], CPU()))
    message = str(raised.value)
    assert "code generation failed" in message and "unrealized_conversion_cast" in message
    assert "unrealized_conversion_cast" not in capfd.readouterr().err


def test_a_failing_pass_of_a_part_fails_the_pipeline(monkeypatch, capfd):
    """A pass that fails on a part: the schedules' fallback compiles the
    graph again, and its failure there is the CompileError, naming the
    second half of the pipeline; nothing on stderr."""
    from mo import compilation, compiler
    from mo import functional as F
    from mo.driver import CPU
    from mo.dtype import DType
    from mo.sharding import TensorLayout

    # Fails (no message) unless one rewrite round leaves nothing to rewrite.
    kernels_to_llvm_as(monkeypatch, "canonicalize{test-convergence=true max-iterations=1}")
    with pytest.raises(compiler.CompileError,
                       match=r"mo-cpu-kernels-to-llvm\{num-threads=\d+ schedules=0\} failed"):
        compilation.compile(lambda x: F.relu(x @ x))(TensorLayout(DType.float32, [64, 64], CPU()))
    assert capfd.readouterr().err == ""


def test_a_parts_diagnostics_are_in_the_error(capfd):
    """A part that does not verify once lowered: its diagnostics, from the
    thread that lowered it, are the error (`pipeline: `), not on stderr."""
    from mo import compiler

    with _context.context(), ir.Location.unknown():
        module = ir.Module.parse("""
func.func @f() -> i32 {
  %c = arith.constant 1 : i32
  return %c : i32
}""")
        block = module.body.operations[0].regions[0].blocks[0]
        with ir.InsertionPoint.at_block_begin(block):
            ir.Operation.create("func.return")
        managers = [compiler._pass_manager("canonicalize", False, slot) for slot in range(2)]
    with pytest.raises(RuntimeError) as raised:
        _moDialects.jit_compile_graph(module, managers, 2)
    message = str(raised.value)
    assert message.startswith("pipeline: ") and "must be the last operation" in message
    assert "see current operation" in message  # the diagnostic's note
    assert capfd.readouterr().err == ""


# A graph as mo-cpu-kernels leaves it: five kernels, each calling a function
# the graph defines (@twice) and one it declares (libm's @expf), and an
# entry calling them in turn on one buffer.
GRAPH_KERNEL = """
func.func private @k{i}(%a: memref<64xf32>) attributes {{passthrough = ["noinline"]}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %s = arith.constant {s} : f32
  scf.for %j = %c0 to %c64 step %c1 {{
    %x = memref.load %a[%j] : memref<64xf32>
    %y = func.call @twice(%x) : (f32) -> f32
    %z = arith.mulf %y, %s : f32
    %e = func.call @expf(%z) : (f32) -> f32
    %w = arith.subf %e, %x : f32
    %v = arith.addf %w, %s : f32
    memref.store %v, %a[%j] : memref<64xf32>
  }}
  return
}}
"""
GRAPH = """
func.func private @expf(f32) -> f32
func.func @twice(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
func.func @main(%a: memref<64xf32>) attributes {llvm.emit_c_interface} {
""" + "".join(f"  func.call @k{i}(%a) : (memref<64xf32>) -> ()\n" for i in range(5)) + """  return
}
""" + "".join(GRAPH_KERNEL.format(i=i, s=0.1 * (i + 1)) for i in range(5))


@pytest.mark.parametrize("threads", [1, 2])
def test_a_graphs_kernels_link_to_what_they_call_from_their_parts(threads):
    """jit_compile_graph's parts: the kernels in two modules per thread, each
    declaring what its kernels call (a function the rest defines, a library
    function); the objects link into one program that computes what the
    graph says."""
    from mo import compiler

    with _context.context():
        module = ir.Module.parse(GRAPH)
        managers = [compiler._pass_manager("mo-cpu-kernels-to-llvm", False, slot)
                    for slot in range(threads)]
    objects = _moDialects.jit_compile_graph(module, managers, 2)
    assert len(objects) == min(2 * threads, 5) + 1  # the kernels' parts and the rest
    jit = _moDialects.Jit(objects, [])

    class Descriptor(ctypes.Structure):  # memref<64xf32>
        _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                    ("offset", ctypes.c_int64), ("size", ctypes.c_int64),
                    ("stride", ctypes.c_int64)]

    np = pytest.importorskip("numpy")
    a = np.linspace(-1, 1, 64, dtype=np.float32)
    descriptor = ctypes.pointer(Descriptor(a.ctypes.data, a.ctypes.data, 0, 64, 1))
    args = (ctypes.c_void_p * 1)(ctypes.addressof(descriptor))
    ref = a.astype(np.float64)
    for i in range(5):
        s = np.float32(0.1 * (i + 1))
        ref = np.exp(2 * ref * s) - ref + s
    ctypes.CFUNCTYPE(None, ctypes.c_void_p)(jit.lookup("_mo_packed_main"))(args)
    np.testing.assert_allclose(a, ref, rtol=1e-5)


def test_a_graph_without_pass_managers_is_an_error_not_a_crash():
    """jit_compile_graph given no pass manager to lower its parts with: a
    RuntimeError naming the argument (it indexed past the list). In a
    subprocess, so a crash fails it."""
    import subprocess
    import sys

    script = """
from mo import _context
from mo._mlir import ir
from mo._mlir._mlir_libs import _moDialects
with _context.context():
    module = ir.Module.parse("func.func @f() { return }")
try:
    _moDialects.jit_compile_graph(module, [], 2)
except RuntimeError as e:
    print(e)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.strip() == "codegen: managers: expected at least one pass manager, got 0"


def test_a_large_module_is_compiled_in_parts_that_link_together():
    """Several kernels of enough code: their objects two per core at most and
    the rest's, compiled at once, linked by the runtime into one correct
    graph."""
    import numpy as np

    from mo import compilation, compiler
    from mo import functional as F
    from mo.driver import CPU
    from mo.dtype import DType
    from mo.sharding import TensorLayout

    def mlp(x):
        for i, (k, n) in enumerate([(64, 128), (128, 128), (128, 10)]):
            x = F.relu(x @ F.constant_external(f"w{i}", TensorLayout(DType.float32, [k, n],
                                                                     CPU())))
        return x

    rng = np.random.default_rng(0)
    weights = {f"w{i}": rng.standard_normal(s, np.float32) / 8
               for i, s in enumerate([(64, 128), (128, 128), (128, 10)])}
    run = compilation.compile(mlp, weights=weights)(TensorLayout(DType.float32, ["b", 64], CPU()))
    _, _, objects = compiler.runtime_module().read_artifact(run._exe._model.data)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    # The kernels in two parts per core at most, the rest (the entry) in one.
    assert 1 < len(objects) <= 2 * cores + 1
    x = rng.standard_normal((5, 64), np.float32)
    ref = x.astype(np.float64)
    for i in range(3):
        ref = np.maximum(ref @ weights[f"w{i}"], 0)
    np.testing.assert_allclose(run(x).to_numpy(), ref, rtol=1e-4, atol=1e-4)


def test_a_deep_stack_entry_is_compiled_apart_and_runs():
    """A long loop-free entry (a 24-layer stack's checks and calls) is a
    driver: compiled apart at -O0, one object more than the kernels', and
    the graph still gives numpy's result."""
    import numpy as np

    from mo import compilation, compiler
    from mo import functional as F
    from mo.driver import CPU
    from mo.dtype import DType
    from mo.sharding import TensorLayout

    def layer(x):
        w = F.constant_external("w", TensorLayout(DType.float32, [16, 16], CPU()),
                                is_placeholder=True)
        b = F.constant_external("b", TensorLayout(DType.float32, [16], CPU()),
                                is_placeholder=True)
        return F.relu(x @ w + b)

    def model(x):
        for i in range(24):
            x = compilation.as_subgraph(layer, name="layer", prefix=f"l{i}.")(x)
        return x

    rng = np.random.default_rng(3)
    weights = {}
    for i in range(24):
        weights[f"l{i}.w"] = (rng.standard_normal((16, 16)) / 3).astype(np.float32)
        weights[f"l{i}.b"] = rng.standard_normal(16).astype(np.float32) / 4
    run = compilation.compile(model, weights=weights)(TensorLayout(DType.float32, ["b", 16], CPU()))
    _, _, objects = compiler.runtime_module().read_artifact(run._exe._model.data)
    assert len(objects) >= 2  # its small kernels are one part: the entry is another
    x = rng.standard_normal((5, 16), np.float32)
    ref = x.astype(np.float64)
    for i in range(24):
        ref = np.maximum(ref @ weights[f"l{i}.w"] + weights[f"l{i}.b"], 0)
    np.testing.assert_allclose(run(x).to_numpy(), ref, rtol=1e-4, atol=1e-4)


def test_kernels_are_compiled_apart_from_their_driver(threads):
    """A graph with enough in its kernels is compiled in parts: its kernels
    in two per core at most, where a kernel that is an OpenMP fork and no
    more (its thread tiles a parallel region, a function of its own) is
    compiled as at -O0; the rest (the entry, its calls) in another, with no
    fork of its own. The graph gives numpy's result at 1 thread (no forks)
    and at 2."""
    import numpy as np

    from mo import compilation, compiler
    from mo import functional as F
    from mo.driver import CPU
    from mo.dtype import DType
    from mo.sharding import TensorLayout

    def model(x):
        for i in range(12):
            w = F.constant_external(f"w{i}", TensorLayout(DType.float32, [64, 64], CPU()))
            x = F.relu(x @ w) * 0.5 + x
        return x

    rng = np.random.default_rng(5)
    weights = {f"w{i}": (rng.standard_normal((64, 64)) / 8).astype(np.float32)
               for i in range(12)}
    run = compilation.compile(model, weights=weights)(
        TensorLayout(DType.float32, [256, 64], CPU()))
    _, _, objects = compiler.runtime_module().read_artifact(run._exe._model.data)
    entry = [o for o in objects if b"_mo_packed_" in o]
    kernels = [o for o in objects if b"_mo_packed_" not in o]
    assert len(entry) == 1 and 1 <= len(kernels) <= 2 * compiler._compile_threads(), \
        [len(o) for o in objects]
    assert b"__kmpc_fork_call" not in entry[0]
    assert any(b"__kmpc_fork_call" in o for o in kernels) == (threads > 1)
    x = rng.standard_normal((256, 64), np.float32)
    ref = x.astype(np.float64)
    for i in range(12):
        ref = np.maximum(ref @ weights[f"w{i}"], 0) * 0.5 + ref
    np.testing.assert_allclose(run(x).to_numpy(), ref, rtol=1e-4, atol=1e-4)


# y = 2x + y over n floats, `step` at a time as `{t}`: once as a scalar loop
# (as an elementwise kernel reaches LLVM), once over vector<16xf32> (as
# mo-lower-vectors leaves a register tile), n a multiple of 16. `{attrs}`:
# the function's, `{store}`: the store's.
AXPY_LOOP = """
llvm.func @axpy_{name}(%x: !llvm.ptr, %y: !llvm.ptr, %n: i64){attrs} {{
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %step = llvm.mlir.constant({step} : i64) : i64
  %two = llvm.mlir.constant({two}) : {t}
  llvm.br ^head(%c0 : i64)
^head(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^body, ^exit
^body:
  %px = llvm.getelementptr %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %py = llvm.getelementptr %y[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %a = llvm.load %px {{alignment = 4 : i64}} : !llvm.ptr -> {t}
  %b = llvm.load %py {{alignment = 4 : i64}} : !llvm.ptr -> {t}
  %m = llvm.fmul %a, %two : {t}
  %s = llvm.fadd %m, %b : {t}
  llvm.store %s, %py {{alignment = 4 : i64{store}}} : {t}, !llvm.ptr
  %next = llvm.add %i, %step : i64
  llvm.br ^head(%next : i64)
^exit:
  llvm.return
}}
"""
SCALAR = dict(step=1, two="2.0 : f32", t="f32", attrs="", store="")
AXPY = (AXPY_LOOP.format(name="scalar", **SCALAR) +
        AXPY_LOOP.format(name="vectors", step=16, two="dense<2.0> : vector<16xf32>",
                         t="vector<16xf32>", attrs="", store=""))


@pytest.mark.parametrize("opt_level", [1, 2, 3])
def test_vectorized_and_scalar_loops_take_their_pipelines(opt_level, tmp_path):
    """A function whose innermost loops work on vectors (MLIR vectorized it)
    takes a few passes instead of -O<n>, which still vectorizes the scalar
    loop: at -O2 and -O3 its code has packed single-precision instructions
    (LLVM's vectorizers ran on it). Both compute 2x + y."""
    import subprocess

    import llvm
    import numpy as np

    obj = compile_module(AXPY, opt_level)
    assert len(obj) == 1
    jit = _moDialects.Jit(obj, [])
    rng = np.random.default_rng(3)
    for name in ("scalar", "vectors"):
        x = rng.standard_normal(64, np.float32)
        y = rng.standard_normal(64, np.float32)
        ref = 2 * x + y
        address = jit.lookup("axpy_" + name)
        assert address, name
        ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)(address)(
            x.ctypes.data, y.ctypes.data, 64)
        np.testing.assert_allclose(y, ref, rtol=1e-6)
    if opt_level >= 2:
        path = tmp_path / "axpy.o"
        path.write_bytes(obj[0])
        objdump = os.path.join(os.path.dirname(llvm.__file__), "bin", "llvm-objdump")
        text = subprocess.run([objdump, "-d", "--no-show-raw-insn", str(path)],
                              capture_output=True, text=True, check=True).stdout
        body = text.split("<axpy_scalar>:")[1].split("\n\n")[0]
        assert re.search(r"\b\w+ps\s+.*%[xyz]mm", body), body


PASS_MANAGER_REUSE = """
import threading
import numpy as np
from mo import compilation, compiler, functional as F
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout
L = lambda *s: TensorLayout(DType.float32, list(s), CPU())
def work(scale):
    run = compilation.compile(lambda x: F.relu(x * scale))(L("n", 4))
    assert run(np.ones((2, 4), np.float32)).to_numpy().sum() == 8 * scale
work(1.0)
work(2.0)
mine = [k for k in compiler._pass_managers if k[0] == threading.get_ident()]
# mo-lower-to-linalg and mo-cpu-kernels once, mo-cpu-kernels-to-llvm once a
# code generation thread
each = 2 + compiler._compile_threads()
assert len(mine) == each, mine
t = threading.Thread(target=work, args=(3.0,))
t.start(); t.join()
assert len(compiler._pass_managers) == 2 * each, list(compiler._pass_managers)
# Integer powers: functions made by convert-math-to-funcs, whose upstream
# pass kept the first module's in a map and crashed the second's compile.
for dtype in (DType.int64, DType.uint8, DType.int64):
    run = compilation.compile(lambda x: F.pow(x, x))(TensorLayout(dtype, [4], CPU()))
    x = np.arange(1, 5).astype(dtype.to_numpy())
    assert (run(x).to_numpy() == x ** x).all(), dtype
print("ok")
"""

# A staged graph compiled and left for the exit: its pass managers, kept
# past the MLIR context they belong to, crashed the exit (SIGSEGV).
PASS_MANAGERS_AT_EXIT = """
from mo import compilation
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout
def one_op(x):
    return x * 2.0
compilation.stage(one_op)(TensorLayout(DType.float32, ["batch", 2], CPU())).compile(None)
print("ok")
"""


@pytest.mark.parametrize("script", [PASS_MANAGER_REUSE, PASS_MANAGERS_AT_EXIT],
                         ids=["reused per thread", "dropped at exit"])
def test_pass_managers_are_reused_per_thread_and_dropped_at_exit(script):
    """Each thread parses a pipeline once and reuses it for every graph (the
    passes keep no state from one module to the next); the process still
    exits cleanly. In a subprocess, so a crash fails it."""
    import subprocess
    import sys

    env = dict(os.environ, MO_CACHE="0")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", \
        (done.returncode, done.stderr[-2000:])


SFENCE = b"\x0f\xae\xf8"


@pytest.mark.parametrize("opt_level", [0, 2])
@pytest.mark.parametrize("twin", [True, False])
def test_streaming_stores_only_in_streaming_twins(opt_level, twin):
    """moJitCompile keeps a loop's nontemporal stores (as mo-stream-stores
    marks a twin's) only where the function says its buffers are aligned
    ("mo-streaming"), and only once LLVM made them whole aligned vectors (at
    -O0, never): then they end in a store fence. Either way the loop computes
    what it says, and nothing past its count."""
    import numpy as np

    attrs = ', "mo-streaming"' if twin else ""
    obj = compile_module(AXPY_LOOP.format(
        name="stream", **dict(SCALAR, attrs=f' attributes {{passthrough = ["noinline"{attrs}]}}',
                              store=", nontemporal")), opt_level)
    streamed = any(SFENCE in o for o in obj)
    if os.uname().machine in ("x86_64", "AMD64"):
        assert streamed == (twin and opt_level > 0)
    jit = _moDialects.Jit(obj, [])  # (the code lives as long as it)
    address = jit.lookup("axpy_stream")
    assert address
    raw_x, raw_y = np.zeros(4096 + 16, np.float32), np.zeros(4096 + 16, np.float32)
    x = raw_x[(-raw_x.ctypes.data // 4) % 16:][:4096]  # 64-byte aligned
    y = raw_y[(-raw_y.ctypes.data // 4) % 16:][:4096]
    assert x.ctypes.data % 64 == 0 and y.ctypes.data % 64 == 0
    x[:] = np.arange(4096, dtype=np.float32)
    y[:] = 1
    ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)(address)(
        x.ctypes.data, y.ctypes.data, 4000)
    np.testing.assert_array_equal(y[:4000], 2 * x[:4000] + 1)
    assert (y[4000:] == 1).all()
