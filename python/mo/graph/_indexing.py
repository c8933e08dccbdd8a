"""Gathers, scatters and sorting (MAX's ``gather``, ``scatter*``, ``top_k``,
...), re-exported by ``mo.graph.ops``.

Indices are integer tensors (or Python/numpy integers, checked against the
dims they index when the op is built). A negative index counts from the end.
At run time an index still out of range is never read or written out of
bounds: gathers clamp it to the nearest valid index (JAX's default) and
scatters drop that update.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from mo.dtype import DType
from mo.graph.dim import Dim
from mo.graph.graph import TensorValue
from mo.graph.ops import (
    _axis,
    _i64,
    _graph_of,
    _mo,
    as_tensor_value,
    broadcast_to,
    build,
    cast,
    cumsum,
    op_error,
    permute,
    reshape,
    where,
)


def _indices(name: str, indices: Any, sizes: list[Dim], inputs: list,
             last_is_vector: bool = False) -> TensorValue:
    """``indices`` as an integer tensor; literal indices are range-checked
    against ``sizes`` (per component of the last dim when ``last_is_vector``)."""
    if not isinstance(indices, TensorValue) and not hasattr(indices, "_graph_value"):
        array = np.asarray(indices)
        if array.dtype.kind not in "iu":
            raise op_error(name, inputs, f"indices must be integers, got {array.dtype}")
        columns = array.reshape(-1, array.shape[-1]).T if last_is_vector and array.ndim else \
            [array.reshape(-1)] * len(sizes)
        for size, column in zip(sizes, columns):
            if not size.is_static:
                continue
            bad = column[(column < -int(size)) | (column >= int(size))]
            if len(bad):
                raise op_error(name, inputs, f"index {bad[0]} is out of range for a dim of "
                                             f"size {int(size)}")
        with _graph_of(*(v for v in inputs if isinstance(v, TensorValue))):
            return as_tensor_value(array.astype(np.int64))
    indices = as_tensor_value(indices)
    if not indices.dtype.is_integral or indices.dtype is DType.bool:
        raise op_error(name, inputs, f"indices must be an integer tensor, got "
                                     f"{indices.dtype.name}")
    return indices


def gather(input: Any, indices: Any, axis: int) -> TensorValue:  # noqa: A002
    """``input`` indexed by ``indices`` along ``axis`` (``numpy.take``): the
    result is ``input.shape[:axis] + indices.shape + input.shape[axis+1:]``."""
    x = as_tensor_value(input)
    inputs = [x, indices, axis]
    axis = _axis("gather", x, axis, inputs)
    idx = _indices("gather", indices, [x.shape[axis]], inputs)
    return build("gather", inputs, x.graph, lambda: _mo().GatherOp(
        x._value, idx._value, _i64(axis)), verify=True)


def gather_nd(input: Any, indices: Any, batch_dims: int = 0) -> TensorValue:  # noqa: A002
    """``input`` indexed by the ``K``-vectors in the last dim of ``indices``
    (TensorFlow's ``gather_nd``): ``indices`` is ``[B..., I..., K]`` with the
    ``batch_dims`` leading dims ``B`` shared with ``input``; the result is
    ``B + I + input.shape[batch_dims + K:]``."""
    x = as_tensor_value(input)
    inputs = [x, indices, batch_dims]
    idx = _indices("gather_nd", indices, list(x.shape[batch_dims:]), inputs, True)
    return build("gather_nd", inputs, x.graph, lambda: _mo().GatherNdOp(
        x._value, idx._value, _i64(int(batch_dims))), verify=True)


def _reduction_attr(reduction: str):
    from mo._mlir import ir

    return ir.Attribute.parse(f"#mo<reduction {reduction}>")


def _scatter(name: str, reduction: str, input: Any, updates: Any, indices: Any,  # noqa: A002
             axis: int) -> TensorValue:
    x = as_tensor_value(input)
    inputs = [x, updates, indices, axis]
    axis = _axis(name, x, axis, inputs)
    with x.graph:
        u = cast(as_tensor_value(updates, dtype=x.dtype), x.dtype)
    idx = _indices(name, indices, [x.shape[axis]], inputs)
    return build(name, inputs, x.graph, lambda: _mo().ScatterOp(
        _reduction_attr(reduction), x._value, u._value, idx._value, _i64(axis)), verify=True)


def _scatter_nd(name: str, reduction: str, input: Any, updates: Any,  # noqa: A002
                indices: Any) -> TensorValue:
    x = as_tensor_value(input)
    inputs = [x, updates, indices]
    with x.graph:
        u = cast(as_tensor_value(updates, dtype=x.dtype), x.dtype)
    idx = _indices(name, indices, list(x.shape), inputs, True)
    return build(name, inputs, x.graph, lambda: _mo().ScatterNdOp(
        _reduction_attr(reduction), x._value, u._value, idx._value), verify=True)


def scatter(input: Any, updates: Any, indices: Any, axis: int = -1) -> TensorValue:  # noqa: A002
    """A copy of ``input`` with ``updates`` written at ``indices`` along
    ``axis`` (ONNX ``ScatterElements``, torch's ``scatter``): ``indices`` has
    ``updates``' shape; with repeated indices the last update wins."""
    return _scatter("scatter", "none", input, updates, indices, axis)


def scatter_add(input: Any, updates: Any, indices: Any,  # noqa: A002
                axis: int = -1) -> TensorValue:
    """``scatter`` accumulating: repeated indices add up."""
    return _scatter("scatter_add", "add", input, updates, indices, axis)


def scatter_mul(input: Any, updates: Any, indices: Any,  # noqa: A002
                axis: int = -1) -> TensorValue:
    """``scatter`` multiplying into ``input``."""
    return _scatter("scatter_mul", "mul", input, updates, indices, axis)


def scatter_max(input: Any, updates: Any, indices: Any,  # noqa: A002
                axis: int = -1) -> TensorValue:
    """``scatter`` keeping the maximum of ``input`` and the updates."""
    return _scatter("scatter_max", "max", input, updates, indices, axis)


def scatter_min(input: Any, updates: Any, indices: Any,  # noqa: A002
                axis: int = -1) -> TensorValue:
    """``scatter`` keeping the minimum of ``input`` and the updates."""
    return _scatter("scatter_min", "min", input, updates, indices, axis)


def scatter_nd(input: Any, updates: Any, indices: Any) -> TensorValue:  # noqa: A002
    """A copy of ``input`` with slices of ``updates`` written at the
    ``K``-vectors of ``indices`` (ONNX ``ScatterND``): ``indices`` is ``[I...,
    K]``, ``updates`` ``I + input.shape[K:]``."""
    return _scatter_nd("scatter_nd", "none", input, updates, indices)


def scatter_nd_add(input: Any, updates: Any, indices: Any) -> TensorValue:  # noqa: A002
    """``scatter_nd`` accumulating: repeated indices add up."""
    return _scatter_nd("scatter_nd_add", "add", input, updates, indices)


def scatter_nd_mul(input: Any, updates: Any, indices: Any) -> TensorValue:  # noqa: A002
    """``scatter_nd`` multiplying into ``input``."""
    return _scatter_nd("scatter_nd_mul", "mul", input, updates, indices)


def scatter_nd_max(input: Any, updates: Any, indices: Any) -> TensorValue:  # noqa: A002
    """``scatter_nd`` keeping the maximum."""
    return _scatter_nd("scatter_nd_max", "max", input, updates, indices)


def scatter_nd_min(input: Any, updates: Any, indices: Any) -> TensorValue:  # noqa: A002
    """``scatter_nd`` keeping the minimum."""
    return _scatter_nd("scatter_nd_min", "min", input, updates, indices)


def masked_scatter(input: Any, mask: Any, updates: Any,  # noqa: A002
                   out_dim: Any = None) -> TensorValue:
    """A copy of ``input`` whose elements where ``mask`` (broadcast to
    ``input``) is true are, in row-major order, the elements of ``updates``
    (torch's ``masked_scatter``). Surplus updates are ignored; if there are
    fewer updates than true elements, the last one repeats (never an
    out-of-bounds read). ``out_dim``, MAX's name for the count, is accepted
    and unused: the result has ``input``'s shape."""
    x = as_tensor_value(input)
    inputs = [x, mask, updates]
    with x.graph:
        m = as_tensor_value(mask)
        if m.dtype is not DType.bool:
            raise op_error("masked_scatter", inputs, f"mask must be bool, got {m.dtype.name}")
        u = as_tensor_value(updates, dtype=x.dtype)
        if u.dtype != x.dtype:
            raise op_error("masked_scatter", inputs, f"updates must be {x.dtype.name}, got "
                                                     f"{u.dtype.name}")
        flat_mask = reshape(broadcast_to(m, x.shape), [-1])
        # Position of each true element among the true ones.
        slot = cumsum(cast(flat_mask, DType.int64), axis=0, exclusive=True)
        taken = gather(reshape(u, [-1]), slot, axis=0)
        return reshape(where(flat_mask, taken, reshape(x, [-1])), x.shape)


def _top_k(name: str, input: Any, k: int, axis: int, largest: bool) -> list[TensorValue]:
    from mo._mlir import ir

    x = as_tensor_value(input)
    inputs = [x, k, axis]
    if x.rank == 0:
        raise op_error(name, inputs, f"{name} needs a tensor of rank >= 1")
    axis = _axis(name, x, axis, inputs)
    size = x.shape[axis]
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not size.is_static \
            or not 0 <= k <= int(size):
        raise op_error(name, inputs, f"k must be an int in [0, {size}] (a static dim), "
                                     f"got {k!r}")
    if x.dtype is DType.bool:
        raise op_error(name, inputs, f"{name} is defined on numeric tensors, got bool")
    last = x.rank - 1
    perm = list(range(x.rank))
    perm[axis], perm[last] = perm[last], perm[axis]
    moved = permute(x, perm) if axis != last else x
    values, indices = build(name, inputs, x.graph, lambda: _mo().TopKOp(
        moved._value, _i64(int(k)), ir.BoolAttr.get(largest)), verify=True)
    if axis != last:
        values, indices = permute(values, perm), permute(indices, perm)
    return [values, indices]


def top_k(input: Any, k: int, axis: int = -1) -> list[TensorValue]:  # noqa: A002
    """The ``k`` largest elements along ``axis`` and their int64 indices,
    largest first (ties in index order; NaN counts as the largest, as in
    torch). The axis must have a static size."""
    return _top_k("top_k", input, k, axis, True)


def bottom_k(input: Any, k: int, axis: int = -1) -> list[TensorValue]:  # noqa: A002
    """The ``k`` smallest elements along ``axis`` and their indices, smallest
    first (NaN last)."""
    return _top_k("bottom_k", input, k, axis, False)


def argsort(x: Any, ascending: bool = True) -> TensorValue:
    """The int64 indices that sort a rank-1 tensor (MAX's ``argsort``; stable,
    NaN last when ascending); its size must be static."""
    v = as_tensor_value(x)
    if v.rank != 1:
        raise op_error("argsort", [v], f"argsort takes a rank-1 tensor, got rank {v.rank}")
    return _top_k("argsort", v, int(v.shape[0]) if v.shape[0].is_static else -1, 0,
                  not ascending)[1]


def roi_align(input: Any, rois: Any, output_height: int, output_width: int,  # noqa: A002
              spatial_scale: float = 1.0, sampling_ratio: float = 0.0, aligned: bool = False,
              mode: str = "AVG") -> TensorValue:
    """ROI Align (MAX's ``roi_align``, torchvision's semantics) over an NHWC
    ``input``: ``rois`` is ``[M, 5]`` rows of ``(batch, x0, y0, x1, y1)``; the
    result ``[M, output_height, output_width, C]`` averages (``mode="AVG"``)
    or takes the maximum (``"MAX"``) of bilinear samples per bin, on a
    ``sampling_ratio`` grid (0: adaptive, as many as the bin spans)."""
    from mo._mlir import ir

    x = as_tensor_value(input)
    with x.graph:
        r = cast(as_tensor_value(rois), x.dtype)
    inputs = [x, r, output_height, output_width]
    if not x.dtype.is_float:
        raise op_error("roi_align", inputs, f"roi_align is defined on floating-point tensors, "
                                            f"got {x.dtype.name}")
    ratio = int(sampling_ratio)
    if ratio != sampling_ratio or ratio < 0:
        raise op_error("roi_align", inputs, f"sampling_ratio must be a whole number >= 0, got "
                                            f"{sampling_ratio!r}")
    return build("roi_align", inputs, x.graph, lambda: _mo().RoiAlignOp(
        x._value, r._value, _i64(int(output_height)), _i64(int(output_width)),
        ir.FloatAttr.get(ir.F64Type.get(), float(spatial_scale)), _i64(ratio),
        ir.BoolAttr.get(bool(aligned)), ir.StringAttr.get(str(mode).lower())), verify=True)


def nonzero(x: Any, out_dim: Any) -> TensorValue:
    """The coordinates of the non-zero (true) elements of ``x``, row by row
    in row-major order (MAX's ``nonzero``, numpy's ``argwhere``): an int64
    ``[out_dim, rank]`` tensor, where ``out_dim`` names a new dim sized when
    the graph runs. Later ops may use it; a graph result that has it comes
    back with its actual size."""
    from mo.graph.dim import SymbolicDim
    from mo.graph.graph import mlir_type
    from mo.graph.type import TensorType

    v = as_tensor_value(x)
    dim = Dim(out_dim)
    if not isinstance(dim, SymbolicDim):
        raise op_error("nonzero", [v, out_dim], f"out_dim must name a new symbolic dim (a "
                                                f"string), got {out_dim!r}")
    out = TensorType(DType.int64, [dim, Dim(v.rank)], v.device)
    return build("nonzero", [v, out_dim], v.graph,
                 lambda: _mo().NonzeroOp(mlir_type(out), v._value), verify=True)


def non_maximum_suppression(boxes: Any, scores: Any, max_output_boxes_per_class: Any,
                            iou_threshold: Any, score_threshold: Any,
                            out_dim: Any = "num_selected") -> TensorValue:
    """Greedy non-maximum suppression (MAX's, ONNX's ``NonMaxSuppression``):
    ``boxes`` ``[B, N, 4]`` as ``(y1, x1, y2, x2)``, ``scores`` ``[B, C, N]``;
    per batch and class the best boxes scoring above ``score_threshold``,
    skipping any whose IoU with one already kept exceeds ``iou_threshold``,
    at most ``max_output_boxes_per_class``. Returns int64 ``[out_dim, 3]``
    rows ``(batch, class, box)``; ``out_dim`` is sized when the graph runs."""
    from mo.graph.dim import SymbolicDim
    from mo.graph.graph import mlir_type
    from mo.graph.type import TensorType

    b, s = as_tensor_value(boxes), as_tensor_value(scores)
    inputs = [b, s, max_output_boxes_per_class, iou_threshold, score_threshold]
    dim = Dim(out_dim)
    if not isinstance(dim, SymbolicDim):
        raise op_error("non_maximum_suppression", inputs, f"out_dim must name a new symbolic "
                                                          f"dim (a string), got {out_dim!r}")
    with b.graph:
        limit = cast(as_tensor_value(max_output_boxes_per_class, dtype=DType.int64), DType.int64)
        iou = cast(as_tensor_value(iou_threshold, dtype=b.dtype), b.dtype)
        floor = cast(as_tensor_value(score_threshold, dtype=b.dtype), b.dtype)
    out = TensorType(DType.int64, [dim, Dim(3)], b.device)
    return build("non_maximum_suppression", inputs, b.graph, lambda: _mo().NonMaxSuppressionOp(
        mlir_type(out), b._value, s._value, limit._value, iou._value, floor._value), verify=True)
