"""cond and while_loop: traced into mo.if/mo.while regions (compiled) and
run as Python control flow (eager), against the same computation in numpy."""

import numpy as np
import pytest

from mo import compilation
from mo import functional as F
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout
from mo.tensor import Tensor


def tl(shape, dtype=DType.float32):
    return TensorLayout(dtype, shape, CPU())


def test_cond_runs_the_chosen_branch_only():
    def f(p, x):
        (y,) = F.cond(p, [tl(["n"])], lambda: x * 2.0, lambda: F.sqrt(x) - 1.0)
        return y

    run = compilation.compile(f)(tl([], DType.bool), tl(["n"]))
    x = np.array([4.0, 9.0, -1.0], np.float32)
    np.testing.assert_array_equal(run(np.array(True), x).to_numpy(), x * 2)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(run(np.array(False), x).to_numpy(), np.sqrt(x) - 1)
    # Eager: plain Python choice.
    assert F.cond(Tensor(np.array(True)), None, lambda: Tensor(x) + 1.0,
                  lambda: Tensor(x))[0].to_numpy().tolist() == (x + 1).tolist()


def test_cond_with_several_results_and_a_computed_predicate():
    def f(x):
        big = F.sum(x, axis=0) > 10.0
        a, b = F.cond(F.reshape(big, []), [tl([3]), tl([], DType.int32)],
                      lambda: (x / 2.0, F.constant(np.int32(1))),
                      lambda: (x, F.constant(np.int32(0))))
        return a, b

    run = compilation.compile(f)(tl([3]))
    a, b = run(np.array([5.0, 5.0, 5.0], np.float32))
    np.testing.assert_array_equal(a.to_numpy(), [2.5] * 3)
    assert int(b.to_numpy()) == 1
    a, b = run(np.array([1.0, 2.0, 3.0], np.float32))
    np.testing.assert_array_equal(a.to_numpy(), [1, 2, 3])
    assert int(b.to_numpy()) == 0


def test_while_loop_carries_tensors():
    def f(x, limit):
        i, v = F.while_loop([F.constant(np.int64(0)), x], lambda i, v: i < limit,
                            lambda i, v: (i + 1, v * 2.0 + 1.0))
        return i, v

    run = compilation.compile(f)(tl(["n"]), tl([], DType.int64))
    x = np.arange(4, dtype=np.float32)
    for limit in (0, 1, 7):
        i, v = run(x, np.array(limit))
        ref = x.copy()
        for _ in range(limit):
            ref = ref * 2 + 1
        assert int(i.to_numpy()) == limit
        np.testing.assert_array_equal(v.to_numpy(), ref)
    i, v = F.while_loop([Tensor(np.int64(0)), Tensor(x)], lambda i, v: i < 3,
                        lambda i, v: (i + 1, v * 2.0 + 1.0))
    np.testing.assert_array_equal(v.to_numpy(), ((x * 2 + 1) * 2 + 1) * 2 + 1)


def test_while_loop_with_a_cond_inside():
    """Collatz steps of 27: 111."""
    def f(n):
        def step(k, m):
            even = F.reshape(F.equal(F.mod(m, 2), 0), [])
            (nxt,) = F.cond(even, [tl([], DType.int64)], lambda: F.floor_div(m, 2),
                            lambda: m * 3 + 1)
            return k + 1, nxt

        return F.while_loop([F.constant(np.int64(0)), n], lambda k, m: m != 1, step)[0]

    run = compilation.compile(f)(tl([], DType.int64))
    assert int(run(np.array(27)).to_numpy()) == 111
    assert int(run(np.array(1)).to_numpy()) == 0


def test_control_flow_errors():
    with pytest.raises(ValueError, match=r"the predicate must be a 0-d bool tensor, got "
                                         r"float32\[\]"):
        compilation.compile(lambda x: F.cond(x, None, lambda: None, lambda: None))(tl([]))
    with pytest.raises(ValueError, match=r"else_fn returns \[.*int32.*\], but \[.*float32.*\] are "
                                         r"expected"):
        compilation.compile(lambda x: F.cond(x > 0.0, [tl([])], lambda: x,
                                             lambda: F.constant(np.int32(0)))[0])(tl([]))
    with pytest.raises(ValueError, match="the body returns"):
        compilation.compile(lambda x: F.while_loop([x], lambda v: v < 1.0,
                                                   lambda v: F.cast(v, DType.int32))[0])(tl([]))
    with pytest.raises(ValueError, match="the predicate must return one 0-d bool tensor"):
        compilation.compile(lambda x: F.while_loop([x], lambda v: (v < 1.0, v < 2.0),
                                                   lambda v: v)[0])(tl([]))
