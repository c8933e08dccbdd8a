"""Shapes that are not the workloads': run-time (symbolic) dims and sizes that
do not divide mo's tiles, against torch eager (if installed) and numpy in the
same run.

Each case is compiled once with mo, twice where it has a symbolic twin: with
every dim static, and with its first input's first dim symbolic. A symbolic
dim should cost no more than the static one (a cliff means a partial tile
that allocates, a loop LLVM no longer unrolls, ...). Every result is checked
against numpy in float64. Threads are pinned as workloads.py pins them
(--threads, default every core). Not a test: figures depend on the machine.

Run: python benchmarks/shapes.py [--threads N] [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np


def median_ms(fn, args, repeats, settle_s):
    fn(*args)
    time.sleep(settle_s)  # other engines' threads idle (workloads.SETTLE_S)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=40)
    args = parser.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "MO_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import workloads as W
    from mo import compilation
    from mo.driver import CPU
    from mo.dtype import DType
    from mo.sharding import TensorLayout

    try:
        torch_ops = W.TorchOps(args.threads)
    except ImportError:
        torch_ops = None
    mo_ops, np_ops = W.MoOps(), W.NumpyOps()
    mlp = lambda o, x, w1, b1, w2, b2: o.relu(o.linear(o.relu(o.linear(x, w1, b1)), w2, b2))
    conv = lambda o, x, w, b: o.relu(o.conv2d(x, w, b))
    cases = [  # (name, fn, input shapes, symbolic first dim?)
        ("matmul 1000^3", lambda o, a, b: a @ b, [(1000, 1000), (1000, 1000)], False),
        ("matmul 1024^3", lambda o, a, b: a @ b, [(1024, 1024), (1024, 1024)], True),
        ("layer_norm 4000x1000", lambda o, x, g, b: o.layer_norm(x, g, b),
         [(4000, 1000), (1000,), (1000,)], False),
        ("layer_norm 4096x1024", lambda o, x, g, b: o.layer_norm(x, g, b),
         [(4096, 1024), (1024,), (1024,)], True),
        ("softmax 4000x1000", lambda o, x: o.softmax(x), [(4000, 1000)], False),
        ("softmax 4096x1024", lambda o, x: o.softmax(x), [(4096, 1024)], True),
        ("MLP 2x1000, batch 50", mlp,
         [(50, 1000), (1000, 1000), (1000,), (1000, 1000), (1000,)], True),
        # Convolutions (3x3 SAME + bias + relu, NHWC) a CNN has past w6's: a
        # filter too big for L2, few rows, a batch, rows of a prime length.
        ("conv 14x14 256->256", conv, [(1, 14, 14, 256), (3, 3, 256, 256), (256,)], False),
        ("conv 7x7 512->512", conv, [(1, 7, 7, 512), (3, 3, 512, 512), (512,)], False),
        ("conv 8x28x28 128->128", conv, [(8, 28, 28, 128), (3, 3, 128, 128), (128,)], True),
        ("conv 17x17 64->64", conv, [(1, 17, 17, 64), (3, 3, 64, 64), (64,)], False),
    ]
    rng = np.random.default_rng(0)
    print(f"{'case':30s} {'mo static':>10s} {'symbolic':>10s} {'torch':>8s} {'numpy':>8s}  "
          f"(ms, median of {args.repeats}; {args.threads} threads)")
    for name, fn, shapes, symbolic in cases:
        arrays = [rng.standard_normal(s).astype(np.float32) / 10 for s in shapes]
        ref = fn(np_ops, *[a.astype(np.float64) for a in arrays])

        def traced(*xs, fn=fn):
            return fn(mo_ops, *xs)

        traced.__name__ = "shape_case"
        row = []
        for first in ([None, "n"] if symbolic else [None]):
            specs = [TensorLayout(DType.float32, [first or s[0], *s[1:]] if i == 0 and first
                                  else list(s), CPU()) for i, s in enumerate(shapes)]
            run = compilation.compile(traced)(*specs)
            out = np.asarray(run(*arrays).to_numpy(), np.float64)
            err = np.max(np.abs(out - ref)) / np.max(np.abs(ref))
            assert err < 1e-4, f"{name}: mo's result is off by {err:.1e}"
            row.append(median_ms(run, arrays, args.repeats, W.SETTLE_S))
        cells = [f"{t:10.3f}" for t in row] + ([] if symbolic else [f"{'-':>10s}"])
        if torch_ops is not None:
            tensors = [torch_ops.to_native(a) for a in arrays]
            torch_ms = median_ms(lambda *x: fn(torch_ops, *x), tensors, args.repeats, W.SETTLE_S)
            cells.append(f"{torch_ms:8.3f}")
        else:
            cells.append(f"{'-':>8s}")
        numpy_ms = median_ms(lambda *x: fn(np_ops, *x), arrays, args.repeats, W.SETTLE_S)
        cells.append(f"{numpy_ms:8.3f}")
        print(f"{name:30s} " + " ".join(cells), flush=True)


if __name__ == "__main__":
    main()
