"""roi_align against a direct port of torchvision's reference loops
(float64), NHWC, both modes, aligned or not, fixed and adaptive sampling."""

import math

import numpy as np
import pytest

from mo import compilation
from mo import functional as F
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout
from mo.tensor import Tensor


def bilinear(img, y, x):
    h, w = img.shape[:2]
    if y < -1.0 or y > h or x < -1.0 or x > w:
        return np.zeros(img.shape[2])
    y, x = max(y, 0.0), max(x, 0.0)
    yl, xl = int(y), int(x)
    if yl >= h - 1:
        yh = yl = h - 1
        y = float(yl)
    else:
        yh = yl + 1
    if xl >= w - 1:
        xh = xl = w - 1
        x = float(xl)
    else:
        xh = xl + 1
    ly, lx = y - yl, x - xl
    hy, hx = 1 - ly, 1 - lx
    return hy * hx * img[yl, xl] + hy * lx * img[yl, xh] + ly * hx * img[yh, xl] + \
        ly * lx * img[yh, xh]


def reference(x, rois, oh, ow, scale, ratio, aligned, mode):
    out = np.zeros((len(rois), oh, ow, x.shape[3]))
    off = 0.5 if aligned else 0.0
    for m, (b, x0, y0, x1, y1) in enumerate(rois.astype(np.float64)):
        img = x[int(b)].astype(np.float64)
        sx, sy, ex, ey = x0 * scale - off, y0 * scale - off, x1 * scale - off, y1 * scale - off
        rw, rh = ex - sx, ey - sy
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / oh, rw / ow
        gh = ratio if ratio > 0 else math.ceil(rh / oh)
        gw = ratio if ratio > 0 else math.ceil(rw / ow)
        for i in range(oh):
            for j in range(ow):
                samples = [bilinear(img, sy + i * bh + (iy + 0.5) * bh / gh,
                                    sx + j * bw + (ix + 0.5) * bw / gw)
                           for iy in range(gh) for ix in range(gw)]
                if samples:
                    out[m, i, j] = np.max(samples, 0) if mode == "MAX" else \
                        np.sum(samples, 0) / max(gh * gw, 1)
    return out


ROIS = np.array([[0, 1.0, 1.5, 10.0, 12.0], [1, -2.0, 3.0, 5.0, 20.0], [0, 0.0, 0.0, 0.5, 0.5],
                 [1, 14.0, 14.0, 18.0, 17.0]], np.float32)


@pytest.mark.parametrize("ratio", [0, 2])
@pytest.mark.parametrize("aligned", [False, True])
@pytest.mark.parametrize("mode", ["AVG", "MAX"])
def test_roi_align_matches_the_reference(ratio, aligned, mode):
    x = np.random.default_rng(1).standard_normal((2, 16, 16, 3)).astype(np.float32)
    got = F.roi_align(Tensor(x), Tensor(ROIS), 3, 4, spatial_scale=0.9, sampling_ratio=ratio,
                      aligned=aligned, mode=mode).to_numpy()
    np.testing.assert_allclose(got, reference(x, ROIS, 3, 4, 0.9, ratio, aligned, mode),
                               rtol=1e-5, atol=1e-5)


def test_roi_align_symbolic_roi_count_compiled():
    run = compilation.compile(lambda x, r: F.roi_align(x, r, 2, 2, sampling_ratio=1))(
        TensorLayout(DType.float32, [2, 16, 16, 3], CPU()),
        TensorLayout(DType.float32, ["m", 5], CPU()))
    x = np.random.default_rng(2).standard_normal((2, 16, 16, 3)).astype(np.float32)
    for rois in (ROIS[:1], ROIS):
        np.testing.assert_allclose(run(x, rois).to_numpy(),
                                   reference(x, rois, 2, 2, 1.0, 1, False, "AVG"), atol=1e-5)


def test_roi_align_errors():
    x = Tensor(np.zeros((1, 4, 4, 2), np.float32))
    with pytest.raises(ValueError, match=r"rois must be \[M, 5\]"):
        F.roi_align(x, Tensor(np.zeros((2, 4), np.float32)), 2, 2)
    with pytest.raises(ValueError, match='mode must be "avg" or "max", got "min"'):
        F.roi_align(x, Tensor(np.zeros((2, 5), np.float32)), 2, 2, mode="MIN")
    with pytest.raises(ValueError, match="sampling_ratio must be a whole number >= 0"):
        F.roi_align(x, Tensor(np.zeros((2, 5), np.float32)), 2, 2, sampling_ratio=1.5)


def test_roi_align_float16_computes_in_float32():
    x = np.random.default_rng(3).standard_normal((2, 16, 16, 3)).astype(np.float16)
    got = F.roi_align(Tensor(x), Tensor(ROIS.astype(np.float16)), 2, 2, sampling_ratio=2)
    assert got.to_numpy().dtype == np.float16
    ref = reference(x.astype(np.float32), ROIS.astype(np.float16).astype(np.float32), 2, 2, 1.0,
                    2, False, "AVG")
    np.testing.assert_allclose(got.to_numpy().astype(np.float64), ref, atol=5e-3)
