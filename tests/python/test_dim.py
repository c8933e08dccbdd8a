"""mo.graph.dim: static, symbolic and algebraic dims; folding and printing."""

import doctest
import pickle

import numpy as np
import pytest

import mo.graph.dim
from mo.graph.dim import AlgebraicDim, Dim, Shape, StaticDim, SymbolicDim

b, s, n = Dim("b"), Dim("s"), Dim("n")


def test_factory():
    assert isinstance(Dim(3), StaticDim) and Dim(3).value == 3
    assert isinstance(Dim("batch"), SymbolicDim) and Dim("batch").name == "batch"
    d = Dim("x") + 1
    assert Dim(d) is d and Dim.of(d) is d
    assert Dim.of(4) == Dim(4)
    assert Dim(np.int64(5)) == 5 and type(Dim(np.int64(5)).value) is int


def test_repr_and_str():
    assert repr(Dim("batch")) == "Dim('batch')" and str(Dim("batch")) == "batch"
    assert repr(Dim(2)) == "Dim(2)" and str(Dim(2)) == "2"
    assert repr(b * (s + 1)) == (
        "AlgebraicDim('mul', Dim('b'), AlgebraicDim('add', Dim('s'), Dim(1)))"
    )


def test_static_errors():
    with pytest.raises(ValueError, match=r"^negative dims are not allowed: -3$"):
        Dim(-3)
    with pytest.raises(ValueError, match=r"^negative dims are not allowed: -1$"):
        StaticDim(-1)
    with pytest.raises(TypeError, match=r"a static dim is an int, got str 'a'"):
        StaticDim("a")


@pytest.mark.parametrize("bad", ["a*2", "", "2x", "a b", "é", "-", "a-b"])
def test_symbolic_name_errors(bad):
    with pytest.raises(ValueError) as e:
        Dim(bad)
    assert str(e.value) == (
        f"invalid name for a symbolic dim: {bad!r}; it must match ^[A-Za-z_]\\w*$ "
        f"(a letter or _, then letters, digits or _)"
    )


@pytest.mark.parametrize("word", ["floordiv", "mod"])
def test_symbolic_reserved_words(word):
    with pytest.raises(ValueError) as e:
        SymbolicDim(word)
    assert str(e.value) == (
        f"invalid name for a symbolic dim: {word!r}; it is a word of the dim grammar"
    )


def test_symbolic_names_ok():
    for name in ["_", "a1", "_batch", "Seq_Len", "x9_"]:
        assert Dim(name).name == name
    with pytest.raises(TypeError, match=r"a symbolic dim's name is a str, got int"):
        SymbolicDim(3)


@pytest.mark.parametrize("bad", [2.0, None, True, [1], b"a"])
def test_factory_type_errors(bad):
    with pytest.raises(TypeError) as e:
        Dim(bad)
    assert str(e.value) == (
        f"a dim is an int (static size), a str (symbolic name) or a Dim, got "
        f"{type(bad).__name__} {bad!r}"
    )


def test_subclass_without_constructor():
    class MyDim(Dim):
        pass

    with pytest.raises(TypeError, match=r"MyDim must define its own constructor"):
        MyDim(3)


# -- printing ------------------------------------------------------------------


@pytest.mark.parametrize(
    "expr,text",
    [
        (b * (s + 1), "b * (s + 1)"),
        (Dim("a") - (b - 1), "a - (b - 1)"),
        (Dim("a") - b - 1, "a - b - 1"),
        (Dim("a") // 2, "a floordiv 2"),
        (n % 4, "n mod 4"),
        ((b + s) * 2, "(b + s) * 2"),
        (b * s * 4, "b * s * 4"),
        (b * (s * 4), "b * (s * 4)"),
        (b // (s * 2), "b floordiv (s * 2)"),
        (b * s // 2, "b * s floordiv 2"),
        (b + s * 2, "b + s * 2"),
        (b - (s + 1), "b - (s + 1)"),
        (b + (s + 1), "b + (s + 1)"),
        ((b - s) % (n + 1), "(b - s) mod (n + 1)"),
        (2 * b, "2 * b"),
        (10 - b, "10 - b"),
    ],
)
def test_printing(expr, text):
    assert str(expr) == text
    assert Dim.parse(text) == expr


def test_reverse_operators():
    assert str(3 + b) == "3 + b"
    assert str(3 - b) == "3 - b"
    assert str(3 * b) == "3 * b"
    assert str(12 // b) == "12 floordiv b"
    assert str(12 % b) == "12 mod b"
    assert str(b + "s") == "b + s"
    assert str("s" * Dim(2)) == "s * 2"
    assert str(np.int64(2) * b) == "2 * b"


# -- folding (mirror of mo::getDimExpr) ----------------------------------------


def test_constant_folding():
    assert Dim(2) + 3 == 5 and isinstance(Dim(2) + 3, StaticDim)
    assert Dim(7) - 7 == 0
    assert Dim(4) * 3 == 12
    assert Dim(7) // 2 == 3
    assert Dim(7) % 4 == 3
    assert AlgebraicDim("mul", 2, 3) == Dim(6)
    assert isinstance(AlgebraicDim("mul", 2, 3), StaticDim)


def test_identity_folding():
    assert (b + 0) is b and (0 + b) is b
    assert (b - 0) is b
    assert (b * 1) is b and (1 * b) is b
    assert (b // 1) is b
    assert (b % 1) == 0 and isinstance(b % 1, StaticDim)
    assert (b * 0) == 0 and (0 * b) == 0
    assert isinstance(0 * (b + s), StaticDim)


def test_no_other_folding():
    # Like the C++ folder: these stay as written.
    assert str(b - b) == "b - b"
    assert str(0 - b) == "0 - b"
    assert str(0 // b) == "0 floordiv b"
    assert str(b + b) == "b + b"
    assert str(Dim(1) // b) == "1 floordiv b"


def test_folding_errors():
    with pytest.raises(ValueError, match=r"^negative dims are not allowed: 2 - 5 = -3$"):
        Dim(2) - 5
    with pytest.raises(ValueError, match=r"^division by zero in dim expression b floordiv 0$"):
        b // 0
    with pytest.raises(ValueError, match=r"^division by zero in dim expression 4 mod 0$"):
        Dim(4) % 0
    with pytest.raises(ValueError, match=r"unknown dim operator 'pow': expected one of add, sub, "
                                         r"mul, floordiv, mod"):
        AlgebraicDim("pow", b, 2)


def test_algebraic_accessors():
    e = AlgebraicDim("add", "n", 1)
    assert isinstance(e, AlgebraicDim)
    assert e.op == "add" and e.lhs == n and e.rhs == 1


def test_unsupported_operands():
    with pytest.raises(TypeError):
        b + 1.5
    with pytest.raises(TypeError):
        b * None
    with pytest.raises(TypeError):
        b / 2
    with pytest.raises(TypeError, match=r"a dim is an int \(static size\), a str \(symbolic name\) "
                                        r"or a Dim, got float 1.5"):
        AlgebraicDim("add", b, 1.5)


# -- equality, hashing, immutability -------------------------------------------


def test_equality_and_hash():
    assert Dim(2) == 2 and 2 == Dim(2) and hash(Dim(2)) == hash(2)
    assert Dim("a") == "a" and hash(Dim("a")) == hash("a")
    assert Dim("a") != "b" and Dim(2) != 3 and Dim("a") != 2
    assert Dim("a") != "a*2"  # an invalid name is simply not equal
    assert Dim(2) != 2.0 and Dim(1) != True  # noqa: E712
    assert b * (s + 1) == Dim("b") * (Dim("s") + 1)
    assert hash(b * (s + 1)) == hash(Dim("b") * (Dim("s") + 1))
    assert b * s != s * b  # structural, not algebraic
    assert len({Dim(2), Dim(2), 2, Dim("a"), "a", b + 1, b + 1}) == 3


def test_immutable():
    with pytest.raises(AttributeError, match="dims are immutable"):
        Dim(2)._value = 3
    with pytest.raises(AttributeError, match="dims are immutable"):
        b._name = "c"
    with pytest.raises(AttributeError, match="dims are immutable"):
        (b + 1)._op = "sub"


def test_pickle():
    for d in [Dim(3), b, b * (s + 1) // 2]:
        assert pickle.loads(pickle.dumps(d)) == d


def test_static_int_protocol():
    assert int(Dim(5)) == 5
    assert list(range(10))[Dim(2)] == 2
    assert np.zeros([Dim(2), Dim(3)]).shape == (2, 3)


# -- queries -------------------------------------------------------------------


def test_static_and_symbols():
    assert Dim(2).is_static and not Dim(2).is_symbolic and Dim(2).symbols == frozenset()
    assert not b.is_static and b.is_symbolic and b.symbols == {"b"}
    e = b * (s + 1) - b
    assert not e.is_static and not e.is_symbolic
    assert e.symbols == {"b", "s"}


def test_evaluate():
    assert Dim(4).evaluate({}) == 4
    assert b.evaluate({"b": 3}) == 3
    assert (b * (s + 1)).evaluate({"b": 2, "s": 3}) == 8
    assert (b // 2 + b % 2).evaluate({"b": 7}) == 4
    assert (b - s).evaluate({"b": 7, "s": 7}) == 0


def test_evaluate_errors():
    with pytest.raises(ValueError, match=r"^symbolic dim 's' is not bound$"):
        (b * s).evaluate({"b": 2})
    with pytest.raises(ValueError, match=r"^dim b - s is negative \(-1\) with b=2, s=3$"):
        (b - s).evaluate({"b": 2, "s": 3})
    with pytest.raises(ValueError, match=r"^division by zero in dim b floordiv s \(with b=2, s=0\)$"):
        (b // s).evaluate({"b": 2, "s": 0})


# -- parsing -------------------------------------------------------------------


def test_parse():
    assert Dim.parse("  batch ") == Dim("batch")
    assert Dim.parse("4") == 4
    assert Dim.parse("2 * 3 + 1") == 7
    assert Dim.parse("(b)") == b
    assert Dim.parse("b*1") is not None and Dim.parse("b*1") == b
    assert Dim.parse("b mod 4 floordiv 2") == (b % 4) // 2


@pytest.mark.parametrize(
    "text,msg",
    [
        ("", "cannot parse dim '': expected a dim at the end"),
        ("b +", "cannot parse dim 'b +': expected a dim at the end"),
        ("b c", "cannot parse dim 'b c': unexpected token at column 2"),
        ("(b", "cannot parse dim '(b': expected ')' at the end"),
        ("?", "cannot parse dim '?': unknown dims ('?') have no Python Dim at column 0"),
        ("-3", "cannot parse dim '-3': expected a dim at column 0"),
        ("mod", "cannot parse dim 'mod': expected a dim at column 0"),
    ],
)
def test_parse_errors(text, msg):
    with pytest.raises(ValueError) as e:
        Dim.parse(text)
    assert str(e.value) == msg


def test_parse_type_error():
    with pytest.raises(TypeError, match="expected a str to parse, got int"):
        Dim.parse(3)


# -- Shape ---------------------------------------------------------------------


def test_shape():
    sh = Shape(["batch", 2, b * s])
    assert isinstance(sh, list) and all(isinstance(d, Dim) for d in sh)
    assert str(sh) == "[batch, 2, b * s]"
    assert repr(sh) == "[Dim('batch'), Dim(2), AlgebraicDim('mul', Dim('b'), Dim('s'))]"
    assert sh.rank == 3 and not sh.is_static and sh.symbols == {"batch", "b", "s"}
    assert sh == ["batch", 2, b * s]
    assert sh.evaluate({"batch": 1, "b": 2, "s": 3}) == [1, 2, 6]
    assert Shape([2, 3]).static_values() == [2, 3] and Shape([2, 3]).is_static
    assert str(Shape()) == "[]"
    with pytest.raises(TypeError):
        hash(sh)


def test_shape_errors():
    with pytest.raises(ValueError, match=r"^shape \[a, 2\] is not static: dim 0 is a$"):
        Shape(["a", 2]).static_values()
    with pytest.raises(TypeError, match=r"a shape is a list of dims \(ints, strs or Dims\), got str 'ab'"):
        Shape("ab")
    with pytest.raises(TypeError, match=r"a shape is a list of dims \(ints, strs or Dims\), got int 3"):
        Shape(3)
    with pytest.raises(TypeError, match=r"a shape is a list of dims \(ints, strs or Dims\), got float"):
        Shape(3.0)
    with pytest.raises(ValueError, match=r"negative dims are not allowed: -1"):
        Shape([2, -1])


def test_shape_parse():
    assert Shape.parse("[batch * seq, 4]") == [Dim("batch") * Dim("seq"), 4]
    assert Shape.parse("[]") == []
    with pytest.raises(ValueError, match=r"cannot parse dim '\[a; b\]': expected ',' or '\]' at column 2"):
        Shape.parse("[a; b]")
    with pytest.raises(ValueError, match=r"cannot parse dim 'a, b': expected '\[' at column 0"):
        Shape.parse("a, b")


def test_doctests():
    assert doctest.testmod(mo.graph.dim).failed == 0
