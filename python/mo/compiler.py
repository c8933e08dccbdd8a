"""Lowering and JIT execution of mo modules (the runtime side of compilation).

``lower(module)`` runs the CPU pipeline (``mo-opt --mo-cpu-pipeline``) and
returns the LLVM-dialect module. ``Executable`` compiles a module's entry
graph into an artifact (a .mef: manifest and object code, kept in the compile
cache) and loads it into mo's runtime (``mo-c/Runtime.h``, through
``LoadedArtifact``), which calls it on numpy arrays by pointer (zero-copy):
``execute`` checks the inputs and allocates the results, ``run`` writes into
results the caller allocates.

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

import atexit
import ctypes
import functools
import json
import os
import threading
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mo import _cache, _context
from mo.graph.type import TensorType

__all__ = ["CompileError", "Executable", "WeightSpec", "LoadedArtifact", "lower", "num_threads",
           "set_num_threads", "stats"]



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
    A call after the threads slept first checks that they woke on distinct
    CPUs (Linux may wake one on its caller's CPU; see
    ``cpp/lib/Runtime/OpenMP.h``).
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
    # Where the wheel puts it, beside this package (importlib.metadata's
    # search of every installed distribution costs 20 ms); else wherever
    # the distribution's record says.
    site = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    candidate = os.path.join(site, "cmeel.prefix", "lib", "libomp.so")
    path = candidate if os.path.exists(candidate) else None
    if path is None:
        from importlib import metadata

        try:
            for f in metadata.files("cmeel-libomp") or ():
                if f.name == "libomp.so":
                    located = str(f.locate())
                    path = located if os.path.exists(located) else None
                    break
        except metadata.PackageNotFoundError:
            pass
    if path is not None:  # read when the runtime starts (see num_threads)
        os.environ.setdefault("KMP_BLOCKTIME", "1")
    return path


def _as_module(module):
    """A fresh module in mo's context (parsed from text, or cloned)."""
    from mo._mlir import ir

    if isinstance(module, str):
        return _parse(module, "the module", mo_only=True)
    with _context.context():
        return ir.Module.parse(str(module.operation.get_asm(enable_debug_info=True)))


def _parse(text: str, what: str, mo_only: bool = False):
    """MLIR text parsed in mo's context; CompileError naming `what` if it is
    malformed or nests too deep for MLIR's recursive parser. With `mo_only`,
    text that is not mo IR (mo, func and builtin ops) is refused before the
    other dialects' parsers see it (some upstream ones assert on malformed
    input, which would abort the process)."""
    from mo._mlir import ir
    from mo._mlir.dialects import mo as mo_d

    at = mo_d.find_excess_nesting(text)
    if at is not None:
        before = text.encode()[:at].decode(errors="ignore")
        line, column = before.count("\n") + 1, len(before) - before.rfind("\n")
        raise CompileError(f"cannot parse {what}:\n{line}:{column}: nesting deeper than "
                           f"{mo_d.max_nesting()} brackets")
    errors = mo_d.mo_source_errors(text) if mo_only else None
    if errors is not None:
        raise CompileError(f"cannot parse {what} as mo IR:\n{errors.rstrip()}")
    with _context.context():
        try:
            return ir.Module.parse(text)
        except ir.MLIRError as e:
            raise CompileError(f"cannot parse {what}:\n{e}") from None


_stats = {"pipelines": 0, "code_generations": 0,
          "pipeline_seconds": 0.0, "code_generation_seconds": 0.0}


def stats() -> dict[str, float]:
    """Pass pipelines and code generations this process ran, and the wall
    seconds spent in each (the hook the tests use to see that loading an
    artifact compiles nothing; benchmarks/workloads.py splits a cold compile
    with it). A graph's code generation includes the lowering of its
    kernels after mo-cpu-kernels (see _codegen)."""
    return dict(_stats)


_pass_managers: dict[tuple[int, str, bool, int], Any] = {}


def _pass_manager(pipeline: str, verify_each: bool, slot: int = 0):
    """``pipeline`` parsed once per thread and reused (a pass manager runs one
    module at a time; a thread's identifier is reused only once it has
    ended): a new one initializes its passes again, the canonicalizers'
    pattern sets and the schedule library among them, 5-10 ms of a 3-layer
    MLP's compile. (Every pass must then keep no state between runs:
    upstream's convert-math-to-funcs does, so the pipeline runs it through
    mo-math-to-funcs.) Dropped at exit, before the MLIR context they belong
    to: after it, their destruction crashed."""
    from mo._mlir import passmanager

    key = (threading.get_ident(), pipeline, verify_each, slot)
    pm = _pass_managers.get(key)
    if pm is None:
        if not _pass_managers:
            atexit.register(_pass_managers.clear)
        pm = passmanager.PassManager.parse(f"builtin.module({pipeline})")
        pm.enable_verifier(verify_each)
        _pass_managers[key] = pm
    return pm


def _run_pipeline(module, pipeline: str) -> None:
    """Runs ``pipeline`` on ``module``, verifying the result once at the end.

    Verifying after each of the pipeline's ~60 passes was a quarter of the
    MLIR time of a transformer block's compile; the input was verified when
    it was built or parsed, and a pass that breaks the IR is mo's bug, which
    the test suite catches with ``MO_VERIFY_EACH=1`` (as ``mo-opt`` does by
    default).
    """
    from mo._mlir import ir

    _stats["pipelines"] += 1
    verify_each = os.environ.get("MO_VERIFY_EACH") == "1"
    start = time.perf_counter()
    with _context.context():
        pm = _pass_manager(pipeline, verify_each)
        try:
            pm.run(module.operation)
            if not verify_each:
                module.operation.verify()
        except ir.MLIRError as e:
            raise CompileError(f"{pipeline} failed:\n{e}") from None
        finally:
            _stats["pipeline_seconds"] += time.perf_counter() - start


class _PipelineFailed(CompileError):
    """A pass of the codegen pipeline failed (the schedules' fallback
    compiles the graph again without them)."""


def _compile_threads() -> int:
    """Threads a compile lowers and generates code on: the cores this
    process may run on, at most 8 (a graph's kernels go in two parts a
    thread, and each part has a fixed cost, each thread's pass manager one
    of its own on its first use)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8))


def _codegen(module, pipeline: str, opt_level: int) -> list[bytes]:
    """The object files of ``module`` (through mo-lower-to-linalg) by
    ``pipeline`` (``mo-cpu-codegen{...}``) at ``opt_level``: the module
    through its first half, ``mo-cpu-kernels``, then its kernels split over
    the cores, each part lowered the rest of the way (``mo-cpu-kernels-to-
    llvm``, a pass manager per thread) and compiled on its thread beside the
    others (moJitCompileGraph, mo-c/Jit.h). Raises _PipelineFailed if a pass
    fails, CompileError if code generation does."""
    from mo._mlir._mlir_libs import _moDialects

    if not pipeline.startswith("mo-cpu-codegen"):
        raise ValueError(f"_codegen: expected an mo-cpu-codegen pipeline, got {pipeline!r}")
    options = pipeline[len("mo-cpu-codegen"):]
    try:
        _run_pipeline(module, "mo-cpu-kernels" + options)
    except CompileError as e:
        raise _PipelineFailed(str(e)) from None
    verify_each = os.environ.get("MO_VERIFY_EACH") == "1"
    with _context.context():
        managers = [_pass_manager("mo-cpu-kernels-to-llvm" + options, verify_each, slot)
                    for slot in range(_compile_threads())]
    # (The parts' diagnostics come back in the error: see moJitCompileGraph.)
    _stats["code_generations"] += 1
    start = time.perf_counter()
    try:
        return _moDialects.jit_compile_graph(module, managers, opt_level)
    except RuntimeError as e:
        kind, _, message = str(e).partition(": ")
        if kind == "pipeline":
            raise _PipelineFailed(f"mo-cpu-kernels-to-llvm{options} failed:\n{message}") from None
        raise CompileError(f"code generation failed: {message}") from None
    finally:
        _stats["code_generation_seconds"] += time.perf_counter() - start


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
        ext_module = _parse(text, "custom extension "
                            f"{path if path.endswith('.mlir') else '(MLIR text)'}")
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


def _entry_signature(module) -> tuple[list[Any], list[Any]]:
    """The input and result types of the module's public mo.graph."""
    from mo._mlir import ir
    from mo.graph.graph import python_type

    for op in module.body.operations:
        if op.operation.name == "mo.graph" and "sym_visibility" not in op.operation.attributes:
            t = ir.FunctionType(ir.TypeAttr(op.operation.attributes["function_type"]).value)
            return [python_type(i) for i in t.inputs], [python_type(r) for r in t.results]
    return [], []  # no entry: _inspect_entry says so


def _dim_json(d: Any) -> Any:
    """A dim as the runtime's manifest writes it: a size, a name or
    [op, lhs, rhs]."""
    from mo.graph.dim import AlgebraicDim, StaticDim, SymbolicDim

    if isinstance(d, StaticDim):
        return d.value
    if isinstance(d, SymbolicDim):
        return d.name
    if isinstance(d, AlgebraicDim):
        return [d.op, _dim_json(d.lhs), _dim_json(d.rhs)]
    raise CompileError(f"dim {d} cannot be written to an artifact")


def _inspect_entry(lowered) -> dict[str, Any]:
    """The lowered entry function's name, weights, checks and bound dims."""
    from mo._mlir.dialects import func
    from mo.graph.graph import python_type

    entries = [op for op in lowered.body.operations
               if isinstance(op, func.FuncOp) and "mo.entry" in op.attributes]
    if len(entries) != 1:
        raise CompileError(f"expected one public mo.graph (the entry), found {len(entries)}")
    entry = entries[0]
    name = entry.sym_name.value
    arg_attrs = entry.arg_attrs if "arg_attrs" in entry.attributes else None
    weights, has_status = [], False
    for i in range(len(entry.type.inputs)):
        attrs = arg_attrs[i] if arg_attrs is not None else None
        if attrs is not None and "mo.weight" in attrs:
            weights.append(WeightSpec(attrs["mo.weight"].value,
                                      python_type(attrs["mo.type"].value)))
        elif attrs is not None and "mo.status" in attrs:
            has_status = i == len(entry.type.inputs) - 1
    if not has_status:
        raise CompileError(f"the entry function {name!r} has no status record last")
    return {
        "name": name,
        "weights": weights,
        "checks": [str(m.value) for m in entry.attributes["mo.checks"]]
        if "mo.checks" in entry.attributes else [],
        # Output dims the entry sizes at run time, reported after the record's two.
        "bound_dims": [str(ir_string(a)) for a in entry.attributes["mo.bound_dims"]]
        if "mo.bound_dims" in entry.attributes else [],
    }


def _manifest(entry: dict[str, Any], signature: tuple[list[Any], list[Any]], names: list[str],
              bounds: dict[str, Any], libraries: list[str], key: dict[str, str],
              opt_level: int, threads: int) -> dict[str, Any]:
    """What the runtime reads of a compiled graph (Runtime/Model.cpp)."""
    from mo.graph.type import BufferType

    ins, outs = signature
    triple, cpu, features = _cache.host_target().split(" ", 2)

    def arg(name: str, t: Any) -> dict[str, Any]:
        return {"name": name, "dtype": t.dtype.name, "shape": [_dim_json(d) for d in t.shape],
                "dims": [str(d) for d in t.shape], "buffer": isinstance(t, BufferType)}

    return {
        "format": 1,
        "entry": entry["name"],
        "inputs": [arg(n, t) for n, t in zip(names, ins)],
        "outputs": [arg(str(i), t) for i, t in enumerate(outs)],
        "weights": [{"name": w.name, "dtype": w.type.dtype.name,
                     "shape": [d.value for d in w.type.shape],
                     "alignment": w.type.dtype.size_in_bytes} for w in entry["weights"]],
        "checks": entry["checks"],
        "bound_dims": entry["bound_dims"],
        "bounds": {name: _dim_json(bounds[name]) for name in entry["bound_dims"]},
        "target": {"triple": triple, "cpu": cpu, "features": features},
        "threads": threads,
        "thread_model": "openmp" if threads > 1 else "serial",
        "libraries": libraries,
        "compiler": key["compiler"],
        "content_hash": _cache.digest(key),
        "opt_level": opt_level,
    }


def _dim_from_json(d: Any) -> Any:
    from mo.graph.dim import AlgebraicDim, Dim

    if isinstance(d, list):
        return AlgebraicDim(d[0], _dim_from_json(d[1]), _dim_from_json(d[2]))
    return Dim(d)


@functools.cache
def runtime_module() -> Any:
    """The runtime's extension (``_moRuntime``: mo-c/Runtime.h's bindings),
    loaded by path: importing it as a submodule would run ``_mlir_libs``'
    ``__init__``, MLIR's Python bindings, which the runtime does not use."""
    import importlib.machinery
    import importlib.util
    import sys

    name = "mo._mlir._mlir_libs._moRuntime"
    if name in sys.modules:
        return sys.modules[name]
    with _runtime_lock:  # loaded once, also when threads compile at once
        if name in sys.modules:
            return sys.modules[name]
        directory = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_mlir",
                                 "_mlir_libs")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(directory, "_moRuntime" + suffix)
            if os.path.exists(path):
                spec = importlib.util.spec_from_file_location(name, path)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                sys.modules[name] = module
                return module
        from mo._mlir._mlir_libs import _moRuntime  # a build tree elsewhere (MO_DEV_NATIVE)

        return _moRuntime


_runtime_lock = threading.Lock()


class LoadedArtifact:
    """A .mef file's bytes verified and linked by the runtime
    (mo-c/Runtime.h), with the OpenMP runtime found when none is given. A
    bad artifact is a ``ValueError`` saying what is wrong with it.

    Attributes:
        manifest: the artifact's manifest (signature, checks, target).
    """

    def __init__(self, data: bytes, shared_libs: Sequence[str] = ()) -> None:
        if not shared_libs and _openmp_runtime() is not None:
            shared_libs = [_openmp_runtime()]
        self._model = runtime_module().Model(data, list(shared_libs))
        self.data = data
        self.manifest: dict[str, Any] = json.loads(self._model.manifest)
        m = self.manifest
        self.bound_dims: list[str] = m["bound_dims"]
        # numpy's bfloat16 is ml_dtypes': such results come as their bits.
        self._bfloat16_outputs = [o["dtype"] == "bfloat16" for o in m["outputs"]]
        if not any(self._bfloat16_outputs):  # the binding itself: one call less per run
            self.execute = self._model.execute

    @functools.cached_property
    def weights(self) -> list[WeightSpec]:
        """The weights to bind, in calling order (built when first asked:
        a cache hit of a 24-layer stack need not make 72 types)."""
        from mo.dtype import DType
        from mo.graph.type import DeviceRef

        return [WeightSpec(w["name"], TensorType(DType(w["dtype"]), w["shape"], DeviceRef.CPU()))
                for w in self.manifest["weights"]]

    def bind_weights(self, names: Sequence[str], arrays: Sequence[np.ndarray]) -> None:
        """Binds weights by name for ``execute``; they are checked (dtype,
        shape, contiguity, alignment) and borrowed: the caller keeps them
        alive."""
        self._model.bind_weights(list(names), list(arrays))

    def execute(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Runs on ``inputs`` with the bound weights: every input checked
        against the signature (dtype, rank, contiguity, static and
        same-named dims, dim expressions) by the runtime, results allocated
        by it (large ones from a pool they return to once dropped) and cut
        to the sizes ops bound at run time. A mismatch is a ``ValueError``
        naming the argument."""
        outputs = self._model.execute(inputs)
        return [o.view(_bfloat16()) if bf16 else o
                for o, bf16 in zip(outputs, self._bfloat16_outputs)]

    def invoke(self, arrays: Sequence[np.ndarray]) -> dict[str, int]:
        """The entry on inputs, weights and outputs (written in place), only
        the compiled code's checks and the weights' shapes; the sizes of the
        dims ops bound."""
        return self._bound(self._model.invoke(arrays))

    def invoke_views(self, views: Sequence[tuple[int, Sequence[int], Sequence[int]]]
                     ) -> dict[str, int]:
        return self._bound(self._model.invoke_views(views))

    def _bound(self, sizes: list[int]) -> dict[str, int]:
        return dict(zip(self.bound_dims, sizes)) if sizes else {}


def _bfloat16() -> Any:
    from mo.dtype import _bfloat16_type

    return _bfloat16_type()


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
        manifest: what the runtime reads of it (signature, checks, target).
    """

    def __init__(self, module, opt_level: int = 2, custom_extensions: Sequence[Any] = (),
                 input_names: Sequence[str] | None = None) -> None:
        start = time.perf_counter()
        if not isinstance(module, str) and not hasattr(module, "operation"):
            raise TypeError(f"expected a module (MLIR text or a mo._mlir.ir.Module), got "
                            f"{type(module).__name__}")
        # Read in place when nothing is merged into it (lowering works on a
        # clone): a cache hit then parses nothing.
        if isinstance(module, str) or custom_extensions or \
                module.context != _context.context():
            source = _as_module(module)
        else:
            source = module
        libraries = _link_extensions(source, custom_extensions)
        # With locations: the compiled checks' messages name the user's lines.
        text = str(source.operation.get_asm(enable_debug_info=True))
        self._source = (text, custom_extensions)
        signature = _entry_signature(source)
        names = list(input_names) if input_names is not None else [
            str(i) for i in range(len(signature[0]))]
        self.num_threads = num_threads()
        codegen = f"mo-cpu-codegen{{num-threads={self.num_threads}}}"
        # The key is the mo module itself: a hit lowers nothing.
        key = _cache.key_parts(text, codegen, opt_level,
                               inputs=",".join(names), artifact="mef1")
        hit = _cache.load(key)
        self._model = None
        if hit is not None:
            data, warned = hit
            try:
                self._model = LoadedArtifact(data)
            except ValueError as e:  # intact but unusable (another runtime's, a bug's)
                _cache.discard(key, str(e))
                hit = None
            else:
                for message in warned:
                    warnings.warn(message, RuntimeWarning, stacklevel=2)
        if hit is None:
            self._compile(source, libraries, signature, names, codegen, key, opt_level)
        self.cache_hit = hit is not None
        self._read_manifest()
        self.compile_seconds = time.perf_counter() - start

    def _compile(self, source, libraries: list[str], signature: tuple[list[Any], list[Any]],
                 names: list[str], codegen: str, key: dict[str, str], opt_level: int) -> bytes:
        """Lowers and generates code for ``source``; stores the artifact in the
        compile cache and returns it."""
        bounds = _bound_dims(source)
        lowered = _as_module(source)
        _run_pipeline(lowered, "mo-lower-to-linalg")
        entry = _inspect_entry(lowered)
        warned = []
        try:
            objects = _codegen(lowered, codegen, opt_level)
        except _PipelineFailed as e:
            # A schedule that cannot be carried out costs speed, not the
            # graph: it compiles again with every op as loops (and an error
            # that is not the schedules' is raised from there).
            lowered = _as_module(source)
            _run_pipeline(lowered, "mo-lower-to-linalg")
            try:
                objects = _codegen(lowered, codegen[:-1] + " schedules=0}", opt_level)
            except _PipelineFailed as again:
                raise CompileError(str(again)) from None
            warned.append(f"{entry['name']}: the CPU schedules failed, compiled without "
                          f"them (slower code): {str(e).splitlines()[-1]}")
            warnings.warn(warned[-1], RuntimeWarning, stacklevel=3)
        manifest = _manifest(entry, signature, names, bounds, libraries, key, opt_level,
                             self.num_threads)
        data = runtime_module().write_artifact(json.dumps(manifest), b"", objects)
        # One loading path: the artifact export_mef writes, less its bytecode.
        self._model = LoadedArtifact(data)
        _cache.store(key, data, warned)
        return data

    @property
    def weights(self) -> list[WeightSpec]:
        """The weights to bind, in calling order."""
        return self._model.weights

    def _read_manifest(self) -> None:
        m = self._model.manifest
        self.manifest = m
        self.name = m["entry"]
        self.num_inputs = len(m["inputs"])
        self.num_outputs = len(m["outputs"])
        self.checks = m["checks"]
        self.bound_dims = m["bound_dims"]
        self.bounds = {name: _dim_from_json(d) for name, d in m["bounds"].items()}

    def artifact(self, bytecode: bool = True) -> bytes:
        """The compiled graph as a .mef file's bytes (mo-c/Runtime.h): the
        manifest, the module as lowered to linalg (MLIR bytecode) and the
        object code."""
        data = self._model.data
        if not bytecode:
            return data
        import io

        # Lowered again: a cache hit lowered nothing (and kept nothing).
        text, extensions = self._source
        module = _parse(text, "the module")  # mo's own text: no mo-only check
        _link_extensions(module, extensions)
        _run_pipeline(module, "mo-lower-to-linalg")
        buffer = io.BytesIO()
        module.operation.write_bytecode(buffer)
        manifest, _, objects = runtime_module().read_artifact(data)
        return runtime_module().write_artifact(manifest.decode(), buffer.getvalue(), objects)

    def export_mef(self, path: str | os.PathLike) -> None:
        """Writes ``artifact()`` to ``path`` (a temporary file renamed into place)."""
        from mo._files import atomic_write

        data = self.artifact()
        atomic_write(path, lambda f: f.write(data))

    def run(self, inputs: Sequence[np.ndarray], weights: Sequence[np.ndarray],
            outputs: Sequence[np.ndarray]) -> dict[str, int]:
        """Runs the graph; ``outputs`` are written in place. Returns the sizes
        of the output dims ops bound at run time (``bound_dims``; outputs that
        have one are written in their leading part and must be allocated at
        ``bounds``).

        Arrays must be C-contiguous with the right dtypes and ranks (not
        checked here: ``CompiledCallable`` checks). Sizes are checked before
        any memory is touched, the inputs' and outputs' by the compiled code
        itself, the static weights' by the runtime: a size that disagrees
        with the graph's types is a ``ValueError`` naming the argument (or
        weight), the dim and both sizes.
        """
        if (len(inputs), len(weights), len(outputs)) != (
                self.num_inputs, len(self.weights), self.num_outputs):
            raise ValueError(f"{self.name}: expected {self.num_inputs} inputs, "
                             f"{len(self.weights)} weights and {self.num_outputs} outputs, got "
                             f"{len(inputs)}, {len(weights)} and {len(outputs)}")
        return self._model.invoke([*inputs, *weights, *outputs])

    def bind_weights(self, arrays: Sequence[np.ndarray]) -> None:
        """Binds the weights, in ``weights``' order, for ``execute``
        (``LoadedArtifact.bind_weights``)."""
        self._model.bind_weights([w.name for w in self.weights], arrays)

    def execute(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Runs on checked inputs with the bound weights
        (``LoadedArtifact.execute``)."""
        return self._model.execute(inputs)

    def run_views(self, views: Sequence[tuple[int, Sequence[int], Sequence[int]]]
                  ) -> dict[str, int]:
        """``run`` on memory that is not numpy's (torch tensors): one (data
        address, shape, strides in elements) per input, weight and output, in
        that order. Dtypes and ranks are the caller's to get right; sizes are
        checked by the compiled code, as in ``run``."""
        expected = self.num_inputs + len(self.weights) + self.num_outputs
        if len(views) != expected:
            raise ValueError(f"{self.name}: expected {expected} views, got {len(views)}")
        return self._model.invoke_views(views)

    def output_shapes(self, types: Sequence[Any], bindings: dict) -> list[list[int]]:
        """The shapes to allocate for outputs of ``types`` given the input
        dims' ``bindings``: dims bound at run time at their upper bound."""
        full = bindings
        if self.bounds:  # (the common case, none, costs no copy per call)
            full = dict(bindings)
            for name, bound in self.bounds.items():
                full[name] = bound.evaluate(bindings)
        return [[d.evaluate(full) for d in t.shape] for t in types]
