"""Graph value types (MAX ``max.graph.TensorType``, ``BufferType``, ``DeviceRef``).

``TensorType`` is the type of an immutable tensor value in a graph
(``!mo.tensor<[batch, 2], f32>``); ``BufferType`` the type of a mutable buffer
(``!mo.buffer<...>``); ``DeviceRef`` names the device a value lives on. They
are plain Python descriptions: building the MLIR types from them is the graph
builder's job.

Example:
    >>> from mo.dtype import DType
    >>> from mo.graph.type import DeviceRef, TensorType
    >>> t = TensorType(DType.float32, ["batch", 2], DeviceRef.CPU())
    >>> t
    TensorType(dtype=float32, shape=[Dim('batch'), Dim(2)], device=cpu:0)
    >>> t.rank, str(t.shape), t.to_layout()
    (2, '[batch, 2]', TensorLayout(DType.float32, [batch, 2], DeviceMapping(DeviceMesh(_=1), [Replicated()])))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from mo.driver import CPU, GPU, Device
from mo.dtype import DType
from mo.graph.dim import Dim, DimLike, Shape

if TYPE_CHECKING:
    from mo.sharding import BufferLayout, TensorLayout

__all__ = ["BufferType", "DeviceRef", "TensorType"]


class DeviceRef:
    """A reference to a device in a graph: ``cpu:0``, ``gpu:1``.

    Converts to and from driver devices (``to_device()``,
    ``DeviceRef.from_device(CPU())``); needs no hardware.

    Example:
        >>> DeviceRef.GPU(1), str(DeviceRef.CPU()), DeviceRef.CPU().to_device()
        (DeviceRef.GPU(1), 'cpu:0', CPU())
        >>> DeviceRef.from_device(GPU(1)) == DeviceRef.GPU(1)
        True
    """

    __slots__ = ("_label", "_id")

    def __init__(self, label: str, id: int = 0) -> None:
        dev = Device(label, id)  # validates
        object.__setattr__(self, "_label", dev.label)
        object.__setattr__(self, "_id", dev.id)

    @staticmethod
    def CPU(id: int = 0) -> DeviceRef:  # noqa: N802 (MAX's spelling)
        """The host CPU."""
        return DeviceRef("cpu", id)

    @staticmethod
    def GPU(id: int = 0) -> DeviceRef:  # noqa: N802 (MAX's spelling)
        """GPU ``id``."""
        return DeviceRef("gpu", id)

    @staticmethod
    def from_device(device: Device | DeviceRef) -> DeviceRef:
        """The DeviceRef of a driver device (a DeviceRef is returned as is).

        Raises:
            TypeError: for anything else.
        """
        if isinstance(device, DeviceRef):
            return device
        if isinstance(device, Device):
            return DeviceRef(device.label, device.id)
        raise TypeError(
            f"expected a Device (CPU(), GPU(id)) or a DeviceRef, got {type(device).__name__}"
        )

    def to_device(self) -> Device:
        """The driver device (``CPU()`` or ``GPU(id)``); allocates nothing."""
        return CPU(self._id) if self._label == "cpu" else GPU(self._id)

    @property
    def label(self) -> str:
        """``"cpu"`` or ``"gpu"``."""
        return self._label

    @property
    def device_type(self) -> str:
        """Same as ``label`` (MAX's name)."""
        return self._label

    @property
    def id(self) -> int:
        """The device index."""
        return self._id

    def is_cpu(self) -> bool:
        """True for the CPU."""
        return self._label == "cpu"

    def is_gpu(self) -> bool:
        """True for a GPU."""
        return self._label == "gpu"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("DeviceRef is immutable")

    def __reduce__(self) -> Any:
        return (DeviceRef, (self._label, self._id))

    def __str__(self) -> str:
        return f"{self._label}:{self._id}"

    def __repr__(self) -> str:
        if self._label == "cpu":
            return "DeviceRef.CPU()" if self._id == 0 else f"DeviceRef.CPU({self._id})"
        return f"DeviceRef.GPU({self._id})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DeviceRef):
            return NotImplemented
        return (self._label, self._id) == (other._label, other._id)

    def __hash__(self) -> int:
        return hash(("DeviceRef", self._label, self._id))


def _as_device_ref(device: Any) -> DeviceRef:
    if device is None:
        return DeviceRef.CPU()
    return DeviceRef.from_device(device)


def _dims(shape: Any) -> tuple[Dim, ...]:
    return tuple(Shape(shape))


class _ShapedType:
    __slots__ = ("_dtype", "_dims", "_device")

    _is_buffer = False

    def __init__(self, dtype: DType, shape: Iterable[DimLike],
                 device: DeviceRef | Device | None = None) -> None:
        if not isinstance(dtype, DType):
            raise TypeError(f"dtype must be a DType, got {type(dtype).__name__} {dtype!r}")
        object.__setattr__(self, "_dtype", dtype)
        object.__setattr__(self, "_dims", _dims(shape))
        object.__setattr__(self, "_device", _as_device_ref(device))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> Any:
        return (type(self), (self._dtype, self._dims, self._device))

    @property
    def dtype(self) -> DType:
        """The element type."""
        return self._dtype

    @property
    def shape(self) -> Shape:
        """The dims (a fresh ``Shape`` list)."""
        return Shape(self._dims)

    @property
    def device(self) -> DeviceRef:
        """Where the value lives."""
        return self._device

    @property
    def rank(self) -> int:
        """The number of dims."""
        return len(self._dims)

    @property
    def symbols(self) -> frozenset[str]:
        """The symbolic names the dims use."""
        return Shape(self._dims).symbols

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(dtype={self._dtype}, shape={list(self._dims)!r}, "
            f"device={self._device})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _ShapedType):
            return NotImplemented
        return (type(self), self._dtype, self._dims, self._device) == (
            type(other), other._dtype, other._dims, other._device
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._dtype, self._dims, self._device))


class TensorType(_ShapedType):
    """The type of an immutable tensor value: dtype, shape and device.

    Args:
        dtype: the element type.
        shape: ints (static), strs (symbolic names) and Dims.
        device: a ``DeviceRef`` or a driver ``Device`` (default: the CPU).

    Raises:
        ValueError: for a negative dim or an invalid symbolic name.
        TypeError: for a non-DType dtype, a non-dim entry or a bad device.

    Example:
        >>> TensorType(DType.int64, [3], CPU()).device
        DeviceRef.CPU()
    """

    __slots__ = ()

    def to_layout(self) -> TensorLayout:
        """The single-device ``TensorLayout`` of this type."""
        from mo.sharding import TensorLayout

        return TensorLayout(self._dtype, list(self._dims), self._device.to_device())

    def as_buffer(self) -> BufferType:
        """The ``BufferType`` with the same dtype, shape and device."""
        return BufferType(self._dtype, self._dims, self._device)


class BufferType(_ShapedType):
    """The type of a mutable buffer: dtype, shape and device.

    Example:
        >>> BufferType(DType.float32, [4]).to_layout()
        BufferLayout(DType.float32, [4], DeviceMapping(DeviceMesh(_=1), [Replicated()]))
    """

    __slots__ = ()

    _is_buffer = True

    def to_layout(self) -> BufferLayout:
        """The single-device ``BufferLayout`` of this type."""
        from mo.sharding import BufferLayout

        return BufferLayout(self._dtype, list(self._dims), self._device.to_device())

    def as_tensor(self) -> TensorType:
        """The ``TensorType`` with the same dtype, shape and device."""
        return TensorType(self._dtype, self._dims, self._device)
