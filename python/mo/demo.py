"""A small end-to-end demo: build a mo module in Python, print it, run mo-opt.

Run with ``python -m mo.demo``. It builds a shared subgraph ``@block`` that
scales its input by a weight, calls it twice with different weight prefixes,
verifies and prints the module, then inlines it with ``mo-opt --inline`` (the
call prefixes end up in the weight names) and canonicalizes.
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


def main() -> None:
    with ir.Context(), ir.Location.unknown():
        module = build_module()
        print("// mo module built from Python:")
        print(module)
        print("// mo-opt --inline --canonicalize:")
        print(mo_opt(module, "--inline", "--canonicalize"))


if __name__ == "__main__":
    main()
