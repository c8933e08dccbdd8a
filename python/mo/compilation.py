"""Trace, compile and run Python functions (MAX ``max.experimental.compilation``).

``stage(fn)(*specs, **static)`` traces ``fn`` into a mo module;
``compile(fn, weights=...)(*specs, **static)`` also compiles it into a
``CompiledCallable``. ``as_subgraph`` shares a block's body between its call
sites as a ``mo.graph``/``mo.call`` pair.

Example:
    >>> from mo.driver import CPU
    >>> from mo.dtype import DType, promote_scalar
    >>> from mo.sharding import TensorLayout
    >>> from mo.tensor import Tensor
    >>> def step(x, *, gain):
    ...     return x * gain
    >>> run = compile(step)(TensorLayout(DType.float32, ["batch", 2], CPU()), gain=3.0)
    >>> run(Tensor.ones([4, 2]), gain=3.0).to_numpy().tolist()
    [[3.0, 3.0], [3.0, 3.0], [3.0, 3.0], [3.0, 3.0]]
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import numbers
import os
import re
import types as _types
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from mo import _capture, _pytree
from mo.driver import CPU, Buffer
from mo.dtype import DType, promote_scalar
from mo.graph.type import BufferType, TensorType
from mo.sharding import BufferLayout, DimBindings, TensorLayout, as_layout
from mo.tensor import Tensor

__all__ = ["CompiledCallable", "StagedGraph", "as_subgraph", "compile", "stage"]


def _graph_name(fn: Callable, name: str | None) -> str:
    if name is not None:
        return name
    return re.sub(r"\W+", "_", getattr(fn, "__name__", "fn")).strip("_") or "fn"


def _is_spec_leaf(x: Any) -> bool:
    # Arrays and live Tensors are leaves so that as_layout explains the fix.
    return isinstance(x, (TensorLayout, TensorType, BufferType, Tensor, np.ndarray)) or (
        hasattr(x, "__dlpack__"))


def _argument_name(path: str) -> str:
    """MAX's argument names: '0', '0.a' for positional, 'gain' for keyword."""
    return path.split(".", 1)[1] if "." in path else path


def _unsupported(**options: Any) -> None:
    for key, value in options.items():
        if value:
            raise NotImplementedError(f"{key}={value!r} is not supported yet (single-device CPU)")


# -- staging ------------------------------------------------------------------------------


class StagedGraph:
    """A traced function: its mo module, signature and argument trees.

    ``str()`` and ``repr()`` print the whole module, every subgraph included.
    """

    def __init__(self, fn: Callable, graph: Any, in_layouts: list[TensorLayout],
                 in_tree: _pytree.TreeDef, out_layouts: list[TensorLayout],
                 out_tree: _pytree.TreeDef) -> None:
        self.fn = fn
        self.graph = graph
        self.in_layouts = in_layouts
        self.in_tree = in_tree
        self.out_layouts = out_layouts
        self.out_tree = out_tree

    def compile(self, weights: Mapping[str, Any] | None = None) -> CompiledCallable:
        """Compiles the module; ``weights`` are bound (and checked) at the first call."""
        return CompiledCallable(self, weights)

    def __str__(self) -> str:
        return str(self.graph.module)

    __repr__ = __str__


def _trace(fn: Callable, graph: Any, args_tree: _pytree.TreeDef, allow_subgraphs: bool,
           subgraphs: dict, what: str) -> tuple[list[Any], _pytree.TreeDef]:
    """Runs ``fn`` on ``graph``'s inputs; returns its output values and tree."""
    from mo.graph.graph import Value

    with _capture.Capture(graph, allow_subgraphs, subgraphs):
        args, kwargs = args_tree.unflatten([Tensor._from_value(v) for v in graph.inputs])
        result = fn(*args, **kwargs)
        leaves, out_tree = _pytree.flatten(result, is_leaf=lambda x: isinstance(x, Tensor))
        bad = _static_paths(out_tree)
        if bad or not leaves:
            path, value = bad[0] if bad else ("", result)
            kind = "a graph value" if isinstance(value, Value) else type(value).__name__
            where = f" at '{path}'" if path else ""
            raise TypeError(f"{what} must return Tensors (or a pytree of them), got {kind}{where}"
                            + ("; wrap graph values with Tensor" if isinstance(value, Value)
                               else ""))
        graph.output(*[t._graph_value() for t in leaves])
    return leaves, out_tree


def _static_paths(tree: _pytree.TreeDef, path: str = "") -> list[tuple[str, Any]]:
    if tree.kind == "static":
        return [(path, tree.meta)]
    keys = tree.keys if tree.kind in ("dict", "namedtuple") else range(len(tree.children))
    found = []
    for key, child in zip(keys, tree.children):
        found += _static_paths(child, f"{path}.{key}" if path else str(key))
    return found


def stage(fn: Callable, *, name: str | None = None, custom_extensions: Any = (),
          allow_subgraphs: bool = True, signal_devices: Any = (),
          is_device_graph: bool = False) -> Callable[..., StagedGraph]:
    """Traces ``fn`` for the given argument specs: ``stage(fn)(*specs, **static)``.

    Specs are ``TensorLayout``/``BufferLayout`` (or ``TensorType``/``BufferType``);
    any other leaf is a static argument baked into the graph.
    """
    if not callable(fn):
        raise TypeError(f"expected a function to trace, got {type(fn).__name__}")
    _unsupported(signal_devices=signal_devices)
    extensions = [custom_extensions] if isinstance(custom_extensions, (str, os.PathLike)) \
        else list(custom_extensions)

    def staged(*specs: Any, **static: Any) -> StagedGraph:
        from mo.graph.graph import Graph

        leaves, tree = _pytree.flatten((specs, static), is_leaf=_is_spec_leaf)
        layouts = []
        for path, leaf in zip(tree.leaf_paths, leaves):
            try:
                layouts.append(as_layout(leaf))
            except TypeError as e:
                raise TypeError(f"argument {_argument_name(path)}: {e}") from None
        graph = Graph(_graph_name(fn, name), [layout.to_type() for layout in layouts])
        outs, out_tree = _trace(fn, graph, tree, allow_subgraphs, {}, "a staged function")
        graph.verify()
        out_layouts = [v.type.to_layout() for v in graph.outputs]
        staged = StagedGraph(fn, graph, layouts, tree, out_layouts, out_tree)
        staged.custom_extensions = extensions
        return staged

    return staged


# -- running ------------------------------------------------------------------------------


def _as_array(x: Any, what: str) -> np.ndarray:
    if isinstance(x, (Tensor, Buffer)):
        return x.to_numpy()
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "__dlpack__"):
        return _from_dlpack(x, what)
    raise TypeError(f"{what}: expected a Tensor or Buffer, got {type(x).__name__}")


def _from_dlpack(x: Any, what: str) -> np.ndarray:
    """A DLPack producer's data as a numpy array, without a copy. torch's
    cases DLPack cannot carry (bfloat16, which numpy reads as ml_dtypes'
    through an int16 view) or refuses (a tensor that requires grad, one on
    another device or not strided) are named, with the argument."""
    if type(x).__module__.split(".")[0] == "torch":
        import torch

        if x.layout != torch.strided:
            raise ValueError(f"{what}: expected a dense tensor, got a torch tensor with "
                             f"layout {x.layout} (call .to_dense() first)")
        if x.device.type != "cpu":
            raise ValueError(f"{what}: expected a tensor on cpu:0, got a torch tensor on "
                             f"{x.device}")
        if x.requires_grad:
            raise ValueError(f"{what}: got a torch tensor that requires grad; mo reads "
                             "data, not autograd graphs: pass tensor.detach()")
        if x.dtype == torch.bfloat16:
            from mo.dtype import _bfloat16_type

            return np.from_dlpack(x.view(torch.int16)).view(_bfloat16_type())
    try:
        return np.from_dlpack(x)
    except (BufferError, RuntimeError, TypeError, ValueError) as e:
        raise ValueError(f"{what}: cannot read {type(x).__name__} through DLPack ({e})") \
            from None


class CompiledCallable:
    """A staged function compiled to native code.

    Calling it checks every argument against its layout (dtype, shape, device,
    symbolic dims consistent across arguments) before anything runs.
    """

    def __init__(self, staged: StagedGraph, weights: Mapping[str, Any] | None = None) -> None:
        from mo.compiler import Executable

        self.staged = staged
        self.in_layouts = staged.in_layouts
        self.out_layouts = staged.out_layouts
        self.in_tree = staged.in_tree
        self.out_tree = staged.out_tree
        # Per-call constants: argument names, which arguments are buffers.
        self._arg_names = [_argument_name(p) for p in self.in_tree.leaf_paths]
        self._exe = Executable(staged.graph.module,
                               custom_extensions=getattr(staged, "custom_extensions", ()),
                               input_names=self._arg_names)
        self.compile_seconds = self._exe.compile_seconds
        self._is_buffer = [isinstance(lay, BufferLayout) for lay in self.in_layouts]
        self._has_buffers = any(self._is_buffer)
        self._weights_given = _weights_mapping(weights, "weights")
        self.weights = _types.MappingProxyType(self._weights_given)
        self._weight_arrays: list[np.ndarray] | None = None
        self._fast = _FastSignature.build(self.in_tree, self.in_layouts)
        self._out_dtypes = [layout.dtype for layout in self.out_layouts]
        self._single_output = self.out_tree.kind == "leaf"

    def export_mef(self, path: str | os.PathLike) -> None:
        """Writes the compiled graph as a mo executable (``.mef``): its
        signature, the module as lowered to linalg (MLIR bytecode) and the
        native code, which ``mo.engine.read`` runs in another process without
        compiling. No weights are needed (nor written)."""
        self._exe.export_mef(path)

    def _bind_weights(self) -> list[np.ndarray]:
        return _weight_arrays(self._exe.weights, self._weights_given, "weights")

    def _inputs(self, leaves: list[Any]) -> tuple[list[np.ndarray], DimBindings]:
        arrays, bindings = [], DimBindings()
        for path, leaf, layout, is_buffer in zip(self._arg_names, leaves, self.in_layouts,
                                                 self._is_buffer):
            array = _as_array(leaf, f"argument {path}")
            try:
                dtype = DType.from_numpy(array.dtype)
            except TypeError as e:
                raise ValueError(f"argument {path}: expected {layout.dtype.name} shape "
                                 f"{layout.shape} on {layout.device}, got {e}") from None
            device = leaf.device if isinstance(leaf, (Tensor, Buffer)) else CPU()
            message = layout.matches(array.shape, dtype, device, bindings, argument=path)
            if message:
                raise ValueError(message)
            if is_buffer:
                if not (array.flags.c_contiguous and array.flags.writeable
                        and array.dtype.isnative):
                    raise ValueError(f"argument {path}: a buffer argument must be writable, "
                                     "C-contiguous and in native byte order (writes go to its "
                                     "memory)")
            elif not array.flags.c_contiguous or not array.dtype.isnative:
                array = np.asarray(array, dtype=array.dtype.newbyteorder("="), order="C")
            arrays.append(array)
        self._check_aliasing(arrays)
        return arrays, bindings

    def _check_aliasing(self, arrays: list[np.ndarray]) -> None:
        """A buffer argument must not share memory with another argument: the
        compiled code writes it while reading the others."""
        for i, is_buffer in enumerate(self._is_buffer):
            if is_buffer:
                for j, other in enumerate(arrays):
                    if j != i and np.may_share_memory(arrays[i], other):
                        raise ValueError(f"argument {self._arg_names[i]} is a buffer that "
                                         f"shares memory with argument {self._arg_names[j]}; "
                                         "pass a copy of one of them")

    def _run(self, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
        """The first call binds the weights, then makes ``_run`` the
        runtime's checked execute itself."""
        weights = self._bind_weights()
        self._exe.bind_weights(weights)
        self._weight_arrays = weights  # borrowed by the runtime: kept here
        self._run = self._exe._model.execute
        return self._run(arrays)

    def _wrap(self, outputs: list[np.ndarray]) -> Any:
        if self._single_output:
            return Tensor._from_buffer(Buffer._wrap(outputs[0], None, self._out_dtypes[0]))
        return self.out_tree.unflatten([Tensor._from_buffer(Buffer._wrap(o, None, d))
                                        for o, d in zip(outputs, self._out_dtypes)])

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # The common signature goes straight to the runtime, which checks
        # every array against the layouts; the general path converts what
        # it cannot read (or names the problem by the argument's tree path).
        arrays = self._fast.arrays(args, kwargs) if self._fast else None
        if arrays is not None:
            try:
                return self._wrap(self._run(arrays))
            except (TypeError, ValueError):
                pass  # nothing ran: the checks come first
        leaves = self.in_tree.check((args, kwargs), is_leaf=lambda x: isinstance(
            x, (Tensor, Buffer, np.ndarray)) or hasattr(x, "__dlpack__"))
        arrays, _ = self._inputs(leaves)
        return self._wrap(self._run(arrays))

    def execute_raw(self, *buffers: Any) -> list[Buffer]:
        """Runs on flat buffers in input order, skipping the tree checks.

        The runtime checks each buffer against its layout (dtype, rank,
        static and same-named dims, dim expressions) and the compiled code
        the sizes only it knows (reshape element counts), so a mismatch is a
        ``ValueError``, never an out-of-bounds access.
        """
        # Buffers and arrays as they are (the runtime reads a Buffer's array);
        # it refuses anything else.
        try:
            outputs = self._run(buffers)
        except (TypeError, ValueError):  # converted where that helps, else explained
            outputs = self._run(_runtime_arrays(buffers, self._is_buffer))
        wrap = Buffer._wrap
        return [wrap(o, None, d) for o, d in zip(outputs, self._out_dtypes)]


def _host_array(value: Any) -> Any:
    """A Tensor's or Buffer's array (anything else as it is)."""
    if type(value) is Tensor and value._buffer is not None:
        value = value._buffer
    return value._array if type(value) is Buffer else value


def _runtime_arrays(values: Sequence[Any], buffers: Sequence[bool] = ()) -> list[np.ndarray]:
    """Arrays the runtime reads: C-contiguous, native order, of a dtype it
    has; any other value converted (``_as_array``), except a buffer
    argument, which is written in place, or refused by name."""
    arrays = []
    for i, value in enumerate(values):
        value = _host_array(value)
        if type(value) is not np.ndarray or not value.flags.c_contiguous or \
                not value.dtype.isnative or value.dtype.kind not in "fiub":
            value = _as_array(value, f"argument {i}")
            try:
                DType.from_numpy(value.dtype)
            except TypeError as e:
                raise ValueError(f"argument {i}: {e}") from None
            if i < len(buffers) and buffers[i] and not (value.flags.c_contiguous and
                                                        value.dtype.isnative):
                raise ValueError(f"argument {i}: a buffer argument must be C-contiguous and "
                                 "in native byte order (writes go to its memory)")
            value = np.ascontiguousarray(value, dtype=value.dtype.newbyteorder("="))
        arrays.append(value)
    return arrays


class _FastSignature:
    """The per-call check for the common signature: flat positional and
    keyword arguments, each a tensor leaf or a static value, on the CPU.

    ``arrays`` returns the arrays when every argument is a C-contiguous host
    array (what the runtime then checks against the layouts) and every
    static value is the traced one, or None (the caller then runs the
    general path, which converts or names the problem).
    """

    __slots__ = ("positional", "keywords", "buffers", "plain")

    @classmethod
    def build(cls, tree: _pytree.TreeDef, layouts: list[TensorLayout]) -> _FastSignature | None:
        args_tree, kwargs_tree = tree.children
        if args_tree.kind != "tuple" or kwargs_tree.kind != "dict":
            return None
        if any(not layout.device.is_host for layout in layouts):
            return None  # the general check names the device mismatch
        children = [*args_tree.children, *kwargs_tree.children]
        if any(c.kind not in ("leaf", "static") for c in children):
            return None
        self = cls()
        leaf = iter(range(len(layouts)))
        self.positional = [(c.kind == "leaf", next(leaf) if c.kind == "leaf" else c.meta)
                           for c in args_tree.children]
        self.keywords = {k: (c.kind == "leaf", next(leaf) if c.kind == "leaf" else c.meta)
                         for k, c in zip(kwargs_tree.keys, kwargs_tree.children)}
        self.buffers = [isinstance(layout, BufferLayout) for layout in layouts]
        self.plain = not self.keywords and all(
            is_leaf and meta == i for i, (is_leaf, meta) in enumerate(self.positional))
        return self

    def arrays(self, args: tuple, kwargs: dict) -> list[np.ndarray] | None:
        if len(args) != len(self.positional) or len(kwargs) != len(self.keywords):
            return None
        if self.plain:  # every argument positional and a tensor, in order
            return self._unwrap(args)
        slots: list[Any] = [None] * len(self.buffers)
        for (is_leaf, meta), value in zip(self.positional, args):
            if is_leaf:
                slots[meta] = value
            elif type(value) is not type(meta) or value != meta:
                return None
        for key, value in kwargs.items():
            entry = self.keywords.get(key)
            if entry is None:
                return None
            is_leaf, meta = entry
            if is_leaf:
                slots[meta] = value
            elif type(value) is not type(meta) or value != meta:
                return None
        return self._unwrap(slots)

    def _unwrap(self, values: Sequence[Any]) -> list[np.ndarray] | None:
        arrays = []
        for value, is_buffer in zip(values, self.buffers):
            if type(value) is Tensor:
                value = value._buffer
            if type(value) is Buffer:
                if not value._device.is_host:
                    return None
                value = value._array
            if type(value) is not np.ndarray or not value.dtype.isnative or \
                    (is_buffer and not value.flags.writeable):
                return None
            arrays.append(value)  # the runtime checks the rest
        return arrays


def _weights_mapping(weights: Any, argument: str) -> dict[str, Any]:
    """``weights`` (None or a mapping of names to arrays) as a dict."""
    if weights is None:
        return {}
    if not isinstance(weights, Mapping):
        raise TypeError(f"{argument}: expected a mapping of weight names to arrays, got "
                        f"{type(weights).__name__}")
    return dict(weights)


def _weight_arrays(specs: Sequence[Any], given: Mapping[str, Any], argument: str
                   ) -> list[np.ndarray]:
    """The arrays of the weights ``specs`` names, from ``given`` (a user's
    mapping, passed as ``argument``), each checked and converted."""
    given = _weights_mapping(given, argument)
    arrays = []
    for spec in specs:
        if spec.name not in given:
            raise ValueError(f"missing weight '{spec.name}' ({spec.type.dtype.name} "
                             f"shape {spec.type.shape}): pass it in {argument}=")
        arrays.append(_weight_array(spec, given[spec.name]))
    return arrays


def _weight_array(spec: Any, value: Any) -> np.ndarray:
    t = spec.type
    expected = f"{t.dtype.name} shape {t.shape}"
    if not t.shape.is_static:
        raise ValueError(f"weight '{spec.name}' has symbolic shape {t.shape}: weights need "
                         "static shapes")
    shape = [d.value for d in t.shape]
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        # A Python number fills the weight, if the dtype holds it (the rule of
        # a scalar next to a tensor: no silent inf, wrap or dropped part).
        try:
            promote_scalar(t.dtype, value)
        except (TypeError, ValueError) as e:
            raise ValueError(f"weight '{spec.name}' ({expected}): {e}") from None
        return np.full(shape, value, t.dtype.to_numpy())
    try:
        array = _as_array(value, f"weight '{spec.name}'")
    except TypeError as e:
        raise ValueError(str(e)) from None
    try:
        dtype = DType.from_numpy(array.dtype)
    except TypeError:
        dtype = None
    if dtype is not t.dtype or list(array.shape) != shape:
        got = f"{dtype.name if dtype else array.dtype} shape {list(array.shape)}"
        raise ValueError(f"weight '{spec.name}': expected {expected}, got {got}")
    return np.asarray(array, dtype=array.dtype.newbyteorder("="), order="C")


def compile(fn: Callable, *, weights: Mapping[str, Any] | None = None, name: str | None = None,
            custom_extensions: Any = (), allow_subgraphs: bool = True, signal_devices: Any = (),
            is_device_graph: bool = False) -> Callable[..., CompiledCallable]:
    """``stage(fn, ...)(*specs, **static).compile(weights=weights)``, curried."""
    _weights_mapping(weights, "weights")
    staging = stage(fn, name=name, custom_extensions=custom_extensions,
                    allow_subgraphs=allow_subgraphs, signal_devices=signal_devices,
                    is_device_graph=is_device_graph)

    def compiled(*specs: Any, **static: Any) -> CompiledCallable:
        return staging(*specs, **static).compile(weights)

    return compiled


# -- subgraphs ----------------------------------------------------------------------------

_INFER = object()


def _inferred_key(fn: Callable) -> str | None:
    if inspect.ismethod(fn) or getattr(fn, "__closure__", None) or \
            getattr(fn, "__defaults__", None) or getattr(fn, "__kwdefaults__", None):
        return None
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def as_subgraph(fn: Callable | None = None, *, name: str | None = None, prefix: str = "",
                key: Any = _INFER) -> Any:
    """Shares ``fn``'s body between call sites inside a trace.

    Each distinct key (function, name, argument structure and static values,
    input types, whether a prefix is given) gets one ``mo.graph``; every call
    emits a ``mo.call``. Placeholder weights in the body resolve to
    ``prefix + name``. Outside a trace it just calls ``fn``; with
    ``allow_subgraphs=False`` the body is inlined. ``key=None`` compares the
    traced bodies instead.
    """
    if fn is None:
        return functools.partial(as_subgraph, name=name, prefix=prefix, key=key)
    resolved = _inferred_key(fn) if key is _INFER else key

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        capture = _capture.current()
        if capture is None:
            return fn(*args, **kwargs)
        if not capture.allow_subgraphs:  # Inline, keeping the weight prefix.
            outer = capture.prefix
            capture.prefix = outer + prefix
            try:
                return fn(*args, **kwargs)
            finally:
                capture.prefix = outer
        return _call_subgraph(capture, fn, name, prefix, resolved, args, kwargs)

    return wrapper


def _call_subgraph(capture: Any, fn: Callable, name: str | None, prefix: str, key: Any,
                   args: tuple, kwargs: dict) -> Any:
    from mo.graph import ops
    from mo.graph.graph import Graph

    leaves, tree = _pytree.flatten((args, kwargs), is_leaf=lambda x: isinstance(x, Tensor))
    values = [t._value if t._value is not None else t._graph_value() for t in leaves]
    types = [v.type for v in values]
    base = _graph_name(fn, name)
    cache = capture.subgraphs
    full_key = (key, name, tree, tuple(types), bool(prefix))
    entry = cache.get(full_key) if key is not None else None
    if entry is None:
        root = capture.graph._root()
        sub = Graph(_unique_name(root, base), types, parent=root)
        _, out_tree = _trace(fn, sub, tree, capture.allow_subgraphs, cache, "a subgraph")
        entry = (sub, out_tree)
        if key is None:
            # Structural dedup: an identical body (up to its name) is reused.
            digest = _body_digest(sub)
            same = cache.get(("body", base, digest))
            if same is not None:
                sub._op.operation.erase()
                entry = same
            else:
                cache[("body", base, digest)] = entry
        else:
            cache[full_key] = entry
    sub, out_tree = entry
    with capture.graph:
        results = ops.call(sub, *values, prefix=prefix)
    return out_tree.unflatten([Tensor._from_value(r) for r in results])


def _unique_name(root: Any, base: str) -> str:
    from mo._mlir import ir

    taken = {ir.StringAttr(op.attributes["sym_name"]).value
             for op in root.module.body.operations if "sym_name" in op.attributes}
    if base not in taken:
        return base
    i = 1
    while f"{base}_{i}" in taken:
        i += 1
    return f"{base}_{i}"


def _body_digest(graph: Any) -> str:
    text = str(graph._op.operation.get_asm(print_generic_op_form=True, use_local_scope=True))
    text = text.replace(f'"{graph.name}"', '"@"', 1)
    return hashlib.sha256(text.encode()).hexdigest()
