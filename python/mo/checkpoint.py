"""Checkpoints: named tensors saved to and loaded from disk.

The on-disk format is `safetensors <https://github.com/huggingface/safetensors>`_
(what every Hugging Face checkpoint is): an 8-byte little-endian header length, a
JSON header naming each tensor's dtype, shape and byte range, then the raw
little-endian data. :func:`load` memory-maps the file and returns zero-copy numpy
views (copies only for tensors whose offset is not a multiple of their item size,
which mo's own writer never produces).

Quantized tensors (:class:`QuantizedTensor`) are stored as ``U8`` tensors of their
packed shape ``[..., K / elements_per_block * block_size]``; their encoding and
logical shape are recorded in the header's ``__metadata__`` under the key
``"mo.quantization"`` (a JSON object ``{name: {"encoding": ..., "shape": [...]}}``),
so other safetensors readers see plain uint8 tensors. ``BF16`` tensors, which numpy
cannot represent, are kept as :class:`BFloat16Tensor` (their raw uint16 bits).

:func:`load_gguf` reads the tensors of a ``.gguf`` file (llama.cpp's format) with
the ``gguf`` package; tensors in one of mo's block encodings stay quantized.

Writes are atomic: the file is written to a temporary file in the destination
directory and renamed over the destination, so a failed or interrupted
:func:`save` never leaves a partially written checkpoint.
"""

from __future__ import annotations

import json
import mmap as _mmap
import os
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from mo._files import atomic_write
from mo._quant import encoding as _quant
from mo._quant.encoding import QuantizationEncoding, get_encoding
from mo.dtype import from_bfloat16_bits, to_bfloat16_bits

__all__ = [
    "BFloat16Tensor",
    "QuantizedTensor",
    "Tensor",
    "TensorDict",
    "load",
    "load_gguf",
    "save",
]

#: The ``__metadata__`` key holding the encodings and logical shapes of quantized tensors.
QUANTIZATION_METADATA_KEY = "mo.quantization"

# safetensors dtype tags <-> numpy dtypes (little endian on disk).
_DTYPE_TO_TAG: dict[np.dtype, str] = {
    np.dtype(np.bool_): "BOOL",
    np.dtype(np.uint8): "U8",
    np.dtype(np.int8): "I8",
    np.dtype(np.uint16): "U16",
    np.dtype(np.int16): "I16",
    np.dtype(np.float16): "F16",
    np.dtype(np.uint32): "U32",
    np.dtype(np.int32): "I32",
    np.dtype(np.float32): "F32",
    np.dtype(np.uint64): "U64",
    np.dtype(np.int64): "I64",
    np.dtype(np.float64): "F64",
    np.dtype(np.complex64): "C64",
}
_TAG_TO_DTYPE: dict[str, np.dtype] = {
    tag: dt.newbyteorder("<") for dt, tag in _DTYPE_TO_TAG.items()
}
_TAG_TO_DTYPE["BF16"] = np.dtype("<u2")

_MAX_HEADER_BYTES = 100 * 1024 * 1024  # the limit of the reference implementation


# --------------------------------------------------------------------------------------
# Tensor records
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False, init=False, repr=False)
class QuantizedTensor:
    """A block-quantized tensor: packed uint8 data plus its encoding and logical shape.

    Attributes:
        encoding: The :class:`~mo.graph.quantization.QuantizationEncoding`.
        data: uint8 ``[..., K / elements_per_block * block_size]``.
        shape: The logical (float) shape ``[..., K]``.

    Args:
        encoding: An encoding or a registered encoding name.
        data: The packed bytes, in any shape holding exactly the right number of bytes.
        shape: The logical shape; derived from ``data.shape`` when omitted.

    Raises:
        TypeError: ``data`` is not a uint8 array.
        ValueError: Unknown encoding, or the byte count does not match ``shape``.

    Example:
        >>> import numpy as np
        >>> w = QuantizedTensor.quantize("Q4_K", np.ones((2, 256), np.float32))
        >>> w
        QuantizedTensor(Q4_K, shape=(2, 256), 288 bytes)
        >>> w.dequantize().shape
        (2, 256)
    """

    encoding: QuantizationEncoding
    data: np.ndarray
    shape: tuple[int, ...]

    def __init__(
        self,
        encoding: QuantizationEncoding | str,
        data: np.ndarray,
        shape: Iterable[int] | None = None,
    ) -> None:
        enc = get_encoding(encoding)
        if not isinstance(data, np.ndarray) or data.dtype != np.uint8:
            got = data.dtype if isinstance(data, np.ndarray) else type(data).__name__
            raise TypeError(f"QuantizedTensor({enc.name}): data must be a uint8 array, got {got}")
        if shape is None:
            shape = enc.dequantized_shape(data.shape)
        data, logical = _quant.reshape_packed(enc, data, shape, f"QuantizedTensor({enc.name})")
        object.__setattr__(self, "encoding", enc)
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "shape", logical)

    @classmethod
    def quantize(
        cls, encoding: QuantizationEncoding | str, array: npt.ArrayLike
    ) -> QuantizedTensor:
        """Quantizes ``array`` (see :func:`mo.graph.quantization.quantize`)."""
        enc = get_encoding(encoding)
        shape = np.shape(array)
        return cls(enc, _quant.quantize(enc, array), shape)

    def dequantize(self) -> np.ndarray:
        """The float32 values, of shape :attr:`shape`."""
        return _quant.dequantize(self.encoding, self.data, self.shape)

    @property
    def nbytes(self) -> int:
        """Size of the packed data in bytes."""
        return int(self.data.nbytes)

    def __repr__(self) -> str:
        return f"QuantizedTensor({self.encoding.name}, shape={self.shape}, {self.nbytes} bytes)"


@dataclass(frozen=True, eq=False, repr=False)
class BFloat16Tensor:
    """A bfloat16 tensor, kept as its raw 16-bit patterns (numpy has no bfloat16).

    Attributes:
        bits: uint16 array of the logical shape; each element is the upper half of
            the corresponding float32.

    Example:
        >>> import numpy as np
        >>> t = BFloat16Tensor.from_float32(np.array([1.0, 3.14159, -2.5], np.float32))
        >>> t.bits
        array([16256, 16457, 49184], dtype=uint16)
        >>> t.to_float32()
        array([ 1.      ,  3.140625, -2.5     ], dtype=float32)
    """

    bits: np.ndarray

    def __post_init__(self) -> None:
        if (
            not isinstance(self.bits, np.ndarray)
            or self.bits.dtype.kind != "u"
            or self.bits.dtype.itemsize != 2
        ):
            got = self.bits.dtype if isinstance(self.bits, np.ndarray) else type(self.bits).__name__
            raise TypeError(f"BFloat16Tensor: bits must be a uint16 array, got {got}")

    @classmethod
    def from_float32(cls, array: npt.ArrayLike) -> BFloat16Tensor:
        """Rounds float32 values to bfloat16 (to nearest even; NaNs stay quiet NaNs).

        Other inputs are converted to float32 first, as ggml does.
        """
        return cls(to_bfloat16_bits(np.asarray(array, dtype=np.float32)))

    def to_float32(self) -> np.ndarray:
        """The exact float32 values."""
        return from_bfloat16_bits(self.bits)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.bits.shape)

    @property
    def nbytes(self) -> int:
        return int(self.bits.nbytes)

    def __repr__(self) -> str:
        return f"BFloat16Tensor(shape={self.shape})"


#: What a :class:`TensorDict` holds.
Tensor = np.ndarray | QuantizedTensor | BFloat16Tensor


def _coerce(name: str, value: Any) -> Tensor:
    if isinstance(value, (QuantizedTensor, BFloat16Tensor)):
        return value
    array = value if isinstance(value, np.ndarray) else np.asarray(value)
    if array.dtype.name == "bfloat16" and array.dtype.itemsize == 2:  # e.g. ml_dtypes.bfloat16
        return BFloat16Tensor(np.ascontiguousarray(array).view(np.uint16))
    if array.dtype.newbyteorder("=") not in _DTYPE_TO_TAG:
        supported = ", ".join(sorted(str(dt) for dt in _DTYPE_TO_TAG))
        raise TypeError(
            f"tensor {name!r}: unsupported dtype {array.dtype} (supported: {supported}, "
            f"bfloat16, QuantizedTensor)"
        )
    return array


def _describe(value: Tensor) -> tuple[str, tuple[int, ...], int]:
    if isinstance(value, QuantizedTensor):
        return value.encoding.name, value.shape, value.nbytes
    if isinstance(value, BFloat16Tensor):
        return "bfloat16", value.shape, value.nbytes
    return str(value.dtype), tuple(value.shape), int(value.nbytes)


def _format_bytes(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError  # pragma: no cover


class TensorDict(MutableMapping[str, Tensor]):
    """An ordered mapping of tensor names to tensors, with string metadata.

    Values are numpy arrays (bool, int8..int64, uint8..uint64, float16/32/64,
    complex64), :class:`QuantizedTensor` or :class:`BFloat16Tensor`; other
    array-likes are converted with ``np.asarray``.

    Args:
        tensors: A mapping or an iterable of ``(name, tensor)`` pairs.
        metadata: String key/value pairs stored in the file's ``__metadata__``.
        **kwargs: More tensors by name.

    Attributes:
        metadata: ``dict[str, str]`` of user metadata.
        source: The file this dictionary was loaded from, if any.

    Example:
        >>> import numpy as np
        >>> td = TensorDict({"w": np.zeros((2, 3), np.float32)}, b=np.arange(3))
        >>> sorted(td.keys()), len(td)
        (['b', 'w'], 2)
        >>> td
        TensorDict(2 tensors, 48 bytes)
          w  float32  (2, 3)
          b  int64    (3,)
    """

    def __init__(
        self,
        tensors: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None,
        /,
        *,
        metadata: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        self._tensors: dict[str, Tensor] = {}
        self.metadata: dict[str, str] = dict(metadata or {})
        self.source: str | None = None
        if tensors is not None:
            self.update(tensors)
        self.update(kwargs)

    def __getitem__(self, name: str) -> Tensor:
        try:
            return self._tensors[name]
        except KeyError:
            where = f" in {self.source}" if self.source else ""
            names = list(self._tensors)
            known = ", ".join(repr(n) for n in names[:10]) + (", ..." if len(names) > 10 else "")
            raise KeyError(
                f"no tensor named {name!r}{where} (tensors: {known or 'none'})"
            ) from None

    def __setitem__(self, name: str, value: Any) -> None:
        if not isinstance(name, str):
            raise TypeError(f"tensor names must be strings, got {type(name).__name__}")
        if name == "__metadata__":
            raise ValueError(
                "'__metadata__' is reserved by the safetensors format and cannot name a tensor"
            )
        self._tensors[name] = _coerce(name, value)

    def __delitem__(self, name: str) -> None:
        if name not in self._tensors:
            self[name]  # raises the descriptive KeyError
        del self._tensors[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tensors)

    def __len__(self) -> int:
        return len(self._tensors)

    def __contains__(self, name: object) -> bool:
        return name in self._tensors

    # numpy arrays have no boolean equality; compare TensorDicts by identity.
    __eq__ = object.__eq__
    __hash__ = None  # type: ignore[assignment]

    @property
    def nbytes(self) -> int:
        """Total size of the tensor data in bytes."""
        return sum(_describe(v)[2] for v in self._tensors.values())

    def __repr__(self) -> str:
        source = f", from {self.source!r}" if self.source else ""
        count = len(self)
        plural = "s" if count != 1 else ""
        head = f"TensorDict({count} tensor{plural}, {_format_bytes(self.nbytes)}{source})"
        rows = [(repr(n)[1:-1], *_describe(v)[:2]) for n, v in list(self._tensors.items())[:50]]
        if not rows:
            return head
        wn = max(len(r[0]) for r in rows)
        wd = max(len(r[1]) for r in rows)
        lines = [head] + [f"  {n:<{wn}}  {d:<{wd}}  {s}" for n, d, s in rows]
        if count > len(rows):
            lines.append(f"  ... ({count - len(rows)} more)")
        return "\n".join(lines)


# --------------------------------------------------------------------------------------
# safetensors writer
# --------------------------------------------------------------------------------------


def save(
    tensors: Mapping[str, Any],
    path: str | os.PathLike[str],
    *,
    metadata: Mapping[str, str] | None = None,
) -> None:
    """Saves tensors to ``path`` in safetensors format, atomically.

    Args:
        tensors: A :class:`TensorDict` or any mapping of names to tensors.
        path: Destination file; replaced if it exists.
        metadata: Extra ``__metadata__`` entries (merged over ``tensors.metadata``).

    Raises:
        TypeError: A name or a value has an unsupported type.
        ValueError: Metadata uses the reserved ``"mo.quantization"`` key.
        OSError: The file cannot be written (nothing is left behind).

    Example:
        >>> import numpy as np, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "w.safetensors")
        >>> save({"w": np.eye(2, dtype=np.float32)}, path)
        >>> load(path)["w"]
        array([[1., 0.],
               [0., 1.]], dtype=float32)
    """
    td = tensors if isinstance(tensors, TensorDict) else TensorDict(tensors)
    meta = dict(td.metadata)
    meta.update(metadata or {})
    for key, value in meta.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError(f"safetensors metadata must map str to str, got {key!r}: {value!r}")
    if QUANTIZATION_METADATA_KEY in meta:
        raise ValueError(
            f"metadata key {QUANTIZATION_METADATA_KEY!r} is reserved for quantized tensors"
        )

    entries: list[tuple[str, str, tuple[int, ...], np.ndarray]] = []
    quantized: dict[str, dict[str, Any]] = {}
    for name, value in td.items():
        if isinstance(value, QuantizedTensor):
            array, tag = value.data, "U8"
            quantized[name] = {"encoding": value.encoding.name, "shape": list(value.shape)}
        elif isinstance(value, BFloat16Tensor):
            array, tag = value.bits, "BF16"
        else:
            array, tag = value, _DTYPE_TO_TAG[value.dtype.newbyteorder("=")]
        shape = tuple(array.shape)
        flat = np.ascontiguousarray(array).reshape(-1)
        if flat.dtype.byteorder == ">" or (flat.dtype.byteorder == "=" and not _LITTLE_ENDIAN):
            flat = flat.astype(flat.dtype.newbyteorder("<"))
        entries.append((name, tag, shape, flat))
    if quantized:
        meta[QUANTIZATION_METADATA_KEY] = json.dumps(quantized, separators=(",", ":"))

    # Larger items first: every offset is then a multiple of its tensor's item size
    # (all item sizes are powers of two), so mmap-ed views are aligned.
    entries.sort(key=lambda e: -e[3].dtype.itemsize)
    header: dict[str, Any] = {}
    if meta:
        header["__metadata__"] = meta
    offset = 0
    for name, tag, shape, flat in entries:
        header[name] = {
            "dtype": tag,
            "shape": list(shape),
            "data_offsets": [offset, offset + flat.nbytes],
        }
        offset += flat.nbytes
    blob = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    blob += b" " * (-(8 + len(blob)) % 8)  # data starts 8-byte aligned

    def write(f: BinaryIO) -> None:
        f.write(len(blob).to_bytes(8, "little"))
        f.write(blob)
        for *_, flat in entries:
            if flat.nbytes:
                f.write(memoryview(flat.view(np.uint8)))

    atomic_write(path, write)


_LITTLE_ENDIAN = np.little_endian


# --------------------------------------------------------------------------------------
# safetensors reader
# --------------------------------------------------------------------------------------


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r} in the JSON header")
        out[key] = value
    return out


def _is_uint(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def load(path: str | os.PathLike[str], *, mmap: bool = True) -> TensorDict:
    """Loads a safetensors file.

    Args:
        path: The file.
        mmap: Memory-map the file and return zero-copy, read-only views into it
            (the default). With ``mmap=False`` the file is read into memory and the
            arrays are writable.

    Returns:
        A :class:`TensorDict` in the file's header order, with the file's
        ``__metadata__`` as :attr:`TensorDict.metadata` and quantized tensors as
        :class:`QuantizedTensor`.

    Raises:
        ValueError: The file is truncated, corrupted or not a safetensors file, or
            it uses an unsupported dtype or an unregistered quantization encoding;
            the message names the file and, where it applies, the tensor.
        OSError: The file cannot be read.

    Example:
        >>> import numpy as np, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "ck.safetensors")
        >>> save(TensorDict(a=np.arange(4, dtype=np.int16), metadata={"step": "7"}), path)
        >>> td = load(path)
        >>> td["a"], td.metadata
        (array([0, 1, 2, 3], dtype=int16), {'step': '7'})
    """
    path = os.fspath(path)
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size < 8:
            raise ValueError(
                f"{path}: not a safetensors file: it has {size} bytes, fewer than the "
                f"8-byte header length"
            )
        header_len = int.from_bytes(f.read(8), "little")
        if header_len > size - 8:
            raise ValueError(
                f"{path}: truncated or not a safetensors file: the header length field says "
                f"{header_len} bytes but only {size - 8} follow"
            )
        if header_len > _MAX_HEADER_BYTES:
            raise ValueError(
                f"{path}: header of {header_len} bytes exceeds the {_MAX_HEADER_BYTES}-byte limit"
            )
        raw_header = f.read(header_len)
        data_start = 8 + header_len
        data_len = size - data_start
        try:
            header = json.loads(raw_header.decode("utf-8"), object_pairs_hook=_reject_duplicates)
        except (ValueError, RecursionError) as err:  # UnicodeDecodeError is a ValueError
            raise ValueError(f"{path}: corrupted safetensors header: {err}") from None
        if not isinstance(header, dict):
            raise ValueError(  # noqa: TRY004 - a malformed file is a ValueError
                f"{path}: corrupted safetensors header: expected a JSON object"
            )
        metadata = header.pop("__metadata__", None) or {}
        if not isinstance(metadata, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()
        ):
            raise ValueError(f"{path}: __metadata__ must be a JSON object of strings")
        specs = _parse_specs(path, header, data_len)

        buffer: Any
        if data_len == 0:
            buffer = b""
        elif mmap:
            buffer = _mmap.mmap(f.fileno(), 0, access=_mmap.ACCESS_READ)
        else:
            f.seek(data_start)
            buffer = bytearray(data_len)
            if f.readinto(buffer) != data_len:
                raise ValueError(f"{path}: file changed while being read")
            data_start = 0

    td = TensorDict()
    for name, (tag, shape, begin, _end) in specs.items():
        dtype = _TAG_TO_DTYPE[tag]
        count = int(np.prod(shape, dtype=np.int64))
        if count == 0:
            array = np.zeros(shape, dtype=dtype)
        else:
            offset = data_start + begin
            array = np.frombuffer(buffer, dtype=dtype, count=count, offset=offset).reshape(shape)
            if offset % dtype.itemsize:
                array = array.copy()  # unaligned (not written by mo): copy to aligned memory
        if not _LITTLE_ENDIAN:  # pragma: no cover - big-endian hosts
            array = array.astype(dtype.newbyteorder("="))
        td._tensors[name] = BFloat16Tensor(array) if tag == "BF16" else array

    quant_spec = metadata.pop(QUANTIZATION_METADATA_KEY, None)
    if quant_spec is not None:
        _attach_quantization(path, td, quant_spec)
    td.metadata = metadata
    td.source = path
    return td


def _parse_specs(
    path: str, header: dict[str, Any], data_len: int
) -> dict[str, tuple[str, tuple[int, ...], int, int]]:
    """Validates the tensor entries of a header; returns name -> (tag, shape, begin, end)."""
    specs: dict[str, tuple[str, tuple[int, ...], int, int]] = {}
    for name, info in header.items():
        where = f"{path}: tensor {name!r}"
        if not isinstance(info, dict):
            raise ValueError(f"{where}: header entry must be a JSON object")  # noqa: TRY004
        tag, shape, offsets = info.get("dtype"), info.get("shape"), info.get("data_offsets")
        if not isinstance(tag, str) or tag not in _TAG_TO_DTYPE:
            supported = ", ".join(sorted(_TAG_TO_DTYPE))
            raise ValueError(f"{where}: unsupported dtype {tag!r} (mo reads {supported})")
        if not isinstance(shape, list) or not all(_is_uint(d) for d in shape):
            raise ValueError(
                f"{where}: shape must be a list of non-negative integers, got {shape!r}"
            )
        if not (
            isinstance(offsets, list) and len(offsets) == 2 and all(_is_uint(o) for o in offsets)
        ):
            raise ValueError(
                f"{where}: data_offsets must be two non-negative integers, got {offsets!r}"
            )
        begin, end = offsets
        nbytes = int(np.prod(shape, dtype=object)) * _TAG_TO_DTYPE[tag].itemsize
        if end < begin or end - begin != nbytes:
            raise ValueError(
                f"{where}: data_offsets {offsets} span {end - begin} bytes, but a {tag} tensor "
                f"of shape {shape} takes {nbytes}"
            )
        if end > data_len:
            raise ValueError(
                f"{where}: truncated file: the tensor needs bytes {begin}..{end} of the data "
                f"section, which has only {data_len}"
            )
        specs[name] = (tag, tuple(shape), begin, end)
    # The data section must be covered exactly, without holes or overlaps.
    position = 0
    for name, (_, _, begin, end) in sorted(
        specs.items(), key=lambda item: (item[1][2], item[1][3])
    ):
        if begin != position:
            problem = (
                "overlaps the previous tensor"
                if begin < position
                else f"leaves a hole at byte {position}"
            )
            raise ValueError(
                f"{path}: corrupted data layout: tensor {name!r} at byte {begin} {problem}"
            )
        position = end
    if position != data_len:
        raise ValueError(
            f"{path}: corrupted data layout: the tensors cover {position} bytes but the data "
            f"section has {data_len}"
        )
    return specs


def _attach_quantization(path: str, td: TensorDict, spec: str) -> None:
    try:
        entries = json.loads(spec)
    except (ValueError, RecursionError) as err:
        raise ValueError(
            f"{path}: corrupted {QUANTIZATION_METADATA_KEY!r} metadata: {err}"
        ) from None
    if not isinstance(entries, dict):
        raise ValueError(  # noqa: TRY004 - a malformed file is a ValueError
            f"{path}: corrupted {QUANTIZATION_METADATA_KEY!r} metadata: expected a JSON object"
        )
    for name, entry in entries.items():
        where = f"{path}: quantized tensor {name!r}"
        if name not in td._tensors:
            raise ValueError(f"{where} is listed in the metadata but missing from the file")
        data = td._tensors[name]
        if not isinstance(data, np.ndarray) or data.dtype != np.uint8:
            raise ValueError(f"{where} must be stored as U8")
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("encoding"), str)
            and isinstance(entry.get("shape"), list)
            and all(_is_uint(d) for d in entry["shape"])
        ):
            raise ValueError(
                f"{where}: metadata must be {{'encoding': str, 'shape': [int, ...]}}, got {entry!r}"
            )
        try:
            td._tensors[name] = QuantizedTensor(entry["encoding"], data, entry["shape"])
        except (TypeError, ValueError) as err:
            raise ValueError(f"{where}: {err}") from None


# --------------------------------------------------------------------------------------
# GGUF reader
# --------------------------------------------------------------------------------------


def load_gguf(path: str | os.PathLike[str], *, dequantize_unsupported: bool = False) -> TensorDict:
    """Reads the tensors of a GGUF file (llama.cpp's format) with the ``gguf`` package.

    Tensors in mo's block encodings (Q4_0, Q4_K, Q5_K, Q6_K) stay quantized as
    :class:`QuantizedTensor`; F32/F16/F64/I8/I16/I32/I64 tensors become numpy arrays
    and BF16 tensors :class:`BFloat16Tensor`, all zero-copy views of the
    memory-mapped file. Shapes are numpy order (GGUF lists dimensions innermost
    first). Scalar and string key/value fields become :attr:`TensorDict.metadata`
    (non-strings JSON-encoded); array fields (e.g. the tokenizer vocabulary) are
    skipped.

    Args:
        path: The ``.gguf`` file.
        dequantize_unsupported: Load tensors in other GGML block types (Q8_0, Q2_K,
            IQ4_XS, ...) as float32 via ``gguf.quants.dequantize`` instead of raising.

    Raises:
        ValueError: The file is truncated, corrupted or not GGUF, or holds a tensor
            type mo does not keep quantized (without ``dequantize_unsupported``).
        ImportError: The ``gguf`` package is not installed.

    Example:
        >>> import numpy as np, os, tempfile, gguf
        >>> path = os.path.join(tempfile.mkdtemp(), "m.gguf")
        >>> w = gguf.GGUFWriter(path, "llama")
        >>> w.add_tensor("w", np.ones((2, 32), np.float32))
        >>> w.write_header_to_file()
        >>> w.write_kv_data_to_file()
        >>> w.write_tensors_to_file()
        >>> w.close()
        >>> load_gguf(path)["w"].shape
        (2, 32)
    """
    try:
        import gguf
    except ImportError as err:  # pragma: no cover - gguf is a declared dependency
        raise ImportError(
            "mo.checkpoint.load_gguf needs the 'gguf' package (pip install gguf)"
        ) from err

    path = os.fspath(path)
    if not os.path.isfile(path):
        # Let the OS report missing files / directories as OSError, like open().
        open(path, "rb").close()
    try:
        reader = gguf.GGUFReader(path, "r")
    except Exception as err:  # noqa: BLE001 - the reader raises many types on bad input
        raise ValueError(
            f"{path}: corrupted, truncated or not a GGUF file ({type(err).__name__}: {err})"
        ) from None

    qtypes = gguf.GGMLQuantizationType
    plain = {
        qtypes.F32,
        qtypes.F16,
        qtypes.F64,
        qtypes.I8,
        qtypes.I16,
        qtypes.I32,
        qtypes.I64,
    }
    td = TensorDict()
    for tensor in reader.tensors:
        name = tensor.name
        qtype = tensor.tensor_type
        shape = tuple(int(d) for d in reversed(tensor.shape.tolist()))
        data = tensor.data
        where = f"{path}: tensor {name!r}"
        if data.nbytes != tensor.n_bytes:
            raise ValueError(
                f"{where}: truncated file: {data.nbytes} of {tensor.n_bytes} bytes present"
            )
        if qtype in plain:
            value: Tensor = data.reshape(shape)
        elif qtype == qtypes.BF16:
            value = BFloat16Tensor(data.view(np.uint16).reshape(shape))
        elif qtype.name in ("Q4_0", "Q4_K", "Q5_K", "Q6_K"):
            value = QuantizedTensor(qtype.name, data, shape)
        elif dequantize_unsupported:
            try:
                value = np.asarray(gguf.quants.dequantize(data, qtype), dtype=np.float32).reshape(
                    shape
                )
            except NotImplementedError as err:
                raise ValueError(
                    f"{where}: cannot dequantize GGML type {qtype.name}: {err}"
                ) from None
        else:
            raise ValueError(
                f"{where} has GGML type {qtype.name}, which mo cannot keep quantized "
                f"(supported: Q4_0, Q4_K, Q5_K, Q6_K); pass dequantize_unsupported=True "
                f"to load it as float32"
            )
        td._tensors[name] = value

    for key, field in reader.fields.items():
        if key.startswith("GGUF.") or len(field.types) != 1:
            continue  # reader bookkeeping, or an array
        try:
            value = field.contents()
        except Exception:  # noqa: BLE001, S112 - skip a malformed field  # pragma: no cover
            continue
        td.metadata[key] = value if isinstance(value, str) else json.dumps(value)
    td.source = path
    return td
