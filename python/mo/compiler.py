"""Lowering and JIT execution of mo modules (the runtime side of compilation).

``lower(module)`` runs the CPU pipeline (``mo-opt --mo-cpu-pipeline``) and
returns the LLVM-dialect module. ``Executable`` JIT-compiles a module's entry
graph with MLIR's ExecutionEngine and calls it on numpy arrays: inputs and
weights are passed by pointer (zero-copy), results are written into arrays
the caller allocates.

Example:
    >>> import numpy as np
    >>> from mo._mlir import ir
    >>> text = '''
    ... mo.graph @double<n>(%x: !mo.tensor<[n], f32>) -> !mo.tensor<[n], f32> {
    ...   %c = mo.constant dense<2.0> : tensor<f32> : !mo.tensor<[], f32>
    ...   %y = mo.mul(%x, %c) : (!mo.tensor<[n], f32>, !mo.tensor<[], f32>)
    ...       -> !mo.tensor<[n], f32>
    ...   mo.output %y : !mo.tensor<[n], f32>
    ... }'''
    >>> exe = Executable(text)
    >>> out = np.empty(3, np.float32)
    >>> exe.run([np.arange(3, dtype=np.float32)], [], [out])  # no dims bound at run time
    {}
    >>> out.tolist()
    [0.0, 2.0, 4.0]
"""

from __future__ import annotations

import ctypes
import functools
import os
import struct
import threading
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mo import _cache, _context
from mo.graph.type import TensorType

__all__ = ["CompileError", "Executable", "WeightSpec", "lower", "num_threads",
           "set_num_threads"]



class CompileError(RuntimeError):
    """The compiler rejected a module (the message holds MLIR's diagnostics)."""


_threads: int | None = None


def set_num_threads(n: int | None) -> None:
    """Sets the threads that graphs compiled from now on run on (``None``: the
    default, ``MO_NUM_THREADS`` or every core this process may use).

    The count is fixed when a graph is compiled: the schedules split their
    work into that many parts. Threads are LLVM's OpenMP runtime's; see
    ``num_threads`` for how they share the cores with numpy's or torch's.
    """
    global _threads
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
        raise ValueError(f"set_num_threads: expected a positive int or None, got {n!r}")
    _threads = n


def num_threads() -> int:
    """The threads a graph compiled now runs on: ``set_num_threads``'s count,
    else ``MO_NUM_THREADS``, else the cores this process may use; 1 when the
    OpenMP runtime (the ``cmeel-libomp`` package) is missing.

    Between parallel regions the runtime's threads spin for
    ``KMP_BLOCKTIME`` ms before they sleep. mo sets it to 1 ms unless it is
    set: LLVM's default (200 ms) took the cores from numpy's and torch's
    own thread pools after every mo call (numpy's 1024^3 matmul right after
    one took 13.9 ms instead of 5.6), while 1 ms costs mo nothing measurable
    (6.5 ms either way on that matmul, 2.0 against 2.2 ms on a 3-layer MLP).
    """
    if _openmp_runtime() is None:
        return 1
    if _threads is not None:
        return _threads
    env = os.environ.get("MO_NUM_THREADS")
    if env:
        try:
            n = int(env)
        except ValueError:
            n = 0
        if n < 1:
            raise ValueError(f"MO_NUM_THREADS: expected a positive int, got {env!r}")
        return n
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else (os.cpu_count() or 1)


@functools.cache
def _openmp_runtime() -> str | None:
    """LLVM's OpenMP runtime library (``libomp.so`` of the ``cmeel-libomp``
    wheel), which the schedules' thread tiles run on, or None."""
    from importlib import metadata

    path = None
    try:
        for f in metadata.files("cmeel-libomp") or ():
            if f.name == "libomp.so":
                located = str(f.locate())
                path = located if os.path.exists(located) else None
                break
    except metadata.PackageNotFoundError:
        pass
    if path is None:  # mo linked onto another environment's path
        site = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
        candidate = os.path.join(site, "cmeel.prefix", "lib", "libomp.so")
        path = candidate if os.path.exists(candidate) else None
    if path is not None:  # read when the runtime starts (see num_threads)
        os.environ.setdefault("KMP_BLOCKTIME", "1")
    return path


def _as_module(module):
    """A fresh module in mo's context (parsed from text, or cloned)."""
    from mo._mlir import ir

    text = module if isinstance(module, str) else str(module.operation.get_asm(
        enable_debug_info=True))
    with _context.context():
        try:
            return ir.Module.parse(text)
        except ir.MLIRError as e:
            raise CompileError(f"cannot parse the module:\n{e}") from None


def _run_pipeline(module, pipeline: str) -> None:
    from mo._mlir import ir, passmanager

    with _context.context():
        pm = passmanager.PassManager.parse(f"builtin.module({pipeline})")
        try:
            pm.run(module.operation)
        except ir.MLIRError as e:
            raise CompileError(f"{pipeline} failed:\n{e}") from None


def lower(module, target: str = "cpu"):
    """The module lowered to the LLVM dialect (``--mo-cpu-pipeline``).

    ``module`` is a ``mo._mlir.ir.Module`` or MLIR text; it is not modified.
    """
    if target != "cpu":
        raise ValueError(f"unknown target {target!r}: expected 'cpu'")
    lowered = _as_module(module)
    _run_pipeline(lowered, "mo-cpu-pipeline")
    return lowered


@dataclass(frozen=True)
class WeightSpec:
    """A weight the entry graph reads: its resolved name and type."""

    name: str
    type: TensorType


class _Descriptor:
    """A ranked memref descriptor (allocated, aligned, offset, sizes, strides),
    refilled per call with one ``struct.pack_into``."""

    __slots__ = ("buf", "fmt", "cell")

    def __init__(self, rank: int) -> None:
        self.fmt = "q" * (3 + 2 * rank)
        self.buf = (ctypes.c_int64 * (3 + 2 * rank))()
        # The C interface takes a pointer to the descriptor.
        self.cell = ctypes.c_void_p(ctypes.addressof(self.buf))

    def fill(self, array: np.ndarray) -> None:
        size = array.itemsize
        self.fill_view(array.ctypes.data, array.shape, [s // size for s in array.strides])

    def fill_view(self, ptr: int, shape: Sequence[int], strides: Sequence[int]) -> None:
        struct.pack_into(self.fmt, self.buf, 0, ptr, ptr, 0, *shape, *strides)


def _custom_symbols(module) -> list[str]:
    """The kernel names of the module's mo.custom / mo.inplace_custom ops."""
    from mo._mlir import ir

    names: list[str] = []

    def visit(op) -> ir.WalkResult:
        if op.name in ("mo.custom", "mo.inplace_custom"):
            name = ir.StringAttr(op.attributes["symbol"]).value
            if name not in names:
                names.append(name)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return names


def _link_extensions(module, extensions: Sequence[Any]) -> list[str]:
    """Merges MLIR custom extensions (``.mlir`` files or MLIR text) into
    ``module`` and checks that every other custom kernel is a symbol of one
    of the shared libraries among ``extensions``; returns those libraries."""
    from mo._mlir import ir

    libraries, defined = [], set()
    for ext in extensions:
        path = os.fspath(ext) if isinstance(ext, os.PathLike) else ext
        if not isinstance(path, str):
            raise TypeError(f"custom_extensions: expected paths or MLIR text, got "
                            f"{type(ext).__name__}")
        if path.endswith((".so", ".dylib", ".dll")) or ".so." in os.path.basename(path):
            if not os.path.exists(path):
                raise CompileError(f"custom extension {path!r} does not exist")
            libraries.append(os.path.abspath(path))
            continue
        text = open(path).read() if path.endswith(".mlir") else path
        with _context.context():
            try:
                ext_module = ir.Module.parse(text)
            except ir.MLIRError as e:
                raise CompileError(f"cannot parse custom extension "
                                   f"{path if path.endswith('.mlir') else '(MLIR text)'}:\n{e}"
                                   ) from None
        for op in list(ext_module.body.operations):
            name = ir.StringAttr(op.attributes["sym_name"]).value \
                if "sym_name" in op.attributes else None
            if name is not None:
                if name in defined or any(
                        "sym_name" in o.attributes and ir.StringAttr(o.attributes["sym_name"]).value
                        == name for o in module.body.operations):
                    raise CompileError(f"custom extension symbol @{name} is defined twice")
                defined.add(name)
            op.detach_from_parent()
            module.body.append(op)
    for name in _custom_symbols(module):
        if name in defined:
            continue
        if not any(_has_symbol(lib, name) for lib in libraries):
            raise CompileError(f"custom kernel {name!r} is neither a function of an MLIR custom "
                               f"extension nor a symbol of a shared library among "
                               f"custom_extensions={list(extensions)!r}")
    return libraries


def _has_symbol(library: str, name: str) -> bool:
    try:
        getattr(ctypes.CDLL(library), name)
    except (OSError, AttributeError):
        return False
    return True


def ir_string(attr) -> str:
    from mo._mlir import ir

    return ir.StringAttr(attr).value


def _bound_dims(module) -> dict[str, Any]:
    """Upper bounds of the dims ops bind at run time (Dims of their inputs'
    dims)."""
    from mo._mlir import ir
    from mo.graph.dim import Dim
    from mo.graph.graph import python_type

    bounds: dict[str, Any] = {}

    def visit(op) -> ir.WalkResult:
        # nonzero: the input's elements; non-maximum suppression: B * C * N,
        # the scores' elements.
        operand = {"mo.nonzero": 0, "mo.non_maximum_suppression": 1}.get(op.name)
        if operand is not None:
            result = python_type(op.results[0].type)
            total = Dim(1)
            for d in python_type(op.operands[operand].type).shape:
                total = total * d
            bounds[str(result.shape[0])] = total
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return bounds


class Executable:
    """The JIT-compiled entry graph of a mo module.

    Args:
        module: a ``mo._mlir.ir.Module`` or MLIR text with one public graph.
        opt_level: LLVM optimization level (0-3).

    Attributes:
        name: the entry graph's name.
        num_inputs, num_outputs: argument and result counts.
        weights: the weights to bind, in calling order.
        num_threads: the threads the graph's kernels were compiled for.
        cache_hit: whether the object code came from the compile cache.
        compile_seconds: time spent lowering and generating code.
    """

    def __init__(self, module, opt_level: int = 2, custom_extensions: Sequence[Any] = ()) -> None:
        from mo._mlir._mlir_libs import _moDialects

        start = time.perf_counter()

        def lowered_to_linalg():
            lowered = _as_module(module)
            libraries = _link_extensions(lowered, custom_extensions)
            bounds = _bound_dims(lowered)
            _run_pipeline(lowered, "mo-lower-to-linalg")
            return lowered, libraries, bounds

        lowered, libraries, self.bounds = lowered_to_linalg()
        self._inspect_entry(lowered)
        self.num_threads = num_threads()
        codegen = f"mo-cpu-codegen{{num-threads={self.num_threads}"
        key = _cache.key_parts(str(lowered), codegen + "}", opt_level)
        hit = _cache.load(key)
        self.cache_hit = hit is not None
        if hit is not None:
            obj, warned = hit
            for message in warned:
                warnings.warn(message, RuntimeWarning, stacklevel=2)
        else:
            warned = []
            try:
                _run_pipeline(lowered, codegen + "}")
            except CompileError as e:
                # A schedule that cannot be carried out costs speed, not the
                # graph: it compiles again with every op as loops (and an
                # error that is not the schedules' is raised from there).
                lowered, libraries, _ = lowered_to_linalg()
                _run_pipeline(lowered, codegen + " schedules=0}")
                warned.append(f"{self.name}: the CPU schedules failed, compiled without "
                              f"them (slower code): {str(e).splitlines()[-1]}")
                warnings.warn(warned[-1], RuntimeWarning, stacklevel=2)
            with _context.context() as ctx:
                # Translation reports through the context's diagnostics: into
                # the error, not onto stderr.
                notes: list[str] = []

                def collect(diagnostic) -> bool:
                    notes.append(f"{diagnostic.location}: {diagnostic.message}")
                    return True

                handler = ctx.attach_diagnostic_handler(collect)
                try:
                    obj = _moDialects.jit_compile(lowered, opt_level)
                except RuntimeError as e:
                    detail = "".join(f"\n  {n}" for n in notes[:8])
                    raise CompileError(f"code generation failed: {e}{detail}") from None
                finally:
                    handler.detach()
            _cache.store(key, obj, warned)
        runtime = [_openmp_runtime()] if self.num_threads > 1 else []
        try:
            # mo's runtime is resolved inside the loader (mo-c/Jit.h).
            self._jit = _moDialects.Jit(obj, [*runtime, *libraries])
        except RuntimeError as e:
            raise CompileError(f"linking the generated code failed: {e}") from None
        address = self._jit.lookup("_mo_packed_" + self.name)
        if not address:
            raise CompileError(f"the entry function {self.name!r} was not generated")
        # The packed wrapper: void(void **args), the status stored through
        # the pointer after the last argument's.
        self._fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address)
        # The native call releases the GIL: each thread fills its own
        # descriptors.
        self._per_thread = threading.local()
        self.compile_seconds = time.perf_counter() - start

    def _frame(self) -> tuple[list[_Descriptor], ctypes.Array, np.ndarray, ctypes.c_int64]:
        frame = getattr(self._per_thread, "frame", None)
        if frame is None:
            descriptors = [_Descriptor(r) for r in self._ranks]
            # The sizes a failed check saw and expected, then the bound dims'.
            record = np.zeros(2 + len(self.bound_dims), np.int64)
            descriptors[-1].fill(record)
            status = ctypes.c_int64()
            packed = (ctypes.c_void_p * (len(descriptors) + 1))(
                *[ctypes.addressof(d.cell) for d in descriptors], ctypes.addressof(status))
            frame = self._per_thread.frame = (descriptors, packed, record, status)
        return frame

    def _inspect_entry(self, lowered) -> None:
        from mo._mlir.dialects import func
        from mo.graph.graph import python_type

        entries = [op for op in lowered.body.operations
                   if isinstance(op, func.FuncOp) and "mo.entry" in op.attributes]
        if len(entries) != 1:
            raise CompileError(f"expected one public mo.graph (the entry), found {len(entries)}")
        entry = entries[0]
        self.name = entry.sym_name.value
        arg_attrs = entry.arg_attrs if "arg_attrs" in entry.attributes else None
        weights, inputs, outputs, ranks, has_status = [], 0, 0, [], False
        for i, t in enumerate(entry.type.inputs):
            ranks.append(t.rank)
            attrs = arg_attrs[i] if arg_attrs is not None else None
            if attrs is not None and "mo.weight" in attrs:
                weights.append(WeightSpec(attrs["mo.weight"].value,
                                          python_type(attrs["mo.type"].value)))
            elif attrs is not None and "mo.output" in attrs:
                outputs += 1
            elif attrs is not None and "mo.status" in attrs:
                has_status = i == len(entry.type.inputs) - 1
            else:
                inputs += 1
        if not has_status:
            raise CompileError(f"the entry function {self.name!r} has no status record last")
        self.checks = [str(m.value) for m in entry.attributes["mo.checks"]] \
            if "mo.checks" in entry.attributes else []
        # Output dims the entry sizes at run time, reported after the record's two.
        self.bound_dims = [str(ir_string(a)) for a in entry.attributes["mo.bound_dims"]] \
            if "mo.bound_dims" in entry.attributes else []
        self.weights = weights
        self.num_inputs = inputs
        self.num_outputs = outputs
        self._ranks = ranks

    def run(self, inputs: Sequence[np.ndarray], weights: Sequence[np.ndarray],
            outputs: Sequence[np.ndarray]) -> dict[str, int]:
        """Runs the graph; ``outputs`` are written in place. Returns the sizes
        of the output dims ops bound at run time (``bound_dims``; outputs that
        have one are written in their leading part and must be allocated at
        ``bounds``).

        Arrays must be C-contiguous with the right dtypes and ranks (not
        checked here: ``CompiledCallable`` checks). Sizes are checked by the
        compiled code itself before it touches any memory: a size that
        disagrees with the graph's types is a ``ValueError`` naming the
        argument, the dim and both sizes.
        """
        if (len(inputs), len(weights), len(outputs)) != (
                self.num_inputs, len(self.weights), self.num_outputs):
            raise ValueError(f"{self.name}: expected {self.num_inputs} inputs, "
                             f"{len(self.weights)} weights and {self.num_outputs} outputs, got "
                             f"{len(inputs)}, {len(weights)} and {len(outputs)}")
        descriptors, packed, record, status = self._frame()
        for d, a in zip(descriptors, [*inputs, *weights, *outputs]):
            d.fill(a)
        return self._call(packed, record, status)

    def run_views(self, views: Sequence[tuple[int, Sequence[int], Sequence[int]]]
                  ) -> dict[str, int]:
        """``run`` on memory that is not numpy's (torch tensors): one (data
        address, shape, strides in elements) per input, weight and output, in
        that order. Dtypes and ranks are the caller's to get right; sizes are
        checked by the compiled code, as in ``run``."""
        expected = self.num_inputs + len(self.weights) + self.num_outputs
        if len(views) != expected:
            raise ValueError(f"{self.name}: expected {expected} views, got {len(views)}")
        descriptors, packed, record, status = self._frame()
        for d, (ptr, shape, strides) in zip(descriptors, views):
            d.fill_view(ptr, shape, strides)
        return self._call(packed, record, status)

    def _call(self, packed: ctypes.Array, record: np.ndarray,
              status: ctypes.c_int64) -> dict[str, int]:
        self._fn(packed)
        if status.value:
            raise ValueError(self.explain(status.value, int(record[0]), int(record[1])))
        return {name: int(record[2 + i]) for i, name in enumerate(self.bound_dims)}

    def output_shapes(self, types: Sequence[Any], bindings: dict) -> list[list[int]]:
        """The shapes to allocate for outputs of ``types`` given the input
        dims' ``bindings``: dims bound at run time at their upper bound."""
        full = bindings
        if self.bounds:  # (the common case, none, costs no copy per call)
            full = dict(bindings)
            for name, bound in self.bounds.items():
                full[name] = bound.evaluate(bindings)
        return [[d.evaluate(full) for d in t.shape] for t in types]

    @staticmethod
    def trim(outputs: Sequence[np.ndarray], types: Sequence[Any],
             sizes: dict[str, int]) -> list[np.ndarray]:
        """``outputs`` cut to the run-time sizes of their bound dims (the
        compiled code wrote nothing into one allocated too small)."""
        if not sizes:
            return list(outputs)
        trimmed = []
        for i, (out, t) in enumerate(zip(outputs, types)):
            index = []
            for axis, d in enumerate(t.shape):
                size = sizes.get(str(d))
                if size is not None and size > out.shape[axis]:
                    raise ValueError(f"output {i}: dim '{d}' is {size} at run time, but its "
                                     f"buffer has {out.shape[axis]}: allocate it at the bound")
                index.append(slice(None) if size is None else slice(0, size))
            trimmed.append(out[tuple(index)])
        return trimmed

    def explain(self, status: int, actual: int, expected: int) -> str:
        """The message for a status the entry returned."""
        if not 0 < status <= len(self.checks):
            return f"{self.name}: the compiled code returned an unknown status {status}"
        return self.checks[status - 1].replace("{actual}", str(actual)).replace(
            "{expected}", str(expected))
