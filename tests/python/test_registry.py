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
    r = "!mo.tensor<[4], i1>" if opdef.bool_result else t
    if opdef.arity == 1:
        body = f"%y = mo.{opdef.name} %x : {t}" + (f" -> {r}" if opdef.bool_result else "")
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
        # Inside every op's domain (logs, roots, inverse trig), else both sides.
        narrow = opdef.name in ("log", "log1p", "log2", "sqrt", "rsqrt", "asin", "acos", "atanh")
        x = rng.uniform(0.1, 0.95, 4) if narrow else rng.uniform(-3.0, 3.0, 4)
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
    # NaN results (a negative base to a fractional power) are compared as NaN.
    with np.errstate(invalid="ignore"):
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

    dtype = next(d for d in DTYPES if opdef.accepts(d))
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



# -- reductions -----------------------------------------------------------------------

REDUCE = _opdefs.family("reduce")


def _reduce_graph(opdef, dtype, shape, axis):
    with Graph(f"r_{opdef.python_name}", input_types=[tt(list(shape), dtype)]) as g:
        g.output(getattr(ops, opdef.python_name)(g.inputs[0], axis=axis))
    return g


def _reduce_reference(opdef, x, axis):
    fn = getattr(np, opdef.reference)
    if opdef.python_name in ("argmax", "argmin"):
        return np.expand_dims(fn(x, axis=axis), axis).astype(np.int64)
    if x.dtype in (np.float16, DType.bfloat16.to_numpy()):
        return fn(x.astype(np.float32), axis=axis, keepdims=True).astype(x.dtype)
    if opdef.python_name in ("sum", "prod"):  # MAX keeps the dtype (integers wrap)
        return fn(x, axis=axis, keepdims=True, dtype=x.dtype)
    return fn(x, axis=axis, keepdims=True)


def _reduce_input(dtype, shape, rng):
    if dtype is DType.bool:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.is_float:
        return rng.normal(size=shape).astype(dtype.to_numpy())
    lo = -4 if dtype.is_signed else 0
    return rng.integers(lo, 5, shape).astype(dtype.to_numpy())


def _run(g, x):
    out_type = g.outputs[0]
    shape = [int(d) if d.is_static else x.shape[i] for i, d in enumerate(out_type.shape)]
    out = np.empty(shape, out_type.dtype.to_numpy())
    Executable(g.module).run([x], [], [out])
    return out


def _check(out, expected, dtype):
    if out.dtype.kind == "f" or out.dtype == DType.bfloat16.to_numpy():
        tol = {DType.float16: 5e-3, DType.bfloat16: 2e-2}.get(dtype, 1e-5)
        np.testing.assert_allclose(out.astype(np.float64), expected.astype(np.float64),
                                   rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(out, expected)


REDUCE_CASES = [(o, d) for o in REDUCE for d in DTYPES if o.accepts(d)]


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("opdef,dtype", REDUCE_CASES, ids=lambda v: getattr(v, "name", None))
def test_reductions_match_numpy(opdef, dtype, axis):
    rng = np.random.default_rng(1)
    x = _reduce_input(dtype, (3, 5), rng)
    out = _run(_reduce_graph(opdef, dtype, (3, 5), axis), x)
    assert out.shape == tuple(1 if i == axis % 2 else n for i, n in enumerate(x.shape))
    _check(out, _reduce_reference(opdef, x, axis), dtype)


@pytest.mark.parametrize("opdef", REDUCE, ids=lambda o: o.python_name)
def test_reductions_symbolic_and_size_one(opdef):
    rng = np.random.default_rng(2)
    g = _reduce_graph(opdef, DType.float32, ["n", 4], axis=1)
    assert str(g.outputs[0].type.shape) == "[n, 1]"
    for n in (1, 7):
        x = _reduce_input(DType.float32, (n, 4), rng)
        _check(_run(g, x), _reduce_reference(opdef, x, 1), DType.float32)
    # A size-1 axis is the identity of the combine (or index 0).
    ones = _reduce_graph(opdef, DType.float32, [3, 1], axis=1)
    x = _reduce_input(DType.float32, (3, 1), rng)
    _check(_run(ones, x), _reduce_reference(opdef, x, 1), DType.float32)


@pytest.mark.parametrize("name", ["sum", "prod"])
def test_empty_axis_gives_the_identity(name):
    g = _reduce_graph(_opdefs.by_name()[f"reduce_{name}"], DType.float32, [3, 0], axis=1)
    out = _run(g, np.zeros((3, 0), np.float32))
    assert out.tolist() == ([[0.0]] * 3 if name == "sum" else [[1.0]] * 3)


@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
def test_nan_propagates_like_numpy(name):
    opdef = next(o for o in REDUCE if o.python_name == name)
    x = np.array([[1.0, np.nan, 3.0, np.nan], [2.0, 5.0, -1.0, 0.0]], np.float32)
    out = _run(_reduce_graph(opdef, DType.float32, (2, 4), 1), x)
    np.testing.assert_array_equal(out, _reduce_reference(opdef, x, 1))


def test_reduction_errors():
    from mo import _context

    with Graph("bad", input_types=[tt([2, 3], DType.int32)]) as g:
        with pytest.raises(ValueError, match="axis 2 is out of range for a rank-2 tensor"):
            ops.sum(g.inputs[0], axis=2)
        with pytest.raises(ValueError,
                           match="mean is defined on floating-point tensors, got int32"):
            ops.mean(g.inputs[0])
        with pytest.raises(TypeError, match="axis must be an int"):
            ops.sum(g.inputs[0], axis=1.0)
        with pytest.raises(TypeError, match="either a second tensor"):
            ops.max(g.inputs[0], g.inputs[0], axis=0)
        g.output(g.inputs[0])
    with _context.context(), \
            pytest.raises(ir.MLIRError, match="mo tensor of floating-point values"):
        ir.Module.parse("mo.graph @g(%x: !mo.tensor<[2], si32>) -> !mo.tensor<[1], si32> {\n"
                        "  %y = mo.reduce_mean %x {axis = 0 : i64} : !mo.tensor<[2], si32> -> "
                        "!mo.tensor<[1], si32>\n  mo.output %y : !mo.tensor<[1], si32>\n}")


def test_max_min_overloads_and_methods_compiled_and_eager():
    from mo import compilation
    from mo import functional as F
    from mo.driver import CPU
    from mo.sharding import TensorLayout
    from mo.tensor import Tensor

    x = np.arange(12, dtype=np.float32).reshape(3, 4) % 5
    y = np.full((3, 4), 2.0, np.float32)

    def f(a, b):
        return F.max(a, b), F.max(a, axis=0), a.min(axis=1), a.sum(), a.argmax(axis=0)

    spec = TensorLayout(DType.float32, ["n", 4], CPU())
    compiled = [o.to_numpy() for o in compilation.compile(f)(spec, spec)(x, y)]
    eager = [o.to_numpy() for o in f(Tensor(x), Tensor(y))]
    expected = [np.maximum(x, y), x.max(0, keepdims=True), x.min(1, keepdims=True),
                x.sum(-1, keepdims=True), x.argmax(0)[None]]
    for got in (compiled, eager):
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("opdef", REDUCE, ids=lambda o: o.python_name)
def test_reductions_round_trip_and_canonicalize(opdef):
    from mo import _context
    from mo._mlir import passmanager

    r = "si64" if opdef.python_name.startswith("arg") else "f32"
    text = (f"mo.graph @g(%x: !mo.tensor<[n, 4], f32>) -> !mo.tensor<[n, 1], {r}> {{\n"
            f"  %y = mo.{opdef.name} %x {{axis = 1 : i64}} : !mo.tensor<[n, 4], f32> -> "
            f"!mo.tensor<[n, 1], {r}>\n  mo.output %y : !mo.tensor<[n, 1], {r}>\n}}")
    text = text.replace("mo.graph @g(", "mo.graph @g<n>(")
    with _context.context():
        module = ir.Module.parse(text)
        pretty = str(module)
        assert f"mo.{opdef.name} %arg0 {{axis = 1 : i64}}" in pretty
        generic = module.operation.get_asm(print_generic_op_form=True)
        assert str(ir.Module.parse(generic)) == pretty
        buffer = io.BytesIO()
        module.operation.write_bytecode(buffer)
        assert str(ir.Module.parse(buffer.getvalue())) == pretty
        passmanager.PassManager.parse("builtin.module(canonicalize)").run(module.operation)
        assert f"mo.{opdef.name}" in str(module)


def _cumsum_reference(x, axis, exclusive, reverse):
    y = np.flip(x, axis) if reverse else x
    s = np.cumsum(y, axis=axis, dtype=x.dtype)
    if exclusive:
        s = s - y
    return np.flip(s, axis) if reverse else s


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("dtype", [DType.float32, DType.float64, DType.int32, DType.uint8],
                         ids=lambda d: d.name)
@pytest.mark.parametrize("axis", [0, -1])
def test_cumsum_matches_numpy(dtype, axis, exclusive, reverse):
    x = _reduce_input(dtype, (3, 5), np.random.default_rng(3))
    with Graph("scan", input_types=[tt(["n", 5], dtype)]) as g:
        g.output(ops.cumsum(g.inputs[0], axis=axis, exclusive=exclusive, reverse=reverse))
    assert g.outputs[0].type == tt(["n", 5], dtype)
    out = _run(g, x)
    _check(out, _cumsum_reference(x, axis, exclusive, reverse), dtype)


def test_cumsum_errors_and_eager():
    from mo import functional as F
    from mo.tensor import Tensor

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(F.cumsum(Tensor(x), axis=1).to_numpy(), np.cumsum(x, 1))
    with Graph("bad", input_types=[tt([2], DType.bool)]) as g:
        with pytest.raises(ValueError, match="cumsum is defined on floating-point or integer"):
            ops.cumsum(g.inputs[0])
        with pytest.raises(ValueError, match="axis 1 is out of range for a rank-1 tensor"):
            ops.cumsum(ops.cast(g.inputs[0], DType.int32), axis=1)
        g.output(g.inputs[0])


# -- ops without a numpy reference, special values, half-precision accuracy ------------


def _unary_run(name, x, dtype=DType.float32, **kwargs):
    with Graph(f"u_{name}", input_types=[tt(list(x.shape), dtype)]) as g:
        g.output(getattr(ops, name)(g.inputs[0], **kwargs))
    return _run(g, x)


@pytest.mark.parametrize("approximate", ["none", "tanh", "quick"])
def test_gelu_forms(approximate):
    import math

    x = np.linspace(-6, 6, 49).astype(np.float32)
    erf = np.vectorize(math.erf)
    expected = {
        "none": 0.5 * x * (1 + erf(x / math.sqrt(2))),
        "tanh": 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))),
        "quick": x / (1 + np.exp(-1.702 * x)),
    }[approximate]
    np.testing.assert_allclose(_unary_run("gelu", x, approximate=approximate), expected,
                               rtol=1e-5, atol=1e-6)
    with Graph("bad", input_types=[tt([2], DType.float32)]) as g:
        with pytest.raises(ValueError, match="approximate must be 'none', 'tanh' or 'quick'"):
            ops.gelu(g.inputs[0], approximate="fast")
        g.output(g.inputs[0])


def test_predicates_on_special_values():
    x = np.array([0.0, np.nan, np.inf, -np.inf, -1.5, 3.0], np.float32)
    np.testing.assert_array_equal(_unary_run("is_nan", x), np.isnan(x))
    np.testing.assert_array_equal(_unary_run("is_inf", x), np.isinf(x))
    b = np.array([True, False, True])
    np.testing.assert_array_equal(_unary_run("logical_not", b, DType.bool), ~b)


@pytest.mark.parametrize("name", ["log1p", "exp", "sigmoid", "silu", "tanh", "log"])
def test_half_precision_math_is_rounded_once_from_f32(name):
    # f16 math in f32 and rounded once is within 1 ulp of the exact result
    # (computing in f16 left log1p 59 ulps off near 0).
    x = np.concatenate([np.geomspace(1e-4, 0.5, 64), -np.geomspace(1e-4, 0.5, 64)])
    if name == "log":
        x = np.abs(x)
    x = x.astype(np.float16)
    exact = {
        "log1p": np.log1p, "exp": np.exp, "tanh": np.tanh, "log": np.log,
        "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "silu": lambda v: v / (1 + np.exp(-v)),
    }[name](x.astype(np.float64))
    out = _unary_run(name, x, DType.float16).astype(np.float64)
    ulp = np.spacing(np.abs(exact).astype(np.float16)).astype(np.float64)
    assert np.max(np.abs(out - exact) / ulp) <= 1.0


def test_negate_is_negative():
    np.testing.assert_array_equal(_unary_run("negate", np.array([1.0, -2.0], np.float32)),
                                  [-1.0, 2.0])


def test_where_broadcasts_promotes_and_runs_eager():
    from mo import compilation
    from mo import functional as F
    from mo.driver import CPU
    from mo.sharding import TensorLayout
    from mo.tensor import Tensor

    c = np.array([[True], [False], [True]])
    x = np.arange(12, dtype=np.float32).reshape(3, 4)

    def f(c, x):
        return (F.where(c, x, 0.5), F.select(x > 5.0, x, -x), F.clamp(x, 2.0, 9.0),
                F.clip(x, max=3.0))

    layouts = (TensorLayout(DType.bool, ["n", 1], CPU()),
               TensorLayout(DType.float32, ["n", 4], CPU()))
    expected = [np.where(c, x, np.float32(0.5)), np.where(x > 5, x, -x), np.clip(x, 2, 9),
                np.minimum(x, 3)]
    for got in ([o.to_numpy() for o in compilation.compile(f)(*layouts)(c, x)],
                [o.to_numpy() for o in f(Tensor(c), Tensor(x))]):
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype
            np.testing.assert_array_equal(g, e)
    with Graph("w", input_types=[tt([3], DType.int32), tt([3], DType.int32)]) as g:
        with pytest.raises(ValueError, match="condition must be a bool tensor, got int32"):
            ops.where(g.inputs[0], g.inputs[1], g.inputs[1])
        ints = ops.where(ops.greater(g.inputs[0], 1), g.inputs[1], 7)
        assert ints.dtype is DType.int32
        g.output(ints)
