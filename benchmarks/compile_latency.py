"""Compile latency and per-call overhead of mo, with numpy as the reference.

Prints, for the seed's `step` example and a 3-layer MLP: trace (stage) time,
compile time (lowering + LLVM JIT), the first call cold (an empty compile
cache) and from the persistent compile cache, and the steady-state
per-call time of a tiny CompiledCallable against the same numpy computation
measured in the same run. Not a test: figures depend on the machine.

Run: python benchmarks/compile_latency.py
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time

import numpy as np

from mo import _cache, compilation
from mo import functional as F
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout
from mo.tensor import Tensor


def timed(fn, repeat=1):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return out, statistics.median(times)


def per_call(fn, n=2000):
    fn()
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def step(x, *, gain):
    return x * gain


def mlp(x):
    for i, (k, n) in enumerate([(64, 128), (128, 128), (128, 10)]):
        w = F.constant_external(f"l{i}.w", TensorLayout(DType.float32, [k, n], CPU()))
        b = F.constant_external(f"l{i}.b", TensorLayout(DType.float32, [n], CPU()))
        x = x @ w + b
        if i < 2:
            x = F.relu(x)
    return x


def main() -> None:
    # An empty compile cache of this run's own: cold is cold.
    os.environ["MO_CACHE_DIR"] = tempfile.mkdtemp(prefix="mo-cache-")
    spec = TensorLayout(DType.float32, ["batch", 2], CPU())
    staged, t_stage = timed(lambda: compilation.stage(step)(spec, gain=3.0))
    run, t_compile = timed(lambda: staged.compile())
    x = Tensor.ones([4, 2])
    _, t_first = timed(lambda: run(x, gain=3.0))
    call = per_call(lambda: run(x, gain=3.0))
    raw = per_call(lambda: run.execute_raw(x))
    xn = x.to_numpy()
    ref = per_call(lambda: xn * 3.0)
    print(f"step: stage {t_stage * 1e3:.1f} ms, compile {t_compile * 1e3:.1f} ms, "
          f"first call {t_first * 1e3:.2f} ms")
    print(f"step: per call {call * 1e6:.1f} us (checked), {raw * 1e6:.1f} us (execute_raw), "
          f"numpy {ref * 1e6:.2f} us -> {call / ref:.0f}x numpy")

    rng = np.random.default_rng(0)
    weights, ws = {}, []
    for i, (k, n) in enumerate([(64, 128), (128, 128), (128, 10)]):
        weights[f"l{i}.w"] = rng.standard_normal((k, n), np.float32) / 8
        weights[f"l{i}.b"] = rng.standard_normal(n, np.float32)
        ws.append((weights[f"l{i}.w"], weights[f"l{i}.b"]))
    mspec = TensorLayout(DType.float32, ["batch", 64], CPU())
    staged, t_stage = timed(lambda: compilation.stage(mlp)(mspec))
    run, t_compile = timed(lambda: staged.compile(weights))
    xb = rng.standard_normal((32, 64), np.float32)
    # The same graph traced and compiled again: its object code is found in
    # the compile cache.
    _, t_warm = timed(lambda: compilation.stage(mlp)(mspec).compile(weights))
    print(f"mlp: compile cold {t_compile * 1e3:.1f} ms, from the compile cache "
          f"{t_warm * 1e3:.1f} ms (cache {_cache.stats()})")

    def reference():
        h = xb
        for i, (w, b) in enumerate(ws):
            h = h @ w + b
            h = np.maximum(h, 0) if i < 2 else h
        return h

    out = run(xb).to_numpy()
    err = np.abs(out - reference()).max()
    t_run = per_call(lambda: run(xb), 200)
    t_ref = per_call(reference, 200)
    print(f"mlp: stage {t_stage * 1e3:.1f} ms, compile {t_compile * 1e3:.1f} ms, "
          f"max |err| vs numpy {err:.2e}")
    print(f"mlp batch 32: mo {t_run * 1e6:.0f} us, numpy {t_ref * 1e6:.0f} us "
          f"-> {t_run / t_ref:.2f}x numpy time")


if __name__ == "__main__":
    main()
