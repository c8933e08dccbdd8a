"""Block quantization encodings with numpy reference implementations.

The built-in encodings are the GGUF/ggml block formats, bit for bit:

=========  ==================  ===========  ==========================================
encoding   elements per block  block bytes  layout (little endian)
=========  ==================  ===========  ==========================================
``Q4_0``   32                  18           ``d: f16, qs: u8[16]``
``Q4_K``   256                 144          ``d: f16, dmin: f16, scales: u8[12],
                                            qs: u8[128]``
``Q5_K``   256                 176          ``d: f16, dmin: f16, scales: u8[12],
                                            qh: u8[32], qs: u8[128]``
``Q6_K``   256                 210          ``ql: u8[128], qh: u8[64], scales: i8[16],
                                            d: f16``
=========  ==================  ===========  ==========================================

A float32 tensor ``[..., K]`` quantizes row-wise into a uint8 tensor
``[..., K / elements_per_block * block_size]``; ``K`` must be a multiple of
``elements_per_block``.

Numerics:

* Dequantization reproduces ggml's ``dequantize_row_*`` (and the ``gguf``
  package's ``gguf.quants.dequantize``) bit for bit, including NaN/inf scales,
  which propagate to the output exactly as they do there.
* Quantization reproduces ggml's reference quantizers (``quantize_row_q4_0_ref``,
  ``quantize_row_q4_K_ref``, ``quantize_row_q5_K_ref``, ``quantize_row_q6_K_ref``)
  with IEEE single precision arithmetic evaluated in C order and without fused
  multiply-adds (what ggml computes when built with ``-ffp-contract=off``; builds
  that contract ``a*b - c*d`` into FMAs can differ in the last bit of a
  search step, and so occasionally in a code).
* ggml's reference quantizers are undefined for non-finite input (the result of a
  NaN depends on its position in the block and on the C compiler's float-to-int
  conversion) and write an infinite float16 scale when a block's magnitude is too
  large for float16, data that ``ggml_validate_row_data`` (and so llama.cpp's
  quantizer) rejects. :func:`quantize` raises :class:`ValueError` for both
  instead of producing such data. Subnormal inputs are handled as in ggml: scales
  that round to zero in float16 give zero blocks.

User-defined encodings subclass :class:`QuantizationEncoding` and are made
available by name with :func:`register_encoding`; :func:`quantize`,
:func:`dequantize`, :func:`get_encoding` and :mod:`mo.checkpoint` then treat them
like the built-ins.
"""

from __future__ import annotations

import abc
import dataclasses
import threading
from collections.abc import Iterable, Sequence
from typing import ClassVar

import numpy as np
import numpy.typing as npt

__all__ = [
    "BlockParameters",
    "QuantizationEncoding",
    "dequantize",
    "get_encoding",
    "list_encodings",
    "quantize",
    "register_encoding",
    "unregister_encoding",
]

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
        logical = _as_shape(shape, f"dequantize({enc.name}): shape")
        packed = enc.quantized_shape(logical)
        expected = int(np.prod(packed, dtype=np.int64))
        if data.size != expected:
            raise ValueError(
                f"dequantize({enc.name}): a tensor of shape {logical} takes {expected} bytes, "
                f"got {data.size}"
            )
        data = data.reshape(packed)
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


# --------------------------------------------------------------------------------------
# Shared block-layout machinery for the GGUF formats
# --------------------------------------------------------------------------------------


class _BlockLayout:
    """A packed little-endian block struct: named fields of fixed-size arrays."""

    def __init__(self, *fields: tuple[str, str, int]) -> None:
        self.dtype = np.dtype(
            [(name, dt, (count,)) if count > 1 else (name, dt) for name, dt, count in fields]
        )

    @property
    def size(self) -> int:
        return self.dtype.itemsize

    def unpack(self, blocks: np.ndarray) -> np.ndarray:
        """uint8 ``[n, size]`` -> a structured ``[n]`` view with one entry per field."""
        return np.ascontiguousarray(blocks).view(self.dtype).reshape(-1)

    def pack(self, n: int, **fields: np.ndarray) -> np.ndarray:
        """Field arrays -> uint8 ``[n, size]``."""
        out = np.empty(n, dtype=self.dtype)
        for name in self.dtype.names or ():
            out[name] = fields[name]
        return out.view(np.uint8).reshape(n, self.size)


def _pack_planes(codes: np.ndarray, bits: int, group: int) -> np.ndarray:
    """Packs ``bits``-bit codes ``[n, E]`` into bytes ``[n, E * bits / 8]``.

    The ggml layouts store codes in bit planes: within every run of
    ``planes * group`` codes (``planes = 8 // bits``), code ``p * group + i`` goes
    to bits ``[bits * p, bits * (p + 1))`` of byte ``i`` of the run.
    """
    planes = 8 // bits
    n = codes.shape[0]
    runs = codes.reshape(n, -1, planes, group)
    out = runs[:, :, 0, :].copy()
    for p in range(1, planes):
        out |= runs[:, :, p, :] << np.uint8(bits * p)
    return out.reshape(n, -1)


def _unpack_planes(data: np.ndarray, bits: int, group: int) -> np.ndarray:
    """Inverse of :func:`_pack_planes`: bytes ``[n, B]`` -> codes ``[n, B * 8 / bits]``."""
    planes = 8 // bits
    n = data.shape[0]
    shifts = (np.arange(planes, dtype=np.uint8) * np.uint8(bits)).reshape(1, 1, planes, 1)
    codes = (data.reshape(n, -1, 1, group) >> shifts) & np.uint8((1 << bits) - 1)
    return codes.reshape(n, -1)


def _to_f16(x: np.ndarray) -> np.ndarray:
    """float32 -> float16, rounding to nearest even like ``GGML_FP32_TO_FP16``."""
    return x.astype(np.float16)


def _nearest_int(x: np.ndarray) -> np.ndarray:
    """ggml's ``nearest_int``: the float32 magic-number rounding (half to even).

    Emulated bit for bit, including its wrap-around outside ``|x| <= 2**22``.
    """
    bits = (x + _F32(12582912.0)).view(np.int32)
    return (bits & np.int32(0x007FFFFF)) - np.int32(0x00400000)


def _seqsum(terms: np.ndarray, *, from_zero: bool = True) -> np.ndarray:
    """Sums ``terms[0] + terms[1] + ...`` along axis 0 in that order, like a C loop.

    Float addition is not associative, so ggml's sequential float32 accumulation is
    reproduced explicitly (numpy's own ``sum`` may use pairwise summation). With
    ``from_zero`` the accumulator starts at +0.0 (``float s = 0; s += ...``),
    otherwise at ``terms[0]``. ``terms`` may have trailing axes; several sums can be
    stacked as ``terms[:, k, ...]`` by passing a transposed view.
    """
    acc = terms[0] + _F32(0) if from_zero else terms[0].copy()
    for row in terms[1:]:
        acc += row
    return acc


# nearest_int(v) equals round-half-to-even(v) exactly when |v| < 2**22.
_RINT_SAFE = 4_000_000.0


def _round_codes(v: np.ndarray, bound: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """In place: ``v = clamp(nearest_int(v), lo, hi)`` as float32.

    ``bound`` bounds ``|v|`` per group (column); callers pass 0 for groups whose
    codes they discard. When every bound is small the fast ``rint`` is exact,
    otherwise ggml's magic-number rounding is emulated bit for bit.
    """
    if bound.size == 0 or bound.max() < _RINT_SAFE:  # False for NaN/inf bounds
        np.rint(v, out=v)
    else:
        v[...] = _nearest_int(v)
    return np.clip(v, _F32(lo), _F32(hi), out=v)


def _first_absmax(x: np.ndarray, axis: int) -> np.ndarray:
    """The element of largest magnitude along ``axis`` (first one on ties), as ggml picks it."""
    idx = np.expand_dims(np.argmax(np.abs(x), axis=axis), axis)
    return np.take_along_axis(x, idx, axis=axis).squeeze(axis)


def _check_scales(problem: str, *scales: np.ndarray) -> None:
    """Raises :class:`_BlockError` for the first block (row) with a non-finite scale."""
    bad = np.zeros(scales[0].shape[0], dtype=bool)
    for s in scales:
        bad |= ~np.isfinite(s.reshape(s.shape[0], -1)).all(axis=1)
    if bad.any():
        raise _BlockError(int(np.argmax(bad)), problem)


_OVERFLOW = "values too large: the block's float16 scale overflows"


class _GGUFEncoding(QuantizationEncoding):
    """Common base of the built-in GGUF encodings."""

    layout: ClassVar[_BlockLayout]
    _name: ClassVar[str]
    _epb: ClassVar[int]

    @property
    def name(self) -> str:
        return self._name

    @property
    def block_parameters(self) -> BlockParameters:
        return BlockParameters(self._epb, self.layout.size)

    @property
    def is_gguf(self) -> bool:
        return True


# --------------------------------------------------------------------------------------
# Q4_0
# --------------------------------------------------------------------------------------


class _Q4_0(_GGUFEncoding):
    """32 elements: ``x = d * (q - 8)`` with a float16 ``d`` and 4-bit ``q``."""

    _name = "Q4_0"
    _epb = 32
    layout = _BlockLayout(("d", "<f2", 1), ("qs", "u1", 16))

    def quantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        # quantize_row_q4_0_ref: d = max / -8 where max is the first element of
        # largest magnitude; q = min(15, (int8_t)(x * (1 / d) + 8.5)).
        vmax = _first_absmax(blocks, axis=1)
        d = vmax / _F32(-8)
        inv = np.where(d == 0, _F32(0), _F32(1) / d)
        v = blocks * inv[:, None] + _F32(8.5)
        # (int8_t) of a non-finite float (reachable only when 1/d overflows for a
        # subnormal d, whose float16 is 0 anyway) is 0 on x86, as in ggml and gguf.
        q = np.where(np.isfinite(v), np.clip(np.trunc(v), 0, 15), 0).astype(np.uint8)
        d16 = _to_f16(d)
        _check_scales(_OVERFLOW, d16)
        return self.layout.pack(blocks.shape[0], d=d16, qs=_pack_planes(q, 4, 16))

    def dequantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        rec = self.layout.unpack(blocks)
        d = rec["d"].astype(_F32)[:, None]
        q = _unpack_planes(rec["qs"], 4, 16).astype(np.int8) - np.int8(8)
        return d * q.astype(_F32)


# --------------------------------------------------------------------------------------
# K-quants: super-blocks of 256
# --------------------------------------------------------------------------------------

_QK_K = 256
_GROUP_MAX_EPS = _F32(1e-15)


def _make_qkx2_quants(
    x: np.ndarray, weights: np.ndarray, nmax: int, rmin: float, rdelta: float, nstep: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ggml's ``make_qkx2_quants`` for many groups at once.

    Fits ``x ~ scale * L - the_min`` with ``L`` in ``[0, nmax]`` by trying
    ``nstep + 1`` candidate inverse scales, each followed by a weighted
    least-squares refit of scale and min, keeping the best weighted squared error.

    Args:
        x, weights: float32 ``[n, G]``: column ``g`` is one group of ``n`` values.

    Returns:
        ``(L, scale, the_min)``: uint8 ``[n, G]``, float32 ``[G]``, float32 ``[G]``.
    """
    fmax = _F32(nmax)
    xmin = x.min(axis=0)
    hi = x.max(axis=0)
    sum_w = _seqsum(weights, from_zero=False)
    sum_x = _seqsum(weights * x, from_zero=False)
    lo = np.where(xmin > 0, _F32(0), xmin)
    flat = hi == lo  # ggml returns L = 0, scale = 0 for these

    laux = np.empty_like(x)
    prods = np.empty((3, *x.shape), dtype=_F32)  # w*l, w*l*l, w*l*x

    def codes(iscale: np.ndarray, lo: np.ndarray) -> np.ndarray:
        """laux = clamp(nearest_int(iscale * (x - lo)), 0, nmax)."""
        np.subtract(x, lo, out=laux)
        np.multiply(laux, iscale, out=laux)
        span = np.maximum(np.abs(hi - lo), np.abs(xmin - lo)).astype(np.float64)
        bound = np.where(flat, 0.0, np.abs(iscale) * span * (1 + 1e-6))
        return _round_codes(laux, bound, 0, nmax)

    def weighted_error(scale: np.ndarray, lo: np.ndarray) -> np.ndarray:
        """sum(w * (scale * L + min - x)**2) over each group, for L = laux."""
        diff = prods[0]
        np.multiply(laux, scale, out=diff)
        diff += lo
        diff -= x
        np.multiply(diff, diff, out=diff)
        diff *= weights
        return _seqsum(diff)

    # The codes of the best candidate are recomputed at the end from the inverse
    # scale and min that produced them, instead of being copied at every step.
    iscale = fmax / (hi - lo)
    scale = _F32(1) / iscale
    codes(iscale, lo)
    best = weighted_error(scale, lo)
    best_iscale, best_lo = iscale, lo
    for step in range(nstep + 1):
        iscale = (_F32(rmin) + _F32(rdelta) * _F32(step) + fmax) / (hi - lo)
        codes(iscale, lo)
        np.multiply(weights, laux, out=prods[0])
        np.multiply(prods[0], laux, out=prods[1])
        np.multiply(prods[0], x, out=prods[2])
        sum_l, sum_l2, sum_xl = _seqsum(prods.swapaxes(0, 1))
        det = sum_w * sum_l2 - sum_l * sum_l
        this_scale = (sum_w * sum_xl - sum_x * sum_l) / det
        this_min = (sum_l2 * sum_x - sum_l * sum_xl) / det
        clamp = this_min > 0
        this_min = np.where(clamp, _F32(0), this_min)
        this_scale = np.where(clamp, sum_xl / sum_l2, this_scale)
        err = weighted_error(this_scale, this_min)
        better = (det > 0) & (err < best)
        best = np.where(better, err, best)
        best_iscale = np.where(better, iscale, best_iscale)
        best_lo = np.where(better, lo, best_lo)
        scale = np.where(better, this_scale, scale)
        lo = np.where(better, this_min, lo)
    levels = codes(best_iscale, best_lo)
    levels[:, flat] = 0
    scale = np.where(flat, _F32(0), scale)
    return levels.astype(np.uint8), scale, -lo


def _make_qx_quants(x: np.ndarray, nmax: int) -> tuple[np.ndarray, np.ndarray]:
    """ggml's ``make_qx_quants`` with ``rmse_type == 1`` and no importance weights.

    Fits ``x ~ scale * (L - nmax)`` with ``L`` in ``[0, 2 * nmax)`` (weights ``x**2``),
    trying 19 inverse scales around ``-nmax / max``.

    Args:
        x: float32 ``[n, G]``: column ``g`` is one group.

    Returns:
        ``(L, scale)``: uint8 ``[n, G]`` and float32 ``[G]``.
    """
    vmax = _first_absmax(x, axis=0)
    tiny = np.abs(vmax) < _GROUP_MAX_EPS  # ggml returns L = 0, scale = 0 for these
    amax = np.abs(vmax).astype(np.float64)
    w = x * x
    wx = w * x
    l = np.empty_like(x)
    prods = np.empty((2, *x.shape), dtype=_F32)  # w*x*l, w*l*l

    def codes(iscale: np.ndarray) -> np.ndarray:
        """l = clamp(nearest_int(iscale * x), -nmax, nmax - 1)."""
        np.multiply(x, iscale, out=l)
        bound = np.where(tiny, 0.0, np.abs(iscale) * amax * (1 + 1e-6))
        return _round_codes(l, bound, -nmax, nmax - 1)

    def fit(iscale: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        codes(iscale)
        np.multiply(wx, l, out=prods[0])
        np.multiply(w, l, out=prods[1])
        prods[1] *= l
        sumlx, suml2 = _seqsum(prods.swapaxes(0, 1))
        return sumlx, suml2

    best_iscale = _F32(-nmax) / vmax
    sumlx, suml2 = fit(best_iscale)
    scale = np.where(suml2 != 0, sumlx / suml2, _F32(0))
    best = scale * sumlx
    for step in range(-9, 10):
        if step == 0:
            continue
        iscale = -(_F32(nmax) + _F32(0.1) * _F32(step)) / vmax
        sumlx, suml2 = fit(iscale)
        better = (suml2 > 0) & (sumlx * sumlx > best * suml2)
        best_iscale = np.where(better, iscale, best_iscale)
        scale = np.where(better, sumlx / suml2, scale)
        best = np.where(better, scale * sumlx, best)
    levels = codes(best_iscale)
    levels += _F32(nmax)
    levels[:, tiny] = 0
    scale = np.where(tiny, _F32(0), scale)
    return levels.astype(np.uint8), scale


def _requantize(
    x: np.ndarray, levels: np.ndarray, d: np.ndarray, offset: np.ndarray | None, lo: int, hi: int
) -> np.ndarray:
    """The final pass of the K-quantizers: ``L = clamp(nearest_int((x + m) / d))``.

    Groups whose float16-rounded scale ``d`` is zero keep the ``levels`` of the search
    (ggml's ``if (!d) continue;``). Codes are returned shifted to be non-negative.

    Args:
        x: float32 ``[n, G]``; ``d`` and ``offset``: float32 ``[G]``.
    """
    v = x + offset if offset is not None else x
    q = np.clip(_nearest_int(v / d), lo, hi) - lo
    return np.where(d != 0, q, levels).astype(np.uint8)


def _group_major(blocks: np.ndarray, group: int) -> np.ndarray:
    """float32 ``[n, 256]`` -> ``[group, n * 256 / group]``: one column per group."""
    return np.ascontiguousarray(blocks.reshape(-1, group).T)


def _block_major(codes: np.ndarray, n: int) -> np.ndarray:
    """Inverse of :func:`_group_major` for the code array."""
    return np.ascontiguousarray(codes.T).reshape(n, _QK_K)


class _AffineKQuant(_GGUFEncoding):
    """Q4_K / Q5_K: 8 groups of 32 with 6-bit scales and mins, ``x = d*sc*q - dmin*m``.

    Subclasses set the code width and ggml's search parameters; Q5_K stores the
    fifth bit of each code in ``qh``.
    """

    _epb = _QK_K
    _bits: ClassVar[int]
    _search: ClassVar[tuple[float, float, int]]  # rmin, rdelta, nstep

    @staticmethod
    def _unpack_scales(scales: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``get_scale_min_k4`` for all 8 groups: 12 bytes -> 6-bit ``sc[8]``, ``m[8]``."""
        s = scales
        sc = np.concatenate([s[:, 0:4] & 63, (s[:, 8:12] & 0xF) | ((s[:, 0:4] >> 6) << 4)], axis=1)
        m = np.concatenate([s[:, 4:8] & 63, (s[:, 8:12] >> 4) | ((s[:, 4:8] >> 6) << 4)], axis=1)
        return sc, m

    @staticmethod
    def _pack_scales(sc: np.ndarray, m: np.ndarray) -> np.ndarray:
        return np.concatenate(
            [
                sc[:, :4] | ((sc[:, 4:] >> 4) << 6),
                m[:, :4] | ((m[:, 4:] >> 4) << 6),
                (sc[:, 4:] & 0xF) | ((m[:, 4:] & 0xF) << 4),
            ],
            axis=1,
        )

    def _codes(self, rec: np.ndarray) -> np.ndarray:
        q = _unpack_planes(rec["qs"], 4, 32)
        if self._bits == 5:
            q |= _unpack_planes(rec["qh"], 1, 32) << np.uint8(4)
        return q

    def dequantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        n = blocks.shape[0]
        rec = self.layout.unpack(blocks)
        sc, m = self._unpack_scales(rec["scales"])
        d = (rec["d"].astype(_F32)[:, None] * sc.astype(_F32))[:, :, None]
        dm = (rec["dmin"].astype(_F32)[:, None] * m.astype(_F32))[:, :, None]
        q = self._codes(rec).reshape(n, 8, 32).astype(_F32)
        return (d * q - dm).reshape(n, _QK_K)

    def quantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        n = blocks.shape[0]
        nmax = (1 << self._bits) - 1
        x = _group_major(blocks, 32)
        # Weights: av_x + |x| with av_x the group's RMS (quantize_row_q4_K_ref).
        av_x = np.sqrt(_seqsum(x * x) / _F32(32))
        levels, scales, mins = _make_qkx2_quants(x, av_x + np.abs(x), nmax, *self._search)
        scales = scales.reshape(n, 8)
        mins = mins.reshape(n, 8)
        max_scale = np.maximum(scales.max(axis=1), _F32(0))
        max_min = np.maximum(mins.max(axis=1), _F32(0))
        inv_scale = np.where(max_scale > 0, _F32(63) / max_scale, _F32(0))
        inv_min = np.where(max_min > 0, _F32(63) / max_min, _F32(0))
        # uint8_t ls = nearest_int(...); ls = MIN(63, ls);
        ls = np.minimum(_nearest_int(inv_scale[:, None] * scales).astype(np.uint8), 63)
        lm = np.minimum(_nearest_int(inv_min[:, None] * mins).astype(np.uint8), 63)
        d16 = _to_f16(max_scale / _F32(63))
        dmin16 = _to_f16(max_min / _F32(63))
        _check_scales(_OVERFLOW, d16, dmin16, scales, mins)
        d = (d16.astype(_F32)[:, None] * ls.astype(_F32)).reshape(-1)
        dm = (dmin16.astype(_F32)[:, None] * lm.astype(_F32)).reshape(-1)
        codes = _block_major(_requantize(x, levels, d, dm, 0, nmax), n)
        fields = {
            "d": d16,
            "dmin": dmin16,
            "scales": self._pack_scales(ls, lm),
            "qs": _pack_planes(codes & np.uint8(0xF), 4, 32),
        }
        if self._bits == 5:
            fields["qh"] = _pack_planes(codes >> np.uint8(4), 1, 32)
        return self.layout.pack(n, **fields)


class _Q4_K(_AffineKQuant):
    _name = "Q4_K"
    _bits = 4
    _search = (-1.0, 0.1, 20)
    layout = _BlockLayout(
        ("d", "<f2", 1), ("dmin", "<f2", 1), ("scales", "u1", 12), ("qs", "u1", 128)
    )


class _Q5_K(_AffineKQuant):
    _name = "Q5_K"
    _bits = 5
    _search = (-0.5, 0.1, 15)
    layout = _BlockLayout(
        ("d", "<f2", 1),
        ("dmin", "<f2", 1),
        ("scales", "u1", 12),
        ("qh", "u1", 32),
        ("qs", "u1", 128),
    )


class _Q6_K(_GGUFEncoding):
    """16 groups of 16 with 8-bit signed scales: ``x = d * sc * (q - 32)``, 6-bit ``q``."""

    _name = "Q6_K"
    _epb = _QK_K
    layout = _BlockLayout(
        ("ql", "u1", 128), ("qh", "u1", 64), ("scales", "i1", 16), ("d", "<f2", 1)
    )

    def dequantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        n = blocks.shape[0]
        rec = self.layout.unpack(blocks)
        q = _unpack_planes(rec["ql"], 4, 64) | (_unpack_planes(rec["qh"], 2, 32) << np.uint8(4))
        q = (q.astype(np.int8) - np.int8(32)).reshape(n, 16, 16).astype(_F32)
        d = rec["d"].astype(_F32)[:, None] * rec["scales"].astype(_F32)
        return (d[:, :, None] * q).reshape(n, _QK_K)

    def quantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        n = blocks.shape[0]
        x = _group_major(blocks, 16)
        levels, scales = _make_qx_quants(x, 32)
        scales = scales.reshape(n, 16)
        max_scale = _first_absmax(scales, axis=1)
        zero = np.abs(max_scale) < _GROUP_MAX_EPS
        iscale = _F32(-128) / max_scale
        d16 = np.where(zero, np.float16(0), _to_f16(_F32(1) / iscale))
        _check_scales(
            _OVERFLOW, np.where(zero, np.float16(0), d16), np.where(zero[:, None], _F32(0), scales)
        )
        # y.scales[ib] = MIN(127, nearest_int(iscale * scales[ib])), stored as int8_t.
        sc = np.minimum(_nearest_int(iscale[:, None] * scales), 127).astype(np.int8)
        sc = np.where(zero[:, None], np.int8(0), sc)
        d = (d16.astype(_F32)[:, None] * sc.astype(_F32)).reshape(-1)
        codes = _requantize(x, levels, d, None, -32, 31)
        # All-zero blocks are written as zero bytes (memset in ggml).
        codes = np.where(np.repeat(zero, 16)[None, :], np.uint8(0), codes)
        codes = _block_major(codes, n)
        return self.layout.pack(
            n,
            ql=_pack_planes(codes & np.uint8(0xF), 4, 64),
            qh=_pack_planes(codes >> np.uint8(4), 2, 32),
            scales=sc,
            d=d16,
        )


def _install_builtins() -> None:
    for cls in (_Q4_0, _Q4_K, _Q5_K, _Q6_K):
        enc = cls()
        _BUILTINS[enc.name.casefold()] = enc
        register_encoding(enc)
        setattr(QuantizationEncoding, enc.name, enc)


_install_builtins()
