"""print: the running graph writes labelled, numpy-style values to stdout
(checked at the file-descriptor level), in program order."""

import numpy as np

from mo import compilation
from mo import functional as F
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout
from mo.tensor import Tensor


def test_print_formats_every_dtype_in_order(capfd):
    def f(x, i, u, b, h):
        F.print("start")
        F.print(x, label="x")
        F.print(i, label="i")
        F.print(u, label="u")
        F.print(b, label="b")
        F.print(h, label="h")
        F.print(F.cast(x, DType.bfloat16) * 2.0, label="bf")
        return x + 1.0

    run = compilation.compile(f)(
        TensorLayout(DType.float32, ["n", 3], CPU()), TensorLayout(DType.int8, [3], CPU()),
        TensorLayout(DType.uint64, [], CPU()), TensorLayout(DType.bool, [2], CPU()),
        TensorLayout(DType.float16, [2], CPU()))
    capfd.readouterr()
    out = run(np.array([[0.5, 1, 2], [3, 4, -1e-9]], np.float32), np.array([-1, 2, 127], np.int8),
              np.array(2**64 - 1, np.uint64), np.array([True, False]),
              np.array([1.5, np.inf], np.float16))
    np.testing.assert_array_equal(out.to_numpy()[0], [1.5, 2, 3])
    assert capfd.readouterr().out.splitlines() == [
        "start",
        "x: [[0.5 1. 2.]",
        "    [3. 4. -1e-09]]",
        "i: [-1 2 127]",
        "u: 18446744073709551615",
        "b: [True False]",
        "h: [1.5 inf]",
        "bf: [[1. 2. 4.]",
        "     [6. 8. -1.9936124e-09]]",  # the bf16 nearest -2e-9, shortest as f32
    ]


def test_print_in_a_loop_runs_every_iteration(capfd):
    def f(limit):
        def body(i):
            F.print(i, label="step")
            return i + 1

        return F.while_loop([F.constant(np.int64(0))], lambda i: i < limit, body)[0]

    run = compilation.compile(f)(TensorLayout(DType.int64, [], CPU()))
    capfd.readouterr()
    assert int(run(np.array(3)).to_numpy()) == 3
    assert capfd.readouterr().out.splitlines() == ["step: 0", "step: 1", "step: 2"]



def test_print_outside_a_trace_and_as_a_method(capfd):
    x = Tensor(np.array([1.5, 2.0], np.float32))
    capfd.readouterr()
    F.print(x, label="now")
    x.print("method")
    F.print("just text")
    assert capfd.readouterr().out.splitlines() == ["now: [1.5 2. ]", "method: [1.5 2. ]",
                                                   "just text"]
