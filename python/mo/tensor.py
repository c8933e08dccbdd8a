"""``Tensor``: the one user-facing value (MAX ``max.experimental.tensor``).

Inside a trace (``compilation.stage``/``compile``) a Tensor is a symbolic
graph value; outside it holds a ``driver.Buffer`` and every operation runs
eagerly (each op is compiled once per input types and cached, see
``mo._eager``).

Example:
    >>> t = Tensor.ones([2, 3])
    >>> (t * 2 + 1).to_numpy().tolist()
    [[3.0, 3.0, 3.0], [3.0, 3.0, 3.0]]
    >>> t.shape, t.dtype
    ([Dim(2), Dim(3)], DType.float32)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mo import _operators
from mo.driver import Buffer, Device
from mo.dtype import DType
from mo.graph.dim import Shape, StaticDim

__all__ = ["Tensor"]


def _F():
    from mo import functional

    return functional


class Tensor:
    """A tensor: eager (backed by a Buffer) or symbolic (inside a trace).

    ``Tensor(data)`` takes a numpy array, a Buffer, a DLPack object or nested
    lists (zero-copy where the layout allows).
    """

    __slots__ = ("_buffer", "_value")

    def __init__(self, data: Any = None, *, dtype: DType | None = None,
                 device: Device | None = None) -> None:
        self._value = None
        if isinstance(data, Buffer):
            self._buffer = data
            return
        if isinstance(data, Tensor):
            self._buffer, self._value = data._buffer, data._value
            return
        if data is None:
            raise TypeError("Tensor() needs data: an array, a Buffer, a DLPack object or a list")
        if hasattr(data, "__dlpack__") and not isinstance(data, np.ndarray):
            array = np.from_dlpack(data)
        else:
            array = np.asarray(data, dtype=dtype.to_numpy() if dtype else None)
            if dtype is None and array.dtype == np.float64 and not isinstance(data, np.ndarray):
                array = array.astype(np.float32)  # Python floats default to float32, as MAX
        if dtype is not None and DType.from_numpy(array.dtype) is not dtype:
            array = array.astype(dtype.to_numpy())
        self._buffer = Buffer.from_numpy(array, device)

    # -- construction

    @classmethod
    def _from_value(cls, value: Any) -> Tensor:
        self = cls.__new__(cls)
        self._buffer = None
        self._value = value
        return self

    @classmethod
    def _from_buffer(cls, buffer: Buffer) -> Tensor:
        self = cls.__new__(cls)
        self._buffer = buffer
        self._value = None
        return self

    @classmethod
    def from_numpy(cls, array: np.ndarray, device: Device | None = None) -> Tensor:
        """A Tensor viewing ``array`` (zero-copy when C-contiguous)."""
        return cls(Buffer.from_numpy(np.asarray(array), device))

    @classmethod
    def from_dlpack(cls, obj: Any) -> Tensor:
        """A Tensor sharing memory with a DLPack object (torch, jax, numpy...)."""
        return cls(Buffer.from_dlpack(obj))

    @classmethod
    def full(cls, shape: Sequence[int], value: Any, dtype: DType = DType.float32,
             device: Device | None = None) -> Tensor:
        """A tensor of ``shape`` filled with ``value``."""
        return cls(Buffer.from_numpy(np.full(tuple(shape), value, dtype.to_numpy()), device))

    @classmethod
    def ones(cls, shape: Sequence[int], dtype: DType = DType.float32,
             device: Device | None = None) -> Tensor:
        return cls.full(shape, 1, dtype, device)

    @classmethod
    def zeros(cls, shape: Sequence[int], dtype: DType = DType.float32,
              device: Device | None = None) -> Tensor:
        return cls.full(shape, 0, dtype, device)

    @classmethod
    def arange(cls, start: Any, stop: Any = None, step: Any = 1, dtype: DType = DType.float32,
               device: Device | None = None) -> Tensor:
        """Evenly spaced values in ``[start, stop)`` (numpy's ``arange``)."""
        if stop is None:
            start, stop = 0, start
        if step == 0:
            raise ValueError("arange: step must not be zero")
        return cls(Buffer.from_numpy(np.arange(start, stop, step, dtype=dtype.to_numpy()), device))

    # -- state

    @property
    def is_symbolic(self) -> bool:
        """True for a value inside a trace (no data yet)."""
        return self._value is not None

    def _graph_value(self) -> Any:
        """The graph value of this tensor in the current trace (eager tensors are
        embedded as constants)."""
        if self._value is not None:
            from mo.graph.graph import BufferValue

            if isinstance(self._value, BufferValue):
                from mo.graph import ops

                return ops.buffer_load(self._value)
            return self._value
        from mo.graph import ops

        return ops.constant(self._buffer.to_numpy(), self.dtype)

    @property
    def dtype(self) -> DType:
        return self._value.dtype if self._value is not None else self._buffer.dtype

    @property
    def shape(self) -> Shape:
        if self._value is not None:
            return self._value.shape
        return Shape([StaticDim(s) for s in self._buffer.shape])

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def device(self) -> Device:
        if self._value is not None:
            return self._value.device.to_device()
        return self._buffer.device

    @property
    def layout(self) -> Any:
        """The ``TensorLayout`` describing this tensor (all dims as they are now)."""
        from mo.sharding import TensorLayout

        return TensorLayout(self.dtype, list(self.shape), self.device)

    def buffer(self) -> Buffer:
        """The Buffer behind an eager tensor."""
        if self._buffer is None:
            raise TypeError("a Tensor inside a trace has no data: it is a graph value")
        return self._buffer

    def to_numpy(self) -> np.ndarray:
        """The data as a numpy array (a view, no copy)."""
        return self.buffer().to_numpy()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        array = self.to_numpy()
        return array if dtype is None else array.astype(dtype)

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        return self.buffer().__dlpack__(*args, **kwargs)

    def __dlpack_device__(self) -> Any:
        return self.buffer().__dlpack_device__()

    def __repr__(self) -> str:
        if self._value is not None:
            return f"Tensor(<symbolic> {self.dtype.name}{self.shape} on {self.device})"
        return f"Tensor({self.to_numpy()!r}, dtype={self.dtype!r}, device={self.device!r})"

    def __bool__(self) -> bool:
        if self._value is not None:
            raise TypeError("the truth value of a symbolic Tensor is unknown while tracing "
                            "(use F.where / cond instead of Python `if`)")
        return bool(self.to_numpy())

    def __len__(self) -> int:
        d = self.shape[0]
        if not isinstance(d, StaticDim):
            raise TypeError(f"len() of a tensor with symbolic first dim {d}")
        return d.value

    # Operators: see the install() call after the class.
    __array_ufunc__ = None  # numpy defers `array + tensor` to Tensor

    def __setitem__(self, index: Any, value: Any) -> None:
        _F().buffer_store(self, value, index)

    def __getitem__(self, index: Any) -> Tensor:
        """Basic indexing: ints and slices (``x[0]``, ``x[1:5:2, :]``)."""
        items = index if isinstance(index, tuple) else (index,)
        if all(i is Ellipsis or (isinstance(i, slice) and i == slice(None)) for i in items):
            return self
        return _F().slice_tensor(self, index)


_operators.install(Tensor, lambda op, *args, **kwargs: getattr(_F(), op)(*args, **kwargs))
