"""Quantized graph ops (issue 4): qmatmul and dequantize vs numpy, errors."""

import numpy as np
import pytest

from mo import compilation, compiler
from mo import functional as F
from mo.compiler import Executable
from mo.driver import CPU
from mo.dtype import DType
from mo.graph import ops
from mo.graph.graph import Graph
from mo.graph.quantization import QuantizationEncoding as Q
from mo.graph.quantization import dequantize, quantize
from mo.graph.type import DeviceRef, TensorType
from mo.sharding import TensorLayout

ENCODINGS = [Q.Q4_0, Q.Q4_K, Q.Q5_K, Q.Q6_K]
CPU_REF = DeviceRef.CPU()
# float32 accumulation over K terms in a different order than numpy's BLAS.
RTOL = 2e-5


def _weights(enc, n, k, seed=0):
    rng = np.random.default_rng(seed)
    q = quantize(enc, rng.standard_normal((n, k)).astype(np.float32))
    return q, dequantize(enc, q)


def _qmatmul(enc, x, q):
    with Graph("qmm", [TensorType(DType.float32, list(x.shape), CPU_REF),
                       TensorType(DType.uint8, list(q.shape), CPU_REF)]) as g:
        g.output(ops.qmatmul(enc, *g.inputs))
    out = np.empty((*x.shape[:-1], q.shape[0]), np.float32)
    Executable(g.module).run([x, q], [], [out])
    return out


def _check(enc, m, k, n):
    q, w = _weights(enc, n, k)
    x = np.random.default_rng(1).standard_normal((m, k)).astype(np.float32)
    expected = x @ w.T
    got = _qmatmul(enc, x, q)
    scale = max(1.0, float(np.abs(expected).max()))
    np.testing.assert_allclose(got, expected, rtol=RTOL, atol=RTOL * scale * np.sqrt(k) / 8)


@pytest.mark.parametrize("enc", ENCODINGS, ids=lambda e: e.name)
@pytest.mark.parametrize("m", [1, 7, 64])
@pytest.mark.parametrize("k", [256, 4096])
@pytest.mark.parametrize("n", [1, 33])
def test_qmatmul_matches_numpy(enc, m, k, n):
    _check(enc, m, k, n)


@pytest.mark.parametrize("enc", ENCODINGS, ids=lambda e: e.name)
@pytest.mark.parametrize("m, k", [(1, 256), (7, 256), (1, 4096)])
def test_qmatmul_wide_n(enc, m, k):
    _check(enc, m, k, 4096)


@pytest.mark.parametrize("enc", ENCODINGS, ids=lambda e: e.name)
def test_dequantize_op_is_bit_exact(enc):
    q, w = _weights(enc, 5, 512, seed=3)
    with Graph("dq", [TensorType(DType.uint8, list(q.shape), CPU_REF)]) as g:
        g.output(ops.dequantize(enc, g.inputs[0]))
    out = np.empty(w.shape, np.float32)
    Executable(g.module).run([q], [], [out])
    assert np.array_equal(out.view(np.uint32), w.view(np.uint32))


@pytest.mark.parametrize("enc", ENCODINGS, ids=lambda e: e.name)
@pytest.mark.parametrize("lead", [(), (2, 3)], ids=["vector", "rank3"])
def test_dequantize_op_of_any_rank_is_bit_exact(enc, lead):
    """The kernel folds leading dims into its rows (a vector is one row)."""
    q, w = _weights(enc, 6, 512, seed=8)
    q, w = q[: int(np.prod(lead, dtype=int))], w[: int(np.prod(lead, dtype=int))]
    q, w = q.reshape(*lead, q.shape[-1]), w.reshape(*lead, w.shape[-1])
    with Graph("dq", [TensorType(DType.uint8, list(q.shape), CPU_REF)]) as g:
        g.output(ops.dequantize(enc, g.inputs[0]))
    out = np.empty(w.shape, np.float32)
    Executable(g.module).run([q], [], [out])
    assert np.array_equal(out.view(np.uint32), w.view(np.uint32))


@pytest.mark.parametrize("enc", [Q.Q4_0, Q.Q6_K], ids=lambda e: e.name)
def test_dequantize_op_of_symbolic_rows(enc, threads):
    """One compile for every row count (the rows split across threads)."""
    q, w = _weights(enc, 37, 256, seed=9)
    run = compilation.compile(lambda wq: F.dequantize(enc, wq))(
        TensorLayout(DType.uint8, ["rows", q.shape[1]], CPU()))
    for rows in (37, 1, 5):
        got = run(q[:rows]).to_numpy()
        assert np.array_equal(got.view(np.uint32), w[:rows].view(np.uint32))


@pytest.mark.parametrize("enc", ENCODINGS, ids=lambda e: e.name)
def test_qmatmul_and_dequantize_of_one_weight(enc):
    """MAX returned garbage for this combination; mo must not."""
    q, w = _weights(enc, 33, 256, seed=4)
    x = np.random.default_rng(5).standard_normal((3, 256)).astype(np.float32)

    def model(x):
        weight = F.constant_external("w", TensorLayout(DType.uint8, list(q.shape), CPU()))
        return F.qmatmul(enc, x, weight), F.dequantize(enc, weight)

    run = compilation.compile(model, weights={"w": q})(TensorLayout(DType.float32, [3, 256], CPU()))
    y, dq = run(x)
    assert np.array_equal(dq.to_numpy(), w)
    np.testing.assert_allclose(y.to_numpy(), x @ w.T, rtol=RTOL, atol=1e-4)


@pytest.mark.parametrize("enc", ENCODINGS, ids=lambda e: e.name)
@pytest.mark.parametrize("m, n", [(5, 130), (9, 67), (4, 64)])
def test_qmatmul_tiles_and_chunks(enc, m, n, threads):
    """The kernel's edges: lhs rows in tiles of 4 then one at a time, weight
    rows in chunks of 64 shared by the threads, each chunk in tiles of 4
    (the last partly outside it)."""
    assert compiler.num_threads() == threads
    _check(enc, m, 512, n)


@pytest.mark.parametrize("enc", ENCODINGS, ids=lambda e: e.name)
@pytest.mark.parametrize("m", [9, 64])
def test_qmatmul_panels_sum_as_tiles_do(enc, m, threads):
    """Many lhs rows (a prefill) read weights decoded a panel at a time,
    their sums kept across blocks of K; a row alone decodes in its tile.
    Each output is summed in the same order either way: equal to the bit.
    (K = 2048: two blocks of K; N = 70: a chunk and a partial panel.)"""
    q, _ = _weights(enc, 70, 2048, seed=6)
    x = np.random.default_rng(7).standard_normal((m, 2048)).astype(np.float32)
    together = _qmatmul(enc, x, q)
    alone = np.concatenate([_qmatmul(enc, x[i:i + 1], q) for i in range(m)])
    assert np.array_equal(together.view(np.uint32), alone.view(np.uint32))


@pytest.mark.parametrize("enc", ENCODINGS, ids=lambda e: e.name)
def test_qmatmul_symbolic_rows_take_panels_at_run_time(enc):
    """A run-time row count chooses panels or per-tile decoding as it runs
    (from 8 rows, 64 for Q4_0): one compile, the same bits either way."""
    q, _ = _weights(enc, 70, 2048, seed=10)
    run = compilation.compile(lambda x, wq: F.qmatmul(enc, x, wq))(
        TensorLayout(DType.float32, ["m", 2048], CPU()),
        TensorLayout(DType.uint8, list(q.shape), CPU()))
    x = np.random.default_rng(11).standard_normal((66, 2048)).astype(np.float32)
    alone = np.concatenate([run(x[i:i + 1], q).to_numpy() for i in range(66)])
    for m in (3, 9, 66):
        got = run(x[:m], q).to_numpy()
        assert np.array_equal(got.view(np.uint32), alone[:m].view(np.uint32)), m


@pytest.mark.parametrize("enc", ENCODINGS, ids=lambda e: e.name)
def test_qmatmul_without_schedules(enc, failing_schedules):
    """qmatmul compiled by the pipeline without schedules (the fallback when
    one fails), where mo-lower-vectors does not run on its vector kernels,
    still matches numpy."""
    with pytest.warns(RuntimeWarning, match="compiled without them"):
        _check(enc, 7, 512, 33)


def test_qmatmul_symbolic_batch_and_rank3_lhs():
    q, w = _weights(Q.Q4_0, 9, 64)
    run = compilation.compile(lambda x, wq: F.qmatmul(Q.Q4_0, x, wq))(
        TensorLayout(DType.float32, ["b", "s", 64], CPU()),
        TensorLayout(DType.uint8, list(q.shape), CPU()))
    for b in (0, 1, 3, 5):
        x = np.random.default_rng(b).standard_normal((b, 2, 64)).astype(np.float32)
        out = run(x, q).to_numpy()
        assert out.shape == (b, 2, 9)
        np.testing.assert_allclose(out, x @ w.T, rtol=RTOL, atol=1e-4)


def test_eager_qmatmul():
    q, w = _weights(Q.Q6_K, 4, 256)
    x = np.ones((2, 256), np.float32)
    from mo.tensor import Tensor

    out = F.qmatmul("Q6_K", Tensor(x), Tensor(q)).to_numpy()
    np.testing.assert_allclose(out, x @ w.T, rtol=RTOL, atol=1e-4)


def _stage_qmatmul(enc, lhs_type, rhs_type):
    def f(x, wq):
        return F.qmatmul(enc, x, wq)

    return compilation.stage(f)(lhs_type, rhs_type)


@pytest.mark.parametrize("lhs, rhs, message", [
    (TensorLayout(DType.float32, [2, 32], CPU()), TensorLayout(DType.int8, [3, 18], CPU()),
     "rhs must be uint8"),
    (TensorLayout(DType.float32, [2, 32], CPU()), TensorLayout(DType.uint8, [3, 20], CPU()),
     "not a multiple of the q4_0 block size"),
    (TensorLayout(DType.float32, [2, 64], CPU()), TensorLayout(DType.uint8, [3, 18], CPU()),
     "lhs has K = \\[64\\] but rhs rows hold 32 values"),
    (TensorLayout(DType.float16, [2, 32], CPU()), TensorLayout(DType.uint8, [3, 18], CPU()),
     "lhs must be float32"),
    (TensorLayout(DType.float32, [2, 32], CPU()), TensorLayout(DType.uint8, [3, "b"], CPU()),
     "static last dim"),
])
def test_qmatmul_errors(lhs, rhs, message):
    with pytest.raises(ValueError, match=message):
        _stage_qmatmul(Q.Q4_0, lhs, rhs)


def test_unknown_encoding_and_custom_encoding_errors():
    with pytest.raises(ValueError, match="Q9_9"):
        _stage_qmatmul("Q9_9", TensorLayout(DType.float32, [2, 32], CPU()),
                       TensorLayout(DType.uint8, [3, 18], CPU()))


def test_quantize_op_embeds_constant_and_rejects_graph_values():
    w = np.random.default_rng(0).standard_normal((4, 64)).astype(np.float32)

    def model(x):
        return F.qmatmul(Q.Q4_0, x, F.constant(quantize(Q.Q4_0, w), DType.uint8))

    run = compilation.compile(model)(TensorLayout(DType.float32, [1, 64], CPU()))
    x = np.ones((1, 64), np.float32)
    np.testing.assert_allclose(run(x).to_numpy(), x @ dequantize(Q.Q4_0, quantize(Q.Q4_0, w)).T,
                               rtol=RTOL, atol=1e-4)
    with Graph("g", [TensorType(DType.float32, [4, 64], CPU_REF)]) as g:
        quantized = g.quantize(Q.Q4_0, w)
        assert quantized.dtype is DType.uint8 and [d.value for d in quantized.shape] == [4, 36]
        with pytest.raises(NotImplementedError, match="quantize the weights ahead of time"):
            ops.quantize(Q.Q4_0, g.inputs[0])
