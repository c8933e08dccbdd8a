"""Convolution and pooling against torch and a direct numpy loop, eager and
compiled (static and symbolic shapes), and their errors.

Layouts are MAX's: NHWC inputs and RSCF filters; torch runs on NCHW/OIHW
views of the same arrays. float32 tolerances are 1e-4 relative (sums of up
to a few hundred products); f16/bf16 compare with the float32 result at
their own precision.
"""

import ml_dtypes
import numpy as np
import pytest
import torch
import torch.nn.functional as tF

from mo import compilation
from mo import functional as F
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout
from mo.tensor import Tensor

rng = np.random.default_rng(7)


def randn(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def nchw(x):
    return torch.from_numpy(np.ascontiguousarray(x)).permute(0, 3, 1, 2)


def nhwc(t):
    return t.permute(0, 2, 3, 1).numpy()


def torch_conv2d(x, w, stride, dilation, padding, groups):
    top, bottom, left, right = padding
    xt = tF.pad(nchw(x), (left, right, top, bottom))
    wt = torch.from_numpy(w).permute(3, 2, 0, 1)  # RSCF -> OIHW
    return nhwc(tF.conv2d(xt, wt, stride=stride, dilation=dilation, groups=groups))


def loop_conv2d(x, w, stride, dilation, padding, groups):
    """The definition, one output element at a time (float64)."""
    top, bottom, left, right = padding
    x = np.pad(x.astype(np.float64), [(0, 0), (top, bottom), (left, right), (0, 0)])
    n, h, wd, c = x.shape
    r, s, cg, f = w.shape
    fg = f // groups
    oh = (h - dilation * (r - 1) - 1) // stride + 1
    ow = (wd - dilation * (s - 1) - 1) // stride + 1
    out = np.zeros((n, oh, ow, f))
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                for o in range(f):
                    g = o // fg
                    acc = 0.0
                    for p in range(r):
                        for q in range(s):
                            pix = x[b, i * stride + p * dilation, j * stride + q * dilation,
                                    g * cg:(g + 1) * cg]
                            acc += float(pix @ w[p, q, :, o])
                    out[b, i, j, o] = acc
    return out


# (N, H, W, C, F, kernel, stride, dilation, (top, bottom, left, right), groups)
CONV2D_CASES = [
    (1, 8, 8, 3, 4, 3, 1, 1, (1, 1, 1, 1), 1),
    (2, 9, 7, 4, 6, 3, 2, 1, (0, 1, 2, 0), 2),        # asymmetric padding, 2 groups
    (1, 10, 10, 4, 8, 3, 1, 2, (2, 2, 2, 2), 4),      # dilation, depthwise x2
    (1, 6, 6, 5, 5, 2, 1, 1, (0, 0, 0, 0), 5),        # depthwise
    (3, 5, 6, 2, 3, 1, 1, 1, (0, 0, 0, 0), 1),        # 1x1
    (1, 1, 1, 3, 2, 1, 1, 1, (0, 0, 0, 0), 1),        # size-1 spatial
    (1, 7, 7, 6, 4, 3, 3, 1, (1, 0, 0, 1), 2),        # stride 3
]


@pytest.mark.parametrize("case", CONV2D_CASES, ids=str)
def test_conv2d_matches_torch_eager(case):
    n, h, w, c, f, k, s, d, pad, g = case
    x, wt = randn(n, h, w, c), randn(k, k, c // g, f)
    got = F.conv2d(Tensor(x), Tensor(wt), stride=s, dilation=d, padding=pad,
                   groups=g).to_numpy()
    np.testing.assert_allclose(got, torch_conv2d(x, wt, s, d, pad, g), rtol=1e-4, atol=1e-4)
    if case in CONV2D_CASES[:3]:  # the definition too, where it runs in a moment
        np.testing.assert_allclose(got, loop_conv2d(x, wt, s, d, pad, g), rtol=1e-4, atol=1e-4)


def test_conv2d_symbolic_shapes_compiled():
    """One compile serves every batch and image size; sizes follow
    (h + 1 - 3) // 2 + 1."""
    run = compilation.compile(
        lambda x, w, b: F.conv2d(x, w, stride=2, padding=(1, 0, 1, 0), bias=b))(
        TensorLayout(DType.float32, ["n", "h", "w", 3], CPU()),
        TensorLayout(DType.float32, [3, 3, 3, 4], CPU()),
        TensorLayout(DType.float32, [4], CPU()))
    wt, b = randn(3, 3, 3, 4), randn(4)
    for shape in [(1, 8, 8, 3), (2, 5, 11, 3), (1, 2, 2, 3)]:
        x = randn(*shape)
        ref = torch_conv2d(x, wt, 2, 1, (1, 0, 1, 0), 1) + b
        got = run(x, wt, b).to_numpy()
        assert got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)


def test_conv2d_too_small_symbolic_input_is_an_error():
    run = compilation.compile(lambda x, w: F.sum(F.conv2d(x, w), axis=1))(
        TensorLayout(DType.float32, [1, "h", 8, 3], CPU()),
        TensorLayout(DType.float32, [3, 3, 3, 4], CPU()))
    with pytest.raises(ValueError, match=r"dim h - 2 is -1, below zero"):
        run(randn(1, 1, 8, 3), randn(3, 3, 3, 4))


def test_conv2d_channels_first_layouts_and_bias():
    x, w, b = randn(2, 3, 9, 8), randn(5, 3, 3, 3), randn(5)   # NCHW, FCRS (OIHW)
    got = F.conv2d(Tensor(x), Tensor(w), stride=2, padding=1, bias=Tensor(b),
                   input_layout="NCHW", filter_layout="FCRS").to_numpy()
    ref = tF.conv2d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b), stride=2,
                    padding=1).numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype,np_dtype,tol", [
    (DType.float16, np.float16, 2e-2), (DType.bfloat16, ml_dtypes.bfloat16, 6e-2)])
def test_conv2d_half_precision_accumulates_in_f32(dtype, np_dtype, tol):
    x, w = randn(1, 6, 6, 16).astype(np_dtype), randn(3, 3, 16, 4).astype(np_dtype)
    got = F.conv2d(Tensor(x), Tensor(w), padding=1).to_numpy()
    assert got.dtype == np_dtype
    ref = torch_conv2d(x.astype(np.float32), w.astype(np.float32), 1, 1, (1, 1, 1, 1), 1)
    np.testing.assert_allclose(got.astype(np.float32), ref, rtol=tol, atol=tol)


def test_conv2d_integers_exact():
    x = rng.integers(-5, 5, (1, 5, 5, 2)).astype(np.int32)
    w = rng.integers(-3, 3, (2, 2, 2, 3)).astype(np.int32)
    got = F.conv2d(Tensor(x), Tensor(w)).to_numpy()
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, loop_conv2d(x, w, 1, 1, (0, 0, 0, 0), 1).astype(np.int32))


@pytest.mark.parametrize("stride,padding,groups", [
    (1, (0, 0, 0, 0, 0, 0), 1), (2, (1, 1, 0, 1, 1, 0), 1), (1, (1, 1, 1, 1, 1, 1), 2)])
def test_conv3d_matches_torch(stride, padding, groups):
    x, w = randn(2, 5, 6, 4, 4), randn(3, 2, 2, 4 // groups, 6)   # NDHWC, QRSCF
    got = F.conv3d(Tensor(x), Tensor(w), stride=stride, padding=padding,
                   groups=groups).to_numpy()
    front, back, top, bottom, left, right = padding
    xt = tF.pad(torch.from_numpy(x).permute(0, 4, 1, 2, 3), (left, right, top, bottom, front,
                                                             back))
    ref = tF.conv3d(xt, torch.from_numpy(w).permute(4, 3, 0, 1, 2), stride=stride,
                    groups=groups).permute(0, 2, 3, 4, 1).numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)


def torch_conv2d_transpose(x, w, stride, dilation, padding, output_padding):
    """torch pads symmetrically: transpose unpadded, then crop MAX's (top,
    bottom, left, right) and append the output padding."""
    full = nhwc(tF.conv_transpose2d(nchw(x), torch.from_numpy(w).permute(3, 2, 0, 1),
                                    stride=stride, dilation=dilation))
    n, h, wd, f = full.shape
    grown = np.zeros((n, h + output_padding[0], wd + output_padding[1], f), np.float32)
    grown[:, :h, :wd] = full
    top, bottom, left, right = padding
    return grown[:, top:grown.shape[1] - bottom, left:grown.shape[2] - right]


@pytest.mark.parametrize("stride,dilation,padding,output_padding", [
    (2, 1, (1, 1, 1, 1), (1, 1)),
    (1, 1, (0, 0, 0, 0), (0, 0)),
    (3, 2, (2, 1, 0, 2), (2, 0)),
    (2, 1, (3, 3, 3, 3), (0, 1)),      # padding beyond the kernel's reach: a crop
])
def test_conv2d_transpose_matches_torch(stride, dilation, padding, output_padding):
    x, w = randn(2, 5, 4, 3), randn(3, 3, 6, 3)   # RSCF = [R, S, F_out, C_in]
    got = F.conv2d_transpose(Tensor(x), Tensor(w), stride=stride, dilation=dilation,
                             padding=padding, output_paddings=output_padding).to_numpy()
    ref = torch_conv2d_transpose(x, w, stride, dilation, padding, output_padding)
    assert got.shape == ref.shape
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)


def test_conv2d_transpose_fcrs_is_torch_weight_layout():
    x, w, b = randn(1, 4, 5, 5), randn(4, 2, 3, 3), randn(2)   # NCHW, [C_in, F_out, R, S]
    got = F.conv2d_transpose(Tensor(x), Tensor(w), stride=2, padding=1, output_paddings=1,
                             bias=Tensor(b), input_layout="NCHW",
                             filter_layout="FCRS").to_numpy()
    ref = tF.conv_transpose2d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b),
                              stride=2, padding=1, output_padding=1).numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)


# (kernel, stride, dilation, padding, ceil_mode)
POOL_CASES = [
    (2, 2, 1, 0, False), (3, 2, 1, 1, True), (3, 1, 1, 1, False), (2, 3, 1, 1, True),
    ((3, 2), (2, 1), 1, (1, 0), False), (1, 1, 1, 0, False),
]


@pytest.mark.parametrize("case", POOL_CASES, ids=str)
def test_max_pool2d_matches_torch(case):
    k, s, d, p, ceil = case
    x = randn(2, 7, 8, 3)
    got = F.max_pool2d(Tensor(x), k, stride=s, dilation=d, padding=p, ceil_mode=ceil).to_numpy()
    ref = nhwc(tF.max_pool2d(nchw(x), k, stride=s, dilation=d, padding=p, ceil_mode=ceil))
    np.testing.assert_array_equal(got, ref)


def test_max_pool2d_dilation_and_nan():
    x = randn(1, 9, 9, 2)
    x[0, 4, 4, 1] = np.nan
    got = F.max_pool2d(Tensor(x), 3, stride=2, dilation=2).to_numpy()
    ref = nhwc(tF.max_pool2d(nchw(x), 3, stride=2, dilation=2))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    assert np.isnan(got).any()
    np.testing.assert_array_equal(np.nan_to_num(got), np.nan_to_num(ref))


@pytest.mark.parametrize("case", POOL_CASES, ids=str)
@pytest.mark.parametrize("count_boundary", [True, False])
def test_avg_pool2d_matches_torch(case, count_boundary):
    k, s, _, p, ceil = case
    x = randn(2, 7, 8, 3)
    got = F.avg_pool2d(Tensor(x), k, stride=s, padding=p, ceil_mode=ceil,
                       count_boundary=count_boundary).to_numpy()
    ref = nhwc(tF.avg_pool2d(nchw(x), k, stride=s, padding=p, ceil_mode=ceil,
                             count_include_pad=count_boundary))
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)


def test_avg_pool2d_dilation_matches_loop():
    """torch's avg_pool2d has no dilation: the definition instead."""
    x = randn(1, 8, 8, 2)
    got = F.avg_pool2d(Tensor(x), 2, stride=1, dilation=3, padding=1,
                       count_boundary=False).to_numpy()
    xp = np.pad(x, [(0, 0), (1, 1), (1, 1), (0, 0)], constant_values=np.nan)
    ref = np.zeros((1, 7, 7, 2), np.float32)
    for i in range(7):
        for j in range(7):
            window = xp[0, [i, i + 3]][:, [j, j + 3]]
            ref[0, i, j] = np.nanmean(window.reshape(-1, 2), axis=0)
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)


def test_pools_symbolic_batch_and_image_compiled():
    run = compilation.compile(lambda x: (F.max_pool2d(x, 2, stride=2),
                                         F.avg_pool2d(x, 3, padding=1)))(
        TensorLayout(DType.float32, ["n", "h", "w", 4], CPU()))
    for shape in [(1, 6, 6, 4), (3, 5, 9, 4)]:
        x = randn(*shape)
        mx, av = run(x)
        np.testing.assert_array_equal(mx.to_numpy(), nhwc(tF.max_pool2d(nchw(x), 2, 2)))
        np.testing.assert_allclose(av.to_numpy(), nhwc(tF.avg_pool2d(nchw(x), 3, 1, 1)),
                                   rtol=1e-5, atol=1e-6)


def test_avg_pool2d_float16():
    x = randn(1, 6, 6, 8).astype(np.float16)
    got = F.avg_pool2d(Tensor(x), 2, stride=2).to_numpy()
    assert got.dtype == np.float16
    ref = nhwc(tF.avg_pool2d(nchw(x.astype(np.float32)), 2, 2))
    np.testing.assert_allclose(got.astype(np.float32), ref, rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("size,kernel,stride,dilation,padding", [
    ((6, 6), (2, 2), 2, 1, 0), ((7, 5), (3, 2), 1, 1, 1), ((9, 9), (3, 3), 2, 2, 2)])
def test_fold_matches_torch(size, kernel, stride, dilation, padding):
    blocks = tF.unfold(torch.zeros(1, 1, *size), kernel, dilation, padding, stride).shape[-1]
    x = randn(2, 3 * kernel[0] * kernel[1], blocks)
    got = F.fold(Tensor(x), size, kernel, stride=stride, dilation=dilation,
                 padding=padding).to_numpy()
    ref = tF.fold(torch.from_numpy(x), size, kernel, dilation, padding, stride).numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("call,message", [
    (lambda: F.conv2d(Tensor(randn(1, 4, 4)), Tensor(randn(1, 1, 4, 2))),
     "the input must have rank 4, got rank 3"),
    (lambda: F.conv2d(Tensor(randn(1, 4, 4, 3)), Tensor(randn(1, 1, 3, 2).astype(np.float16))),
     "input and filter must have one dtype, got float32 and float16"),
    (lambda: F.conv2d(Tensor(randn(1, 4, 4, 3)), Tensor(randn(1, 1, 2, 2))),
     r"the input has \[3\] channels, but the filter takes \[2\] per group x 1 groups"),
    (lambda: F.conv2d(Tensor(randn(1, 4, 4, 4)), Tensor(randn(1, 1, 2, 3)), groups=2),
     "with 2 groups the channel counts must be static and divisible by it"),
    (lambda: F.conv2d(Tensor(randn(1, 2, 2, 3)), Tensor(randn(3, 3, 3, 2))),
     "spatial dim 0: the window spans 3 elements but the padded input has 2"),
    (lambda: F.conv2d(Tensor(randn(1, 4, 4, 3)), Tensor(randn(1, 1, 3, 2)), padding=(1, 1, 1)),
     r"padding must be an int or 4 ints >= 0, got \[1, 1, 1\]"),
    (lambda: F.conv2d(Tensor(randn(1, 4, 4, 3)), Tensor(randn(1, 1, 3, 2)), stride=0),
     "stride must be an int or 2 ints >= 1, got 0"),
    (lambda: F.conv2d(Tensor(randn(1, 4, 4, 3)), Tensor(randn(1, 1, 3, 2)), input_layout="HWC"),
     r"layout must be one of \['NHWC', 'NCHW'\], got 'HWC'"),
    (lambda: F.conv2d_transpose(Tensor(randn(1, 4, 4, 3)), Tensor(randn(2, 2, 5, 3)),
                                output_paddings=1),
     r"output padding 1 of spatial dim 0 must be in \[0, max\(stride, dilation\)\)"),
    (lambda: F.max_pool2d(Tensor(randn(1, 4, 4, 3)), 2, padding=2),
     r"paddings \(2, 2\) must be smaller than the window \(2\)"),
    (lambda: F.avg_pool2d(Tensor(randn(1, 4, 4, 3).astype(np.int32)), 2),
     "avg_pool2d is defined on floating-point tensors, got int32"),
    (lambda: F.conv2d(Tensor(np.ones((1, 2, 2, 1), bool)), Tensor(np.ones((1, 1, 1, 1), bool))),
     "operand #0 must be mo tensor of floating-point or signed integer or unsigned integer"),
    (lambda: F.fold(Tensor(randn(1, 12, 5)), (4, 4), (2, 2)),
     r"input must be \[N, C \* 4, 9\] \(static\)"),
])
def test_errors_name_the_problem(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_ceil_mode_with_symbolic_dims_is_an_error():
    with pytest.raises(ValueError, match=r"ceil_mode needs static spatial dims, spatial dim 0 "
                                         r"is \[h\]"):
        compilation.compile(lambda x: F.max_pool2d(x, 2, ceil_mode=True))(
            TensorLayout(DType.float32, [1, "h", 4, 3], CPU()))


def test_conv2d_transpose_of_an_empty_symbolic_dim_is_an_error():
    run = compilation.compile(lambda x, w: F.conv2d_transpose(x, w, stride=2))(
        TensorLayout(DType.float32, [1, "h", 4, 2], CPU()),
        TensorLayout(DType.float32, [3, 3, 5, 2], CPU()))
    assert run(randn(1, 3, 4, 2), randn(3, 3, 5, 2)).to_numpy().shape == (1, 7, 9, 5)
    with pytest.raises(ValueError, match=r"dim h - 1 is -1, below zero"):
        run(randn(1, 0, 4, 2), randn(3, 3, 5, 2))


@pytest.mark.parametrize("np_dtype,tol", [(np.float64, 1e-10), (ml_dtypes.bfloat16, 6e-2),
                                          (np.float16, 1e-2)])
def test_pools_and_conv3d_in_other_float_types(np_dtype, tol):
    x = randn(1, 6, 6, 4).astype(np_dtype)
    ref_x = nchw(x.astype(np.float32)).double()
    np.testing.assert_allclose(F.max_pool2d(Tensor(x), 2, stride=2).to_numpy().astype(np.float64),
                               nhwc(tF.max_pool2d(ref_x, 2, 2)), rtol=tol, atol=tol)
    np.testing.assert_allclose(F.avg_pool2d(Tensor(x), 3, padding=1).to_numpy().astype(np.float64),
                               nhwc(tF.avg_pool2d(ref_x, 3, 1, 1)), rtol=tol, atol=tol)
    v, w = randn(1, 4, 4, 4, 2).astype(np_dtype), randn(2, 2, 2, 2, 3).astype(np_dtype)
    got = F.conv3d(Tensor(v), Tensor(w)).to_numpy()
    assert got.dtype == np.dtype(np_dtype)
    ref = tF.conv3d(torch.from_numpy(v.astype(np.float64)).permute(0, 4, 1, 2, 3),
                    torch.from_numpy(w.astype(np.float64)).permute(4, 3, 0, 1, 2))
    np.testing.assert_allclose(got.astype(np.float64), ref.permute(0, 2, 3, 4, 1).numpy(),
                               rtol=tol * 4, atol=tol * 4)
