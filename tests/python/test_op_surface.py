"""The op surface as a whole: every op of the op-surface issue (and every
single-device callable of MAX 26.7's ``max.graph.ops``) exists in
``mo.graph.ops`` and, where MAX's functional API has it, in ``mo.functional``;
property tests of broadcasting, dtype promotion and scalar adoption against
numpy's rules as MAX restricts them; and the small ops without a family."""


import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mo import functional as F
from mo.dtype import DType
from mo.graph import DeviceRef, Graph, TensorType, ops
from mo.tensor import Tensor

# The op-surface issue's list, section by section.
ISSUE_OPS = """
abs acos asin atan atanh ceil cos cosh erf exp exp2 floor gelu is_inf is_nan log log1p log2
negate relu round rsqrt sigmoid silu sin sinh sqrt square tan tanh trunc logical_not
add sub mul div floor_div mod pow max min logical_and logical_or logical_xor
equal not_equal greater greater_equal less less_equal clamp clip where select
sum mean prod argmax argmin cumsum softmax logsoftmax layer_norm rms_norm group_norm
matmul outer band_part
conv2d conv3d conv2d_transpose max_pool2d avg_pool2d fold
reshape broadcast_to transpose permute squeeze unsqueeze flatten concat stack split chunk
slice_tensor pad tile repeat_interleave rebind shape_to_tensor range
gather gather_nd scatter scatter_add scatter_max scatter_min scatter_mul
scatter_nd scatter_nd_add scatter_nd_max scatter_nd_min scatter_nd_mul masked_scatter
top_k bottom_k argsort nonzero non_maximum_suppression roi_align resize
cond while_loop print buffer_create buffer_store_slice custom inplace_custom
""".split()

# MAX 26.7's other single-device callables (reference/max_ops.md).
MAX_OPS = """
as_interleaved_complex assert_same_device buffer_load buffer_store call cast chunk constant
constant_external dequantize hann_window irfft qmatmul resize_bicubic resize_linear
resize_nearest transfer_to
""".split()

# Ops waiting for other work, each with the reason (none now; the test fails
# if one lands without leaving this list, or if anything else is missing).
DEFERRED: dict[str, str] = {}

# Graph-only ops MAX's functional API does not have either.
GRAPH_ONLY = {"buffer_create", "buffer_store_slice", "buffer_load", "call", "assert_same_device",
              "inplace_custom"}


def test_every_listed_op_exists():
    names = sorted(set(ISSUE_OPS) | set(MAX_OPS))
    missing = [n for n in names if not callable(getattr(ops, n, None))]
    assert missing == sorted(DEFERRED), f"missing from mo.graph.ops: {missing}"
    f_missing = [n for n in names if n not in GRAPH_ONLY and not callable(getattr(F, n, None))]
    assert f_missing == sorted(DEFERRED), f"missing from mo.functional: {f_missing}"
    assert callable(ops.random.uniform) and callable(ops.random.set_seed)
    assert all(callable(getattr(F, n)) for n in ("uniform", "gaussian", "normal", "set_seed",
                                                 "ones", "zeros", "full", "arange",
                                                 "inplace_custom"))


def test_the_dialect_has_the_structural_ops():
    from mo import _opdefs

    names = set(_opdefs.by_name())
    for op in ("conv", "conv_transpose", "max_pool", "avg_pool", "gather", "gather_nd",
               "scatter", "scatter_nd", "top_k", "range", "rebind", "shape_to_tensor", "random",
               "if", "while", "yield", "print", "custom", "inplace_custom", "buffer.create"):
        assert op in names, op
    assert len(names) >= 95


# -- broadcasting, promotion, scalars ------------------------------------------------

DTYPES = [DType.bool, DType.int8, DType.int16, DType.int32, DType.int64, DType.uint8,
          DType.uint16, DType.uint32, DType.float16, DType.bfloat16, DType.float32,
          DType.float64]
SIGNIFICAND = {DType.float16: 11, DType.bfloat16: 8, DType.float32: 24, DType.float64: 53}


def exact_range(d):
    """Integers every value of ``d`` takes, or that ``d`` holds exactly."""
    if d is DType.bool:
        return (0, 1)
    if d.is_float:
        return (-(2 ** SIGNIFICAND[d]), 2 ** SIGNIFICAND[d])
    info = np.iinfo(d.to_numpy())
    return (int(info.min), int(info.max))


def fits(lo, hi):
    """Whether every value of ``lo`` is exactly a value of ``hi``."""
    if lo is hi or lo is DType.bool:
        return True
    if lo.is_float:
        return hi.is_float and SIGNIFICAND[hi] > SIGNIFICAND[lo] and hi.size_in_bytes > \
            lo.size_in_bytes
    if hi.is_float:
        a, b = exact_range(lo)
        c, d = exact_range(hi)
        return c <= a and b <= d
    if hi is DType.bool:
        return False
    a, b = exact_range(lo)
    c, d = exact_range(hi)
    return c <= a and b <= d


shapes = st.lists(st.integers(1, 3), min_size=0, max_size=3)


def broadcastable(a, b):
    try:
        return np.broadcast_shapes(tuple(a), tuple(b))
    except ValueError:
        return None


def values(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if dtype is DType.bool:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.is_float:
        return rng.integers(-8, 8, shape).astype(dtype.to_numpy())
    return rng.integers(0, 8, shape).astype(dtype.to_numpy())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shapes, shapes, st.sampled_from(DTYPES), st.sampled_from(DTYPES), st.integers(0, 99),
       st.sampled_from(["add", "mul", "max"]))
def test_binary_broadcasting_and_promotion_follow_the_rules(sa, sb, da, db, seed, name):
    x, y = values(sa, da, seed), values(sb, db, seed + 1)
    shape = broadcastable(sa, sb)
    winner = da if fits(db, da) else db if fits(da, db) else None
    if shape is None or winner is None:
        with pytest.raises(ValueError):
            getattr(F, name)(Tensor(x), Tensor(y))
        return
    got = getattr(F, name)(Tensor(x), Tensor(y)).to_numpy()
    assert got.shape == shape and got.dtype == winner.to_numpy()
    ref = {"add": np.add, "mul": np.multiply, "max": np.maximum}[name](
        x.astype(winner.to_numpy()), y.astype(winner.to_numpy()))
    if winner is DType.bool:
        ref = ref.astype(bool)
    np.testing.assert_array_equal(got, ref.astype(winner.to_numpy()))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shapes, st.sampled_from([d for d in DTYPES if d is not DType.bool]),
       st.one_of(st.integers(-300, 300), st.floats(-4.0, 4.0, allow_nan=False, width=16)))
def test_a_python_scalar_adopts_the_tensor_dtype_when_exact(shape, dtype, scalar):
    x = values(shape, dtype, 1)
    lo, hi = exact_range(dtype)  # floats: the integers they hold exactly
    ok = (lo <= scalar <= hi) if isinstance(scalar, int) else dtype.is_float
    if not ok:
        with pytest.raises(ValueError):
            F.add(Tensor(x), scalar)
        return
    got = F.add(Tensor(x), scalar).to_numpy()
    assert got.dtype == dtype.to_numpy() and got.shape == tuple(shape)
    # The scalar takes the tensor's dtype first (it is weak), then they add.
    weak = np.array(scalar).astype(dtype.to_numpy()).astype(np.float64 if dtype.is_float
                                                             else np.int64)
    ref = (x.astype(weak.dtype) + weak).astype(dtype.to_numpy())
    np.testing.assert_array_equal(got, ref)


# -- the small ops ---------------------------------------------------------------------


@pytest.mark.parametrize("n", [None, 5, 8, 12])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
@pytest.mark.parametrize("axis", [0, -1])
def test_irfft_matches_numpy(n, norm, axis):
    rng = np.random.default_rng(4)
    c = rng.standard_normal((4, 5)) + 1j * rng.standard_normal((4, 5))
    pairs = np.stack([c.real, c.imag], -1).astype(np.float32)
    got = F.irfft(Tensor(pairs), n=n, axis=axis, normalization=norm, input_is_complex=True)
    np.testing.assert_allclose(got.to_numpy(), np.fft.irfft(c, n=n, axis=axis, norm=norm),
                               atol=2e-6)


def test_irfft_of_interleaved_pairs_and_errors():
    c = np.array([[1 + 0j, 2 - 1j, 0.5j]])
    flat = np.stack([c.real, c.imag], -1).reshape(1, 6).astype(np.float32)
    np.testing.assert_allclose(F.irfft(Tensor(flat)).to_numpy(), np.fft.irfft(c), atol=1e-6)
    np.testing.assert_array_equal(F.as_interleaved_complex(Tensor(flat)).to_numpy(),
                                  flat.reshape(1, 3, 2))
    with pytest.raises(ValueError, match="the last dim must be static and even"):
        F.as_interleaved_complex(Tensor(np.zeros(3, np.float32)))
    with pytest.raises(ValueError, match="normalization must be 'backward', 'ortho' or"):
        F.irfft(Tensor(flat), normalization="none")
    with pytest.raises(ValueError, match="irfft is defined on floating-point tensors"):
        F.irfft(Tensor(np.zeros((2, 2), np.int32)))


def test_device_helpers():
    t = TensorType(DType.float32, [2], DeviceRef.CPU())
    with Graph("g", input_types=[t, t]) as g:
        a, b = g.inputs
        assert ops.transfer_to(a, DeviceRef.CPU()) is a
        ops.assert_same_device(a, b, c=b)
        with pytest.raises(ValueError, match=r"transfers from cpu:0 to gpu:0 are not supported"):
            ops.transfer_to(a, DeviceRef.GPU())
    gt = TensorType(DType.float32, [2], DeviceRef.GPU())
    with Graph("h", input_types=[t, gt]) as h:
        with pytest.raises(ValueError, match="values are on different devices: argument 0 on "
                                             "cpu:0, argument 1 on gpu:0"):
            ops.assert_same_device(*h.inputs)


def test_tensor_methods_of_the_new_ops():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(x.permute([1, 0]).to_numpy(), np.arange(6).reshape(2, 3).T)
    assert x.broadcast_to([4, 2, 3]).to_numpy().shape == (4, 2, 3)
    np.testing.assert_array_equal(x.rebind([2, 3]).to_numpy(), x.to_numpy())
