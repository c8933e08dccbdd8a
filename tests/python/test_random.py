"""Random tensors: deterministic for a seed, the same numbers compiled and
eager, independent across ops, and distributed as claimed (moments within
5 standard errors of the exact values, a Kolmogorov-Smirnov distance below
its 0.1% critical value)."""

import math

import numpy as np
import pytest

from mo import compilation
from mo import functional as F
from mo.driver import CPU
from mo.dtype import DType
from mo.graph import TensorType
from mo.sharding import TensorLayout

N = 200_000


def ks_distance(sample, cdf):
    x = np.sort(sample.astype(np.float64))
    n = len(x)
    c = cdf(x)
    return max(np.max(np.arange(1, n + 1) / n - c), np.max(c - np.arange(n) / n))


KS_CRITICAL = 1.95 / math.sqrt(N)  # alpha = 0.001


def test_uniform_is_uniform_in_range():
    F.set_seed(1)
    x = F.uniform((N,), range=(-2.0, 3.0)).to_numpy()
    assert x.dtype == np.float32 and x.min() >= -2.0 and x.max() < 3.0
    assert abs(x.mean() - 0.5) < 5 * 5 / math.sqrt(12 * N)
    assert ks_distance(x, lambda v: (v + 2) / 5) < KS_CRITICAL


def test_normal_is_normal():
    F.set_seed(2)
    x = F.normal((N,), mean=1.0, std=3.0).to_numpy()
    assert abs(x.mean() - 1.0) < 5 * 3 / math.sqrt(N)
    assert abs(x.std() - 3.0) < 5 * 3 / math.sqrt(2 * N)
    cdf = np.vectorize(lambda v: 0.5 * (1 + math.erf((v - 1.0) / (3.0 * math.sqrt(2)))))
    assert ks_distance(x[:20000], cdf) < 1.95 / math.sqrt(20000)


@pytest.mark.parametrize("dtype", [DType.float16, DType.bfloat16, DType.float64])
def test_other_float_types_stay_below_one(dtype):
    F.set_seed(5)
    x = F.uniform((N,), dtype=dtype).to_numpy().astype(np.float64)
    assert x.min() >= 0.0 and x.max() < 1.0 and abs(x.mean() - 0.5) < 0.01
    z = F.normal((N,), dtype=dtype).to_numpy().astype(np.float64)
    assert np.isfinite(z).all() and abs(z.std() - 1.0) < 0.02


def test_seeded_sequences_repeat_and_calls_differ():
    F.set_seed(7)
    a, b = F.uniform((64,)).to_numpy(), F.uniform((64,)).to_numpy()
    F.set_seed(7)
    np.testing.assert_array_equal(F.uniform((64,)).to_numpy(), a)
    np.testing.assert_array_equal(F.uniform((64,)).to_numpy(), b)
    assert not np.array_equal(a, b)
    F.set_seed(8)
    assert not np.array_equal(F.uniform((64,)).to_numpy(), a)
    # Elements are a function of their index: a prefix of a longer draw.
    F.set_seed(7)
    np.testing.assert_array_equal(F.uniform((4, 32)).to_numpy().reshape(-1)[:64], a)


def test_compiled_draws_equal_eager_draws():
    def f(x):
        F.set_seed(11)
        return F.uniform((3, 5)) + x, F.normal((10,), mean=2.0)

    run = compilation.compile(f)(TensorLayout(DType.float32, [], CPU()))
    u, n = run(np.zeros((), np.float32))
    F.set_seed(11)
    np.testing.assert_array_equal(u.to_numpy(), F.uniform((3, 5)).to_numpy())
    np.testing.assert_array_equal(n.to_numpy(), F.normal((10,), mean=2.0).to_numpy())
    # A compiled graph draws the same numbers on every call.
    np.testing.assert_array_equal(run(np.zeros((), np.float32))[0].to_numpy(), u.to_numpy())


def test_seed_as_a_graph_input_and_symbolic_shape():
    from mo.graph import ops

    def f(seed, x):
        ops.random.set_seed(seed._graph_value())
        return F.uniform(TensorType(DType.float32, x.shape, x.device)) * 0.0 + x

    run = compilation.compile(f)(TensorLayout(DType.int64, [], CPU()),
                                 TensorLayout(DType.float32, ["n"], CPU()))
    assert run(np.array(1), np.ones(3, np.float32)).to_numpy().shape == (3,)
    F.set_seed(1)
    ref = F.uniform((6,)).to_numpy()
    run2 = compilation.compile(lambda seed, x: _draw(seed, x))(
        TensorLayout(DType.int64, [], CPU()), TensorLayout(DType.float32, ["n"], CPU()))
    np.testing.assert_array_equal(run2(np.array(1), np.zeros(6, np.float32)).to_numpy(), ref)
    assert not np.array_equal(run2(np.array(2), np.zeros(6, np.float32)).to_numpy(), ref)


def _draw(seed, x):
    from mo.graph import ops

    ops.random.set_seed(seed._graph_value())
    return F.uniform(TensorType(DType.float32, x.shape, x.device)) + x


def test_random_errors():
    with pytest.raises(ValueError, match="random values are floating-point, got dtype int32"):
        F.uniform((3,), dtype=DType.int32)
    with pytest.raises(ValueError, match="the seed must be an int or a 0-d integer tensor"):
        compilation.compile(lambda x: (_bad_seed(x), x)[1])(TensorLayout(DType.float32, [2], CPU()))


def _bad_seed(x):
    from mo.graph import ops

    ops.random.set_seed(x._graph_value())
