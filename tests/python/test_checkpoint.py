"""mo.checkpoint: TensorDict, safetensors save/load, GGUF import, bad files."""

from __future__ import annotations

import json
import mmap
import os
import struct

import gguf
import numpy as np
import pytest
import safetensors
import safetensors.numpy
from mo import checkpoint
from mo.checkpoint import BFloat16Tensor, QuantizedTensor, TensorDict, load, load_gguf, save
from mo.graph import quantization as q

rng = np.random.default_rng(0)

PLAIN_DTYPES = [
    np.bool_,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.float16,
    np.float32,
    np.float64,
    np.complex64,
]


def sample(dtype, shape):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def mixed() -> TensorDict:
    td = TensorDict(metadata={"format": "mo", "step": "100"})
    for i, dt in enumerate(PLAIN_DTYPES):
        td[f"plain.{np.dtype(dt).name}"] = sample(dt, (3, i + 1))
    td["scalar"] = np.float32(2.5)
    td["empty"] = np.zeros((0, 4), np.float32)
    td["fortran"] = np.asfortranarray(sample(np.float64, (4, 5)))
    td["strided"] = sample(np.int32, (6, 8))[::2, ::3]
    td["big_endian"] = sample(np.float32, (7,)).astype(">f4")
    td["bf16"] = BFloat16Tensor.from_float32(rng.standard_normal((5, 3)).astype(np.float32))
    for name, k in [("Q4_0", 64), ("Q4_K", 512), ("Q5_K", 256), ("Q6_K", 768)]:
        td[f"w.{name}"] = QuantizedTensor.quantize(
            name, rng.standard_normal((3, k)).astype(np.float32)
        )
    td["w.Q4_K.3d"] = QuantizedTensor.quantize(
        "Q4_K", rng.standard_normal((2, 2, 256)).astype(np.float32)
    )
    return td


def assert_same(a, b):
    if isinstance(a, QuantizedTensor):
        assert isinstance(b, QuantizedTensor)
        assert a.encoding is b.encoding and a.shape == b.shape
        np.testing.assert_array_equal(a.data, b.data)
    elif isinstance(a, BFloat16Tensor):
        assert isinstance(b, BFloat16Tensor)
        np.testing.assert_array_equal(a.bits, b.bits)
    else:
        assert b.dtype == a.dtype.newbyteorder("=") and b.shape == a.shape
        np.testing.assert_array_equal(a, b)


def read_header(path):
    with open(path, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        return n, json.loads(f.read(n))


def write_raw(path, header: dict, data: bytes = b"", header_bytes: bytes | None = None):
    blob = header_bytes if header_bytes is not None else json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(blob)) + blob + data)


# ---------------------------------------------------------------------------
# TensorDict
# ---------------------------------------------------------------------------


def test_tensordict_mapping_api():
    td = TensorDict({"a": np.zeros(3, np.float32)}, b=[1, 2, 3])
    td["c"] = np.ones((2, 2), np.float16)
    assert list(td.keys()) == ["a", "b", "c"]
    assert len(td) == 3 and "b" in td and "z" not in td
    assert [k for k, _ in td.items()] == ["a", "b", "c"]
    assert td["b"].dtype == np.int64  # array-likes go through np.asarray
    del td["a"]
    assert list(td) == ["b", "c"]
    same = td
    assert td == same and td != TensorDict(td)  # identity: arrays have no truth value
    assert TensorDict([("x", np.zeros(1))]).keys() == {"x"}
    assert td.nbytes == 24 + 8


def test_tensordict_missing_key_names_tensor():
    td = TensorDict(alpha=np.zeros(1), beta=np.zeros(1))
    with pytest.raises(KeyError, match=r"no tensor named 'gamma' \(tensors: 'alpha', 'beta'\)"):
        td["gamma"]
    with pytest.raises(KeyError, match="gamma"):
        del td["gamma"]


def test_tensordict_rejects_bad_entries():
    td = TensorDict()
    with pytest.raises(TypeError, match=r"tensor 'o': unsupported dtype object"):
        td["o"] = np.array([object()])
    with pytest.raises(TypeError, match=r"tensor 's': unsupported dtype <U1"):
        td["s"] = np.array(["x"])
    with pytest.raises(TypeError, match="tensor names must be strings"):
        td[3] = np.zeros(1)
    with pytest.raises(ValueError, match="reserved"):
        td["__metadata__"] = np.zeros(1)


def test_tensordict_repr_lists_names_dtypes_shapes():
    td = TensorDict(
        {
            "embed.weight": np.zeros((8, 4), np.float32),
            "w": QuantizedTensor.quantize("Q6_K", np.zeros((2, 256), np.float32)),
            "h": BFloat16Tensor(np.zeros(3, np.uint16)),
        }
    )
    text = repr(td)
    assert text.splitlines() == [
        "TensorDict(3 tensors, 554 bytes)",
        "  embed.weight  float32   (8, 4)",
        "  w             Q6_K      (2, 256)",
        "  h             bfloat16  (3,)",
    ]
    big = TensorDict({f"t{i}": np.zeros(1) for i in range(60)})
    assert repr(big).splitlines()[-1] == "  ... (10 more)"


def test_quantized_tensor_record():
    x = rng.standard_normal((4, 256)).astype(np.float32)
    t = QuantizedTensor.quantize("Q5_K", x)
    assert t.encoding is q.QuantizationEncoding.Q5_K and t.shape == (4, 256)
    assert t.data.shape == (4, 176) and t.nbytes == 704
    np.testing.assert_array_equal(t.dequantize(), q.dequantize("Q5_K", t.data))
    assert repr(t) == "QuantizedTensor(Q5_K, shape=(4, 256), 704 bytes)"
    flat = QuantizedTensor("q5_k", t.data.reshape(-1), (4, 256))
    assert flat.data.shape == (4, 176)
    assert QuantizedTensor("Q5_K", t.data).shape == (4, 256)  # shape derived from the bytes
    with pytest.raises(TypeError, match="data must be a uint8 array, got int8"):
        QuantizedTensor("Q5_K", t.data.view(np.int8))
    with pytest.raises(ValueError, match=r"shape \(4, 512\) takes 1408 bytes, got 704"):
        QuantizedTensor("Q5_K", t.data, (4, 512))
    with pytest.raises(ValueError, match="unknown quantization encoding"):
        QuantizedTensor("Q3_K", t.data)


def test_bfloat16_conversion_matches_gguf():
    x = np.concatenate(
        [
            rng.standard_normal(1000) * 10.0 ** rng.uniform(-30, 30, 1000),
            [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40],
        ]
    ).astype(np.float32)
    ours = BFloat16Tensor.from_float32(x)
    ref = gguf.quants.quantize(x, gguf.GGMLQuantizationType.BF16).view(np.uint16)
    np.testing.assert_array_equal(ours.bits, ref)
    back = ours.to_float32()
    normal = np.isfinite(x) & (np.abs(x) >= np.finfo(np.float32).tiny)
    np.testing.assert_allclose(back[normal], x[normal], rtol=2**-8)
    assert np.isnan(back[~np.isfinite(x) & np.isnan(x)]).all()
    with pytest.raises(TypeError, match="uint16"):
        BFloat16Tensor(np.zeros(2, np.float16))


# ---------------------------------------------------------------------------
# safetensors round trip and interop
# ---------------------------------------------------------------------------


def test_round_trip_mixed(tmp_path):
    td = mixed()
    path = tmp_path / "mixed.safetensors"
    save(td, path)
    for use_mmap in (True, False):
        back = load(path, mmap=use_mmap)
        assert list(back.keys()) != [] and set(back.keys()) == set(td.keys())
        for name in td:
            assert_same(td[name], back[name])
        assert back.metadata == {"format": "mo", "step": "100"}
        assert back.source == os.fspath(path)
        for name, value in back.items():
            if isinstance(value, np.ndarray) and value.size:
                assert value.flags.writeable is (not use_mmap), name
                assert value.flags.aligned, name
    # quantized tensors round-trip through dequantize too
    np.testing.assert_array_equal(load(path)["w.Q6_K"].dequantize(), td["w.Q6_K"].dequantize())


def test_load_is_zero_copy_and_aligned(tmp_path):
    td = mixed()
    path = tmp_path / "m.safetensors"
    save(td, path)
    header_len, header = read_header(path)
    assert (8 + header_len) % 8 == 0
    for name, info in header.items():
        if name != "__metadata__":
            itemsize = checkpoint._TAG_TO_DTYPE[info["dtype"]].itemsize
            assert info["data_offsets"][0] % itemsize == 0, name
    back = load(path)
    arr = back["plain.float64"]
    assert not arr.flags.owndata
    base = arr
    while isinstance(base, np.ndarray):
        base = base.base
    if isinstance(base, memoryview):
        base = base.obj
    assert isinstance(base, mmap.mmap)


def test_written_file_is_read_by_safetensors(tmp_path):
    td = mixed()
    del td["bf16"]  # safetensors.numpy cannot represent bfloat16
    path = tmp_path / "mo.safetensors"
    save(td, path, metadata={"extra": "yes"})
    theirs = safetensors.numpy.load_file(path)
    assert set(theirs) == set(td)
    for name, value in td.items():
        if isinstance(value, QuantizedTensor):
            assert theirs[name].dtype == np.uint8
            np.testing.assert_array_equal(theirs[name], value.data)
        else:
            np.testing.assert_array_equal(theirs[name], value)
            assert theirs[name].dtype == value.dtype.newbyteorder("=")
    with safetensors.safe_open(path, framework="np") as f:
        meta = f.metadata()
    assert meta["extra"] == "yes" and meta["format"] == "mo"
    assert json.loads(meta["mo.quantization"])["w.Q4_K.3d"] == {
        "encoding": "Q4_K",
        "shape": [2, 2, 256],
    }


def test_bf16_is_stored_as_bf16(tmp_path):
    path = tmp_path / "bf16.safetensors"
    bits = BFloat16Tensor.from_float32(np.array([[1.0, -2.0, 0.5]], np.float32))
    save({"h": bits}, path)
    _, header = read_header(path)
    assert header["h"] == {"dtype": "BF16", "shape": [1, 3], "data_offsets": [0, 6]}
    with safetensors.safe_open(path, framework="np") as f:
        assert list(f.keys()) == ["h"]
    np.testing.assert_array_equal(load(path)["h"].to_float32(), [[1.0, -2.0, 0.5]])


def test_safetensors_file_is_read_by_mo(tmp_path):
    tensors = {f"t.{np.dtype(dt).name}": sample(dt, (2, 3)) for dt in PLAIN_DTYPES}
    tensors["scalar"] = np.array(3.0, np.float64)
    tensors["empty"] = np.zeros((2, 0), np.int32)
    path = tmp_path / "theirs.safetensors"
    safetensors.numpy.save_file(tensors, path, metadata={"who": "safetensors"})
    back = load(path)
    assert back.metadata == {"who": "safetensors"}
    for name, value in tensors.items():
        assert_same(value, back[name])


def test_save_accepts_plain_dict_and_overwrites(tmp_path):
    path = tmp_path / "w.safetensors"
    save({"a": np.ones(3)}, path)
    save({"b": np.zeros(2, np.int8)}, path)
    assert list(load(path).keys()) == ["b"]


def test_overwrite_while_mapped_keeps_old_views_valid(tmp_path):
    path = tmp_path / "w.safetensors"
    save({"a": np.arange(1000, dtype=np.float32)}, path)
    old = load(path)
    save({"a": np.zeros(10, np.float32)}, path)  # rename over the mapped file
    np.testing.assert_array_equal(old["a"], np.arange(1000, dtype=np.float32))
    assert load(path)["a"].shape == (10,)


class Fp16Copy(q.QuantizationEncoding):
    """A user encoding (float16 in blocks of 4) to check it round-trips by name."""

    name = "TEST_FP16_COPY"
    block_parameters = q.BlockParameters(4, 8)

    def quantize_blocks(self, blocks):
        return blocks.astype(np.float16).view(np.uint8)

    def dequantize_blocks(self, blocks):
        return blocks.view(np.float16).astype(np.float32)


def test_custom_encoding_round_trip(tmp_path):
    path = tmp_path / "custom.safetensors"
    enc = q.register_encoding(Fp16Copy())
    try:
        x = rng.standard_normal((3, 8)).astype(np.float32)
        save({"w": QuantizedTensor.quantize(enc, x)}, path)
        back = load(path)["w"]
        assert back.encoding is enc and back.shape == (3, 8)
        np.testing.assert_array_equal(back.dequantize(), x.astype(np.float16))
    finally:
        q.unregister_encoding(enc.name)
    with pytest.raises(ValueError, match="unknown quantization encoding 'TEST_FP16_COPY'"):
        load(path)


def test_user_metadata_validation(tmp_path):
    with pytest.raises(TypeError, match="str to str"):
        save({"a": np.zeros(1)}, tmp_path / "x.safetensors", metadata={"n": 3})
    with pytest.raises(ValueError, match="reserved"):
        save({"a": np.zeros(1)}, tmp_path / "x.safetensors", metadata={"mo.quantization": "{}"})
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------------------
# Atomic writes
# ---------------------------------------------------------------------------


class FailingFile:
    """Wraps the temporary file: the 4th write (after the length, the header and the
    first tensor) fails, like a full disk."""

    def __init__(self, inner):
        self.inner = inner
        self.writes = 0

    def write(self, data):
        self.writes += 1
        if self.writes == 4:
            raise OSError("simulated failure in write")
        return self.inner.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.inner.close()

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.mark.parametrize("fail_in", ["write", "fsync", "replace"])
def test_failed_save_leaves_nothing_behind(tmp_path, monkeypatch, fail_in):
    path = tmp_path / "ck.safetensors"
    save({"old": np.arange(4)}, path)
    original = path.read_bytes()
    td = TensorDict(a=np.ones(10**5), b=np.ones(10**5, np.float32), c=np.ones(10**5, np.int8))

    if fail_in == "write":
        real_fdopen = os.fdopen
        monkeypatch.setattr(os, "fdopen", lambda *a, **k: FailingFile(real_fdopen(*a, **k)))
    else:

        def boom(*args, **kwargs):
            raise OSError(f"simulated failure in {fail_in}")

        monkeypatch.setattr(os, fail_in, boom)
    with pytest.raises(OSError, match=f"simulated failure in {fail_in}"):
        save(td, path)
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == ["ck.safetensors"]
    assert path.read_bytes() == original


def test_interrupted_save_leaves_nothing_behind(tmp_path, monkeypatch):
    path = tmp_path / "ck.safetensors"
    real_fsync = os.fsync

    def interrupt(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        save({"a": np.ones(3)}, path)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert os.listdir(tmp_path) == []


def test_invalid_tensor_fails_before_any_file_is_created(tmp_path):
    with pytest.raises(TypeError):
        save({"ok": np.zeros(1), "bad": np.array([None])}, tmp_path / "x.safetensors")
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------------------
# Bad safetensors files
# ---------------------------------------------------------------------------


def test_bad_files(tmp_path):
    p = tmp_path / "bad.safetensors"
    good = {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}
    data = np.ones(2, np.float32).tobytes()
    cases = [
        (lambda: p.write_bytes(b""), "fewer than the 8-byte header length"),
        (lambda: p.write_bytes(b"\x01\x02\x03"), "fewer than the 8-byte header length"),
        (lambda: p.write_bytes(struct.pack("<Q", 1000) + b"{}"), "header length field says 1000"),
        (lambda: write_raw(p, {}, header_bytes=b"{not json"), "corrupted safetensors header"),
        (lambda: write_raw(p, {}, header_bytes=b"\xff\xfe"), "corrupted safetensors header"),
        (lambda: write_raw(p, {}, header_bytes=b"[1, 2]"), "expected a JSON object"),
        (lambda: write_raw(p, {}, header_bytes=b'{"a": 1, "a": 2}'), "duplicate key 'a'"),
        (lambda: write_raw(p, {"x": 5}), r"tensor 'x': header entry must be a JSON object"),
        (
            lambda: write_raw(p, {"x": {**good, "dtype": "F8_E4M3"}}, data),
            r"tensor 'x': unsupported dtype 'F8_E4M3'",
        ),
        (
            lambda: write_raw(p, {"x": {**good, "dtype": ["F32"]}}, data),
            r"tensor 'x': unsupported dtype \['F32'\]",
        ),
        (
            lambda: write_raw(p, {}, header_bytes=b"[" * 100000 + b"]" * 100000),
            "corrupted safetensors header",
        ),
        (
            lambda: write_raw(p, {"x": {**good, "shape": [-2]}}, data),
            "shape must be a list of non-negative",
        ),
        (
            lambda: write_raw(p, {"x": {**good, "shape": [True]}}, data),
            "shape must be a list of non-negative",
        ),
        (
            lambda: write_raw(p, {"x": {**good, "data_offsets": [0]}}, data),
            "data_offsets must be two",
        ),
        (
            lambda: write_raw(p, {"x": {**good, "shape": [3]}}, data),
            r"span 8 bytes, but a F32 tensor of shape \[3\] takes 12",
        ),
        (lambda: write_raw(p, {"x": good}, data[:6]), r"tensor 'x': truncated file: .* has only 6"),
        (
            lambda: write_raw(p, {"x": good}, data + b"junk"),
            "cover 8 bytes but the data section has 12",
        ),
        (
            lambda: write_raw(p, {"x": good, "y": {**good, "data_offsets": [4, 12]}}, data + data),
            "tensor 'y' at byte 4 overlaps",
        ),
        (
            lambda: write_raw(p, {"x": {**good, "data_offsets": [8, 16]}}, data + data),
            "tensor 'x' at byte 8 leaves a hole at byte 0",
        ),
        (
            lambda: write_raw(p, {"__metadata__": {"a": 1}, "x": good}, data),
            "__metadata__ must be a JSON object of strings",
        ),
        (
            lambda: write_raw(p, {"__metadata__": {"mo.quantization": "{bad"}, "x": good}, data),
            "corrupted 'mo.quantization' metadata",
        ),
        (
            lambda: write_raw(
                p,
                {
                    "__metadata__": {
                        "mo.quantization": '{"y": {"encoding": "Q4_0", "shape": [32]}}'
                    },
                    "x": good,
                },
                data,
            ),
            "quantized tensor 'y' is listed in the metadata but missing",
        ),
        (
            lambda: write_raw(
                p,
                {
                    "__metadata__": {
                        "mo.quantization": '{"x": {"encoding": "Q4_0", "shape": [32]}}'
                    },
                    "x": good,
                },
                data,
            ),
            "quantized tensor 'x' must be stored as U8",
        ),
        (
            lambda: write_raw(
                p,
                {
                    "__metadata__": {
                        "mo.quantization": '{"x": {"encoding": "Q9_9", "shape": [32]}}'
                    },
                    "x": {**good, "dtype": "U8", "shape": [8]},
                },
                data,
            ),
            "quantized tensor 'x': unknown quantization encoding 'Q9_9'",
        ),
        (
            lambda: write_raw(
                p,
                {
                    "__metadata__": {
                        "mo.quantization": '{"x": {"encoding": "Q4_0", "shape": [32]}}'
                    },
                    "x": {**good, "dtype": "U8", "shape": [8]},
                },
                data,
            ),
            r"quantized tensor 'x': .*shape \(32,\) takes 18 bytes, got 8",
        ),
    ]
    for make, message in cases:
        make()
        with pytest.raises(ValueError, match=message) as info:
            load(p)
        assert str(p) in str(info.value), message


def test_every_truncation_is_a_value_error(tmp_path):
    src = tmp_path / "good.safetensors"
    save(mixed(), src)
    blob = src.read_bytes()
    bad = tmp_path / "cut.safetensors"
    for cut in sorted(set(range(64)) | set(range(0, len(blob), 7))):
        bad.write_bytes(blob[:cut])
        with pytest.raises(ValueError, match="cut.safetensors"):
            load(bad)


def test_header_corruption_never_crashes(tmp_path):
    src = tmp_path / "good.safetensors"
    save(mixed(), src)
    blob = bytearray(src.read_bytes())
    header_len = int.from_bytes(blob[:8], "little")
    bad = tmp_path / "flip.safetensors"
    flip_rng = np.random.default_rng(11)
    for pos in flip_rng.integers(0, 8 + header_len, 300):
        corrupted = bytearray(blob)
        corrupted[pos] ^= 1 << int(flip_rng.integers(0, 8))
        bad.write_bytes(bytes(corrupted))
        try:
            load(bad)
        except ValueError as err:
            assert "flip.safetensors" in str(err)


def test_missing_file_is_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "nope.safetensors")
    with pytest.raises(FileNotFoundError):
        load_gguf(tmp_path / "nope.gguf")


def test_missing_key_after_load_names_file(tmp_path):
    path = tmp_path / "k.safetensors"
    save({"present": np.zeros(1)}, path)
    with pytest.raises(
        KeyError, match=r"no tensor named 'absent' in .*k.safetensors \(tensors: 'present'\)"
    ):
        load(path)["absent"]


# ---------------------------------------------------------------------------
# GGUF
# ---------------------------------------------------------------------------


def write_gguf(path, tensors: dict[str, tuple[np.ndarray, gguf.GGMLQuantizationType | None]]):
    writer = gguf.GGUFWriter(os.fspath(path), "llama")
    writer.add_uint32("llama.context_length", 4096)
    writer.add_string("general.name", "tiny")
    writer.add_array("tokenizer.ggml.tokens", ["a", "b"])
    for name, (array, raw) in tensors.items():
        writer.add_tensor(name, array, raw_dtype=raw)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


@pytest.fixture
def gguf_file(tmp_path):
    T = gguf.GGMLQuantizationType
    x = rng.standard_normal((3, 512)).astype(np.float32)
    tensors = {
        "f32": (x, None),
        "f16": (x.astype(np.float16), None),
        "i32": (np.arange(12, dtype=np.int32).reshape(3, 4), None),
        "bf16": (BFloat16Tensor.from_float32(x).bits.view(np.uint8), T.BF16),
        "q4_0": (gguf.quants.quantize(x, T.Q4_0), T.Q4_0),
    }
    for name in ("Q4_K", "Q5_K", "Q6_K"):  # gguf cannot quantize K-quants: use mo's
        tensors[name.lower()] = (q.quantize(name, x), T[name])
    path = tmp_path / "tiny.gguf"
    write_gguf(path, tensors)
    return path, x, tensors


def test_load_gguf(gguf_file):
    path, x, tensors = gguf_file
    td = load_gguf(path)
    assert list(td.keys()) == list(tensors)
    np.testing.assert_array_equal(td["f32"], x)
    np.testing.assert_array_equal(td["f16"], x.astype(np.float16))
    np.testing.assert_array_equal(td["i32"], np.arange(12).reshape(3, 4))
    np.testing.assert_array_equal(td["bf16"].bits, BFloat16Tensor.from_float32(x).bits)
    for name in ("Q4_0", "Q4_K", "Q5_K", "Q6_K"):
        t = td[name.lower()]
        assert isinstance(t, QuantizedTensor) and t.encoding.name == name and t.shape == (3, 512)
        np.testing.assert_array_equal(t.data, tensors[name.lower()][0])
        np.testing.assert_array_equal(
            t.dequantize(),
            gguf.quants.dequantize(tensors[name.lower()][0], gguf.GGMLQuantizationType[name]),
        )
    assert td.metadata["general.architecture"] == "llama"
    assert td.metadata["general.name"] == "tiny"
    assert td.metadata["llama.context_length"] == "4096"
    assert "tokenizer.ggml.tokens" not in td.metadata  # arrays are skipped
    assert td.source == os.fspath(path)


def test_gguf_to_safetensors_keeps_quantization(gguf_file, tmp_path):
    path, _, _ = gguf_file
    td = load_gguf(path)
    out = tmp_path / "converted.safetensors"
    save(td, out)
    back = load(out)
    for name in td:
        assert_same(td[name], back[name])


def test_gguf_unsupported_type(tmp_path):
    x = rng.standard_normal((2, 64)).astype(np.float32)
    q8 = gguf.quants.quantize(x, gguf.GGMLQuantizationType.Q8_0)
    path = tmp_path / "q8.gguf"
    write_gguf(path, {"w": (q8, gguf.GGMLQuantizationType.Q8_0)})
    with pytest.raises(
        ValueError, match=r"q8.gguf: tensor 'w' has GGML type Q8_0.*dequantize_unsupported=True"
    ):
        load_gguf(path)
    td = load_gguf(path, dequantize_unsupported=True)
    np.testing.assert_array_equal(
        td["w"], gguf.quants.dequantize(q8, gguf.GGMLQuantizationType.Q8_0)
    )


def test_bad_gguf_files(gguf_file, tmp_path):
    path, _, _ = gguf_file
    blob = path.read_bytes()
    bad = tmp_path / "bad.gguf"
    for content in [b"", b"GGUF", b"not a gguf file at all" * 10, b"GGUF" + b"\xff" * 100]:
        bad.write_bytes(content)
        with pytest.raises(ValueError, match="bad.gguf: corrupted, truncated or not a GGUF file"):
            load_gguf(bad)
    for cut in list(range(0, 200, 9)) + list(range(200, len(blob) - 1, max(1, len(blob) // 40))):
        bad.write_bytes(blob[:cut])
        with pytest.raises(ValueError, match="bad.gguf"):
            load_gguf(bad)
