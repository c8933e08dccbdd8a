"""The ``torch.compile`` backend: FX graph -> mo partitions -> native code.

Dynamo hands the backend an FX graph; AOTAutograd functionalizes it, splits
forward from backward (training) and decomposes it to core aten with
``_aten.decompositions()``. Each resulting graph (forward, backward or
inference) is then:

1. checked node by node: a node is mo's when its converter builds it for
   those input types and the result agrees with torch's fake result;
2. split by torch.fx's ``CapabilityBasedPartitioner`` into mo partitions
   (connected, acyclic sets of mo's nodes) and the nodes left to torch;
3. each partition converted to one ``mo.graph`` (``_aten.CONVERTERS``) and
   compiled; it runs on the torch tensors' own memory (read through their
   data pointers, ``Executable.run_views``: no copies in, outputs written
   into fresh torch tensors).

Dynamo's symbolic sizes become mo symbolic dims, so one compiled graph
serves every size Dynamo's guards let through.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import operator
import os
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import torch
import torch.fx

from mo.graph import Dim, SymbolicDim, TensorType
from mo.torch import _aten
from mo.torch._aten import Unsupported

__all__ = ["Backend", "Explanation", "MoTorchError", "PartitionInfo"]


class MoTorchError(RuntimeError):
    """An aten op mo cannot run, under ``fallback="error"``."""


# Ops that move no data worth a kernel: a partition of only these stays in torch.
_VIEWS = frozenset({
    _aten.aten.view.default, _aten.aten._unsafe_view.default, _aten.aten.reshape.default,
    _aten.aten.permute.default, _aten.aten.t.default, _aten.aten.transpose.int,
    _aten.aten.unsqueeze.default, _aten.aten.squeeze.dim, _aten.aten.squeeze.dims,
    _aten.aten.squeeze.default, _aten.aten.expand.default, _aten.aten.alias.default,
    _aten.aten.clone.default, _aten.aten.detach.default, operator.getitem,
})


# What the backend itself adds to a graph and torch runs: no aten op, no fallback.
_HOST_HELPERS = frozenset({_aten.relaid_filter})


def _op_name(node: torch.fx.Node) -> str:
    target = node.target
    if isinstance(target, torch._ops.OpOverload):
        return str(target)
    return getattr(target, "__name__", str(target))


def _is_sym(value: Any) -> bool:
    return isinstance(value, (torch.SymInt, torch.SymFloat, torch.SymBool, int, float, bool))


@dataclasses.dataclass
class PartitionInfo:
    """One mo partition: its name, aten ops (by name) and compile time."""

    name: str
    ops: collections.Counter
    compile_seconds: float
    kernels: int | None = None


@dataclasses.dataclass
class Explanation:
    """What the backend did with the graphs it compiled (``mo.torch.explain``).

    ``aten_ops`` counts the compute ops of every graph (views and getitems
    excluded), ``mo_ops`` those that ran in mo partitions; ``fusion_rate``
    is their ratio. ``fallback_ops`` names the ops left to torch;
    ``kernels`` the kernels mo's code generator made of the partitions
    (after its elementwise fusion).
    """

    graphs: int = 0
    aten_ops: int = 0
    mo_ops: int = 0
    partitions: list[PartitionInfo] = dataclasses.field(default_factory=list)
    fallback_ops: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    compile_seconds: float = 0.0

    @property
    def fusion_rate(self) -> float:
        return self.mo_ops / self.aten_ops if self.aten_ops else 1.0

    @property
    def kernels(self) -> int:
        return sum(p.kernels or 0 for p in self.partitions)

    def __str__(self) -> str:
        lines = [f"graphs: {self.graphs}, aten ops: {self.aten_ops}, in mo: {self.mo_ops} "
                 f"({100 * self.fusion_rate:.1f}%), partitions: {len(self.partitions)}, "
                 f"mo kernels: {self.kernels}, compile: {self.compile_seconds:.3f} s"]
        for p in self.partitions:
            ops = ", ".join(f"{k} x{v}" for k, v in p.ops.most_common())
            lines.append(f"  {p.name}: {sum(p.ops.values())} ops, {p.kernels} kernels, "
                         f"{p.compile_seconds * 1e3:.1f} ms: {ops}")
        if self.fallback_ops:
            ops = ", ".join(f"{k} x{v}" for k, v in self.fallback_ops.most_common())
            lines.append(f"  in torch: {ops}")
        return "\n".join(lines)


# -- deciding what mo takes ---------------------------------------------------------------


class _Input(int):
    """The position of a trial graph's input, standing for a node's tensor."""


def _argument(value: Any, inputs: list[TensorType]) -> Any:
    """A trial argument for a node's input: a graph input for a tensor, a dim
    for a symbolic size."""
    if isinstance(value, torch.fx.Node):
        val = value.meta.get("val")
        if isinstance(val, torch.Tensor):
            inputs.append(_aten.tensor_type(val))
            return _Input(len(inputs) - 1)
        if isinstance(val, torch.SymInt):
            return _aten.dim_of(val)
        if isinstance(val, (int, float, bool)):
            return val
        raise Unsupported(f"an input of kind {type(val).__name__}")
    return value


def _check_result(node: torch.fx.Node, value: Any) -> None:
    """Raises Unsupported unless ``value`` has torch's dtype and shape."""
    expected = node.meta.get("val")
    if isinstance(expected, (tuple, list)):
        if not isinstance(value, tuple) or len(value) != len(expected):
            raise Unsupported("a result of another structure than torch's")
        for v, e in zip(value, expected):
            if v is not None:
                _check_one(v, e)
        return
    _check_one(value, expected)


def _check_one(value: Any, expected: Any) -> None:
    from mo.graph import ops

    if not isinstance(expected, torch.Tensor) or not isinstance(value, ops.TensorValue):
        raise Unsupported("a result that is not a tensor")
    if value.dtype is not _aten.mo_dtype(expected.dtype):
        raise Unsupported(f"mo computes {value.dtype.name} where torch has {expected.dtype}")
    theirs = [_aten.dim_of(s) for s in expected.shape]
    if len(value.shape) != len(theirs) or not all(
            _same_size(a, b) for a, b in zip(value.shape, theirs)):
        raise Unsupported(f"mo computes shape {value.shape} where torch has {theirs}")


def _same_size(a: Dim, b: Dim) -> bool:
    """Whether two dims are one size: equal, or (expressions written in
    another order) equal wherever their symbols are sampled."""
    if a == b:
        return True
    symbols = sorted(a.symbols | b.symbols)
    if not symbols or a.symbols != b.symbols:
        return False
    for sample in ((7, 11, 13), (64, 65, 3), (1000, 2, 999)):
        bindings = {s: sample[i % len(sample)] + i for i, s in enumerate(symbols)}
        try:
            if a.evaluate(bindings) != b.evaluate(bindings):
                return False
        except (ValueError, ZeroDivisionError):
            return False
    return True


def _map(args: Any, fn: Callable[[torch.fx.Node], Any]) -> Any:
    return torch.fx.node.map_arg(args, fn)


def _unsupported_reason(node: torch.fx.Node, decided: dict[torch.fx.Node, bool]) -> str | None:
    """None when mo takes ``node`` for its input types, else why not."""
    from mo.graph import Graph

    if node.target is operator.getitem:
        producer = node.args[0]
        if not decided.get(producer, False):
            return "the item of a result torch computes"
        return None
    converter = _aten.CONVERTERS.get(node.target)
    if converter is None:
        return "no converter"
    inputs: list[TensorType] = []
    try:
        placeholders = _map((node.args, node.kwargs), lambda a: _argument(a, inputs))
        # Sizes the node's result or its size arguments name: a partition
        # learns them from its inputs or a size carrier (_size_carrier).
        symbols = _symbols([node, *node.all_input_nodes]) - {
            s for t in inputs for d in t.shape for s in d.symbols}
        if symbols:
            inputs.append(_size_carrier(sorted(symbols)))
        with Graph("trial", inputs) as g:
            def resolve(x: Any) -> Any:
                if isinstance(x, _Input):
                    return g.inputs[x]
                if isinstance(x, (list, tuple)):
                    return type(x)(resolve(v) for v in x)
                return x

            args, kwargs = resolve(placeholders[0]), {k: resolve(v)
                                                      for k, v in placeholders[1].items()}
            _check_result(node, converter(node, *args, **kwargs))
    except Unsupported as e:
        return str(e)
    except (TypeError, ValueError, IndexError, NotImplementedError, AttributeError) as e:
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    return None


def _symbols(nodes: Sequence[torch.fx.Node]) -> set[str]:
    """The size symbols in the fake results of ``nodes``."""
    found: set[str] = set()

    def visit(val: Any) -> None:
        if isinstance(val, torch.Tensor):
            for size in val.shape:
                visit(size)
        elif isinstance(val, torch.SymInt):
            found.update(_aten.dim_of(val).symbols)
        elif isinstance(val, (tuple, list)):
            for v in val:
                visit(v)

    for n in nodes:
        visit(n.meta.get("val"))
    return found


def _size_carrier(symbols: Sequence[str]) -> TensorType:
    """A tensor argument of no elements whose shape gives mo sizes that no
    data argument has as a whole dim (``[s0, s1, 0]``, int8)."""
    from mo.dtype import DType
    from mo.graph.type import DeviceRef

    return TensorType(DType.int8, [*symbols, 0], DeviceRef.CPU())


# -- one partition as a mo graph -------------------------------------------------------------


class _Kernel:
    """A compiled mo partition, called where the graph called the submodule
    it replaces (as a function: a module's call costs microseconds).

    ``tensor_args`` are the positions of the tensor arguments mo reads;
    ``carriers`` those of the size arguments (SymInts) that become one
    zero-element size carrier; ``bindings`` where each symbolic size is read.
    """

    def __init__(self, exe: Any, tensor_args: list[int], carriers: list[int],
                 out_types: list[TensorType], bindings: list[tuple[int, int, str]]) -> None:
        self.exe = exe
        self.tensor_args = tensor_args
        self.carriers = carriers
        self.out_types = out_types
        self.out_dtypes = [_aten.torch_dtype(t.dtype) for t in out_types]
        self.bindings = bindings
        self.__name__ = self.__qualname__ = "mo_kernel"  # how the graph's code names it
        self.static_shapes = None
        if all(t.shape.is_static for t in out_types):
            self.static_shapes = [[int(d) for d in t.shape] for t in out_types]

    def __call__(self, *args: Any) -> tuple[torch.Tensor, ...]:
        views, held = [], []
        for i in self.tensor_args:
            t = args[i]
            if t.device.type != "cpu":
                raise ValueError(f"mo partition input {i}: expected a CPU tensor, got one on "
                                 f"{t.device}")
            if not t.is_contiguous():  # mo's code reads dense row-major memory
                t = t.contiguous()
                held.append(t)
            views.append((t.data_ptr(), t.shape, t.stride()))
        if self.carriers:
            sizes = [int(args[i]) for i in self.carriers]
            views.append((0, [*sizes, 0], [0] * (len(sizes) + 1)))
        if self.static_shapes is not None:
            shapes = self.static_shapes
        else:
            bound = {name: views[j][1][axis] for j, axis, name in self.bindings}
            shapes = self.exe.output_shapes(self.out_types, bound)
        outputs = [torch.empty(s, dtype=d) for s, d in zip(shapes, self.out_dtypes)]
        views.extend((o.data_ptr(), o.shape, o.stride()) for o in outputs)
        self.exe.run_views(views)
        return tuple(outputs)


def _compile_partition(gm: torch.fx.GraphModule, name: str, log: bool) -> tuple[_Kernel, Any]:
    """The mo graph of a fused partition's GraphModule, compiled."""
    from mo.compiler import Executable
    from mo.graph import Graph

    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    tensor_args, types = [], []
    for i, p in enumerate(placeholders):
        val = p.meta.get("val")
        if isinstance(val, torch.Tensor):
            tensor_args.append(i)
            types.append(_aten.tensor_type(val))
    # Every symbolic size must be an input's whole dim, or a size argument
    # (a SymInt that is one symbol) read through the size carrier.
    plain = {d.name for t in types for d in t.shape if isinstance(d, SymbolicDim)}
    needed = _symbols(list(gm.graph.nodes)) | {s for t in types for d in t.shape
                                               for s in d.symbols}
    sizes = {}
    for i, p in enumerate(placeholders):
        val = p.meta.get("val")
        if isinstance(val, torch.SymInt) and isinstance(_aten.dim_of(val), SymbolicDim):
            sizes.setdefault(_aten.dim_of(val).name, i)
    missing = sorted(needed - plain)
    if any(m not in sizes for m in missing):
        raise Unsupported(f"sizes {[m for m in missing if m not in sizes]} are neither an "
                          "input's whole dim nor a size argument")
    carriers = [sizes[m] for m in missing]
    if missing:
        types.append(_size_carrier(missing))
    bindings, bound = [], set()
    for j, t in enumerate(types):
        for axis, d in enumerate(t.shape):
            if isinstance(d, SymbolicDim) and d.name not in bound:
                bound.add(d.name)
                bindings.append((j, axis, d.name))
    with Graph(name, types) as g:
        env: dict[torch.fx.Node, Any] = {}
        inputs = iter(g.inputs[:len(tensor_args)])
        for node in gm.graph.nodes:
            if node.op == "placeholder":
                val = node.meta.get("val")
                env[node] = next(inputs) if isinstance(val, torch.Tensor) else \
                    _aten.dim_of(val) if isinstance(val, torch.SymInt) else val
            elif node.op == "call_function":
                args, kwargs = _map((node.args, node.kwargs), lambda a: env[a])
                env[node] = _aten.CONVERTERS[node.target](node, *args, **kwargs) \
                    if node.target is not operator.getitem else args[0][args[1]]
            elif node.op == "output":
                (results,) = node.args
                outputs = [env[r] for r in results]
                g.output(*outputs)
            else:
                raise Unsupported(f"a {node.op} node")
    if log:
        print(f"[mo.torch] {name}:\n{g}", flush=True)
    exe = Executable(g.module)
    return _Kernel(exe, tensor_args, carriers, [o.type for o in g.outputs], bindings), g


def _count_kernels(graph: Any) -> int:
    """The kernels mo makes of a graph: linalg ops after its elementwise fusion."""
    from mo._mlir import ir, passmanager
    from mo.compiler import _as_module

    module = _as_module(str(graph.module))
    with module.context:
        passmanager.PassManager.parse(
            "builtin.module(mo-lower-to-linalg,canonicalize,cse,"
            "func.func(mo-fuse-elementwise),canonicalize)").run(module.operation)
    count = 0

    def visit(op: Any) -> Any:
        nonlocal count
        name = op.name
        if name.startswith("linalg.") and name not in ("linalg.yield", "linalg.index"):
            count += 1
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return count


# -- the backend --------------------------------------------------------------------------


class Backend:
    """A ``torch.compile`` backend running what it can in mo.

    Args:
        fallback: ``"warn"`` (ops mo lacks run in torch, one warning per
            distinct op and graph), ``"silent"``, or ``"error"`` (raise
            ``MoTorchError`` naming the op).
        threads: the threads mo's kernels use (``mo.compiler.set_num_threads``).
        record: keep an ``Explanation`` in ``self.explanation`` (kernel counts
            cost a second lowering of each partition).
        freeze: treat parameters as constants between their in-place updates
            (Inductor's ``freezing``): a convolution filter's layout for mo is
            made once per parameter version instead of at every call; writes
            through ``param.data`` are not seen.
    """

    def __init__(self, *, fallback: str = "warn", threads: int | None = None,
                 record: bool = False, freeze: bool = False) -> None:
        if fallback not in ("warn", "silent", "error"):
            raise ValueError(f"fallback must be 'warn', 'silent' or 'error', got {fallback!r}")
        if threads is not None and (not isinstance(threads, int) or threads < 1):
            raise ValueError(f"threads must be a positive int, got {threads!r}")
        self.fallback = fallback
        self.threads = threads
        self.record = record
        self.freeze = bool(freeze)
        self.explanation = Explanation()
        self.__name__ = "mo"

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Callable:
        from functorch.compile import make_boxed_func
        from torch._dynamo.backends.common import aot_autograd

        warned: set[str] = set()  # per Dynamo graph: its forward and backward together
        self.explanation.graphs += 1

        def compile_graph(graph: torch.fx.GraphModule, inputs: Sequence[Any]) -> Callable:
            from torch._subclasses.fake_tensor import unset_fake_temporarily

            with unset_fake_temporarily():  # AOTAutograd compiles under its fake mode
                return make_boxed_func(self._compile(graph, warned))

        # Attention as its math: autograd then differentiates matmuls and a
        # softmax. (The CPU flash kernel's backward needs the forward's
        # log-sum-exps, which its decomposition does not give: it returns
        # the attention weights in their place, and the gradients were wrong.)
        from torch.nn.attention import SDPBackend, sdpa_kernel

        with sdpa_kernel([SDPBackend.MATH]):
            return aot_autograd(fw_compiler=compile_graph, bw_compiler=compile_graph,
                                decompositions=_aten.decompositions())(gm, example_inputs)

    def _compile(self, gm: torch.fx.GraphModule, warned: set[str]) -> Callable:
        from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
        from torch.fx.passes.operator_support import OperatorSupportBase
        from torch.fx.passes.utils.fuser_utils import fuse_by_partitions

        from mo import compiler

        start = time.perf_counter()
        log = os.environ.get("MO_TORCH_LOG", "") not in ("", "0")
        decided: dict[torch.fx.Node, bool] = {}
        reasons: dict[str, str] = {}
        explanation = self.explanation
        if self.freeze:
            _aten.relay_filters(gm)
        for node in gm.graph.nodes:
            if node.op != "call_function" or node.target in _HOST_HELPERS:
                continue
            if _is_sym(node.meta.get("val")):  # size arithmetic stays torch's
                decided[node] = False
                continue
            reason = _unsupported_reason(node, decided)
            decided[node] = reason is None
            if node.target not in _VIEWS:
                explanation.aten_ops += 1
            if reason is not None and node.target is not operator.getitem:
                reasons.setdefault(_op_name(node), reason)
                explanation.fallback_ops[_op_name(node)] += 1
        self._report(reasons, warned)

        class Support(OperatorSupportBase):
            def is_node_supported(self, submodules: Any, node: torch.fx.Node) -> bool:
                return decided.get(node, False)

        partitioner = CapabilityBasedPartitioner(gm, Support(), allows_single_node_partition=True)
        partitions = [p for p in partitioner.propose_partitions()
                      if any(n.target not in _VIEWS for n in p.nodes)]
        if not partitions:
            return gm.forward

        counts = [collections.Counter(_op_name(n) for n in p.nodes if n.target not in _VIEWS)
                  for p in partitions]
        fused = fuse_by_partitions(gm, [p.nodes for p in partitions], prefix="mo_partition_",
                                   always_return_tuple=True)
        previous = compiler.num_threads()
        if self.threads is not None:
            compiler.set_num_threads(self.threads)
        try:
            for i, count in enumerate(counts):
                name = f"mo_partition_{i}"
                sub = getattr(fused, name)
                t0 = time.perf_counter()
                try:
                    kernel, graph = _compile_partition(sub, name, log)
                except (Unsupported, ValueError, TypeError, compiler.CompileError) as e:
                    warnings.warn(f"mo.torch: {name} ({', '.join(count)}) stays in torch: "
                                  f"{str(e).splitlines()[0]}", RuntimeWarning, stacklevel=2)
                    for op, k in count.items():
                        explanation.fallback_ops[op] += k
                    continue
                for call in fused.graph.find_nodes(op="call_module", target=name):
                    call.op, call.target = "call_function", kernel
                delattr(fused, name)
                explanation.mo_ops += sum(count.values())
                explanation.partitions.append(PartitionInfo(
                    name, count, time.perf_counter() - t0,
                    _count_kernels(graph) if self.record else None))
        finally:
            if self.threads is not None:
                compiler.set_num_threads(previous)
        fused.recompile()
        explanation.compile_seconds += time.perf_counter() - start
        return fused.forward

    def _report(self, reasons: dict[str, str], warned: set[str]) -> None:
        for op, reason in reasons.items():
            if self.fallback == "error":
                raise MoTorchError(f"mo.torch: aten op {op} is not supported ({reason}); "
                                   "fallback='warn' runs it in torch instead")
            if self.fallback == "warn" and op not in warned:
                warned.add(op)
                warnings.warn(f"mo.torch: {op} runs in torch ({reason})", RuntimeWarning,
                              stacklevel=3)


@functools.lru_cache(maxsize=1)
def default_backend() -> Backend:
    return Backend()
