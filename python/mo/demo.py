"""A small end-to-end demo: trace, compile and run a model; inspect its IR.

Run with ``python -m mo.demo``. It

1. traces a 3-layer MLP whose layers share one subgraph (``as_subgraph`` with
   per-layer weight prefixes), prints the mo module, compiles it and checks
   the result against numpy;
2. builds a mo module with the low-level dialect bindings and runs
   ``mo-opt --inline --canonicalize`` on it (the call prefixes end up in the
   weight names).
"""

from __future__ import annotations

import subprocess
import sys

from mo._mlir import ir
from mo._mlir.dialects import mo as mo_d


def tensor_type(dims: list[int | str], element_type: ir.Type) -> ir.Type:
    """`!mo.tensor<[dims], element_type>` from ints (static) and names."""
    attrs = [mo_d.dim_static(d) if isinstance(d, int) else mo_d.dim_symbolic(d) for d in dims]
    return mo_d.TensorType.get(attrs, element_type)


def graph(name: str, inputs: list[ir.Type], outputs: list[ir.Type], params=(), private=False):
    """Creates an empty `mo.graph` at the insertion point; returns (op, entry block)."""
    op = mo_d.GraphOp(
        sym_name=name,
        function_type=ir.TypeAttr.get(ir.FunctionType.get(inputs, outputs)),
        sym_visibility="private" if private else None,
        parameters=ir.ArrayAttr.get([ir.StringAttr.get(p) for p in params]) if params else None,
    )
    return op, op.body.blocks.append(*inputs)


def build_module() -> ir.Module:
    f32 = ir.F32Type.get()
    x_type = tensor_type(["batch", 4], f32)
    w_type = tensor_type([4], f32)
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        _, body = graph("block", [x_type], [x_type], params=["batch"], private=True)
        with ir.InsertionPoint(body):
            w = mo_d.ConstantExternalOp(w_type, "w", isPlaceholder=True).result
            mo_d.OutputOp([mo_d.MulOp(body.arguments[0], w).result])
        _, main = graph("main", [x_type], [x_type], params=["batch"])
        with ir.InsertionPoint(main):
            h = main.arguments[0]
            for i in range(2):
                h = mo_d.CallOp([x_type], "block", [h], prefix=f"layers.{i}.").result
            mo_d.OutputOp([h])
    module.operation.verify()
    return module


def mo_opt(module: ir.Module, *flags: str) -> str:
    """Runs the `mo-opt` command line on the module's text."""
    cmd = [sys.executable, "-m", "mo._opt", *flags]
    done = subprocess.run(cmd, input=str(module), capture_output=True, text=True, check=True)
    return done.stdout


def run_model() -> None:
    """Traces, compiles and runs a small MLP; checks it against numpy."""
    import time

    import numpy as np

    from mo import compilation
    from mo import functional as F
    from mo.driver import CPU
    from mo.dtype import DType
    from mo.sharding import TensorLayout
    from mo.tensor import Tensor

    width = 16

    def dense_relu(x):
        w = F.constant_external("w", TensorLayout(DType.float32, [width, width], CPU()),
                                is_placeholder=True)
        b = F.constant_external("b", TensorLayout(DType.float32, [width], CPU()),
                                is_placeholder=True)
        return F.relu(x @ w + b)

    def mlp(x):
        for i in range(3):
            x = compilation.as_subgraph(dense_relu, prefix=f"layers.{i}.")(x)
        return x

    rng = np.random.default_rng(0)
    weights = {}
    for i in range(3):
        weights[f"layers.{i}.w"] = rng.standard_normal((width, width), np.float32) / 4
        weights[f"layers.{i}.b"] = rng.standard_normal(width, np.float32) / 4
    spec = TensorLayout(DType.float32, ["batch", width], CPU())
    staged = compilation.stage(mlp)(spec)
    print("// mo module traced from Python (one shared layer body, three calls):")
    print(staged)
    start = time.perf_counter()
    run = staged.compile(weights)
    compile_ms = (time.perf_counter() - start) * 1e3
    x = rng.standard_normal((8, width), np.float32)
    out = run(Tensor(x)).to_numpy()
    ref = x
    for i in range(3):
        ref = np.maximum(ref @ weights[f"layers.{i}.w"] + weights[f"layers.{i}.b"], 0)
    err = float(np.abs(out - ref).max())
    print(f"// compiled in {compile_ms:.0f} ms; batch 8 output {out.shape}, "
          f"max |mo - numpy| = {err:.1e}")
    if err > 1e-4:
        raise SystemExit("demo: result differs from numpy")


def main() -> None:
    run_model()
    with ir.Context(), ir.Location.unknown():
        module = build_module()
        print("// mo module built from Python:")
        print(module)
        print("// mo-opt --inline --canonicalize:")
        print(mo_opt(module, "--inline", "--canonicalize"))


if __name__ == "__main__":
    main()
