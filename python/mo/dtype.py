"""Element types of mo tensors (MAX ``max.dtype``).

``DType`` names the thirteen element types a mo tensor can hold, knows how
they are spelled in the ``mo`` dialect (``f32``, ``si64``, ``i1``...) and in
numpy, and implements MAX's dtype promotion rule for binary ops.

Example:
    >>> from mo.dtype import DType
    >>> DType.float32
    DType.float32
    >>> DType.float32.mlir, DType.float32.size_in_bytes
    ('f32', 4)
    >>> DType.from_numpy("int64")
    DType.int64
    >>> promote(DType.int8, DType.float32)
    DType.float32

Promotion (``promote``), as documented by MAX's ``dtype_promotion`` module:

* The result is always **one of the two input dtypes** (never a third, wider
  type: that would silently cost performance).
* Categories are ordered ``bool < unsigned int < signed int < float``. The
  candidate is the input of the higher category (of two in the same category,
  the wider one). If the candidate is narrower than the other input, there is
  no acceptable result (``float16`` with ``int32`` would need ``float32``).
* The other input must be **exactly representable** in the candidate:
  ``bool`` fits everything; ``uintN`` fits ``uintM`` (M >= N) and ``sintM``
  (M > N); ``sintN`` fits ``sintM`` (M >= N); an integer fits a float when
  every value is exact (its magnitude bits <= the float's significand bits:
  11 for float16, 8 for bfloat16, 24 for float32, 53 for float64); a float fits
  a wider float, and ``float16``/``bfloat16`` do not fit each other.
* Anything else is an error (``DTypePromotionError``, which is both a
  ``TypeError`` and a ``ValueError``): ``uint8 + int8``, ``int32 + float32``,
  ``int64 + float16``, ``uint64 + int64``, ``float16 + bfloat16``. Cast one
  operand explicitly.

Python scalars (``promote_scalar``) are *weak*: they always take the tensor's
dtype, provided the value is exactly representable (MAX's rule): an ``int``
must lie in the dtype's exact range (for floats, ``|v| <= 2**significand``), a
``float`` needs a float dtype (a float with an integer or bool tensor is an
error, whatever its value) and must not overflow it, a ``bool`` fits every
dtype.
"""

from __future__ import annotations

import enum
import math
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["DType", "DTypePromotionError", "promote", "promote_scalar"]


_FROM_NUMPY_DTYPE: dict = {}


class DTypePromotionError(TypeError, ValueError):
    """An unsafe dtype promotion. Both a ``TypeError`` and a ``ValueError``.

    MAX raises ``ValueError("Unsafe cast: ...")`` for these; catching either
    type works with mo.
    """


# (mlir spelling, size in bytes, category, significand bits for floats)
# category: 0 bool, 1 unsigned int, 2 signed int, 3 float
_BOOL, _UINT, _SINT, _FLOAT = 0, 1, 2, 3


class DType(enum.Enum):
    """The element type of a tensor.

    Example:
        >>> DType.bfloat16.is_float, DType.uint8.is_signed, DType.bool.mlir
        (True, False, 'i1')
        >>> str(DType.int32)
        'int32'
    """

    float16 = "float16"
    bfloat16 = "bfloat16"
    float32 = "float32"
    float64 = "float64"
    int8 = "int8"
    int16 = "int16"
    int32 = "int32"
    int64 = "int64"
    uint8 = "uint8"
    uint16 = "uint16"
    uint32 = "uint32"
    uint64 = "uint64"
    bool = "bool"

    def __repr__(self) -> str:
        return f"DType.{self.name}"

    def __str__(self) -> str:
        return self.name

    # -- properties --------------------------------------------------------

    @property
    def size_in_bytes(self) -> int:
        """Bytes per element (``bool`` is stored as one byte)."""
        return _INFO[self][1]

    @property
    def bit_width(self) -> int:
        """Bits per element in the MLIR type (``bool`` is ``i1``: 1)."""
        return 1 if self is DType.bool else 8 * self.size_in_bytes

    @property
    def is_float(self) -> bool:
        """True for float16, bfloat16, float32 and float64."""
        return _INFO[self][2] == _FLOAT

    @property
    def is_integral(self) -> bool:
        """True for the signed and unsigned integer types (not ``bool``)."""
        return _INFO[self][2] in (_UINT, _SINT)

    @property
    def is_signed(self) -> bool:
        """True for signed integers and floats; False for unsigned and bool."""
        return _INFO[self][2] in (_SINT, _FLOAT)

    @property
    def is_bool(self) -> bool:
        """True for ``DType.bool``."""
        return self is DType.bool

    @property
    def mlir(self) -> str:
        """The MLIR element type spelling used by the mo dialect.

        Example:
            >>> [d.mlir for d in (DType.float16, DType.int8, DType.uint64)]
            ['f16', 'si8', 'ui64']
        """
        return _INFO[self][0]

    # -- numpy -------------------------------------------------------------

    def to_numpy(self) -> np.dtype:
        """The numpy dtype of this element type.

        ``bfloat16`` needs the ``ml_dtypes`` package (numpy has no bfloat16).

        Raises:
            TypeError: for bfloat16 when ``ml_dtypes`` is not installed.

        Example:
            >>> DType.float32.to_numpy()
            dtype('float32')
        """
        if self is DType.bfloat16:
            return np.dtype(_bfloat16_type())
        return np.dtype(_NUMPY_NAMES[self])

    @classmethod
    def from_numpy(cls, dtype_like: Any) -> DType:
        """The DType of a numpy dtype (or anything ``np.dtype()`` accepts).

        Byte order is ignored (``'>f4'`` is float32); the caller converts the
        data to native order.

        Raises:
            TypeError: for a dtype mo does not support (complex, strings,
                float8, ...) or something that is not a dtype at all.

        Example:
            >>> DType.from_numpy(np.float16), DType.from_numpy(np.dtype(bool))
            (DType.float16, DType.bool)
        """
        if isinstance(dtype_like, DType):
            return dtype_like
        if isinstance(dtype_like, np.dtype):
            cached = _FROM_NUMPY_DTYPE.get(dtype_like)
            if cached is not None:
                return cached
        try:
            dt = np.dtype(dtype_like)
        except Exception as e:  # numpy raises TypeError or ValueError here
            raise TypeError(
                f"cannot interpret {dtype_like!r} as a numpy dtype ({e})"
            ) from None
        if dt.names is None and dt.subdtype is None:
            if dt.kind == "b":
                return DType.bool
            if dt.kind in "iuf":
                found = _FROM_NUMPY.get((dt.kind, dt.itemsize))
                if found is not None:
                    _FROM_NUMPY_DTYPE[dt] = found  # hot path of every call
                    return found
            if dt.kind == "V" and dt.name == "bfloat16" and dt.itemsize == 2:
                return DType.bfloat16
        supported = ", ".join(d.name for d in DType)
        raise TypeError(
            f"unsupported numpy dtype {dt.name if dt.names is None else dt}: mo supports "
            f"{supported}"
        )

    @classmethod
    def from_mlir(cls, spelling: str) -> DType:
        """The DType of an MLIR element type spelling (``'f32'``, ``'si64'``, ``'i1'``).

        Raises:
            ValueError: for a spelling the mo dialect does not use.

        Example:
            >>> DType.from_mlir("bf16")
            DType.bfloat16
        """
        found = _FROM_MLIR.get(spelling)
        if found is None:
            raise ValueError(
                f"unsupported MLIR element type {spelling!r}: expected one of "
                f"{', '.join(_FROM_MLIR)}"
            )
        return found


_INFO: dict[DType, tuple[str, int, int, int]] = {
    DType.float16: ("f16", 2, _FLOAT, 11),
    DType.bfloat16: ("bf16", 2, _FLOAT, 8),
    DType.float32: ("f32", 4, _FLOAT, 24),
    DType.float64: ("f64", 8, _FLOAT, 53),
    DType.int8: ("si8", 1, _SINT, 0),
    DType.int16: ("si16", 2, _SINT, 0),
    DType.int32: ("si32", 4, _SINT, 0),
    DType.int64: ("si64", 8, _SINT, 0),
    DType.uint8: ("ui8", 1, _UINT, 0),
    DType.uint16: ("ui16", 2, _UINT, 0),
    DType.uint32: ("ui32", 4, _UINT, 0),
    DType.uint64: ("ui64", 8, _UINT, 0),
    DType.bool: ("i1", 1, _BOOL, 0),
}

_NUMPY_NAMES = {d: d.name for d in DType if d is not DType.bfloat16}

_FROM_NUMPY: dict[tuple[str, int], DType] = {
    ("f", 2): DType.float16,
    ("f", 4): DType.float32,
    ("f", 8): DType.float64,
    ("i", 1): DType.int8,
    ("i", 2): DType.int16,
    ("i", 4): DType.int32,
    ("i", 8): DType.int64,
    ("u", 1): DType.uint8,
    ("u", 2): DType.uint16,
    ("u", 4): DType.uint32,
    ("u", 8): DType.uint64,
}

_FROM_MLIR = {info[0]: d for d, info in _INFO.items()}


def _bfloat16_type() -> Any:
    try:
        import ml_dtypes
    except ImportError:
        raise TypeError(
            "DType.bfloat16 has no numpy equivalent without the ml_dtypes package; "
            "install it (pip install ml_dtypes) to move bfloat16 data through numpy"
        ) from None
    return ml_dtypes.bfloat16


# -- bfloat16 bits -------------------------------------------------------------
# numpy has no bfloat16, so mo keeps raw bfloat16 data (checkpoints, graph
# constants) as uint16 bit patterns; these two convert them, with ml_dtypes.


def to_bfloat16_bits(array: npt.ArrayLike) -> np.ndarray:
    """``array`` rounded to bfloat16 (to nearest even), as C-contiguous uint16 bits.

    Overflow gives an infinity; a NaN becomes the quiet NaN of its sign.

    Example:
        >>> to_bfloat16_bits(np.array([1.0, 3.14159, -2.5], np.float32))
        array([16256, 16457, 49184], dtype=uint16)
    """
    with np.errstate(invalid="ignore"):  # a signalling NaN sets the flag; it still gives a NaN
        return np.asarray(array).astype(_bfloat16_type(), order="C").view(np.uint16)


def from_bfloat16_bits(bits: npt.ArrayLike) -> np.ndarray:
    """The float32 values of bfloat16 bit patterns (exact: bfloat16 is a float32 prefix).

    Example:
        >>> from_bfloat16_bits(np.array([16256, 16457, 49184], np.uint16))
        array([ 1.      ,  3.140625, -2.5     ], dtype=float32)
    """
    return np.asarray(bits, dtype=np.uint16).view(_bfloat16_type()).astype(np.float32)


# -- promotion ---------------------------------------------------------------


def _category(d: DType) -> int:
    return _INFO[d][2]


def _magnitude_bits(d: DType) -> int:
    """Bits an integer type needs for its largest magnitude (sign excluded)."""
    bits = 8 * d.size_in_bytes
    return bits - 1 if _category(d) == _SINT else bits


def _fits(src: DType, dst: DType) -> bool:
    """Whether every value of ``src`` is exactly representable in ``dst``."""
    if src is dst:
        return True
    cs, cd = _category(src), _category(dst)
    if cs == _BOOL:
        return True
    if cd == _FLOAT:
        if cs == _FLOAT:
            # float16 and bfloat16 do not contain each other; wider floats
            # contain both.
            return src.size_in_bytes < dst.size_in_bytes
        return _magnitude_bits(src) <= _INFO[dst][3]
    if cs == _FLOAT or cd == _BOOL:
        return False
    if cs == cd:
        return src.size_in_bytes <= dst.size_in_bytes
    if cs == _UINT and cd == _SINT:
        return src.size_in_bytes < dst.size_in_bytes
    return False  # signed into unsigned


def promote(a: DType, b: DType) -> DType:
    """The result dtype of a binary op on tensors of dtypes ``a`` and ``b``.

    The result is one of the two inputs, and the other must convert to it
    exactly (see the module docstring for the full rule).

    Raises:
        DTypePromotionError: (a ``TypeError`` and a ``ValueError``) when the
            promotion is unsafe.

    Example:
        >>> promote(DType.uint8, DType.int16), promote(DType.int16, DType.float32)
        (DType.int16, DType.float32)
    """
    for d in (a, b):
        if not isinstance(d, DType):
            raise TypeError(f"promote() expects DTypes, got {type(d).__name__}")
    if a is b:
        return a
    ca, cb = _category(a), _category(b)
    if (ca, a.size_in_bytes) >= (cb, b.size_in_bytes):
        hi, lo = a, b
    else:
        hi, lo = b, a
    if _fits(lo, hi):
        return hi
    raise DTypePromotionError(
        f"Unsafe dtype promotion of {a.name} and {b.name}: the result must be one of "
        f"the input dtypes, and neither can represent every value of the other; "
        f"cast one operand explicitly (for example with ops.cast)"
    )


# Exact range of integers each dtype holds (floats: 2**significand bits).
_EXACT_INT_RANGE: dict[DType, tuple[int, int]] = {
    DType.bool: (0, 1),
    DType.int8: (-(2**7), 2**7 - 1),
    DType.int16: (-(2**15), 2**15 - 1),
    DType.int32: (-(2**31), 2**31 - 1),
    DType.int64: (-(2**63), 2**63 - 1),
    DType.uint8: (0, 2**8 - 1),
    DType.uint16: (0, 2**16 - 1),
    DType.uint32: (0, 2**32 - 1),
    DType.uint64: (0, 2**64 - 1),
    DType.float16: (-(2**11), 2**11),
    DType.bfloat16: (-(2**8), 2**8),
    DType.float32: (-(2**24), 2**24),
    DType.float64: (-(2**53), 2**53),
}

# Largest finite value of each float dtype.
_FLOAT_MAX = {
    DType.float16: 65504.0,
    DType.bfloat16: 3.3895313892515355e38,
    DType.float32: 3.4028234663852886e38,
    DType.float64: 1.7976931348623157e308,
}


def promote_scalar(dtype: DType, value: Any) -> DType:
    """The dtype a Python scalar takes next to a tensor of ``dtype``.

    A scalar is *weak*: the result is always ``dtype``, provided the value is
    exactly representable in it.

    Args:
        dtype: the tensor operand's dtype.
        value: a Python (or numpy) ``bool``, ``int`` or ``float``.

    Raises:
        DTypePromotionError: (a ``TypeError`` and a ``ValueError``) for an int
            outside ``dtype``'s exact range, a float with a non-float dtype,
            or a finite float that overflows ``dtype``.
        TypeError: for anything that is not a real scalar.

    Example:
        >>> promote_scalar(DType.float16, 3), promote_scalar(DType.uint8, 255)
        (DType.float16, DType.uint8)
    """
    if not isinstance(dtype, DType):
        raise TypeError(f"promote_scalar() expects a DType, got {type(dtype).__name__}")
    if isinstance(value, (bool, np.bool_)):
        return dtype
    if isinstance(value, (int, np.integer)):
        lo, hi = _EXACT_INT_RANGE[dtype]
        if lo <= int(value) <= hi:
            return dtype
        raise DTypePromotionError(
            f"Unsafe cast: Can't promote python int with value ({int(value)}) to "
            f"dtype({dtype.name}). It would lose precision; the exact range of "
            f"{dtype.name} is [{lo}, {hi}]"
        )
    if isinstance(value, (float, np.floating)):
        if not dtype.is_float:
            raise DTypePromotionError(
                f"Unsafe cast: Can't promote python float to dtype({dtype.name}); "
                f"cast the tensor to a float dtype, or pass an int"
            )
        v = float(value)
        if math.isfinite(v) and abs(v) > _FLOAT_MAX[dtype]:
            raise DTypePromotionError(
                f"Unsafe cast: python float {v!r} overflows dtype({dtype.name}) "
                f"(largest finite value {_FLOAT_MAX[dtype]!r})"
            )
        return dtype
    raise TypeError(
        f"expected a Python bool, int or float scalar, got {type(value).__name__}"
    )
