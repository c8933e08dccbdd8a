"""mo.sharding (layouts, as_layout, call-time matching) and mo.graph.type."""

import doctest
import os
import subprocess
import sys

import numpy as np
import pytest

import mo.graph.type
import mo.sharding
from mo.driver import CPU, GPU, Buffer
from mo.dtype import DType
from mo.graph.dim import Dim
from mo.graph.type import BufferType, DeviceRef, TensorType
from mo.sharding import (
    BufferLayout,
    DeviceMapping,
    DeviceMesh,
    DimBindings,
    Placement,
    Replicated,
    Sharded,
    TensorLayout,
    as_layout,
)

F32 = DType.float32
MAPPING = "DeviceMapping(DeviceMesh(_=1), [Replicated()])"


# -- mesh, placements, mapping -------------------------------------------------


def test_mesh():
    m = DeviceMesh(CPU())
    assert repr(m) == "DeviceMesh(_=1)"
    assert m.devices == (CPU(),) and m.device == CPU()
    assert m.mesh_shape == (1,) and m.axis_names == ("_",) and m.num_devices == 1
    assert DeviceMesh([GPU(1)]).device == GPU(1)
    assert DeviceMesh(DeviceRef.GPU(2)).device == GPU(2)
    assert DeviceMesh().device == CPU()
    assert m == DeviceMesh([CPU()]) and hash(m) == hash(DeviceMesh([CPU()]))
    assert m != DeviceMesh(GPU(0))


def test_mesh_errors():
    with pytest.raises(NotImplementedError) as e:
        DeviceMesh([GPU(0), GPU(1)])
    assert str(e.value) == (
        "multi-device sharding is out of scope: mo compiles for one device, so a layout's "
        "mapping is one device with a Replicated() placement; got a mesh of 2 devices"
    )
    with pytest.raises(ValueError, match=r"^a DeviceMesh needs a device$"):
        DeviceMesh([])
    with pytest.raises(TypeError, match=r"expected a device or a sequence of devices, got int"):
        DeviceMesh(3)
    with pytest.raises(TypeError, match=r"expected a device or a sequence of devices, got str 'cpu'"):
        DeviceMesh("cpu")
    with pytest.raises(TypeError, match=r"expected a device \(CPU\(\), GPU\(id\) or a DeviceRef\), got str"):
        DeviceMesh(["cpu"])


def test_placements():
    assert repr(Replicated()) == "Replicated()" and Replicated() == Replicated()
    assert hash(Replicated()) == hash(Replicated())
    assert repr(Sharded(1)) == "Sharded(axis=1)" and Sharded(1) == Sharded(1) != Sharded(0)
    assert Sharded(0).axis == 0
    assert Replicated() != Sharded(0)
    with pytest.raises(TypeError, match=r"Sharded axis must be an int, got str"):
        Sharded("0")


def test_mapping():
    m = DeviceMapping(DeviceMesh(CPU()), [Replicated()])
    assert repr(m) == MAPPING
    assert m.mesh == DeviceMesh(CPU()) and m.placements == (Replicated(),) and m.device == CPU()
    assert m == DeviceMapping(DeviceMesh(CPU()))
    assert hash(m) == hash(DeviceMapping(DeviceMesh(CPU())))


def test_mapping_errors():
    with pytest.raises(NotImplementedError) as e:
        DeviceMapping(DeviceMesh(CPU()), [Sharded(0)])
    assert str(e.value) == (
        "multi-device sharding is out of scope: mo compiles for one device, so a layout's "
        "mapping is one device with a Replicated() placement; got Sharded(axis=0)"
    )
    with pytest.raises(ValueError, match=r"a DeviceMapping needs one placement per mesh axis "
                                         r"\(1\), got 2"):
        DeviceMapping(DeviceMesh(CPU()), [Replicated(), Replicated()])
    with pytest.raises(TypeError, match=r"placements must be Replicated\(\) or Sharded\(axis\), got str"):
        DeviceMapping(DeviceMesh(CPU()), ["R"])
    with pytest.raises(TypeError, match=r"placements must be Replicated\(\) or Sharded\(axis\), got Placement"):
        DeviceMapping(DeviceMesh(CPU()), [Placement()])
    with pytest.raises(TypeError, match=r"mesh must be a DeviceMesh, got CPU"):
        DeviceMapping(CPU())


# -- layouts -------------------------------------------------------------------


def test_tensor_layout_repr_is_maxs():
    t = TensorLayout(F32, ["batch", 2], CPU())
    assert repr(t) == f"TensorLayout(DType.float32, [batch, 2], {MAPPING})"
    b = BufferLayout(F32, [4], CPU())
    assert repr(b) == f"BufferLayout(DType.float32, [4], {MAPPING})"
    ab = TensorLayout(F32, [Dim("batch") * Dim("seq"), 4], CPU())
    assert repr(ab) == f"TensorLayout(DType.float32, [batch * seq, 4], {MAPPING})"


def test_tensor_layout_fields():
    t = TensorLayout(F32, ["batch", 2, np.int64(3)], CPU())
    assert t.dtype is F32
    assert t.shape == ["batch", 2, 3] and all(isinstance(d, Dim) for d in t.shape)
    assert t.dims == (Dim("batch"), Dim(2), Dim(3))
    assert t.rank == 3 and t.device == CPU() and t.symbols == {"batch"}
    assert t.mapping == DeviceMapping(DeviceMesh(CPU()))
    assert t.mesh == DeviceMesh(CPU()) and t.placements == (Replicated(),)
    assert not t.is_buffer and BufferLayout(F32, [1], CPU()).is_buffer
    t.shape.append(Dim(9))  # a fresh copy each time
    assert t.rank == 3


def test_layout_device_forms():
    want = TensorLayout(F32, [2], GPU(1))
    assert want.device == GPU(1)
    assert TensorLayout(F32, [2], DeviceRef.GPU(1)) == want
    assert TensorLayout(F32, [2], DeviceMesh([GPU(1)])) == want
    assert TensorLayout(F32, [2], DeviceMapping(DeviceMesh(GPU(1)), [Replicated()])) == want
    assert TensorLayout(F32, [2]).device == CPU()


def test_layout_equality_and_hash():
    a = TensorLayout(F32, ["batch", 2], CPU())
    assert a == TensorLayout(F32, [Dim("batch"), 2], CPU())
    assert hash(a) == hash(TensorLayout(F32, ["batch", 2], CPU()))
    assert a != TensorLayout(DType.float64, ["batch", 2], CPU())
    assert a != TensorLayout(F32, ["b", 2], CPU())
    assert a != TensorLayout(F32, ["batch", 2], GPU(0))
    assert a != a.as_buffer() and a.as_buffer() != a  # MAX: BufferLayout != TensorLayout
    assert a.as_buffer().as_tensor() == a
    assert type(a.as_buffer()) is BufferLayout and type(a.as_buffer().as_tensor()) is TensorLayout
    assert len({a, a.as_buffer(), TensorLayout(F32, ["batch", 2], CPU())}) == 2


def test_layout_immutable():
    with pytest.raises(AttributeError, match="TensorLayout is immutable"):
        TensorLayout(F32, [2], CPU())._dtype = DType.int8


def test_layout_errors():
    with pytest.raises(ValueError, match=r"^negative dims are not allowed: -1$"):
        TensorLayout(F32, [-1, 2], CPU())
    with pytest.raises(ValueError) as e:
        TensorLayout(F32, ["a*2"], CPU())
    assert str(e.value) == (
        "invalid name for a symbolic dim: 'a*2'; it must match ^[A-Za-z_]\\w*$ "
        "(a letter or _, then letters, digits or _)"
    )
    with pytest.raises(TypeError, match=r"dtype must be a DType, got str 'float32'"):
        TensorLayout("float32", [2], CPU())
    with pytest.raises(TypeError, match=r"a shape is a list of dims \(ints, strs or Dims\), got str 'batch'"):
        TensorLayout(F32, "batch", CPU())
    with pytest.raises(TypeError, match=r"a dim is an int \(static size\), a str \(symbolic name\) or "
                                        r"a Dim, got float 2.0"):
        TensorLayout(F32, [2.0], CPU())
    with pytest.raises(TypeError, match=r"expected a device \(CPU\(\), GPU\(id\), a DeviceRef, a "
                                        r"DeviceMesh or a DeviceMapping\), got str"):
        TensorLayout(F32, [2], "cpu")
    with pytest.raises(NotImplementedError, match="multi-device sharding is out of scope"):
        TensorLayout(F32, [2], DeviceMesh([CPU(), GPU(0)]))


def test_to_type():
    t = TensorLayout(F32, ["n"], GPU(1)).to_type()
    assert t == TensorType(F32, ["n"], DeviceRef.GPU(1))
    b = BufferLayout(F32, [3], CPU()).to_type()
    assert b == BufferType(F32, [3], DeviceRef.CPU())


# -- as_layout -----------------------------------------------------------------


def test_as_layout_passthrough_and_types():
    t = TensorLayout(F32, ["batch", 2], CPU())
    assert as_layout(t) is t
    b = BufferLayout(F32, [4], CPU())
    assert as_layout(b) is b
    assert as_layout(TensorType(F32, [4, 2], DeviceRef.CPU())) == TensorLayout(F32, [4, 2], CPU())
    got = as_layout(BufferType(F32, [4], DeviceRef.CPU()))
    assert got == BufferLayout(F32, [4], CPU()) and type(got) is BufferLayout
    assert repr(got) == f"BufferLayout(DType.float32, [4], {MAPPING})"


def test_as_layout_numpy_array():
    with pytest.raises(TypeError) as e:
        as_layout(np.ones([4, 2], np.float32))
    assert str(e.value) == (
        "expected a layout spec (TensorLayout, BufferLayout, TensorType or BufferType), got "
        "numpy.ndarray; describe it with TensorLayout(DType.from_numpy(a.dtype), list(a.shape), "
        "CPU())"
    )


def test_as_layout_dlpack_object():
    with pytest.raises(TypeError) as e:
        as_layout(Buffer.zeros([2], F32))
    assert str(e.value) == (
        "expected a layout spec (TensorLayout, BufferLayout, TensorType or BufferType), got "
        "mo.driver.Buffer; describe it with TensorLayout(dtype, list(shape), device)"
    )


class Tensor:
    """A stand-in live tensor: it has a .layout."""

    @property
    def layout(self):
        return TensorLayout(F32, [4, 2], CPU())


def test_as_layout_live_tensor():
    with pytest.raises(TypeError) as e:
        as_layout(Tensor())
    assert str(e.value) == (
        "expected a layout spec (TensorLayout, BufferLayout, TensorType or BufferType), got a "
        "live Tensor; pass tensor.layout instead (its dims would all be frozen)"
    )
    assert as_layout(Tensor().layout) == TensorLayout(F32, [4, 2], CPU())


def test_as_layout_other():
    for value, name in [(3, "int"), (3.0, "float"), (None, "NoneType"), ([2], "list"),
                        (DeviceRef.CPU(), "mo.graph.type.DeviceRef")]:
        with pytest.raises(TypeError) as e:
            as_layout(value)
        assert str(e.value) == (
            "expected a layout spec (TensorLayout, BufferLayout, TensorType or BufferType), "
            f"got {name}"
        )


def test_as_layout_layout_attribute_that_raises():
    class Weird:
        @property
        def layout(self):
            raise RuntimeError("boom")

    with pytest.raises(TypeError, match=r"got test_sharding.test_as_layout_layout_attribute_that_raises"):
        as_layout(Weird())


def fresh_python(code: str) -> str:
    """What ``code`` prints in a new interpreter that imports this mo."""
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(mo.sharding.__file__)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env)
    return out.stdout.strip()


def test_sharding_does_not_import_graph_package():
    """sharding needs no graph builder (whose __init__ may load native code)."""
    code = (
        "import sys; import mo.sharding, mo.driver, mo.dtype, mo._pytree, mo.graph.dim, "
        "mo.graph.type; print(sorted(m for m in sys.modules if m.startswith('mo._mlir')))"
    )
    assert fresh_python(code) == "[]"


def test_layouts_build_on_types():
    """A layout is a graph type plus a mapping; mo.graph.type never imports mo.sharding."""
    assert fresh_python("import sys, mo.graph.type; print('mo.sharding' in sys.modules)") == "False"
    t = TensorLayout(F32, ["batch", 2], GPU(1))
    assert t.to_type() is t.to_type() and t.to_type() == TensorType(F32, ["batch", 2], GPU(1))
    assert t.to_type().dims == t.dims == (Dim("batch"), Dim(2))
    assert type(t.as_buffer().to_type()) is BufferType


# -- matches -------------------------------------------------------------------

SPEC = TensorLayout(F32, ["batch", 2], CPU())


def test_matches_ok_and_binds():
    b = DimBindings()
    assert SPEC.matches((4, 2), F32, CPU(), b, argument=0) is None
    assert dict(b) == {"batch": 4} and b.sources == {"batch": ("0", 0)}
    assert SPEC.matches([4, 2], F32, CPU(), b, argument=1) is None
    assert SPEC.matches((0, 2), F32, CPU()) is None  # batch 0 is fine


def test_matches_spec_message():
    msg = SPEC.matches((4, 2), DType.float64, CPU(), DimBindings(), argument=0)
    assert msg == (
        "argument 0: expected float32 shape [batch, 2] on cpu:0, got float64 shape [4, 2] on cpu:0"
    )


@pytest.mark.parametrize(
    "shape,dtype,device,got",
    [
        ((4, 3), F32, CPU(), "float32 shape [4, 3] on cpu:0"),
        ((8,), F32, CPU(), "float32 shape [8] on cpu:0"),
        ((4, 2), F32, GPU(0), "float32 shape [4, 2] on gpu:0"),
        ((4, 2, 1), DType.int8, CPU(), "int8 shape [4, 2, 1] on cpu:0"),
    ],
)
def test_matches_mismatches(shape, dtype, device, got):
    b = DimBindings()
    msg = SPEC.matches(shape, dtype, device, b, argument="0.a")
    assert msg == f"argument 0.a: expected float32 shape [batch, 2] on cpu:0, got {got}"
    assert dict(b) == {}  # nothing bound on failure


def test_matches_conflict_between_arguments():
    b = DimBindings()
    assert SPEC.matches((4, 2), F32, CPU(), b, argument=0) is None
    assert SPEC.matches((7, 2), F32, CPU(), b, argument=1) == (
        "dim 'batch' is 4 in argument 0 but 7 in argument 1"
    )
    other = TensorLayout(DType.int64, [3, "batch"], CPU())
    assert other.matches((3, 5), DType.int64, CPU(), b, argument="1.mask") == (
        "dim 'batch' is 4 in argument 0 but 5 in argument 1.mask"
    )
    assert other.matches((3, 4), DType.int64, CPU(), b, argument="1.mask") is None


def test_matches_conflict_within_an_argument():
    sq = TensorLayout(F32, ["n", "n"], CPU())
    b = DimBindings()
    assert sq.matches((3, 4), F32, CPU(), b, argument=2) == (
        "dim 'n' is 3 at axis 0 but 4 at axis 1 of argument 2"
    )
    assert dict(b) == {}
    assert sq.matches((3, 3), F32, CPU(), b, argument=2) is None


def test_matches_with_plain_dict():
    b = {"batch": 4}
    assert SPEC.matches((5, 2), F32, CPU(), b, argument=3) == (
        "dim 'batch' is 4 in an earlier argument but 5 in argument 3"
    )
    assert SPEC.matches((4, 2), F32, CPU(), b) is None


def test_matches_partial_failure_binds_nothing():
    two = TensorLayout(F32, ["a", "b", 2], CPU())
    b = DimBindings()
    assert two.matches((1, 2, 3), F32, CPU(), b) is not None
    assert dict(b) == {} and b.sources == {}


def test_matches_algebraic_dims():
    spec = TensorLayout(F32, ["n", Dim("n") + 1], CPU())
    b = DimBindings()
    assert spec.matches((3, 4), F32, CPU(), b) is None
    assert spec.matches((3, 5), F32, CPU(), DimBindings(), argument=1) == (
        "argument 1: expected float32 shape [n, n + 1] on cpu:0, got float32 shape [3, 5] on "
        "cpu:0 (dim 1 is n + 1 = 4 with n=3)"
    )
    # A symbol bound by an earlier argument is used too.
    later = TensorLayout(F32, [Dim("n") * 2], CPU())
    assert later.matches((6,), F32, CPU(), b, argument=1) is None
    assert later.matches((7,), F32, CPU(), b, argument=1) == (
        "argument 1: expected float32 shape [n * 2] on cpu:0, got float32 shape [7] on cpu:0 "
        "(dim 0 is n * 2 = 6 with n=3)"
    )
    # Unbound symbols: left to the runtime.
    assert TensorLayout(F32, [Dim("m") * 2], CPU()).matches((7,), F32, CPU()) is None
    neg = TensorLayout(F32, ["a", "b", Dim("a") - Dim("b")], CPU())
    assert neg.matches((1, 2, 0), F32, CPU(), argument=0) == (
        "argument 0: expected float32 shape [a, b, a - b] on cpu:0, got float32 shape [1, 2, 0] "
        "on cpu:0 (dim a - b is negative (-1) with a=1, b=2)"
    )


def test_buffer_layout_matches_extents_too():
    b = BufferLayout(F32, [4], CPU())
    assert b.matches((6,), F32, CPU(), argument=0) == (
        "argument 0: expected float32 shape [4] on cpu:0, got float32 shape [6] on cpu:0"
    )


# -- graph.type ----------------------------------------------------------------


def test_device_ref():
    c, g = DeviceRef.CPU(), DeviceRef.GPU(1)
    assert str(c) == "cpu:0" and str(g) == "gpu:1"
    assert repr(c) == "DeviceRef.CPU()" and repr(g) == "DeviceRef.GPU(1)"
    assert repr(DeviceRef.CPU(1)) == "DeviceRef.CPU(1)"
    assert c.is_cpu() and not c.is_gpu() and g.is_gpu()
    assert c.label == c.device_type == "cpu" and g.id == 1
    assert c.to_device() == CPU() and g.to_device() == GPU(1)
    assert DeviceRef.from_device(GPU(1)) == g and DeviceRef.from_device(g) is g
    assert DeviceRef("gpu", 1) == g and hash(DeviceRef("gpu", 1)) == hash(g)
    assert c != CPU()  # a reference is not a driver device; convert explicitly
    with pytest.raises(TypeError, match=r"expected a Device \(CPU\(\), GPU\(id\)\) or a DeviceRef, got str"):
        DeviceRef.from_device("cpu")
    with pytest.raises(ValueError, match=r"device id must be non-negative, got -2"):
        DeviceRef.GPU(-2)
    with pytest.raises(AttributeError, match="DeviceRef is immutable"):
        c._id = 3


def test_tensor_type():
    t = TensorType(F32, ["batch", 2], DeviceRef.CPU())
    assert repr(t) == "TensorType(dtype=float32, shape=[Dim('batch'), Dim(2)], device=cpu:0)"
    assert t.rank == 2 and t.dtype is F32 and t.shape == ["batch", 2] and t.device == DeviceRef.CPU()
    assert t.symbols == {"batch"}
    assert t == TensorType(F32, ["batch", 2]) and hash(t) == hash(TensorType(F32, ["batch", 2]))
    assert TensorType(F32, [2], CPU()).device == DeviceRef.CPU()
    assert TensorType(F32, [2], GPU(3)).device == DeviceRef.GPU(3)
    assert t.to_layout() == TensorLayout(F32, ["batch", 2], CPU())
    assert t.as_buffer() == BufferType(F32, ["batch", 2])
    assert t != t.as_buffer() and t.as_buffer().as_tensor() == t


def test_buffer_type():
    b = BufferType(DType.uint8, [4], DeviceRef.GPU(0))
    assert repr(b) == "BufferType(dtype=uint8, shape=[Dim(4)], device=gpu:0)"
    assert b.to_layout() == BufferLayout(DType.uint8, [4], GPU(0))
    assert type(b.to_layout()) is BufferLayout


def test_graph_type_errors():
    with pytest.raises(TypeError, match=r"dtype must be a DType, got type"):
        TensorType(np.float32, [2])
    with pytest.raises(ValueError, match=r"negative dims are not allowed: -4"):
        BufferType(F32, [-4])
    with pytest.raises(TypeError, match=r"expected a Device \(CPU\(\), GPU\(id\)\) or a DeviceRef, got str"):
        TensorType(F32, [2], "gpu:0")
    with pytest.raises(AttributeError, match="TensorType is immutable"):
        TensorType(F32, [2])._dtype = F32


def test_doctests():
    assert doctest.testmod(mo.sharding).failed == 0
    assert doctest.testmod(mo.graph.type).failed == 0


def test_pickle_and_copy():
    import copy
    import pickle

    values = [
        TensorLayout(F32, ["batch", Dim("s") + 1], GPU(1)),
        BufferLayout(DType.int8, [4], CPU()),
        DeviceMesh(CPU()),
        DeviceMapping(DeviceMesh(GPU(0))),
        Replicated(),
        Sharded(2),
        DeviceRef.GPU(3),
        TensorType(F32, ["n"], DeviceRef.GPU(0)),
        BufferType(F32, [2]),
    ]
    for v in values:
        for clone in (pickle.loads(pickle.dumps(v)), copy.deepcopy(v), copy.copy(v)):
            assert clone == v and type(clone) is type(v) and repr(clone) == repr(v)
