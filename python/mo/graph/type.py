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

from mo._record import record
from mo.driver import CPU, GPU, Device
from mo.dtype import DType
from mo.graph.dim import Dim, DimLike, Shape

if TYPE_CHECKING:
    from mo.sharding import BufferLayout, TensorLayout

__all__ = ["BufferType", "DeviceRef", "TensorType"]


@record(repr=False)
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

    label: str
    """``"cpu"`` or ``"gpu"``."""
    id: int = 0
    """The device index."""

    def __post_init__(self) -> None:
        # Device validates both and turns a numpy integer id into an int.
        object.__setattr__(self, "id", Device(self.label, self.id).id)

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
        return CPU(self.id) if self.label == "cpu" else GPU(self.id)

    @property
    def device_type(self) -> str:
        """Same as ``label`` (MAX's name)."""
        return self.label

    def is_cpu(self) -> bool:
        """True for the CPU."""
        return self.label == "cpu"

    def is_gpu(self) -> bool:
        """True for a GPU."""
        return self.label == "gpu"

    def __str__(self) -> str:
        return f"{self.label}:{self.id}"

    def __repr__(self) -> str:
        if self.label == "cpu":
            return "DeviceRef.CPU()" if self.id == 0 else f"DeviceRef.CPU({self.id})"
        return f"DeviceRef.GPU({self.id})"


def _as_device_ref(device: Any) -> DeviceRef:
    if device is None:
        return DeviceRef.CPU()
    return DeviceRef.from_device(device)


@record(init=False, repr=False)
class _ShapedType:
    """dtype + dims + device: the record both graph types and (through them)
    the layouts of ``mo.sharding`` are built on."""

    dtype: DType
    """The element type."""
    dims: tuple[Dim, ...]
    """The dims as a tuple."""
    device: DeviceRef
    """Where the value lives."""

    def __init__(self, dtype: DType, shape: Iterable[DimLike],
                 device: DeviceRef | Device | None = None) -> None:
        if not isinstance(dtype, DType):
            raise TypeError(f"dtype must be a DType, got {type(dtype).__name__} {dtype!r}")
        object.__setattr__(self, "dtype", dtype)
        object.__setattr__(self, "dims", tuple(Shape(shape)))
        object.__setattr__(self, "device", _as_device_ref(device))

    @property
    def shape(self) -> Shape:
        """The dims (a fresh ``Shape`` list; mutating it changes nothing here)."""
        return Shape(self.dims)

    @property
    def rank(self) -> int:
        """The number of dims."""
        return len(self.dims)

    @property
    def symbols(self) -> frozenset[str]:
        """The symbolic names the dims use."""
        return Shape(self.dims).symbols

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(dtype={self.dtype}, shape={list(self.dims)!r}, "
            f"device={self.device})"
        )


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
        from mo.sharding import TensorLayout  # lazy: mo.sharding imports this module

        return TensorLayout(self.dtype, self.dims, self.device)

    def as_buffer(self) -> BufferType:
        """The ``BufferType`` with the same dtype, shape and device."""
        return BufferType(self.dtype, self.dims, self.device)


class BufferType(_ShapedType):
    """The type of a mutable buffer: dtype, shape and device.

    Example:
        >>> BufferType(DType.float32, [4]).to_layout()
        BufferLayout(DType.float32, [4], DeviceMapping(DeviceMesh(_=1), [Replicated()]))
    """

    __slots__ = ()

    def to_layout(self) -> BufferLayout:
        """The single-device ``BufferLayout`` of this type."""
        from mo.sharding import BufferLayout  # lazy: mo.sharding imports this module

        return BufferLayout(self.dtype, self.dims, self.device)

    def as_tensor(self) -> TensorType:
        """The ``TensorType`` with the same dtype, shape and device."""
        return TensorType(self.dtype, self.dims, self.device)
