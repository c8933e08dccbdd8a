"""Ops made from dims (MAX's ``range``, ``shape_to_tensor``, ``rebind``) and
what builds on them (``band_part``, ``hann_window``), re-exported by
``mo.graph.ops`` (``range`` through its module ``__getattr__``, so that the
builtin stays what ``range`` means inside ``mo.graph.ops``).
"""

from __future__ import annotations

import builtins
import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from mo.dtype import DType
from mo.graph.dim import Dim
from mo.graph.graph import Graph, TensorValue, dim_attr, mlir_type
from mo.graph.ops import (
    _mo,
    as_tensor_value,
    build,
    cast,
    constant,
    greater_equal,
    less_equal,
    logical_and,
    logical_not,
    op_error,
    reshape,
    sub,
    where,
)
from mo.graph.type import DeviceRef, TensorType


def _is_int(v: Any) -> bool:
    if isinstance(v, numbers.Number):
        return isinstance(v, numbers.Integral)
    return v is None or getattr(v, "dtype", DType.float32).is_integral


def range(start: Any, stop: Any = None, step: Any = 1, out_dim: Any = None, *,  # noqa: A001
          dtype: DType | None = None, device: DeviceRef | None = None) -> TensorValue:
    """``start, start + step, ...`` below ``stop`` (MAX's ``range``, numpy's
    ``arange``). With Python numbers the length is computed (``out_dim``, if
    given, must agree when static); with tensor bounds (0-d) give
    ``out_dim``, the length: a symbolic name or an expression works, the
    values are made at run time. ``dtype`` defaults to int64 for integer
    bounds, else float32."""
    if stop is None:
        start, stop = 0, start
    inputs = [start, stop, step, out_dim]
    if dtype is None:
        dtype = DType.int64 if all(_is_int(v) for v in (start, stop, step)) else DType.float32
    if all(isinstance(v, numbers.Number) for v in (start, stop, step)):
        if step == 0:
            raise op_error("range", inputs, "step must not be 0")
        length = builtins.max(0, math.ceil((stop - start) / step))
        if out_dim is not None and Dim(out_dim).is_static and int(Dim(out_dim)) != length:
            raise op_error("range", inputs, f"out_dim {out_dim} differs from the length "
                                            f"{length} of [{start}, {stop}) step {step}")
        out_dim = length if out_dim is None else out_dim
    elif out_dim is None:
        raise op_error("range", inputs, "with tensor bounds the length is not known when the "
                                        "graph is built: give out_dim")
    return _range(start, step, Dim(out_dim), dtype, device or DeviceRef.CPU(), inputs)


def _range(start: Any, step: Any, length: Dim, dtype: DType, device: DeviceRef,
           inputs: list) -> TensorValue:
    graph = Graph.current()
    with graph:
        first = cast(as_tensor_value(start, dtype=dtype, device=device), dtype)
        stride = cast(as_tensor_value(step, dtype=dtype, device=device), dtype)
    for v in (first, stride):
        if v.rank != 0:
            raise op_error("range", inputs, f"start and step must be scalars, got shape {v.shape}")
    out = TensorType(dtype, [length], device)
    return build("range", inputs, graph, lambda: _mo().RangeOp(
        mlir_type(out), first._value, stride._value), verify=True)


def shape_to_tensor(shape: Iterable[Any]) -> TensorValue:
    """The sizes of ``shape``'s dims as a rank-1 int64 tensor; symbolic dims
    and expressions are their run-time sizes."""
    from mo._mlir import ir

    dims = [Dim(d) for d in shape]
    out = TensorType(DType.int64, [len(dims)], DeviceRef.CPU())
    return build("shape_to_tensor", [dims], Graph.current(), lambda: _mo().ShapeToTensorOp(
        mlir_type(out), ir.ArrayAttr.get([dim_attr(d) for d in dims])), verify=True)


def rebind(x: Any, shape: Iterable[Any], message: str = "", layout: Any = None) -> TensorValue:
    """``x`` known by the dims of ``shape`` from here on (MAX's ``rebind``):
    where they differ from ``x``'s, they are compared when the compiled graph
    is called, and a mismatch raises ``ValueError`` starting with
    ``message``. ``layout`` is accepted for MAX compatibility (mo filters
    have no layout tag)."""
    from mo._mlir import ir

    v = as_tensor_value(x)
    out = TensorType(v.dtype, [Dim(d) for d in shape], v.device)
    inputs = [v, list(shape)]
    if out.rank != v.rank:
        raise op_error("rebind", inputs, f"rebind keeps the rank ({v.rank}), got {out.rank} dims")
    return build("rebind", inputs, v.graph, lambda: _mo().RebindOp(
        mlir_type(out), v._value, message=ir.StringAttr.get(message)), verify=True)


def band_part(x: Any, num_lower: int | None = None, num_upper: int | None = None,
              exclude: bool = False) -> TensorValue:
    """``x`` with everything outside a band of its last two dims zeroed (MAX's
    ``band_part``, TensorFlow's ``matrix_band_part``): element ``[..., i, j]``
    is kept when ``i - j <= num_lower`` and ``j - i <= num_upper`` (``None``:
    no limit on that side); ``exclude`` keeps the complement instead."""
    v = as_tensor_value(x)
    inputs = [v, num_lower, num_upper]
    if v.rank < 2:
        raise op_error("band_part", inputs, f"band_part needs a rank >= 2 tensor, got rank "
                                            f"{v.rank}")
    for name, n in (("num_lower", num_lower), ("num_upper", num_upper)):
        if n is not None and (isinstance(n, bool) or not isinstance(n, numbers.Integral)
                              or n < 0):
            raise op_error("band_part", inputs, f"{name} must be None or an int >= 0, got {n!r}")
    rows, cols = v.shape[-2], v.shape[-1]
    with v.graph:
        i = reshape(_range(0, 1, rows, DType.int64, v.device, inputs), [rows, 1])
        j = reshape(_range(0, 1, cols, DType.int64, v.device, inputs), [1, cols])
        below = sub(i, j)  # i - j
        keep = None
        if num_lower is not None:
            keep = less_equal(below, num_lower)
        if num_upper is not None:
            upper = greater_equal(below, -num_upper)
            keep = upper if keep is None else logical_and(keep, upper)
        if keep is None:
            keep = greater_equal(below, below)  # every element
        if exclude:
            keep = logical_not(keep)
        zero = constant(np.zeros((), v.dtype.to_numpy()), v.dtype, v.device)
        return where(keep, v, zero)


def hann_window(window_length: int, device: DeviceRef | None = None, periodic: bool = True,
                dtype: DType = DType.float32) -> TensorValue:
    """The Hann window (torch's ``hann_window``): ``0.5 - 0.5 cos(2 pi n /
    N)`` with ``N = window_length`` when ``periodic``, else
    ``window_length - 1`` (a window of one is ``[1]``)."""
    if isinstance(window_length, bool) or not isinstance(window_length, numbers.Integral) \
            or window_length < 0:
        raise ValueError(f"hann_window: window_length must be an int >= 0, got "
                         f"{window_length!r}")
    n = np.arange(window_length, dtype=np.float64)
    span = window_length if periodic else window_length - 1
    values = np.ones(window_length) if window_length == 1 else \
        0.5 - 0.5 * np.cos(2 * np.pi * n / span)
    return constant(values.astype(dtype.to_numpy()), dtype, device)
