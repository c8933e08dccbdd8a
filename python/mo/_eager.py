"""Eager execution: each op runs as a tiny compiled graph, cached per op,
input types and static arguments (so eager loops are fast after warm-up)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from mo.driver import Buffer

# Compiled ops by (op, input types, static arguments); least recently used
# entries go first once they take more than MO_EAGER_CACHE_MB (default 64).
# An entry takes its artifact plus about 160 KiB of linked code and the JIT's
# own structures (measured: 100 distinct tiny ops grew the process by 16 MB),
# so the default holds about 400 tiny ops.
_cache: OrderedDict[Any, Any] = OrderedDict()
_cache_bytes = 0
_ENTRY_OVERHEAD = 160 << 10


def _cache_limit() -> int:
    import os

    try:
        return int(float(os.environ.get("MO_EAGER_CACHE_MB", "64")) * (1 << 20))
    except ValueError:
        raise ValueError("MO_EAGER_CACHE_MB: expected a number of megabytes, got "
                         f"{os.environ['MO_EAGER_CACHE_MB']!r}") from None


def _key_part(x: Any) -> Any:
    from mo.tensor import Tensor

    if isinstance(x, Tensor):
        return ("T", x.dtype, tuple(x.buffer().shape), x.device)
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(_key_part(i) for i in x))
    if isinstance(x, np.ndarray):
        return ("A", x.dtype.str, x.shape, x.tobytes())
    # repr keeps what == merges: 0.0 vs -0.0, 1 vs 1.0 vs True.
    return ("S", type(x).__name__, repr(x))


def _scalars_as_tensors(name: str, args: tuple) -> tuple:
    """A binary op's Python scalar operand as a 0-d tensor of the other
    operand's dtype (checked by the scalar promotion rule), so one compiled op
    serves every value: `x * float(i)` in a loop compiles once."""
    from mo.dtype import promote_scalar
    from mo.graph import ops
    from mo.tensor import Tensor

    if name not in ops._BINARY or len(args) != 2:
        return args
    a, b = args
    for scalar, tensor in ((a, b), (b, a)):
        if isinstance(tensor, Tensor) and isinstance(scalar, (int, float)) and \
                not isinstance(scalar, bool):
            try:
                dtype = promote_scalar(tensor.dtype, scalar)
            except TypeError:
                return args  # the graph op raises the documented error
            value = Tensor(np.array(scalar, dtype.to_numpy()))
            return (value, b) if scalar is a else (a, value)
    return args


def run(name: str, args: tuple, kwargs: dict) -> Any:
    """Runs op ``name`` of ``mo.graph.ops`` on eager arguments."""
    global _cache_bytes
    from mo.tensor import Tensor

    args = _scalars_as_tensors(name, args)
    from mo.compiler import num_threads

    key = (name, num_threads(), tuple(_key_part(a) for a in args),
           tuple(sorted((k, _key_part(v)) for k, v in kwargs.items())))
    entry = _cache.get(key)
    if entry is None:
        entry = _cache[key] = _compile(name, args, kwargs)
        _cache_bytes += entry[3]
        limit = _cache_limit()
        while _cache_bytes > limit and len(_cache) > 1:
            _cache_bytes -= _cache.popitem(last=False)[1][3]
    else:
        _cache.move_to_end(key)
    exe, out_types, returns_list, _ = entry
    inputs = [np.asarray(a.to_numpy(), order="C") for a in _tensors(args)]
    # The runtime sizes the results (those ops size by the data cut to it).
    results = [Tensor(Buffer.from_numpy(o)) for o in exe.execute(inputs)]
    return results if returns_list else results[0]


def _tensors(args: Any) -> list:
    """The Tensors among ``args``, lists and tuples of them included, in order."""
    from mo.tensor import Tensor

    if isinstance(args, Tensor):
        return [args]
    if isinstance(args, (list, tuple)):
        return [t for a in args for t in _tensors(a)]
    return []


def _substitute(args: Any, values: Any) -> Any:
    """``args`` with each Tensor replaced by the next of ``values``."""
    from mo.tensor import Tensor

    if isinstance(args, Tensor):
        return next(values)
    if isinstance(args, (list, tuple)):
        return type(args)(_substitute(a, values) for a in args)
    return args


def _compile(name: str, args: tuple, kwargs: dict):
    from mo.compiler import Executable
    from mo.graph import ops
    from mo.graph.graph import Graph
    from mo.graph.type import DeviceRef, TensorType

    tensors = _tensors(args)
    types = [TensorType(t.dtype, list(t.buffer().shape), DeviceRef.from_device(t.device))
             for t in tensors]
    with Graph(f"eager_{name}", types) as g:
        call_args = _substitute(args, iter(g.inputs))
        out = getattr(ops, name)(*call_args, **kwargs)
        outs = out if isinstance(out, list) else [out]
        g.output(*outs)
    exe = Executable(g.module)
    return exe, [o.type for o in outs], isinstance(out, list), \
        len(exe._model.data) + _ENTRY_OVERHEAD
