"""Graph ops (MAX ``max.graph.ops``) on ``TensorValue``s.

Every op builds one ``mo`` op in the current graph. Binary ops take tensors
or Python scalars, broadcast like numpy and promote dtypes by MAX's rule
(``mo.dtype.promote``); unsafe promotions raise. Verifier errors become
``ValueError``s naming the op, its inputs, the layer path and the user's
``file:line``.

Example:
    >>> from mo.dtype import DType
    >>> from mo.graph import Graph, TensorType, DeviceRef, ops
    >>> t = TensorType(DType.float32, ["n", 4], DeviceRef.CPU())
    >>> with Graph("f", input_types=[t]) as g:
    ...     y = ops.relu(g.inputs[0] * 2.0)
    ...     g.output(y)
    >>> y.shape
    [Dim('n'), Dim(4)]
"""

from __future__ import annotations

import builtins
import math
import numbers
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from mo import _context, _opdefs
from mo.dtype import DType, promote, promote_scalar, to_bfloat16_bits
from mo.graph.dim import AlgebraicDim, Dim, Shape, StaticDim
from mo.graph.graph import (
    BufferValue,
    Graph,
    TensorValue,
    Value,
    current_layer,
    mlir_type,
    wrap,
)
from mo.graph.type import BufferType, DeviceRef, TensorType

# -- building ---------------------------------------------------------------------


def location():
    """The MLIR location of the op being built: user file:line, layer path."""
    from mo._mlir import ir

    filename, line = _context.user_frame()
    ctx = _context.context()
    loc = ir.Location.file(filename, line, 0, context=ctx)
    path = current_layer()
    return ir.Location.name(path, childLoc=loc, context=ctx) if path else loc


def _describe_inputs(inputs: Sequence[Any]) -> str:
    parts = []
    for v in inputs:
        if isinstance(v, Value):
            parts.append(f"{v.dtype.name}{v.shape} on {v.device}")
        else:
            parts.append(repr(v))
    return "(" + ", ".join(parts) + ")"


def op_error(name: str, inputs: Sequence[Any], message: str) -> ValueError:
    """A ``ValueError`` for a failed op: op, inputs, layer path, source line."""
    filename, line = _context.user_frame()
    where = f"{filename}:{line}"
    path = current_layer()
    layer_note = f" in layer '{path}'" if path else ""
    return ValueError(f"{name}{layer_note} at {where}: {message}\n"
                      f"  inputs: {_describe_inputs(inputs)}")


def _clean(err: Exception) -> str:
    text = str(err)
    lines = [ln.strip() for ln in text.splitlines()]
    msgs = [ln.split("error: ", 1)[1] for ln in lines if "error: " in ln]
    return "; ".join(msgs) if msgs else text


def build(name: str, inputs: Sequence[Any], graph: Graph, create: Callable[[], Any],
          verify: bool = False) -> Any:
    """Runs ``create`` (which builds mo ops) at the end of ``graph``.

    Returns the created op's results wrapped as values (one value, or a list).
    """
    from mo._mlir import ir

    with _context.context(), location(), graph.insertion_point():
        try:
            op = create()
            if verify:
                op.verify()
        except ir.MLIRError as e:
            if "op" in locals():  # built but invalid: leave no trace
                op.operation.erase()
            raise op_error(name, inputs, _clean(e)) from None
    results = [wrap(r, graph) for r in op.results]
    if not results:
        return None
    return results[0] if len(results) == 1 else results


def _graph_of(*values: Any) -> Graph:
    graphs = {id(v.graph): v.graph for v in values if isinstance(v, Value)}
    if len(graphs) > 1:
        names = sorted(g.name for g in graphs.values())
        raise ValueError(f"values from different graphs ({', '.join(names)}) cannot be combined")
    return next(iter(graphs.values())) if graphs else Graph.current()


def _mo():
    from mo._mlir.dialects import mo as mo_d

    return mo_d


def _i64(value: int):
    """An i64 IntegerAttr (axes, counts, sizes of ops' attributes)."""
    from mo._mlir import ir

    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)


# -- constants ----------------------------------------------------------------------


def constant(value: Any, dtype: DType | None = None,
             device: DeviceRef | None = None) -> TensorValue:
    """A tensor constant baked into the graph (numpy array, scalar or list).

    Example:
        >>> from mo.graph import Graph
        >>> with Graph("c") as g:
        ...     c = constant([1.0, 2.0], DType.float32)
        >>> c.shape
        [Dim(2)]
    """
    from mo._mlir import ir

    array = np.asarray(value)
    if dtype is None:
        dtype = DType.from_numpy(array.dtype)
    device = device or DeviceRef.CPU()
    if dtype is DType.bfloat16:  # the raw bits, rounded to nearest even
        array = np.ascontiguousarray(to_bfloat16_bits(array))
    else:
        # np.array, not np.ascontiguousarray: the latter makes 0-d arrays 1-d.
        array = np.array(array, dtype=dtype.to_numpy(), order="C")
    graph = Graph.current()
    ttype = TensorType(dtype, list(array.shape), device)

    def create():
        elt = _context.mlir_type(dtype.mlir)
        if dtype is DType.bfloat16:
            attr = ir.DenseElementsAttr.get(array, type=elt)
        else:
            attr = ir.DenseElementsAttr.get(array, signless=(dtype is DType.bool))
        return _mo().ConstantOp(mlir_type(ttype), attr)

    return build("constant", [array], graph, create)


def constant_external(name: str, type: TensorType, is_placeholder: bool = False) -> TensorValue:
    """A named weight, bound when the graph is compiled (``weights={name: array}``).

    With ``is_placeholder=True`` the name is relative: a ``mo.call`` with
    ``prefix="layers.0."`` resolves ``"w"`` to ``"layers.0.w"``.
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"constant_external: name must be a non-empty string, got {name!r}")
    if isinstance(type, BufferType):
        raise TypeError("constant_external: a constant cannot be a buffer, so it needs a "
                        "TensorType/TensorLayout, not a BufferType/BufferLayout")
    if not isinstance(type, TensorType):
        raise TypeError("constant_external: expected a TensorLayout or TensorType, got "
                        f"{type.__class__.__name__}")
    graph = Graph.current()
    from mo import _capture

    capture = _capture.current()
    if is_placeholder and capture is not None and capture.prefix:
        name = capture.prefix + name  # inside an inlined as_subgraph call
    return build("constant_external", [name], graph,
                 lambda: _mo().ConstantExternalOp(mlir_type(type), name,
                                                  isPlaceholder=bool(is_placeholder)))


# -- conversions -------------------------------------------------------------------


def as_tensor_value(x: Any, graph: Graph | None = None, dtype: DType | None = None,
                    device: DeviceRef | None = None) -> TensorValue:
    """A TensorValue for ``x``: values pass through, Buffers load, scalars and arrays
    become constants (of ``dtype`` if given)."""
    if isinstance(x, TensorValue):
        return x
    if isinstance(x, BufferValue):
        return buffer_load(x)
    unwrap = getattr(x, "_graph_value", None)
    if unwrap is not None:
        return unwrap()
    if isinstance(x, (numbers.Number, np.ndarray, np.generic, list, tuple)):
        return constant(x, dtype, device)
    raise TypeError(f"expected a tensor value or a number, got {type(x).__name__}")


def _binary_operands(name: str, a: Any, b: Any) -> tuple[TensorValue, TensorValue]:
    a_is, b_is = _is_tensorish(a), _is_tensorish(b)
    if not a_is and not b_is:
        raise TypeError(f"{name}: at least one operand must be a tensor value")
    graph = _graph_of(*(v for v in (a, b) if isinstance(v, Value)))
    with graph:
        if a_is and b_is:
            a, b = as_tensor_value(a), as_tensor_value(b)
            try:
                dtype = promote(a.dtype, b.dtype)
            except TypeError as e:
                raise op_error(name, [a, b], str(e)) from None
            return cast(a, dtype), cast(b, dtype)
        tensor, scalar = (as_tensor_value(a), b) if a_is else (as_tensor_value(b), a)
        try:
            dtype = promote_scalar(tensor.dtype, scalar)
        except TypeError as e:
            raise op_error(name, [a, b], str(e)) from None
        other = constant(scalar, dtype, tensor.device)
        return (tensor, other) if a_is else (other, tensor)


def _is_tensorish(x: Any) -> bool:
    # numpy arrays are tensors (embedded as constants), numpy scalars are scalars.
    return isinstance(x, (Value, np.ndarray)) or hasattr(x, "_graph_value")


def cast(x: TensorValue, dtype: DType) -> TensorValue:
    """Converts elements to ``dtype`` (numpy ``astype`` semantics)."""
    x = as_tensor_value(x)
    if not isinstance(dtype, DType):
        raise TypeError(f"cast: expected a DType, got {type(dtype).__name__}")
    if x.dtype is dtype:
        return x
    out = TensorType(dtype, x.shape, x.device)
    return build("cast", [x], x.graph,
                 lambda: _mo().CastOp(mlir_type(out), x._value))


# -- elementwise families (the registry's rows) ------------------------------------

# name -> op class, and the ops whose operand dtypes the registry restricts.
_BINARY = {o.name: o.cls for o in _opdefs.family("binary")}
_UNARY = {o.name: o.cls for o in _opdefs.family("unary")}


def _check_kind(opdef: _opdefs.OpDef, inputs: list, dtype: DType) -> None:
    """The registry's element kinds, checked before building (the verifier
    checks the same rule, with the same kinds text)."""
    if not opdef.accepts(dtype):
        name = opdef.python_name
        raise op_error(name, inputs, f"{name} is defined on {opdef.kinds_text} tensors, got "
                                     f"{dtype.name} (cast it first)")


def _make_binary(opdef: _opdefs.OpDef) -> Callable[[Any, Any], TensorValue]:
    name = opdef.name

    def fn(lhs: Any, rhs: Any) -> TensorValue:
        a, b = _binary_operands(name, lhs, rhs)
        _check_kind(opdef, [a, b], a.dtype)
        return build(name, [a, b], a.graph,
                     lambda: getattr(_mo(), opdef.cls)(a._value, b._value))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"{opdef.summary[0].upper()}{opdef.summary[1:]} and MAX dtype promotion "
                  f"(``numpy.{opdef.reference}``); defined on {opdef.kinds_text} tensors.")
    return fn


def _make_unary(opdef: _opdefs.OpDef) -> Callable[[Any], TensorValue]:
    name = opdef.name

    def fn(x: Any) -> TensorValue:
        x = as_tensor_value(x)
        _check_kind(opdef, [x], x.dtype)
        return build(name, [x], x.graph, lambda: getattr(_mo(), opdef.cls)(x._value))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"{opdef.summary[0].upper()}{opdef.summary[1:]}; defined on "
                  f"{opdef.kinds_text} tensors.")
    return fn


for _def in _opdefs.family("binary"):
    globals()[_def.name] = _make_binary(_def)
for _def in _opdefs.family("unary"):
    globals()[_def.name] = _make_unary(_def)
del _def


# -- reductions (the registry's rows) ---------------------------------------------

_REDUCE = {o.python_name: o.cls for o in _opdefs.family("reduce")}


def _axis(name: str, x: TensorValue, axis: Any, inputs: list) -> int:
    """``axis`` as a non-negative int (negative counts from the end)."""
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"{name}: axis must be an int, got {type(axis).__name__}")
    if not -x.rank <= axis < x.rank:
        raise op_error(name, inputs, f"axis {axis} is out of range for a rank-{x.rank} tensor")
    return int(axis) % x.rank


def _make_reduce(opdef: _opdefs.OpDef) -> Callable[..., TensorValue]:
    name = opdef.python_name

    def fn(x: Any, axis: int = -1) -> TensorValue:
        x = as_tensor_value(x)
        _check_kind(opdef, [x], x.dtype)
        axis = _axis(name, x, axis, [x, axis])
        return build(name, [x, axis], x.graph,
                     lambda: getattr(_mo(), opdef.cls)(x._value, axis))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"The {opdef.summary.split(' along')[0].removeprefix('The ')} of ``x`` along "
                  f"``axis``, which stays with size 1 (``numpy.{opdef.reference}`` with "
                  f"``keepdims=True``); defined on {opdef.kinds_text} tensors.")
    return fn


_reductions = {o.python_name: _make_reduce(o) for o in _opdefs.family("reduce")}
_elementwise_max, _elementwise_min = globals()["max"], globals()["min"]
globals().update({k: v for k, v in _reductions.items() if k not in ("max", "min")})


def _overload(name: str, elementwise: Callable, reduction: Callable) -> Callable[..., TensorValue]:
    def fn(x: Any, y: Any = None, /, axis: int | None = None) -> TensorValue:
        if y is not None:
            if axis is not None:
                raise TypeError(f"{name}: pass either a second tensor (elementwise) or an axis "
                                "(reduction), not both")
            return elementwise(x, y)
        return reduction(x, -1 if axis is None else axis)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"MAX's overload: ``{name}(x, y)`` is the elementwise {name}imum with "
                  f"broadcasting, ``{name}(x, axis=a)`` the reduction along ``a`` (default -1, "
                  "kept with size 1).")
    return fn


def where(condition: Any, x: Any, y: Any) -> TensorValue:
    """``x`` where ``condition`` holds, else ``y`` (numpy's ``where``): the three
    broadcast together; ``x`` and ``y`` promote like a binary op (scalars
    adopt the tensor's dtype)."""
    a, b = _binary_operands("where", x, y)
    with a.graph:
        c = as_tensor_value(condition)
    if c.dtype is not DType.bool:
        raise op_error("where", [c, a, b], f"condition must be a bool tensor, got "
                                           f"{c.dtype.name} (compare it first)")
    return build("where", [c, a, b], a.graph,
                 lambda: _mo().SelectOp(c._value, a._value, b._value))


select = where  # MAX's other name


def clamp(x: Any, min: Any = None, max: Any = None) -> TensorValue:  # noqa: A002 (MAX's names)
    """``x`` limited to ``[min, max]`` (either may be None), as ``minimum(maximum(x,
    min), max)``; NaN propagates."""
    x = as_tensor_value(x)
    if min is not None:
        x = _elementwise_max(x, min)
    if max is not None:
        x = _elementwise_min(x, max)
    return x


clip = clamp


# -- normalisation (compositions of the registry's ops) ------------------------------
#
# Each is built from reductions and elementwise ops, which the lowering fuses
# into row loops; f16/bf16 inputs are computed in f32 and rounded once.


def _float_input(name: str, x: Any, inputs: list | None = None) -> tuple[TensorValue, DType]:
    x = as_tensor_value(x)
    if not x.dtype.is_float:
        raise op_error(name, inputs or [x], f"{name} is defined on floating-point tensors, got "
                                            f"{x.dtype.name} (cast it first)")
    wide = DType.float32 if x.dtype in (DType.float16, DType.bfloat16) else x.dtype
    return cast(x, wide), x.dtype


def softmax(value: Any, axis: int = -1) -> TensorValue:
    """``exp(x - max) / sum(exp(x - max))`` along ``axis`` (max-subtracted, so
    large inputs do not overflow; a row of -inf gives NaN, as numpy)."""
    x, dtype = _float_input("softmax", value)
    e = exp(sub(x, _reductions["max"](x, axis)))
    # One division per row, then products (a division per element costs
    # what the rest of the row does); within 2 ulp of e / sum.
    return cast(mul(e, div(1.0, _reductions["sum"](e, axis))), dtype)


def logsoftmax(value: Any, axis: int = -1) -> TensorValue:
    """``x - max - log(sum(exp(x - max)))`` along ``axis``."""
    x, dtype = _float_input("logsoftmax", value)
    shifted = sub(x, _reductions["max"](x, axis))
    return cast(sub(shifted, log(_reductions["sum"](exp(shifted), axis))), dtype)


def _normalized(x: TensorValue, axis: int, epsilon: float) -> TensorValue:
    """``(x - mean) / sqrt(var + epsilon)`` along ``axis``, the variance from the
    centred values (two passes: no cancellation)."""
    centred = sub(x, _reductions["mean"](x, axis))
    var = _reductions["mean"](mul(centred, centred), axis)
    return mul(centred, rsqrt(add(var, float(epsilon))))


def layer_norm(input: Any, gamma: Any, beta: Any, epsilon: float) -> TensorValue:  # noqa: A002
    """Layer normalization over the last dim: ``normalized(x) * gamma + beta``."""
    x, dtype = _float_input("layer_norm", input)
    out = add(mul(_normalized(x, -1, epsilon), cast(as_tensor_value(gamma), x.dtype)),
              cast(as_tensor_value(beta), x.dtype))
    return cast(out, dtype)


def rms_norm(input: Any, weight: Any, epsilon: float, weight_offset: float = 0.0,  # noqa: A002
             multiply_before_cast: bool = False) -> TensorValue:
    """``x / sqrt(mean(x^2) + epsilon) * (weight + weight_offset)`` over the last dim
    (MAX's ``rms_norm``): with ``multiply_before_cast`` the weight multiplies in
    float32 before the result is cast back, else after."""
    x, dtype = _float_input("rms_norm", input)
    normed = mul(x, rsqrt(add(_reductions["mean"](mul(x, x), -1), float(epsilon))))
    w = as_tensor_value(weight)
    if multiply_before_cast:
        w = add(cast(w, x.dtype), float(weight_offset))
        return cast(mul(normed, w), dtype)
    w = add(cast(w, dtype), float(weight_offset))
    return mul(cast(normed, dtype), w)


def group_norm(input: Any, gamma: Any, beta: Any, num_groups: int,  # noqa: A002
               epsilon: float) -> TensorValue:
    """Group normalization over the channel axis (1) of ``input`` ``[N, C, ...]``:
    the channels split into ``num_groups`` groups normalized together with the
    other dims, then ``* gamma[c] + beta[c]``."""
    x, dtype = _float_input("group_norm", input)
    inputs = [x, gamma, beta, num_groups]
    if x.rank < 2:
        raise op_error("group_norm", inputs, f"input must have rank >= 2 ([N, C, ...]), "
                                             f"got rank {x.rank}")
    channels = x.shape[1]
    if not isinstance(num_groups, numbers.Integral) or num_groups < 1 or not (
            isinstance(channels, StaticDim) and channels.value % int(num_groups) == 0):
        raise op_error("group_norm", inputs, f"num_groups must be a positive int dividing "
                                             f"the {channels} channels, got {num_groups!r}")
    shape = list(x.shape)
    rest = _product(shape[2:])
    grouped = reshape(x, [shape[0], int(num_groups), Dim(channels.value // int(num_groups)) * rest])
    normed = reshape(_normalized(grouped, -1, epsilon), shape)
    per_channel = [channels] + [1] * (x.rank - 2)
    g = reshape(cast(as_tensor_value(gamma), x.dtype), per_channel)
    b = reshape(cast(as_tensor_value(beta), x.dtype), per_channel)
    return cast(add(mul(normed, g), b), dtype)


# -- joining, splitting and dims of size 1 --------------------------------------------


def _tensor_list(name: str, values: Sequence[Any]) -> tuple[Graph, list[TensorValue]]:
    """A non-empty list of tensors (numbers and arrays become constants) and their graph."""
    values = list(values)
    if not values:
        raise ValueError(f"{name}: expected at least one tensor")
    graph = _graph_of(*(v for v in values if isinstance(v, Value)))
    with graph:
        return graph, [as_tensor_value(v) for v in values]


def concat(values: Sequence[Any], axis: int = 0) -> TensorValue:
    """Joins tensors along ``axis`` (MAX's ``concat``); dtypes promote like a
    binary op's, every other dim must agree. The result's dim is the sum
    (a dim expression when symbolic)."""
    graph, tensors = _tensor_list("concat", values)
    dtype = tensors[0].dtype
    try:
        for t in tensors[1:]:
            dtype = promote(dtype, t.dtype)
    except TypeError as e:
        raise op_error("concat", tensors, str(e)) from None
    axis = _axis("concat", tensors[0], axis, tensors)
    tensors = [cast(t, dtype) for t in tensors]
    return build("concat", tensors, graph, lambda: _mo().ConcatOp(
        [t._value for t in tensors], _i64(axis)))


def _new_axis(name: str, rank: int, axis: Any, inputs: list) -> int:
    """A new dim's position in a rank-``rank`` tensor, as a non-negative int
    (``-1`` appends)."""
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral) or \
            not -rank - 1 <= axis <= rank:
        raise op_error(name, inputs, f"axis must be an int in [{-rank - 1}, {rank}], got "
                                     f"{axis!r}")
    return int(axis) % (rank + 1)


def unsqueeze(x: Any, axis: int) -> TensorValue:
    """``x`` with a new dim of size 1 at ``axis`` (``-1`` appends)."""
    x = as_tensor_value(x)
    axis = _new_axis("unsqueeze", x.rank, axis, [x, axis])
    shape = list(x.shape)
    return reshape(x, shape[:axis] + [1] + shape[axis:])


def squeeze(x: Any, axis: int) -> TensorValue:
    """``x`` without its size-1 dim ``axis``."""
    x = as_tensor_value(x)
    axis = _axis("squeeze", x, axis, [x, axis])
    shape = list(x.shape)
    if shape[axis] != Dim(1):
        raise op_error("squeeze", [x, axis], f"dim {axis} has size {shape[axis]}, not 1")
    return reshape(x, shape[:axis] + shape[axis + 1:])


def flatten(x: Any, start_dim: int = 0, end_dim: int = -1) -> TensorValue:
    """``x`` with dims ``start_dim..end_dim`` (inclusive) merged into one."""
    x = as_tensor_value(x)
    if x.rank == 0:
        return reshape(x, [1])
    start = _axis("flatten", x, start_dim, [x, start_dim, end_dim])
    end = _axis("flatten", x, end_dim, [x, start_dim, end_dim])
    if start > end:
        raise op_error("flatten", [x, start_dim, end_dim], "start_dim comes after end_dim")
    shape = list(x.shape)
    return reshape(x, shape[:start] + [_product(shape[start:end + 1])] + shape[end + 1:])


def stack(values: Sequence[Any], axis: int = 0) -> TensorValue:
    """Tensors of one shape stacked along a new dim ``axis``."""
    _, tensors = _tensor_list("stack", values)
    axis = _new_axis("stack", tensors[0].rank, axis, tensors)
    return concat([unsqueeze(t, axis) for t in tensors], axis)


def split(x: Any, split_sizes: Sequence[int], axis: int = 0) -> list[TensorValue]:
    """``x`` cut along ``axis`` into pieces of ``split_sizes`` (which must add up
    to the dim, a static one)."""
    x = as_tensor_value(x)
    inputs = [x, list(split_sizes), axis]
    axis = _axis("split", x, axis, inputs)
    dim = x.shape[axis]
    sizes = [int(s) for s in split_sizes]
    if not isinstance(dim, StaticDim) or any(s < 0 for s in sizes) or \
            builtins.sum(sizes) != dim.value:
        raise op_error("split", inputs, f"split sizes {sizes} must be non-negative and add up "
                                        f"to dim {axis} ({dim}, a static size)")
    pieces, start = [], 0
    for size in sizes:
        index = [slice(None)] * axis + [slice(start, start + size)]
        pieces.append(slice_tensor(x, tuple(index)))
        start += size
    return pieces


def chunk(x: Any, chunks: int, axis: int = 0) -> list[TensorValue]:
    """``x`` cut along ``axis`` into ``chunks`` pieces of ``ceil(dim / chunks)``
    (the last smaller, fewer pieces if the dim runs out; torch's ``chunk``)."""
    x = as_tensor_value(x)
    axis = _axis("chunk", x, axis, [x, chunks, axis])
    dim = x.shape[axis]
    if isinstance(chunks, bool) or not isinstance(chunks, numbers.Integral) or chunks < 1 or \
            not isinstance(dim, StaticDim):
        raise op_error("chunk", [x, chunks, axis], f"chunks must be a positive int and dim "
                                                   f"{axis} static, got {chunks!r} and {dim}")
    step = -(-dim.value // int(chunks))
    sizes = [builtins.min(step, dim.value - i) for i in range(0, dim.value, step)] if step else [0]
    return split(x, sizes, axis)


def outer(lhs: Any, rhs: Any) -> TensorValue:
    """The outer product of two vectors: ``[m] x [n] -> [m, n]``."""
    a, b = _binary_operands("outer", lhs, rhs)
    if a.rank != 1 or b.rank != 1:
        raise op_error("outer", [a, b], f"outer takes two vectors, got ranks {a.rank} and "
                                        f"{b.rank}")
    return mul(unsqueeze(a, 1), unsqueeze(b, 0))


def pad(input: Any, paddings: Iterable[int], mode: str = "constant",  # noqa: A002
        value: Any = 0) -> TensorValue:
    """``input`` padded along every dim (MAX's ``pad``): ``paddings`` is
    ``[low_0, high_0, low_1, high_1, ...]``. ``mode="constant"`` fills with
    ``value``; ``"reflect"`` mirrors the elements next to the edge (the edge
    itself excluded: numpy's and torch's ``reflect``, paddings smaller than
    the dim); ``"edge"`` repeats the edge element (numpy's ``edge``, torch's
    ``replicate``)."""
    from mo._mlir import ir

    x = as_tensor_value(input)
    flat = [int(p) for p in paddings]
    inputs = [x, flat]
    if mode not in ("constant", "reflect", "edge"):
        raise op_error("pad", inputs, f"mode must be 'constant', 'reflect' or 'edge', got "
                                      f"{mode!r}")
    if len(flat) != 2 * x.rank:
        raise op_error("pad", inputs, f"paddings needs 2 entries per dim ({2 * x.rank}), got "
                                      f"{len(flat)}")
    if mode != "constant":
        if builtins.min(flat, default=0) < 0:
            raise op_error("pad", inputs, f"paddings must be >= 0, got {flat}")
        # Per dim, the rows before and after are gathers of rows near the edge.
        for axis, (lo, hi) in enumerate(zip(flat[0::2], flat[1::2])):
            if lo == hi == 0:
                continue
            size = x.shape[axis]
            if mode == "reflect" and size.is_static and builtins.max(lo, hi) >= int(size):
                raise op_error("pad", inputs, f"reflect padding ({lo}, {hi}) of dim {axis} must "
                                              f"be smaller than its size {int(size)}")
            before = list(range(lo, 0, -1)) if mode == "reflect" else [0] * lo
            after = list(range(-2, -hi - 2, -1)) if mode == "reflect" else [-1] * hi
            parts = [gather(x, before, axis)] if lo else []
            parts.append(x)
            if hi:
                parts.append(gather(x, after, axis))
            x = concat(parts, axis)
        return x
    with x.graph:
        fill = cast(as_tensor_value(value), x.dtype) if _is_tensorish(value) else \
            constant(np.array(value, x.dtype.to_numpy()), x.dtype, x.device)
    return build("pad", inputs, x.graph, lambda: _mo().PadOp(
        x._value, fill._value, ir.DenseI64ArrayAttr.get(flat[0::2]),
        ir.DenseI64ArrayAttr.get(flat[1::2])))


def _repeats(name: str, reps: Any, count: int, inputs: list) -> list[int]:
    reps = [reps] * count if isinstance(reps, numbers.Integral) else list(reps)
    if len(reps) != count or any(isinstance(r, bool) or not isinstance(r, numbers.Integral)
                                 or r < 0 for r in reps):
        raise op_error(name, inputs, f"expected {count} non-negative int repeats, got {reps!r}")
    return [int(r) for r in reps]


def tile(x: Any, repeats: Sequence[int]) -> TensorValue:
    """``x`` repeated ``repeats[i]`` times along dim ``i`` (numpy's ``tile`` with
    one repeat per dim): a broadcast of ``x`` with a size-1 dim before each of
    its dims, merged back."""
    x = as_tensor_value(x)
    reps = _repeats("tile", repeats, x.rank, [x, repeats])
    shape = list(x.shape)
    spread = [d for dim in shape for d in (Dim(1), dim)]
    wide = [d for r, dim in zip(reps, shape) for d in (Dim(r), dim)]
    out = broadcast_to(reshape(x, spread), wide)
    return reshape(out, [Dim(r) * dim for r, dim in zip(reps, shape)])


def repeat_interleave(x: Any, repeats: int, axis: int = 0) -> TensorValue:
    """Each element of ``x`` repeated ``repeats`` times along ``axis``
    (``numpy.repeat`` with one count): a broadcast over a size-1 dim after
    ``axis``, merged back."""
    x = as_tensor_value(x)
    axis = _axis("repeat_interleave", x, axis, [x, repeats, axis])
    (r,) = _repeats("repeat_interleave", [repeats], 1, [x, repeats, axis])
    shape = list(x.shape)
    spread = shape[:axis + 1] + [Dim(1)] + shape[axis + 1:]
    wide = shape[:axis + 1] + [Dim(r)] + shape[axis + 1:]
    out = broadcast_to(reshape(x, spread), wide)
    return reshape(out, shape[:axis] + [shape[axis] * Dim(r)] + shape[axis + 1:])


def cumsum(x: Any, axis: int = -1, exclusive: bool = False, reverse: bool = False) -> TensorValue:
    """Cumulative sum along ``axis`` (MAX's ``cumsum``; ``numpy.cumsum`` when
    neither flag is set). ``exclusive`` leaves each element out of its own sum
    (the first is 0); ``reverse`` sums from the end. Integers wrap in their
    own dtype."""
    from mo._mlir import ir

    x = as_tensor_value(x)
    inputs = [x, axis]
    if x.dtype is DType.bool or not (x.dtype.is_float or x.dtype.is_integral):
        raise op_error("cumsum", inputs, f"cumsum is defined on floating-point or integer "
                                         f"tensors, got {x.dtype.name} (cast it first)")
    axis = _axis("cumsum", x, axis, inputs)
    return build("cumsum", inputs, x.graph, lambda: _mo().CumsumOp(
        x._value, axis, exclusive=ir.BoolAttr.get(bool(exclusive)),
        reverse=ir.BoolAttr.get(bool(reverse))))


max = _overload("max", _elementwise_max, _reductions["max"])  # noqa: A001 (MAX's name)
min = _overload("min", _elementwise_min, _reductions["min"])  # noqa: A001 (MAX's name)
maximum, minimum = _elementwise_max, _elementwise_min
negate = globals()["negative"]  # MAX's names
floor_div = globals()["floordiv"]
_gelu_forms = {"none": globals()["gelu"], "tanh": globals()["gelu_tanh"],
               "quick": globals()["gelu_quick"]}


def gelu(x: Any, approximate: str = "none") -> TensorValue:
    """GELU (MAX's ``gelu``): ``approximate="none"`` is ``x * Phi(x)`` with erf,
    ``"tanh"`` its tanh approximation (torch's ``approximate="tanh"``),
    ``"quick"`` is ``x * sigmoid(1.702 x)``. f16/bf16 compute in f32."""
    form = _gelu_forms.get(approximate)
    if form is None:
        raise ValueError(f"gelu: approximate must be 'none', 'tanh' or 'quick', got "
                         f"{approximate!r}")
    return form(x)



# -- linear algebra and shapes ------------------------------------------------------


def matmul(lhs: Any, rhs: Any) -> TensorValue:
    """Batched matrix product ``[..., M, K] @ [..., K, N]`` (batch dims broadcast)."""
    a, b = _binary_operands("matmul", lhs, rhs)
    if a.rank < 2 or b.rank < 2:
        raise op_error("matmul", [a, b], "matmul operands must have rank >= 2")
    if a.dtype is DType.bool:
        raise op_error("matmul", [a, b], "matmul is not defined for bool tensors (cast first)")
    return build("matmul", [a, b], a.graph, lambda: _mo().MatmulOp(a._value, b._value))


def _factor(d: Dim) -> tuple[int, list[Dim]] | None:
    """A product of dims as (static coefficient, symbolic factors), if it is one."""
    if isinstance(d, StaticDim):
        return d.value, []
    if isinstance(d, AlgebraicDim):
        if d.op != "mul":
            return 1, [d]
        left, right = _factor(d.lhs), _factor(d.rhs)
        return left[0] * right[0], left[1] + right[1]
    return 1, [d]


def _product(dims: Iterable[Dim]) -> Dim:
    total: Dim = Dim(1)
    for d in dims:
        total = total * d
    return total


def _check_bound(graph: Graph, dims: Iterable[Dim], name: str, inputs: list) -> None:
    """Symbolic dims of a new shape must be sizes the graph's arguments give."""
    known = {s for t in graph.input_types for d in t.shape for s in d.symbols}
    unknown = sorted({s for d in dims for s in d.symbols} - known)
    if unknown:
        raise op_error(name, inputs, f"symbolic dim '{unknown[0]}' is not the size of any "
                                     f"argument dim (known: {', '.join(sorted(known)) or 'none'})")


def reshape(x: Any, shape: Iterable[Any]) -> TensorValue:
    """Reinterprets ``x`` with ``shape`` (same number of elements; one -1 is inferred).

    Dims may be ints, names or expressions of ``x``'s dims (``[b * s, 4]``).
    """
    x = as_tensor_value(x)
    dims: list[Dim | None] = []
    for d in shape:
        if isinstance(d, numbers.Integral) and int(d) == -1:
            dims.append(None)
        else:
            try:
                dims.append(Dim(d))
            except (TypeError, ValueError) as e:
                raise op_error("reshape", [x, list(shape)], str(e)) from None
    if dims.count(None) > 1:
        raise op_error("reshape", [x, list(shape)], "at most one dim can be -1")
    total = _factor(_product(x.shape))
    if None in dims:
        known = _factor(_product(d for d in dims if d is not None))
        remaining = list(total[1])
        ok = known[0] != 0 and total[0] % known[0] == 0
        for f in known[1]:
            if f in remaining:
                remaining.remove(f)
            else:
                ok = False
        if not ok:
            raise op_error("reshape", [x, list(shape)],
                           f"cannot infer the -1 dim: {_product(x.shape)} elements are not a "
                           f"multiple of {_product(d for d in dims if d is not None)}")
        dims[dims.index(None)] = _product([*remaining, Dim(total[0] // known[0])])
    new_total = _factor(_product(dims))
    if total[1] == [] and new_total[1] == [] and total[0] != new_total[0]:
        raise op_error("reshape", [x, list(shape)],
                       f"cannot reshape {x.shape} ({total[0]} elements) to {dims} "
                       f"({new_total[0]} elements)")
    # Element counts that depend on symbolic dims are checked by the compiled code.
    _check_bound(x.graph, dims, "reshape", [x, list(shape)])
    out = TensorType(x.dtype, dims, x.device)
    return build("reshape", [x, list(shape)], x.graph,
                 lambda: _mo().ReshapeOp(mlir_type(out), x._value), verify=True)


# -- buffers --------------------------------------------------------------------------


def transfer_to(x: Any, device: DeviceRef) -> TensorValue:
    """``x`` on ``device`` (MAX's ``transfer_to``): itself when it is there
    already; moving between devices waits for mo's multi-device support."""
    v = as_tensor_value(x)
    target = device if isinstance(device, DeviceRef) else DeviceRef.from_device(device)
    if target != v.device:
        raise op_error("transfer_to", [v, target], f"transfers from {v.device} to {target} are "
                                                   f"not supported yet (one device per graph)")
    return v


def assert_same_device(*values: Any, **named_values: Any) -> None:
    """Raises ``ValueError`` unless every value is on one device (MAX's
    ``assert_same_device``)."""
    devices = {f"argument {i}" if not isinstance(i, str) else i: v.device
               for i, v in [*enumerate(values), *named_values.items()]}
    if len(set(devices.values())) > 1:
        listing = ", ".join(f"{k} on {d}" for k, d in devices.items())
        raise ValueError(f"values are on different devices: {listing}")


def buffer_create(type: BufferType, init_value: Any = None) -> BufferValue:  # noqa: A002
    """A new buffer of ``type``, local to the graph (MAX's ``buffer_create``):
    filled with ``init_value`` (a scalar or a tensor that broadcasts to it),
    else undefined until stored into."""
    if not isinstance(type, BufferType):
        type = getattr(type, "to_type", lambda: type)()
        if isinstance(type, TensorType):
            type = BufferType(type.dtype, type.shape, type.device)
    if not isinstance(type, BufferType):
        raise TypeError(f"buffer_create: expected a BufferType, got {type.__class__.__name__}")
    graph = Graph.current()
    buffer = build("buffer_create", [type], graph,
                   lambda: _mo().BufferCreateOp(mlir_type(type)))
    if init_value is not None:
        buffer_store(buffer, init_value)
    return buffer


def buffer_store_slice(destination: BufferValue, source: Any, indices: Any) -> None:
    """``destination[indices] = source`` (MAX's ``buffer_store_slice``: ints and
    slices, one per leading dim)."""
    buffer_store(destination, source, tuple(indices) if isinstance(indices, list) else indices)


def buffer_load(buffer: BufferValue) -> TensorValue:
    """The current contents of a buffer, as a tensor."""
    if not isinstance(buffer, BufferValue):
        raise TypeError(f"buffer_load: expected a buffer value, got {type(buffer).__name__}")
    return build("buffer_load", [buffer], buffer.graph,
                 lambda: _mo().MutableLoadOp(buffer._value))


def _window(buffer: Value, index: Any) -> tuple[list[int], list[int], list[Dim]] | None:
    """(starts, steps, sizes) of a basic slice (ints and slices) of a tensor or
    buffer; None for the whole."""
    if index is None or index is Ellipsis or (isinstance(index, tuple) and index == ()):
        return None
    index = _expand_index(index, buffer.rank)
    starts, steps, sizes = [], [], []
    for axis in range(buffer.rank):
        item = index[axis] if axis < len(index) else slice(None)
        dim = buffer.shape[axis]
        if isinstance(item, numbers.Integral):
            i = int(item)
            if isinstance(dim, StaticDim):
                if not -dim.value <= i < dim.value:
                    raise IndexError(f"index {i} is out of bounds for axis {axis} with size "
                                     f"{dim.value}")
                i %= dim.value
            elif i < 0:
                raise IndexError("negative indices need a static dim")
            item = slice(i, i + 1)
        if not isinstance(item, slice):
            raise TypeError(f"indices must be ints and slices, got {type(item).__name__}")
        if isinstance(dim, StaticDim):
            if item.step == 0:
                raise IndexError("slice step cannot be zero")
            start, stop, step = item.indices(dim.value)
            count = builtins.max(0, math.ceil((stop - start) / step))
            sizes.append(Dim(count))
            if count == 0:
                start, step = 0, 1
        else:
            if item != slice(None):
                raise IndexError(f"slicing a symbolic dim ({dim}) needs the whole dim (':')")
            start, step = 0, 1
            sizes.append(dim)
        if step < 1 and isinstance(buffer, BufferValue):
            raise IndexError("stores into a buffer need a positive step")
        starts.append(start)
        steps.append(step)
    if all(st == 0 for st in starts) and all(sp == 1 for sp in steps) and \
            list(sizes) == list(buffer.shape):
        return None  # the whole value
    return starts, steps, sizes


def buffer_store(buffer: BufferValue, value: Any, index: Any = None) -> None:
    """Writes ``value`` into ``buffer`` (or into ``buffer[index]``, basic slices).

    The write reaches the caller's buffer when the graph runs.
    """
    from mo._mlir import ir

    if isinstance(buffer, TensorValue):
        raise TypeError("cannot mutate a tensor argument that was staged as a tensor; stage it "
                        "as a buffer instead, by passing a BufferLayout as its spec")
    if not isinstance(buffer, BufferValue):
        raise TypeError(f"buffer_store: expected a buffer value, got {type(buffer).__name__}")
    window = _window(buffer, index)
    sizes = buffer.shape if window is None else window[2]
    with buffer.graph:
        v = as_tensor_value(value, buffer.graph, buffer.dtype, buffer.device)
        if v.dtype is not buffer.dtype:
            v = cast(v, buffer.dtype)
        if list(v.shape) != list(sizes):
            v = broadcast_to(v, sizes)

    def create():
        starts = ir.DenseI64ArrayAttr.get(window[0]) if window else None
        steps = ir.DenseI64ArrayAttr.get(window[1]) if window else None
        return _mo().MutableStoreOp(v._value, buffer._value, starts=starts, steps=steps)

    build("buffer_store", [buffer, v], buffer.graph, create, verify=True)


def broadcast_to(x: Any, shape: Sequence[Any]) -> TensorValue:
    """``x`` broadcast to ``shape`` (numpy rules; dims may be symbolic)."""
    x = as_tensor_value(x)
    dims = [Dim(d) for d in shape]
    if list(x.shape) == dims:
        return x
    _check_bound(x.graph, dims, "broadcast_to", [x, dims])
    out = TensorType(x.dtype, dims, x.device)
    return build("broadcast_to", [x, dims], x.graph,
                 lambda: _mo().BroadcastToOp(mlir_type(out), x._value), verify=True)


# -- subgraphs --------------------------------------------------------------------------


def call(graph: Graph, *args: Any, prefix: str = "") -> list[TensorValue]:
    """Calls subgraph ``graph`` (built with ``parent=``) and returns its results."""
    from mo._mlir import ir

    caller = Graph.current()
    values = [a if isinstance(a, Value) else as_tensor_value(a) for a in args]
    result_types = [v._value.type for v in graph.outputs]

    def create():
        return _mo().CallOp(result_types, ir.FlatSymbolRefAttr.get(graph.name),
                            [v._value for v in values], prefix=prefix or None)

    out = build("call", values, caller, create, verify=True)
    return out if isinstance(out, list) else [out]


# -- quantization (GGUF block formats) ------------------------------------------------------


def _gguf_encoding_attr(encoding: Any):
    from mo._mlir import ir
    from mo.graph.quantization import get_encoding

    enc = get_encoding(encoding)
    if not enc.is_gguf:
        raise TypeError(f"encoding {enc.name} has no graph lowering (only the GGUF encodings "
                        "Q4_0, Q4_K, Q5_K, Q6_K do); dequantize it with "
                        "mo.graph.quantization.dequantize instead")
    return enc, ir.Attribute.parse(f"#mo<encoding {enc.name.lower()}>", _context.context())


def dequantize(encoding: Any, q: Any) -> TensorValue:
    """float32 values of GGUF-quantized rows ``q`` (uint8 ``[..., bytes]``).

    Bit-exact with ``mo.graph.quantization.dequantize``.
    """
    q = as_tensor_value(q)
    _, attr = _gguf_encoding_attr(encoding)
    return build("dequantize", [q], q.graph, lambda: _mo().DequantizeOp(attr, q._value))


def qmatmul(encoding: Any, lhs: Any, rhs: Any) -> TensorValue:
    """``lhs @ dequantize(rhs).T`` with the weights dequantized in the inner loop.

    ``lhs`` is float32 ``[..., M, K]``; ``rhs`` the quantized weight stored
    transposed, uint8 ``[N, K / elements_per_block * block_size]``.
    """
    lhs, rhs = as_tensor_value(lhs), as_tensor_value(rhs)
    _graph_of(lhs, rhs)
    _, attr = _gguf_encoding_attr(encoding)
    return build("qmatmul", [lhs, rhs], lhs.graph,
                 lambda: _mo().QMatmulOp(attr, lhs._value, rhs._value))


def quantize(encoding: Any, x: Any) -> TensorValue:
    """A quantized constant: ``x`` (numpy data) quantized with the numpy
    reference quantizer (``mo.graph.quantization.quantize``) and embedded as
    uint8 rows. Graph values cannot be quantized inside a graph yet."""
    from mo.graph.quantization import get_encoding
    from mo.graph.quantization import quantize as quantize_array

    if isinstance(x, Value) or hasattr(x, "_graph_value"):
        raise NotImplementedError("quantizing a graph value is not supported yet: quantize the "
                                  "weights ahead of time (mo.graph.quantization.quantize) and "
                                  "pass them as uint8 constants or weights")
    return constant(quantize_array(get_encoding(encoding), np.asarray(x, np.float32)), DType.uint8)


def permute(x: Any, dims: Sequence[int]) -> TensorValue:
    """Reorders the dims: result dim ``i`` is ``x``'s dim ``dims[i]`` (negative
    indices count from the end)."""
    from mo._mlir import ir

    x = as_tensor_value(x)
    perm = [int(d) + x.rank if int(d) < 0 else int(d) for d in dims]
    if sorted(perm) != list(range(x.rank)):
        raise op_error("permute", [x, list(dims)], f"{list(dims)} is not a permutation of the "
                                                   f"{x.rank} dims")
    return build("permute", [x, list(dims)], x.graph,
                 lambda: _mo().TransposeOp(x._value, ir.DenseI64ArrayAttr.get(perm)))


def transpose(x: Any, axis_1: int, axis_2: int) -> TensorValue:
    """Swaps two dims (MAX's ``transpose(x, axis_1, axis_2)``)."""
    x = as_tensor_value(x)
    perm = list(range(x.rank))
    try:
        perm[axis_1], perm[axis_2] = perm[axis_2], perm[axis_1]
    except IndexError:
        raise op_error("transpose", [x, axis_1, axis_2],
                       f"axes must be in [-{x.rank}, {x.rank})") from None
    return permute(x, perm)


def _expand_index(index: Any, rank: int) -> tuple:
    """``index`` as one int or slice per dim (an ``...`` expanded)."""
    items = index if isinstance(index, tuple) else (index,)
    for item in items:
        if isinstance(item, (Value, np.ndarray, list)) or hasattr(item, "_graph_value"):
            dtype = getattr(item, "dtype", None)
            if dtype in (DType.bool, np.bool_) or (isinstance(item, list) and item and
                                                   all(isinstance(i, bool) for i in item)):
                raise IndexError("boolean mask indexing (x[mask]) has a size that depends on "
                                 "the data: use where(mask, x, fill) to keep the shape, or "
                                 "masked_scatter to write through a mask")
            raise IndexError("indexing with a tensor or list of indices: use gather(x, indices, "
                             "axis) (or gather_nd for several dims)")
        if item is None:
            raise IndexError("None (np.newaxis) in an index is not supported: reshape instead")
        if isinstance(item, (bool, np.bool_)):
            raise IndexError("boolean indices are not supported: use integers and slices")
    if builtins.sum(item is Ellipsis for item in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if Ellipsis in items:
        at = items.index(Ellipsis)
        fill = rank - (len(items) - 1)
        items = items[:at] + (slice(None),) * builtins.max(fill, 0) + items[at + 1:]
    if len(items) > rank:
        raise IndexError(f"too many indices for rank {rank}: {len(items)}")
    return items


def slice_tensor(x: Any, index: Any) -> TensorValue:
    """``x[index]`` for basic indices: ints (which drop their dim) and slices
    (negative steps included, ``x[::-1]``); a symbolic dim can only be taken
    whole (``:``)."""
    from mo._mlir import ir

    x = as_tensor_value(x)
    try:
        _expand_index(index, x.rank)  # rejects None, bools, extra indices
        window = _window(x, index)
    except (IndexError, TypeError) as e:
        raise type(e)(f"slice: {e}") from None
    if window is None:
        return x
    starts, steps, sizes = window
    out = TensorType(x.dtype, sizes, x.device)
    y = build("slice", [x, index], x.graph,
              lambda: _mo().SliceOp(mlir_type(out), x._value, ir.DenseI64ArrayAttr.get(starts),
                                    ir.DenseI64ArrayAttr.get(steps)), verify=True)
    items = _expand_index(index, x.rank)
    dropped = {axis for axis, item in enumerate(items) if isinstance(item, numbers.Integral)}
    if dropped:
        y = reshape(y, [d for axis, d in enumerate(sizes) if axis not in dropped])
    return y


# Families in their own modules (they build on the ops above).
from mo.graph._conv import (  # noqa: E402
    ConvInputLayout,
    FilterLayout,
    avg_pool2d,
    conv2d,
    conv2d_transpose,
    conv3d,
    fold,
    max_pool2d,
)
from mo.graph._indexing import (  # noqa: E402
    argsort,
    non_maximum_suppression,
    nonzero,
    roi_align,
    bottom_k,
    gather,
    gather_nd,
    masked_scatter,
    scatter,
    scatter_add,
    scatter_max,
    scatter_min,
    scatter_mul,
    scatter_nd,
    scatter_nd_add,
    scatter_nd_max,
    scatter_nd_min,
    scatter_nd_mul,
    top_k,
)
from mo.graph._shape import band_part, hann_window, rebind, shape_to_tensor  # noqa: E402
from mo.graph._control import cond, custom, inplace_custom, while_loop  # noqa: E402
from mo.graph._fft import as_interleaved_complex, irfft  # noqa: E402
from mo.graph._resize import (  # noqa: E402
    InterpolationMode,
    resize,
    resize_bicubic,
    resize_linear,
    resize_nearest,
)
from mo.graph import _random as random  # noqa: E402  (MAX's ops.random)
from mo.graph._random import gaussian, normal, seeded as _seeded_random, uniform  # noqa: E402


def __getattr__(name: str) -> Any:
    # ``ops.range`` and ``ops.print`` without shadowing the builtins here.
    if name == "range":
        from mo.graph._shape import range as range_op

        return range_op
    if name == "print":
        from mo.graph._control import print_value

        return print_value
    raise AttributeError(f"module 'mo.graph.ops' has no attribute {name!r}")
