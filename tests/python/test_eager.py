"""Eager Tensors: construction, zero-copy numpy/DLPack, layout, operators, eager
results vs numpy, and the per-op compile cache (mo._eager)."""

import doctest
import math
import os

import mo._eager
import mo.functional
import mo.tensor
import numpy as np
import pytest
from mo import compilation
from mo import functional as F
from mo.driver import CPU, Buffer
from mo.dtype import DType
from mo.sharding import TensorLayout
from mo.tensor import Tensor

BASENAME = os.path.basename(__file__)


def arr(*values, dtype=np.float32):
    return np.array(values, dtype)


# -- construction ---------------------------------------------------------------------


@pytest.mark.parametrize("make, value", [
    (lambda s, **kw: Tensor.ones(s, **kw), 1),
    (lambda s, **kw: Tensor.zeros(s, **kw), 0),
    (lambda s, **kw: Tensor.full(s, 7, **kw), 7),
])
@pytest.mark.parametrize("dtype", [None, DType.float64, DType.int32, DType.uint8])
def test_fill_constructors(make, value, dtype):
    kw = {} if dtype is None else {"dtype": dtype}
    t = make([2, 3], device=CPU(), **kw)
    expected_dtype = dtype or DType.float32
    assert t.dtype is expected_dtype
    assert t.shape == [2, 3] and t.rank == 2 and len(t) == 2
    assert t.device == CPU()
    a = t.to_numpy()
    assert a.dtype == expected_dtype.to_numpy() and a.shape == (2, 3)
    assert (a == value).all()


def test_full_float_value_and_empty_shapes():
    np.testing.assert_array_equal(Tensor.full([2, 2], 7.5).to_numpy(), np.full((2, 2), 7.5,
                                                                               np.float32))
    assert Tensor.zeros([0, 3]).to_numpy().shape == (0, 3)
    assert Tensor.ones([]).to_numpy().shape == ()


@pytest.mark.parametrize("args, kwargs", [
    ((5,), {}),
    ((1, 7, 2), {"dtype": DType.int64}),
    ((0.0, 1.0, 0.25), {}),
    ((3, -3, -1), {"dtype": DType.int32}),
    ((4, 4), {}),
])
def test_arange(args, kwargs):
    t = Tensor.arange(*args, **kwargs)
    dtype = kwargs.get("dtype", DType.float32)
    assert t.dtype is dtype
    np.testing.assert_array_equal(t.to_numpy(), np.arange(*args, dtype=dtype.to_numpy()))


def test_tensor_from_python_data():
    t = Tensor([1.0, 2.0])
    assert t.dtype is DType.float32  # Python floats default to float32, as MAX
    assert Tensor([[1, 2], [3, 4]]).shape == [2, 2]
    assert Tensor(3.0).shape == [] and Tensor(3.0).dtype is DType.float32
    assert Tensor([1, 2], dtype=DType.float64).dtype is DType.float64
    with pytest.raises(TypeError):
        Tensor()


def test_from_numpy_zero_copy_both_ways():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = Tensor.from_numpy(a)
    v = t.to_numpy()
    assert np.shares_memory(a, v)
    a[0, 0] = 42
    assert t.to_numpy()[0, 0] == 42
    v[1, 2] = -1
    assert a[1, 2] == -1
    assert np.shares_memory(t.to_numpy(), t.to_numpy())  # to_numpy is a view each time
    # Tensor(array) is zero-copy too.
    assert np.shares_memory(Tensor(a).to_numpy(), a)


def test_from_numpy_non_contiguous_and_big_endian_copy_with_right_values():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = Tensor.from_numpy(a[:, ::2])
    np.testing.assert_array_equal(t.to_numpy(), a[:, ::2])
    assert t.to_numpy().flags.c_contiguous
    be = np.arange(3, dtype=">f4")
    np.testing.assert_array_equal(Tensor.from_numpy(be).to_numpy(), [0, 1, 2])
    np.testing.assert_array_equal((Tensor(be) * 2).to_numpy(), arr(0, 2, 4))


def test_dlpack_zero_copy():
    a = np.arange(4, dtype=np.float32)
    t = Tensor.from_dlpack(a)
    assert np.shares_memory(t.to_numpy(), a)
    back = np.from_dlpack(t)
    assert np.shares_memory(back, a)
    assert t.__dlpack_device__()[0] == 1  # kDLCPU
    b = Buffer.from_numpy(a)
    assert np.shares_memory(Tensor.from_dlpack(b).to_numpy(), a)
    assert np.shares_memory(Tensor.from_dlpack(t).to_numpy(), a)
    # A Buffer given to Tensor() is used as is.
    assert np.shares_memory(Tensor(b).to_numpy(), a)


def test_layout_property_and_use_as_spec():
    t = Tensor.ones([4, 2], dtype=DType.float64)
    assert t.layout == TensorLayout(DType.float64, [4, 2], CPU())
    run = compilation.compile(lambda x: x * 2)(t.layout)
    np.testing.assert_array_equal(run(t).to_numpy(), np.full((4, 2), 2.0))
    with pytest.raises(ValueError, match="argument 0"):
        run(Tensor.ones([5, 2], dtype=DType.float64))  # the layout froze every dim


def test_numpy_interop():
    t = Tensor(arr(1, 2, 3))
    np.testing.assert_array_equal(np.asarray(t), arr(1, 2, 3))
    assert np.asarray(t, dtype=np.float64).dtype == np.float64
    assert "Tensor(" in repr(t) and "float32" in repr(t)
    assert bool(Tensor(arr(1.0))) is True and bool(Tensor(arr(0.0))) is False


# -- operators and ops, eager vs numpy ------------------------------------------------------


def test_arithmetic_operators_vs_numpy():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4)).astype(np.float32)
    b = (rng.standard_normal((4,)) + 3).astype(np.float32)
    x, y = Tensor(a), Tensor(b)
    cases = [
        (x + y, a + b), (x - y, a - b), (x * y, a * b), (x / y, a / b),
        (x + 1, a + 1), (1 + x, 1 + a), (x - 2, a - 2), (2 - x, 2 - a),
        (x * 3, a * 3), (3 * x, 3 * a), (x / 4, a / 4), (4 / y, 4 / b),
        (-x, -a), (abs(x), np.abs(a)),
    ]
    for got, ref in cases:
        assert isinstance(got, Tensor)
        assert got.dtype is DType.float32
        np.testing.assert_array_equal(got.to_numpy(), ref.astype(np.float32))


def test_matmul_operator_vs_numpy():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((5, 7)).astype(np.float32)
    b = rng.standard_normal((7, 3)).astype(np.float32)
    got = (Tensor(a) @ Tensor(b)).to_numpy()
    # f32 accumulation of 7 terms vs a float64 reference.
    np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-6)
    got = (Tensor(np.ones((2, 3, 4))) @ Tensor(np.ones((4, 2)))).to_numpy()
    assert got.shape == (2, 3, 2) and got.dtype == np.float64 and (got == 4).all()


def test_eager_result_does_not_alias_input():
    x = Tensor(arr(1, 2, 3))
    y = x * 1
    assert not np.shares_memory(x.to_numpy(), y.to_numpy())
    y.to_numpy()[0] = 100
    assert x.to_numpy()[0] == 1


_erf = np.vectorize(math.erf, otypes=[np.float64])
UNARY = {
    "exp": np.exp, "tanh": np.tanh, "sigmoid": lambda a: 1 / (1 + np.exp(-a)),
    "silu": lambda a: a / (1 + np.exp(-a)), "sqrt": np.sqrt, "log": np.log, "erf": _erf,
    "abs": np.abs, "negative": np.negative, "relu": lambda a: np.maximum(a, 0),
    "floor": np.floor, "ceil": np.ceil, "round": np.round, "trunc": np.trunc,
    "sin": np.sin, "cos": np.cos, "log1p": np.log1p, "rsqrt": lambda a: 1 / np.sqrt(a),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_eager_unary_vs_numpy(name, dtype):
    rng = np.random.default_rng(sorted(UNARY).index(name))
    a = rng.standard_normal(10) * 3
    a[:4] = [0.5, 1.5, -2.5, 2.5]
    if name in ("sqrt", "log", "log1p", "rsqrt"):
        a = np.abs(a) + 1e-3
    a = a.astype(dtype)
    got = getattr(F, name)(Tensor(a)).to_numpy()
    assert got.dtype == dtype
    rtol, atol = (1e-6, 1e-7) if dtype == np.float32 else (1e-14, 1e-15)
    np.testing.assert_allclose(got, UNARY[name](a.astype(np.float64)), rtol=rtol, atol=atol)


def test_eager_binary_broadcasting_and_dtypes():
    a = np.array([[7, -7, 9], [0, 5, -9]], np.int32)
    b = np.array([[2], [-3]], np.int32)
    for name, ref in [("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
                      ("max", np.maximum), ("min", np.minimum)]:
        got = getattr(F, name)(Tensor(a), Tensor(b)).to_numpy()
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, ref(a, b))
    u = F.max(Tensor(np.array([0, 200, 255], np.uint8)), Tensor(np.array([1, 100, 0], np.uint8)))
    assert u.dtype is DType.uint8 and u.to_numpy().tolist() == [1, 200, 255]


def test_eager_safe_promotion():
    got = Tensor(arr(1, 2)) + Tensor(np.array([0.5, 0.25]))
    assert got.dtype is DType.float64
    np.testing.assert_array_equal(got.to_numpy(), [1.5, 2.25])


def test_eager_reshape_and_cast():
    x = Tensor(np.arange(6, dtype=np.float32))
    assert x.reshape([2, 3]).shape == [2, 3]
    np.testing.assert_array_equal(x.reshape([3, -1]).to_numpy(), np.arange(6).reshape(3, 2))
    c = Tensor(arr(-1.7, -0.2, 2.9)).cast(DType.int32)
    assert c.dtype is DType.int32 and c.to_numpy().tolist() == [-1, 0, 2]


def test_eager_errors_name_op_and_line():
    x = Tensor(arr(1, 2, 3))
    line = __import__("inspect").currentframe().f_lineno + 2
    with pytest.raises(ValueError) as e:
        x + Tensor.ones([4])
    msg = str(e.value)
    assert msg.startswith("add") and f"{BASENAME}:{line}" in msg
    assert "[3]" in msg and "[4]" in msg
    with pytest.raises(ValueError, match="promotion"):
        x + Tensor(np.array([1, 2, 3], np.int32))
    with pytest.raises(ValueError, match="exp"):
        F.exp(Tensor(np.array([1], np.int32)))


def test_floordiv_operator():
    a = np.array([7, -7, 9], np.int32)
    got = Tensor(a) // Tensor(np.array([2, 2, -4], np.int32))
    np.testing.assert_array_equal(got.to_numpy(), np.floor_divide(a, [2, 2, -4]))


def test_pow_operator():
    np.testing.assert_array_equal((Tensor(arr(1, 2, 3)) ** 2).to_numpy(), arr(1, 4, 9))


def test_comparison_operators():
    got = Tensor(arr(1, 2, 3)) < 2
    np.testing.assert_array_equal(got.to_numpy(), [True, False, False])


def test_equality_operator_is_elementwise():
    got = Tensor(arr(1, 2, 3)) == 2
    assert isinstance(got, Tensor)
    np.testing.assert_array_equal(got.to_numpy(), [False, True, False])


def test_getitem_slicing():
    x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    np.testing.assert_array_equal(x[1:3, ::2].to_numpy(), np.arange(12).reshape(3, 4)[1:3, ::2])


def test_getitem_whole():
    x = Tensor(arr(1, 2))
    assert x[...] is x and x[:] is x


# -- eager writes ------------------------------------------------------------------------


def test_eager_setitem_and_buffer_store_in_place():
    a = np.zeros(4, np.float32)
    t = Tensor.from_numpy(a)
    t[1:3] = 9.0
    assert a.tolist() == [0.0, 9.0, 9.0, 0.0]
    F.buffer_store(t, Tensor(arr(1, 2, 3, 4)))
    assert a.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_eager_store_into_read_only_memory_is_type_error():
    a = np.zeros(3, np.float32)
    a.flags.writeable = False
    t = Tensor.from_numpy(a)
    with pytest.raises(TypeError, match="read-only"):
        t[0] = 1.0
    with pytest.raises(TypeError, match="read-only"):
        F.buffer_store(t, 2.0)
    assert (a == 0).all()


def test_symbolic_tensor_has_no_data():
    def f(x):
        x.to_numpy()
        return x

    with pytest.raises(TypeError, match="no data"):
        compilation.stage(f)(TensorLayout(DType.float32, [2], CPU()))

    def g(x):
        if x:
            return x
        return x

    with pytest.raises(TypeError, match="truth value"):
        compilation.stage(g)(TensorLayout(DType.float32, [2], CPU()))


# -- the eager cache ---------------------------------------------------------------------


@pytest.fixture
def count_compiles(monkeypatch):
    calls = []
    real = mo._eager._compile

    def counting(name, args, kwargs):
        calls.append(name)
        return real(name, args, kwargs)

    monkeypatch.setattr(mo._eager, "_compile", counting)
    return calls


def test_eager_cache_second_call_does_not_recompile(count_compiles):
    # A shape no other test uses, so the first call is a miss.
    a = np.random.default_rng(5).standard_normal((17, 3)).astype(np.float32)
    before = len(mo._eager._cache)
    r1 = F.tanh(Tensor(a))
    after_first = len(mo._eager._cache)
    assert count_compiles == ["tanh"] and after_first == before + 1
    b = a[::-1].copy()
    r2 = F.tanh(Tensor(b))  # same op, same types, other data
    assert count_compiles == ["tanh"] and len(mo._eager._cache) == after_first
    np.testing.assert_allclose(r1.to_numpy(), np.tanh(a), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(r2.to_numpy(), np.tanh(b), rtol=1e-6, atol=1e-7)
    # A new shape or dtype is a new entry.
    F.tanh(Tensor(a[:5]))
    F.tanh(Tensor(a.astype(np.float64)))
    assert count_compiles == ["tanh"] * 3 and len(mo._eager._cache) == after_first + 2


def test_eager_cache_operators_loop(count_compiles):
    x = Tensor(np.arange(19, dtype=np.float32))
    for i in range(5):
        x = x * 2 + 1
    assert count_compiles.count("mul") <= 1 and count_compiles.count("add") <= 1
    ref = np.arange(19, dtype=np.float32)
    for i in range(5):
        ref = ref * 2 + 1
    np.testing.assert_array_equal(x.to_numpy(), ref)


def test_eager_cache_distinguishes_scalars(count_compiles):
    x = Tensor(np.arange(23, dtype=np.float32))
    np.testing.assert_array_equal((x * 2).to_numpy(), np.arange(23) * 2)
    np.testing.assert_array_equal((x * 3).to_numpy(), np.arange(23) * 3)
    np.testing.assert_array_equal((x * 2.5).to_numpy(), np.arange(23, dtype=np.float32) * 2.5)


def test_eager_cache_negative_zero_scalar():
    x = Tensor(arr(1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7))  # a fresh shape: [13]
    pos = (x * 0.0).to_numpy()
    neg = (x * -0.0).to_numpy()
    ref = arr(1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7) * np.float32(-0.0)
    assert np.signbit(pos).tolist() == np.signbit(ref * -1).tolist()
    assert np.signbit(neg).tolist() == np.signbit(ref).tolist()


def test_eager_numbers_match_compiled():
    a = np.random.default_rng(9).standard_normal((4, 6)).astype(np.float32)
    eager = F.silu(Tensor(a) * 2 - 1).to_numpy()
    run = compilation.compile(lambda x: F.silu(x * 2 - 1))(TensorLayout(DType.float32, [4, 6],
                                                                       CPU()))
    np.testing.assert_array_equal(eager, run(a).to_numpy())


def test_doctests():
    assert doctest.testmod(mo.tensor).failed == 0
    assert doctest.testmod(mo.functional).failed == 0


def test_eager_scalar_operands_share_one_compiled_op():
    from mo import _eager

    x = Tensor(np.ones(3, np.float32))
    before = len(_eager._cache)
    for i in range(1, 6):
        x = x * float(i)
    assert x.to_numpy().tolist() == [120.0] * 3
    assert len(_eager._cache) - before <= 1  # one op, whatever the scalar
    assert (Tensor(np.ones(2, np.float32)) * -0.0).to_numpy().tolist() == [-0.0, -0.0]
    assert np.signbit((Tensor(np.ones(2, np.float32)) * -0.0).to_numpy()).all()
    with pytest.raises(ValueError, match="Unsafe cast"):
        Tensor(np.ones(2, np.int32)) * 1.5


def test_the_eager_cache_is_bounded_by_bytes(monkeypatch):
    """MO_EAGER_CACHE_MB bounds the estimated bytes of the compiled ops kept;
    the least recently used go first."""
    import mo._eager as eager

    monkeypatch.setenv("MO_EAGER_CACHE_MB", "0.5")  # about three tiny ops
    for n in range(1, 9):
        (Tensor(np.ones(n, np.float32)) * 2.0).to_numpy()
    assert eager._cache_bytes <= eager._cache_limit()
    assert 1 <= len(eager._cache) <= 4
    assert eager._cache_bytes == sum(entry[3] for entry in eager._cache.values())
    newest = next(reversed(eager._cache))
    assert newest[2][0][2] == (8,)  # the last op's input shape is kept
    monkeypatch.setenv("MO_EAGER_CACHE_MB", "lots")
    with pytest.raises(ValueError, match="MO_EAGER_CACHE_MB: expected a number of megabytes"):
        (Tensor(np.ones(11, np.float32)) * 2.0).to_numpy()
