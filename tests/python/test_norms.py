"""Softmax and the normalisations against numpy: stable, f16/bf16 computed in
f32, static and symbolic shapes, compiled and eager."""

import numpy as np
import pytest

from mo import compilation
from mo import functional as F
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout
from mo.tensor import Tensor

RNG = np.random.default_rng(11)


def tl(shape, dtype=DType.float32):
    return TensorLayout(dtype, shape, CPU())


def np_softmax(x, axis=-1):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def np_layer_norm(x, g, b, eps):
    x = x.astype(np.float64)
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def np_rms_norm(x, w, eps, offset):
    x = x.astype(np.float64)
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * (w + offset)


def np_group_norm(x, g, b, groups, eps):
    n, c = x.shape[:2]
    xg = x.astype(np.float64).reshape(n, groups, -1)
    mu = xg.mean(-1, keepdims=True)
    var = ((xg - mu) ** 2).mean(-1, keepdims=True)
    y = ((xg - mu) / np.sqrt(var + eps)).reshape(x.shape)
    shape = (c,) + (1,) * (x.ndim - 2)
    return y * g.reshape(shape) + b.reshape(shape)


TOL = {DType.float32: 1e-5, DType.float64: 1e-12, DType.float16: 3e-3, DType.bfloat16: 2e-2}


def check(got, expected, dtype):
    assert got.dtype == dtype.to_numpy()
    np.testing.assert_allclose(got.astype(np.float64), expected, rtol=TOL[dtype],
                               atol=TOL[dtype])


@pytest.mark.parametrize("dtype", list(TOL), ids=lambda d: d.name)
@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax_and_logsoftmax(dtype, axis):
    x = (RNG.normal(size=(5, 7)) * 4).astype(dtype.to_numpy())
    run = compilation.compile(lambda t: (F.softmax(t, axis), F.logsoftmax(t, axis)))(
        tl(["n", 7], dtype))
    s, ls = (o.to_numpy() for o in run(x))
    check(s, np_softmax(x, axis), dtype)
    check(ls, np.log(np_softmax(x, axis)), dtype)


def test_softmax_is_stable_and_handles_infinities():
    x = np.array([[1000.0, 1001.0, 999.0], [-np.inf, 0.0, 1.0], [-np.inf] * 3], np.float32)
    s = F.softmax(Tensor(x)).to_numpy()
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(s[:2], np_softmax(x[:2]), rtol=1e-6)
    assert np.isnan(s[2]).all()  # every element -inf: 0/0, as numpy


def test_softmax_rows_with_nan_or_inf_are_nan():
    """The row max, only subtracted from its row, is computed without NaN
    care (nnan): a NaN or +inf still makes its whole row NaN, as numpy and
    torch, in softmax and logsoftmax; a max returned as such keeps NaN."""
    x = RNG.normal(size=(5, 40)).astype(np.float32)
    x[0, 17] = np.nan
    x[1, 39] = np.nan
    x[2, 3] = np.inf
    x[3, :] = 0.0
    x[3, ::2] = -0.0
    run = compilation.compile(lambda t: (F.softmax(t), F.logsoftmax(t), F.max(t, axis=-1)))(
        TensorLayout(DType.float32, [5, 40], CPU()))
    s, ls, m = (r.to_numpy() for r in run(x))
    for out in (s, ls):
        assert np.isnan(out[:3]).all()
        assert not np.isnan(out[3:]).any()
    np.testing.assert_allclose(s[3:], np_softmax(x[3:]), rtol=1e-6)
    np.testing.assert_allclose(ls[3:], np.log(np_softmax(x[3:])), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(np.isnan(m.ravel()), [True, True, False, False, False])


@pytest.mark.parametrize("dtype", list(TOL), ids=lambda d: d.name)
def test_layer_norm(dtype):
    x = (RNG.normal(size=(4, 16)) * 3 + 100).astype(dtype.to_numpy())  # offset: two passes
    g = RNG.normal(size=16).astype(dtype.to_numpy())
    b = RNG.normal(size=16).astype(dtype.to_numpy())
    run = compilation.compile(lambda t, g, b: F.layer_norm(t, g, b, 1e-5))(
        tl(["n", 16], dtype), tl([16], dtype), tl([16], dtype))
    ref = np_layer_norm(x, g.astype(np.float64), b.astype(np.float64), 1e-5)
    check(run(x, g, b).to_numpy(), ref, dtype)


@pytest.mark.parametrize("before", [False, True])
@pytest.mark.parametrize("dtype", [DType.float32, DType.float16, DType.bfloat16],
                         ids=lambda d: d.name)
def test_rms_norm(dtype, before):
    x = RNG.normal(size=(3, 32)).astype(dtype.to_numpy())
    w = RNG.normal(size=32).astype(dtype.to_numpy())
    out = F.rms_norm(Tensor(x), Tensor(w), 1e-6, weight_offset=1.0,
                     multiply_before_cast=before).to_numpy()
    check(out, np_rms_norm(x, w.astype(np.float64), 1e-6, 1.0), dtype)


@pytest.mark.parametrize("shape,groups", [((2, 6, 5), 3), ((1, 4, 3, 3), 2), ((2, 4), 4)])
def test_group_norm(shape, groups):
    x = RNG.normal(size=shape).astype(np.float32)
    g = RNG.normal(size=shape[1]).astype(np.float32)
    b = RNG.normal(size=shape[1]).astype(np.float32)
    out = F.group_norm(Tensor(x), Tensor(g), Tensor(b), groups, 1e-5).to_numpy()
    check(out, np_group_norm(x, g, b, groups, 1e-5), DType.float32)


def test_norm_errors():
    from mo.graph import DeviceRef, Graph, TensorType, ops

    with Graph("bad", input_types=[TensorType(DType.int32, [2, 4], DeviceRef.CPU()),
                                   TensorType(DType.float32, [2, 6], DeviceRef.CPU())]) as g:
        with pytest.raises(ValueError, match="softmax is defined on floating-point tensors, "
                                             "got int32"):
            ops.softmax(g.inputs[0])
        with pytest.raises(ValueError, match="num_groups must be a positive int dividing the 6 "
                                             "channels, got 4"):
            ops.group_norm(g.inputs[1], g.inputs[1], g.inputs[1], 4, 1e-5)
        g.output(g.inputs[1])

