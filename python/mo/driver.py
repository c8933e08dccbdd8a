"""Devices and device memory (MAX ``max.driver``).

``CPU()`` and ``GPU(id)`` name devices; ``Buffer`` is a block of device memory
with a shape and a dtype. On the CPU a Buffer owns or views a C-contiguous
numpy array, so moving data in and out through numpy or DLPack copies nothing.

Example:
    >>> import numpy as np
    >>> from mo.driver import CPU, Buffer
    >>> a = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> b = Buffer.from_numpy(a)
    >>> b
    Buffer(shape=(2, 3), dtype=DType.float32, device=CPU())
    >>> b.to_numpy()[0, 0] = 7.0        # a view: writes reach `a`
    >>> float(a[0, 0])
    7.0

GPU buffers are not implemented yet: allocating one raises ``RuntimeError``
(saying that no GPU is available when ``accelerator_count() == 0``).
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from mo.dtype import DType

__all__ = ["Accelerator", "Buffer", "CPU", "Device", "GPU", "accelerator_count"]

_DLPACK_CPU = 1  # kDLCPU
_DLPACK_CUDA = 2  # kDLCUDA
_DLPACK_DEVICE_NAMES = {1: "CPU", 2: "CUDA", 3: "CUDA host", 4: "OpenCL", 7: "Vulkan",
                        8: "Metal", 10: "ROCm", 13: "CUDA managed", 14: "oneAPI"}


class Device:
    """A device: its kind (``label``: ``"cpu"`` or ``"gpu"``) and index (``id``).

    Use ``CPU()`` or ``GPU(id)``; devices compare and hash by ``(label, id)``.

    Example:
        >>> str(GPU(1)), repr(GPU(1)), GPU(1) == GPU(1)
        ('gpu:1', 'GPU(id=1)', True)
    """

    __slots__ = ("_label", "_id")

    def __init__(self, label: str, id: int = 0) -> None:
        if label not in ("cpu", "gpu"):
            raise ValueError(f"unknown device kind {label!r}: expected 'cpu' or 'gpu'")
        if isinstance(id, bool) or not isinstance(id, (int, np.integer)):
            raise TypeError(f"device id must be an int, got {type(id).__name__}")
        if id < 0:
            raise ValueError(f"device id must be non-negative, got {int(id)}")
        self._label = label
        self._id = int(id)

    @property
    def label(self) -> str:
        """``"cpu"`` or ``"gpu"``."""
        return self._label

    @property
    def id(self) -> int:
        """The device index among devices of its kind."""
        return self._id

    @property
    def is_host(self) -> bool:
        """True for the CPU."""
        return self._label == "cpu"

    def __str__(self) -> str:
        return f"{self._label}:{self._id}"

    def __repr__(self) -> str:
        if self._label == "cpu":
            return "CPU()" if self._id == 0 else f"CPU(id={self._id})"
        return f"GPU(id={self._id})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Device):
            return NotImplemented
        return (self._label, self._id) == (other._label, other._id)

    def __hash__(self) -> int:
        return hash((self._label, self._id))

    def __dlpack_device__(self) -> tuple[int, int]:
        return (_DLPACK_CPU, 0) if self.is_host else (_DLPACK_CUDA, self._id)


class CPU(Device):
    """The host CPU.

    Example:
        >>> CPU(), str(CPU())
        (CPU(), 'cpu:0')
    """

    __slots__ = ()

    def __init__(self, id: int = 0) -> None:
        super().__init__("cpu", id)


_HOST = CPU()  # devices are immutable: one serves every host Buffer


class GPU(Device):
    """An NVIDIA GPU, by CUDA device index. Constructing one needs no GPU.

    Example:
        >>> GPU(), str(GPU(2))
        (GPU(id=0), 'gpu:2')
    """

    __slots__ = ()

    def __init__(self, id: int = 0) -> None:
        super().__init__("gpu", id)


Accelerator = GPU


@functools.lru_cache(maxsize=1)
def accelerator_count() -> int:
    """The number of CUDA GPUs the CUDA driver reports (0 without a driver).

    Never raises: a missing ``libcuda``, a failing ``cuInit`` or any other
    problem counts as no GPU. The result is cached for the process.

    Example:
        >>> accelerator_count() >= 0
        True
    """
    for name in ("libcuda.so.1", "libcuda.so"):
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        try:
            if lib.cuInit(ctypes.c_uint(0)) != 0:
                return 0
            count = ctypes.c_int(0)
            if lib.cuDeviceGetCount(ctypes.byref(count)) != 0:
                return 0
            return max(int(count.value), 0)
        except Exception:
            return 0
    return 0


def _check_allocatable(device: Device) -> None:
    """Raises unless memory can be allocated on ``device`` (only the CPU today)."""
    if not isinstance(device, Device):
        raise TypeError(f"device must be a Device (CPU() or GPU(id)), got {type(device).__name__}")
    if device.is_host:
        if device.id != 0:
            raise ValueError(f"there is one CPU device, cpu:0; got {device}")
        return
    n = accelerator_count()
    if n == 0:
        raise RuntimeError(
            f"cannot allocate a Buffer on {device}: no GPU is available "
            f"(no CUDA driver or no CUDA device found)"
        )
    if device.id >= n:
        raise RuntimeError(
            f"cannot allocate a Buffer on {device}: this machine has {n} GPU(s), "
            f"gpu:0 to gpu:{n - 1}"
        )
    raise RuntimeError(
        f"cannot allocate a Buffer on {device}: GPU buffers are not implemented yet "
        f"(mo runs on the CPU only for now)"
    )


def _normalize_shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if isinstance(shape, (str, bytes)):
        raise TypeError(f"shape must be a sequence of ints, got {type(shape).__name__}")
    try:
        shape = tuple(shape)
    except TypeError:
        raise TypeError(f"shape must be a sequence of ints, got {type(shape).__name__}") from None
    out = []
    for i, d in enumerate(shape):
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise TypeError(
                f"a Buffer's shape holds ints (static sizes), got {type(d).__name__} "
                f"{d!r} at axis {i}"
            )
        if d < 0:
            raise ValueError(f"negative dims are not allowed: {int(d)} at axis {i}")
        out.append(int(d))
    return tuple(out)


def _native(arr: np.ndarray) -> np.ndarray:
    """``arr`` if it is C-contiguous in native byte order, else such a copy."""
    dt = arr.dtype
    if not dt.isnative:
        arr = arr.astype(dt.newbyteorder("="))
    if arr.flags.c_contiguous:
        return arr
    # (not np.ascontiguousarray: it turns a 0-d array into a 1-d one)
    return np.array(arr, order="C", copy=True)


class Buffer:
    """A block of device memory with a shape and a dtype.

    On the CPU it owns or views a C-contiguous numpy array. Create one with
    ``Buffer(dtype, shape, device)`` (uninitialized), ``Buffer.zeros``,
    ``Buffer.from_numpy`` or ``Buffer.from_dlpack``.

    Example:
        >>> b = Buffer.zeros([2, 2], DType.int32)
        >>> b.shape, b.dtype, b.num_elements, b.nbytes
        ((2, 2), DType.int32, 4, 16)
    """

    __slots__ = ("_array", "_device", "_dtype", "__weakref__")

    def __init__(self, dtype: DType, shape: Sequence[int], device: Device | None = None) -> None:
        if not isinstance(dtype, DType):
            raise TypeError(f"dtype must be a DType, got {type(dtype).__name__}")
        device = CPU() if device is None else device
        shape = _normalize_shape(shape)
        _check_allocatable(device)
        self._init(np.empty(shape, dtype=dtype.to_numpy()), dtype, device)

    def _init(self, array: np.ndarray, dtype: DType, device: Device) -> None:
        self._array = array
        self._dtype = dtype
        self._device = device

    @classmethod
    def _wrap(cls, array: np.ndarray, device: Device | None = None,
              dtype: DType | None = None) -> Buffer:
        """Wraps a C-contiguous native-order array of a supported dtype (no checks).

        (The attributes set here, not through ``_init``: this is every
        call's result, and the method call was a tenth of ``execute_raw``.)
        """
        self = cls.__new__(cls)
        self._array = array
        self._dtype = dtype or DType.from_numpy(array.dtype)
        self._device = device or _HOST
        return self

    # -- constructors ------------------------------------------------------

    @classmethod
    def zeros(cls, shape: Sequence[int], dtype: DType, device: Device | None = None) -> Buffer:
        """A zero-filled Buffer.

        Example:
            >>> Buffer.zeros([3], DType.float16).to_numpy().tolist()
            [0.0, 0.0, 0.0]
        """
        if not isinstance(dtype, DType):
            raise TypeError(f"dtype must be a DType, got {type(dtype).__name__}")
        device = CPU() if device is None else device
        shape = _normalize_shape(shape)
        _check_allocatable(device)
        return cls._wrap(np.zeros(shape, dtype=dtype.to_numpy()), device)

    @classmethod
    def from_numpy(cls, array: np.ndarray, device: Device | None = None) -> Buffer:
        """A Buffer over a numpy array: zero-copy when it is C-contiguous in
        native byte order, else over a contiguous copy.

        A read-only array gives a read-only Buffer (``writable`` is False).

        Raises:
            TypeError: if ``array`` is not a numpy array or its dtype is not
                supported.

        Example:
            >>> a = np.ones(3, np.float32)
            >>> np.shares_memory(Buffer.from_numpy(a).to_numpy(), a)
            True
        """
        if not isinstance(array, np.ndarray):
            raise TypeError(
                f"Buffer.from_numpy expects a numpy.ndarray, got {_type_name(array)}"
            )
        DType.from_numpy(array.dtype)  # raises TypeError for unsupported dtypes
        device = CPU() if device is None else device
        _check_allocatable(device)
        return cls._wrap(_native(array), device)

    @classmethod
    def from_dlpack(cls, obj: Any) -> Buffer:
        """A Buffer over any CPU DLPack object (numpy, torch, another Buffer).

        Zero-copy when the data is C-contiguous, else a contiguous copy.

        Raises:
            TypeError: if ``obj`` does not implement DLPack or its dtype is not
                supported.
            RuntimeError: if the data lives on a device other than the CPU.

        Example:
            >>> a = np.arange(4, dtype=np.int64)
            >>> np.shares_memory(Buffer.from_dlpack(a).to_numpy(), a)
            True
        """
        if not hasattr(obj, "__dlpack__"):
            raise TypeError(
                f"Buffer.from_dlpack expects an object with __dlpack__, got {_type_name(obj)}"
            )
        if hasattr(obj, "__dlpack_device__"):
            kind, index = obj.__dlpack_device__()
            if int(kind) != _DLPACK_CPU:
                where = _DLPACK_DEVICE_NAMES.get(int(kind), f"DLPack device type {int(kind)}")
                raise RuntimeError(
                    f"Buffer.from_dlpack: the data lives on {where} device {int(index)}; "
                    f"only CPU data is supported for now"
                )
        try:
            array = np.from_dlpack(obj)
        except (BufferError, TypeError, ValueError, RuntimeError) as e:
            raise TypeError(
                f"Buffer.from_dlpack could not import a {_type_name(obj)}: {e}"
            ) from None
        DType.from_numpy(array.dtype)
        return cls._wrap(_native(array), CPU())

    # -- properties --------------------------------------------------------

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape, a tuple of ints."""
        return self._array.shape

    @property
    def dtype(self) -> DType:
        """The element type."""
        return self._dtype

    @property
    def device(self) -> Device:
        """The device holding the memory."""
        return self._device

    @property
    def rank(self) -> int:
        """The number of dimensions."""
        return self._array.ndim

    @property
    def num_elements(self) -> int:
        """The number of elements (the product of the shape)."""
        return int(self._array.size)

    @property
    def nbytes(self) -> int:
        """The size of the memory in bytes."""
        return int(self._array.nbytes)

    @property
    def writable(self) -> bool:
        """False when the Buffer views read-only memory."""
        return bool(self._array.flags.writeable)

    @property
    def data_ptr(self) -> int:
        """The address of the first element (for passing to compiled code)."""
        return int(self._array.ctypes.data)

    # -- numpy / DLPack ----------------------------------------------------

    def to_numpy(self) -> np.ndarray:
        """A numpy view of the memory (zero-copy; writes reach the Buffer).

        Example:
            >>> b = Buffer.zeros([2], DType.float32)
            >>> b.to_numpy()[1] = 5
            >>> b.to_numpy().tolist()
            [0.0, 5.0]
        """
        return self._array.view()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        if copy:
            return np.array(self._array, dtype=dtype, copy=True)
        if dtype is None or np.dtype(dtype) == self._array.dtype:
            return self._array.view()
        if copy is False:
            raise ValueError("converting a Buffer to another dtype needs a copy")
        return self._array.astype(dtype)

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None,
                   dl_device: Any = None, copy: bool | None = None) -> Any:
        """Exports the memory as a DLPack capsule (zero-copy).

        ``bfloat16`` buffers cannot be exported: numpy's DLPack has no
        bfloat16 (``BufferError``).
        """
        kwargs: dict[str, Any] = {}
        if stream is not None:
            kwargs["stream"] = stream
        if max_version is not None:
            kwargs["max_version"] = max_version
        if dl_device is not None:
            kwargs["dl_device"] = dl_device
        if copy is not None:
            kwargs["copy"] = copy
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self._device.__dlpack_device__()

    def __repr__(self) -> str:
        return f"Buffer(shape={self.shape}, dtype={self._dtype!r}, device={self._device!r})"


def _type_name(obj: Any) -> str:
    t = type(obj)
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"
