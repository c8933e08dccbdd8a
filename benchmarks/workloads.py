"""The CPU workloads w1-w7 (elementwise, matmul, MLP, layer_norm, softmax,
conv2d, a transformer block) on mo, numpy and torch (when installed), in one
run. Every result is checked against numpy in float64; the table gives the
median time, the throughput (GFLOP/s, or GB/s of compulsory traffic), the
fraction of the machine's f32 peak and the ratio to the best engine. Not a
test: figures depend on the machine; the ratios carry.

mo's "first call" is a cold compile (an empty compile cache of the run's
own); a second table splits it into mo's pass pipelines up to the kernels
(MLIR: to linalg, then mo-cpu-kernels), code generation (the kernels and
their driver lowered to the LLVM dialect, translated, optimized and
compiled, in parts on every core at once) and the rest (tracing, loading,
the call). Threads are pinned for every engine before any of them
starts its pool: OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, MKL_NUM_THREADS,
MO_NUM_THREADS and torch.set_num_threads all get --threads (default: every
core). The peak is measured here with an FMA loop compiled by the system C compiler (12
independent vector accumulators, -O2 -march=native), times the threads; with
no compiler the % column is left out.

Run: python benchmarks/workloads.py [--threads N] [--repeats R] [-w w1,w6]
(`bash ../shared/bench/run.sh` adds onnxruntime, IREE and JAX.)
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# -- the workloads, each written once against an engine's ops -----------------------------


class Workload:
    def __init__(self, name, what, inputs, fn, flops=None, nbytes=None, rtol=1e-4):
        self.name, self.what, self.inputs, self.fn = name, what, inputs, fn
        self.flops, self.nbytes, self.rtol = flops, nbytes, rtol


def _bytes(*shapes):
    return sum(4 * math.prod(s) for s in shapes)


def _mlp(o, x, *params):
    for i in range(0, len(params), 2):
        x = o.relu(o.linear(x, params[i], params[i + 1]))
    return x


S, D, H, FF = 128, 512, 8, 2048


def _block(o, x, g1, b1, wq, bq, wk, bk, wv, bv, wo, bo, g2, b2, w1, c1, w2, c2):
    """Pre-LN transformer block, batch 1, no mask, gelu (tanh)."""
    def heads(t):
        return o.transpose(o.reshape(t, (1, S, H, D // H)), (0, 2, 1, 3))

    h = o.layer_norm(x, g1, b1)
    q, k, v = (heads(o.linear(h, w, b)) for w, b in ((wq, bq), (wk, bk), (wv, bv)))
    s = o.softmax((q @ o.transpose(k, (0, 1, 3, 2))) * (1.0 / math.sqrt(D // H)))
    a = o.reshape(o.transpose(s @ v, (0, 2, 1, 3)), (1, S, D))
    x = x + o.linear(a, wo, bo)
    h = o.layer_norm(x, g2, b2)
    return x + o.linear(o.gelu(o.linear(h, w1, c1)), w2, c2)


def _linear_inputs(name, fin, fout):
    return [(f"w{name}", (fin, fout), 1 / math.sqrt(fin), 0.0), (f"b{name}", (fout,), 0.02, 0.0)]


# (name, shape, scale, offset) of each input.
WORKLOADS = [
    Workload("w1", "relu(x*2+1)*x [4096,4096]", [("x", (4096, 4096), 1.0, 0.0)],
             lambda o, x: o.relu(x * 2.0 + 1.0) * x, nbytes=_bytes((4096, 4096), (4096, 4096))),
    Workload("w2", "matmul 1024^3", [("a", (1024, 1024), 1.0, 0.0), ("b", (1024, 1024), 1.0, 0.0)],
             lambda o, a, b: a @ b, flops=2.0 * 1024 ** 3),
    Workload("w3", "MLP 3x(linear+relu) batch 64 width 1024",
             [("x", (64, 1024), 1.0, 0.0)]
             + [i for k in range(3) for i in _linear_inputs(k, 1024, 1024)],
             _mlp, flops=3 * 2.0 * 64 * 1024 * 1024),
    Workload("w4", "layer_norm [4096,1024]",
             [("x", (4096, 1024), 1.0, 0.5), ("g", (1024,), 0.1, 1.0), ("b", (1024,), 0.1, 0.0)],
             lambda o, x, g, b: o.layer_norm(x, g, b),
             nbytes=_bytes((4096, 1024), (4096, 1024))),
    Workload("w5", "softmax [4096,1024]", [("x", (4096, 1024), 2.0, 0.0)],
             lambda o, x: o.softmax(x), nbytes=_bytes((4096, 1024), (4096, 1024)), rtol=1e-3),
    Workload("w6", "conv2d NHWC 1x56x56x64 3x3 64->64 SAME +bias relu",
             [("x", (1, 56, 56, 64), 1.0, 0.0), ("w", (3, 3, 64, 64), 1 / 24, 0.0),
              ("b", (64,), 0.1, 0.0)],
             lambda o, x, w, b: o.relu(o.conv2d(x, w, b)), flops=2.0 * 56 * 56 * 64 * 64 * 9),
    Workload("w7", "transformer block S128 D512 H8 F2048",
             [("x", (1, S, D), 1.0, 0.0), ("g1", (D,), 0.1, 1.0), ("b1", (D,), 0.1, 0.0)]
             + [i for n in "qkvo" for i in _linear_inputs(n, D, D)]
             + [("g2", (D,), 0.1, 1.0), ("b2", (D,), 0.1, 0.0)]
             + _linear_inputs(1, D, FF) + _linear_inputs(2, FF, D),
             _block, flops=S * 2.0 * (4 * D * D + 2 * D * FF) + 2 * 2.0 * S * S * D),
]

# -- engines ------------------------------------------------------------------------------


# Seconds to let other engines' worker threads go idle before an engine's
# first call or timing: OpenBLAS's spin for a while after each call (numpy's
# 1000^2 matmul slowed mo's next 40 calls of a 14x14 convolution 2x: 0.54 ->
# 1.13-1.22 ms; 0.51 after 0.3 s), as torch's OpenMP threads do.
SETTLE_S = 0.3


class NumpyOps:
    name = "numpy"

    def __init__(self):
        import numpy as np
        self.np = np

    def relu(self, x): return self.np.maximum(x, 0)
    def linear(self, x, w, b): return x @ w + b
    def reshape(self, x, shape): return self.np.reshape(x, shape)
    def transpose(self, x, perm): return self.np.transpose(x, perm)

    def gelu(self, x):
        return 0.5 * x * (1 + self.np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))

    def softmax(self, x):
        e = self.np.exp(x - x.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    def layer_norm(self, x, g, b, eps=1e-5):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / self.np.sqrt(var + eps) * g + b

    def conv2d(self, x, w, b):  # SAME, stride 1: the windows times the filter
        kh, kw = w.shape[:2]
        p = self.np.pad(x, ((0, 0), (kh // 2, kh // 2), (kw // 2, kw // 2), (0, 0)))
        win = self.np.lib.stride_tricks.sliding_window_view(p, (kh, kw), axis=(1, 2))
        return self.np.einsum("nhwcij,ijcf->nhwf", win, w, optimize=True) + b

    def compile(self, wl, arrays):
        return lambda *xs: wl.fn(self, *xs)

    def to_numpy(self, out): return out


class TorchOps:
    name = "torch"

    def __init__(self, threads):
        import torch
        torch.set_num_threads(threads)
        self.torch, self.F = torch, torch.nn.functional

    def relu(self, x): return self.torch.relu(x)
    def linear(self, x, w, b): return self.torch.addmm(b, x.reshape(-1, w.shape[0]), w).reshape(
        *x.shape[:-1], w.shape[1])
    def reshape(self, x, shape): return x.reshape(shape)
    def transpose(self, x, perm): return x.permute(perm)
    def gelu(self, x): return self.F.gelu(x, approximate="tanh")
    def softmax(self, x): return self.torch.softmax(x, -1)
    def layer_norm(self, x, g, b, eps=1e-5): return self.F.layer_norm(x, (x.shape[-1],), g, b, eps)

    def conv2d(self, x, w, b):  # NHWC data is channels_last NCHW for oneDNN
        y = self.F.conv2d(x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1), b, padding="same")
        return y.permute(0, 2, 3, 1)

    def compile(self, wl, arrays):
        def run(*xs):
            with self.torch.inference_mode():
                return wl.fn(self, *xs)
        return run

    def to_native(self, a): return self.torch.from_numpy(a)
    def to_numpy(self, out): return out.contiguous().numpy()


class MoOps:
    name = "mo"

    def __init__(self):
        from mo import functional as F
        self.F = F

    def relu(self, x): return self.F.relu(x)
    def linear(self, x, w, b): return x @ w + b
    def reshape(self, x, shape): return self.F.reshape(x, list(shape))
    def transpose(self, x, perm): return self.F.permute(x, list(perm))
    def gelu(self, x): return self.F.gelu(x, approximate="tanh")
    def softmax(self, x): return self.F.softmax(x)
    def layer_norm(self, x, g, b, eps=1e-5): return self.F.layer_norm(x, g, b, eps)

    def conv2d(self, x, w, b):
        kh, kw = int(w.shape[0]), int(w.shape[1])
        return self.F.conv2d(x, w, padding=(kh // 2, kh // 2, kw // 2, kw // 2), bias=b)

    def compile(self, wl, arrays):
        from mo import compilation
        from mo.driver import CPU
        from mo.dtype import DType
        from mo.sharding import TensorLayout

        def fn(*xs):
            return wl.fn(self, *xs)

        fn.__name__ = wl.name
        return compilation.compile(fn)(
            *[TensorLayout(DType.float32, list(a.shape), CPU()) for a in arrays])

    def to_numpy(self, out): return out.to_numpy()


# -- the machine's peak -------------------------------------------------------------------

_FMA_LOOP = r"""
#ifdef __AVX512F__
typedef float vec __attribute__((vector_size(64)));
#else
typedef float vec __attribute__((vector_size(32)));
#endif
/* 12 independent accumulators in registers: enough to cover the FMA
   latency on two ports. */
#define STEP(a) a = a * b + c;
double fma_flops(long n) {
  vec b = (vec){} + 0.999f, c = (vec){} + 1e-3f;
  vec a0 = b, a1 = c, a2 = b + c, a3 = b - c, a4 = b * c, a5 = b + b, a6 = c + c,
      a7 = b * b, a8 = c * c, a9 = b + 1, a10 = c + 1, a11 = b - 1;
  for (long k = 0; k < n; ++k) {
    STEP(a0) STEP(a1) STEP(a2) STEP(a3) STEP(a4) STEP(a5)
    STEP(a6) STEP(a7) STEP(a8) STEP(a9) STEP(a10) STEP(a11)
    __asm__ volatile("" : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4), "+x"(a5),
                     "+x"(a6), "+x"(a7), "+x"(a8), "+x"(a9), "+x"(a10), "+x"(a11));
  }
  vec s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;
  volatile float sink = s[0];
  (void)sink;
  return 2.0 * 12 * (sizeof(vec) / 4) * (double)n;
}
"""


def measure_peak(threads: int) -> float | None:
    """f32 GFLOP/s of one core's FMA loop, times the threads (None: no compiler)."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src, lib = os.path.join(tmp, "fma.c"), os.path.join(tmp, "fma.so")
        with open(src, "w") as f:
            f.write(_FMA_LOOP)
        done = subprocess.run([cc, "-O2", "-march=native", "-ffp-contract=fast", "-shared",
                               "-fPIC", src, "-o", lib], capture_output=True)
        if done.returncode != 0:
            return None
        fma = ctypes.CDLL(lib).fma_flops
        fma.restype, fma.argtypes = ctypes.c_double, [ctypes.c_long]
        best = 0.0
        for _ in range(5):
            start = time.perf_counter()
            flops = fma(20_000_000)
            best = max(best, flops / (time.perf_counter() - start) / 1e9)
        return best * threads


# -- the run ------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("-w", "--workloads", default="",
                        help="comma-separated names (default: all)")
    args = parser.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                "MO_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    # mo's first call is a cold compile: an empty compile cache of its own.
    os.environ["MO_CACHE_DIR"] = tempfile.mkdtemp(prefix="mo-cache-")
    import numpy as np

    engines = [NumpyOps()]
    try:
        engines.append(TorchOps(args.threads))
    except ImportError:
        print("torch is not installed: numpy and mo only")
    engines.append(MoOps())
    peak = measure_peak(args.threads)
    chosen = set(filter(None, args.workloads.split(",")))
    print(f"threads {args.threads}; f32 peak "
          + (f"{peak:.0f} GFLOP/s (FMA loop x threads)" if peak else "not measured (no cc)"))
    print("| workload | engine | first call s | median ms | min ms | throughput | % peak "
          "| x best | status |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    from mo import compiler

    wrong = 0
    phases = []
    for wl in WORKLOADS:
        if chosen and wl.name not in chosen:
            continue
        rng = np.random.default_rng(int(wl.name[1:]))
        arrays = [(rng.standard_normal(shape) * scale + offset).astype(np.float32)
                  for _, shape, scale, offset in wl.inputs]
        ref = wl.fn(NumpyOps(), *[a.astype(np.float64) for a in arrays])
        rows = []
        for engine in engines:
            native = [getattr(engine, "to_native", lambda a: a)(a) for a in arrays]
            # A full collection of the objects other engines left (torch's:
            # ~90 ms) is no engine's first call (as ../shared/bench does),
            # nor are the spinning threads of the others and of the float64
            # reference (SETTLE_S).
            gc.collect()
            time.sleep(SETTLE_S)
            before = compiler.stats()
            start = time.perf_counter()
            run = engine.compile(wl, arrays)
            out = engine.to_numpy(run(*native))
            first = time.perf_counter() - start
            if isinstance(engine, MoOps):
                after = compiler.stats()
                mlir, llvm = (after[k] - before[k]
                              for k in ("pipeline_seconds", "code_generation_seconds"))
                phases.append((wl.name, first, mlir, llvm, first - mlir - llvm))
            err = float(np.abs(out - ref).max()) / max(1.0, float(np.abs(ref).max()))
            for _ in range(3):
                run(*native)
            time.sleep(SETTLE_S)
            times = []
            for _ in range(args.repeats):
                start = time.perf_counter()
                run(*native)
                times.append(time.perf_counter() - start)
            rows.append((engine.name, first, statistics.median(times), min(times),
                         err <= wl.rtol, err))
        best = min(r[2] for r in rows)
        for name, first, median, fastest, ok, err in rows:
            wrong += not ok
            if wl.flops:
                rate = wl.flops / median / 1e9
                throughput = f"{rate:.0f} GFLOP/s"
                share = f"{100 * rate / peak:.0f} %" if peak else "-"
            else:
                throughput, share = f"{wl.nbytes / median / 1e9:.1f} GB/s", "-"
            print(f"| {wl.name} | {name} | {first:.3f} | {median * 1e3:.3f} | "
                  f"{fastest * 1e3:.3f} | {throughput} | {share} | {median / best:.2f} | "
                  + ("ok" if ok else f"WRONG (error {err:.1e})") + " |")
    print("\nmo's first call by phase (s)\n")
    print("| workload | first call | MLIR to kernels | code generation | rest |")
    print("|---|---:|---:|---:|---:|")
    for name, *seconds in phases:
        print(f"| {name} | " + " | ".join(f"{t:.3f}" for t in seconds) + " |")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
