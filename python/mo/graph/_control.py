"""Control flow (MAX's ``cond`` and ``while_loop``), re-exported by
``mo.graph.ops``: the functions given trace their ops into the regions of a
``mo.if`` / ``mo.while``, which lower to ``scf.if`` / ``scf.while``.
"""

from __future__ import annotations

import contextlib

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mo import _context
from mo.dtype import DType
from mo.graph.graph import Graph, TensorValue, mlir_type, wrap
from mo.graph.ops import _i64, _mo, as_tensor_value, location, op_error
from mo.graph.type import TensorType


def _traced(graph: Graph, block: Any, fn: Callable, args: Sequence[Any] = ()) -> list[TensorValue]:
    """Runs ``fn(*args)`` with ``graph``'s new ops going into ``block``; its
    results (one value, a sequence of them or None) as tensor values."""
    outer = graph._block
    graph._block = block
    try:
        out = fn(*args)
        if out is None:
            out = []
        elif not isinstance(out, (list, tuple)):
            out = [out]
        return [as_tensor_value(v, graph) for v in out]
    finally:
        graph._block = outer


def _yield(graph: Graph, block: Any, values: Sequence[TensorValue]) -> None:
    from mo._mlir import ir

    with _context.context(), location(), ir.InsertionPoint(block):
        _mo().YieldOp([v._value for v in values])


@contextlib.contextmanager
def _erased_on_error(op: Any, name: str, inputs: list):
    """Leaves no half-built region op behind: on any error ``op`` is erased
    (MLIR's own errors become the op's ``ValueError``)."""
    from mo._mlir import ir

    try:
        yield
    except ir.MLIRError as e:
        op.operation.erase()
        raise op_error(name, inputs, str(e)) from None
    except BaseException:
        op.operation.erase()
        raise


def _check_types(name: str, what: str, values: Sequence[TensorValue],
                 types: Sequence[TensorType], inputs: list) -> None:
    got = [v.type for v in values]
    if got != list(types):
        raise op_error(name, inputs, f"{what} returns {got}, but {list(types)} are expected")


def _predicate(name: str, pred: Any, inputs: list) -> TensorValue:
    p = as_tensor_value(pred)
    if p.dtype is not DType.bool or p.rank != 0:
        raise op_error(name, inputs, f"the predicate must be a 0-d bool tensor, got "
                                     f"{p.dtype.name}{p.shape}")
    return p


def cond(pred: Any, out_types: Iterable[TensorType] | None, then_fn: Callable[[], Any],
         else_fn: Callable[[], Any]) -> list[TensorValue]:
    """``then_fn()`` if ``pred`` (a 0-d bool tensor) holds, else ``else_fn()``
    (MAX's ``cond``); both return values of ``out_types`` (none for
    ``None``), and only the chosen one runs."""
    p = _predicate("cond", pred, [pred])
    graph = p.graph
    types = [t.to_type() if hasattr(t, "to_type") else t for t in (out_types or [])]
    inputs = [p, types]
    with _context.context(), location(), graph.insertion_point():
        op = _mo().IfOp([mlir_type(t) for t in types], p._value)
        blocks = [op.thenRegion.blocks.append(), op.elseRegion.blocks.append()]
    with _erased_on_error(op, "cond", inputs):
        for block, fn, what in zip(blocks, (then_fn, else_fn), ("then_fn", "else_fn")):
            values = _traced(graph, block, fn)
            _check_types("cond", what, values, types, inputs)
            _yield(graph, block, values)
        op.verify()
    return [wrap(r, graph) for r in op.results]


def while_loop(initial_values: Any, predicate: Callable[..., Any],
               body: Callable[..., Any]) -> list[TensorValue]:
    """Repeats ``values = body(*values)`` while ``predicate(*values)`` (a 0-d
    bool tensor) holds, from ``initial_values`` (MAX's ``while_loop``); the
    body returns values of the same types. Returns the final values."""
    graph = Graph.current()
    with graph:
        inits = initial_values if isinstance(initial_values, (list, tuple)) else [initial_values]
        inits = [as_tensor_value(v) for v in inits]
    if not inits:
        raise ValueError("while_loop: needs at least one initial value")
    graph = inits[0].graph
    types = [v.type for v in inits]
    inputs = [inits]
    mlir_types = [mlir_type(t) for t in types]
    with _context.context(), location(), graph.insertion_point():
        op = _mo().WhileOp(mlir_types, [v._value for v in inits])
        loc = location()
        cond_block = op.regions[0].blocks.append(*mlir_types, arg_locs=[loc] * len(types))
        body_block = op.regions[1].blocks.append(*mlir_types, arg_locs=[loc] * len(types))
    with _erased_on_error(op, "while_loop", inputs):
        carried = [wrap(a, graph) for a in cond_block.arguments]
        (p, *rest) = _traced(graph, cond_block, predicate, carried) or [None]
        if rest or p is None:
            raise op_error("while_loop", inputs, "the predicate must return one 0-d bool tensor")
        _predicate("while_loop", p, inputs)
        _yield(graph, cond_block, [p])
        values = _traced(graph, body_block, body, [wrap(a, graph) for a in body_block.arguments])
        _check_types("while_loop", "the body", values, types, inputs)
        _yield(graph, body_block, values)
        op.verify()
    return [wrap(r, graph) for r in op.results]


def print_value(value: Any, label: str = "debug_tensor") -> None:
    """Prints ``value`` when the graph runs (MAX's ``print``): a tensor as
    ``label: [[...]]`` (numpy-style rows), a string on its own line."""
    from mo._mlir import ir

    graph = Graph.current()
    if isinstance(value, str):
        text, tensor = value, None
    else:
        text = label
        with graph:
            tensor = as_tensor_value(value)
        graph = tensor.graph
    with _context.context(), location(), graph.insertion_point():
        _mo().PrintOp(ir.StringAttr.get(text),
                      value=tensor._value if tensor is not None else None)


def _parameters(name: str, parameters: Any, inputs: list):
    """The kernel parameters as a DictionaryAttr (ints, floats, bools)."""
    from mo._mlir import ir

    attrs = {}
    for key, value in sorted((parameters or {}).items()):
        if isinstance(value, bool):
            attrs[key] = ir.BoolAttr.get(value)
        elif isinstance(value, int):
            attrs[key] = _i64(value)
        elif isinstance(value, float):
            attrs[key] = ir.FloatAttr.get(ir.F64Type.get(), value)
        else:
            raise op_error(name, inputs, f"parameter {key!r} must be an int, float or bool, got "
                                         f"{type(value).__name__}")
    return ir.DictAttr.get(attrs)


def custom(name: str, device: Any, values: Sequence[Any], out_types: Sequence[Any],
           parameters: Any = None) -> list[TensorValue]:
    """Calls the user kernel ``name`` (MAX's ``custom``), found when compiling
    among ``compile(..., custom_extensions=[...])``: a ``func.func @name`` in
    an ``.mlir`` file or MLIR text (taking the tensors, then the parameters,
    returning ``out_types``), or a C symbol in a shared library (see
    ``mo.custom``'s documentation for its arguments). ``parameters`` (ints,
    floats, bools) follow as scalars in name order."""
    from mo.graph.graph import Value

    graph = Graph.current()
    with graph:
        operands = [v if isinstance(v, Value) else as_tensor_value(v) for v in values]
    types = [t.to_type() if hasattr(t, "to_type") else t for t in out_types]
    inputs = [name, *operands]
    from mo._mlir import ir

    with _context.context(), location(), graph.insertion_point():
        attrs = _parameters("custom", parameters, inputs)
        try:
            op = _mo().CustomOp([mlir_type(t) for t in types], [v._value for v in operands],
                                name, parameters=attrs)
            op.verify()
        except ir.MLIRError as e:
            raise op_error("custom", inputs, str(e)) from None
    return [wrap(r, graph) for r in op.results]


def inplace_custom(name: str, device: Any, values: Sequence[Any], out_types: Any = None,
                   parameters: Any = None) -> None:
    """Calls the user kernel ``name`` on buffers it may write (MAX's
    ``inplace_custom``); as ``custom``, but the kernel returns nothing."""
    from mo._mlir import ir
    from mo.graph.graph import Value

    if out_types:
        raise ValueError("inplace_custom: the kernel writes its buffers and returns nothing; "
                         "use custom for kernels that produce tensors")
    graph = Graph.current()
    with graph:
        operands = [v if isinstance(v, Value) else as_tensor_value(v) for v in values]
    inputs = [name, *operands]
    with _context.context(), location(), graph.insertion_point():
        attrs = _parameters("inplace_custom", parameters, inputs)
        try:
            _mo().InplaceCustomOp([v._value for v in operands], name, parameters=attrs).verify()
        except ir.MLIRError as e:
            raise op_error("inplace_custom", inputs, str(e)) from None
