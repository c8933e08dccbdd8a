"""The CPU schedules (mo-select-schedules / mo-apply-schedules): data-tiled
matmuls give numpy's results for every shape class (divisible, ragged,
run-time rows, one row, below the packing threshold), on one thread and
on two, and the thread count is a checked setting."""

import numpy as np
import pytest

from mo import compilation, compiler
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout


def L(*shape):
    return TensorLayout(DType.float32, list(shape), CPU())


# (lhs rows as staged, k, n), and the row counts to run with.
SHAPES = [
    ((256, 512, 256), [256]),        # divides the 8 x 32 tile: packed
    ((200, 700, 100), [200]),        # divides nothing: padded packs
    (("m", 1000, 1000), [1, 37, 256]),  # rows known at run time
    ((1, 512, 512), [1]),            # one row (a decode step): B read in place
    ((1, 1024, 1000), [1]),          # one row, 512-wide tiles, the last masked
    ((3, 700, 600), [3]),            # three rows, 64-wide tiles
    ((4, 2048, 300), [4]),           # four rows, 2.4 MB of B in place
    ((256, 256, 256), [256]),        # B of 256 KiB: read in place (direct)
    (("m", 300, 100), [1, 7, 8, 37]),  # direct, run-time rows: full and partial tiles
    ((64, 1024, 10), [64]),          # direct, few columns: one masked vector
    ((3, 17, 33), [3]),              # direct, tiny
    ((50, 4096, 16), [50]),          # direct, a long k
]


@pytest.mark.filterwarnings("error::RuntimeWarning")  # a schedule fell back to loops
@pytest.mark.parametrize("shape,rows", SHAPES, ids=[str(s) for s, _ in SHAPES])
def test_matmul_matches_numpy(threads, shape, rows):
    m, k, n = shape
    run = compilation.compile(lambda a, b: a @ b)(L(m, k), L(k, n))
    assert run._exe.num_threads == threads
    rng = np.random.default_rng(0)
    for rows_now in rows:
        a = rng.standard_normal((rows_now, k), np.float32)
        b = rng.standard_normal((k, n), np.float32)
        out = run(a, b).to_numpy()
        ref = a.astype(np.float64) @ b
        # f32 accumulation over k terms: relative to the largest entry.
        assert np.abs(out - ref).max() <= 1e-5 * np.abs(ref).max() * max(1, k / 256)


BATCHED = [
    ((1, 8, 128, 64), (1, 8, 64, 128)),   # attention's q k^T: heads collapsed
    ((2, 4, 100, 70), (2, 4, 70, 50)),    # nothing divides the tile
    (("b", 33, 64), ("b", 64, 40)),       # a batch known at run time
]


@pytest.mark.parametrize("lhs,rhs", BATCHED, ids=[str(a) for a, _ in BATCHED])
def test_batch_matmul_matches_numpy(threads, lhs, rhs):
    """Equal batch dims: one batch_matmul, data-tiled (batch_mmt4d)."""
    run = compilation.compile(lambda a, b: a @ b)(L(*lhs), L(*rhs))
    rng = np.random.default_rng(6)
    a = rng.standard_normal(tuple(5 if d == "b" else d for d in lhs), np.float32)
    b = rng.standard_normal(tuple(5 if d == "b" else d for d in rhs), np.float32)
    ref = a.astype(np.float64) @ b
    assert np.abs(run(a, b).to_numpy() - ref).max() <= 1e-5 * np.abs(ref).max()


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("m,k,n,rows", [(64, 256, 512, 64), (200, 300, 100, 200),
                                        ("m", 130, 70, 37), ("m", 64, 1024, 1),
                                        (1, 512, 1024, 1)],
                         ids=["divides", "ragged", "run-time-rows", "one-row", "decode"])
def test_fused_epilogues_match_numpy(threads, m, k, n, rows):
    """relu(a @ w + b) + r: where the register tiles divide a packed product,
    the epilogue takes the unpack of C into its tiles; a product reading B in
    place (all but the first here) finishes each register tile with it."""
    from mo import functional as F

    def layer(a, w, b, r):
        return F.relu(a @ w + b) + r

    run = compilation.compile(layer)(L(m, k), L(k, n), L(n), L(m, n))
    rng = np.random.default_rng(11)
    a = rng.standard_normal((rows, k), np.float32)
    w = (rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float32)
    b = rng.standard_normal(n, np.float32)
    r = rng.standard_normal((rows, n), np.float32)
    ref = np.maximum(a.astype(np.float64) @ w + b, 0) + r
    assert np.abs(run(a, w, b, r).to_numpy() - ref).max() <= 1e-5 * np.abs(ref).max()


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("m", [128, 64])
def test_rolled_gelu_epilogue_matches_numpy(threads, m):
    """A transformer's first MLP layer, GELU (tanh) of a @ w + b plus a
    residual: the epilogue of each unpacked 8 x 32 accumulator tile runs as
    a loop over its rows (mo-lower-vectors rolls it), each row read from
    the packed tile and the residual, finished and written once; the result
    is numpy's."""
    from mo import functional as F

    def layer(a, w, b, r):
        y = a @ w + b
        return 0.5 * y * (1.0 + F.tanh(0.7978845608 * (y + 0.044715 * (y * y * y)))) + r

    run = compilation.compile(layer)(L(m, 512), L(512, 2048), L(2048), L(m, 2048))
    rng = np.random.default_rng(14)
    a = rng.standard_normal((m, 512), np.float32)
    w = (rng.standard_normal((512, 2048)) / np.sqrt(512)).astype(np.float32)
    b = rng.standard_normal(2048, np.float32)
    r = rng.standard_normal((m, 2048), np.float32)
    y = a.astype(np.float64) @ w + b
    ref = 0.5 * y * (1.0 + np.tanh(0.7978845608 * (y + 0.044715 * y**3))) + r
    assert np.abs(run(a, w, b, r).to_numpy() - ref).max() <= 1e-5 * np.abs(ref).max()


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("rows", [128, 37])
def test_heads_split_epilogue_matches_numpy(threads, rows):
    """Attention's projections: (x @ w) split into 8 heads of 64, plus the
    bias split the same way, the heads moved in front of the rows; two of
    one x. Each bias runs in its product's tiles (the split moved after
    it), x is packed once for both, the permute is split across the
    threads, and the heads come out as numpy's."""
    from mo import functional as F

    def project(x, wq, bq, wk, bk):
        def heads(w, b):
            return F.transpose(F.reshape(x @ w, [rows, 8, 64]) + F.reshape(b, [8, 64]), 0, 1)
        return heads(wq, bq), heads(wk, bk)

    run = compilation.compile(project)(L(rows, 512), L(512, 512), L(512), L(512, 512), L(512))
    rng = np.random.default_rng(12)
    x = rng.standard_normal((rows, 512), np.float32)
    args = []
    for _ in range(2):
        args += [(rng.standard_normal((512, 512)) / np.sqrt(512)).astype(np.float32),
                 rng.standard_normal(512, np.float32)]
    q, k = run(x, *args)
    for got, w, b in [(q, *args[:2]), (k, *args[2:])]:
        ref = ((x.astype(np.float64) @ w).reshape(rows, 8, 64) + b.reshape(8, 64)).transpose(1, 0, 2)
        assert np.abs(got.to_numpy() - ref).max() <= 1e-5 * np.abs(ref).max()


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("s", [128, 37])
def test_heads_attention_matches_numpy(threads, s):
    """Attention's products over heads permuted in front of the rows (q k^T,
    then p v, its heads permuted back): the packs read q, k and v as the
    projections wrote them, [1, s, 8, 64], and p v is unpacked into that
    layout, in place of permuted copies (37 rows: padded packs and a
    partial unpack of permuted tensors); the products come out as numpy's."""
    from mo import functional as F

    def attend(q, k, v):
        def heads(t):
            return F.transpose(t, 1, 2)  # [1, 8, s, 64]
        scores = heads(q) @ F.transpose(heads(k), 2, 3)
        return scores, heads(scores @ heads(v))

    run = compilation.compile(attend)(L(1, s, 8, 64), L(1, s, 8, 64), L(1, s, 8, 64))
    rng = np.random.default_rng(13)
    q, k, v = (rng.standard_normal((1, s, 8, 64), np.float32) for _ in range(3))
    got_scores, got = run(q, k, v)
    qh, kh, vh = (t.astype(np.float64).transpose(0, 2, 1, 3) for t in (q, k, v))
    scores = qh @ kh.transpose(0, 1, 3, 2)
    for out, ref in [(got_scores, scores), (got, (scores @ vh).transpose(0, 2, 1, 3))]:
        assert np.abs(out.to_numpy() - ref).max() <= 1e-5 * np.abs(ref).max()


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("n", [10, 32, 100])
def test_run_time_rows_in_padded_tiles(threads, n):
    """matmul_direct_padded: each 8-row tile is computed whole, its rows past
    the batch reading A's last row and its writes masked. Every row count
    from 1 to 17 (and 33) gives numpy's result, a residual read in the
    epilogue included, and a NaN in A's last row stays in the last row."""
    from mo import functional as F

    def layer(a, w, b, r):
        return F.relu(a @ w + b) + r

    run = compilation.compile(layer)(L("m", 96), L(96, n), L(n), L("m", n))
    rng = np.random.default_rng(12)
    w = (rng.standard_normal((96, n)) / 10).astype(np.float32)
    b = rng.standard_normal(n, np.float32)
    for rows in list(range(1, 18)) + [33]:
        a = rng.standard_normal((rows, 96), np.float32)
        a[-1, 5] = np.nan
        r = rng.standard_normal((rows, n), np.float32)
        ref = np.maximum(a.astype(np.float64) @ w + b, 0) + r
        out = run(a, w, b, r).to_numpy()
        assert out.shape == (rows, n)
        assert np.isnan(out[-1]).all() and not np.isnan(out[:-1]).any(), rows
        assert np.abs(out[:-1] - ref[:-1]).max(initial=0) <= 1e-5 * np.abs(ref[:-1]).max(initial=1)


def test_epilogue_math_without_llvm_intrinsics(threads):
    """erf (a GELU's backward) has no LLVM intrinsic: in an epilogue's 8 x 32
    register tile it becomes libm calls on the tile's elements, lowered
    before the tile's vectors are (it once left a 2-D vector that LLVM
    could not translate)."""
    import torch
    from mo import functional as F

    run = compilation.compile(lambda a, w: F.erf(a @ w) * F.atan(a @ w))(L(64, 128), L(128, 64))
    rng = np.random.default_rng(12)
    a = rng.standard_normal((64, 128), np.float32)
    w = (rng.standard_normal((128, 64)) / np.sqrt(128)).astype(np.float32)
    p = torch.from_numpy(a.astype(np.float64) @ w)
    ref = (torch.erf(p) * torch.atan(p)).numpy()
    np.testing.assert_allclose(run(a, w).to_numpy(), ref, rtol=1e-5, atol=1e-5)


# (shape as staged, permutation, shape to run with): copies that move the
# innermost dim in 16 x 16 blocks (a filter's FCRS -> RSCF, matrices that
# do and do not divide 16, run-time rows) and one that keeps it.
PERMUTES = [
    ((512, 64, 3, 3), (2, 3, 1, 0), (512, 64, 3, 3)),
    ((300, 1000), (1, 0), (300, 1000)),
    (("n", 512), (1, 0), (257, 512)),
    ((4, 96, 33, 40), (0, 3, 1, 2), (4, 96, 33, 40)),
    ((8, 64, 16, 64), (0, 2, 1, 3), (8, 64, 16, 64)),
]


@pytest.mark.parametrize("shape,perm,run_shape", PERMUTES, ids=[str(p[0]) for p in PERMUTES])
def test_transposes_match_numpy(threads, shape, perm, run_shape):
    from mo import functional as F

    run = compilation.compile(lambda x: F.permute(x, list(perm)))(L(*shape))
    x = np.random.default_rng(13).standard_normal(run_shape, np.float32)
    assert np.array_equal(run(x).to_numpy(), x.transpose(perm))


# (input NHWC as staged, filter KH KW C F, stride, dilation, padding, batch
# to run with): the direct schedule (rows of pixels that divide a register
# tile, channels in halves of one; a filter over 1 MiB packed by channel
# tiles first) and, where they do not, im2col.
CONVS = [
    ((1, 56, 56, 64), (3, 3, 64, 64), 1, 1, 1, 1),     # w6: direct, 14 x 32
    (("n", 16, 16, 12), (3, 3, 12, 48), 1, 1, 1, 3),   # run-time batch, half tiles of channels
    ((2, 29, 29, 16), (3, 3, 16, 32), 2, 1, 0, 2),     # stride 2: 14-pixel rows
    ((1, 20, 20, 8), (3, 3, 8, 16), 1, 2, 2, 1),       # dilation 2
    ((1, 15, 15, 64), (3, 3, 64, 64), 1, 1, 0, 1),     # 13-pixel rows
    ((1, 16, 16, 256), (3, 3, 256, 256), 1, 1, 0, 1),  # 2.25 MiB filter: packed, 8 tiles
    (("n", 9, 9, 160), (3, 3, 160, 512), 2, 1, 1, 2),  # packed, stride 2, 5-pixel rows
    ((1, 16, 16, 320), (3, 3, 320, 96), 1, 1, 0, 1),   # packed, 3 tiles: threads on rows
    ((1, 19, 19, 64), (3, 3, 64, 64), 1, 1, 0, 1),     # 17-pixel rows: im2col
    ((1, 12, 12, 3), (5, 5, 3, 32), 1, 1, 2, 1),       # 3 input channels: im2col
]


@pytest.mark.parametrize("x,w,stride,dilation,pad,batch", CONVS,
                         ids=[f"{x}x{w}s{s}d{d}" for x, w, s, d, _, _ in CONVS])
def test_conv_matches_torch(threads, x, w, stride, dilation, pad, batch):
    """conv2d + bias + relu against torch in float64."""
    import torch

    from mo import functional as F

    def conv(x, wt, b):
        return F.relu(F.conv2d(x, wt, stride=stride, dilation=dilation,
                               padding=(pad,) * 4, bias=b))

    run = compilation.compile(conv)(L(*x), L(*w), L(w[3]))
    rng = np.random.default_rng(7)
    xs = rng.standard_normal((batch,) + tuple(x[1:]), np.float32)
    ws = (rng.standard_normal(w) / np.sqrt(w[0] * w[1] * w[2])).astype(np.float32)
    bs = rng.standard_normal(w[3], np.float32)
    ref = torch.relu(torch.nn.functional.conv2d(
        torch.from_numpy(xs).permute(0, 3, 1, 2).double(),
        torch.from_numpy(ws).permute(3, 2, 0, 1).double(), torch.from_numpy(bs).double(),
        stride=stride, dilation=dilation, padding=pad)).permute(0, 2, 3, 1).numpy()
    out = run(xs, ws, bs).to_numpy()
    assert out.shape == ref.shape
    assert np.abs(out - ref).max() <= 1e-5 * np.abs(ref).max()


def test_mlp_layer_with_epilogue(threads):
    """x @ W + b, relu: the packed matmul's result feeds a fused epilogue."""
    from mo import functional as F

    def layer(x, w, b):
        return F.relu(x @ w + b)

    run = compilation.compile(layer)(L("batch", 512), L(512, 256), L(256))
    rng = np.random.default_rng(1)
    x = rng.standard_normal((48, 512), np.float32)
    w = rng.standard_normal((512, 256), np.float32) / 16
    b = rng.standard_normal(256, np.float32)
    np.testing.assert_allclose(run(x, w, b).to_numpy(), np.maximum(x @ w + b, 0),
                               rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_thread_count_is_checked(bad):
    with pytest.raises(ValueError, match="set_num_threads: expected a positive int"):
        compiler.set_num_threads(bad)


def test_environment_thread_count_is_checked(monkeypatch):
    monkeypatch.setenv("MO_NUM_THREADS", "lots")
    if compiler._openmp_runtime() is None:
        pytest.skip("no OpenMP runtime installed: one thread, the variable is not read")
    with pytest.raises(ValueError, match="MO_NUM_THREADS: expected a positive int, got 'lots'"):
        compiler.num_threads()
    monkeypatch.setenv("MO_NUM_THREADS", "3")
    assert compiler.num_threads() == 3


def test_openmp_runtime_is_installed():
    """The package depends on cmeel-libomp: the runtime must be found."""
    path = compiler._openmp_runtime()
    assert path is not None and path.endswith("libomp.so")


def test_outputs_reused_only_when_dropped():
    """The output pool hands an array out again only once nothing of the
    caller's references it: a result that is kept never changes."""
    run = compilation.compile(lambda x: x * 2.0)(L(256, 256))
    x = np.ones((256, 256), np.float32)
    first = run(x)
    first_view = first.to_numpy()
    second = run(x + 1)
    third = run(x + 2)
    assert np.all(first_view == 2) and np.all(second.to_numpy() == 4)
    assert np.all(third.to_numpy() == 6)
    pointers = {a.to_numpy().ctypes.data for a in (first, second, third)}
    assert len(pointers) == 3
    # Dropped results come back: a loop that keeps only the latest result
    # cycles through at most the pool's arrays.
    seen = set()
    out = None
    for i in range(6):
        out = run(x)
        seen.add(out.to_numpy().ctypes.data)
    assert np.all(out.to_numpy() == 2)
    del first, first_view, second, third
    assert len(seen) <= 4


def test_scratch_blocks_are_reused_safely(threads):
    """Packed scratch from mo's allocator: many calls with changing inputs
    and row counts give numpy's results every time."""
    run = compilation.compile(lambda a, b: a @ b)(L("m", 384), L(384, 320))
    rng = np.random.default_rng(2)
    b = rng.standard_normal((384, 320), np.float32)
    for rows in [300, 64, 300, 1, 511, 64]:
        a = rng.standard_normal((rows, 384), np.float32)
        np.testing.assert_allclose(run(a, b).to_numpy(), a @ b, rtol=1e-4, atol=1e-3)


# Kernels big enough (>= 2**16 iterations) for the rows schedule: split
# across threads by their outermost parallel loop with room for each.
ROW_KERNELS = [
    ("eltwise", lambda F, x: F.relu(x * 2.0 + 1.0) * x,
     lambda x: np.maximum(x * 2 + 1, 0) * x),
    ("softmax", lambda F, x: F.softmax(x),
     lambda x: np.exp(x - x.max(-1, keepdims=True))
     / np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True)),
    ("column sums", lambda F, x: F.sum(x, axis=0),
     lambda x: x.sum(0, keepdims=True)),
    ("row max", lambda F, x: F.max(x, axis=-1), lambda x: x.max(-1, keepdims=True)),
]


@pytest.mark.parametrize("name,fn,ref", ROW_KERNELS, ids=[k[0] for k in ROW_KERNELS])
@pytest.mark.parametrize("rows", [512, "n"])
def test_row_kernels_match_numpy(threads, name, fn, ref, rows):
    from mo import functional as F

    run = compilation.compile(lambda x: fn(F, x))(L(rows, 384))
    x = np.random.default_rng(3).standard_normal((512 if rows == 512 else 333, 384), np.float32)
    np.testing.assert_allclose(run(x).to_numpy(), ref(x), rtol=1e-5, atol=1e-4)


@pytest.mark.filterwarnings("error::RuntimeWarning")  # a schedule fell back to loops
@pytest.mark.parametrize("shape", [(1, 128, 512), (2, 8, 64, 64), (8, 128, 128), ("b", 40, 256),
                                   (3, 7, 13, 300)],
                         ids=["1x128x512", "attention scores", "8 heads", "run-time batch",
                              "ragged row tiles"])
def test_fused_rows_chains(threads, shape):
    """Softmax and layer_norm over higher ranks (the transformer block's
    shapes): their chains fuse per tile of rows (over every outer loop: one
    head or batch by 4 rows, the last tile of 13 rows partial) and match
    numpy."""
    from mo import functional as F

    rng = np.random.default_rng(5)
    concrete = tuple(3 if d == "b" else d for d in shape)
    x = rng.standard_normal(concrete, np.float32)
    g = rng.standard_normal(concrete[-1], np.float32)
    b = rng.standard_normal(concrete[-1], np.float32)
    norm = compilation.compile(lambda x, g, b: F.layer_norm(x, g, b, 1e-5))(
        L(*shape), L(concrete[-1]), L(concrete[-1]))
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    np.testing.assert_allclose(norm(x, g, b).to_numpy(), (x - mean) / np.sqrt(var + 1e-5) * g + b,
                               rtol=1e-4, atol=1e-4)
    soft = compilation.compile(lambda x: F.softmax(x))(L(*shape))
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(soft(x).to_numpy(), e / e.sum(-1, keepdims=True),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.filterwarnings("error::RuntimeWarning")  # a schedule fell back to loops
@pytest.mark.parametrize("rows", [300, "n"])
@pytest.mark.parametrize("axis", [-1, 0])
def test_shared_producer_fused_into_reduction(threads, rows, axis):
    """An elementwise value with uses after the sum that reduces it: the sum
    also yields it (one exp per element, softmax's pass), over rows and down
    columns, at a static or run-time row count, and the results match numpy."""
    from mo import functional as F

    def fn(x):
        e = F.exp(x - 1.0)
        s = F.sum(e, axis=axis)
        return e / s + e * 2.0

    run = compilation.compile(fn)(L(rows, 192))
    x = np.random.default_rng(6).standard_normal((300, 192), np.float32)
    e = np.exp(x - 1.0)
    np.testing.assert_allclose(run(x).to_numpy(), e / e.sum(axis, keepdims=True) + e * 2.0,
                               rtol=1e-5, atol=1e-6)


def test_layer_norm_rows(threads):
    from mo import functional as F

    run = compilation.compile(lambda x, g, b: F.layer_norm(x, g, b, 1e-5))(
        L("n", 1024), L(1024), L(1024))
    rng = np.random.default_rng(4)
    x = rng.standard_normal((300, 1024), np.float32)
    g, b = rng.standard_normal(1024, np.float32), rng.standard_normal(1024, np.float32)
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    np.testing.assert_allclose(run(x, g, b).to_numpy(), (x - mean) / np.sqrt(var + 1e-5) * g + b,
                               rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("batch", [2, "n"])
def test_reductions_of_one_shape_keep_their_own_results(threads, batch):
    """Two sums of one shape (a batch norm's backward: sum(dy) and
    sum(dy * (x - mean))) start from one zero tensor after CSE; each must
    keep its own result (the second once came back as the first)."""
    from mo import functional as F

    def sums(dy, x, mean):
        centred = F.mul(dy, F.sub(x, F.reshape(mean, [1, 3, 1, 1])))
        return [F.reshape(F.sum(F.sum(F.sum(v, 0), 2), 3), [3]) for v in (dy, centred)]

    run = compilation.compile(sums)(L(batch, 3, 8, 8), L(batch, 3, 8, 8), L(3))
    rng = np.random.default_rng(5)
    dy, x = (rng.standard_normal((2, 3, 8, 8), np.float32) for _ in range(2))
    mean = rng.standard_normal(3, np.float32)
    first, second = (t.to_numpy() for t in run(dy, x, mean))
    np.testing.assert_allclose(first, dy.sum((0, 2, 3)), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(second, (dy * (x - mean.reshape(1, 3, 1, 1))).sum((0, 2, 3)),
                               rtol=1e-5, atol=1e-5)


def test_empty_at_run_time(threads):
    """Scheduled kernels whose run-time sizes are zero return empty results."""
    from mo import functional as F

    mm = compilation.compile(lambda a, b: a @ b)(L("m", 512), L(512, 512))
    assert mm(np.zeros((0, 512), np.float32), np.ones((512, 512), np.float32)) \
        .to_numpy().shape == (0, 512)
    sm = compilation.compile(lambda a: F.softmax(a * 2.0))(L("m", "n"))
    assert sm(np.zeros((0, 512), np.float32)).to_numpy().shape == (0, 512)
    assert sm(np.zeros((512, 0), np.float32)).to_numpy().shape == (512, 0)


@pytest.mark.parametrize("name", ["exp", "tanh"])
def test_approximated_math_accuracy(name):
    """mo-approximate-math's f32 exp and tanh (inlined polynomials, which
    vectorize): within 8 ulp of numpy where the result is a normal float
    (measured: exp 1 on AVX-512, where it scales by vscalefps, and 6
    elsewhere; tanh 4), within FLT_MIN where it is subnormal, and the
    special values exact."""
    from mo import functional as F

    grid = np.linspace(-110, 110, 400001, dtype=np.float32)
    specials = np.array([0, -0.0, np.inf, -np.inf, np.nan, 88.72, 88.73, -87.3, -103.9,
                         -104, 1e-30, -1e-30, 3e38, -3e38], np.float32)
    x = np.concatenate([grid, specials])
    run = compilation.compile(lambda a: getattr(F, name)(a))(L(x.size))
    out = run(x).to_numpy()
    with np.errstate(over="ignore"):
        ref = getattr(np, name)(x.astype(np.float64)).astype(np.float32)
    tiny = np.finfo(np.float32).tiny
    normal = np.isfinite(ref) & (np.abs(ref) >= tiny)
    ulps = np.abs(out[normal] - ref[normal]) / np.spacing(np.abs(ref[normal]))
    assert ulps.max() <= 8, (x[normal][ulps.argmax()], ulps.max())
    subnormal = np.isfinite(ref) & (np.abs(ref) < tiny)
    assert np.all(np.abs(out[subnormal] - ref[subnormal]) < tiny)
    rest = ~(normal | subnormal)
    np.testing.assert_array_equal(out[rest], ref[rest])
    np.testing.assert_array_equal(out[-len(specials):][np.isnan(specials)], np.nan)


def test_failed_schedules_fall_back_to_loops(failing_schedules, monkeypatch):
    """A graph whose schedules cannot be carried out still compiles (every op
    as loops) with a RuntimeWarning naming the failure, and runs correctly;
    an error that is not the schedules' is still a CompileError."""
    real = failing_schedules
    with pytest.warns(RuntimeWarning, match="the CPU schedules failed, compiled without them "
                                            r"\(slower code\): error: a schedule went wrong"):
        run = compilation.compile(lambda a, b: a @ b)(L(256, 256), L(256, 256))
    a = np.random.default_rng(7).standard_normal((256, 256), np.float32)
    np.testing.assert_allclose(run(a, a).to_numpy(), a @ a, rtol=1e-4, atol=1e-3)

    def always(module, pipeline):
        if pipeline.startswith("mo-cpu-kernels"):
            raise compiler.CompileError(f"{pipeline} failed:\nerror: broken")
        return real(module, pipeline)

    monkeypatch.setattr(compiler, "_run_pipeline", always)
    with pytest.raises(compiler.CompileError, match="schedules=0"):
        compilation.compile(lambda a: a + 1.0)(L(4))


def test_scheduled_kernels_from_several_threads():
    """Python threads calling one scheduled graph at once (each call its own
    OpenMP team, scratch from the shared block cache, outputs from the pool)
    all get numpy's results."""
    import threading

    from mo import functional as F

    run = compilation.compile(lambda a, b: F.softmax(a @ b))(L("m", 256), L(256, 384))
    b = np.random.default_rng(8).standard_normal((256, 384), np.float32) / 16
    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        for _ in range(20):
            a = rng.standard_normal((int(rng.integers(1, 300)), 256), np.float32)
            z = a @ b
            e = np.exp(z - z.max(1, keepdims=True))
            errors.append(np.abs(run(a, b).to_numpy() - e / e.sum(1, keepdims=True)).max())

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(errors) == 80 and max(errors) < 1e-6


@pytest.mark.parametrize("seed", range(16))
def test_random_shapes_match_references(seed):
    """Seeded random shapes through every schedule (data-tiled matmuls,
    batched, direct and im2col convolutions, fused rows), 1 or 2 threads: numpy's or
    torch's results in float64, relative to the largest entry."""
    import torch

    from mo import functional as F

    rng = np.random.default_rng(1000 + seed)
    compiler.set_num_threads(int(rng.integers(1, 3)))
    try:
        kind = seed % 4
        if kind == 0:
            m, k, n = (int(v) for v in rng.integers(1, 300, 3))
            run = compilation.compile(lambda a, b: a @ b)(L("m" if seed % 8 else m, k), L(k, n))
            args = [rng.standard_normal((m, k), np.float32),
                    rng.standard_normal((k, n), np.float32)]
            ref = args[0].astype(np.float64) @ args[1]
        elif kind == 1:
            h, m, k, n = (int(v) for v in rng.integers(1, 130, 4))
            shape_a, shape_b = (2, h % 5 + 1, m, k), (2, h % 5 + 1, k, n)
            run = compilation.compile(lambda a, b: a @ b)(L(*shape_a), L(*shape_b))
            args = [rng.standard_normal(shape_a, np.float32),
                    rng.standard_normal(shape_b, np.float32)]
            ref = args[0].astype(np.float64) @ args[1]
        elif kind == 2:
            h, w, c, f = (int(v) for v in rng.integers(3, 40, 4))
            s, kk = int(rng.integers(1, 3)), int(rng.integers(1, 4))
            run = compilation.compile(lambda x, wt: F.conv2d(x, wt, stride=s))(
                L(1, h, w, c), L(kk, kk, c, f))
            args = [rng.standard_normal((1, h, w, c), np.float32),
                    rng.standard_normal((kk, kk, c, f), np.float32)]
            ref = torch.nn.functional.conv2d(
                torch.from_numpy(args[0]).permute(0, 3, 1, 2).double(),
                torch.from_numpy(args[1]).permute(3, 2, 0, 1).double(),
                stride=s).permute(0, 2, 3, 1).numpy()
        else:
            r, c = (int(v) for v in rng.integers(1, 700, 2))
            ones, zeros = np.ones(c, np.float32), np.zeros(c, np.float32)
            run = compilation.compile(lambda x: F.softmax(x * 2.0) + F.layer_norm(
                x, F.constant(ones), F.constant(zeros), 1e-5))(L(r, c))
            x = rng.standard_normal((r, c), np.float32)
            args = [x]
            e = np.exp(2 * x - (2 * x).max(-1, keepdims=True))
            mean = x.mean(-1, keepdims=True)
            var = ((x - mean) ** 2).mean(-1, keepdims=True)
            ref = e / e.sum(-1, keepdims=True) + (x - mean) / np.sqrt(var + 1e-5)
        out = run(*args).to_numpy()
        assert np.abs(out - ref).max() <= 1e-4 * max(1.0, np.abs(ref).max())
    finally:
        compiler.set_num_threads(None)


def test_benchmark_workloads_keep_their_schedules_and_results():
    """w1-w7 of benchmarks/workloads.py compile with their CPU schedules (a
    schedule that fails falls back to loops with a RuntimeWarning, an error
    here) and match numpy in float64 to the benchmark's tolerance."""
    import importlib.util
    import pathlib
    import warnings

    path = pathlib.Path(__file__).parents[2] / "benchmarks" / "workloads.py"
    spec = importlib.util.spec_from_file_location("mo_benchmark_workloads", path)
    workloads = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(workloads)
    ops, reference = workloads.MoOps(), workloads.NumpyOps()
    for wl in workloads.WORKLOADS:
        rng = np.random.default_rng(int(wl.name[1:]))
        arrays = [(rng.standard_normal(shape) * scale + offset).astype(np.float32)
                  for _, shape, scale, offset in wl.inputs]
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            out = ops.to_numpy(ops.compile(wl, arrays)(*arrays))
        ref = wl.fn(reference, *[a.astype(np.float64) for a in arrays])
        err = np.abs(out - ref).max() / max(1.0, np.abs(ref).max())
        assert err <= wl.rtol, (wl.name, err)
