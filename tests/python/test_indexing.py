"""Gathers, scatters and sorting against numpy/torch, eager and compiled,
and the defined behaviour of out-of-range runtime indices (gathers clamp,
scatters drop) next to the build-time errors for literal ones. Results are
exact: these ops move values without arithmetic (the reductions of
scatter_add/mul are compared with torch doing the same additions in order).
"""

import ml_dtypes
import numpy as np
import pytest
import torch

from mo import compilation
from mo import functional as F
from mo.compiler import CompileError
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout
from mo.tensor import Tensor

rng = np.random.default_rng(11)

DTYPES = [np.float32, np.float16, ml_dtypes.bfloat16, np.int32, np.uint8, np.int64, np.bool_]


def sample(shape, dtype):
    if dtype is np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 100, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_gather_matches_numpy_take(dtype, axis):
    x = sample((5, 4, 3), dtype)
    size = x.shape[axis]
    idx = rng.integers(-size, size, (2, 3))
    got = F.gather(Tensor(x), Tensor(idx), axis=axis).to_numpy()
    np.testing.assert_array_equal(got, np.take(x, idx, axis=axis))


@pytest.mark.parametrize("index_dtype", [np.int8, np.int32, np.uint16, np.uint64])
def test_gather_index_dtypes(index_dtype):
    x = sample((7, 2), np.float32)
    idx = np.array([6, 0, 3], index_dtype)
    np.testing.assert_array_equal(F.gather(Tensor(x), Tensor(idx), axis=0).to_numpy(), x[[6, 0, 3]])


def test_gather_runtime_out_of_range_clamps():
    x = sample((4, 3), np.float32)
    got = F.gather(Tensor(x), Tensor(np.array([9, -9, 3, -1])), axis=0).to_numpy()
    np.testing.assert_array_equal(got, x[[3, 0, 3, 3]])


def test_gather_embedding_symbolic_compiled():
    """An embedding lookup: [vocab, d] table, [batch, seq] ids."""
    run = compilation.compile(lambda t, i: F.gather(t, i, axis=0))(
        TensorLayout(DType.float32, ["vocab", 8], CPU()),
        TensorLayout(DType.int64, ["batch", "seq"], CPU()))
    for vocab, batch, seq in [(10, 2, 3), (50, 1, 7), (3, 0, 4)]:
        table = sample((vocab, 8), np.float32)
        ids = rng.integers(0, vocab, (batch, seq))
        np.testing.assert_array_equal(run(table, ids).to_numpy(), table[ids])


def test_gather_from_an_empty_axis_reads_nothing():
    run = compilation.compile(lambda t, i: F.gather(t, i, axis=0))(
        TensorLayout(DType.float32, ["n", 2], CPU()), TensorLayout(DType.int64, [3], CPU()))
    got = run(np.zeros((0, 2), np.float32), np.array([0, 5, -1])).to_numpy()
    np.testing.assert_array_equal(got, np.zeros((3, 2), np.float32))


@pytest.mark.parametrize("batch_dims", [0, 1])
def test_gather_nd_matches_torch_indexing(batch_dims):
    x = sample((3, 4, 5, 2), np.float32)
    if batch_dims == 0:
        idx = np.stack([rng.integers(-3, 3, (6,)), rng.integers(0, 4, (6,))], -1)
        ref = x[idx[:, 0], idx[:, 1]]
    else:
        idx = np.stack([rng.integers(0, 4, (3, 2)), rng.integers(-5, 5, (3, 2))], -1)
        ref = np.stack([x[b][idx[b, :, 0], idx[b, :, 1]] for b in range(3)])
    got = F.gather_nd(Tensor(x), Tensor(idx), batch_dims=batch_dims).to_numpy()
    np.testing.assert_array_equal(got, ref)


SCATTERS = [("scatter", None), ("scatter_add", "sum"), ("scatter_mul", "prod"),
            ("scatter_max", "amax"), ("scatter_min", "amin")]


@pytest.mark.parametrize("name,reduce", SCATTERS)
@pytest.mark.parametrize("axis", [0, 1])
def test_scatter_family_matches_torch(name, reduce, axis):
    x = rng.standard_normal((4, 5)).astype(np.float32)
    updates = rng.standard_normal((3, 4)).astype(np.float32)
    # Distinct indices per row/column for plain scatter (torch leaves ties undefined).
    if reduce is None:
        idx = np.stack([rng.permutation(x.shape[axis])[:updates.shape[axis]]
                        for _ in range(updates.shape[1 - axis])], 1 - axis)
    else:
        idx = rng.integers(0, x.shape[axis], updates.shape)
    got = getattr(F, name)(Tensor(x), Tensor(updates), Tensor(idx), axis=axis).to_numpy()
    xt, it, ut = torch.from_numpy(x), torch.from_numpy(idx), torch.from_numpy(updates)
    ref = (xt.scatter(axis, it, ut) if reduce is None
           else xt.scatter_reduce(axis, it, ut, reduce=reduce)).numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)


def test_scatter_repeated_index_last_update_wins_and_out_of_range_drops():
    x = np.zeros(4, np.float32)
    got = F.scatter(Tensor(x), Tensor(np.array([1., 2., 3., 4.], np.float32)),
                    Tensor(np.array([2, 2, 7, -1])), axis=0).to_numpy()
    np.testing.assert_array_equal(got, [0, 0, 2, 4])


def test_scatter_add_integers_and_bools():
    got = F.scatter_add(Tensor(np.zeros(3, np.int32)), Tensor(np.array([5, 6, 7], np.int32)),
                        Tensor(np.array([0, 0, 2])), axis=0).to_numpy()
    np.testing.assert_array_equal(got, [11, 0, 7])
    flags = F.scatter_add(Tensor(np.zeros(3, bool)), Tensor(np.array([True, True])),
                          Tensor(np.array([1, 1])), axis=0).to_numpy()
    np.testing.assert_array_equal(flags, [False, True, False])


@pytest.mark.parametrize("name,reduce", [("scatter_nd", None), ("scatter_nd_add", "sum"),
                                         ("scatter_nd_max", "amax"), ("scatter_nd_min", "amin"),
                                         ("scatter_nd_mul", "prod")])
def test_scatter_nd_family(name, reduce):
    x = rng.standard_normal((4, 3, 2)).astype(np.float32)
    idx = np.array([[1, 2], [3, 0], [1, 2]]) if reduce else np.array([[1, 2], [3, 0], [0, -1]])
    updates = rng.standard_normal((3, 2)).astype(np.float32)
    ref = x.copy()
    for (a, b), u in zip(idx, updates):
        cur = ref[a, b]
        ref[a, b] = {None: u, "sum": cur + u, "amax": np.maximum(cur, u),
                     "amin": np.minimum(cur, u), "prod": cur * u}[reduce]
    got = getattr(F, name)(Tensor(x), Tensor(updates), Tensor(idx)).to_numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-6)


def test_scatter_nd_whole_rows_symbolic_compiled():
    run = compilation.compile(lambda x, u, i: F.scatter_nd(x, u, i))(
        TensorLayout(DType.float32, ["n", 3], CPU()), TensorLayout(DType.float32, ["m", 3], CPU()),
        TensorLayout(DType.int64, ["m", 1], CPU()))
    x, u = np.zeros((5, 3), np.float32), np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(run(x, u, np.array([[4], [0]])).to_numpy(),
                                  [[1] * 3, [0] * 3, [0] * 3, [0] * 3, [1] * 3])


def test_masked_scatter_matches_torch():
    x = rng.standard_normal((3, 4)).astype(np.float32)
    mask = rng.integers(0, 2, (3, 1)).astype(bool) | rng.integers(0, 2, (4,)).astype(bool)
    source = rng.standard_normal(12).astype(np.float32)
    got = F.masked_scatter(Tensor(x), Tensor(mask[:, :1]), Tensor(source)).to_numpy()
    ref = torch.from_numpy(x).masked_scatter(torch.from_numpy(mask[:, :1]),
                                             torch.from_numpy(source)).numpy()
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.uint8])
@pytest.mark.parametrize("k", [0, 1, 3, 8])
def test_top_k_and_bottom_k_match_torch(dtype, k):
    x = sample((4, 8), dtype)
    for fn, largest in [(F.top_k, True), (F.bottom_k, False)]:
        v, i = fn(Tensor(x), k)
        tv, ti = torch.topk(torch.from_numpy(x.astype(np.float64)), k, largest=largest,
                            sorted=True)
        np.testing.assert_array_equal(v.to_numpy().astype(np.float64), tv.numpy())
        # Values tie only where torch may order indices differently: compare gathered values.
        np.testing.assert_array_equal(np.take_along_axis(x, i.to_numpy(), -1).astype(np.float64),
                                      tv.numpy())
        assert i.to_numpy().dtype == np.int64


def test_top_k_along_an_axis_symbolic_batch_compiled():
    run = compilation.compile(lambda x: F.top_k(x, 2, axis=1))(
        TensorLayout(DType.float32, ["b", 6, 3], CPU()))
    x = rng.standard_normal((5, 6, 3)).astype(np.float32)
    v, i = run(x)
    tv, ti = torch.topk(torch.from_numpy(x), 2, dim=1)
    np.testing.assert_array_equal(v.to_numpy(), tv.numpy())
    np.testing.assert_array_equal(i.to_numpy(), ti.numpy())


def test_top_k_nan_is_largest_and_ties_keep_index_order():
    x = np.array([[1.0, np.nan, 3.0, 3.0, -np.inf, 1.0]], np.float32)
    v, i = F.top_k(Tensor(x), 4)
    np.testing.assert_array_equal(i.to_numpy(), [[1, 2, 3, 0]])
    v, i = F.bottom_k(Tensor(x), 6)
    np.testing.assert_array_equal(i.to_numpy(), [[4, 0, 5, 2, 3, 1]])


@pytest.mark.parametrize("ascending", [True, False])
def test_argsort_is_a_stable_sort(ascending):
    x = rng.integers(0, 5, 40).astype(np.float32)
    x[[3, 9]] = np.nan
    got = F.argsort(Tensor(x), ascending=ascending).to_numpy()
    ref = torch.argsort(torch.from_numpy(x), descending=not ascending, stable=True).numpy()
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("call,message", [
    (lambda: F.gather(Tensor(np.zeros((3, 2))), [0, 3], axis=0),
     "index 3 is out of range for a dim of size 3"),
    (lambda: F.gather(Tensor(np.zeros((3, 2))), [-4], axis=0),
     "index -4 is out of range for a dim of size 3"),
    (lambda: F.gather(Tensor(np.zeros((3, 2))), [0.5], axis=0), "indices must be integers"),
    (lambda: F.gather(Tensor(np.zeros((3, 2))), Tensor(np.zeros(2, np.float32)), axis=0),
     "indices must be an integer tensor, got float32"),
    (lambda: F.gather(Tensor(np.zeros((3, 2))), [0], axis=2), "axis"),
    (lambda: F.gather_nd(Tensor(np.zeros((3, 2))), [[0, 2]]),
     "index 2 is out of range for a dim of size 2"),
    (lambda: F.scatter(Tensor(np.zeros((3, 2))), Tensor(np.zeros((3, 2))), [[0, 0]] * 2),
     "updates and indices must have one shape"),
    (lambda: F.scatter_nd(Tensor(np.zeros((3, 2))), Tensor(np.zeros((1, 3))), [[1]]),
     r"updates must be \[1, 2\]"),
    (lambda: F.top_k(Tensor(np.zeros((2, 3))), 4), r"k must be an int in \[0, 3\]"),
    (lambda: F.top_k(Tensor(np.zeros(3, bool)), 1), "numeric tensors, got bool"),
    (lambda: F.argsort(Tensor(np.zeros((2, 2)))), "argsort takes a rank-1 tensor, got rank 2"),
    (lambda: F.masked_scatter(Tensor(np.zeros(3)), Tensor(np.ones(3)), Tensor(np.ones(3))),
     "mask must be bool, got float64"),
])
def test_errors_name_the_problem(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_scatter_never_writes_its_input():
    """The result is a copy: the caller's input array stays as it was."""
    x = np.ones(4, np.float32)
    run = compilation.compile(lambda a, u, i: F.scatter_add(a, u, i, axis=0))(
        TensorLayout(DType.float32, [4], CPU()), TensorLayout(DType.float32, [2], CPU()),
        TensorLayout(DType.int64, [2], CPU()))
    got = run(x, np.ones(2, np.float32), np.array([0, 1])).to_numpy()
    np.testing.assert_array_equal(got, [2, 2, 1, 1])
    np.testing.assert_array_equal(x, [1, 1, 1, 1])
    t = Tensor(x)
    F.scatter_nd_add(t, Tensor(np.ones(1, np.float32)), Tensor(np.array([[3]])))
    np.testing.assert_array_equal(t.to_numpy(), [1, 1, 1, 1])


@pytest.mark.parametrize("index,message", [
    (lambda: Tensor(np.array([True, False, True])), "boolean mask indexing"),
    (lambda: np.array([True, False, True]), "boolean mask indexing"),
    (lambda: [0, 2], "use gather"),
    (lambda: Tensor(np.array([0, 2])), "use gather"),
    (lambda: (slice(None), Tensor(np.array([True, False, True]))), "boolean mask indexing"),
])
def test_tensor_indices_are_a_clear_error(index, message):
    x = Tensor(np.arange(9, dtype=np.float32).reshape(3, 3))
    with pytest.raises(IndexError, match=message):
        x[index()]
    with pytest.raises(IndexError, match=message):
        compilation.compile(lambda t: t[index()])(TensorLayout(DType.float32, [3, 3], CPU()))


def test_top_k_bfloat16_and_float64():
    x = np.array([[0.5, -1.0, 3.25, 2.0]], ml_dtypes.bfloat16)
    v, i = F.top_k(Tensor(x), 2)
    assert v.to_numpy().dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(i.to_numpy(), [[2, 3]])
    y = np.array([1e-300, -1e300, 5.0], np.float64)
    np.testing.assert_array_equal(F.bottom_k(Tensor(y), 3)[1].to_numpy(), [1, 0, 2])


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_, np.uint8])
@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 2), ()])
def test_nonzero_matches_argwhere(dtype, shape):
    x = (rng.integers(0, 3, shape) * (rng.random(shape) > 0.4)).astype(dtype)
    got = F.nonzero(Tensor(x), "k").to_numpy()
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, np.argwhere(x))


def test_nonzero_sizes_later_ops_and_results_at_run_time():
    def f(t):
        idx = F.nonzero(t > 0.0, "k")
        values = F.gather_nd(t, idx)
        return idx, values * 2.0, F.sum(values, axis=0)

    run = compilation.compile(f)(TensorLayout(DType.float32, ["n", 3], CPU()))
    for x in [np.array([[0, 1.5, -1], [2, 0, 3]], np.float32), np.zeros((4, 3), np.float32),
              np.ones((1, 3), np.float32), np.zeros((0, 3), np.float32)]:
        idx, doubled, total = run(x)
        ref = np.argwhere(x > 0)
        np.testing.assert_array_equal(idx.to_numpy(), ref)
        np.testing.assert_array_equal(doubled.to_numpy(), x[x > 0] * 2)
        np.testing.assert_allclose(total.to_numpy(), [x[x > 0].sum()])


def test_nonzero_errors():
    with pytest.raises(ValueError, match="out_dim must name a new symbolic dim"):
        F.nonzero(Tensor(np.ones(3)), 3)
    with pytest.raises(ValueError, match="binds dim 'n', which its input already uses"):
        compilation.compile(lambda t: F.nonzero(t, "n"))(TensorLayout(DType.float32, ["n"], CPU()))
    with pytest.raises(CompileError, match=r"result dim \[k \+ k\] uses 'k', which an op "
                                           r"binds at run time: a result may only use it whole"):
        compilation.compile(lambda t: F.concat([F.nonzero(t, "k")] * 2))(
            TensorLayout(DType.float32, [4], CPU()))


def nms_reference(boxes, scores, limit, iou_max, score_min):
    """Greedy NMS, ONNX's definition, in float64."""
    rows = []
    for b in range(scores.shape[0]):
        y0 = np.minimum(boxes[b, :, 0], boxes[b, :, 2])
        y1 = np.maximum(boxes[b, :, 0], boxes[b, :, 2])
        x0 = np.minimum(boxes[b, :, 1], boxes[b, :, 3])
        x1 = np.maximum(boxes[b, :, 1], boxes[b, :, 3])
        area = (y1 - y0) * (x1 - x0)
        for c in range(scores.shape[1]):
            order = [int(i) for i in np.argsort(-scores[b, c], kind="stable")
                     if scores[b, c, i] > score_min]
            kept = []
            for i in order:
                if len(kept) >= limit:
                    break
                ok = True
                for j in kept:
                    inter = max(0.0, min(y1[i], y1[j]) - max(y0[i], y0[j])) * \
                        max(0.0, min(x1[i], x1[j]) - max(x0[i], x0[j]))
                    union = area[i] + area[j] - inter
                    if union > 0 and inter / union > iou_max:
                        ok = False
                        break
                if ok:
                    kept.append(i)
            rows += [[b, c, i] for i in kept]
    return np.array(rows, np.int64).reshape(-1, 3)


ONNX_BOXES = np.array([[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                        [0, 10.1, 1, 11.1], [0, 100, 1, 101]]], np.float32)
ONNX_SCORES = np.array([[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]]], np.float32)


@pytest.mark.parametrize("limit,iou,floor,expected", [
    (3, 0.5, 0.0, [[0, 0, 3], [0, 0, 0], [0, 0, 5]]),     # ONNX's suppress_by_IOU
    (3, 0.5, 0.4, [[0, 0, 3], [0, 0, 0]]),                # ... and_scores
    (2, 0.5, 0.0, [[0, 0, 3], [0, 0, 0]]),                # limit_output_size
    (0, 0.5, 0.0, []),
])
def test_non_maximum_suppression_onnx_examples(limit, iou, floor, expected):
    got = F.non_maximum_suppression(Tensor(ONNX_BOXES), Tensor(ONNX_SCORES), limit, iou,
                                    floor).to_numpy()
    np.testing.assert_array_equal(got, np.array(expected, np.int64).reshape(-1, 3))


def test_non_maximum_suppression_random_against_reference_compiled():
    run = compilation.compile(
        lambda b, s: F.non_maximum_suppression(b, s, 4, 0.3, 0.2, out_dim="kept"))(
        TensorLayout(DType.float32, [2, "n", 4], CPU()),
        TensorLayout(DType.float32, [2, 3, "n"], CPU()))
    r = np.random.default_rng(5)
    for n in (0, 1, 12, 40):
        corners = r.uniform(0, 10, (2, n, 2)).astype(np.float32)
        boxes = np.concatenate([corners, corners + r.uniform(0.5, 3, (2, n, 2))], -1)
        boxes[:, ::2] = boxes[:, ::2][..., [2, 3, 0, 1]]  # the other diagonal
        scores = r.random((2, 3, n)).astype(np.float32)
        scores[0, 0, :2] = 0.5  # a tie
        got = run(boxes.astype(np.float32), scores).to_numpy()
        np.testing.assert_array_equal(got, nms_reference(boxes.astype(np.float64),
                                                         scores.astype(np.float64), 4, 0.3, 0.2))


def test_non_maximum_suppression_errors():
    with pytest.raises(ValueError, match=r"boxes must be \[B, N, 4\] and scores \[B, C, N\]"):
        F.non_maximum_suppression(Tensor(np.zeros((1, 3, 4), np.float32)),
                                  Tensor(np.zeros((1, 2, 4), np.float32)), 1, 0.5, 0.0)
    with pytest.raises(ValueError, match="out_dim must name a new symbolic dim"):
        F.non_maximum_suppression(Tensor(ONNX_BOXES), Tensor(ONNX_SCORES), 1, 0.5, 0.0, out_dim=2)
