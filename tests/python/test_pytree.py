"""mo._pytree: flatten/unflatten/check with MAX's TreeDef repr and messages."""

import doctest
import math
from typing import NamedTuple

import numpy as np
import pytest

import mo._pytree
from mo._pytree import LEAF, TreeDef, flatten, unflatten


class T:
    """A stand-in tensor."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"T({self.name!r})"


def is_leaf(x):
    return isinstance(x, T)


LEAF_REPR = "TreeDef(kind='leaf', children=(), keys=(), meta=None)"


def test_max_in_tree_repr_step():
    """compile(step)(x_spec, gain=3.0): MAX's in_tree, verbatim."""
    leaves, td = flatten(((T("x"),), {"gain": 3.0}), is_leaf)
    assert [t.name for t in leaves] == ["x"]
    assert repr(td) == (
        "TreeDef(kind='tuple', children=(TreeDef(kind='tuple', children=(TreeDef(kind='leaf', "
        "children=(), keys=(), meta=None),), keys=(), meta=None), TreeDef(kind='dict', "
        "children=(TreeDef(kind='static', children=(), keys=(), meta=3.0),), keys=('gain',), "
        "meta=None)), keys=(), meta=None)"
    )
    assert repr(LEAF) == LEAF_REPR


def test_max_in_tree_repr_combine():
    """stage(combine)({'a': x, 'b': x}, 2.0): MAX's in_tree and leaf_paths, verbatim."""
    leaves, td = flatten((({"a": T("a"), "b": T("b")}, 2.0), {}), is_leaf)
    assert repr(td) == (
        "TreeDef(kind='tuple', children=(TreeDef(kind='tuple', children=(TreeDef(kind='dict', "
        "children=(TreeDef(kind='leaf', children=(), keys=(), meta=None), TreeDef(kind='leaf', "
        "children=(), keys=(), meta=None)), keys=('a', 'b'), meta=None), TreeDef(kind='static', "
        "children=(), keys=(), meta=2.0)), keys=(), meta=None), TreeDef(kind='dict', "
        "children=(), keys=(), meta=None)), keys=(), meta=None)"
    )
    assert td.leaf_paths == ("0.0.a", "0.0.b")
    assert td.num_leaves == 2


def test_dict_keys_sorted():
    leaves, td = flatten((({"b": T("B"), "a": T("A")},), {}), is_leaf)
    assert [t.name for t in leaves] == ["A", "B"]
    assert td.leaf_paths == ("0.0.a", "0.0.b")
    assert unflatten(td, ["x", "y"]) == (({"a": "x", "b": "y"},), {})


def test_round_trip_nested():
    tree = ((T(0), [T(1), None, "s", (T(2), 3)], {"k": {"z": T(3), "y": 1.5}}), {"flag": True})
    leaves, td = flatten(tree, is_leaf)
    assert [t.name for t in leaves] == [0, 1, 2, 3]
    assert td.leaf_paths == ("0.0", "0.1.0", "0.1.3.0", "0.2.k.z")
    rebuilt = unflatten(td, leaves)
    assert rebuilt == tree
    assert type(rebuilt[0][1]) is list and type(rebuilt[0][1][3]) is tuple


def test_none_is_static():
    leaves, td = flatten(None, is_leaf)
    assert leaves == [] and td == TreeDef("static", meta=None)
    assert repr(td) == "TreeDef(kind='static', children=(), keys=(), meta=None)"
    assert unflatten(td, []) is None


def test_leaf_root():
    leaves, td = flatten(T("x"), is_leaf)
    assert td == LEAF and td.leaf_paths == ("",) and td.num_leaves == 1


def test_is_leaf_before_containers():
    leaves, td = flatten(([1, 2], (3,)), lambda x: isinstance(x, list))
    assert leaves == [[1, 2]]
    assert td.children[0] == LEAF


def test_namedtuple():
    class P(NamedTuple):
        x: object
        y: object

    tree = ((P(T("a"), (T("b"), 2)),), {})
    leaves, td = flatten(tree, is_leaf)
    assert td.leaf_paths == ("0.0.x", "0.0.y.0")
    node = td.children[0].children[0]
    assert node.kind == "namedtuple" and node.meta is P and node.keys == ("x", "y")
    rebuilt = unflatten(td, ["A", "B"])
    assert type(rebuilt[0][0]) is P and rebuilt[0][0] == P("A", ("B", 2))
    with pytest.raises(ValueError, match=r"tree structure mismatch at '0.0': expected "
                                         r"test_namedtuple.<locals>.P of 2 items, got tuple of 2 items"):
        td.check(((("A", ("B", 2)),), {}), is_leaf)


def test_dict_subclass_is_a_dict():
    from collections import OrderedDict

    leaves, td = flatten(OrderedDict(b=T(1), a=T(0)), is_leaf)
    assert td.kind == "dict" and td.keys == ("a", "b")
    assert type(unflatten(td, [1, 2])) is dict


def test_empty_containers():
    leaves, td = flatten(((), [], {}), is_leaf)
    assert leaves == [] and td.num_leaves == 0
    assert unflatten(td, []) == ((), [], {})


# -- static values ---------------------------------------------------------------


def test_unhashable_static():
    with pytest.raises(TypeError) as e:
        flatten(((T("x"),), {"opts": {1, 2}}), is_leaf)
    assert str(e.value) == (
        "static argument at '1.opts' is unhashable (set); pass hashable values "
        "(tuples, numbers, strings)"
    )


def test_unhashable_static_object():
    class Opts:
        __hash__ = None

    with pytest.raises(TypeError) as e:
        flatten(((Opts(),), {}), is_leaf)
    assert str(e.value) == (
        "static argument at '0.0' is unhashable (test_pytree.test_unhashable_static_object."
        "<locals>.Opts); pass hashable values (tuples, numbers, strings)"
    )


def test_unhashable_static_at_root():
    with pytest.raises(TypeError, match=r"^static argument at the root is unhashable \(bytearray\)"):
        flatten(bytearray(b"x"), is_leaf)


def test_arrays_are_never_static():
    with pytest.raises(TypeError) as e:
        flatten(((np.ones(2),), {}), is_leaf)
    assert str(e.value) == (
        "the value at '0.0' is an array (numpy.ndarray), which cannot be a static argument; "
        "pass it as a tensor"
    )

    class Hashable:
        def __dlpack__(self):
            pass

    with pytest.raises(TypeError, match=r"the value at '1.w' is an array \(test_pytree\."):
        flatten(((), {"w": Hashable()}), is_leaf)
    # ... unless is_leaf takes them.
    leaves, td = flatten(((np.ones(2),), {}), lambda x: isinstance(x, np.ndarray))
    assert len(leaves) == 1 and td.leaf_paths == ("0.0",)


def test_unsortable_keys():
    with pytest.raises(TypeError) as e:
        flatten(((), {"d": {1: T(0), "a": T(1)}}), is_leaf)
    assert str(e.value) == (
        "the keys of the dict at '1.d' cannot be sorted (int, str); use keys of one type"
    )


def test_int_keys_sorted_numerically():
    _, td = flatten({10: T(0), 9: T(1)}, is_leaf)
    assert td.keys == (9, 10) and td.leaf_paths == ("9", "10")


# -- check -----------------------------------------------------------------------


@pytest.fixture
def step_tree():
    return flatten(((T("x"),), {"gain": 3.0}), is_leaf)[1]


def test_check_returns_leaves(step_tree):
    assert step_tree.check(((T("y"),), {"gain": 3.0}), is_leaf)[0].name == "y"


def test_check_takes_anything_at_a_leaf(step_tree):
    # The caller checks types and reports "argument 0: expected a Tensor or Buffer, got list".
    assert step_tree.check((([[1.0, 2.0]],), {"gain": 3.0}), is_leaf) == [[[1.0, 2.0]]]


def test_check_static_mismatch(step_tree):
    with pytest.raises(ValueError) as e:
        step_tree.check(((T("y"),), {"gain": 4.0}), is_leaf)
    assert str(e.value) == "tree structure mismatch at '1.gain': expected 3.0, got 4.0"


def test_check_missing_kwarg(step_tree):
    with pytest.raises(ValueError) as e:
        step_tree.check(((T("y"),), {}), is_leaf)
    assert str(e.value) == "tree structure mismatch at '1': expected keys ['gain'], got []"


def test_check_extra_positional(step_tree):
    with pytest.raises(ValueError) as e:
        step_tree.check(((T("y"), T("z")), {"gain": 3.0}), is_leaf)
    assert str(e.value) == "tree structure mismatch at '0': expected keys [0], got [0, 1]"


def test_check_combine_messages():
    _, td = flatten((({"a": T("a"), "b": T("b")}, 2.0), {}), is_leaf)
    with pytest.raises(ValueError) as e:
        td.check((({"a": T(1), "b": T(2)}, 3.0), {}), is_leaf)
    assert str(e.value) == "tree structure mismatch at '0.1': expected 2.0, got 3.0"
    with pytest.raises(ValueError) as e:
        td.check((({"a": T(1)}, 2.0), {}), is_leaf)
    assert str(e.value) == "tree structure mismatch at '0.0': expected keys ['a', 'b'], got ['a']"


def test_check_kind_mismatch():
    _, td = flatten(((T(0), T(1)),), is_leaf)
    with pytest.raises(ValueError) as e:
        td.check(([T(0), T(1), T(2)],), is_leaf)
    assert str(e.value) == "tree structure mismatch at '0': expected tuple of 2 items, got list of 3 items"
    with pytest.raises(ValueError) as e:
        td.check((5,), is_leaf)
    assert str(e.value) == "tree structure mismatch at '0': expected tuple of 2 items, got 5 (int)"
    with pytest.raises(ValueError) as e:
        td.check(({"a": 1},), is_leaf)
    assert str(e.value) == (
        "tree structure mismatch at '0': expected tuple of 2 items, got dict with keys ['a']"
    )
    with pytest.raises(ValueError) as e:
        td.check((T(9),), is_leaf)
    assert str(e.value) == (
        "tree structure mismatch at '0': expected tuple of 2 items, got a tensor (test_pytree.T)"
    )
    _, dtd = flatten({"k": T(0)}, is_leaf)
    with pytest.raises(ValueError) as e:
        dtd.check([T(0)], is_leaf)
    assert str(e.value) == "tree structure mismatch at the root: expected dict of 1 items, got list of 1 items"


def test_check_list_length():
    _, td = flatten([T(0), T(1)], is_leaf)
    with pytest.raises(ValueError) as e:
        td.check([T(0)], is_leaf)
    assert str(e.value) == "tree structure mismatch at the root: expected keys [0, 1], got [0]"


def test_check_static_strictness():
    _, td = flatten((3.0, 1, True, None, "relu", -0.0, float("nan")), is_leaf)
    assert td.check((3.0, 1, True, None, "relu", -0.0, float("nan")), is_leaf) == []
    cases = [
        ((3, 1, True, None, "relu", -0.0, math.nan), "at '0': expected 3.0 (float), got 3 (int)"),
        ((3.0, True, True, None, "relu", -0.0, math.nan), "at '1': expected 1 (int), got True (bool)"),
        ((3.0, 1, 1, None, "relu", -0.0, math.nan), "at '2': expected True (bool), got 1 (int)"),
        ((3.0, 1, True, 0, "relu", -0.0, math.nan), "at '3': expected None, got 0"),
        ((3.0, 1, True, None, "gelu", -0.0, math.nan), "at '4': expected 'relu', got 'gelu'"),
        ((3.0, 1, True, None, "relu", 0.0, math.nan), "at '5': expected -0.0, got 0.0"),
        ((3.0, 1, True, None, "relu", -0.0, 1.0), "at '6': expected nan, got 1.0"),
        ((3.0, 1, True, None, "relu", -0.0, (1,)), "at '6': expected nan, got (1,)"),
    ]
    for tree, msg in cases:
        with pytest.raises(ValueError) as e:
            td.check(tree, is_leaf)
        assert str(e.value) == f"tree structure mismatch {msg}"


def test_check_tensor_at_static_position(step_tree):
    with pytest.raises(ValueError) as e:
        step_tree.check(((T("y"),), {"gain": T("g")}), is_leaf)
    assert str(e.value) == (
        "tree structure mismatch at '1.gain': expected 3.0, got a tensor (test_pytree.T)"
    )


def test_check_array_at_static_position():
    _, td = flatten((3.0,), is_leaf)
    with pytest.raises(ValueError) as e:
        td.check((np.ones(2),), is_leaf)
    assert str(e.value) == "tree structure mismatch at '0': expected 3.0, got array([1., 1.])"


# -- TreeDef itself ----------------------------------------------------------------


def test_treedef_equality_and_hash():
    _, a = flatten(((T(0),), {"gain": 3.0}), is_leaf)
    _, b = flatten(((T(1),), {"gain": 3.0}), is_leaf)
    _, c = flatten(((T(1),), {"gain": 3}), is_leaf)
    _, d = flatten(((T(1),), {"gain": -0.0}), is_leaf)
    _, e = flatten(((T(1),), {"gain": 0.0}), is_leaf)
    _, f = flatten(((T(1),), {"gain": math.nan}), is_leaf)
    _, g = flatten(((T(1),), {"gain": float("nan")}), is_leaf)
    assert a == b and hash(a) == hash(b)
    assert a != c  # 3 is not 3.0
    assert d != e
    assert f == g and hash(f) == hash(g)
    assert {a: 1}[b] == 1
    assert a != "not a treedef"


def test_treedef_immutable():
    with pytest.raises(AttributeError, match="TreeDef is immutable"):
        LEAF.kind = "static"


def test_treedef_validation():
    with pytest.raises(ValueError, match=r"unknown TreeDef kind 'set': expected one of leaf, static, "
                                         r"tuple, list, dict, namedtuple"):
        TreeDef("set")
    with pytest.raises(TypeError, match="TreeDef children must be TreeDefs, got int"):
        TreeDef("tuple", [1])
    with pytest.raises(ValueError, match="a 'leaf' TreeDef has no children"):
        TreeDef("leaf", [LEAF])
    with pytest.raises(ValueError, match="a 'dict' TreeDef needs one key per child"):
        TreeDef("dict", [LEAF], ())
    with pytest.raises(ValueError, match="a 'tuple' TreeDef has no keys"):
        TreeDef("tuple", [LEAF], ("a",))


def test_unflatten_wrong_count():
    _, td = flatten((T(0), T(1)), is_leaf)
    with pytest.raises(ValueError) as e:
        unflatten(td, [1])
    assert str(e.value) == "this tree has 2 leaves, got 1 to unflatten"


def test_doctests():
    assert doctest.testmod(mo._pytree).failed == 0


def test_treedef_pickle_and_copy():
    import copy
    import pickle

    _, td = flatten(((T(0), [None, 2.5]), {"gain": 3.0, "name": "x"}), is_leaf)
    for clone in (pickle.loads(pickle.dumps(td)), copy.deepcopy(td)):
        assert clone == td and repr(clone) == repr(td) and hash(clone) == hash(td)


def test_numpy_scalars_are_static():
    _, td = flatten((np.float32(3.0), np.int64(2), np.float32("nan")), is_leaf)
    assert td.check((np.float32(3.0), np.int64(2), np.float32("nan")), is_leaf) == []
    with pytest.raises(ValueError) as e:
        td.check((3.0, np.int64(2), np.float32("nan")), is_leaf)
    assert str(e.value) == (
        "tree structure mismatch at '0': expected np.float32(3.0) (numpy.float32), "
        "got 3.0 (float)"
    )
