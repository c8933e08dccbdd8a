"""mo.engine and the runtime under it: .mef artifacts written by one process
and run by another without compiling, weights bound through the session,
the C API from a C host, and bad artifacts as ValueErrors (each read in a
subprocess, so that a crash fails the test instead of the suite)."""

import io
import json
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from mo import compiler, engine, functional as F
from mo.compilation import compile
from mo.driver import CPU
from mo.dtype import DType
from mo.graph.dim import Dim
from mo.sharding import BufferLayout, TensorLayout

ROWS3 = TensorLayout(DType.float32, ["n", 3], CPU())
C_HOST = os.path.join(os.path.dirname(__file__), "..", "c", "run_mef.c")


def scaled(x):
    w = F.constant_external("w", TensorLayout(DType.float32, [3], CPU()))
    return x * w + 1


def _python(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def mef(tmp_path_factory):
    """A graph with a weight and a symbolic dim, exported before any call
    and without its weights."""
    path = tmp_path_factory.mktemp("mef") / "scaled.mef"
    compile(scaled)(ROWS3).export_mef(path)
    return path


def test_a_mef_runs_in_another_process_without_compiling(mef):
    result = _python("""
        import sys
        import numpy as np
        from mo import compiler, engine
        model = engine.InferenceSession().load(sys.argv[1],
                                               weights_registry={"w": np.float32([1, 2, 3])})
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        (y,) = model.execute(x)
        np.testing.assert_array_equal(y.to_numpy(), x * [1, 2, 3] + 1)
        stats = compiler.stats()
        print(stats["pipelines"], stats["code_generations"], stats["pipeline_seconds"],
              stats["code_generation_seconds"])
        """, str(mef))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0", "0", "0.0", "0.0"], result.stdout


def test_stats_count_and_time_what_a_compile_runs(tmp_path):
    """A cold compile runs pass pipelines and one code generation, and their
    seconds add up to part of its time; compiled again from the cache, it
    runs neither."""
    result = _python("""
        import json, os, sys, time
        os.environ.update(MO_CACHE="1", MO_CACHE_DIR=sys.argv[1])  # a cache of its own
        import numpy as np
        from mo import compiler
        from mo.compilation import compile
        from mo.driver import CPU
        from mo.dtype import DType
        from mo.sharding import TensorLayout

        def double(x):
            return x * 2

        spec = TensorLayout(DType.float32, [4], CPU())
        start = time.perf_counter()
        compile(double)(spec)(np.ones(4, np.float32))
        took = time.perf_counter() - start
        cold = compiler.stats()
        compile(double)(spec)(np.ones(4, np.float32))
        print(json.dumps([took, cold, compiler.stats()]))
        """, str(tmp_path))
    assert result.returncode == 0, result.stderr
    took, cold, warm = json.loads(result.stdout)
    assert cold["pipelines"] >= 1 and cold["code_generations"] == 1, cold
    assert 0 < cold["pipeline_seconds"] and 0 < cold["code_generation_seconds"], cold
    assert cold["pipeline_seconds"] + cold["code_generation_seconds"] < took, (cold, took)
    assert warm == cold


def test_metadata_keeps_symbolic_dims_and_names(mef):
    compiled = engine.read(mef)
    (spec,) = compiled.input_metadata
    assert (spec.shape, spec.dims, spec.dtype, spec.name) == ([None, 3], ["n", "3"],
                                                               DType.float32, "0")
    assert compiled.output_metadata[0].dims == ["n", "3"]
    assert compiled.weights == [("w", DType.float32, [3])]
    manifest = compiled.manifest
    assert manifest["format"] == 1 and manifest["entry"] == "scaled"
    assert set(manifest["target"]) == {"triple", "cpu", "features"}
    assert len(manifest["content_hash"]) == 64


def test_read_takes_paths_files_and_bytes_and_writes_back_the_same_bytes(mef, tmp_path):
    data = mef.read_bytes()
    for source in (str(mef), mef, io.BytesIO(data), data):
        assert engine.read(source).name == "scaled"
    engine.read(mef).export_mef(tmp_path / "copy.mef")
    assert (tmp_path / "copy.mef").read_bytes() == data
    with pytest.raises(TypeError, match="expected a path, a binary file or bytes"):
        engine.read(3)
    with pytest.raises(OSError):
        engine.read(tmp_path / "missing.mef")


def _sections(data: bytes) -> tuple[bytes, bytes, list[bytes]]:
    """The manifest, bytecode and object sections, verified."""
    return compiler.runtime_module().read_artifact(data)


def test_the_artifact_holds_the_manifest_the_linalg_module_and_object_code(mef):
    from mo import _context
    from mo._mlir import ir

    manifest, bytecode, objects = _sections(mef.read_bytes())
    assert json.loads(manifest)["entry"] == "scaled"
    assert objects and all(o.startswith(b"\x7fELF") for o in objects)
    assert bytecode.startswith(b"ML\xefR")
    with _context.context():
        module = ir.Module.parse(bytecode)
    text = str(module)
    assert "linalg.generic" in text and "mo.entry" in text and "mo.weight" in text


def test_session_weights_are_checked_by_name_dtype_and_shape(mef):
    session = engine.InferenceSession(devices=[CPU()])
    with pytest.raises(ValueError, match=r"missing weight 'w' \(float32 shape \[3\]\)"):
        session.load(mef)
    with pytest.raises(ValueError, match=r"weight 'w': expected float32 shape \[3\], got "
                                         r"float64 shape \[3\]"):
        session.load(mef, weights_registry={"w": np.ones(3)})
    with pytest.raises(ValueError, match=r"weight 'w': expected float32 shape \[3\], got "
                                         r"float32 shape \[4\]"):
        session.load(mef, weights_registry={"w": np.ones(4, np.float32)})
    model = session.load(mef, weights_registry={"w": 2.0})
    assert session.models == [model]
    np.testing.assert_array_equal(model(np.ones((1, 3), np.float32))[0].to_numpy(), [[3, 3, 3]])


def test_execute_checks_inputs_against_the_signature(mef):
    model = engine.InferenceSession().load(mef, weights_registry={"w": 1.0})
    with pytest.raises(ValueError, match=r"argument 0: expected float32 shape \[n, 3\] on "
                                         r"cpu:0, got float64 shape \[2, 3\]"):
        model.execute(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"got float32 shape \[2, 4\]"):
        model.execute(np.ones((2, 4), np.float32))
    with pytest.raises(ValueError, match="expected 1 inputs, got 2"):
        model.execute(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match="argument 0: expected a Tensor or Buffer, got list"):
        model.execute([1.0, 2.0, 3.0])
    # Non-contiguous inputs are copied, not misread.
    x = np.arange(12, dtype=np.float32).reshape(3, 4)[:, :3]
    np.testing.assert_array_equal(model.execute(x)[0].to_numpy(), x + 1)
    # A zero-size batch runs.
    assert model.execute(np.ones((0, 3), np.float32))[0].to_numpy().shape == (0, 3)


def test_same_named_dims_and_dim_expressions_are_checked():
    def pair(a, b):
        return F.concat([a, b], axis=0)

    run = compile(pair)(TensorLayout(DType.float32, ["n", "k"], CPU()),
                        TensorLayout(DType.float32, ["n", "k"], CPU()))
    model = engine.InferenceSession().load(run)
    with pytest.raises(ValueError, match="dim 'k' is 2 in argument 0 but 3 in argument 1"):
        model.execute(np.ones((1, 2), np.float32), np.ones((1, 3), np.float32))
    with pytest.raises(ValueError, match="dim 'n' is 1 at axis 0 but 2 at axis 1"):
        compile(lambda a: a + 1)(TensorLayout(DType.float32, ["n", "n"], CPU()))
        engine.InferenceSession().load(
            compile(lambda a: a + 1)(TensorLayout(DType.float32, ["n", "n"], CPU()))
        ).execute(np.ones((1, 2), np.float32))

    def flat(a, b):
        return F.reshape(a, [-1]) + b

    run = compile(flat)(TensorLayout(DType.float32, ["r", 2], CPU()),
                        TensorLayout(DType.float32, [Dim("r") * 2], CPU()))
    model = engine.InferenceSession().load(run)
    y = model.execute(np.ones((2, 2), np.float32), np.ones(4, np.float32))[0].to_numpy()
    np.testing.assert_array_equal(y, np.full(4, 2.0))
    with pytest.raises(ValueError, match=r"dim 0 is r \* 2 = 4 with r=2"):
        model.execute(np.ones((2, 2), np.float32), np.ones(5, np.float32))


def test_results_sized_by_the_data_are_trimmed():
    x = np.array([[0, 1, 0], [2, 0, 3]], np.float32)

    def nz(a):
        return F.nonzero(a, "k")

    model = engine.InferenceSession().load(compile(nz)(TensorLayout(DType.float32, [2, 3],
                                                                    CPU())))
    (y,) = model.execute(x)
    np.testing.assert_array_equal(y.to_numpy(), np.argwhere(x))

    def nz_t(a):  # the bound dim not leading: compacted in place
        return F.transpose(F.nonzero(a, "k"), 0, 1)

    model = engine.InferenceSession().load(compile(nz_t)(TensorLayout(DType.float32, [2, 3],
                                                                      CPU())))
    (y,) = model.execute(x)
    np.testing.assert_array_equal(y.to_numpy(), np.argwhere(x).T)


def test_buffers_bfloat16_and_pooled_results():
    import ml_dtypes

    layout = TensorLayout(DType.bfloat16, [4], CPU())
    model = engine.InferenceSession().load(compile(lambda x: x * 2)(layout))
    x = np.arange(4).astype(ml_dtypes.bfloat16)
    (y,) = model.execute(x)
    assert y.to_numpy().dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(y.to_numpy().astype(np.float32), [0, 2, 4, 6])
    # Large results come from the model's pool once the caller drops them.
    big = engine.InferenceSession().load(compile(lambda x: x + 1)(
        TensorLayout(DType.float32, [1 << 16], CPU())))
    ones = np.ones(1 << 16, np.float32)
    first = big.execute(ones)[0].to_numpy()
    address = first.ctypes.data
    del first
    again = big.execute(ones)[0].to_numpy()
    assert again.ctypes.data == address
    np.testing.assert_array_equal(again, 2.0)
    kept = big.execute(ones)[0].to_numpy()  # `again` is alive: another block
    assert kept.ctypes.data != again.ctypes.data


def test_buffer_arguments_are_written_and_may_not_alias():
    def accumulate(acc, x):
        F.buffer_store(acc, acc + x)
        return x * 1

    layouts = (BufferLayout(DType.float32, [3], CPU()), TensorLayout(DType.float32, [3], CPU()))
    run = compile(accumulate)(*layouts)
    model = engine.InferenceSession().load(run)
    acc = np.zeros(3, np.float32)
    model.execute(acc, np.ones(3, np.float32))
    np.testing.assert_array_equal(acc, 1.0)
    with pytest.raises(ValueError, match="argument 0 is a buffer that shares memory with "
                                         "argument 1"):
        model.execute(acc, acc)
    # Read-only memory for a buffer is refused before the code writes it,
    # through every entry point.
    frozen = np.zeros(3, np.float32)
    frozen.flags.writeable = False
    for call in (model.execute, run, run.execute_raw):
        with pytest.raises(ValueError, match="argument 0"):
            call(frozen, np.ones(3, np.float32))
    assert (frozen == 0).all()


def test_one_model_runs_on_several_threads_at_once(mef):
    # Calls build their descriptors on the stack and results come from a
    # locked pool: concurrent calls of one model each get their own answer.
    from concurrent.futures import ThreadPoolExecutor

    model = engine.InferenceSession().load(mef, weights_registry={"w": np.float32([1, 2, 3])})
    run = compile(scaled, weights={"w": np.float32([1, 2, 3])})(ROWS3)

    def work(i):
        x = np.full((64 + i, 3), float(i), np.float32)
        for _ in range(50):
            (y,) = model.execute(x)
            np.testing.assert_array_equal(y.to_numpy(), x * [1, 2, 3] + 1)
            np.testing.assert_array_equal(run(x).to_numpy(), x * [1, 2, 3] + 1)
        return i

    with ThreadPoolExecutor(4) as pool:
        assert sorted(pool.map(work, range(8))) == list(range(8))


# -- bad artifacts -------------------------------------------------------------------


def _read_in_subprocess(data: bytes, tmp_path) -> subprocess.CompletedProcess:
    path = tmp_path / "bad.mef"
    path.write_bytes(data)
    return _python("""
        import sys
        from mo import engine
        try:
            engine.read(sys.argv[1])
        except ValueError as e:
            print("ValueError:", e)
        else:
            print("loaded")
        """, str(path))


def _rewrite(mef_path, change) -> bytes:
    """The artifact with its manifest changed and the checksum made good."""
    manifest, bytecode, objects = _sections(mef_path.read_bytes())
    manifest = json.loads(manifest)
    change(manifest)
    return compiler.runtime_module().write_artifact(json.dumps(manifest), bytecode, objects)


@pytest.mark.parametrize("case", ["empty", "magic only", "truncated header", "truncated",
                                  "trailing", "flip header", "flip manifest", "flip object",
                                  "flip checksum", "future version", "text", "elf"])
def test_bad_artifacts_are_value_errors(case, mef, tmp_path):
    data = mef.read_bytes()
    mid_object = data.index(_sections(data)[2][0]) + 100

    def flip(at):
        return data[:at] + bytes([data[at] ^ 0x10]) + data[at + 1:]

    bad, expected = {
        "empty": (b"", "not a mo artifact"),
        "magic only": (data[:8], "truncated"),
        "truncated header": (data[:20], "truncated"),
        "truncated": (data[:len(data) // 2], "truncated"),
        "trailing": (data + b"\0", "trailing bytes"),
        "flip header": (flip(30), "corrupt"),
        "flip manifest": (flip(200), "corrupt"),
        "flip object": (flip(mid_object), "corrupt"),
        "flip checksum": (flip(len(data) - 3), "corrupt"),
        "future version": (data[:8] + (7).to_bytes(4, "little") + data[12:],
                           "written by a newer mo .format version 7"),
        "text": (b"mo.graph @f() { mo.output }\n" * 4, "not a mo artifact"),
        "elf": (open(sys.executable, "rb").read(4096), "not a mo artifact"),
    }[case]
    result = _read_in_subprocess(bad, tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    import re

    assert re.search(r"ValueError: .*bad\.mef: .*" + expected, result.stdout), result.stdout


@pytest.mark.parametrize("case", ["features", "triple", "format", "dtype", "dims", "missing",
                                  "not json", "deep dims"])
def test_bad_manifests_are_value_errors(case, mef, tmp_path):
    def change(m):
        if case == "features":
            m["target"]["features"] += ",+mo-imaginary-feature"
        elif case == "triple":
            m["target"]["triple"] = "riscv64-unknown-linux-gnu"
        elif case == "format":
            m["format"] = 2
        elif case == "dtype":
            m["inputs"][0]["dtype"] = "complex64"
        elif case == "dims":
            m["inputs"][0]["shape"][0] = ["pow", "n", 2]
        elif case == "missing":
            del m["outputs"]
        elif case == "deep dims":
            d = "n"
            for _ in range(200):
                d = ["add", d, 1]
            m["inputs"][0]["shape"][0] = d

    if case == "not json":
        data = compiler.runtime_module().write_artifact("{not json", b"", [b""])
    else:
        data = _rewrite(mef, change)
    expected = {
        "features": r"compiled for CPU features this host lacks \(\+mo-imaginary-feature\)",
        "triple": "compiled for riscv64-unknown-linux-gnu, this host is",
        "format": "format 2; this runtime reads format 1",
        "dtype": "unknown dtype 'complex64'",
        "dims": "malformed dim at axis 0",
        "missing": "has no 'outputs'",
        "not json": "malformed manifest",
        "deep dims": "malformed",
    }[case]
    result = _read_in_subprocess(data, tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    import re

    assert re.search("ValueError: .*" + expected, result.stdout), result.stdout


# -- the C API -----------------------------------------------------------------------


def test_a_c_host_runs_a_mef(mef, tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH to build the C host")
    library = engine.library_path()
    exe = tmp_path / "run_mef"
    build = subprocess.run(
        [cc, "-std=c99", "-Wall", "-Werror", "-I", engine.include_dir(), C_HOST, "-o", str(exe),
         library, f"-Wl,-rpath,{os.path.dirname(library)}"],
        capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    from mo.compiler import _openmp_runtime

    env = dict(os.environ)
    if _openmp_runtime():
        env["LD_LIBRARY_PATH"] = os.path.dirname(_openmp_runtime())
    run = subprocess.run([str(exe), str(mef), "2"], capture_output=True, text=True, env=env,
                         timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert "entry scaled" in lines
    assert "input 0 float32 [n, 3]" in lines
    assert "weight w float32 [3]" in lines
    assert "key w" in lines
    assert "output shape [2, 3]: 1 1.5 2 2.5 3 3.5" in lines
    assert any(line.startswith("error in execute (code 1): argument 0: expected float32 shape "
                               "[n, 3] on cpu:0, got int32 shape [2, 3]") for line in lines)
    assert any(line.startswith("error in execute (code 1): argument 0: expected float32 shape "
                               "[n, 3] on cpu:0, got ? shape [2, 3]") for line in lines)
    # A missing file and a corrupt one are statuses, not crashes.
    run = subprocess.run([str(exe), str(tmp_path / "none.mef"), "2"], capture_output=True,
                         text=True, env=env, timeout=60)
    assert run.returncode == 1 and "error in load (code 3): cannot read" in run.stdout
    corrupt = tmp_path / "corrupt.mef"
    data = mef.read_bytes()
    corrupt.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])
    run = subprocess.run([str(exe), str(corrupt), "2"], capture_output=True, text=True, env=env,
                         timeout=60)
    assert run.returncode == 1 and "(code 2)" in run.stdout and "corrupt" in run.stdout


def test_doctests():
    import doctest

    from mo import compiler

    assert doctest.testmod(engine).failed == 0
    assert doctest.testmod(compiler).failed == 0


def test_execute_into_lays_out_data_sized_outputs_for_their_sizes(tmp_path):
    """moModelExecuteInto through ctypes: nonzero's count is a non-leading dim
    of the transposed result, so the runtime compacts the caller's buffer to
    row-major [2, count], as moModelExecute's results are."""
    import ctypes

    path = tmp_path / "nz.mef"
    compile(lambda x: F.nonzero(x, "count").transpose(0, 1))(
        TensorLayout(DType.float32, [3, 4], CPU())).export_mef(path)
    lib = ctypes.CDLL(engine.library_path())
    i64p = ctypes.POINTER(ctypes.c_int64)

    class View(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int), ("rank", ctypes.c_int64),
                    ("shape", i64p), ("strides", i64p), ("readOnly", ctypes.c_bool)]

    lib.moStatusCreate.restype = ctypes.c_void_p
    lib.moModelLoadFile.restype = ctypes.c_void_p
    lib.moModelLoadFile.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p]
    lib.moModelOutputShape.argtypes = [ctypes.c_void_p, ctypes.POINTER(View), ctypes.c_size_t,
                                       ctypes.c_size_t, i64p, ctypes.c_void_p]
    lib.moModelExecuteInto.argtypes = [ctypes.c_void_p, ctypes.POINTER(View), ctypes.c_size_t,
                                       ctypes.POINTER(View), ctypes.c_size_t, i64p,
                                       ctypes.c_void_p]
    lib.moStatusMessage.restype = ctypes.c_char_p
    lib.moStatusMessage.argtypes = [ctypes.c_void_p]
    status = lib.moStatusCreate()
    model = lib.moModelLoadFile(str(path).encode(), None, status)
    assert model, lib.moStatusMessage(status)
    x = np.zeros((3, 4), np.float32)
    x[0, 1] = x[2, 0] = x[2, 3] = 1
    x_shape = (ctypes.c_int64 * 2)(3, 4)
    inputs = (View * 1)(View(x.ctypes.data, 2, 2, x_shape, None, True))  # 2: float32
    bound = (ctypes.c_int64 * 2)()
    assert lib.moModelOutputShape(model, inputs, 1, 0, bound, status), \
        lib.moStatusMessage(status)
    assert list(bound) == [2, 12]
    out = np.full(24, -1, np.int64)
    out_shape = (ctypes.c_int64 * 2)(*bound)
    outputs = (View * 1)(View(out.ctypes.data, 7, 2, out_shape, None, False))  # 7: int64
    actual = (ctypes.c_int64 * 2)()
    assert lib.moModelExecuteInto(model, inputs, 1, outputs, 1, actual, status), \
        lib.moStatusMessage(status)
    assert list(actual) == [2, 3]
    want = np.nonzero(x)
    assert out[:6].reshape(2, 3).tolist() == [list(want[0]), list(want[1])]
    lib.moModelDestroy.argtypes = [ctypes.c_void_p]
    lib.moStatusDestroy.argtypes = [ctypes.c_void_p]
    lib.moModelDestroy(model)
    lib.moStatusDestroy(status)
