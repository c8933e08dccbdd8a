"""resize against torch.nn.functional.interpolate (the modes torch has; 5e-6
absolute on N(0, 1) data: a few roundings of weighted sums) and the ONNX
definitions for the rest; eager and compiled."""

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

rng = np.random.default_rng(3)
X = rng.standard_normal((2, 3, 7, 9)).astype(np.float32)
SIZES = [(14, 18), (4, 5), (7, 20), (3, 3), (1, 1)]


def torch_resize(x, size, **kw):
    return tF.interpolate(torch.from_numpy(x), size, **kw).numpy()


@pytest.mark.parametrize("size", SIZES, ids=str)
@pytest.mark.parametrize("mo_args,torch_kw", [
    (("linear", 0, False), {"mode": "bilinear", "align_corners": False}),
    (("linear", 1, False), {"mode": "bilinear", "align_corners": True}),
    (("linear", 0, True), {"mode": "bilinear", "antialias": True}),
    (("bicubic",), {"mode": "bicubic", "align_corners": False}),
    (("nearest", 2, 2), {"mode": "nearest"}),            # asymmetric, floor
    (("nearest", 0, 1), {"mode": "nearest-exact"}),      # half-pixel, half up
], ids=lambda v: str(v))
def test_resize_matches_torch(size, mo_args, torch_kw):
    shape = (2, 3) + size
    kind, *rest = mo_args
    fn = {"linear": F.resize_linear, "bicubic": F.resize_bicubic, "nearest": F.resize_nearest}[kind]
    got = fn(Tensor(X), shape, *rest).to_numpy()
    np.testing.assert_allclose(got, torch_resize(X, size, **torch_kw), atol=5e-6, rtol=0)


def test_resize_any_layout_and_symbolic_batch_compiled():
    """NHWC with a symbolic batch: only the dims whose size changes resize."""
    run = compilation.compile(lambda x: F.resize(x, [x.shape[0], 10, 12, 3]))(
        TensorLayout(DType.float32, ["n", 7, 9, 3], CPU()))
    x = np.ascontiguousarray(X.transpose(0, 2, 3, 1))
    ref = torch_resize(X, (10, 12), mode="bilinear", align_corners=False).transpose(0, 2, 3, 1)
    np.testing.assert_allclose(run(x).to_numpy(), ref, atol=5e-6)


def test_resize_modes_and_integers():
    np.testing.assert_allclose(F.resize(Tensor(X), (2, 3, 5, 5), "bicubic").to_numpy(),
                               torch_resize(X, (5, 5), mode="bicubic"), atol=5e-6)
    img = np.arange(12, dtype=np.int32).reshape(1, 3, 4)
    got = F.resize_nearest(Tensor(img), (1, 6, 8), 2, 2).to_numpy()
    np.testing.assert_array_equal(got, img[:, [0, 0, 1, 1, 2, 2]][:, :, [0, 0, 1, 1, 2, 2, 3, 3]])
    # half_pixel_1D: a single output samples position 0.
    np.testing.assert_array_equal(F.resize_linear(Tensor(X), (2, 3, 1, 9), 3).to_numpy(),
                                  X[:, :, :1])


@pytest.mark.parametrize("call,message", [
    (lambda: F.resize_linear(Tensor(X), (2, 3, 5)), r"size needs one dim per input dim \(4\)"),
    (lambda: F.resize_linear(Tensor(np.zeros((2, 3), np.int32)), (4, 6)),
     "interpolating int32 tensors needs weights"),
    (lambda: F.resize_linear(Tensor(X), (2, 3, 5, 5), 7), "coordinate_transform_mode must be"),
    (lambda: F.resize_nearest(Tensor(X), (2, 3, 5, 5), 0, 9), "round_mode must be"),
    (lambda: F.resize(Tensor(X), (2, 3, 5, 5), "area"), "'area' is not a valid InterpolationMode"),
])
def test_resize_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_resizing_a_symbolic_dim_is_an_error():
    with pytest.raises(ValueError, match="dim 1 changes from h to 8: resized dims must be static"):
        compilation.compile(lambda x: F.resize_linear(x, [1, 8]))(
            TensorLayout(DType.float32, [1, "h"], CPU()))
