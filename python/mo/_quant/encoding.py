"""Block quantization: the encoding protocol, the registry and row-wise
``quantize``/``dequantize`` (pure numpy).

The public path is :mod:`mo.graph.quantization` (MAX's): it lists the public
names, re-exports them from here and documents the built-in GGUF formats,
whose codecs live in :mod:`mo._quant.gguf`. ``reshape_packed`` is for mo's own
use (``mo.checkpoint``).
"""

from __future__ import annotations

import abc
import dataclasses
import threading
from collections.abc import Iterable, Sequence
from typing import ClassVar

import numpy as np
import numpy.typing as npt

_F32 = np.float32


@dataclasses.dataclass(frozen=True)
class BlockParameters:
    """The block layout of a quantization encoding.

    Attributes:
        elements_per_block: How many float values one block encodes.
        block_size: How many bytes one block occupies.

    Example:
        >>> QuantizationEncoding.Q4_K.block_parameters
        BlockParameters(elements_per_block=256, block_size=144)
    """

    elements_per_block: int
    block_size: int

    def __post_init__(self) -> None:
        for field in ("elements_per_block", "block_size"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"BlockParameters.{field} must be a positive int, got {value!r}")


class QuantizationEncoding(abc.ABC):
    """A block quantization format: its block layout and its (de)quantizer.

    This is the protocol every encoding implements. The built-in GGUF encodings are
    available as class attributes (``QuantizationEncoding.Q4_0``, ``.Q4_K``,
    ``.Q5_K``, ``.Q6_K``). A custom encoding subclasses this class, provides
    :attr:`name`, :attr:`block_parameters`, :meth:`quantize_blocks` and
    :meth:`dequantize_blocks`, and is registered with :func:`register_encoding` so
    that it can be found by name (e.g. when a checkpoint is loaded).

    Example:
        >>> import numpy as np
        >>> class Int8Absmax(QuantizationEncoding):
        ...     name = "INT8_ABSMAX"
        ...     block_parameters = BlockParameters(elements_per_block=4, block_size=8)
        ...
        ...     def quantize_blocks(self, blocks):
        ...         scale = np.abs(blocks).max(axis=1, keepdims=True) / 127
        ...         inv = np.divide(1, scale, out=np.zeros_like(scale), where=scale != 0)
        ...         q = np.rint(blocks * inv).astype(np.int8).view(np.uint8)
        ...         return np.concatenate([scale.view(np.uint8), q], axis=1)
        ...
        ...     def dequantize_blocks(self, blocks):
        ...         scale = blocks[:, :4].copy().view(np.float32)
        ...         return scale * blocks[:, 4:].view(np.int8).astype(np.float32)
        >>> enc = register_encoding(Int8Absmax())
        >>> q = quantize("int8_absmax", np.array([[1.0, -2.0, 0.5, 4.0]], np.float32))
        >>> q.shape, q.dtype
        ((1, 8), dtype('uint8'))
        >>> dequantize(enc, q).round(2)
        array([[ 1.01, -2.02,  0.5 ,  4.  ]], dtype=float32)
        >>> unregister_encoding("INT8_ABSMAX")
    """

    Q4_0: ClassVar[QuantizationEncoding]
    Q4_K: ClassVar[QuantizationEncoding]
    Q5_K: ClassVar[QuantizationEncoding]
    Q6_K: ClassVar[QuantizationEncoding]

    @property
    @abc.abstractmethod
    def name(self) -> str:
        """The encoding's registry name, e.g. ``"Q4_K"``."""

    @property
    @abc.abstractmethod
    def block_parameters(self) -> BlockParameters:
        """Elements per block and bytes per block."""

    @abc.abstractmethod
    def quantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        """Quantizes blocks.

        Args:
            blocks: float32 ``[n, elements_per_block]``, C-contiguous, all finite.

        Returns:
            uint8 ``[n, block_size]``.
        """

    @abc.abstractmethod
    def dequantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        """Dequantizes blocks.

        Args:
            blocks: uint8 ``[n, block_size]``, C-contiguous.

        Returns:
            float32 ``[n, elements_per_block]``.
        """

    @property
    def elements_per_block(self) -> int:
        """How many float values one block encodes."""
        return self.block_parameters.elements_per_block

    @property
    def block_size(self) -> int:
        """How many bytes one block occupies."""
        return self.block_parameters.block_size

    @property
    def is_gguf(self) -> bool:
        """Whether this is one of the GGUF/ggml block formats."""
        return False

    def quantized_shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        """The uint8 shape ``[..., K / elements_per_block * block_size]`` of ``shape``.

        Example:
            >>> QuantizationEncoding.Q4_0.quantized_shape((3, 64))
            (3, 36)
        """
        shape = _as_shape(shape, f"{self.name}: shape")
        if not shape:
            raise ValueError(f"{self.name}: cannot quantize a 0-d tensor (no row dimension)")
        k = shape[-1]
        epb = self.elements_per_block
        if k % epb:
            raise ValueError(
                f"{self.name}: the last dimension K={k} is not a multiple of "
                f"{epb} (elements per {self.name} block)"
            )
        return (*shape[:-1], k // epb * self.block_size)

    def dequantized_shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        """The float shape ``[..., nbytes / block_size * elements_per_block]``.

        Example:
            >>> QuantizationEncoding.Q4_0.dequantized_shape((3, 36))
            (3, 64)
        """
        shape = _as_shape(shape, f"{self.name}: shape")
        if not shape:
            raise ValueError(f"{self.name}: quantized data must have at least one dimension")
        nbytes = shape[-1]
        if nbytes % self.block_size:
            raise ValueError(
                f"{self.name}: the last dimension of the quantized data is {nbytes} bytes, "
                f"not a multiple of the {self.block_size}-byte {self.name} block"
            )
        return (*shape[:-1], nbytes // self.block_size * self.elements_per_block)

    def __repr__(self) -> str:
        if _BUILTINS.get(self.name.casefold()) is self:
            return f"QuantizationEncoding.{self.name}"
        params = self.block_parameters
        return (
            f"<{type(self).__name__} {self.name!r}: {params.elements_per_block} elements "
            f"in {params.block_size} bytes>"
        )


# --------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------

_REGISTRY: dict[str, QuantizationEncoding] = {}
_BUILTINS: dict[str, QuantizationEncoding] = {}
_REGISTRY_LOCK = threading.Lock()


def register_encoding(
    encoding: QuantizationEncoding, *, replace: bool = False
) -> QuantizationEncoding:
    """Makes ``encoding`` available by name (case-insensitively).

    Args:
        encoding: An instance of a :class:`QuantizationEncoding` subclass.
        replace: Replace a previously registered user encoding of the same name.
            Built-in encodings can never be replaced.

    Returns:
        ``encoding``, so that ``enc = register_encoding(MyEncoding())`` works.

    Raises:
        TypeError: ``encoding`` is not a :class:`QuantizationEncoding`.
        ValueError: Its name is empty or taken, or its block parameters are invalid.

    Example:
        >>> class Copy32(QuantizationEncoding):
        ...     name = "COPY32"
        ...     block_parameters = BlockParameters(1, 4)
        ...     def quantize_blocks(self, blocks):
        ...         return blocks.view(np.uint8)
        ...     def dequantize_blocks(self, blocks):
        ...         return blocks.view(np.float32)
        >>> get_encoding(register_encoding(Copy32()).name).block_size
        4
        >>> unregister_encoding("COPY32")
    """
    if not isinstance(encoding, QuantizationEncoding):
        raise TypeError(
            f"register_encoding expects a QuantizationEncoding instance, "
            f"got {type(encoding).__name__}"
        )
    name = encoding.name
    if not isinstance(name, str) or not name or name != name.strip():
        raise ValueError(
            f"encoding name must be a non-empty string without surrounding spaces, got {name!r}"
        )
    params = encoding.block_parameters
    if not isinstance(params, BlockParameters):
        raise TypeError(
            f"{name}: block_parameters must be a BlockParameters, got {type(params).__name__}"
        )
    key = name.casefold()
    with _REGISTRY_LOCK:
        existing = _REGISTRY.get(key)
        if existing is not None and existing is not encoding:
            if key in _BUILTINS:
                raise ValueError(
                    f"{name!r} is a built-in quantization encoding and cannot be replaced"
                )
            if not replace:
                raise ValueError(
                    f"a quantization encoding named {existing.name!r} is already registered "
                    f"(pass replace=True to replace it)"
                )
        _REGISTRY[key] = encoding
    return encoding


def unregister_encoding(name: str) -> None:
    """Removes a user encoding registered with :func:`register_encoding`.

    Raises:
        ValueError: ``name`` is a built-in encoding or not registered.
    """
    key = name.casefold()
    with _REGISTRY_LOCK:
        if key in _BUILTINS:
            raise ValueError(
                f"{name!r} is a built-in quantization encoding and cannot be unregistered"
            )
        if key not in _REGISTRY:
            raise ValueError(f"no quantization encoding named {name!r} is registered")
        del _REGISTRY[key]


def _register_builtin(encoding: QuantizationEncoding) -> None:
    """Registers a built-in encoding for good, also as ``QuantizationEncoding.<name>``."""
    _BUILTINS[encoding.name.casefold()] = encoding
    register_encoding(encoding)
    setattr(QuantizationEncoding, encoding.name, encoding)


def list_encodings() -> tuple[str, ...]:
    """Names of all registered encodings, built-ins first.

    Example:
        >>> list_encodings()[:4]
        ('Q4_0', 'Q4_K', 'Q5_K', 'Q6_K')
    """
    with _REGISTRY_LOCK:
        return tuple(enc.name for enc in _REGISTRY.values())


def get_encoding(encoding: QuantizationEncoding | str) -> QuantizationEncoding:
    """Resolves an encoding given by instance or by (case-insensitive) name.

    Args:
        encoding: A :class:`QuantizationEncoding` (returned as is) or a registered name.

    Raises:
        ValueError: No encoding of that name is registered; the message lists the known ones.
        TypeError: ``encoding`` is neither a string nor an encoding.

    Example:
        >>> get_encoding("q6_k") is QuantizationEncoding.Q6_K
        True
    """
    if isinstance(encoding, QuantizationEncoding):
        return encoding
    if not isinstance(encoding, str):
        raise TypeError(
            f"expected a QuantizationEncoding or an encoding name, got {type(encoding).__name__}"
        )
    with _REGISTRY_LOCK:
        found = _REGISTRY.get(encoding.casefold())
    if found is None:
        raise ValueError(
            f"unknown quantization encoding {encoding!r}; known encodings: "
            f"{', '.join(list_encodings())}"
        )
    return found


# --------------------------------------------------------------------------------------
# quantize / dequantize
# --------------------------------------------------------------------------------------

# Blocks are processed in chunks of about this many elements: big enough to amortize
# numpy's per-call overhead, small enough for the temporaries to stay in cache.
_CHUNK_ELEMENTS = 1 << 18


class _BlockError(ValueError):
    """Raised by a built-in block quantizer for the block at chunk-relative ``index``."""

    def __init__(self, index: int, problem: str) -> None:
        super().__init__(problem)
        self.index = index
        self.problem = problem


def quantize(encoding: QuantizationEncoding | str, array: npt.ArrayLike) -> np.ndarray:
    """Quantizes ``array`` row-wise (along its last axis).

    Args:
        encoding: The encoding (instance or registered name).
        array: Real values ``[..., K]`` (converted to float32 first, as ggml does);
            ``K`` must be a multiple of the encoding's ``elements_per_block``.

    Returns:
        uint8 ``[..., K / elements_per_block * block_size]``.

    Raises:
        ValueError: Unknown encoding, 0-d input, ``K`` not a multiple of the block
            size, non-finite values, or values too large for the format's float16
            scales.
        TypeError: ``array`` is not real-valued.

    Example:
        >>> import numpy as np
        >>> x = np.linspace(-1, 1, 64, dtype=np.float32).reshape(2, 32)
        >>> q = quantize("Q4_0", x)
        >>> q.shape, q.dtype
        ((2, 18), dtype('uint8'))
        >>> float(np.abs(dequantize("Q4_0", q) - x).max()) < 0.07
        True
    """
    enc = get_encoding(encoding)
    x = np.asarray(array)
    if x.dtype == np.bool_ or x.dtype.kind not in "fiu":
        raise TypeError(f"quantize({enc.name}): expected real numbers, got dtype {x.dtype}")
    out_shape = enc.quantized_shape(x.shape)
    x = np.ascontiguousarray(x, dtype=_F32)
    epb, bsize = enc.elements_per_block, enc.block_size
    blocks = x.reshape(-1, epb)
    bad = ~np.isfinite(blocks)
    if bad.any():
        where = np.unravel_index(int(np.flatnonzero(bad)[0]), x.shape)
        raise ValueError(
            f"quantize({enc.name}): input contains NaN or infinity (first at index "
            f"{tuple(int(i) for i in where)}); ggml's quantizers are undefined for "
            f"non-finite values"
        )
    out = np.empty((blocks.shape[0], bsize), dtype=np.uint8)
    step = max(1, _CHUNK_ELEMENTS // epb)
    with np.errstate(all="ignore"):  # inf/NaN in discarded lanes are expected
        for start in range(0, blocks.shape[0], step):
            chunk = blocks[start : start + step]
            try:
                result = enc.quantize_blocks(chunk)
            except _BlockError as err:
                block = start + err.index
                row, col = divmod(block * epb, x.shape[-1]) if x.shape[-1] else (0, 0)
                amax = float(np.abs(blocks[block]).max())
                raise ValueError(
                    f"quantize({enc.name}): block {block} (row {row}, elements "
                    f"{col}..{col + epb - 1}, max |x| = {amax:g}): {err.problem}"
                ) from None
            out[start : start + step] = _check_blocks(
                enc, result, np.uint8, (chunk.shape[0], bsize)
            )
    return out.reshape(out_shape)


def dequantize(
    encoding: QuantizationEncoding | str,
    data: np.ndarray | bytes | bytearray | memoryview,
    shape: Sequence[int] | None = None,
) -> np.ndarray:
    """Dequantizes row-wise quantized ``data`` to float32.

    Args:
        encoding: The encoding (instance or registered name).
        data: uint8 ``[..., nbytes]`` with ``nbytes`` a multiple of ``block_size``
            (or a bytes-like object, taken as one flat buffer when ``shape`` is given).
        shape: The logical (float) shape. When given, ``data`` may have any shape
            but must hold exactly the bytes of a ``shape`` tensor, and the result
            has this shape.

    Returns:
        float32 ``[..., nbytes / block_size * elements_per_block]`` (or ``shape``).

    Raises:
        TypeError: ``data`` is not uint8.
        ValueError: Unknown encoding or wrong byte length (the message gives the
            expected and the actual size).

    Example:
        >>> import numpy as np
        >>> block = np.zeros(18, np.uint8)
        >>> block[:2] = np.array([0.5], np.float16).view(np.uint8)  # d = 0.5
        >>> block[2:] = 0x98   # low nibble 8 -> 0.0, high nibble 9 -> 0.5
        >>> dequantize("Q4_0", block)[[0, 16]]
        array([0. , 0.5], dtype=float32)
    """
    enc = get_encoding(encoding)
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = np.frombuffer(data, dtype=np.uint8)
    elif isinstance(data, np.generic):
        data = np.asarray(data)
    if not isinstance(data, np.ndarray):
        raise TypeError(
            f"dequantize({enc.name}): data must be a uint8 numpy array, got {type(data).__name__}"
        )
    if data.dtype != np.uint8:
        raise TypeError(f"dequantize({enc.name}): data must be uint8, got {data.dtype}")
    if shape is not None:
        data, logical = reshape_packed(enc, data, shape, f"dequantize({enc.name})")
    else:
        if data.ndim == 0:
            raise ValueError(f"dequantize({enc.name}): data must have at least one dimension")
        if data.shape[-1] % enc.block_size:
            raise ValueError(
                f"dequantize({enc.name}): the last dimension must be a multiple of "
                f"{enc.block_size} bytes (one {enc.name} block), got {data.shape[-1]}"
            )
        logical = enc.dequantized_shape(data.shape)
    epb, bsize = enc.elements_per_block, enc.block_size
    blocks = np.ascontiguousarray(data).reshape(-1, bsize)
    out = np.empty((blocks.shape[0], epb), dtype=_F32)
    step = max(1, _CHUNK_ELEMENTS // epb)
    with np.errstate(all="ignore"):  # NaN/inf scales propagate silently, as in ggml
        for start in range(0, blocks.shape[0], step):
            chunk = blocks[start : start + step]
            out[start : start + step] = _check_blocks(
                enc, enc.dequantize_blocks(chunk), _F32, (chunk.shape[0], epb)
            )
    return out.reshape(logical)


def reshape_packed(
    encoding: QuantizationEncoding, data: np.ndarray, shape: Iterable[int], what: str
) -> tuple[np.ndarray, tuple[int, ...]]:
    """``data`` as the packed uint8 array of a ``shape`` tensor, and ``shape`` as ints.

    ``data`` may have any shape but must hold exactly the bytes of a ``shape``
    tensor; error messages start with ``what``.

    Raises:
        ValueError: a bad ``shape``, or ``data`` has the wrong number of bytes.

    Example:
        >>> data, shape = reshape_packed(QuantizationEncoding.Q4_0, np.zeros(36, np.uint8),
        ...                              [1, 64], "w")
        >>> data.shape, shape
        ((1, 36), (1, 64))
        >>> reshape_packed(QuantizationEncoding.Q4_0, data, [2, 64], "w")
        Traceback (most recent call last):
        ValueError: w: a tensor of shape (2, 64) takes 72 bytes, got 36
    """
    logical = _as_shape(shape, f"{what}: shape")
    packed = encoding.quantized_shape(logical)
    expected = int(np.prod(packed, dtype=np.int64))
    if data.size != expected:
        raise ValueError(
            f"{what}: a tensor of shape {logical} takes {expected} bytes, got {data.size}"
        )
    return data.reshape(packed), logical


def _check_blocks(
    enc: QuantizationEncoding, result: np.ndarray, dtype: type, shape: tuple[int, int]
) -> np.ndarray:
    """Validates what a (possibly user-defined) block function returned."""
    if not isinstance(result, np.ndarray) or result.dtype != dtype or result.shape != shape:
        got = (
            f"{result.dtype} {result.shape}"
            if isinstance(result, np.ndarray)
            else type(result).__name__
        )
        raise ValueError(
            f"encoding {enc.name!r} returned {got} from a block function; expected "
            f"{np.dtype(dtype)} {shape}"
        )
    return result


def _as_shape(shape: Iterable[int], what: str) -> tuple[int, ...]:
    try:
        dims = tuple(int(d) for d in shape)
    except TypeError:
        raise TypeError(f"{what} must be a sequence of ints, got {shape!r}") from None
    if any(d < 0 for d in dims):
        raise ValueError(f"{what} has a negative dimension: {dims}")
    return dims
