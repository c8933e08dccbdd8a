"""Convolution and pooling ops (MAX ``ops.conv``/``ops.pooling``), re-exported
by ``mo.graph.ops``.

Inputs are channels last (``NHWC``/``NDHWC``), filters ``RSCF``/``QRSCF``
(``[spatial..., C / groups, F]``), as in MAX; the channels-first layouts
(``NCHW``, ``FCRS``, ...) are accepted and become transposes around the op.
``padding`` is one int, one per spatial dim (both sides), or MAX's ``(low,
high)`` pair per spatial dim (``(top, bottom, left, right)``).
"""

from __future__ import annotations

import enum
import numbers
from collections.abc import Sequence
from typing import Any

from mo.graph.dim import Dim
from mo.graph.graph import TensorValue
from mo.graph.ops import (
    _i64,
    _mo,
    add,
    as_tensor_value,
    build,
    op_error,
    pad,
    permute,
    reshape,
    slice_tensor,
)


class ConvInputLayout(enum.Enum):
    """Layout of a convolution's input (MAX's ``ConvInputLayout``)."""

    NHWC = "NHWC"
    NCHW = "NCHW"
    NDHWC = "NDHWC"
    NCDHW = "NCDHW"


class FilterLayout(enum.Enum):
    """Layout of a convolution's filter (MAX's ``FilterLayout``)."""

    RSCF = "RSCF"
    FCRS = "FCRS"
    QRSCF = "QRSCF"
    FCQRS = "FCQRS"


def _ints(name: str, what: str, value: Any, count: int, minimum: int, inputs: list) -> list[int]:
    values = [value] * count if isinstance(value, numbers.Integral) else list(value)
    if len(values) != count or any(isinstance(v, bool) or not isinstance(v, numbers.Integral)
                                   or v < minimum for v in values):
        raise op_error(name, inputs, f"{what} must be an int or {count} ints >= {minimum}, got "
                                     f"{value!r}")
    return [int(v) for v in values]


def _paddings(name: str, padding: Any, spatial: int, inputs: list) -> list[int]:
    """``(low, high)`` per spatial dim from an int, one per dim, or the pairs."""
    if isinstance(padding, numbers.Integral):
        padding = [padding] * spatial
    padding = list(padding)
    if len(padding) == spatial:
        padding = [p for p in padding for _ in range(2)]
    return _ints(name, "padding", padding, 2 * spatial, 0, inputs)


def _layout(name: str, enum_type: type, value: Any, choices: dict, inputs: list) -> Any:
    try:
        layout = enum_type(value.value if isinstance(value, enum.Enum) else value)
    except ValueError:
        layout = None
    if layout not in choices:
        raise op_error(name, inputs, f"layout must be one of {[c.value for c in choices]}, got "
                                     f"{value!r}")
    return choices[layout]


def _window_attrs(strides: list[int], dilations: list[int], paddings: list[int]) -> dict:
    from mo._mlir import ir

    return {"strides": ir.DenseI64ArrayAttr.get(strides),
            "dilations": ir.DenseI64ArrayAttr.get(dilations),
            "paddings": ir.DenseI64ArrayAttr.get(paddings)}


def _check_rank(name: str, x: TensorValue, rank: int, what: str, inputs: list) -> None:
    if x.rank != rank:
        raise op_error(name, inputs, f"{what} must have rank {rank}, got rank {x.rank}")


def _conv(name: str, spatial: int, x: Any, filter: Any, stride: Any, dilation: Any,  # noqa: A002
          padding: Any, groups: int, bias: Any, input_layout: Any, filter_layout: Any,
          transpose: bool = False, output_paddings: Any = 0) -> TensorValue:
    from mo._mlir import ir

    x, w = as_tensor_value(x), as_tensor_value(filter)
    inputs = [x, w]
    channels_first = {2: ConvInputLayout.NCHW, 3: ConvInputLayout.NCDHW}[spatial]
    last = {2: ConvInputLayout.NHWC, 3: ConvInputLayout.NDHWC}[spatial]
    to_last = [0, *range(2, spatial + 2), 1]
    in_perm = _layout(name, ConvInputLayout, input_layout,
                      {last: None, channels_first: to_last}, inputs)
    rscf = {2: FilterLayout.RSCF, 3: FilterLayout.QRSCF}[spatial]
    fcrs = {2: FilterLayout.FCRS, 3: FilterLayout.FCQRS}[spatial]
    f_perm = _layout(name, FilterLayout, filter_layout,
                     {rscf: None, fcrs: [*range(2, spatial + 2), 1, 0]}, inputs)
    _check_rank(name, x, spatial + 2, "the input", inputs)
    _check_rank(name, w, spatial + 2, "the filter", inputs)
    if x.dtype != w.dtype:
        raise op_error(name, inputs, f"input and filter must have one dtype, got "
                                     f"{x.dtype.name} and {w.dtype.name}")
    if in_perm:
        x = permute(x, in_perm)
    if f_perm:
        w = permute(w, f_perm)
    window = (_ints(name, "stride", stride, spatial, 1, inputs),
              _ints(name, "dilation", dilation, spatial, 1, inputs),
              _paddings(name, padding, spatial, inputs))
    if transpose:
        extra = _ints(name, "output_paddings", output_paddings, spatial, 0, inputs)
        y = build(name, inputs, x.graph, lambda: _mo().ConvTransposeOp(
            x._value, w._value, **_window_attrs(*window),
            output_paddings=ir.DenseI64ArrayAttr.get(extra)), verify=True)
    else:
        (g,) = _ints(name, "groups", [groups], 1, 1, inputs)
        y = build(name, inputs, x.graph, lambda: _mo().ConvOp(
            x._value, w._value, **_window_attrs(*window),
            num_groups=_i64(g)), verify=True)
    if bias is not None:
        y = add(y, bias)
    if in_perm:
        y = permute(y, [0, spatial + 1, *range(1, spatial + 1)])
    return y


def conv2d(x: Any, filter: Any, stride: Any = (1, 1), dilation: Any = (1, 1),  # noqa: A002
           padding: Any = (0, 0, 0, 0), groups: int = 1, bias: Any = None,
           input_layout: Any = ConvInputLayout.NHWC,
           filter_layout: Any = FilterLayout.RSCF) -> TensorValue:
    """2-D convolution (MAX's ``conv2d``): ``x`` is ``[N, H, W, C]``, ``filter``
    ``[R, S, C / groups, F]``, the result ``[N, H', W', F]`` with ``H' = (H +
    pad_top + pad_bottom - dilation * (R - 1) - 1) // stride + 1``; ``bias``
    (``[F]``) is added. Depthwise convolution is ``groups = C``."""
    return _conv("conv2d", 2, x, filter, stride, dilation, padding, groups, bias,
                 input_layout, filter_layout)


def conv3d(x: Any, filter: Any, stride: Any = (1, 1, 1), dilation: Any = (1, 1, 1),  # noqa: A002
           padding: Any = (0, 0, 0, 0, 0, 0), groups: int = 1, bias: Any = None,
           input_layout: Any = ConvInputLayout.NDHWC,
           filter_layout: Any = FilterLayout.QRSCF) -> TensorValue:
    """3-D convolution (MAX's ``conv3d``): ``x`` is ``[N, D, H, W, C]``,
    ``filter`` ``[Q, R, S, C / groups, F]``, ``padding`` six ints ``(front,
    back, top, bottom, left, right)``."""
    return _conv("conv3d", 3, x, filter, stride, dilation, padding, groups, bias,
                 input_layout, filter_layout)


def conv2d_transpose(x: Any, filter: Any, stride: Any = (1, 1),  # noqa: A002
                     dilation: Any = (1, 1), padding: Any = (0, 0, 0, 0),
                     output_paddings: Any = (0, 0), bias: Any = None,
                     input_layout: Any = ConvInputLayout.NHWC,
                     filter_layout: Any = FilterLayout.RSCF) -> TensorValue:
    """Transposed 2-D convolution (MAX's ``conv2d_transpose``, the gradient of
    ``conv2d`` with respect to its input): ``x`` is ``[N, H, W, C]``,
    ``filter`` ``[R, S, F, C]`` (``FCRS``: ``[C, F, R, S]``, torch's
    ``ConvTranspose2d`` weight), the result ``[N, H', W', F]`` with ``H' = (H -
    1) * stride - pad_top - pad_bottom + dilation * (R - 1) + output_padding +
    1``."""
    return _conv("conv2d_transpose", 2, x, filter, stride, dilation, padding, 1, bias,
                 input_layout, filter_layout, transpose=True, output_paddings=output_paddings)


def _pool(name: str, op: str, input: Any, kernel_size: Any, stride: Any,  # noqa: A002
          dilation: Any, padding: Any, ceil_mode: bool, **extra: Any) -> TensorValue:
    from mo._mlir import ir

    x = as_tensor_value(input)
    inputs = [x]
    _check_rank(name, x, 4, "the input ([N, H, W, C])", inputs)
    if not x.dtype.is_float:
        raise op_error(name, inputs, f"{name} is defined on floating-point tensors, got "
                                     f"{x.dtype.name} (cast it first)")
    kernel = _ints(name, "kernel_size", kernel_size, 2, 1, inputs)
    window = (_ints(name, "stride", stride, 2, 1, inputs),
              _ints(name, "dilation", dilation, 2, 1, inputs),
              _paddings(name, padding, 2, inputs))
    flags = {"ceil_mode": bool(ceil_mode), **extra}
    return build(name, inputs, x.graph, lambda: getattr(_mo(), op)(
        x._value, ir.DenseI64ArrayAttr.get(kernel), **_window_attrs(*window),
        **{k: ir.BoolAttr.get(bool(v)) for k, v in flags.items()}))


def max_pool2d(input: Any, kernel_size: Any, stride: Any = 1, dilation: Any = 1,  # noqa: A002
               padding: Any = 0, ceil_mode: bool = False) -> TensorValue:
    """2-D max pooling over ``[N, H, W, C]`` (MAX's ``max_pool2d``); padding
    never wins, NaN propagates. ``ceil_mode`` keeps the last partial window
    (torch's rule; needs static H and W)."""
    return _pool("max_pool2d", "MaxPoolOp", input, kernel_size, stride, dilation, padding,
                 ceil_mode)


def avg_pool2d(input: Any, kernel_size: Any, stride: Any = 1, dilation: Any = 1,  # noqa: A002
               padding: Any = 0, ceil_mode: bool = False,
               count_boundary: bool = True) -> TensorValue:
    """2-D average pooling over ``[N, H, W, C]`` (MAX's ``avg_pool2d``).
    ``count_boundary`` (torch's ``count_include_pad``) counts the padding in
    the divisor."""
    return _pool("avg_pool2d", "AvgPoolOp", input, kernel_size, stride, dilation, padding,
                 ceil_mode, count_boundary=count_boundary)


def fold(input: Any, output_size: Sequence[int], kernel_size: Any, stride: Any = 1,  # noqa: A002
         dilation: Any = 1, padding: Any = 0) -> TensorValue:
    """Sums sliding blocks back into an image (MAX's ``fold``, torch's
    ``nn.functional.fold``, the inverse layout of ``unfold``): ``input`` is
    ``[N, C * kh * kw, L]`` with one column per block, the result ``[N, C,
    H, W]``; overlapping blocks add. ``padding`` is one int or one per dim
    (both sides). Sizes other than N must be static."""
    x = as_tensor_value(input)
    inputs = [x, output_size, kernel_size]
    _check_rank("fold", x, 3, "the input ([N, C * kh * kw, L])", inputs)
    h, w = _ints("fold", "output_size", output_size, 2, 1, inputs)
    kh, kw = _ints("fold", "kernel_size", kernel_size, 2, 1, inputs)
    sh, sw = _ints("fold", "stride", stride, 2, 1, inputs)
    dh, dw = _ints("fold", "dilation", dilation, 2, 1, inputs)
    ph, pw = _ints("fold", "padding", padding, 2, 0, inputs)
    bh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    bw = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    n, ck, length = x.shape
    if bh < 1 or bw < 1:
        raise op_error("fold", inputs, "the kernel does not fit in the padded output")
    if not (ck.is_static and length.is_static) or int(ck) % (kh * kw) or int(length) != bh * bw:
        raise op_error("fold", inputs, f"input must be [N, C * {kh * kw}, {bh * bw}] (static), "
                                       f"got {x.shape}")
    c = int(ck) // (kh * kw)
    blocks = reshape(x, [n, c, kh, kw, bh, bw])
    hp, wp = h + 2 * ph, w + 2 * pw
    total = None
    for i in range(kh):
        for j in range(kw):
            piece = reshape(slice_tensor(blocks, (slice(None), slice(None), i, j)),
                            [n, c, bh, 1, bw, 1])
            # Spread by the stride, then shift to the tap's offset.
            piece = reshape(pad(piece, [0, 0, 0, 0, 0, 0, 0, sh - 1, 0, 0, 0, sw - 1]),
                            [n, c, Dim(bh * sh), Dim(bw * sw)])
            top, left = i * dh, j * dw
            rows, cols = min(bh * sh, hp - top), min(bw * sw, wp - left)
            piece = slice_tensor(piece, (slice(None), slice(None), slice(0, rows),
                                         slice(0, cols)))
            piece = pad(piece, [0, 0, 0, 0, top, hp - top - rows, left, wp - left - cols])
            total = piece if total is None else add(total, piece)
    return slice_tensor(total, (slice(None), slice(None), slice(ph, ph + h), slice(pw, pw + w)))
