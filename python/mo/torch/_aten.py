"""The aten -> mo table: one converter per aten overload, and nothing else.

The graphs Dynamo and AOTAutograd hand over are core aten after torch's own
decomposition tables (``_decompositions``), so the table covers the core
aten ops models are made of, forward and backward. A converter gets the FX
node (its ``meta["val"]`` is torch's fake result: the dtype and shape the
mo value must have) and the node's arguments with every input already a mo
value, and builds mo ops with ``mo.graph.ops``. It raises ``Unsupported``
for a form it does not take (that node then stays in torch); the caller
checks every result against torch's and rejects a disagreement the same way.
"""

from __future__ import annotations

import functools
import math
import numbers
import operator
from collections.abc import Callable, Sequence
from typing import Any

import torch

from mo.dtype import DType
from mo.graph import Dim, TensorType
from mo.graph import ops
from mo.graph.type import DeviceRef

aten = torch.ops.aten

__all__ = ["CONVERTERS", "Unsupported", "decompositions", "dim_of", "mo_dtype", "tensor_type"]


class Unsupported(Exception):
    """A node mo does not take in this form (it stays in torch)."""


Converter = Callable[..., Any]
CONVERTERS: dict[Any, Converter] = {}


def converts(*overloads: Any) -> Callable[[Converter], Converter]:
    def register(fn: Converter) -> Converter:
        for overload in overloads:
            CONVERTERS[overload] = fn
        return fn

    return register


# -- types -------------------------------------------------------------------------

_DTYPES = {getattr(torch, d.name): d for d in DType}


def mo_dtype(dtype: torch.dtype) -> DType:
    try:
        return _DTYPES[dtype]
    except KeyError:
        raise Unsupported(f"dtype {dtype} has no mo equivalent") from None


def torch_dtype(dtype: DType) -> torch.dtype:
    return getattr(torch, dtype.name)


def _sym_dim(expr: Any) -> Dim:
    """A mo dim for one of torch's sympy size expressions."""
    import sympy
    from torch.utils._sympy.functions import FloorDiv, Mod

    if isinstance(expr, sympy.Integer):
        return Dim(int(expr))
    if isinstance(expr, sympy.Symbol):
        return Dim(expr.name)
    if isinstance(expr, sympy.Add):  # mo's dims are never negative: constants below zero subtract
        terms = [a for a in expr.args if not (isinstance(a, sympy.Integer) and a < 0)]
        offset = sum(int(a) for a in expr.args if isinstance(a, sympy.Integer) and a < 0)
        total = sum((_sym_dim(a) for a in terms[1:]), start=_sym_dim(terms[0]))
        return total - (-offset) if offset else total
    if any(isinstance(a, sympy.Integer) and a < 0 for a in expr.args):
        raise Unsupported(f"the size expression {expr} has a negative part")
    args = [_sym_dim(a) for a in expr.args]
    if isinstance(expr, sympy.Mul):
        return math.prod(args[1:], start=args[0])
    if isinstance(expr, FloorDiv):
        return args[0] // args[1]
    if isinstance(expr, Mod):
        return args[0] % args[1]
    raise Unsupported(f"the size expression {expr} has no mo dim")


def dim_of(size: Any) -> Dim:
    """A mo dim for a size: an int or one of Dynamo's SymInts."""
    if isinstance(size, torch.SymInt):
        expr = size.node.expr
        return _sym_dim(expr)
    if isinstance(size, Dim):
        return size
    return Dim(int(size))


def tensor_type(fake: torch.Tensor) -> TensorType:
    """The mo type of a (fake) torch tensor."""
    if fake.layout != torch.strided:
        raise Unsupported(f"layout {fake.layout} (mo takes dense tensors)")
    if fake.device.type != "cpu":
        raise Unsupported(f"device {fake.device} (mo's torch backend runs on the CPU)")
    return TensorType(mo_dtype(fake.dtype), [dim_of(s) for s in fake.shape], DeviceRef.CPU())


# -- helpers -------------------------------------------------------------------------


def _value(n: torch.fx.Node) -> Any:
    return n.meta.get("val")


def _cast(x: Any, dtype: torch.dtype) -> Any:
    return ops.cast(x, mo_dtype(dtype)) if isinstance(x, ops.TensorValue) else x


def _result_dtype(n: torch.fx.Node) -> torch.dtype:
    return _value(n).dtype


def _operand_dtype(*values: Any) -> torch.dtype:
    """torch's promotion of the operands (what a comparison computes in)."""
    tensors = [torch_dtype(v.dtype) for v in values if isinstance(v, ops.TensorValue)]
    dtype = tensors[0]
    for other in tensors[1:]:
        dtype = torch.promote_types(dtype, other)
    for v in values:  # a Python float lifts an integer tensor to the default float
        if isinstance(v, float) and not dtype.is_floating_point:
            dtype = torch.get_default_dtype()
    return dtype


def _scalar(x: Any) -> Any:
    if isinstance(x, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        raise Unsupported("a symbolic scalar used as a value")
    return x


def _axis(x: Any, axis: int) -> int:
    return axis + x.rank if axis < 0 else axis


def _axes(x: Any, dims: Any) -> list[int]:
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return list(range(x.rank))
    if isinstance(dims, numbers.Integral):
        dims = [dims]
    return sorted({_axis(x, int(d)) for d in dims})


def _drop(x: Any, axes: Sequence[int]) -> Any:
    return ops.reshape(x, [d for i, d in enumerate(x.shape) if i not in axes])


def _reduce(fn: Callable[[Any, int], Any], x: Any, dims: Any, keepdim: bool) -> Any:
    axes = _axes(x, dims)
    if x.rank == 0:
        return x
    for axis in axes:
        x = fn(x, axis)
    return x if keepdim else _drop(x, axes)


def _scalar_tensor_of(value: Any, dtype: DType, shape: Sequence[Any]) -> Any:
    """A tensor of ``shape`` holding ``value`` (a broadcast scalar constant)."""
    return ops.broadcast_to(ops.constant(value, dtype), list(shape))


def _shape(sizes: Sequence[Any]) -> list[Any]:
    return [-1 if isinstance(s, numbers.Integral) and int(s) == -1 else dim_of(s) for s in sizes]


# -- elementwise ------------------------------------------------------------------------


def _unary(fn: Callable[[Any], Any]) -> Converter:
    def convert(n: torch.fx.Node, x: Any) -> Any:
        # The op computes in the result's dtype (torch's: exp of an int is a float).
        return fn(_cast(x, _result_dtype(n)))

    return convert


for _op, _fn in {
    aten.abs.default: ops.abs, aten.neg.default: ops.negate, aten.exp.default: ops.exp,
    aten.exp2.default: ops.exp2, aten.log.default: ops.log, aten.log1p.default: ops.log1p,
    aten.log2.default: ops.log2, aten.sqrt.default: ops.sqrt, aten.rsqrt.default: ops.rsqrt,
    aten.sin.default: ops.sin, aten.cos.default: ops.cos, aten.tan.default: ops.tan,
    aten.tanh.default: ops.tanh, aten.sinh.default: ops.sinh, aten.cosh.default: ops.cosh,
    aten.asin.default: ops.asin, aten.acos.default: ops.acos, aten.atan.default: ops.atan,
    aten.atanh.default: ops.atanh, aten.sigmoid.default: ops.sigmoid, aten.erf.default: ops.erf,
    aten.relu.default: ops.relu, aten.floor.default: ops.floor, aten.ceil.default: ops.ceil,
    aten.round.default: ops.round, aten.trunc.default: ops.trunc,
    aten.silu.default: ops.silu,
    aten.reciprocal.default: lambda x: ops.div(1.0, x),
    aten.expm1.default: lambda x: ops.sub(ops.exp(x), 1.0),
}.items():
    converts(_op)(_unary(_fn))


@converts(aten.logical_not.default)
def _logical_not(n: torch.fx.Node, x: Any) -> Any:
    return ops.logical_not(x if x.dtype is DType.bool else ops.not_equal(x, 0))


@converts(aten.bitwise_not.default)
def _bitwise_not(n: torch.fx.Node, x: Any) -> Any:
    if x.dtype is not DType.bool:
        raise Unsupported("bitwise not of integers")
    return ops.logical_not(x)


@converts(aten.isnan.default)
def _isnan(n: torch.fx.Node, x: Any) -> Any:
    return ops.is_nan(x)


@converts(aten.isinf.default)
def _isinf(n: torch.fx.Node, x: Any) -> Any:
    return ops.is_inf(x)


@converts(aten.gelu.default)
def _gelu(n: torch.fx.Node, x: Any, approximate: str = "none") -> Any:
    return ops.gelu(x, approximate)


@converts(aten.clamp.default, aten.clamp.Tensor, aten.hardtanh.default)
def _clamp(n: torch.fx.Node, x: Any, min: Any = None, max: Any = None) -> Any:  # noqa: A002
    dtype = _result_dtype(n)
    if n.target is aten.hardtanh.default:
        min, max = (-1.0 if min is None else min), (1.0 if max is None else max)  # noqa: A001
    return ops.clamp(_cast(x, dtype), _cast(_scalar(min), dtype), _cast(_scalar(max), dtype))


@converts(aten.clamp_min.default)
def _clamp_min(n: torch.fx.Node, x: Any, min: Any) -> Any:  # noqa: A002
    return ops.clamp(_cast(x, _result_dtype(n)), min=_scalar(min))


@converts(aten.clamp_max.default)
def _clamp_max(n: torch.fx.Node, x: Any, max: Any) -> Any:  # noqa: A002
    return ops.clamp(_cast(x, _result_dtype(n)), max=_scalar(max))


@converts(aten.leaky_relu.default)
def _leaky_relu(n: torch.fx.Node, x: Any, slope: float = 0.01) -> Any:
    return ops.where(ops.greater(x, 0.0), x, ops.mul(x, float(slope)))


def _binary(fn: Callable[[Any, Any], Any]) -> Converter:
    def convert(n: torch.fx.Node, a: Any, b: Any, *, alpha: Any = 1) -> Any:
        dtype = _result_dtype(n)
        a, b = _cast(_scalar(a), dtype), _cast(_scalar(b), dtype)
        if alpha != 1:
            b = ops.mul(b, _scalar(alpha))
        if not isinstance(a, ops.TensorValue) and not isinstance(b, ops.TensorValue):
            raise Unsupported("an op on two scalars")
        return fn(a, b)

    return convert


for _ops, _fn in [
    ((aten.add.Tensor, aten.add.Scalar), ops.add),
    ((aten.sub.Tensor, aten.sub.Scalar), ops.sub),
    ((aten.rsub.Scalar, aten.rsub.Tensor), lambda a, b: ops.sub(b, a)),
    ((aten.mul.Tensor, aten.mul.Scalar), ops.mul),
    ((aten.div.Tensor, aten.div.Scalar), ops.div),
    ((aten.pow.Tensor_Scalar, aten.pow.Tensor_Tensor, aten.pow.Scalar), ops.pow),
    ((aten.remainder.Tensor, aten.remainder.Scalar), ops.mod),  # the divisor's sign, as torch
    ((aten.maximum.default,), ops.maximum),
    ((aten.minimum.default,), ops.minimum),
]:
    converts(*_ops)(_binary(_fn))


@converts(aten.div.Tensor_mode, aten.div.Scalar_mode)
def _div_mode(n: torch.fx.Node, a: Any, b: Any, *, rounding_mode: str | None = None) -> Any:
    dtype = _result_dtype(n)
    if rounding_mode is None:
        return _binary(ops.div)(n, a, b)
    if not dtype.is_floating_point:
        if rounding_mode != "floor":
            raise Unsupported("integer division rounding toward zero")
        return ops.floor_div(_cast(a, dtype), _cast(_scalar(b), dtype))
    q = ops.div(_cast(a, dtype), _cast(_scalar(b), dtype))
    return ops.floor(q) if rounding_mode == "floor" else ops.trunc(q)


def _compare(fn: Callable[[Any, Any], Any]) -> Converter:
    def convert(n: torch.fx.Node, a: Any, b: Any) -> Any:
        dtype = _operand_dtype(a, b)
        return fn(_cast(_scalar(a), dtype), _cast(_scalar(b), dtype))

    return convert


for _ops, _fn in [
    ((aten.eq.Tensor, aten.eq.Scalar), ops.equal),
    ((aten.ne.Tensor, aten.ne.Scalar), ops.not_equal),
    ((aten.lt.Tensor, aten.lt.Scalar), ops.less),
    ((aten.le.Tensor, aten.le.Scalar), ops.less_equal),
    ((aten.gt.Tensor, aten.gt.Scalar), ops.greater),
    ((aten.ge.Tensor, aten.ge.Scalar), ops.greater_equal),
]:
    converts(*_ops)(_compare(_fn))


def _logical(fn: Callable[[Any, Any], Any]) -> Converter:
    def convert(n: torch.fx.Node, a: Any, b: Any) -> Any:
        as_bool = [v if v.dtype is DType.bool else ops.not_equal(v, 0) for v in (a, b)]
        return fn(*as_bool)

    return convert


converts(aten.logical_and.default, aten.bitwise_and.Tensor)(_logical(ops.logical_and))
converts(aten.logical_or.default, aten.bitwise_or.Tensor)(_logical(ops.logical_or))
converts(aten.logical_xor.default, aten.bitwise_xor.Tensor)(_logical(ops.logical_xor))


@converts(aten.where.self, aten.where.ScalarSelf, aten.where.ScalarOther, aten.where.Scalar)
def _where(n: torch.fx.Node, c: Any, a: Any, b: Any) -> Any:
    dtype = _result_dtype(n)
    return ops.where(c, _cast(_scalar(a), dtype), _cast(_scalar(b), dtype))


# -- creation -------------------------------------------------------------------------


def _filled(n: torch.fx.Node, value: Any) -> Any:
    out = _value(n)
    if out.device.type != "cpu":
        raise Unsupported(f"device {out.device}")
    return _scalar_tensor_of(_scalar(value), mo_dtype(out.dtype), [dim_of(s) for s in out.shape])


@converts(aten.full.default)
def _full(n: torch.fx.Node, size: Any, value: Any, **_: Any) -> Any:
    return _filled(n, value)


@converts(aten.full_like.default)
def _full_like(n: torch.fx.Node, x: Any, value: Any, **_: Any) -> Any:
    return _filled(n, value)


@converts(aten.zeros_like.default, aten.zeros.default, aten.new_zeros.default)
def _zeros(n: torch.fx.Node, *_: Any, **__: Any) -> Any:
    return _filled(n, 0)


@converts(aten.ones_like.default, aten.ones.default, aten.new_ones.default)
def _ones(n: torch.fx.Node, *_: Any, **__: Any) -> Any:
    return _filled(n, 1)


@converts(aten.scalar_tensor.default)
def _scalar_tensor(n: torch.fx.Node, value: Any, **_: Any) -> Any:
    return ops.constant(_scalar(value), mo_dtype(_value(n).dtype))


@converts(aten.arange.start_step, aten.arange.start, aten.arange.default)
def _arange(n: torch.fx.Node, *args: Any, **_: Any) -> Any:
    import numpy as np

    out = _value(n)
    if any(isinstance(a, (Dim, torch.SymInt, torch.SymFloat)) for a in args):
        # A run-time length (a causal mask's): mo's range of torch's size.
        from mo.graph._shape import _range

        start, step = (0, 1) if len(args) == 1 else (args[0], args[2] if len(args) > 2 else 1)
        if not all(isinstance(v, numbers.Number) for v in (start, step)):
            raise Unsupported("arange with a symbolic start or step")
        return _range(start, step, dim_of(out.shape[0]), mo_dtype(out.dtype), DeviceRef.CPU(),
                      list(args))
    dtype = mo_dtype(out.dtype)
    values = np.arange(*args, dtype=dtype.to_numpy())
    if values.shape != tuple(out.shape):
        raise Unsupported("an arange numpy sizes differently from torch")
    return ops.constant(values, dtype)


# -- casts, copies and views -------------------------------------------------------------


def _same(n: torch.fx.Node, x: Any, *_: Any, **__: Any) -> Any:
    return x


converts(aten.clone.default, aten.alias.default, aten.detach.default,
         aten.lift_fresh_copy.default, aten.contiguous.default)(_same)


@converts(aten._to_copy.default)
def _to_copy(n: torch.fx.Node, x: Any, *, dtype: Any = None, device: Any = None,
             **_: Any) -> Any:
    if device is not None and torch.device(device).type != "cpu":
        raise Unsupported(f"a copy to {device}")
    return _cast(x, dtype) if dtype is not None else x


@converts(aten.view.default, aten._unsafe_view.default, aten.reshape.default)
def _view(n: torch.fx.Node, x: Any, size: Sequence[Any]) -> Any:
    return ops.reshape(x, _shape(size))


@converts(aten.permute.default)
def _permute(n: torch.fx.Node, x: Any, dims: Sequence[int]) -> Any:
    return ops.permute(x, [_axis(x, d) for d in dims])


@converts(aten.t.default)
def _t(n: torch.fx.Node, x: Any) -> Any:
    return ops.transpose(x, 0, 1) if x.rank == 2 else x


@converts(aten.transpose.int)
def _transpose(n: torch.fx.Node, x: Any, a: int, b: int) -> Any:
    return ops.transpose(x, a, b)


@converts(aten.unsqueeze.default)
def _unsqueeze(n: torch.fx.Node, x: Any, dim: int) -> Any:
    return ops.unsqueeze(x, dim if dim >= 0 else dim + x.rank + 1)


@converts(aten.squeeze.dim, aten.squeeze.dims, aten.squeeze.default)
def _squeeze(n: torch.fx.Node, x: Any, dims: Any = None) -> Any:
    axes = _axes(x, dims)
    return _drop(x, [a for a in axes if x.shape[a] == Dim(1)])


@converts(aten.expand.default)
def _expand(n: torch.fx.Node, x: Any, sizes: Sequence[Any], implicit: bool = False) -> Any:
    lead = len(sizes) - x.rank
    shape = [x.shape[i - lead] if isinstance(s, numbers.Integral) and int(s) == -1
             else dim_of(s) for i, s in enumerate(sizes)]
    if lead:
        x = ops.reshape(x, [1] * lead + list(x.shape))
    return ops.broadcast_to(x, shape)


@converts(aten.select.int)
def _select(n: torch.fx.Node, x: Any, dim: int, index: Any) -> Any:
    dim = _axis(x, dim)
    return ops.slice_tensor(x, (slice(None),) * dim + (int(_scalar(index)),))


@converts(aten.slice.Tensor)
def _slice(n: torch.fx.Node, x: Any, dim: int = 0, start: Any = None, end: Any = None,
           step: int = 1) -> Any:
    dim = _axis(x, dim)
    start, end = _scalar(start), _scalar(end)
    if isinstance(end, numbers.Integral) and end >= 2**62:
        end = None
    if start == 0:
        start = None
    if start is None and end is None and step == 1:
        return x
    return ops.slice_tensor(x, (slice(None),) * dim + (slice(start, end, step),))


@converts(aten.cat.default)
def _cat(n: torch.fx.Node, values: Sequence[Any], dim: int = 0) -> Any:
    dtype = _result_dtype(n)
    values = [_cast(v, dtype) for v in values if not (v.rank == 1 and v.shape[0] == Dim(0))]
    return ops.concat(values, dim if dim >= 0 else dim + values[0].rank)


@converts(aten.split_with_sizes.default)
def _split_with_sizes(n: torch.fx.Node, x: Any, sizes: Sequence[int], dim: int = 0) -> Any:
    return tuple(ops.split(x, [int(_scalar(s)) for s in sizes], _axis(x, dim)))


@converts(aten.split.Tensor)
def _split(n: torch.fx.Node, x: Any, size: int, dim: int = 0) -> Any:
    return tuple(ops.split(x, [int(o.shape[_axis(x, dim)]) for o in _value(n)], _axis(x, dim)))


@converts(aten.constant_pad_nd.default)
def _constant_pad(n: torch.fx.Node, x: Any, pad: Sequence[int], value: Any = 0) -> Any:
    pairs = [(0, 0)] * x.rank
    for i in range(len(pad) // 2):  # torch lists the last dim first
        pairs[x.rank - 1 - i] = (int(pad[2 * i]), int(pad[2 * i + 1]))
    if any(p < 0 for pair in pairs for p in pair):
        raise Unsupported("negative padding")
    return ops.pad(x, [p for pair in pairs for p in pair], value=_scalar(value))


@converts(aten.repeat.default)
def _repeat(n: torch.fx.Node, x: Any, repeats: Sequence[int]) -> Any:
    lead = len(repeats) - x.rank
    if lead:
        x = ops.reshape(x, [1] * lead + list(x.shape))
    return ops.tile(x, [int(_scalar(r)) for r in repeats])


@converts(aten.index_select.default)
def _index_select(n: torch.fx.Node, x: Any, dim: int, index: Any) -> Any:
    return ops.gather(x, index, _axis(x, dim))


def _scattering(fn: Callable[..., Any]) -> Converter:
    def convert(n: torch.fx.Node, x: Any, dim: int, index: Any, src: Any) -> Any:
        if list(index.shape) != list(src.shape):
            raise Unsupported("a scatter whose source is larger than its index")
        return fn(x, src, index, _axis(x, dim))

    return convert


converts(aten.scatter.src)(_scattering(ops.scatter))
converts(aten.scatter_add.default)(_scattering(ops.scatter_add))


def _index_tensors(indices: Sequence[Any], several: bool) -> tuple[int, list[Any]]:
    """The first indexed dim and the integer index tensors of ``indices``
    (adjacent dims; ``None`` for a dim taken whole). Several must each vary
    along their own axis of the broadcast grid (``rows[:, None], cols``):
    then indexing by them is one gather (or scatter) per dim."""
    dims = [i for i, t in enumerate(indices) if t is not None]
    tensors = [indices[i] for i in dims]
    if not dims or dims != list(range(dims[0], dims[0] + len(dims))) or any(
            t.dtype not in (DType.int64, DType.int32) for t in tensors) or (
            len(tensors) > 1 and not several):
        raise Unsupported("indexing other than by integer tensors of adjacent dims")
    for j, t in enumerate(tensors if len(tensors) > 1 else []):
        sizes = [Dim(1)] * (len(tensors) - t.rank) + list(t.shape)
        if t.rank > len(tensors) or any(size != Dim(1) for a, size in enumerate(sizes)
                                       if a != j):
            raise Unsupported("index tensors that do not each vary along their own axis")
    return dims[0], tensors


@converts(aten.index.Tensor)
def _index(n: torch.fx.Node, x: Any, indices: Sequence[Any]) -> Any:
    """Advanced indexing (nearest upsampling, a reflection pad, ``x[idx]``):
    one index tensor is a gather; several, one gather per dim."""
    d0, tensors = _index_tensors(indices, several=True)
    if len(tensors) == 1:
        return ops.gather(x, tensors[0], d0)
    for j, t in enumerate(tensors):
        x = ops.gather(x, ops.reshape(t, [-1]), d0 + j)
    return x


@converts(aten.index_put.default)
def _index_put(n: torch.fx.Node, x: Any, indices: Sequence[Any], values: Any,
               accumulate: bool = False) -> Any:
    """``x[idx] = values`` (``+=`` with ``accumulate``), indexed as ``_index``
    reads: one tensor is a scatter along its dim (an embedding's backward);
    several, accumulated, one scatter_add per dim (an upsampling's
    backward: the sums separate)."""
    d0, tensors = _index_tensors(indices, several=accumulate)
    values = _cast(values, _result_dtype(n))
    flat = [ops.reshape(t, [-1]) for t in tensors]
    shape = [*x.shape[:d0], *(f.shape[0] for f in flat), *x.shape[d0 + len(flat):]]
    if values.rank == len(shape) - len(flat) + tensors[0].rank and len(flat) == 1:
        values = ops.reshape(values, shape)
    values = ops.broadcast_to(values, shape)
    scatter = ops.scatter_add if accumulate else ops.scatter
    # From the last indexed dim to the first: each scatter lands one dim in x's size.
    for j in reversed(range(len(flat))):
        axis = d0 + j
        target_shape = list(values.shape)
        target_shape[axis] = x.shape[axis]
        base = x if j == 0 else _scalar_tensor_of(0, values.dtype, target_shape)
        at = ops.broadcast_to(ops.reshape(flat[j], [1] * axis + [flat[j].shape[0]]
                                          + [1] * (len(shape) - axis - 1)), list(values.shape))
        values = scatter(base, values, at, axis)
    return values


@converts(aten.embedding.default)
def _embedding(n: torch.fx.Node, weight: Any, indices: Any, *_: Any) -> Any:
    return ops.gather(weight, indices, 0)


@converts(operator.getitem)
def _getitem(n: torch.fx.Node, values: Any, i: int) -> Any:
    if not isinstance(values, tuple) or values[i] is None:
        raise Unsupported("an item mo did not compute")
    return values[i]


# -- reductions -------------------------------------------------------------------------


def _reduction(fn: Callable[[Any, int], Any]) -> Converter:
    def convert(n: torch.fx.Node, x: Any, dims: Any = None, keepdim: bool = False, *,
                dtype: Any = None) -> Any:
        return _reduce(fn, _cast(x, _result_dtype(n)), dims, keepdim)

    return convert


converts(aten.sum.dim_IntList, aten.sum.default)(_reduction(ops.sum))
converts(aten.mean.dim, aten.mean.default)(_reduction(ops.mean))
# ops.max/min are MAX's overloads (a second positional is elementwise): the axis by name.
_max = lambda x, axis: ops.max(x, axis=axis)  # noqa: E731
_min = lambda x, axis: ops.min(x, axis=axis)  # noqa: E731
converts(aten.amax.default)(_reduction(_max))
converts(aten.amin.default)(_reduction(_min))
converts(aten.prod.dim_int, aten.prod.default)(_reduction(ops.prod))


def _truth(fn: Callable[[Any, int], Any]) -> Converter:
    """any (the max of truths as ints) or all (their min)."""
    def convert(n: torch.fx.Node, x: Any, dims: Any = None, keepdim: bool = False) -> Any:
        as_int = ops.cast(ops.not_equal(x, 0) if x.dtype is not DType.bool else x, DType.int32)
        return ops.cast(_reduce(fn, as_int, dims, keepdim), DType.bool)

    return convert


converts(aten.any.dim, aten.any.dims, aten.any.default)(_truth(_max))
converts(aten.all.dim, aten.all.dims, aten.all.default)(_truth(_min))


@converts(aten.argmax.default, aten.argmin.default)
def _argmax(n: torch.fx.Node, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    fn = ops.argmax if n.target is aten.argmax.default else ops.argmin
    if dim is None:
        x, dim = ops.reshape(x, [-1]), 0
    y = fn(x, _axis(x, dim))
    return y if keepdim else _drop(y, [_axis(x, dim)])


@converts(aten.var.correction, aten.var_mean.correction)
def _var(n: torch.fx.Node, x: Any, dims: Any = None, *, correction: Any = 1,
         keepdim: bool = False) -> Any:
    x = _cast(x, _value(n)[0].dtype if isinstance(_value(n), tuple) else _result_dtype(n))
    axes = _axes(x, dims)
    count = math.prod(x.shape[a] for a in axes)
    if not count.is_static:
        raise Unsupported("a variance over symbolic dims")
    mean = _reduce(ops.mean, x, axes, True)
    centred = ops.sub(x, mean)
    var = ops.div(_reduce(ops.sum, ops.mul(centred, centred), axes, keepdim),
                  float(max(int(count) - (1 if correction is None else correction), 0)))
    if n.target is aten.var_mean.correction:
        return var, mean if keepdim else _drop(mean, axes)
    return var


# -- linear algebra -------------------------------------------------------------------------


@converts(aten.mm.default, aten.bmm.default, aten.matmul.default)
def _mm(n: torch.fx.Node, a: Any, b: Any) -> Any:
    return ops.matmul(a, b)


@converts(aten.addmm.default, aten.baddbmm.default)
def _addmm(n: torch.fx.Node, bias: Any, a: Any, b: Any, *, beta: Any = 1,
           alpha: Any = 1) -> Any:
    y = ops.matmul(a, b)
    if alpha != 1:
        y = ops.mul(y, _scalar(alpha))
    if beta == 0:
        return y
    return ops.add(y, bias if beta == 1 else ops.mul(bias, _scalar(beta)))


# -- neural-network ops ------------------------------------------------------------------------


def _spatial(x: Any, values: Sequence[int], what: str) -> list[int]:
    values = [int(v) for v in values]
    if len(values) == 1:
        values = values * 2
    if len(values) != 2:
        raise Unsupported(f"a {what} of {values}")
    return values


def _window(x: Any, stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
            bias: Any, filter_layout: Any) -> dict[str, Any]:
    """A 2-D convolution's keywords for ``ops.conv2d`` on torch's NCHW input."""
    return dict(stride=_spatial(x, stride, "stride"), dilation=_spatial(x, dilation, "dilation"),
                padding=_spatial(x, padding, "padding"), bias=bias,
                input_layout=ops.ConvInputLayout.NCHW, filter_layout=filter_layout)


@converts(aten.convolution.default)
def _convolution(n: torch.fx.Node, x: Any, w: Any, bias: Any, stride: Sequence[int],
                 padding: Sequence[int], dilation: Sequence[int], transposed: bool,
                 output_padding: Sequence[int], groups: int) -> Any:
    if x.rank == 3:  # 1-D: a 2-D convolution over a unit height
        y = _convolution(n, ops.unsqueeze(x, 2), ops.unsqueeze(w, 2), bias, [1, *stride],
                         [0, *padding], [1, *dilation], transposed, [0, *output_padding],
                         groups)
        return ops.squeeze(y, 2)
    if x.rank != 4:
        raise Unsupported(f"a convolution of rank {x.rank}")
    window = _window(x, stride, padding, dilation, bias, ops.FilterLayout.FCRS)
    if transposed:
        if groups != 1:
            raise Unsupported("a grouped transposed convolution")
        return ops.conv2d_transpose(x, w, output_paddings=_spatial(x, output_padding, "padding"),
                                    **window)
    return ops.conv2d(x, w, groups=groups, **window)


def convolution_rscf(x: torch.Tensor, w: torch.Tensor, *window: Any) -> torch.Tensor:
    """``aten.convolution`` of a filter already laid out ``[R, S, C, F]`` (by
    ``relaid_filter``): what torch runs should mo not take the node."""
    return aten.convolution.default(x, w.permute(3, 2, 0, 1), *window)


@converts(convolution_rscf)
def _convolution_rscf(n: torch.fx.Node, x: Any, w: Any, bias: Any, stride: Sequence[int],
                      padding: Sequence[int], dilation: Sequence[int], transposed: bool,
                      output_padding: Sequence[int], groups: int) -> Any:
    if x.rank != 4 or transposed:
        raise Unsupported("a relaid filter of a transposed or non-2-D convolution")
    return ops.conv2d(x, w, groups=groups,
                      **_window(x, stride, padding, dilation, bias, ops.FilterLayout.RSCF))


_relaid: dict[int, tuple[Any, tuple, torch.Tensor]] = {}


def relaid_filter(w: torch.Tensor) -> torch.Tensor:
    """``w`` (``[F, C, R, S]``) as ``[R, S, C, F]``, computed once per tensor
    and version (``Backend(freeze=True)``): an in-place update (an optimizer
    step, ``load_state_dict``) makes a new version; a write through
    ``w.data`` does not, which is what freezing means."""
    import weakref

    key = (w._version, w.data_ptr(), tuple(w.shape), w.stride(), w.dtype)
    hit = _relaid.get(id(w))
    if hit is not None and hit[0]() is w and hit[1] == key:
        return hit[2]
    out = w.detach().permute(2, 3, 1, 0).contiguous()
    # Keyed by identity (a tensor's == is elementwise); gone with the tensor.
    ident = id(w)
    _relaid[ident] = (weakref.ref(w, lambda _: _relaid.pop(ident, None)), key, out)
    return out


def relay_filters(gm: torch.fx.GraphModule) -> None:
    """Convolutions whose filter is a graph input take it through
    ``relaid_filter``: the mo graph reads ``[R, S, C, F]`` as it is instead
    of permuting the filter at every call."""
    for node in list(gm.graph.nodes):
        if node.target is not aten.convolution.default:
            continue
        w = node.args[1]
        if not isinstance(w, torch.fx.Node) or w.op != "placeholder" or node.args[6]:
            continue
        val = w.meta.get("val")
        if not isinstance(val, torch.Tensor) or val.dim() != 4:
            continue
        with gm.graph.inserting_before(node):
            relaid = gm.graph.call_function(relaid_filter, (w,))
        relaid.meta["val"] = val.permute(2, 3, 1, 0).contiguous()
        node.target = convolution_rscf
        node.args = (node.args[0], relaid, *node.args[2:])
    gm.recompile()


@converts(aten.convolution_backward.default)
def _convolution_backward(n: torch.fx.Node, dy: Any, x: Any, w: Any, bias_sizes: Any,
                          stride: Sequence[int], padding: Sequence[int],
                          dilation: Sequence[int], transposed: bool,
                          output_padding: Sequence[int], groups: int,
                          output_mask: Sequence[bool]) -> Any:
    """The gradients of a 2-D convolution as convolutions: the input's is the
    transposed convolution of ``dy`` by the filter; the filter's is the
    convolution of the input (images as the batch, batch as channels) by
    ``dy`` (strides and dilations swapped), cut to the filter's size."""
    if x.rank == 3 and not transposed:  # 1-D: the 2-D backward over a unit height
        grads = _convolution_backward(
            n, ops.unsqueeze(dy, 2), ops.unsqueeze(x, 2), ops.unsqueeze(w, 2), bias_sizes,
            [1, *stride], [0, *padding], [1, *dilation], transposed, [0, *output_padding],
            groups, output_mask)
        return tuple(None if g is None else ops.squeeze(g, 2) if g.rank == 4 else g
                     for g in grads)
    if transposed or groups != 1 or x.rank != 4:
        raise Unsupported("the backward of a transposed, grouped or non-2-D convolution")
    stride, padding, dilation = (_spatial(x, v, "window") for v in (stride, padding, dilation))
    r, s = (int(d) for d in w.shape[2:])
    dx = dw = db = None
    if output_mask[0]:
        if not all(d.is_static for d in [*x.shape[2:], *dy.shape[2:]]):
            raise Unsupported("the input gradient of a convolution of symbolic image size")
        extra = [int(x.shape[2 + i]) - ((int(dy.shape[2 + i]) - 1) * stride[i] - 2 * padding[i]
                                         + dilation[i] * ((r, s)[i] - 1) + 1) for i in range(2)]
        dx = ops.conv2d_transpose(dy, w, stride=stride, dilation=dilation, padding=padding,
                                  output_paddings=extra, input_layout=ops.ConvInputLayout.NCHW,
                                  filter_layout=ops.FilterLayout.FCRS)
    if output_mask[1]:
        xc = ops.permute(x, [1, 2, 3, 0])     # [C, H, W, N]: channels as images
        dyf = ops.permute(dy, [2, 3, 0, 1])   # [OH, OW, N, F]: dy as an RSCF filter
        g = ops.conv2d(xc, dyf, stride=dilation, dilation=stride, padding=padding)
        g = ops.slice_tensor(g, (slice(None), slice(0, r), slice(0, s)))  # [C, R, S, F]
        dw = ops.permute(g, [3, 0, 1, 2])
    if output_mask[2]:
        db = _reduce(ops.sum, dy, [0, 2, 3], False)
    return dx, dw, db


def _channel(v: Any, rank: int) -> Any:
    """A per-channel vector shaped to broadcast over NC..."""
    return ops.reshape(v, [v.shape[0]] + [1] * (rank - 2))


def _normalized_rows(v: Any, eps: float) -> tuple[Any, Any, Any]:
    """``v`` normalized along its last dim, with that dim's mean and 1/std
    (kept, size 1): what a layer or group norm and its backward use."""
    mean = ops.mean(v, -1)
    centred = ops.sub(v, mean)
    rstd = ops.rsqrt(ops.add(ops.mean(ops.mul(centred, centred), -1), float(eps)))
    return ops.mul(centred, rstd), mean, rstd


def _batch_norm(x: Any, mean: Any, invstd: Any, weight: Any, bias: Any) -> Any:
    y = ops.mul(ops.sub(x, _channel(mean, x.rank)), _channel(invstd, x.rank))
    if weight is not None:
        y = ops.mul(y, _channel(weight, x.rank))
    if bias is not None:
        y = ops.add(y, _channel(bias, x.rank))
    return y


@converts(aten._native_batch_norm_legit_no_training.default)
def _batch_norm_eval(n: torch.fx.Node, x: Any, weight: Any, bias: Any, running_mean: Any,
                     running_var: Any, momentum: float, eps: float) -> Any:
    invstd = ops.rsqrt(ops.add(running_var, float(eps)))
    return _batch_norm(x, running_mean, invstd, weight, bias), None, None


@converts(aten._native_batch_norm_legit_functional.default)
def _batch_norm_train(n: torch.fx.Node, x: Any, weight: Any, bias: Any, running_mean: Any,
                      running_var: Any, training: bool, momentum: float, eps: float) -> Any:
    if not training:
        raise Unsupported("functional batch norm outside training")
    axes = [0, *range(2, x.rank)]
    count = math.prod(x.shape[a] for a in axes)
    if not count.is_static:
        raise Unsupported("batch norm statistics over symbolic dims")
    count = int(count)
    mean = _reduce(ops.mean, x, axes, False)
    centred = ops.sub(x, _channel(mean, x.rank))
    var = _reduce(ops.mean, ops.mul(centred, centred), axes, False)
    invstd = ops.rsqrt(ops.add(var, float(eps)))
    y = _batch_norm(x, mean, invstd, weight, bias)
    m = float(momentum)
    new_mean = ops.add(ops.mul(running_mean, 1.0 - m), ops.mul(mean, m))
    unbiased = ops.mul(var, count / max(count - 1, 1))
    new_var = ops.add(ops.mul(running_var, 1.0 - m), ops.mul(unbiased, m))
    return y, mean, invstd, new_mean, new_var


@converts(aten.native_layer_norm.default)
def _layer_norm(n: torch.fx.Node, x: Any, shape: Sequence[Any], weight: Any, bias: Any,
                eps: float) -> Any:
    k = len(shape)
    lead = list(x.shape[:x.rank - k])
    flat = ops.reshape(x, [*lead, -1]) if k != 1 else x
    y, mean, rstd = _normalized_rows(flat, eps)
    if k != 1:
        y = ops.reshape(y, list(x.shape))
    if weight is not None:
        y = ops.mul(y, weight)
    if bias is not None:
        y = ops.add(y, bias)
    stats = [*lead] + [1] * k
    return y, ops.reshape(mean, stats), ops.reshape(rstd, stats)


@converts(aten._softmax.default)
def _softmax(n: torch.fx.Node, x: Any, dim: int, half_to_float: bool) -> Any:
    return ops.softmax(_cast(x, _result_dtype(n)), _axis(x, dim))


@converts(aten._log_softmax.default)
def _log_softmax(n: torch.fx.Node, x: Any, dim: int, half_to_float: bool) -> Any:
    return ops.logsoftmax(_cast(x, _result_dtype(n)), _axis(x, dim))


def _nhwc(fn: Callable[[Any], Any], x: Any) -> Any:
    return ops.permute(fn(ops.permute(x, [0, 2, 3, 1])), [0, 3, 1, 2])


@converts(aten.max_pool2d_with_indices.default)
def _max_pool(n: torch.fx.Node, x: Any, kernel: Sequence[int], stride: Sequence[int] = (),
              padding: Sequence[int] = (0,), dilation: Sequence[int] = (1,),
              ceil_mode: bool = False) -> Any:
    if x.rank != 4:
        raise Unsupported("max pooling of a non-2-D input")
    kernel = _spatial(x, kernel, "kernel")
    stride = _spatial(x, stride or kernel, "stride")
    padding, dilation = _spatial(x, padding, "padding"), _spatial(x, dilation, "dilation")
    indices_used = any(u.target is operator.getitem and u.args[1] == 1 and u.users
                       for u in n.users)
    if not indices_used:
        return _nhwc(lambda v: ops.max_pool2d(v, kernel, stride, dilation, padding, ceil_mode),
                     x), None
    return _max_pool_with_indices(x, kernel, stride, padding, dilation, ceil_mode)


def _max_pool_with_indices(x: Any, kernel: list[int], stride: list[int], padding: list[int],
                           dilation: list[int], ceil_mode: bool) -> Any:
    """Max pooling that also gives each maximum's flat index in its ``H * W``
    image (what the backward scatters to): a running maximum over the
    window's offsets, the first maximum winning and NaN propagating, as
    torch's kernel does."""
    import numpy as np

    h, w = x.shape[2], x.shape[3]
    if ceil_mode or not (h.is_static and w.is_static):
        raise Unsupported("max pooling indices with ceil_mode or a symbolic image size")
    h, w = int(h), int(w)
    out = [(size + 2 * p - d * (k - 1) - 1) // s + 1
           for size, p, d, k, s in zip((h, w), padding, dilation, kernel, stride)]
    padded = ops.pad(x, [0, 0, 0, 0, padding[0], padding[0], padding[1], padding[1]],
                     value=float("-inf"))
    best = index = None
    for kh in range(kernel[0]):
        for kw in range(kernel[1]):
            r0, c0 = kh * dilation[0], kw * dilation[1]
            value = ops.slice_tensor(padded, (
                slice(None), slice(None),
                slice(r0, r0 + stride[0] * (out[0] - 1) + 1, stride[0]),
                slice(c0, c0 + stride[1] * (out[1] - 1) + 1, stride[1])))
            rows = np.arange(out[0]) * stride[0] - padding[0] + r0
            cols = np.arange(out[1]) * stride[1] - padding[1] + c0
            at = ops.constant((rows[:, None] * w + cols[None, :]).astype(np.int64))
            if best is None:
                best, index = value, ops.broadcast_to(at, list(value.shape))
                continue
            wins = ops.logical_or(ops.greater(value, best), ops.is_nan(value))
            best, index = ops.where(wins, value, best), ops.where(wins, at, index)
    return best, index


@converts(aten.max_pool2d_with_indices_backward.default)
def _max_pool_backward(n: torch.fx.Node, dy: Any, x: Any, *window: Any) -> Any:
    """Each output's gradient added at its maximum's index."""
    indices = window[-1]
    n_, c = x.shape[0], x.shape[1]
    flat = [n_, c, -1]
    zeros = _scalar_tensor_of(0.0, dy.dtype, [n_, c, math.prod(x.shape[2:])])
    dx = ops.scatter_add(zeros, ops.reshape(dy, flat), ops.reshape(indices, flat), axis=2)
    return ops.reshape(dx, list(x.shape))


@converts(aten.avg_pool2d.default)
def _avg_pool(n: torch.fx.Node, x: Any, kernel: Sequence[int], stride: Sequence[int] = (),
              padding: Sequence[int] = (0,), ceil_mode: bool = False,
              count_include_pad: bool = True, divisor_override: Any = None) -> Any:
    if divisor_override is not None or x.rank != 4:
        raise Unsupported("avg pooling with a divisor override or not 2-D")
    kernel = _spatial(x, kernel, "kernel")
    stride = _spatial(x, stride or kernel, "stride")
    return _nhwc(lambda v: ops.avg_pool2d(v, kernel, stride, 1, _spatial(x, padding, "padding"),
                                          ceil_mode, count_include_pad), x)


@converts(aten._adaptive_avg_pool2d.default)
def _adaptive_avg_pool(n: torch.fx.Node, x: Any, output_size: Sequence[int]) -> Any:
    oh, ow = _spatial(x, output_size, "output size")
    h, w = x.shape[-2], x.shape[-1]
    if (oh, ow) == (1, 1):
        return _reduce(ops.mean, x, [x.rank - 2, x.rank - 1], True)
    if not (h.is_static and w.is_static) or int(h) % oh or int(w) % ow or x.rank != 4:
        raise Unsupported("adaptive pooling to a size that does not divide the input")
    kernel = [int(h) // oh, int(w) // ow]
    return _nhwc(lambda v: ops.avg_pool2d(v, kernel, kernel), x)


@converts(aten.native_group_norm.default)
def _group_norm(n: torch.fx.Node, x: Any, weight: Any, bias: Any, batch: Any, channels: Any,
                spatial: Any, groups: int, eps: float) -> Any:
    """Each group of channels (with the spatial dims) normalized; the mean
    and 1/std per (image, group) for the backward."""
    shape = list(x.shape)
    y, mean, rstd = _normalized_rows(ops.reshape(x, [shape[0], int(groups), -1]), eps)
    y = ops.reshape(y, shape)
    if weight is not None:
        y = ops.mul(y, _channel(weight, x.rank))
    if bias is not None:
        y = ops.add(y, _channel(bias, x.rank))
    return y, _drop(mean, [2]), _drop(rstd, [2])


@converts(aten.cumsum.default)
def _cumsum(n: torch.fx.Node, x: Any, dim: int, *, dtype: Any = None) -> Any:
    return ops.cumsum(_cast(x, _result_dtype(n)), _axis(x, dim))


@converts(aten.flip.default)
def _flip(n: torch.fx.Node, x: Any, dims: Sequence[int]) -> Any:
    axes = {_axis(x, d) for d in dims}
    return ops.slice_tensor(x, tuple(slice(None, None, -1) if i in axes else slice(None)
                                     for i in range(x.rank)))


@converts(aten.elu.default)
def _elu(n: torch.fx.Node, x: Any, alpha: float = 1.0, scale: float = 1.0,
         input_scale: float = 1.0) -> Any:
    negative = ops.mul(ops.sub(ops.exp(ops.mul(x, float(input_scale))), 1.0), float(alpha))
    return ops.mul(ops.where(ops.greater(x, 0.0), x, negative), float(scale))


@converts(aten.topk.default)
def _topk(n: torch.fx.Node, x: Any, k: int, dim: int = -1, largest: bool = True,
          sorted: bool = True) -> Any:  # noqa: A002
    if not sorted:
        raise Unsupported("topk without sorting (torch's order is unspecified)")
    fn = ops.top_k if largest else ops.bottom_k
    return tuple(fn(x, int(_scalar(k)), _axis(x, dim)))


@converts(aten.native_dropout.default)
def _dropout(n: torch.fx.Node, x: Any, p: float, train: bool | None) -> Any:
    if train and p > 0:
        raise Unsupported("dropout with p > 0 in training (its random mask is torch's)")
    return x, _scalar_tensor_of(True, DType.bool, x.shape)


# -- decompositions -------------------------------------------------------------------------


def _transformer_encoder_layer_fwd(src: torch.Tensor, embed_dim: int, num_heads: int,
                                   qkv_weight: torch.Tensor, qkv_bias: torch.Tensor,
                                   proj_weight: torch.Tensor, proj_bias: torch.Tensor,
                                   use_gelu: bool, norm_first: bool, eps: float,
                                   norm_weight_1: torch.Tensor, norm_bias_1: torch.Tensor,
                                   norm_weight_2: torch.Tensor, norm_bias_2: torch.Tensor,
                                   ffn_weight_1: torch.Tensor, ffn_bias_1: torch.Tensor,
                                   ffn_weight_2: torch.Tensor, ffn_bias_2: torch.Tensor,
                                   mask: Any = None, mask_type: Any = None) -> torch.Tensor:
    """``nn.TransformerEncoderLayer``'s inference fast path in plain ops (the
    fused kernel is torch's alone); a mask or a batch that is not 3-D keeps
    the fused kernel."""
    if mask is not None or src.dim() != 3:
        return NotImplemented
    import torch.nn.functional as F

    def attention(x: torch.Tensor) -> torch.Tensor:
        b, s, _ = x.shape
        q, k, v = F.linear(x, qkv_weight, qkv_bias).chunk(3, dim=-1)
        heads = [t.reshape(b, s, num_heads, embed_dim // num_heads).transpose(1, 2)
                 for t in (q, k, v)]
        y = F.scaled_dot_product_attention(*heads)
        return F.linear(y.transpose(1, 2).reshape(b, s, embed_dim), proj_weight, proj_bias)

    def ffn(x: torch.Tensor) -> torch.Tensor:
        h = F.linear(x, ffn_weight_1, ffn_bias_1)
        h = F.gelu(h) if use_gelu else F.relu(h)
        return F.linear(h, ffn_weight_2, ffn_bias_2)

    norm1 = lambda x: F.layer_norm(x, (embed_dim,), norm_weight_1, norm_bias_1, eps)  # noqa: E731
    norm2 = lambda x: F.layer_norm(x, (embed_dim,), norm_weight_2, norm_bias_2, eps)  # noqa: E731
    if norm_first:
        x = src + attention(norm1(src))
        return x + ffn(norm2(x))
    x = norm1(src + attention(src))
    return norm2(x + ffn(x))


@functools.lru_cache(maxsize=1)
def decompositions() -> dict[Any, Callable[..., Any]]:
    """torch's core aten decompositions, plus mo's for fused ops torch keeps
    whole (built once: 20 ms a graph otherwise)."""
    from torch._decomp import core_aten_decompositions

    table = dict(core_aten_decompositions())
    table[aten._transformer_encoder_layer_fwd.default] = _transformer_encoder_layer_fwd
    return table
