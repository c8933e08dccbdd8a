"""mo.graph.quantization: GGUF block encodings, numpy reference (de)quantizers.

Golden references:
* dequantization: the ``gguf`` package's ``gguf.quants.dequantize``, bit for bit
  (compared as uint32 patterns, so NaN payloads and signed zeros count);
* Q4_0 quantization: ``gguf.quants.quantize``, bit for bit;
* K-quant quantization: SHA-256 digests of the output of ggml's C reference
  quantizers (``quantize_row_q{4,5,6}_K_ref`` built with gcc -O2
  -ffp-contract=off) on ``golden_input()``, plus measured error bounds.
"""

from __future__ import annotations

import hashlib
import time

import gguf
import numpy as np
import pytest
from mo._quant import encoding as q_encoding
from mo._quant import gguf as q_gguf
from mo.graph import quantization as q
from mo.graph.quantization import BlockParameters, QuantizationEncoding

NAMES = ["Q4_0", "Q4_K", "Q5_K", "Q6_K"]
LAYOUTS = {"Q4_0": (32, 18), "Q4_K": (256, 144), "Q5_K": (256, 176), "Q6_K": (256, 210)}


def gguf_type(name: str) -> gguf.GGMLQuantizationType:
    return gguf.GGMLQuantizationType[name]


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return (
        a.shape == b.shape
        and a.dtype == b.dtype
        and np.array_equal(a.view(np.uint32), b.view(np.uint32))
    )


def golden_input() -> np.ndarray:
    """12 rows x 1024 float32 covering typical and edge blocks.

    Built from RandomState's uniform stream (frozen across numpy versions) with
    + - * / only, so it is bit-identical on every platform.
    """
    rs = np.random.RandomState(20240601)
    u = lambda: rs.random_sample(1024)
    gauss = lambda: u() + u() + u() + u() - 2.0
    rows = [
        gauss(),
        gauss() * 1e-3,
        gauss() * 300.0,
        u() * 4.0 - 1.0,
        u() + 0.5,  # all positive
        -u() - 0.5,  # all negative
        np.where(u() < 0.8, 0.0, gauss()),  # sparse
        gauss() / (u() + 0.01),  # heavy tails
        np.floor(u() * 16.0) - 8.0,  # small integers
        np.repeat([0.0, 1.0, -2.0, 3.5], 256),  # zero and constant blocks
        gauss() * 1e-39,  # float32 subnormals
        np.where(u() < 0.02, 50.0, gauss()),  # outliers
    ]
    return np.stack(rows).astype(np.float32)


GOLDEN_INPUT_SHA256 = "a386b24b9e34fc04fb7b2521f18d248cdb2417e37b6997ca4460214175601273"

# SHA-256 of quantize(name, golden_input()).tobytes() as produced by ggml's C
# reference quantizers (for Q4_0 also equal to gguf.quants.quantize).
GOLDEN_SHA256 = {
    "Q4_0": "3c8cad0351a025a14f1c75c300481e27945c0e159daa4268db2febd086f541d9",
    "Q4_K": "2a7de56e10771b249e80c38562aee271cb493a3a1e33d10dc44ca3bb99650079",
    "Q5_K": "95176c468babc4884e9e204d04be5415909aa94760caefdc79bf70eba6cc7a2c",
    "Q6_K": "093413b7c683e70bdfa02f8b1e076abf90e70702eb3267cfa23854908993cd77",
}


# ---------------------------------------------------------------------------
# Encodings and the registry
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_block_parameters_match_ggml(name):
    enc = getattr(QuantizationEncoding, name)
    epb, size = LAYOUTS[name]
    assert enc.name == name
    assert enc.elements_per_block == epb
    assert enc.block_size == size
    assert enc.block_parameters == BlockParameters(elements_per_block=epb, block_size=size)
    assert enc.is_gguf
    assert gguf.constants.GGML_QUANT_SIZES[gguf_type(name)] == (epb, size)
    assert enc.quantized_shape((3, 2 * epb)) == (3, 2 * size)
    assert enc.dequantized_shape((3, 2 * size)) == (3, 2 * epb)
    assert repr(enc) == f"QuantizationEncoding.{name}"


def test_get_encoding():
    assert q.get_encoding("Q4_K") is QuantizationEncoding.Q4_K
    assert q.get_encoding("q5_k") is QuantizationEncoding.Q5_K
    assert q.get_encoding(QuantizationEncoding.Q6_K) is QuantizationEncoding.Q6_K
    assert q.list_encodings()[:4] == tuple(NAMES)
    with pytest.raises(
        ValueError, match=r"unknown quantization encoding 'Q8_0'.*Q4_0, Q4_K, Q5_K, Q6_K"
    ):
        q.get_encoding("Q8_0")
    with pytest.raises(TypeError):
        q.get_encoding(4)


def test_block_parameters_validation():
    with pytest.raises(ValueError, match="elements_per_block"):
        BlockParameters(0, 4)
    with pytest.raises(ValueError, match="block_size"):
        BlockParameters(4, -1)


class Int8Rows(QuantizationEncoding):
    """A user encoding: 8 values per block, float32 absmax scale + 8 int8 codes."""

    name = "TEST_INT8"
    block_parameters = BlockParameters(8, 12)

    def quantize_blocks(self, blocks):
        scale = np.abs(blocks).max(axis=1, keepdims=True) / np.float32(127)
        inv = np.divide(1, scale, out=np.zeros_like(scale), where=scale != 0)
        codes = np.rint(blocks * inv).astype(np.int8).view(np.uint8)
        return np.concatenate([scale.view(np.uint8), codes], axis=1)

    def dequantize_blocks(self, blocks):
        return blocks[:, :4].copy().view(np.float32) * blocks[:, 4:].view(np.int8).astype(
            np.float32
        )


@pytest.fixture
def int8_encoding():
    enc = q.register_encoding(Int8Rows())
    yield enc
    q.unregister_encoding(enc.name)


def test_custom_encoding_works_like_builtins(int8_encoding):
    x = np.random.default_rng(0).standard_normal((5, 3, 16)).astype(np.float32)
    data = q.quantize("test_int8", x)
    assert data.shape == (5, 3, 24) and data.dtype == np.uint8
    y = q.dequantize(int8_encoding, data)
    assert y.shape == x.shape
    amax = np.abs(x.reshape(-1, 8)).max(axis=1, keepdims=True)
    assert np.all(np.abs(y - x).reshape(-1, 8) <= amax / 127 / 2 * 1.0001)
    assert q.get_encoding("TEST_INT8") is int8_encoding
    assert "TEST_INT8" in q.list_encodings()
    assert "TEST_INT8" in repr(int8_encoding) and "8 elements in 12 bytes" in repr(int8_encoding)
    with pytest.raises(ValueError, match="K=12 is not a multiple of 8"):
        q.quantize(int8_encoding, np.zeros((2, 12), np.float32))


def test_registry_errors(int8_encoding):
    with pytest.raises(ValueError, match="already registered"):
        q.register_encoding(Int8Rows())
    replacement = q.register_encoding(Int8Rows(), replace=True)
    assert q.get_encoding("TEST_INT8") is replacement

    class FakeQ4(Int8Rows):
        name = "q4_0"

    with pytest.raises(ValueError, match="built-in"):
        q.register_encoding(FakeQ4(), replace=True)
    with pytest.raises(ValueError, match="built-in"):
        q.unregister_encoding("Q4_0")
    with pytest.raises(ValueError, match="no quantization encoding named .NOPE. is registered"):
        q.unregister_encoding("NOPE")
    with pytest.raises(TypeError, match="QuantizationEncoding instance"):
        q.register_encoding(Int8Rows)  # the class, not an instance
    with pytest.raises(TypeError):
        QuantizationEncoding()  # abstract


def test_custom_encoding_with_wrong_output_is_reported():
    class Broken(Int8Rows):
        name = "TEST_BROKEN"

        def quantize_blocks(self, blocks):
            return np.zeros((blocks.shape[0], 3), np.uint8)

    with pytest.raises(
        ValueError, match=r"'TEST_BROKEN' returned uint8 \(1, 3\).*expected uint8 \(1, 12\)"
    ):
        q.quantize(Broken(), np.zeros(8, np.float32))


# ---------------------------------------------------------------------------
# Dequantization: bit-exact against gguf
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("shape", [(1,), (7, 3), (2, 3, 2)])
def test_dequantize_random_bytes_bit_exact_vs_gguf(name, shape):
    # Random bytes include float16 NaN/inf/subnormal scales: they must propagate
    # exactly as in gguf/ggml.
    enc = q.get_encoding(name)
    rng = np.random.default_rng(hash((name, shape)) % 2**32)
    data = rng.integers(0, 256, size=(*shape[:-1], shape[-1] * enc.block_size), dtype=np.uint8)
    # Make sure NaN, inf and subnormal float16 scales occur.
    d_offset = 208 if name == "Q6_K" else 0
    blocks = data.reshape(-1, enc.block_size)
    for i, bits in enumerate([0x7E00, 0xFC00, 0x0001][: blocks.shape[0]]):
        blocks[i, d_offset : d_offset + 2] = np.array([bits], np.uint16).view(np.uint8)
    ours = q.dequantize(enc, data)
    with np.errstate(all="ignore"):
        ref = gguf.quants.dequantize(data, gguf_type(name))
    assert ours.shape == (*shape[:-1], shape[-1] * enc.elements_per_block)
    assert same_bits(ours, ref)
    assert np.isnan(ours).any()


@pytest.mark.parametrize("name", NAMES)
def test_dequantize_quantized_data_bit_exact_vs_gguf(name):
    x = golden_input()
    data = q.quantize(name, x)
    assert same_bits(q.dequantize(name, data), gguf.quants.dequantize(data, gguf_type(name)))


def test_dequantize_known_block():
    block = np.zeros(18, np.uint8)
    block[:2] = np.array([0.25], np.float16).view(np.uint8)
    block[2:] = np.arange(16, dtype=np.uint8) | (np.uint8(15) - np.arange(16, dtype=np.uint8)) << 4
    expected = np.concatenate([np.arange(16) - 8, 7 - np.arange(16)]) * 0.25
    np.testing.assert_array_equal(q.dequantize("Q4_0", block), expected.astype(np.float32))


def test_dequantize_with_shape_and_bytes():
    x = np.random.default_rng(1).standard_normal((4, 512)).astype(np.float32)
    data = q.quantize("Q6_K", x)
    ref = q.dequantize("Q6_K", data)
    np.testing.assert_array_equal(q.dequantize("Q6_K", data.reshape(-1), shape=(4, 512)), ref)
    np.testing.assert_array_equal(q.dequantize("Q6_K", data.tobytes(), shape=[4, 512]), ref)
    np.testing.assert_array_equal(q.dequantize("Q6_K", data.tobytes()), ref.reshape(-1))


# ---------------------------------------------------------------------------
# Quantization: Q4_0 bit-exact against gguf, K-quants against ggml's C reference
# ---------------------------------------------------------------------------


def q4_0_families():
    rng = np.random.default_rng(7)
    yield "normal", rng.standard_normal((64, 256)).astype(np.float32)
    yield (
        "scaled",
        (rng.standard_normal((64, 256)) * 10.0 ** rng.uniform(-8, 5, (64, 1))).astype(np.float32),
    )
    yield "ints", rng.integers(-8, 8, (16, 256)).astype(np.float32)
    yield (
        "sparse",
        np.where(rng.random((32, 256)) < 0.9, 0, rng.standard_normal((32, 256))).astype(np.float32),
    )
    yield (
        "constant",
        np.repeat(np.array([0, 1, -1, 7.5, -1e-3, 0.1], np.float32), 64).reshape(6, 64),
    )
    yield "subnormal", (rng.standard_normal((8, 256)) * 1e-39).astype(np.float32)
    yield "large", (rng.standard_normal((8, 256)) * 1e5).astype(np.float32)
    yield "golden", golden_input()


@pytest.mark.parametrize("family", [name for name, _ in q4_0_families()])
def test_q4_0_quantize_bit_exact_vs_gguf(family):
    x = dict(q4_0_families())[family]
    with np.errstate(all="ignore"):  # gguf warns on the subnormal family
        ref = gguf.quants.quantize(x, gguf.GGMLQuantizationType.Q4_0)
    np.testing.assert_array_equal(q.quantize("Q4_0", x), ref)


def test_golden_input_is_deterministic():
    assert hashlib.sha256(golden_input().tobytes()).hexdigest() == GOLDEN_INPUT_SHA256


@pytest.mark.parametrize("name", NAMES)
def test_quantize_matches_ggml_reference_digest(name):
    data = q.quantize(name, golden_input())
    assert data.shape == (12, 1024 // LAYOUTS[name][0] * LAYOUTS[name][1])
    assert hashlib.sha256(data.tobytes()).hexdigest() == GOLDEN_SHA256[name]


@pytest.mark.parametrize("name", NAMES)
def test_quantize_is_independent_of_chunking_and_rounding_path(name, monkeypatch):
    x = golden_input()
    expected = q.quantize(name, x)
    monkeypatch.setattr(q_encoding, "_CHUNK_ELEMENTS", 256)  # one block per chunk
    np.testing.assert_array_equal(q.quantize(name, x), expected)
    monkeypatch.setattr(q_gguf, "_RINT_SAFE", 0.0)  # always take the bit-exact nearest_int path
    np.testing.assert_array_equal(q.quantize(name, x), expected)


def test_nearest_int_emulates_ggml():
    def reference(v: float) -> int:  # the C code, with struct instead of memcpy
        bits = int(np.array([np.float32(v) + np.float32(12582912.0)], np.float32).view(np.int32)[0])
        return (bits & 0x007FFFFF) - 0x00400000

    values = np.array(
        [0.5, 1.5, 2.5, -0.5, -1.5, 3.49, -7.51, 4194303.0, -4194303.0, 5e6, -6e6, 1e9], np.float32
    )
    got = q_gguf._nearest_int(values)
    assert got.tolist() == [reference(v) for v in values]
    assert got[:9].tolist() == np.rint(values[:9]).astype(int).tolist()


# ---------------------------------------------------------------------------
# Error bounds (same numbers as ggml: the quantizers are bit-identical)
# ---------------------------------------------------------------------------

# Measured on 256 x 4096 standard normal float32 (RandomState(0)):
#   relative RMS error ||deq - x|| / ||x||; per-block RMS error / block max|x|
#   (worst block); per-element |error| / block max|x| (worst element).
#   Q4_0: 0.0859  0.0515  0.1253
#   Q4_K: 0.0713  0.0304  0.0886
#   Q5_K: 0.0361  0.0159  0.0483
#   Q6_K: 0.0177  0.0078  0.0162
# Q4_0's worst case is analytic: d = max/-8 leaves +max/8 unreachable (code 15 = 7d),
# so |error| <= max|x| * (1/8 + 7/8 * 2**-11) with the float16 rounding of d.
ERROR_BOUNDS = {
    "Q4_0": (0.088, 0.055, 0.125 + 7 / 8 * 2**-11 + 1e-6),
    "Q4_K": (0.073, 0.033, 0.10),
    "Q5_K": (0.037, 0.0175, 0.055),
    "Q6_K": (0.0185, 0.0086, 0.02),
}


@pytest.fixture(scope="module")
def normal_matrix():
    return np.random.RandomState(0).standard_normal((256, 4096)).astype(np.float32)


@pytest.mark.parametrize("name", NAMES)
def test_error_bounds_on_normal_data(name, normal_matrix):
    enc = q.get_encoding(name)
    x = normal_matrix
    err = (q.dequantize(enc, q.quantize(enc, x)) - x).reshape(-1, enc.elements_per_block)
    amax = np.abs(x).reshape(-1, enc.elements_per_block).max(axis=1)
    rel_rms = np.sqrt(np.mean(err.astype(np.float64) ** 2) / np.mean(x.astype(np.float64) ** 2))
    block_rms = np.sqrt(np.mean(err.astype(np.float64) ** 2, axis=1)) / amax
    worst = np.abs(err).max(axis=1) / amax
    bound_rms, bound_block, bound_worst = ERROR_BOUNDS[name]
    assert rel_rms < bound_rms
    assert block_rms.max() < bound_block
    assert worst.max() < bound_worst


@pytest.mark.parametrize("name", NAMES)
def test_ggml_test_quantize_fns_threshold(name):
    # ggml/tests/test-quantize-fns.cpp: data 0.1 + 2 cos(i), n = 4096,
    # sqrt(sum of squared errors) / n must stay below 0.002 for these types.
    x = (0.1 + 2 * np.cos(np.arange(4096, dtype=np.float32))).astype(np.float32)
    y = q.dequantize(name, q.quantize(name, x))
    total_error = np.sqrt(np.sum((y.astype(np.float64) - x) ** 2)) / x.size
    assert total_error < 0.002


# ---------------------------------------------------------------------------
# Edge blocks
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_zero_blocks(name):
    x = np.zeros((3, 256), np.float32)
    data = q.quantize(name, x)
    assert np.all(q.dequantize(name, data) == 0)
    if name == "Q6_K":
        assert not data.any()  # ggml memsets all-zero Q6_K blocks


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("value", [1.0, -1.0, 3.5, -1e-3, 1234.5])
def test_constant_blocks(name, value):
    x = np.full((2, 256), value, np.float32)
    y = q.dequantize(name, q.quantize(name, x))
    # Only the float16 scales (and 6-bit sub-scales) round: a few parts per thousand.
    # Exception, as in ggml: Q6_K's d ~ max|x| / 4096 is a float16 subnormal for
    # max|x| < 0.25, so tiny blocks lose up to a few percent.
    rtol = 3e-2 if name == "Q6_K" and abs(value) < 0.25 else 2e-3
    np.testing.assert_allclose(y, x, rtol=rtol)


@pytest.mark.parametrize("name", NAMES)
def test_large_but_representable_magnitudes(name):
    x = np.random.default_rng(3).standard_normal((4, 256)).astype(np.float32)
    x *= np.float32(50000) / np.abs(x).max()
    y = q.dequantize(name, q.quantize(name, x))
    assert np.all(np.isfinite(y))
    assert np.abs(y - x).max() <= 0.13 * 50000


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("value", [1e9, 3e38])
def test_scale_overflow_is_an_error(name, value):
    x = np.zeros((2, 256), np.float32)
    x[1, 77] = value
    with pytest.raises(
        ValueError, match=rf"quantize\({name}\): block \d+ \(row 1, .*float16 scale overflows"
    ):
        q.quantize(name, x)


@pytest.mark.parametrize("name", NAMES)
def test_subnormal_blocks(name):
    # Scales this small round to 0 in float16: ggml writes zero blocks.
    x = (np.random.default_rng(5).standard_normal((2, 256)) * 1e-39).astype(np.float32)
    assert np.all(x[x != 0] != 0) and np.abs(x).max() < np.finfo(np.float32).tiny
    y = q.dequantize(name, q.quantize(name, x))
    assert np.all(y == 0)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_input_is_an_error(name, bad):
    x = np.ones((2, 256), np.float32)
    x[1, 200] = bad
    with pytest.raises(ValueError, match=r"NaN or infinity \(first at index \(1, 200\)\)"):
        q.quantize(name, x)


# ---------------------------------------------------------------------------
# Shapes and bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_shapes(name):
    epb, size = LAYOUTS[name]
    rng = np.random.default_rng(2)
    for shape in [(epb,), (3, 2 * epb), (2, 3, epb), (0, epb), (4, 0)]:
        x = rng.standard_normal(shape).astype(np.float32)
        data = q.quantize(name, x)
        assert data.shape == (*shape[:-1], shape[-1] // epb * size)
        assert q.dequantize(name, data).shape == shape
    # float64 / float16 / integer input is converted to float32 first
    x64 = rng.standard_normal((2, epb))
    np.testing.assert_array_equal(q.quantize(name, x64), q.quantize(name, x64.astype(np.float32)))
    np.testing.assert_array_equal(
        q.quantize(name, np.arange(epb, dtype=np.int32)),
        q.quantize(name, np.arange(epb, dtype=np.float32)),
    )


@pytest.mark.parametrize("name", NAMES)
def test_bad_input(name):
    epb, size = LAYOUTS[name]
    with pytest.raises(
        ValueError, match=rf"{name}: the last dimension K={epb + 16} is not a multiple of {epb}"
    ):
        q.quantize(name, np.zeros((2, epb + 16), np.float32))
    with pytest.raises(ValueError, match="0-d"):
        q.quantize(name, np.float32(1))
    for bad in (np.zeros(epb, bool), np.zeros(epb, np.complex64), np.array(["a"] * epb)):
        with pytest.raises(TypeError, match="expected real numbers"):
            q.quantize(name, bad)
    with pytest.raises(TypeError, match="data must be uint8, got int8"):
        q.dequantize(name, np.zeros(size, np.int8))
    with pytest.raises(TypeError, match="data must be uint8, got float32"):
        q.dequantize(name, np.zeros(size, np.float32))
    with pytest.raises(TypeError, match="uint8 numpy array"):
        q.dequantize(name, [0] * size)
    with pytest.raises(ValueError, match=rf"multiple of {size} bytes.*got {size + 1}"):
        q.dequantize(name, np.zeros((2, size + 1), np.uint8))
    with pytest.raises(
        ValueError, match=rf"shape \(2, {epb}\) takes {2 * size} bytes, got {2 * size - 1}"
    ):
        q.dequantize(name, np.zeros(2 * size - 1, np.uint8), shape=(2, epb))
    with pytest.raises(ValueError, match="at least one dimension"):
        q.dequantize(name, np.array(0, np.uint8))
    with pytest.raises(ValueError, match="unknown quantization encoding 'Q4_1'"):
        q.dequantize("Q4_1", np.zeros(size, np.uint8))
    with pytest.raises(ValueError, match="unknown quantization encoding"):
        q.quantize("nope", np.zeros(epb, np.float32))


# ---------------------------------------------------------------------------
# Speed: vectorized, no per-block Python loops
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_speed_is_vectorized(name):
    # 1024 x 4096 is a quarter of the 4096 x 4096 benchmark (about 0.1 s for Q4_0
    # and 0.3-0.6 s for the K-quants on an idle core); a per-block loop would take
    # minutes. The bound is loose for busy CI machines.
    x = np.random.default_rng(4).standard_normal((1024, 4096)).astype(np.float32)
    start = time.process_time()
    data = q.quantize(name, x)
    q.dequantize(name, data)
    assert time.process_time() - start < 15
