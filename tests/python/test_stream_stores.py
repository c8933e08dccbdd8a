"""Streaming stores (mo-stream-stores, moJitCompile): a kernel's large
write-only results are written past the caches where they are 64-byte
aligned, and correctly either way. The threshold is lowered to 4 KiB here
(it is the host's last-level cache by default), so small graphs stream."""

import platform

import numpy as np
import pytest

from mo import compilation, compiler
from mo import functional as F
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout

SFENCE = b"\x0f\xae\xf8"  # ends each function that made streaming stores
X86 = platform.machine().lower() in ("x86_64", "amd64")


def L(*shape):
    return TensorLayout(DType.float32, list(shape), CPU())


@pytest.fixture
def compiled(monkeypatch):
    """The object files each compile generates, in order; nothing from the
    compile cache."""
    real_codegen = compiler._codegen
    objects = []

    def codegen(module, pipeline, opt_level):
        objects.append(real_codegen(module, pipeline, opt_level))
        return objects[-1]

    monkeypatch.setattr(compiler, "_codegen", codegen)
    monkeypatch.setenv("MO_CACHE", "0")
    yield objects


@pytest.fixture
def objects(compiled, monkeypatch):
    """``compiled``, streaming results of 4 KiB and more."""
    capturing = compiler._codegen

    def codegen(module, pipeline, opt_level):
        return capturing(module, pipeline[:-1] + " stream-min-bytes=4096}", opt_level)

    monkeypatch.setattr(compiler, "_codegen", codegen)
    yield compiled


def eltwise(x):
    return F.relu(x * 2.0 + 1.0) * x


def reference(x):
    return np.maximum(x * 2 + 1, 0) * x


def misaligned_output(run, *inputs, shape=None):
    """``run`` on ``inputs`` with its output (of ``shape``, by default the
    first input's) written through a view 4 bytes past a 64-byte boundary
    (as a torch tensor's storage offset can put it)."""
    shape = shape or inputs[0].shape
    size = int(np.prod(shape))
    raw = np.zeros(size + 32, np.float32)
    start = (-raw.ctypes.data // 4) % 16 + 1  # one float past a line
    out = raw[start:start + size].reshape(shape)
    assert out.ctypes.data % 64 == 4
    run._exe.run_views([(a.ctypes.data, list(a.shape), [s // a.itemsize for s in a.strides])
                        for a in (*inputs, out)])
    return out


@pytest.mark.parametrize("threads", [1, 2], indirect=True)
@pytest.mark.parametrize("shape", [(256, 1024), (257, 1040)])
def test_streamed_results_match_numpy(objects, threads, shape):
    """Rows of whole cache lines stream (a store fence in the code) and match
    numpy, through the aligned output mo allocates and through a misaligned
    one (the kernel as it was)."""
    run = compilation.compile(eltwise)(L(*shape))
    x = np.random.default_rng(1).standard_normal(shape, np.float32)
    if X86:
        assert any(SFENCE in o for o in objects[-1])
    np.testing.assert_allclose(run(x).to_numpy(), reference(x), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(misaligned_output(run, x), reference(x), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("threads", [1, 2], indirect=True)
@pytest.mark.parametrize("m", [64, 67])
def test_streamed_matmul(objects, threads, m):
    """A matmul's result, written by vector transfers, matches numpy, aligned
    and misaligned; where the rows fill the register tiles (64), the writes
    stream (67 rows: every write of a padded tile is masked, and stays)."""
    run = compilation.compile(lambda a, b: F.relu(a @ b))(L(m, 96), L(96, 256))
    rng = np.random.default_rng(5)
    a = rng.standard_normal((m, 96), np.float32)
    b = rng.standard_normal((96, 256), np.float32)
    want = np.maximum(a @ b, 0)
    if X86 and m == 64:
        assert any(SFENCE in o for o in objects[-1])
    np.testing.assert_allclose(run(a, b).to_numpy(), want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(misaligned_output(run, a, b, shape=(m, 256)), want, rtol=1e-4,
                               atol=1e-4)


@pytest.mark.parametrize("threads", [1, 2], indirect=True)
def test_run_time_rows_are_not_streamed(objects, threads):
    """A run-time row count keeps its stores (a twin would cost every
    symbolic graph's compile time, for sizes only known when it runs), and
    the results are right through aligned and misaligned outputs."""
    run = compilation.compile(eltwise)(L("n", 512))
    assert not any(SFENCE in o for o in objects[-1])
    rng = np.random.default_rng(4)
    for rows in (1, 2, 3, 257):
        x = rng.standard_normal((rows, 512), np.float32)
        np.testing.assert_allclose(run(x).to_numpy(), reference(x), rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(misaligned_output(run, x), reference(x), rtol=1e-6,
                                   atol=1e-6)


def test_not_streamed(objects):
    """Kernels whose buffers together are below the threshold, rows that are
    not whole cache lines, and results the kernel reads again (softmax's exp,
    stored and then scaled) keep their stores: no store fence."""
    rng = np.random.default_rng(2)
    small = compilation.compile(eltwise)(L(4, 64))  # 1 KiB in, 1 KiB out
    ragged = compilation.compile(eltwise)(L(256, 1000))  # rows of 4000 bytes
    softmax = compilation.compile(F.softmax)(L(256, 1024))  # exp stored, then scaled
    for run, shape in ((small, (4, 64)), (ragged, (256, 1000))):
        x = rng.standard_normal(shape, np.float32)
        np.testing.assert_allclose(run(x).to_numpy(), reference(x), rtol=1e-6, atol=1e-6)
    x = rng.standard_normal((256, 1024), np.float32)
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(softmax(x).to_numpy(), e / e.sum(-1, keepdims=True),
                               rtol=1e-5, atol=1e-7)
    assert len(objects) == 3
    assert not any(SFENCE in o for compiled in objects for o in compiled)


@pytest.mark.parametrize("threads", [1, 2], indirect=True)
def test_layer_norm_writes_its_output_once(objects, threads):
    """A layer norm recomputes x - mean in its last pass instead of storing it
    from the variance's (mo-fuse-elementwise), so the kernel only writes its
    output, and streams it."""
    rng = np.random.default_rng(5)
    gamma = rng.standard_normal(256).astype(np.float32)
    beta = rng.standard_normal(256).astype(np.float32)
    run = compilation.compile(lambda x: F.layer_norm(x, gamma, beta, 1e-5))(L(64, 256))
    if X86:
        assert any(SFENCE in o for o in objects[-1])
    x = (rng.standard_normal((64, 256)) * 3 + 100).astype(np.float32)
    mean = x.mean(-1, keepdims=True, dtype=np.float64)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    want = (x - mean) / np.sqrt(var + 1e-5) * gamma + beta
    np.testing.assert_allclose(run(x).to_numpy(), want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(misaligned_output(run, x, shape=(64, 256)), want, rtol=1e-4,
                               atol=1e-4)


def test_default_threshold_is_the_last_level_cache(compiled):
    """Without the option, a kernel of 2 MiB (1 MiB read, 1 MiB written)
    keeps its result in the caches (every host's last-level cache is
    larger)."""
    run = compilation.compile(eltwise)(L(256, 1024))
    x = np.random.default_rng(3).standard_normal((256, 1024), np.float32)
    np.testing.assert_allclose(run(x).to_numpy(), reference(x), rtol=1e-6, atol=1e-6)
    assert compiled and not any(SFENCE in o for o in compiled[0])
