"""Layouts: what a staged function's tensor arguments look like (MAX
``max.experimental.sharding``).

A ``TensorLayout`` (read-only argument) or ``BufferLayout`` (writable
argument) is a dtype, a shape of dims (ints, symbolic names, expressions) and
a device mapping. mo runs on one device, so the mapping is always one device,
replicated; constructing a multi-device mesh or a ``Sharded`` mapping raises
``NotImplementedError``.

Example:
    >>> from mo.driver import CPU
    >>> from mo.dtype import DType
    >>> spec = TensorLayout(DType.float32, ["batch", 2], CPU())
    >>> spec
    TensorLayout(DType.float32, [batch, 2], DeviceMapping(DeviceMesh(_=1), [Replicated()]))
    >>> bindings = DimBindings()
    >>> spec.matches((4, 2), DType.float32, CPU(), bindings, argument=0) is None
    True
    >>> spec.matches((7, 2), DType.float32, CPU(), bindings, argument=1)
    "dim 'batch' is 4 in argument 0 but 7 in argument 1"
    >>> spec.matches((4, 2), DType.float64, CPU(), bindings, argument=2)
    'argument 2: expected float32 shape [batch, 2] on cpu:0, got float64 shape [4, 2] on cpu:0'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mo._record import record
from mo.driver import CPU, Device
from mo.dtype import DType
from mo.graph.dim import AlgebraicDim, Dim, DimLike, Shape, StaticDim, SymbolicDim
from mo.graph.type import BufferType, DeviceRef, TensorType

__all__ = [
    "BufferLayout",
    "DeviceMapping",
    "DeviceMesh",
    "DimBindings",
    "Placement",
    "Replicated",
    "Sharded",
    "TensorLayout",
    "as_layout",
]

_MULTI_DEVICE = (
    "multi-device sharding is out of scope: mo compiles for one device, so a layout's mapping "
    "is one device with a Replicated() placement"
)


def _to_device(x: Any) -> Device | None:
    if isinstance(x, Device):
        return x
    if isinstance(x, DeviceRef):
        return x.to_device()
    return None


@record(init=False, repr=False)
class DeviceMesh:
    """The devices a layout spans; in mo, exactly one device.

    Its one mesh axis is named ``_`` (MAX's repr: ``DeviceMesh(_=1)``).

    Args:
        devices: one device (a driver ``Device`` or a ``DeviceRef``), or a
            sequence holding one device.

    Raises:
        NotImplementedError: for more than one device.

    Example:
        >>> DeviceMesh(CPU()), DeviceMesh([CPU()]).devices
        (DeviceMesh(_=1), (CPU(),))
    """

    device: Device
    """The mesh's only device."""

    def __init__(self, devices: Any = None) -> None:
        if devices is None:
            devices = CPU()
        dev = _to_device(devices)
        if dev is None:
            if isinstance(devices, (str, bytes)):
                raise TypeError(f"expected a device or a sequence of devices, got str {devices!r}")
            try:
                seq = list(devices)
            except TypeError:
                raise TypeError(
                    f"expected a device or a sequence of devices, got {type(devices).__name__}"
                ) from None
            if len(seq) != 1:
                if not seq:
                    raise ValueError("a DeviceMesh needs a device")
                raise NotImplementedError(f"{_MULTI_DEVICE}; got a mesh of {len(seq)} devices")
            dev = _to_device(seq[0])
            if dev is None:
                raise TypeError(
                    f"expected a device (CPU(), GPU(id) or a DeviceRef), got "
                    f"{type(seq[0]).__name__}"
                )
        object.__setattr__(self, "device", dev)

    @property
    def devices(self) -> tuple[Device, ...]:
        """The devices (one)."""
        return (self.device,)

    @property
    def mesh_shape(self) -> tuple[int, ...]:
        """``(1,)``."""
        return (1,)

    @property
    def axis_names(self) -> tuple[str, ...]:
        """``('_',)``."""
        return ("_",)

    @property
    def num_devices(self) -> int:
        """1."""
        return 1

    def __repr__(self) -> str:
        return "DeviceMesh(_=1)"


class Placement:
    """How a tensor is laid out along one mesh axis."""

    __slots__ = ()


@record
class Replicated(Placement):
    """Every device holds the whole tensor.

    Example:
        >>> Replicated(), Replicated() == Replicated()
        (Replicated(), True)
    """


@record
class Sharded(Placement):
    """The tensor is split along ``axis`` across the mesh axis.

    Can be constructed (to name it), but a ``DeviceMapping`` using it raises
    ``NotImplementedError``: mo has no multi-device support.

    Example:
        >>> Sharded(0)
        Sharded(axis=0)
    """

    axis: int
    """The tensor axis that is split."""

    def __post_init__(self) -> None:
        if isinstance(self.axis, bool) or not isinstance(self.axis, int):
            raise TypeError(f"Sharded axis must be an int, got {type(self.axis).__name__}")


@record(repr=False)
class DeviceMapping:
    """A mesh and one placement per mesh axis: in mo, one device, replicated.

    Raises:
        NotImplementedError: for a ``Sharded`` placement.
        ValueError: for a number of placements other than one.

    Example:
        >>> DeviceMapping(DeviceMesh(CPU()), [Replicated()])
        DeviceMapping(DeviceMesh(_=1), [Replicated()])
    """

    mesh: DeviceMesh
    """The device mesh."""
    placements: tuple[Placement, ...] = (Replicated(),)
    """One placement per mesh axis."""

    def __post_init__(self) -> None:
        if not isinstance(self.mesh, DeviceMesh):
            raise TypeError(f"mesh must be a DeviceMesh, got {type(self.mesh).__name__}")
        placements = tuple(self.placements)
        for p in placements:
            if isinstance(p, Sharded):
                raise NotImplementedError(f"{_MULTI_DEVICE}; got {p!r}")
            if not isinstance(p, Replicated):
                raise TypeError(
                    f"placements must be Replicated() or Sharded(axis), got {type(p).__name__}"
                )
        if len(placements) != 1:
            raise ValueError(
                f"a DeviceMapping needs one placement per mesh axis (1), got {len(placements)}"
            )
        object.__setattr__(self, "placements", placements)

    @property
    def device(self) -> Device:
        """The one device."""
        return self.mesh.device

    def __repr__(self) -> str:
        return f"DeviceMapping({self.mesh!r}, {list(self.placements)!r})"


def _to_mapping(x: Any) -> DeviceMapping:
    if isinstance(x, DeviceMapping):
        return x
    if isinstance(x, DeviceMesh):
        return DeviceMapping(x, [Replicated()])
    dev = _to_device(x)
    if dev is None:
        raise TypeError(
            f"expected a device (CPU(), GPU(id), a DeviceRef, a DeviceMesh or a "
            f"DeviceMapping), got {type(x).__name__}"
        )
    return DeviceMapping(DeviceMesh(dev), [Replicated()])


class DimBindings(dict):
    """Sizes bound to symbolic dims while checking call arguments.

    A ``dict`` from name to size that also remembers where each name was
    bound (``sources[name] == (argument, axis)``), so a conflict can name
    both arguments. Share one across all the arguments of a call.

    Example:
        >>> b = DimBindings()
        >>> spec = TensorLayout(DType.int32, ["n"], CPU())
        >>> spec.matches((5,), DType.int32, CPU(), b, argument="x")
        >>> dict(b), b.sources
        ({'n': 5}, {'n': ('x', 0)})
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sources: dict[str, tuple[str, int]] = {}


@record(init=False, repr=False)
class TensorLayout:
    """A read-only tensor argument: dtype, shape and device mapping.

    A layout is a graph type (``to_type()``: the dtype, dims and device) plus
    the device mapping; ``BufferLayout`` holds a ``BufferType``.

    Args:
        dtype: the element type.
        shape: ints (static sizes), strs (symbolic names, ``^[A-Za-z_]\\w*$``)
            and Dims; a sequence, not a single str.
        device: a ``Device``, a ``DeviceRef``, a single-device ``DeviceMesh``
            or a ``DeviceMapping``.

    Raises:
        ValueError: for a negative dim (MAX accepts them; mo does not) or an
            invalid symbolic name.
        TypeError: for a non-DType dtype, a bad shape entry or device.

    Example:
        >>> t = TensorLayout(DType.float32, ["batch", 2], CPU())
        >>> t.rank, t.device, str(t.shape), t.symbols, t.is_buffer
        (2, CPU(), '[batch, 2]', frozenset({'batch'}), False)
        >>> t == TensorLayout(DType.float32, ["batch", 2], CPU()), t == t.as_buffer()
        (True, False)
    """

    _type: TensorType | BufferType
    mapping: DeviceMapping
    """The device mapping."""

    is_buffer = False

    def __init__(self, dtype: DType, shape: Iterable[DimLike], device: Any = None) -> None:
        mapping = _to_mapping(CPU() if device is None else device)
        kind = BufferType if self.is_buffer else TensorType
        object.__setattr__(self, "_type", kind(dtype, shape, DeviceRef.from_device(mapping.device)))
        object.__setattr__(self, "mapping", mapping)

    # -- properties --------------------------------------------------------

    @property
    def dtype(self) -> DType:
        """The element type."""
        return self._type.dtype

    @property
    def shape(self) -> Shape:
        """The dims (a fresh ``Shape`` list; mutating it changes nothing here)."""
        return self._type.shape

    @property
    def dims(self) -> tuple[Dim, ...]:
        """The dims as a tuple."""
        return self._type.dims

    @property
    def rank(self) -> int:
        """The number of dims."""
        return self._type.rank

    @property
    def mesh(self) -> DeviceMesh:
        """The device mesh."""
        return self.mapping.mesh

    @property
    def placements(self) -> tuple[Placement, ...]:
        """The placements."""
        return self.mapping.placements

    @property
    def device(self) -> Device:
        """The one device."""
        return self.mapping.device

    @property
    def symbols(self) -> frozenset[str]:
        """The symbolic names the dims use."""
        return self._type.symbols

    # -- conversions -------------------------------------------------------

    def as_buffer(self) -> BufferLayout:
        """The ``BufferLayout`` with the same fields."""
        return BufferLayout(self.dtype, self.dims, self.mapping)

    def as_tensor(self) -> TensorLayout:
        """The ``TensorLayout`` with the same fields."""
        return TensorLayout(self.dtype, self.dims, self.mapping)

    def to_type(self) -> TensorType | BufferType:
        """The graph type of this layout (``TensorType`` or ``BufferType``)."""
        return self._type

    # -- matching ----------------------------------------------------------

    def matches(
        self,
        shape: Sequence[int],
        dtype: DType,
        device: Device,
        bindings: dict[str, int] | None = None,
        *,
        argument: str | int = "0",
    ) -> str | None:
        """Checks a runtime value against this layout; None if it matches.

        Static dims must be equal; a symbolic dim binds its name to the size,
        and a name already in ``bindings`` (from an earlier argument, or an
        earlier axis of this one) must have the same size; an expression dim
        is checked once all its symbols are bound (by this or an earlier
        argument; otherwise it is left to the runtime checks). ``bindings`` is
        updated only when the value matches.

        Args:
            shape: the value's sizes.
            dtype: the value's dtype.
            device: the value's device.
            bindings: shared across the arguments of one call; a
                ``DimBindings`` lets conflict messages name the argument that
                bound the name first. A fresh one is used when None.
            argument: how messages name this argument (its tree path).

        Returns:
            None, or the message for a ``ValueError``:
            ``"argument 0: expected float32 shape [batch, 2] on cpu:0, got
            float64 shape [4, 2] on cpu:0"`` or ``"dim 'batch' is 4 in
            argument 0 but 7 in argument 1"``.
        """
        argument = str(argument)
        want, dims = self._type.dtype, self._type.dims
        if bindings is None:
            bindings = DimBindings()
        shape = tuple(int(s) for s in shape)

        def mismatch(extra: str = "") -> str:
            got = "[" + ", ".join(str(s) for s in shape) + "]"
            dt = dtype.name if isinstance(dtype, DType) else repr(dtype)
            return (
                f"argument {argument}: expected {want.name} shape {Shape(dims)} "
                f"on {self.device}, got {dt} shape {got} on {device}{extra}"
            )

        if dtype != want or device != self.device or len(shape) != len(dims):
            return mismatch()
        sources = getattr(bindings, "sources", None)
        new: dict[str, int] = {}
        new_sources: dict[str, tuple[str, int]] = {}
        for axis, (dim, size) in enumerate(zip(dims, shape)):
            if isinstance(dim, StaticDim):
                if dim.value != size:
                    return mismatch()
            elif isinstance(dim, SymbolicDim):
                name = dim.name
                if name in new:
                    if new[name] != size:
                        return (
                            f"dim '{name}' is {new[name]} at axis {new_sources[name][1]} but "
                            f"{size} at axis {axis} of argument {argument}"
                        )
                elif name in bindings:
                    if bindings[name] != size:
                        if sources is not None and name in sources:
                            where = f"in argument {sources[name][0]}"
                        else:
                            where = "in an earlier argument"
                        return (
                            f"dim '{name}' is {bindings[name]} {where} but {size} in argument "
                            f"{argument}"
                        )
                else:
                    new[name] = size
                    new_sources[name] = (argument, axis)
        known = {**bindings, **new}
        for axis, (dim, size) in enumerate(zip(dims, shape)):
            if isinstance(dim, AlgebraicDim) and dim.symbols <= known.keys():
                try:
                    expected = dim.evaluate(known)
                except ValueError as e:
                    return mismatch(f" ({e})")
                if expected != size:
                    with_ = ", ".join(f"{n}={known[n]}" for n in sorted(dim.symbols))
                    return mismatch(f" (dim {axis} is {dim} = {expected} with {with_})")
        bindings.update(new)
        if sources is not None:
            sources.update(new_sources)
        return None

    # -- dunder ------------------------------------------------------------

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.dtype!r}, {self.shape}, {self.mapping!r})"


class BufferLayout(TensorLayout):
    """A writable buffer argument: writes in the function reach the caller's
    buffer. The same fields as ``TensorLayout``; never equal to one.

    Example:
        >>> BufferLayout(DType.float32, [4], CPU())
        BufferLayout(DType.float32, [4], DeviceMapping(DeviceMesh(_=1), [Replicated()]))
    """

    __slots__ = ()

    is_buffer = True


_SPEC_KINDS = "a layout spec (TensorLayout, BufferLayout, TensorType or BufferType)"


def as_layout(spec: Any) -> TensorLayout:
    """Normalizes an argument spec to a ``TensorLayout`` or ``BufferLayout``.

    ``TensorLayout``/``BufferLayout`` are returned as is;
    ``TensorType``/``BufferType`` become the single-device layout.

    Raises:
        TypeError: for anything else, with the fix for the common mistakes
            (a numpy array, a live Tensor).

    Example:
        >>> as_layout(TensorLayout(DType.int8, [2], CPU()))
        TensorLayout(DType.int8, [2], DeviceMapping(DeviceMesh(_=1), [Replicated()]))
    """
    if isinstance(spec, TensorLayout):
        return spec
    if isinstance(spec, (TensorType, BufferType)):
        return spec.to_layout()
    type_name = _type_name(spec)
    try:
        live_layout = isinstance(getattr(spec, "layout", None), TensorLayout)
    except Exception:
        live_layout = False
    if live_layout:
        raise TypeError(
            f"expected {_SPEC_KINDS}, got a live {type(spec).__name__}; pass tensor.layout "
            f"instead (its dims would all be frozen)"
        )
    mod = type(spec).__module__.split(".")[0]
    if mod == "numpy" and hasattr(spec, "shape") and hasattr(spec, "dtype"):
        raise TypeError(
            f"expected {_SPEC_KINDS}, got {type_name}; describe it with "
            f"TensorLayout(DType.from_numpy(a.dtype), list(a.shape), CPU())"
        )
    if hasattr(spec, "__dlpack__"):
        raise TypeError(
            f"expected {_SPEC_KINDS}, got {type_name}; describe it with "
            f"TensorLayout(dtype, list(shape), device)"
        )
    raise TypeError(f"expected {_SPEC_KINDS}, got {type_name}")


def _type_name(x: Any) -> str:
    t = type(x)
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"
