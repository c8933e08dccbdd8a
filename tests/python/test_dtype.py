"""mo.dtype: DType, numpy conversion, MAX's promotion rule."""

import doctest
import itertools

import numpy as np
import pytest

import mo.dtype
from mo.dtype import DType, DTypePromotionError, promote, promote_scalar

ALL = list(DType)
FLOATS = [DType.float16, DType.bfloat16, DType.float32, DType.float64]
SINTS = [DType.int8, DType.int16, DType.int32, DType.int64]
UINTS = [DType.uint8, DType.uint16, DType.uint32, DType.uint64]


def test_members_and_repr():
    assert [d.name for d in DType] == [
        "float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
        "uint8", "uint16", "uint32", "uint64", "bool",
    ]
    assert repr(DType.float32) == "DType.float32"
    assert str(DType.float32) == "float32"
    assert f"{DType.uint8!r}" == "DType.uint8"
    assert DType("int64") is DType.int64


@pytest.mark.parametrize(
    "dtype,size,mlir",
    [
        (DType.float16, 2, "f16"), (DType.bfloat16, 2, "bf16"), (DType.float32, 4, "f32"),
        (DType.float64, 8, "f64"), (DType.int8, 1, "si8"), (DType.int16, 2, "si16"),
        (DType.int32, 4, "si32"), (DType.int64, 8, "si64"), (DType.uint8, 1, "ui8"),
        (DType.uint16, 2, "ui16"), (DType.uint32, 4, "ui32"), (DType.uint64, 8, "ui64"),
        (DType.bool, 1, "i1"),
    ],
)
def test_size_and_mlir(dtype, size, mlir):
    assert dtype.size_in_bytes == size
    assert dtype.mlir == mlir
    assert DType.from_mlir(mlir) is dtype


def test_bit_width():
    assert DType.bool.bit_width == 1
    assert DType.bfloat16.bit_width == 16
    assert DType.uint64.bit_width == 64


def test_categories():
    for d in FLOATS:
        assert d.is_float and not d.is_integral and d.is_signed and not d.is_bool
    for d in SINTS:
        assert d.is_integral and d.is_signed and not d.is_float
    for d in UINTS:
        assert d.is_integral and not d.is_signed and not d.is_float
    b = DType.bool
    assert b.is_bool and not b.is_integral and not b.is_float and not b.is_signed


def test_from_mlir_error():
    with pytest.raises(ValueError, match=r"unsupported MLIR element type 'i32': expected one of f16, bf16"):
        DType.from_mlir("i32")


@pytest.mark.parametrize("dtype", [d for d in ALL if d is not DType.bfloat16])
def test_numpy_round_trip(dtype):
    npd = dtype.to_numpy()
    assert isinstance(npd, np.dtype)
    assert npd.itemsize == dtype.size_in_bytes
    assert DType.from_numpy(npd) is dtype
    assert DType.from_numpy(npd.type) is dtype
    assert DType.from_numpy(npd.name) is dtype


def test_from_numpy_accepts_python_types_and_byte_order():
    assert DType.from_numpy(float) is DType.float64
    assert DType.from_numpy(bool) is DType.bool
    assert DType.from_numpy(np.int64) is DType.int64
    assert DType.from_numpy(">f4") is DType.float32
    assert DType.from_numpy(DType.int8) is DType.int8


def test_bfloat16_with_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    assert DType.bfloat16.to_numpy() == np.dtype(ml_dtypes.bfloat16)
    assert DType.from_numpy(ml_dtypes.bfloat16) is DType.bfloat16
    assert DType.from_numpy(np.ones(2, ml_dtypes.bfloat16).dtype) is DType.bfloat16


def test_bfloat16_bits_round_trip():
    bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)  # every bfloat16
    values = mo.dtype.from_bfloat16_bits(bits)
    assert values.dtype == np.float32
    np.testing.assert_array_equal(values.view(np.uint32), bits.astype(np.uint32) << 16)  # exact
    back = mo.dtype.to_bfloat16_bits(values)  # signalling NaNs included: no warning
    nan = np.isnan(values)
    np.testing.assert_array_equal(back[~nan], bits[~nan])
    assert np.isnan(mo.dtype.from_bfloat16_bits(back[nan])).all()
    # Round to nearest even; overflow gives an infinity.
    x = np.array([1 + 2**-8, 1 + 3 * 2**-8, 3.4e38, 0.0], np.float32)
    assert mo.dtype.to_bfloat16_bits(x).tolist() == [0x3F80, 0x3F82, 0x7F80, 0]


def test_bfloat16_without_ml_dtypes(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == "ml_dtypes":
            raise ImportError("no ml_dtypes")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(TypeError, match=r"DType.bfloat16 has no numpy equivalent without the "
                                        r"ml_dtypes package; install it \(pip install ml_dtypes\)"):
        DType.bfloat16.to_numpy()


@pytest.mark.parametrize(
    "bad,shown", [("complex64", "complex64"), (np.float128 if hasattr(np, "float128") else "U3", None),
                  (object, "object"), ("U5", "str160"), ("datetime64[s]", "datetime64[s]")],
)
def test_from_numpy_unsupported(bad, shown):
    with pytest.raises(TypeError, match=r"unsupported numpy dtype .*: mo supports float16, "
                                        r"bfloat16, float32, float64, int8, .*, bool") as e:
        DType.from_numpy(bad)
    if shown is not None:
        assert f"unsupported numpy dtype {shown}:" in str(e.value)


def test_from_numpy_structured():
    with pytest.raises(TypeError, match=r"unsupported numpy dtype \[\('a', '<f4'\)\]"):
        DType.from_numpy([("a", "<f4")])


def test_from_numpy_not_a_dtype():
    with pytest.raises(TypeError, match=r"cannot interpret 'floaty' as a numpy dtype"):
        DType.from_numpy("floaty")


# -- promotion -----------------------------------------------------------------


def test_promote_same():
    for d in ALL:
        assert promote(d, d) is d


@pytest.mark.parametrize(
    "a,b,want",
    [
        (DType.int8, DType.int32, DType.int32),
        (DType.uint8, DType.uint64, DType.uint64),
        (DType.uint8, DType.int16, DType.int16),
        (DType.uint32, DType.int64, DType.int64),
        (DType.float16, DType.float32, DType.float32),
        (DType.bfloat16, DType.float32, DType.float32),
        (DType.float32, DType.float64, DType.float64),
        (DType.int8, DType.float16, DType.float16),
        (DType.uint8, DType.float16, DType.float16),
        (DType.uint8, DType.bfloat16, DType.bfloat16),
        (DType.int8, DType.bfloat16, DType.bfloat16),
        (DType.int16, DType.float32, DType.float32),
        (DType.int32, DType.float64, DType.float64),
        (DType.bool, DType.int8, DType.int8),
        (DType.bool, DType.float16, DType.float16),
        (DType.bool, DType.uint64, DType.uint64),
    ],
)
def test_promote_safe(a, b, want):
    assert promote(a, b) is want
    assert promote(b, a) is want


@pytest.mark.parametrize(
    "a,b",
    [
        (DType.int64, DType.float16),   # float narrower than the int
        (DType.int32, DType.float16),   # result would be float32, not an input
        (DType.int32, DType.float32),   # 31 magnitude bits > 24 significand bits
        (DType.int64, DType.float64),
        (DType.uint64, DType.int64),    # uint64 does not fit int64
        (DType.uint8, DType.int8),
        (DType.uint16, DType.int8),     # result would be int16, not an input
        (DType.float16, DType.bfloat16),
        (DType.int16, DType.float16),
        (DType.uint16, DType.bfloat16),
        (DType.uint32, DType.float32),
    ],
)
def test_promote_unsafe(a, b):
    for x, y in ((a, b), (b, a)):
        with pytest.raises(DTypePromotionError) as e:
            promote(x, y)
        assert str(e.value) == (
            f"Unsafe dtype promotion of {x.name} and {y.name}: the result must be one of the "
            f"input dtypes, and neither can represent every value of the other; cast one "
            f"operand explicitly (for example with ops.cast)"
        )
        # Both a TypeError (mo) and a ValueError (MAX).
        assert isinstance(e.value, TypeError) and isinstance(e.value, ValueError)


def test_promote_is_symmetric_and_returns_an_input():
    for a, b in itertools.product(ALL, ALL):
        try:
            r = promote(a, b)
        except DTypePromotionError:
            with pytest.raises(DTypePromotionError):
                promote(b, a)
            continue
        assert r in (a, b)
        assert promote(b, a) is r


def test_promote_exact_by_numpy():
    """Every accepted promotion converts both inputs' extreme values exactly."""
    for a, b in itertools.product(ALL, ALL):
        if DType.bfloat16 in (a, b):
            continue
        try:
            r = promote(a, b)
        except DTypePromotionError:
            continue
        for src in (a, b):
            if src.is_float and not r.is_float:
                pytest.fail(f"{src} promoted to {r}")
            if src.is_integral or src.is_bool:
                info = np.iinfo(src.to_numpy()) if src.is_integral else None
                values = [0, 1] if info is None else [int(info.min), int(info.max)]
                for v in values:
                    assert int(np.array(v, dtype=src.to_numpy()).astype(r.to_numpy())) == v


def test_promote_type_errors():
    with pytest.raises(TypeError, match=r"promote\(\) expects DTypes, got str"):
        promote("float32", DType.float32)


# -- scalars -------------------------------------------------------------------


def test_promote_scalar_int():
    assert promote_scalar(DType.uint8, 255) is DType.uint8
    assert promote_scalar(DType.int8, -128) is DType.int8
    assert promote_scalar(DType.float32, 2**24) is DType.float32
    assert promote_scalar(DType.float16, -2048) is DType.float16
    assert promote_scalar(DType.bool, 1) is DType.bool
    assert promote_scalar(DType.uint64, 2**64 - 1) is DType.uint64
    assert promote_scalar(DType.int32, np.int64(7)) is DType.int32


@pytest.mark.parametrize(
    "dtype,value,lo,hi",
    [
        (DType.uint8, 256, 0, 255),
        (DType.uint8, -1, 0, 255),
        (DType.int8, 128, -128, 127),
        (DType.float32, 2**24 + 1, -(2**24), 2**24),
        (DType.bfloat16, 257, -256, 256),
        (DType.bool, 2, 0, 1),
        (DType.int64, 2**63, -(2**63), 2**63 - 1),
    ],
)
def test_promote_scalar_int_out_of_range(dtype, value, lo, hi):
    with pytest.raises(DTypePromotionError) as e:
        promote_scalar(dtype, value)
    assert str(e.value) == (
        f"Unsafe cast: Can't promote python int with value ({value}) to dtype({dtype.name}). "
        f"It would lose precision; the exact range of {dtype.name} is [{lo}, {hi}]"
    )
    assert isinstance(e.value, ValueError)


def test_promote_scalar_float():
    assert promote_scalar(DType.float16, 0.5) is DType.float16
    assert promote_scalar(DType.float32, float("inf")) is DType.float32
    assert promote_scalar(DType.float32, float("nan")) is DType.float32
    assert promote_scalar(DType.float64, 1e300) is DType.float64
    assert promote_scalar(DType.float16, np.float64(3.0)) is DType.float16


@pytest.mark.parametrize("dtype", SINTS + UINTS + [DType.bool])
def test_promote_scalar_float_with_int_tensor(dtype):
    with pytest.raises(DTypePromotionError) as e:
        promote_scalar(dtype, 2.0)
    assert str(e.value) == (
        f"Unsafe cast: Can't promote python float to dtype({dtype.name}); cast the tensor to a "
        f"float dtype, or pass an int"
    )


def test_promote_scalar_float_overflow():
    with pytest.raises(DTypePromotionError) as e:
        promote_scalar(DType.float16, 70000.0)
    assert str(e.value) == (
        "Unsafe cast: python float 70000.0 overflows dtype(float16) (largest finite value 65504.0)"
    )
    with pytest.raises(DTypePromotionError, match=r"python float 1e\+39 overflows dtype\(float32\)"):
        promote_scalar(DType.float32, 1e39)


def test_promote_scalar_bool_fits_everything():
    for d in ALL:
        assert promote_scalar(d, True) is d
        assert promote_scalar(d, np.bool_(False)) is d


def test_promote_scalar_bad_values():
    with pytest.raises(TypeError, match=r"expected a Python bool, int or float scalar, got complex"):
        promote_scalar(DType.float32, 1j)
    with pytest.raises(TypeError, match=r"expected a Python bool, int or float scalar, got str"):
        promote_scalar(DType.float32, "1")
    with pytest.raises(TypeError, match=r"promote_scalar\(\) expects a DType, got str"):
        promote_scalar("float32", 1)


def test_doctests():
    assert doctest.testmod(mo.dtype).failed == 0
