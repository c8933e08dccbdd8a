"""Functional ops on ``Tensor``s (MAX ``max.experimental.functional``, ``F``).

Each function is the graph op of the same name in ``mo.graph.ops``: inside a
trace it builds that op; outside it runs eagerly (compiled once per input
types, then cached).

Example:
    >>> from mo import functional as F
    >>> from mo.tensor import Tensor
    >>> F.relu(Tensor([-1.0, 2.0])).to_numpy().tolist()
    [0.0, 2.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mo import _capture
from mo.dtype import DType
from mo.graph import ops as _ops
from mo.tensor import Tensor

# The ops F exposes; each maps Tensor arguments to graph values and back.
_OPS = [*_ops._BINARY, *_ops._UNARY, *_ops._REDUCE, "maximum", "minimum", "negate", "matmul",
        "reshape", "cast", "cumsum", "where", "select", "clamp", "clip", "softmax", "logsoftmax",
        "layer_norm", "rms_norm", "group_norm", "concat", "stack", "split", "chunk",
        "squeeze", "unsqueeze", "flatten", "outer", "floor_div", "pad", "tile",
        "repeat_interleave", "conv2d", "conv3d", "conv2d_transpose", "max_pool2d", "avg_pool2d",
        "fold", "gather", "gather_nd", "scatter", "scatter_add", "scatter_max", "scatter_min",
        "scatter_mul", "scatter_nd", "scatter_nd_add", "scatter_nd_max", "scatter_nd_min",
        "scatter_nd_mul", "masked_scatter", "top_k", "bottom_k", "argsort", "range",
        "shape_to_tensor", "rebind", "band_part", "hann_window", "resize", "resize_nearest",
        "resize_linear", "resize_bicubic", "custom", "as_interleaved_complex", "irfft",
        "transfer_to", "roi_align", "nonzero", "non_maximum_suppression",
        "broadcast_to", "dequantize", "qmatmul", "permute", "transpose", "slice_tensor"]

__all__ = [*_OPS, "arange", "buffer_store", "cond", "constant", "constant_external", "full",
           "gaussian", "inplace_custom", "lazy", "normal", "ones", "print", "set_seed", "uniform",
           "while_loop", "zeros"]


def _to_value(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return type(x)(_to_value(v) for v in x)
    return x._graph_value() if isinstance(x, Tensor) else x


def _apply(name: str, args: tuple, kwargs: dict) -> Any:
    if _capture.current() is not None:
        out = getattr(_ops, name)(*[_to_value(a) for a in args], **kwargs)
        if isinstance(out, list):
            return [Tensor._from_value(v) for v in out]
        return Tensor._from_value(out)
    from mo import _eager

    return _eager.run(name, args, kwargs)


def _make(name: str):
    def fn(*args: Any, **kwargs: Any) -> Tensor:
        return _apply(name, args, kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = getattr(_ops, name).__doc__
    return fn


for _name in _OPS:
    globals()[_name] = _make(_name)
del _name


def constant(value: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """A constant tensor (inside a trace: baked into the graph)."""
    if _capture.current() is None:
        return Tensor(value, dtype=dtype, device=device)
    return Tensor._from_value(_ops.constant(value, dtype, device))


def full(shape: Any, value: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """A tensor of static ``shape`` filled with ``value`` (float32 by default; in
    a trace, a splat constant)."""
    dtype = dtype or DType.float32
    return constant(np.full(tuple(int(d) for d in shape), value, dtype.to_numpy()), dtype,
                    device)


def ones(shape: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """``full(shape, 1)``."""
    return full(shape, 1, dtype, device)


def zeros(shape: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """``full(shape, 0)``."""
    return full(shape, 0, dtype, device)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None,
           device: Any = None) -> Tensor:
    """Evenly spaced values in ``[start, stop)`` (numpy's ``arange``; static)."""
    dtype = dtype or DType.float32
    lo, hi = (0, start) if stop is None else (start, stop)
    return constant(np.arange(lo, hi, step, dtype=dtype.to_numpy()), dtype, device)


def _tensors_out(values: Any) -> list:
    return [Tensor._from_value(v) for v in values]


def _traced_fn(fn: Any):
    """``fn`` on graph values: Tensors in, graph values out."""
    def traced(*values: Any) -> Any:
        out = fn(*[Tensor._from_value(v) for v in values])
        if isinstance(out, (list, tuple)):
            return [_to_value(o) for o in out]
        return None if out is None else _to_value(out)

    return traced


def cond(pred: Any, out_types: Any, then_fn: Any, else_fn: Any) -> list:
    """``then_fn()`` if ``pred`` holds, else ``else_fn()`` (``ops.cond``); outside
    a trace the chosen function simply runs."""
    if _capture.current() is not None:
        return _tensors_out(_ops.cond(_to_value(pred), out_types, _traced_fn(then_fn),
                                      _traced_fn(else_fn)))
    out = then_fn() if bool(np.asarray(pred.to_numpy() if isinstance(pred, Tensor) else pred)) \
        else else_fn()
    return [] if out is None else list(out) if isinstance(out, (list, tuple)) else [out]


def while_loop(initial_values: Any, predicate: Any, body: Any) -> list:
    """``values = body(*values)`` while ``predicate(*values)`` (``ops.while_loop``);
    outside a trace, a Python loop over eager ops."""
    values = list(initial_values) if isinstance(initial_values, (list, tuple)) \
        else [initial_values]
    if _capture.current() is not None:
        return _tensors_out(_ops.while_loop([_to_value(v) for v in values],
                                            _traced_fn(predicate), _traced_fn(body)))
    while bool(np.asarray(predicate(*values).to_numpy())):
        out = body(*values)
        values = list(out) if isinstance(out, (list, tuple)) else [out]
    return values


class _EagerStream:
    """The seed and counter of eager random calls (see ``mo.graph._random``)."""

    seed = 0
    counter = 0


def set_seed(seed: int) -> None:
    """Seeds the random ops that follow: in a trace, the graph's; outside,
    the eager calls' (their counter restarts)."""
    if _capture.current() is not None:
        _ops.random.set_seed(_to_value(seed))
        return
    _EagerStream.seed, _EagerStream.counter = int(seed), 0


def _random(distribution: str, shape: Any, a: float, b: float, dtype: Any,
            device: Any) -> Tensor:
    dtype = dtype or DType.float32
    if _capture.current() is not None:
        fn = _ops.random.uniform if distribution == "uniform" else _ops.random.normal
        args = {"range": (a, b)} if distribution == "uniform" else {"mean": a, "std": b}
        return Tensor._from_value(fn(shape, **args, dtype=dtype, device=device))
    from mo import _eager

    if not dtype.is_float:
        raise ValueError(f"{distribution}: random values are floating-point, got dtype "
                         f"{dtype.name}")
    shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
    seed, counter = _EagerStream.seed, _EagerStream.counter
    _EagerStream.counter += 1
    return _eager.run("_seeded_random", (Tensor(np.array(seed, np.int64)),
                                         Tensor(np.array(counter, np.int64)),
                                         distribution, shape, dtype, float(a), float(b)), {})


def uniform(shape: Any = (), range: tuple = (0.0, 1.0), *,  # noqa: A002 (MAX's name)
            dtype: Any = None, device: Any = None) -> Tensor:
    """Uniform values in ``range`` = ``[low, high)`` (float32 by default)."""
    return _random("uniform", shape, *range, dtype, device)


def normal(shape: Any = (), mean: float = 0.0, std: float = 1.0, *, dtype: Any = None,
           device: Any = None) -> Tensor:
    """Normal values with ``mean`` and ``std`` (float32 by default)."""
    return _random("normal", shape, mean, std, dtype, device)


gaussian = normal


def constant_external(name: str, layout: Any, is_placeholder: bool = False) -> Tensor:
    """A named weight of ``layout``, bound from ``compile(..., weights={name: array})``.

    With ``is_placeholder=True`` the name is relative to the calling
    ``as_subgraph(..., prefix=...)``.
    """
    from mo.sharding import TensorLayout

    if isinstance(layout, TensorLayout):  # also BufferLayout: ops rejects it
        layout = layout.to_type()
    if _capture.current() is None:
        raise RuntimeError("constant_external names a weight of a compiled graph: call it inside "
                           "a function given to compilation.compile/stage")
    return Tensor._from_value(_ops.constant_external(name, layout, is_placeholder))


def print(value: Any, label: str = "debug_tensor") -> None:  # noqa: A001 (MAX's name)
    """Prints ``value`` (``ops.print``): when the traced graph runs, or at once
    outside a trace, as ``label: <values>``."""
    if _capture.current() is not None:
        _ops.print(value if isinstance(value, str) else _to_value(value), label)
        return
    import builtins

    builtins.print(value if isinstance(value, str) else f"{label}: {value.to_numpy()}",
                   flush=True)


def inplace_custom(name: str, device: Any, values: Any, out_types: Any = None,
                   parameters: Any = None) -> None:
    """Calls a user kernel that writes into buffer arguments (``ops.inplace_custom``);
    buffers of the traced function are passed as buffers, not snapshots."""
    from mo.graph.graph import BufferValue

    if _capture.current() is None:
        raise RuntimeError("inplace_custom runs a kernel of the compile's custom_extensions: "
                           "call it inside a function given to compilation.compile")
    operands = [v._value if isinstance(v, Tensor) and isinstance(v._value, BufferValue)
                else _to_value(v) for v in values]
    _ops.inplace_custom(name, device, operands, out_types, parameters)


def buffer_store(buffer: Tensor, value: Any, index: Any = None) -> None:
    """Writes ``value`` into ``buffer`` (or ``buffer[index]``).

    Inside a trace the buffer must be a ``BufferLayout`` argument (writing to a
    ``TensorLayout`` argument is a ``TypeError``); outside, the eager buffer is
    written in place.
    """
    if _capture.current() is not None:
        if not isinstance(buffer, Tensor) or buffer._value is None:
            raise TypeError("buffer_store: expected a buffer argument of the traced function")
        _ops.buffer_store(buffer._value, _to_value(value), index)
        return
    if not isinstance(buffer, Tensor):
        raise TypeError(f"buffer_store: expected a Tensor, got {type(buffer).__name__}")
    target = buffer.to_numpy()
    if not target.flags.writeable:
        raise TypeError("buffer_store: the tensor's memory is read-only")
    source = value.to_numpy() if isinstance(value, Tensor) else value
    if index is None:
        target[...] = source
    else:
        target[index] = source


def lazy():
    """Not supported yet: every eager op runs immediately."""
    raise NotImplementedError("F.lazy() is not supported yet: eager ops run immediately")
