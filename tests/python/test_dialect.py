"""The mo dialect from Python: building, printing, parsing, verifying, types."""

import subprocess
import sys

import pytest

from mo import demo
from mo._mlir import ir
from mo._mlir.dialects import mo as mo_d


def tensor(dims, element_type=None, device=("", 0)):
    return mo_d.TensorType.get(
        [mo_d.dim_static(d) if isinstance(d, int) else mo_d.dim_symbolic(d) for d in dims],
        element_type or ir.F32Type.get(),
        *device,
    )


def test_build_print_parse_verify(ctx):
    module = demo.build_module()
    text = str(module)
    assert text.count("mo.graph") == 2
    assert text.count("mo.call @block") == 2
    assert 'prefix = "layers.1."' in text
    reparsed = ir.Module.parse(text)
    reparsed.operation.verify()
    assert str(reparsed) == text


def test_generic_and_bytecode_round_trip(ctx):
    module = demo.build_module()
    generic = module.operation.get_asm(print_generic_op_form=True)
    assert '"mo.graph"' in generic
    assert str(ir.Module.parse(generic)) == str(module)
    import io

    buf = io.BytesIO()
    module.operation.write_bytecode(buf)
    assert str(ir.Module.parse(buf.getvalue())) == str(module)


def test_tensor_type_accessors(ctx):
    t = tensor(["batch", 2], device=("gpu", 1))
    assert str(t) == "!mo.tensor<[batch, 2], f32, gpu:1>"
    assert t.rank == 2
    assert [mo_d.dim_str(d) for d in t.dims] == ["batch", "2"]
    assert t.element_type == ir.F32Type.get()
    assert t.device == "gpu:1"
    assert tensor([4]).device is None
    # Parsed types come back as the concrete Python class.
    parsed = ir.Type.parse("!mo.buffer<[?, 3], ui8>")
    assert isinstance(parsed, mo_d.BufferType)
    assert [mo_d.dim_str(d) for d in parsed.dims] == ["?", "3"]
    assert str(mo_d.ChainType.get()) == "!mo.chain"


def test_dim_expressions_fold(ctx):
    b, s = mo_d.dim_symbolic("b"), mo_d.dim_symbolic("s")
    two, one = mo_d.dim_static(2), mo_d.dim_static(1)
    assert mo_d.dim_str(mo_d.dim_expr("mul", b, mo_d.dim_expr("add", s, one))) == "b * (s + 1)"
    assert mo_d.dim_str(mo_d.dim_expr("mul", b, one)) == "b"
    assert mo_d.dim_str(mo_d.dim_expr("mul", two, mo_d.dim_static(3))) == "6"
    assert mo_d.dim_str(mo_d.dim_expr("floordiv", mo_d.dim_static(7), two)) == "3"
    assert mo_d.dim_str(mo_d.dim_expr("add", b, mo_d.dim_unknown())) == "?"
    # Same expression, same attribute (uniqued): types compare equal.
    t1 = mo_d.TensorType.get([mo_d.dim_expr("mul", b, s)], ir.F32Type.get())
    t2 = ir.Type.parse("!mo.tensor<[b * s], f32>")
    assert t1 == t2
    with pytest.raises(ValueError, match="unknown dim operator 'pow'"):
        mo_d.dim_expr("pow", b, s)


@pytest.mark.parametrize(
    "dims, element, device, message",
    [
        ([-2], "f32", ("", 0), "dims must be non-negative, got -2"),
        (["a b"], "f32", ("", 0), "symbolic dim 'a b' is not an identifier"),
        ([2], "i32", ("", 0), "unsupported element type 'i32'"),
        ([2], "f32", ("tpu", 0), "unknown device kind 'tpu'"),
        ([2], "f32", ("cpu", -1), "device id must be non-negative"),
    ],
)
def test_bad_types_raise_value_error(ctx, dims, element, device, message):
    with pytest.raises(ValueError, match=message):
        tensor(dims, ir.Type.parse(element), device)


def test_bad_op_raises_with_verifier_message(ctx):
    f32, f64 = tensor([2]), tensor([2], ir.F64Type.get())
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        graph, block = demo.graph("f", [f32, f64], [])
        with ir.InsertionPoint(block):
            # Result-type inference fails while building: an exception, no abort.
            with pytest.raises(ir.MLIRError, match="operands have different element types"):
                mo_d.AddOp(block.arguments[0], block.arguments[1])
            # A verifier failure surfaces through verify().
            mo_d.ConstantOp(tensor([3]), ir.DenseElementsAttr.get_splat(
                ir.RankedTensorType.get([2], ir.F32Type.get()), ir.FloatAttr.get_f32(1.0)))
            mo_d.OutputOp([])
    with pytest.raises(ir.MLIRError, match="value shape 'tensor<2xf32>' does not match result type"):
        module.operation.verify()


def test_parse_error_is_an_exception(ctx):
    with pytest.raises(ir.MLIRError, match="symbolic dim 'n' which is not declared"):
        ir.Module.parse(
            "mo.graph @f(%x: !mo.tensor<[n], f32>) { mo.output }"
        )


def test_call_type_check(ctx):
    with pytest.raises(ir.MLIRError, match="'@nope' does not reference a valid mo.graph"):
        ir.Module.parse("mo.graph @f() { mo.call @nope() : () -> () \n mo.output }")


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


@pytest.mark.parametrize("mo_first", [True, False])
def test_imports_next_to_upstream_mlir(mo_first):
    """mo and the upstream `mlir` bindings live in one process, in either order,
    each used before and after the other compiles (issue: upstream's Context
    aborted once mo had compiled)."""
    # mo also compiles and runs a graph (its JIT loads libraries into the
    # process: none may shadow upstream's C API), and upstream runs a pass.
    mo_part = (
        "from mo._mlir import ir as mo_ir\n"
        "with mo_ir.Context():\n"
        "    m = mo_ir.Module.parse('mo.graph @f(%x: !mo.tensor<[2], f32>) { mo.output }')\n"
        "    assert 'mo.graph' in str(m)\n"
        "import numpy as np\n"
        "from mo import compilation, functional as F\n"
        "from mo.driver import CPU\n"
        "from mo.dtype import DType\n"
        "from mo.sharding import TensorLayout\n"
        "run = compilation.compile(lambda x: F.exp(x) * 2.0)(\n"
        "    TensorLayout(DType.float32, [3], CPU()))\n"
        "assert np.allclose(run(np.zeros(3, np.float32)).to_numpy(), 2.0)\n"
    )
    upstream_part = (
        "import mlir.ir as up\n"
        "from mlir.passmanager import PassManager\n"
        "with up.Context():\n"
        "    g = up.Module.parse('func.func @g() { return }')\n"
        "    PassManager.parse('builtin.module(canonicalize)').run(g.operation)\n"
        "    try:\n"
        "        up.Module.parse('mo.graph @f() { mo.output }')\n"
        "        raise SystemExit('upstream context must not know mo')\n"
        "    except up.MLIRError:\n"
        "        pass\n"
    )
    # Each side is used before and after the other: A, B, then A again.
    first, second = (mo_part, upstream_part) if mo_first else (upstream_part, mo_part)
    code = first + second + first
    done = run_python(code + "print('ok')")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_mo_opt_help_lists_passes():
    done = subprocess.run(["mo-opt", "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    for flag in ("--inline", "--canonicalize", "--cse", "--symbol-dce", "--mo-lower-to-linalg",
                 "--mo-weights-to-arguments", "--mo-interchange-contractions",
                 "--mo-cpu-pipeline", "--fuse-elementwise", "--interchange-contractions"):
        assert flag in done.stdout


def test_mo_opt_pipeline_options_change_the_passes(tmp_path):
    # Without fusion the two elementwise ops stay two loop nests.
    src = tmp_path / "two.mlir"
    src.write_text("mo.graph @f(%x: !mo.tensor<[8], f32>) -> !mo.tensor<[8], f32> {\n"
                   "  %a = mo.exp %x : !mo.tensor<[8], f32>\n"
                   "  %b = mo.tanh %a : !mo.tensor<[8], f32>\n"
                   "  mo.output %b : !mo.tensor<[8], f32>\n}\n")

    def generics(options):
        pipeline = f"builtin.module(mo-lower-to-linalg,mo-cpu-codegen{{{options}}})"
        # Stop before loops: count the linalg.generic ops that bufferization left.
        done = subprocess.run(["mo-opt", str(src), f"--pass-pipeline={pipeline}",
                               "--mlir-print-ir-after=convert-bufferization-to-memref",
                               "-o", "/dev/null"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stderr.count("linalg.generic")

    assert generics("fuse-elementwise=true") == 1
    assert generics("fuse-elementwise=false") == 2


def test_mo_opt_reports_malformed_ir_with_location(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("mo.graph @f(%x: !mo.tensor<[2], i32>) { mo.output }\n")
    done = subprocess.run(["mo-opt", str(bad)], capture_output=True, text=True)
    assert done.returncode != 0
    assert f"{bad}:1:27: error: unsupported element type 'i32'" in done.stderr


def test_demo_runs():
    done = subprocess.run([sys.executable, "-m", "mo.demo"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    inlined = done.stdout.split("// mo-opt --inline --canonicalize:")[1]
    assert '"layers.0.w"' in inlined and '"layers.1.w"' in inlined
    assert "mo.call" not in inlined and "@block" not in inlined
