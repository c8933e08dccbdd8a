"""The graph builder (MAX ``max.graph.Graph``): values, graphs, layers.

A ``Graph`` owns an MLIR module in the ``mo`` dialect. Inside
``with Graph(...) as g:`` ops from ``mo.graph.ops`` append to ``g``; every op
carries the user's ``file:line`` and, inside ``layer("foo")``, the layer path
as a ``NameLoc``. Errors raised while building an op name the op, its inputs,
the layer path and that source line.

Example:
    >>> from mo.dtype import DType
    >>> from mo.graph import Graph, TensorType, DeviceRef, ops
    >>> with Graph("relu", input_types=[TensorType(DType.float32, ["n"], DeviceRef.CPU())]) as g:
    ...     g.output(ops.relu(g.inputs[0]))
    >>> "mo.relu" in str(g)
    True
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from mo import _context, _operators
from mo.dtype import DType
from mo.graph.dim import AlgebraicDim, Dim, Shape, StaticDim, SymbolicDim
from mo.graph.type import BufferType, DeviceRef, TensorType

__all__ = [
    "BufferValue",
    "Graph",
    "TensorValue",
    "Value",
    "current_layer",
    "layer",
]

_state = threading.local()


def _graph_stack() -> list[Graph]:
    if not hasattr(_state, "graphs"):
        _state.graphs = []
    return _state.graphs


def _layer_stack() -> list[str]:
    if not hasattr(_state, "layers"):
        _state.layers = []
    return _state.layers


@contextlib.contextmanager
def layer(name: str) -> Iterator[str]:
    """Names the ops built inside: they carry ``outer.name`` in their location.

    Example:
        >>> with layer("encoder"), layer("attn"):
        ...     current_layer()
        'encoder.attn'
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"layer name must be a non-empty string, got {name!r}")
    stack = _layer_stack()
    stack.append(name)
    try:
        yield current_layer()
    finally:
        stack.pop()


def current_layer() -> str:
    """The dotted path of the enclosing ``layer()`` scopes ('' outside any)."""
    return ".".join(_layer_stack())


# -- MLIR <-> Python types -----------------------------------------------------


def _mo():
    from mo._mlir.dialects import mo as mo_d

    return mo_d


def dim_attr(dim: Dim):
    """The mo dim attribute of a ``Dim``."""
    mo_d = _mo()
    ctx = _context.context()
    if isinstance(dim, StaticDim):
        return mo_d.dim_static(dim.value, context=ctx)
    if isinstance(dim, SymbolicDim):
        return mo_d.dim_symbolic(dim.name, context=ctx)
    if isinstance(dim, AlgebraicDim):
        return mo_d.dim_expr(dim.op, dim_attr(dim.lhs), dim_attr(dim.rhs))
    raise TypeError(f"expected a Dim, got {type(dim).__name__}")


def mlir_type(t: TensorType | BufferType):
    """The ``!mo.tensor``/``!mo.buffer`` type of a graph type."""
    from mo._mlir import ir

    mo_d = _mo()
    cls = mo_d.BufferType if isinstance(t, BufferType) else mo_d.TensorType
    # The default device (cpu:0) is left implicit, as MAX prints it.
    device = ("", 0) if t.device == DeviceRef.CPU() else (t.device.label, t.device.id)
    with _context.context(), ir.Location.unknown():
        return cls.get([dim_attr(d) for d in t.shape], _context.mlir_type(t.dtype.mlir), *device)


def python_type(mlir_t) -> TensorType | BufferType:
    """The graph type of a ``!mo.tensor``/``!mo.buffer`` type."""
    mo_d = _mo()
    dims = [Dim.parse(mo_d.dim_str(d)) for d in mlir_t.dims]
    dtype = DType.from_mlir(str(mlir_t.element_type))
    device = mlir_t.device or "cpu:0"
    label, _, ident = device.partition(":")
    ref = DeviceRef(label, int(ident))
    cls = BufferType if isinstance(mlir_t, mo_d.BufferType) else TensorType
    return cls(dtype, dims, ref)


# -- values ---------------------------------------------------------------------


class Value:
    """A value in a graph: an MLIR SSA value and its graph type."""

    __slots__ = ("_value", "_type", "graph")

    def __init__(self, value: Any, graph: Graph) -> None:
        self._value = value
        self._type = python_type(value.type)
        self.graph = graph

    @property
    def type(self) -> TensorType | BufferType:
        return self._type

    @property
    def dtype(self) -> DType:
        return self._type.dtype

    @property
    def shape(self) -> Shape:
        return self._type.shape

    @property
    def rank(self) -> int:
        return self._type.rank

    @property
    def device(self) -> DeviceRef:
        return self._type.device

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(dtype={self.dtype.name}, shape={self.shape}, "
                f"device={self.device})")


class TensorValue(Value):
    """An immutable tensor value in a graph; Python operators build ops."""

    __slots__ = ()

    # Operators: see the install() call after the class.

    @staticmethod
    def _op(name: str, *args: Any, **kwargs: Any) -> TensorValue:
        from mo.graph import ops

        return getattr(ops, name)(*args, **kwargs)

    def __getitem__(self, index: Any) -> TensorValue:
        return self._op("slice_tensor", self, index)


_operators.install(TensorValue, TensorValue._op)


class BufferValue(Value):
    """A mutable buffer in a graph (a ``BufferType`` argument)."""

    __slots__ = ()

    def __getitem__(self, index: Any) -> TensorValue:
        from mo.graph import ops

        value = ops.buffer_load(self)
        whole = index is Ellipsis or (isinstance(index, (tuple, slice)) and
                                      index in ((), slice(None)))
        return value if whole else ops.slice_tensor(value, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        from mo.graph import ops

        ops.buffer_store(self, value, index)


def wrap(value: Any, graph: Graph) -> Value:
    """A Python value for an MLIR SSA value of mo type."""
    cls = BufferValue if isinstance(value.type, _mo().BufferType) else TensorValue
    return cls(value, graph)


# -- graphs ---------------------------------------------------------------------

_NAME = re.compile(r"^[A-Za-z_][\w.$-]*$")


class Graph:
    """A ``mo.graph`` being built (MAX ``max.graph.Graph``).

    Args:
        name: the graph's symbol name.
        input_types: ``TensorType``/``BufferType`` of each argument.
        parent: the graph whose module this one joins as a private subgraph.

    Use it as a context manager; ``g.inputs`` are the arguments and
    ``g.output(*values)`` finishes the graph. ``str(g)`` is the whole module.
    """

    def __init__(self, name: str, input_types: Sequence[TensorType | BufferType] = (), *,
                 parent: Graph | None = None) -> None:
        from mo._mlir import ir

        if not isinstance(name, str) or not _NAME.match(name):
            raise ValueError(f"graph name {name!r} is not a valid symbol name")
        for i, t in enumerate(input_types):
            if not isinstance(t, (TensorType, BufferType)):
                raise TypeError(f"input_types[{i}]: expected a TensorType or BufferType, "
                                f"got {type(t).__name__}")
        self.name = name
        self.input_types = list(input_types)
        self.parent = parent
        self._ctx = _context.context()
        mo_d = _mo()
        with self._ctx, ir.Location.unknown():
            self.module = parent.module if parent else ir.Module.create()
            root = parent._root() if parent else self
            params = _symbols_in_order(self.input_types)
            self._mlir_inputs = [mlir_type(t) for t in self.input_types]
            with ir.InsertionPoint(self.module.body):
                self._op = mo_d.GraphOp(
                    sym_name=name,
                    function_type=ir.TypeAttr.get(ir.FunctionType.get(self._mlir_inputs, [])),
                    sym_visibility="private" if parent else None,
                    parameters=ir.ArrayAttr.get([ir.StringAttr.get(p) for p in params])
                    if params else None,
                )
            self._block = self._op.body.blocks.append(*self._mlir_inputs)
        self._root_graph = root
        self.inputs = [wrap(a, self) for a in self._block.arguments]
        self.outputs: list[TensorValue] = []
        self._finished = False

    def _root(self) -> Graph:
        return self._root_graph

    # -- context management

    def __enter__(self) -> Graph:
        _graph_stack().append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        _graph_stack().pop()

    @staticmethod
    def current() -> Graph:
        """The innermost graph being built."""
        stack = _graph_stack()
        if not stack:
            raise RuntimeError("no graph is being built (use `with Graph(...) as g:`)")
        return stack[-1]

    layer = staticmethod(layer)
    current_layer = staticmethod(current_layer)

    # -- building

    def insertion_point(self):
        from mo._mlir import ir

        return ir.InsertionPoint(self._block)

    def output(self, *values: TensorValue) -> None:
        """Finishes the graph with ``values`` as its results."""
        from mo.graph import ops

        if self._finished:
            raise RuntimeError(f"graph {self.name!r} already has its outputs")
        vals = [ops.as_tensor_value(v, self) for v in values]
        for i, v in enumerate(vals):
            if v.graph is not self:
                raise ValueError(f"output {i} belongs to graph {v.graph.name!r}, not {self.name!r}")
        from mo._mlir import ir

        mo_d = _mo()
        with self._ctx, ops.location():
            result_types = [v._value.type for v in vals]
            self._op.attributes["function_type"] = ir.TypeAttr.get(
                ir.FunctionType.get(self._mlir_inputs, result_types))
            params = _symbols_in_order(self.input_types + [v.type for v in vals])
            if params:
                self._op.attributes["parameters"] = ir.ArrayAttr.get(
                    [ir.StringAttr.get(p) for p in params])
            # No location: it would be the line that finished the trace (the
            # caller's), which no message quotes and which would make the
            # same graph traced from two places two compile-cache entries.
            with self.insertion_point(), ir.Location.unknown():
                mo_d.OutputOp([v._value for v in vals])
        self.outputs = vals
        self._finished = True

    def quantize(self, encoding: Any, array: Any) -> TensorValue:
        """A quantized constant in this graph: ``array`` quantized with the
        numpy reference quantizer (see ``mo.graph.ops.quantize``)."""
        from mo.graph import ops

        with self:
            return ops.quantize(encoding, array)

    def verify(self) -> None:
        """Runs the MLIR verifier on the module (``ValueError`` on failure)."""
        from mo._mlir import ir

        try:
            self.module.operation.verify()
        except ir.MLIRError as e:
            raise ValueError(f"graph {self.name!r} does not verify:\n{e}") from None

    def __str__(self) -> str:
        return str(self.module)

    __repr__ = __str__


def _symbols_in_order(types: Iterable[TensorType | BufferType]) -> list[str]:
    """Symbolic dim names in first-appearance order (for `@f<a, b>`)."""
    seen: dict[str, None] = {}

    def visit(d: Dim) -> None:
        if isinstance(d, SymbolicDim):
            seen.setdefault(d.name, None)
        elif isinstance(d, AlgebraicDim):
            visit(d.lhs)
            visit(d.rhs)

    for t in types:
        for d in t.shape:
            visit(d)
    return list(seen)
