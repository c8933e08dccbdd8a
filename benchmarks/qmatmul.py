"""qmatmul vs dequantize-then-matmul vs float32 matmul (M=1 and M=64, K=N=4096).

For each GGUF encoding, times three compiled mo graphs on the same inputs:
``qmatmul`` (dequantization fused into the matmul loop), ``dequantize`` then
``matmul`` in one graph (materializes the float32 weights), and a float32
``matmul`` of the already dequantized weights; numpy's float32 ``x @ w.T`` is
the reference measured in the same run. Also prints the weight bytes each
variant reads. Not a test: figures depend on the machine.

Run: python benchmarks/qmatmul.py [--k 4096 --n 4096]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from mo.compiler import Executable
from mo.dtype import DType
from mo.graph import ops
from mo.graph.graph import Graph
from mo.graph.quantization import QuantizationEncoding as Q
from mo.graph.quantization import dequantize, quantize
from mo.graph.type import DeviceRef, TensorType


def best_of(fn, repeat=7, budget=0.02):
    """The best of `repeat` means over as many calls as fit in `budget` s
    (one call at least): a kernel under a millisecond is timed over many
    calls, so the weights it reads stay in the last-level cache if they fit
    (9-14 MB here: a decode step of one small layer, not of a model)."""
    start = time.perf_counter()
    fn()
    calls = max(1, int(budget / max(time.perf_counter() - start, 1e-6)))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - start) / calls)
    return min(times)


def graph(name, input_types, body):
    with Graph(name, input_types) as g:
        g.output(body(*g.inputs))
    return Executable(g.module)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--k", type=int, default=4096)
    parser.add_argument("--n", type=int, default=4096)
    args = parser.parse_args()
    k, n = args.k, args.n
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((n, k)).astype(np.float32)
    cpu = DeviceRef.CPU()
    print(f"K={k} N={n}; times are the best of 7 means, ms")
    for enc in (Q.Q4_0, Q.Q4_K, Q.Q5_K, Q.Q6_K):
        q = quantize(enc, weight)
        wd = dequantize(enc, q)
        for m in (1, 64):
            x = rng.standard_normal((m, k)).astype(np.float32)
            xt = TensorType(DType.float32, [m, k], cpu)
            qt = TensorType(DType.uint8, list(q.shape), cpu)
            wt = TensorType(DType.float32, [k, n], cpu)
            fused = graph("fused", [xt, qt], lambda a, b: ops.qmatmul(enc, a, b))
            unfused = graph("unfused", [xt, qt],
                            lambda a, b: ops.matmul(a, ops.transpose(ops.dequantize(enc, b), 0, 1)))
            plain = graph("plain", [xt, wt], lambda a, b: ops.matmul(a, b))
            out = np.empty((m, n), np.float32)
            wT = np.ascontiguousarray(wd.T)
            t_fused = best_of(lambda: fused.run([x, q], [], [out]))
            err = np.abs(out - x @ wd.T).max() / np.abs(x @ wd.T).max()
            t_unfused = best_of(lambda: unfused.run([x, q], [], [out]))
            t_plain = best_of(lambda: plain.run([x, wT], [], [out]))
            t_numpy = best_of(lambda: x @ wT)
            print(f"{enc.name:5} M={m:<3} qmatmul {t_fused * 1e3:8.2f} ({q.nbytes / 1e6:5.1f} MB read)"
                  f" | dequantize+matmul {t_unfused * 1e3:8.2f} ({(q.nbytes + 2 * wd.nbytes) / 1e6:5.1f}"
                  f" MB) | f32 matmul {t_plain * 1e3:8.2f} ({wd.nbytes / 1e6:5.1f} MB)"
                  f" | numpy {t_numpy * 1e3:7.2f} | qmatmul/f32 {t_fused / t_plain:5.2f}x"
                  f" | qmatmul/numpy {t_fused / t_numpy:5.2f}x"
                  f" | rel err {err:.1e}")


if __name__ == "__main__":
    main()
