"""The op registry: every elementwise op, parametrised from the same rows as ODS.

For each registered op and each dtype, the Python builder and the C++
verifier agree: where the registry allows the dtype both accept it (and the
compiled op matches numpy), where it forbids it both refuse, naming the same
element kinds. Every op also round-trips (pretty, generic, bytecode) and
survives -canonicalize.
"""

import io

import numpy as np
import pytest

from mo import _opdefs
from mo._mlir import ir
from mo.compiler import Executable
from mo.dtype import DType
from mo.graph import DeviceRef, Graph, TensorType, ops

ELEMENTWISE = _opdefs.family("unary") + _opdefs.family("binary")
DTYPES = list(DType)


def tt(shape, dtype):
    return TensorType(dtype, shape, DeviceRef.CPU())


def test_registry_lists_the_families():
    names = {o.name for o in ELEMENTWISE}
    assert {"add", "sub", "equal", "exp", "log1p", "abs"} <= names
    for o in ELEMENTWISE:
        assert o.kinds and set(o.kinds) <= {"float", "signed", "unsigned", "bool"}, o
        assert o.arity == (1 if o.family == "unary" else 2)
        assert callable(getattr(ops, o.name)), o.name


def _graph(opdef, dtype, shape=(4,)):
    with Graph(f"g_{opdef.name}", input_types=[tt(list(shape), dtype)] * opdef.arity) as g:
        g.output(getattr(ops, opdef.name)(*g.inputs))
    return g


def _text_ir(opdef, dtype):
    """The op in mo IR text, built without the Python checks."""
    t = f"!mo.tensor<[4], {dtype.mlir}>"
    r = "!mo.tensor<[4], i1>" if opdef.name in ("equal", "not_equal", "greater",
                                                 "greater_equal", "less", "less_equal") else t
    if opdef.arity == 1:
        body = f"%y = mo.{opdef.name} %x : {t}"
        args = f"%x: {t}"
    else:
        body = f"%y = mo.{opdef.name}(%x, %z) : ({t}, {t}) -> {r}"
        args = f"%x: {t}, %z: {t}"
    return f"mo.graph @g({args}) -> {r} {{\n  {body}\n  mo.output %y : {r}\n}}"


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("opdef", ELEMENTWISE, ids=lambda o: o.name)
def test_python_and_verifier_agree(opdef, dtype):
    from mo import _context

    with _context.context():
        if opdef.accepts(dtype):
            ir.Module.parse(_text_ir(opdef, dtype)).operation.verify()
            g = _graph(opdef, dtype)
            assert f"mo.{opdef.name}" in str(g)
            return
        with pytest.raises(ir.MLIRError) as verifier:
            ir.Module.parse(_text_ir(opdef, dtype))
        assert f"mo tensor of {opdef.kinds_text} values" in str(verifier.value)
    with pytest.raises(ValueError) as python:
        _graph(opdef, dtype)
    assert f"{opdef.name} is defined on {opdef.kinds_text} tensors, got {dtype.name}" \
        in str(python.value)


# -- numerics against the registry's numpy reference ------------------------------


def _inputs(opdef, dtype, rng):
    np_dtype = dtype.to_numpy()
    if dtype is DType.bool:
        return [np.array([True, False, True, False]), np.array([True, True, False, False])]
    if dtype.is_float:
        x = rng.uniform(0.2, 3.0, 4).astype(np.float64)
        return [x.astype(np_dtype), rng.uniform(0.5, 2.0, 4).astype(np_dtype)]
    lo = 0 if not dtype.is_signed else -5
    x = np.array([lo, 3, 7, 2]).astype(np_dtype)
    # Nonzero divisors, small non-negative exponents: numpy's integer rules.
    y = np.array([2, 3, 1, 3]).astype(np_dtype) if opdef.name != "pow" else \
        np.array([0, 1, 2, 3]).astype(np_dtype)
    return [x, y]


def _reference(opdef, dtype, args):
    name = opdef.reference
    if opdef.name == "div" and dtype.is_integral:
        name = "floor_divide"  # mo's integer / floors (documented in the op's summary)
    fn = getattr(np, name)
    if dtype in (DType.float16, DType.bfloat16):
        # numpy has no bf16 math: compute in float64 and round once.
        wide = fn(*[a.astype(np.float64) for a in args])
        return wide.astype(dtype.to_numpy()) if wide.dtype != bool else wide
    return fn(*args)


NUMERIC = [(o, d) for o in ELEMENTWISE if o.reference for d in DTYPES if o.accepts(d)]


@pytest.mark.parametrize("opdef,dtype", NUMERIC, ids=lambda v: getattr(v, "name", None))
def test_numerics_match_numpy(opdef, dtype):
    rng = np.random.default_rng(0)
    args = _inputs(opdef, dtype, rng)[:opdef.arity]
    g = _graph(opdef, dtype)
    out_dtype = g.outputs[0].dtype.to_numpy()
    out = np.empty(4, out_dtype)
    Executable(g.module).run(args, [], [out])
    expected = _reference(opdef, dtype, args)
    if dtype.is_float and out_dtype != bool:
        tol = {DType.float16: 2e-3, DType.bfloat16: 1e-2}.get(dtype, 1e-6)
        np.testing.assert_allclose(out.astype(np.float64), expected.astype(np.float64),
                                   rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(out, expected)


# -- every op round-trips and canonicalizes ------------------------------------------


@pytest.mark.parametrize("opdef", ELEMENTWISE, ids=lambda o: o.name)
def test_round_trip_and_canonicalize(opdef):
    from mo import _context
    from mo._mlir import passmanager

    dtype = DType.float32
    with _context.context():
        module = ir.Module.parse(_text_ir(opdef, dtype))
        pretty = str(module)
        generic = module.operation.get_asm(print_generic_op_form=True)
        assert str(ir.Module.parse(generic)) == pretty
        buffer = io.BytesIO()
        module.operation.write_bytecode(buffer)
        assert str(ir.Module.parse(buffer.getvalue())) == pretty
        passmanager.PassManager.parse("builtin.module(canonicalize)").run(module.operation)
        module.operation.verify()
        assert f"mo.{opdef.name}" in str(module)

