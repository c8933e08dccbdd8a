"""Resizing (MAX's ``resize``, ``resize_nearest``, ``resize_linear``,
``resize_bicubic``), re-exported by ``mo.graph.ops``.

Each resized dim is a weighted sum of taps: output position ``i`` reads
input positions ``index[i, k]`` with weights ``weight[i, k]`` (one tap for
nearest, two for linear, four for cubic, as many as the filter covers with
antialiasing). Both tables are computed when the graph is built (the sizes
of resized dims are static) and applied as gathers, so any rank, layout
and dtype works; taps outside the input are clamped to its edge.

Coordinate transforms follow ONNX ``Resize``: ``0`` half_pixel, ``1``
align_corners, ``2`` asymmetric, ``3`` half_pixel_1D (half_pixel, but a
size-1 output samples position 0). Nearest rounding: ``0`` half down
(``round_prefer_floor``), ``1`` half up, ``2`` floor, ``3`` ceil. Cubic uses
``A = -0.75`` (torch and ONNX).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from mo.graph.dim import Dim
from mo.graph.graph import TensorValue
from mo.graph._indexing import gather
from mo.graph.ops import add, as_tensor_value, constant, mul, op_error


class InterpolationMode(enum.Enum):
    """MAX's ``InterpolationMode`` for ``resize``."""

    NEAREST = "nearest"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"


def _source(out: np.ndarray, in_size: int, out_size: int, mode: int) -> np.ndarray:
    """Input coordinates of output positions ``out`` (ONNX's transforms)."""
    scale = in_size / out_size
    if mode == 0 or mode == 3:  # half_pixel (half_pixel_1D: a lone output samples 0)
        if mode == 3 and out_size == 1:
            return np.zeros_like(out)
        return (out + 0.5) * scale - 0.5
    if mode == 1:  # align_corners
        return out * ((in_size - 1) / (out_size - 1)) if out_size > 1 else np.zeros_like(out)
    if mode == 2:  # asymmetric
        return out * scale
    raise ValueError(f"coordinate_transform_mode must be 0 (half_pixel), 1 (align_corners), "
                     f"2 (asymmetric) or 3 (half_pixel_1D), got {mode!r}")


def _nearest_taps(in_size: int, out_size: int, mode: int, round_mode: int):
    x = _source(np.arange(out_size, dtype=np.float64), in_size, out_size, mode)
    rounding = {0: lambda v: np.ceil(v - 0.5), 1: lambda v: np.floor(v + 0.5),
                2: np.floor, 3: np.ceil}
    if round_mode not in rounding:
        raise ValueError(f"round_mode must be 0 (half down), 1 (half up), 2 (floor) or 3 (ceil), "
                         f"got {round_mode!r}")
    return rounding[round_mode](x)[:, None], np.ones((out_size, 1))


def _linear_taps(in_size: int, out_size: int, mode: int, antialias: bool):
    x = _source(np.arange(out_size, dtype=np.float64), in_size, out_size, mode)
    scale = in_size / out_size
    if antialias and scale > 1:
        # A triangle filter stretched by the scale (torch's antialias=True):
        # taps at the input centres within `scale` of x, weights normalised.
        reach = int(math.ceil(scale)) + 1
        first = np.floor(x - scale + 0.5)[:, None] + np.arange(2 * reach)[None, :]
        w = np.clip(1 - np.abs(first - x[:, None]) / scale, 0, None)
        inside = (first >= 0) & (first < in_size)
        w = np.where(inside, w, 0)
        return first, w / w.sum(axis=1, keepdims=True)
    x = np.maximum(x, 0) if mode in (0, 3) else x  # torch clamps the half-pixel start
    lo = np.floor(x)
    t = x - lo
    return np.stack([lo, lo + 1], 1), np.stack([1 - t, t], 1)


def _cubic_taps(in_size: int, out_size: int, mode: int, a: float = -0.75):
    x = _source(np.arange(out_size, dtype=np.float64), in_size, out_size, mode)
    lo = np.floor(x)
    t = (x - lo)[:, None]
    d = np.abs(np.array([-1.0, 0.0, 1.0, 2.0])[None, :] - t)
    w = np.where(d <= 1, ((a + 2) * d - (a + 3)) * d * d + 1,
                 np.where(d < 2, ((a * d - 5 * a) * d + 8 * a) * d - 4 * a, 0.0))
    return lo[:, None] + np.array([-1.0, 0.0, 1.0, 2.0])[None, :], w


def _resize(name: str, input: Any, size: Iterable[Any], taps) -> TensorValue:  # noqa: A002
    x = as_tensor_value(input)
    shape = [Dim(d) for d in size]
    inputs = [x, shape]
    if len(shape) != x.rank:
        raise op_error(name, inputs, f"size needs one dim per input dim ({x.rank}), got "
                                     f"{len(shape)}")
    for axis, (old, new) in enumerate(zip(x.shape, shape)):
        if old == new:
            continue
        if not (old.is_static and new.is_static):
            raise op_error(name, inputs, f"dim {axis} changes from {old} to {new}: resized dims "
                                         f"must be static")
        if int(old) == 0 or int(new) == 0:
            raise op_error(name, inputs, f"dim {axis}: cannot resize between {old} and {new}")
        index, weight = taps(int(old), int(new))
        index = np.clip(index, 0, int(old) - 1).astype(np.int64)
        x = _apply_taps(x, axis, index, weight)
    return x


def _apply_taps(x: TensorValue, axis: int, index: np.ndarray, weight: np.ndarray) -> TensorValue:
    """sum_k gather(x, index[:, k]) * weight[:, k] along ``axis``."""
    with x.graph:
        total = None
        for k in range(index.shape[1]):
            w = weight[:, k]
            if not w.any():
                continue
            term = gather(x, index[:, k], axis)
            if not np.all(w == 1):
                if not x.dtype.is_float:
                    raise ValueError(f"interpolating {x.dtype.name} tensors needs weights: use "
                                     f"nearest, or cast to a float type")
                shape = [1] * x.rank
                shape[axis] = len(w)
                term = mul(term, constant(w.reshape(shape).astype(x.dtype.to_numpy()), x.dtype,
                                          x.device))
            total = term if total is None else add(total, term)
        return total


def resize_nearest(input: Any, size: Iterable[Any],  # noqa: A002
                   coordinate_transform_mode: int = 0, round_mode: int = 0) -> TensorValue:
    """Nearest-neighbour resize of every dim whose size changes (any layout)."""
    return _resize("resize_nearest", input, size,
                   lambda i, o: _nearest_taps(i, o, coordinate_transform_mode, round_mode))


def resize_linear(input: Any, size: Iterable[Any], coordinate_transform_mode: int = 0,  # noqa: A002
                  antialias: bool = False) -> TensorValue:
    """(Multi)linear resize of every dim whose size changes; ``antialias``
    widens the filter when shrinking (torch's ``antialias=True``)."""
    return _resize("resize_linear", input, size,
                   lambda i, o: _linear_taps(i, o, coordinate_transform_mode, antialias))


def resize_bicubic(input: Any, size: Iterable[Any]) -> TensorValue:  # noqa: A002
    """Bicubic resize (half-pixel centres, ``A = -0.75``: torch's
    ``bicubic`` with ``align_corners=False``)."""
    return _resize("resize_bicubic", input, size, lambda i, o: _cubic_taps(i, o, 0))


def resize(input: Any, shape: Iterable[Any],  # noqa: A002
           interpolation: Any = InterpolationMode.BILINEAR) -> TensorValue:
    """``input`` resized to ``shape`` (MAX's ``resize``): nearest, bilinear or
    bicubic, half-pixel centres, over the dims whose size changes."""
    mode = InterpolationMode(interpolation.value if isinstance(interpolation, enum.Enum)
                             else interpolation)
    if mode is InterpolationMode.NEAREST:
        return resize_nearest(input, shape)
    if mode is InterpolationMode.BILINEAR:
        return resize_linear(input, shape)
    return resize_bicubic(input, shape)
