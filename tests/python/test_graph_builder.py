"""mo.graph: the low-level builder (MAX ``max.graph`` style), layers and locations."""

import doctest
import inspect
import os

import mo.graph.graph
import mo.graph.ops
import numpy as np
import pytest
from mo.compiler import Executable
from mo.dtype import DType
from mo.graph import (
    BufferType,
    DeviceRef,
    Graph,
    TensorType,
    TensorValue,
    current_layer,
    layer,
    ops,
)

F32 = DType.float32
THIS_FILE = os.path.abspath(__file__)
BASENAME = os.path.basename(__file__)


def tt(shape, dtype=F32):
    return TensorType(dtype, shape, DeviceRef.CPU())


def here():
    """The caller's line number."""
    return inspect.currentframe().f_back.f_lineno


def run(graph, *inputs):
    exe = Executable(graph.module)
    outs = [np.empty([int(d) for d in v.shape] if all(d.is_static for d in v.shape) else
                     inputs[0].shape, v.dtype.to_numpy()) for v in graph.outputs]
    exe.run([np.ascontiguousarray(i) for i in inputs], [], outs)
    return outs


def op_locations(graph):
    """{op name: [str(location)]} of the ops in the graph's body."""
    found = {}
    body = graph._op.regions[0].blocks[0]
    for op in body.operations:
        found.setdefault(op.operation.name, []).append(str(op.location))
    return found


# -- building and printing ----------------------------------------------------------


def test_build_relu_graph_and_run():
    with Graph("relu", input_types=[tt(["n"])]) as g:
        g.output(ops.relu(g.inputs[0]))
    s = str(g)
    assert s == repr(g) == str(g.module)
    assert "mo.graph @relu<n>(%arg0: !mo.tensor<[n], f32>) -> !mo.tensor<[n], f32>" in s
    assert "mo.relu" in s
    g.verify()
    x = np.array([-1.0, 0.5, -0.0, 3.0], np.float32)
    (out,) = run(g, x)
    np.testing.assert_array_equal(out, np.maximum(x, 0))


def test_graph_inputs_and_outputs():
    with Graph("f", input_types=[tt(["n", 4]), tt([4], DType.float64), BufferType(F32, [2],
                                                                                 DeviceRef.CPU())]) as g:
        a, b, c = g.inputs
        assert isinstance(a, TensorValue) and isinstance(b, TensorValue)
        assert not isinstance(c, TensorValue)
        assert a.dtype is F32 and [str(d) for d in a.shape] == ["n", "4"]
        assert b.dtype is DType.float64 and a.rank == 2
        assert str(a.device) == "cpu:0"
        y = ops.relu(a * 2.0)
        assert [str(d) for d in y.shape] == ["n", "4"]
        g.output(y, b)
    assert len(g.outputs) == 2
    assert "!mo.buffer<[2], f32>" in str(g)


def test_graph_current_and_nesting():
    with pytest.raises(RuntimeError, match="no graph"):
        Graph.current()
    with Graph("outer") as g1:
        assert Graph.current() is g1
        with Graph("inner") as g2:
            assert Graph.current() is g2
        assert Graph.current() is g1
        g1.output(ops.constant(np.float32(1.0)))


def test_output_twice_is_error():
    with Graph("twice", input_types=[tt([2])]) as g:
        g.output(g.inputs[0])
        with pytest.raises(RuntimeError, match="already"):
            g.output(g.inputs[0])


def test_values_from_two_graphs_cannot_mix():
    with Graph("a", input_types=[tt([2])]) as ga:
        pass
    with Graph("b", input_types=[tt([2])]) as gb:
        with pytest.raises(ValueError, match="different graphs"):
            ops.add(ga.inputs[0], gb.inputs[0])


def test_invalid_graph_arguments():
    with pytest.raises(ValueError, match="symbol name"):
        Graph("a b")
    with pytest.raises(TypeError, match="input_types"):
        Graph("a", input_types=[3])


def test_constant_kinds():
    with Graph("consts") as g:
        a = ops.constant([1.0, 2.0], F32)
        b = ops.constant(np.arange(6, dtype=np.int32).reshape(2, 3))
        c = ops.constant(np.array(True))
        assert [str(d) for d in a.shape] == ["2"] and a.dtype is F32
        assert [int(d) for d in b.shape] == [2, 3] and b.dtype is DType.int32
        assert c.dtype is DType.bool and c.rank == 0
        g.output(a)
    g.verify()


def test_subgraph_and_call():
    with Graph("main", input_types=[tt([3])]) as g:
        sub = Graph("double", [tt([3])], parent=g)
        with sub:
            sub.output(sub.inputs[0] * 2.0)
        (r,) = ops.call(sub, g.inputs[0])
        (r2,) = ops.call(sub, r, prefix="p.")
        g.output(r2)
    s = str(g)
    assert s.count("mo.graph @double") == 1 and s.count("mo.call @double") == 2
    assert 'prefix = "p."' in s and "private" in s
    g.verify()
    (out,) = run(g, np.array([1, 2, 3], np.float32))
    np.testing.assert_array_equal(out, [4, 8, 12])


def test_reshape_symbolic_products():
    with Graph("r", input_types=[tt(["b", "s", 4])]) as g:
        b, s, _ = g.inputs[0].shape
        y = ops.reshape(g.inputs[0], [b * s, 4])
        z = ops.reshape(g.inputs[0], [-1])
        assert str(y.shape) == "[b * s, 4]"
        assert str(z.shape) == "[b * s * 4]"
        assert str(ops.reshape(g.inputs[0], ["b", -1]).shape) == "[b, s * 4]"
        with pytest.raises(ValueError, match="-1"):
            ops.reshape(g.inputs[0], [-1, 3])
        g.output(y)
    assert "!mo.tensor<[b * s, 4], f32>" in str(g)


# -- layers -------------------------------------------------------------------------------


def test_layers_nest_and_restore():
    assert current_layer() == ""
    with Graph.layer("foo"):
        assert current_layer() == "foo"
        with Graph.layer("bar"):
            assert current_layer() == "foo.bar"
            assert Graph.current_layer() == "foo.bar"
        assert current_layer() == "foo"
    assert current_layer() == ""


def test_layer_restored_after_exception():
    with pytest.raises(KeyError):
        with layer("a"):
            with layer("b"):
                raise KeyError("x")
    assert current_layer() == ""


def test_layer_yields_path_and_validates_name():
    with layer("enc") as p1, layer("attn") as p2:
        assert (p1, p2) == ("enc", "enc.attn")
    with pytest.raises(ValueError):
        with layer(""):
            pass
    with pytest.raises(ValueError):
        with layer(3):
            pass


def test_ops_carry_layer_path_and_user_line():
    with Graph("locs", input_types=[tt([3])]) as g:
        with Graph.layer("foo"):
            with Graph.layer("bar"):
                y = ops.relu(g.inputs[0]); relu_line = here()
        z = ops.exp(y); exp_line = here()
        g.output(z)
    asm = g.module.operation.get_asm(enable_debug_info=True)
    assert 'loc("foo.bar"(' in asm
    assert f'"{THIS_FILE}":{relu_line}:' in asm
    assert f'"{THIS_FILE}":{exp_line}:' in asm
    locs = op_locations(g)
    (relu_loc,) = locs["mo.relu"]
    assert relu_loc.startswith('loc("foo.bar"(')
    assert f'"{THIS_FILE}":{relu_line}:' in relu_loc
    (exp_loc,) = locs["mo.exp"]
    assert "foo" not in exp_loc and f":{exp_line}:" in exp_loc
    # The plain printout carries no debug info.
    assert "loc(" not in str(g)


def test_implicit_ops_inherit_layer_and_line():
    # A scalar operand becomes a mo.constant; it belongs to the same layer/line.
    with Graph("implicit", input_types=[tt([3])]) as g:
        with layer("blk"):
            y = g.inputs[0] * 2.0; line = here()
        g.output(y)
    locs = op_locations(g)
    for name in ("mo.constant", "mo.mul"):
        (loc,) = locs[name]
        assert loc.startswith('loc("blk"(') and f":{line}:" in loc, (name, loc)


def test_layer_locations_through_stage():
    from mo import compilation
    from mo import functional as F
    from mo.driver import CPU
    from mo.sharding import TensorLayout

    def f(x):
        with Graph.layer("model"):
            with Graph.layer("mlp"):
                return F.relu(x)

    line = inspect.getsourcelines(f)[1] + 3
    st = compilation.stage(f)(TensorLayout(F32, ["n"], CPU()))
    asm = st.graph.module.operation.get_asm(enable_debug_info=True)
    assert 'loc("model.mlp"(' in asm
    assert f'"{THIS_FILE}":{line}:' in asm


# -- op errors name op, inputs, layer path and file:line ----------------------------------


def test_broadcast_error_names_everything():
    with Graph("bad", input_types=[tt([3]), tt([4])]) as g:
        with Graph.layer("foo"):
            with Graph.layer("bar"):
                line = here() + 2
                with pytest.raises(ValueError) as e:
                    ops.add(g.inputs[0], g.inputs[1])
        msg = str(e.value)
        assert msg.startswith("add")
        assert "'foo.bar'" in msg
        assert f"{THIS_FILE}:{line}" in msg
        assert "float32[3]" in msg and "float32[4]" in msg
        # The failed op left nothing behind: the graph still finishes and verifies.
        g.output(g.inputs[0])
    g.verify()
    assert "mo.add" not in str(g)


def test_operator_error_points_at_user_line():
    with Graph("bad_op", input_types=[tt([3]), tt([4])]) as g:
        line = here() + 2
        with pytest.raises(ValueError) as e:
            g.inputs[0] + g.inputs[1]
        assert f"{BASENAME}:{line}" in str(e.value)
        assert "layer" not in str(e.value)  # outside any layer: no layer note


def test_unsafe_promotion_error_names_everything():
    with Graph("promo", input_types=[tt([3]), tt([3], DType.int32)]) as g:
        with layer("enc"):
            line = here() + 2
            with pytest.raises(ValueError) as e:
                ops.mul(g.inputs[0], g.inputs[1])
    msg = str(e.value)
    assert msg.startswith("mul") and "'enc'" in msg
    assert "float32" in msg and "int32" in msg and "promotion" in msg
    assert f"{THIS_FILE}:{line}" in msg
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("build, op", [
    (lambda g: ops.matmul(g.inputs[0], g.inputs[0]), "matmul"),
    (lambda g: ops.reshape(g.inputs[0], [4]), "reshape"),
    (lambda g: ops.reshape(g.inputs[0], [-1, -1]), "reshape"),
    (lambda g: ops.sqrt(g.inputs[1]), "sqrt"),
    (lambda g: ops.matmul(ops.reshape(g.inputs[0], [1, 3]), ops.reshape(g.inputs[0], [1, 3])),
     "matmul"),
])
def test_op_errors(build, op):
    with Graph("errs", input_types=[tt([3]), tt([3], DType.int32)]) as g:
        with layer("L"):
            with pytest.raises(ValueError) as e:
                build(g)
    msg = str(e.value)
    assert msg.startswith(op) and "'L'" in msg and BASENAME in msg and "inputs:" in msg


def test_ops_reject_non_values():
    with Graph("nv", input_types=[tt([3])]):
        with pytest.raises(TypeError):
            ops.relu("x")
        with pytest.raises(TypeError):
            ops.add(1, 2)


def test_doctests():
    assert doctest.testmod(mo.graph.graph).failed == 0
    assert doctest.testmod(mo.graph.ops).failed == 0
