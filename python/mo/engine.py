"""Run compiled graphs without the compiler (MAX ``max.engine``).

``read(path_or_file)`` loads a mo executable (``.mef``, written by
``CompiledCallable.export_mef``): its checksum, format version, manifest and
target CPU features are verified, then its native code is linked: no pass
and no code generation run. ``InferenceSession.load`` takes an artifact, a
staged graph or a compiled callable, binds weights (checked by name, dtype,
shape and size) and returns a ``Model``; ``Model.execute(*arrays)`` checks
the arrays against the signature and returns ``Buffer``\\ s.

Example:
    >>> import numpy as np
    >>> from mo.compilation import compile
    >>> from mo.driver import CPU
    >>> from mo.dtype import DType
    >>> from mo.sharding import TensorLayout
    >>> run = compile(lambda x: x * 2)(TensorLayout(DType.float32, ["n"], CPU()))
    >>> session = InferenceSession(devices=[CPU()])
    >>> model = session.load(run)
    >>> model.input_metadata
    [TensorSpec(shape=[None], dtype=DType.float32, name='0', dims=['n'])]
    >>> model.execute(np.arange(3, dtype=np.float32))[0].to_numpy().tolist()
    [0.0, 2.0, 4.0]

The same runtime has a C API (``mo-c/Runtime.h``, in the library
``include_dir()`` and ``library_path()`` locate) for C and C++ hosts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from mo.driver import CPU, Buffer, Device
from mo.dtype import DType

__all__ = ["CompiledModel", "InferenceSession", "Model", "TensorSpec", "include_dir",
           "library_path", "read"]


@dataclass(frozen=True)
class TensorSpec:
    """An input's or output's type: ``shape`` has None for a symbolic dim
    (as MAX's), ``dims`` every dim as written (``4``, ``"batch"``,
    ``"n + 1"``)."""

    shape: list[int | None]
    dtype: DType
    name: str
    dims: list[str] = field(default_factory=list)


def _specs(entries: list[dict[str, Any]]) -> list[TensorSpec]:
    return [TensorSpec([d if isinstance(d, int) else None for d in e["shape"]],
                       DType(e["dtype"]), e["name"], list(e.get("dims", map(str, e["shape"]))))
            for e in entries]


class CompiledModel:
    """A verified, linked artifact: what ``InferenceSession.init`` makes a
    ``Model`` of. ``manifest`` is its manifest (signature, target, compiler)."""

    def __init__(self, data: bytes, origin: str, shared_libs: Sequence[str] = ()) -> None:
        from mo.compiler import LoadedArtifact

        try:
            self._runtime = LoadedArtifact(data, shared_libs)
        except ValueError as e:
            raise ValueError(f"{origin}: {e}") from None
        self._data = data
        self.manifest: dict[str, Any] = self._runtime.manifest
        self.name: str = self.manifest["entry"]
        self.input_metadata = _specs(self.manifest["inputs"])
        self.output_metadata = _specs(self.manifest["outputs"])
        self.weights = [(w.name, w.type.dtype, [d.value for d in w.type.shape])
                        for w in self._runtime.weights]

    def export_mef(self, path: str | os.PathLike) -> None:
        """Writes the artifact as it was read."""
        from mo._files import atomic_write

        atomic_write(path, lambda f: f.write(self._data))

    def __repr__(self) -> str:
        return f"CompiledModel({self.name!r}, inputs={len(self.input_metadata)}, " \
               f"outputs={len(self.output_metadata)}, weights={len(self.weights)})"


def read(path_or_file: str | os.PathLike | BinaryIO | bytes) -> CompiledModel:
    """Loads a ``.mef`` from a path, a binary file object or bytes.

    Raises:
        ValueError: the data is truncated, corrupt, not an artifact, of a
            future format or compiled for CPU features this host lacks.
        OSError: the file cannot be read.
    """
    if isinstance(path_or_file, (bytes, bytearray, memoryview)):
        return CompiledModel(bytes(path_or_file), "artifact")
    if isinstance(path_or_file, (str, os.PathLike)):
        path = os.fspath(path_or_file)
        with open(path, "rb") as f:
            return CompiledModel(f.read(), path)
    if hasattr(path_or_file, "read"):
        data = path_or_file.read()
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"read: expected a binary file, got one that reads "
                            f"{type(data).__name__}")
        return CompiledModel(bytes(data), getattr(path_or_file, "name", "artifact"))
    raise TypeError(f"read: expected a path, a binary file or bytes, got "
                    f"{type(path_or_file).__name__}")


class Model:
    """A compiled graph with its weights bound, ready to run."""

    def __init__(self, compiled: CompiledModel, weights: Mapping[str, Any]) -> None:
        from mo.compilation import _weight_arrays

        self._compiled = compiled
        self._runtime = compiled._runtime
        self.input_metadata = compiled.input_metadata
        self.output_metadata = compiled.output_metadata
        specs = self._runtime.weights
        # The runtime borrows the arrays: the model keeps them.
        self._weights = _weight_arrays(specs, weights, "weights_registry")
        self._runtime.bind_weights([w.name for w in specs], self._weights)
        self._out_dtypes = [spec.dtype for spec in self.output_metadata]
        self._buffers = [i.get("buffer", False) for i in compiled.manifest["inputs"]]

    def execute(self, *inputs: Any) -> list[Buffer]:
        """Runs on ``inputs`` (Tensors, Buffers, numpy arrays or DLPack
        objects), checked against ``input_metadata``: a mismatch is a
        ``ValueError`` naming the argument."""
        # Buffers and arrays as they are; what the runtime refuses converted
        # (nothing ran: the checks come first) or explained.
        arrays = [x._array if type(x) is Buffer else x for x in inputs]
        try:
            outputs = self._runtime.execute(arrays)
        except (TypeError, ValueError):
            from mo.compilation import _runtime_arrays

            outputs = self._runtime.execute(_runtime_arrays(inputs, self._buffers))
        return [Buffer._wrap(o, dtype=d) for o, d in zip(outputs, self._out_dtypes)]

    __call__ = execute

    def __repr__(self) -> str:
        return f"Model({self._compiled.name!r})"


class InferenceSession:
    """Loads and holds models (MAX ``InferenceSession``); CPU only."""

    def __init__(self, devices: Sequence[Device] = (), num_threads: int | None = None, *,
                 custom_extensions: Any = None) -> None:
        for d in devices:
            if not isinstance(d, Device) or not d.is_host:
                raise ValueError(f"InferenceSession: only the CPU is supported, got {d!r}")
        if num_threads is not None:
            from mo.compiler import set_num_threads

            set_num_threads(num_threads)
        self.devices = list(devices) or [CPU()]
        self.custom_extensions = custom_extensions
        self.models: list[Model] = []

    def load(self, model: Any, *, weights_registry: Mapping[str, Any] | None = None) -> Model:
        """A ``Model`` of an artifact (path, file, bytes or ``CompiledModel``),
        a ``StagedGraph`` or a ``CompiledCallable``."""
        from mo.compilation import CompiledCallable, StagedGraph

        if isinstance(model, StagedGraph):
            model = model.compile()
        if isinstance(model, CompiledCallable):
            if weights_registry is None:
                weights_registry = model.weights
            model = read(model._exe.artifact(bytecode=False))
        elif not isinstance(model, CompiledModel):
            model = read(model)
        return self.init(model, weights_registry=weights_registry)

    def init(self, compiled: CompiledModel, weights_registry: Mapping[str, Any] | None = None
             ) -> Model:
        """A ``Model`` of a ``CompiledModel`` with ``weights_registry`` bound."""
        if not isinstance(compiled, CompiledModel):
            from mo.compilation import CompiledCallable

            if isinstance(compiled, CompiledCallable):
                return self.load(compiled, weights_registry=weights_registry)
            raise TypeError(f"init: expected a CompiledModel, got {type(compiled).__name__}")
        loaded = Model(compiled, weights_registry or {})
        self.models.append(loaded)
        return loaded


def include_dir() -> str:
    """The directory holding ``mo-c/Runtime.h``."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


def library_path() -> str:
    """The shared library with the runtime's C API (link with it)."""
    from mo import _cache

    return _cache.native_library()

