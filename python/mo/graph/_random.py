"""Random tensors (MAX's ``ops.random``): ``set_seed``, ``uniform``,
``normal``/``gaussian``; ``mo.graph.ops.random`` is this module.

Each random op of a graph draws from (seed, counter): the graph's seed (0
until ``set_seed``) and the op's position among the graph's random ops, so
a graph is deterministic and its ops independent. ``F.uniform`` and friends
outside a trace count eagerly in the same way from ``F.set_seed``: the k-th
call after ``set_seed(s)`` gives the numbers of the k-th random op of a
graph seeded with ``s``.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from mo.dtype import DType
from mo.graph.dim import Dim
from mo.graph.graph import Graph, TensorValue, mlir_type
from mo.graph.ops import _mo, add, as_tensor_value, build, cast, mul, op_error
from mo.graph.type import DeviceRef, TensorType


class _Stream:
    """A graph's seed (a 0-d int64 value) and its next counter."""

    def __init__(self) -> None:
        self.seed: TensorValue | None = None
        self.counter = 0


def _stream(graph: Graph) -> _Stream:
    stream = getattr(graph, "_random_stream", None)
    if stream is None:
        stream = graph._random_stream = _Stream()
    return stream


def set_seed(seed: Any) -> None:
    """Seeds the random ops built after it in the current graph (an int or a
    0-d integer tensor, so that a seed can be a graph input)."""
    graph = Graph.current()
    with graph:
        value = seed if isinstance(seed, numbers.Integral) else as_tensor_value(seed)
        if isinstance(value, TensorValue) and (value.rank != 0 or not value.dtype.is_integral):
            raise ValueError(f"set_seed: the seed must be an int or a 0-d integer tensor, got "
                             f"{value.dtype.name}{value.shape}")
        s = _stream(graph)
        s.seed = cast(as_tensor_value(np.int64(seed) if isinstance(seed, numbers.Integral)
                                      else value), DType.int64)
        s.counter = 0


def _like(name: str, like: Any, dtype: DType | None, device: DeviceRef | None) -> TensorType:
    if isinstance(like, TensorType):
        return like
    if hasattr(like, "to_type"):  # a TensorLayout
        return like.to_type()
    shape = [like] if isinstance(like, (numbers.Integral, str, Dim)) else list(like)
    dtype = dtype or DType.float32
    if not dtype.is_float:
        raise ValueError(f"{name}: random values are floating-point, got dtype {dtype.name}")
    return TensorType(dtype, [Dim(d) for d in shape], device or DeviceRef.CPU())


def _random(name: str, distribution: str, like: TensorType, seed: Any = None,
            counter: Any = None) -> TensorValue:
    """One mo.random; ``seed``/``counter`` (0-d int64 values) default to the
    graph's stream."""
    from mo._mlir import ir

    graph = Graph.current()
    if not like.dtype.is_float:
        raise op_error(name, [like], f"random values are floating-point, got {like.dtype.name}")
    with graph:
        if seed is None:
            stream = _stream(graph)
            seed = stream.seed if stream.seed is not None else \
                as_tensor_value(np.int64(0), device=like.device)
            counter = as_tensor_value(np.int64(stream.counter), device=like.device)
            stream.counter += 1
    return build(name, [like], graph, lambda: _mo().RandomOp(
        mlir_type(like), ir.Attribute.parse(f"#mo<distribution {distribution}>"),
        seed._value, counter._value), verify=True)


def _scaled(x: TensorValue, distribution: str, a: float, b: float) -> TensorValue:
    """Standard draws moved to ``[a, b)`` (uniform) or to mean ``a``, std
    ``b`` (normal)."""
    if (a, b) == (0.0, 1.0):
        return x
    scale = float(b) - float(a) if distribution == "uniform" else float(b)
    return add(mul(x, scale), float(a))


def uniform(like: Any = (), range: tuple[float, float] = (0.0, 1.0), *,  # noqa: A002
            dtype: DType | None = None, device: DeviceRef | None = None) -> TensorValue:
    """Uniform values in ``[low, high)`` of ``like``'s type (a ``TensorType``,
    or a shape with ``dtype``, float32 by default)."""
    t = _like("uniform", like, dtype, device)
    return _scaled(_random("uniform", "uniform", t), "uniform", *range)


def normal(like: Any = (), mean: float = 0.0, std: float = 1.0, *,
           dtype: DType | None = None, device: DeviceRef | None = None) -> TensorValue:
    """Normal values (Box-Muller) with ``mean`` and ``std``, of ``like``'s type."""
    t = _like("normal", like, dtype, device)
    return _scaled(_random("normal", "normal", t), "normal", mean, std)


gaussian = normal


def seeded(seed: TensorValue, counter: TensorValue, distribution: str, shape: tuple,
           dtype: DType, a: float, b: float) -> TensorValue:
    """A random tensor from explicit 0-d int64 ``seed``/``counter`` values,
    scaled to ``[a, b)`` (uniform) or ``mean a, std b`` (normal): what the
    eager ``F.uniform``/``F.normal`` run, one compiled graph for every call."""
    like = TensorType(dtype, [Dim(d) for d in shape], DeviceRef.CPU())
    return _scaled(_random(distribution, distribution, like, seed, counter), distribution, a, b)
