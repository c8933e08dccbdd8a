"""Size-0 work is free: a kernel whose outputs are empty is skipped at run
time (mo-skip-empty-kernels), however large the other dims; kernels whose
outputs are not empty still compute them (a sum over an empty axis is
zeros, a product with k = 0 is zeros)."""

import subprocess
import sys
import textwrap

import numpy as np

from mo import compilation
from mo import functional as F
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout


def L(*shape):
    return TensorLayout(DType.float32, list(shape), CPU())


def test_an_empty_array_with_a_huge_dim_is_transposed_at_once():
    # In a subprocess with a deadline: before the fix, 2^40 iterations of an
    # empty inner loop (minutes).
    code = textwrap.dedent("""
        import time
        import numpy as np
        from mo import compilation, functional as F
        from mo.driver import CPU
        from mo.dtype import DType
        from mo.sharding import TensorLayout
        run = compilation.compile(lambda x: F.permute(x, [1, 0]) * 2.0)(
            TensorLayout(DType.float32, ["a", "b"], CPU()))
        for shape in [(0, 2**40), (2**40, 0)]:
            start = time.perf_counter()
            out = run(np.empty(shape, np.float32)).to_numpy()
            assert out.shape == shape[::-1], out.shape
            assert time.perf_counter() - start < 1.0, time.perf_counter() - start
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_non_empty_outputs_of_empty_inputs_are_computed():
    total = compilation.compile(lambda x: F.sum(x, axis=0))(L("a", 5))
    np.testing.assert_array_equal(total(np.empty((0, 5), np.float32)).to_numpy(),
                                  np.zeros((1, 5), np.float32))
    product = compilation.compile(lambda a, b: a @ b)(L(300, "k"), L("k", 200))
    out = product(np.empty((300, 0), np.float32), np.empty((0, 200), np.float32)).to_numpy()
    np.testing.assert_array_equal(out, np.zeros((300, 200), np.float32))
    # The same kernels with elements still compute.
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    np.testing.assert_array_equal(total(x).to_numpy(), x.sum(0, keepdims=True))
