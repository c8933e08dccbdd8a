"""mo.driver: devices and numpy/DLPack-backed buffers."""

import ctypes
import doctest

import numpy as np
import pytest

import mo.driver
from mo.driver import CPU, GPU, Accelerator, Buffer, Device, accelerator_count
from mo.dtype import DType

# -- devices -------------------------------------------------------------------


def test_cpu():
    d = CPU()
    assert d.label == "cpu" and d.id == 0 and d.is_host
    assert str(d) == "cpu:0"
    assert repr(d) == "CPU()"
    assert d == CPU() and hash(d) == hash(CPU())
    assert isinstance(d, Device)


def test_gpu():
    g = GPU(1)
    assert g.label == "gpu" and g.id == 1 and not g.is_host
    assert str(g) == "gpu:1" and repr(g) == "GPU(id=1)"
    assert repr(GPU()) == "GPU(id=0)"
    assert Accelerator is GPU
    assert Accelerator(1) == GPU(1)
    assert GPU(0) != GPU(1) and GPU(0) != CPU()
    assert len({CPU(), CPU(), GPU(0), GPU(0), GPU(1)}) == 3
    assert Device("gpu", 1) == GPU(1)


def test_device_dlpack_device():
    assert CPU().__dlpack_device__() == (1, 0)
    assert GPU(2).__dlpack_device__() == (2, 2)


def test_device_errors():
    with pytest.raises(ValueError, match=r"device id must be non-negative, got -1"):
        GPU(-1)
    with pytest.raises(TypeError, match=r"device id must be an int, got str"):
        GPU("0")
    with pytest.raises(TypeError, match=r"device id must be an int, got bool"):
        CPU(True)
    with pytest.raises(ValueError, match=r"unknown device kind 'tpu': expected 'cpu' or 'gpu'"):
        Device("tpu", 0)


def test_accelerator_count_never_raises():
    n = accelerator_count()
    assert isinstance(n, int) and n >= 0


def test_accelerator_count_without_driver(monkeypatch):
    def no_lib(name, *a, **k):
        raise OSError(f"{name}: cannot open shared object file")

    accelerator_count.cache_clear()
    monkeypatch.setattr(ctypes, "CDLL", no_lib)
    try:
        assert accelerator_count() == 0
    finally:
        accelerator_count.cache_clear()


def test_accelerator_count_with_failing_driver(monkeypatch):
    class FakeCuda:
        def cuInit(self, flags):
            return 100  # CUDA_ERROR_NO_DEVICE

    accelerator_count.cache_clear()
    monkeypatch.setattr(ctypes, "CDLL", lambda name, *a, **k: FakeCuda())
    try:
        assert accelerator_count() == 0
    finally:
        accelerator_count.cache_clear()


def test_accelerator_count_with_fake_gpus(monkeypatch):
    class FakeCuda:
        def cuInit(self, flags):
            return 0

        def cuDeviceGetCount(self, ptr):
            ctypes.cast(ptr, ctypes.POINTER(ctypes.c_int))[0] = 2
            return 0

    accelerator_count.cache_clear()
    monkeypatch.setattr(ctypes, "CDLL", lambda name, *a, **k: FakeCuda())
    try:
        assert accelerator_count() == 2
        with pytest.raises(RuntimeError, match=r"cannot allocate a Buffer on gpu:3: this machine "
                                               r"has 2 GPU\(s\), gpu:0 to gpu:1"):
            Buffer.zeros([2], DType.float32, GPU(3))
        with pytest.raises(RuntimeError, match=r"cannot allocate a Buffer on gpu:1: GPU buffers "
                                               r"are not implemented yet"):
            Buffer.zeros([2], DType.float32, GPU(1))
    finally:
        accelerator_count.cache_clear()


def test_accelerator_count_with_crashing_binding(monkeypatch):
    class Broken:
        def __getattr__(self, name):
            raise AttributeError(name)

    accelerator_count.cache_clear()
    monkeypatch.setattr(ctypes, "CDLL", lambda name, *a, **k: Broken())
    try:
        assert accelerator_count() == 0
    finally:
        accelerator_count.cache_clear()


# -- buffers -------------------------------------------------------------------


def test_from_numpy_zero_copy():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = Buffer.from_numpy(a)
    assert b.shape == (2, 3) and b.dtype is DType.float32 and b.device == CPU()
    assert b.rank == 2 and b.num_elements == 6 and b.nbytes == 24
    view = b.to_numpy()
    assert np.shares_memory(view, a)
    view[1, 2] = 42.0
    assert a[1, 2] == 42.0
    assert b.data_ptr == a.ctypes.data
    assert b.writable
    assert repr(b) == "Buffer(shape=(2, 3), dtype=DType.float32, device=CPU())"


def test_from_numpy_copies_non_contiguous():
    a = np.arange(12, dtype=np.int32).reshape(3, 4).T
    b = Buffer.from_numpy(a)
    assert b.shape == (4, 3)
    assert b.to_numpy().flags.c_contiguous
    assert not np.shares_memory(b.to_numpy(), a)
    np.testing.assert_array_equal(b.to_numpy(), a)


def test_from_numpy_copies_foreign_byte_order():
    a = np.arange(4, dtype=">f4")
    b = Buffer.from_numpy(a)
    assert b.dtype is DType.float32
    assert b.to_numpy().dtype.isnative
    np.testing.assert_array_equal(b.to_numpy(), [0, 1, 2, 3])


def test_from_numpy_read_only():
    a = np.ones(3, np.float64)
    a.setflags(write=False)
    b = Buffer.from_numpy(a)
    assert not b.writable
    assert np.shares_memory(b.to_numpy(), a)


@pytest.mark.parametrize("dtype", [d for d in DType if d is not DType.bfloat16])
def test_all_dtypes(dtype):
    b = Buffer.zeros([2, 3], dtype)
    assert b.dtype is dtype and b.nbytes == 6 * dtype.size_in_bytes
    assert not b.to_numpy().any()
    assert Buffer.from_numpy(b.to_numpy()).dtype is dtype


def test_bfloat16_buffer():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    a = np.array([1.5, -2.0], dtype=ml_dtypes.bfloat16)
    b = Buffer.from_numpy(a)
    assert b.dtype is DType.bfloat16 and b.nbytes == 4
    assert np.shares_memory(b.to_numpy(), a)
    # numpy's DLPack has no bfloat16.
    with pytest.raises(BufferError):
        b.__dlpack__()


def test_scalar_and_empty():
    s = Buffer.from_numpy(np.array(3.0, np.float32))
    assert s.shape == () and s.rank == 0 and s.num_elements == 1
    e = Buffer.zeros([0, 2], DType.int64)
    assert e.shape == (0, 2) and e.num_elements == 0 and e.nbytes == 0


def test_constructor_uninitialized():
    b = Buffer(DType.int16, [2, 2])
    assert b.shape == (2, 2) and b.dtype is DType.int16 and b.device == CPU()
    b2 = Buffer(DType.float64, [], CPU())
    assert b2.shape == ()


def test_zeros():
    b = Buffer.zeros((3,), DType.float32)
    assert b.to_numpy().tolist() == [0.0, 0.0, 0.0]
    assert Buffer.zeros(4, DType.uint8).shape == (4,)
    assert Buffer.zeros(np.array([2, 2]), DType.uint8).shape == (2, 2)


def test_array_protocol():
    a = np.arange(3, dtype=np.int64)
    b = Buffer.from_numpy(a)
    assert np.shares_memory(np.asarray(b), a)
    assert np.asarray(b, dtype=np.float64).tolist() == [0.0, 1.0, 2.0]
    c = np.array(b, copy=True)
    assert not np.shares_memory(c, a)


def test_dlpack_export_zero_copy():
    a = np.arange(5, dtype=np.int64)
    b = Buffer.from_numpy(a)
    assert b.__dlpack_device__() == (1, 0)
    back = np.from_dlpack(b)
    assert np.shares_memory(back, a)


def test_from_dlpack_zero_copy():
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    b = Buffer.from_dlpack(a)
    assert b.shape == (2, 3) and b.dtype is DType.float64
    assert np.shares_memory(b.to_numpy(), a)
    b2 = Buffer.from_dlpack(b)
    assert np.shares_memory(b2.to_numpy(), a)


def test_from_dlpack_bool():
    a = np.array([True, False])
    b = Buffer.from_dlpack(a)
    assert b.dtype is DType.bool
    assert b.to_numpy().tolist() == [True, False]


def test_from_dlpack_strided_copies():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]
    b = Buffer.from_dlpack(a)
    assert b.to_numpy().flags.c_contiguous
    np.testing.assert_array_equal(b.to_numpy(), a)


class _FakeGpuArray:
    def __dlpack__(self, **kw):
        raise AssertionError("must not be called")

    def __dlpack_device__(self):
        return (2, 1)


def test_from_dlpack_errors():
    with pytest.raises(TypeError, match=r"Buffer.from_dlpack expects an object with __dlpack__, "
                                        r"got list"):
        Buffer.from_dlpack([1, 2])
    with pytest.raises(RuntimeError, match=r"Buffer.from_dlpack: the data lives on CUDA device 1; "
                                           r"only CPU data is supported for now"):
        Buffer.from_dlpack(_FakeGpuArray())
    with pytest.raises(TypeError, match=r"Buffer.from_dlpack could not import a numpy.ndarray: "):
        Buffer.from_dlpack(np.zeros(2, np.complex64).astype("U3"))


def test_from_numpy_errors():
    with pytest.raises(TypeError, match=r"Buffer.from_numpy expects a numpy.ndarray, got list"):
        Buffer.from_numpy([1.0, 2.0])
    with pytest.raises(TypeError, match=r"unsupported numpy dtype complex128"):
        Buffer.from_numpy(np.zeros(2, np.complex128))


def test_shape_errors():
    with pytest.raises(ValueError, match=r"negative dims are not allowed: -3 at axis 1"):
        Buffer.zeros([2, -3], DType.float32)
    with pytest.raises(TypeError, match=r"a Buffer's shape holds ints \(static sizes\), got str "
                                        r"'batch' at axis 0"):
        Buffer.zeros(["batch"], DType.float32)
    with pytest.raises(TypeError, match=r"shape must be a sequence of ints, got str"):
        Buffer.zeros("22", DType.float32)
    with pytest.raises(TypeError, match=r"shape must be a sequence of ints, got float"):
        Buffer.zeros(2.0, DType.float32)
    with pytest.raises(TypeError, match=r"dtype must be a DType, got type"):
        Buffer.zeros([2], np.float32)
    with pytest.raises(TypeError, match=r"dtype must be a DType, got str"):
        Buffer("float32", [2])


def test_device_errors_for_buffers(monkeypatch):
    accelerator_count.cache_clear()
    monkeypatch.setattr(mo.driver, "accelerator_count", lambda: 0)
    msg = r"cannot allocate a Buffer on gpu:0: no GPU is available \(no CUDA driver or no CUDA device found\)"
    with pytest.raises(RuntimeError, match=msg):
        Buffer.zeros([2], DType.float32, GPU())
    with pytest.raises(RuntimeError, match=msg):
        Buffer(DType.float32, [2], GPU(0))
    with pytest.raises(RuntimeError, match=msg):
        Buffer.from_numpy(np.ones(2, np.float32), device=GPU())
    with pytest.raises(ValueError, match=r"there is one CPU device, cpu:0; got cpu:1"):
        Buffer.zeros([2], DType.float32, CPU(1))
    with pytest.raises(TypeError, match=r"device must be a Device \(CPU\(\) or GPU\(id\)\), got str"):
        Buffer.zeros([2], DType.float32, "cpu")


def test_doctests():
    assert doctest.testmod(mo.driver).failed == 0
