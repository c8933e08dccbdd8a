"""Tensor dimensions: static sizes, symbolic names and algebra of them.

A dim is a ``StaticDim`` (a size known when the graph is built), a
``SymbolicDim`` (a name whose size is bound when the compiled graph is called;
the same name is the same size everywhere) or an ``AlgebraicDim`` (``+ - * //
%`` of those). Expressions fold on construction exactly like the C++
``mo::getDimExpr`` folder, and print exactly like the ``!mo.tensor`` type
printer, so ``str(dim)`` is what appears in the IR.

Example:
    >>> from mo.graph.dim import Dim
    >>> b, s = Dim("b"), Dim("s")
    >>> str(b * (s + 1)), str(Dim(2) * 3), str(b * 1), str(b - (s - 1))
    ('b * (s + 1)', '6', 'b', 'b - (s - 1)')
    >>> (b * s).evaluate({"b": 2, "s": 5})
    10

Folding rules (mirror of the C++ folder): two static operands fold to a
static dim; ``x + 0``, ``0 + x``, ``x - 0``, ``x * 1``, ``1 * x`` and
``x // 1`` give ``x``; ``x * 0``, ``0 * x`` and ``x % 1`` give ``0``. Nothing
else is simplified (``x - x`` stays), so Python and C++ print the same dims.
Unlike the C++ folder (which leaves such expressions unfolded), a static
result below zero and a division or modulo by a static zero are a
``ValueError`` here: no tensor can have such a dim.

Precedence when printing: ``+``/``-`` bind loosest (1), ``*``, ``floordiv``,
``mod`` tighter (2), atoms tightest (3). A left operand is parenthesized when
it binds looser than its parent, a right operand when it binds no tighter:
``a - (b - 1)``, ``(a + b) * c``, ``a floordiv (b * c)``.

A dim expression has at most ``MAX_DIM_OPERATORS`` (128) operators, as its
tree is written out (a shared subexpression counts each time it appears), and
at most that many nested parentheses when parsed; more is a ``ValueError``.
The C++ parser has the same limits: every walk over a dim is recursive, and
the bound keeps those walks off the end of the stack and linear in time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Union

import numpy as np

__all__ = [
    "MAX_DIM_OPERATORS",
    "AlgebraicDim",
    "Dim",
    "DimLike",
    "Shape",
    "ShapeLike",
    "StaticDim",
    "SymbolicDim",
]

_NAME_RE = re.compile(r"^[A-Za-z_]\w*$", re.ASCII)
# Words of the dim grammar: a symbolic dim may not be spelled like them.
_RESERVED = frozenset({"floordiv", "mod"})

_OPS = ("add", "sub", "mul", "floordiv", "mod")
_SPELLING = {"add": "+", "sub": "-", "mul": "*", "floordiv": "floordiv", "mod": "mod"}
_PRECEDENCE = {"add": 1, "sub": 1, "mul": 2, "floordiv": 2, "mod": 2}
# Mirrors mo::kMaxDimOperators (MoTypes.h).
MAX_DIM_OPERATORS = 128


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


class Dim:
    """Base class of dims; ``Dim(x)`` builds one from an int, a str or a Dim.

    ``Dim(4)`` is a ``StaticDim``, ``Dim("batch")`` a ``SymbolicDim``, and a
    Dim is returned unchanged. Dims are immutable, compare structurally (a
    static dim equals the int, a symbolic dim the name) and hash accordingly.

    Raises:
        ValueError: for a negative size or a name that is not an identifier.
        TypeError: for anything else (floats, bools, None, ...).

    Example:
        >>> Dim(2), Dim("batch"), Dim(2) == 2, Dim("n") == "n"
        (Dim(2), Dim('batch'), True, True)
    """

    __slots__ = ()

    def __new__(cls, value: DimLike = None) -> Dim:  # type: ignore[assignment]
        if cls is not Dim:
            raise TypeError(f"{cls.__name__} must define its own constructor")
        return Dim.of(value)

    @staticmethod
    def of(value: DimLike) -> Dim:
        """Same as ``Dim(value)``."""
        if isinstance(value, Dim):
            return value
        if _is_int(value):
            return StaticDim(int(value))
        if isinstance(value, str):
            return SymbolicDim(value)
        raise TypeError(
            f"a dim is an int (static size), a str (symbolic name) or a Dim, "
            f"got {type(value).__name__} {value!r}"
        )

    @staticmethod
    def parse(text: str) -> Dim:
        """Parses a dim as the ``!mo.tensor`` printer writes it.

        Example:
            >>> Dim.parse("b * (s + 1)") == Dim("b") * (Dim("s") + 1)
            True

        Raises:
            ValueError: on a syntax error or an unknown dim (``?``).
        """
        return _Parser(text).parse_dim()

    # -- queries (overridden) ----------------------------------------------

    @property
    def is_static(self) -> bool:
        """True for a ``StaticDim``."""
        return False

    @property
    def is_symbolic(self) -> bool:
        """True for a ``SymbolicDim``."""
        return False

    @property
    def symbols(self) -> frozenset[str]:
        """The symbolic names this dim uses."""
        return frozenset()

    def evaluate(self, bindings: Mapping[str, int]) -> int:
        """The size of this dim once its symbols are bound.

        Raises:
            ValueError: naming the first unbound symbol; for a negative result
                or a division by zero.
        """
        raise NotImplementedError

    def _precedence(self) -> int:
        return 3

    # -- arithmetic --------------------------------------------------------

    def __add__(self, other: DimLike) -> Dim:
        return _binary("add", self, other)

    def __radd__(self, other: DimLike) -> Dim:
        return _binary("add", other, self)

    def __sub__(self, other: DimLike) -> Dim:
        return _binary("sub", self, other)

    def __rsub__(self, other: DimLike) -> Dim:
        return _binary("sub", other, self)

    def __mul__(self, other: DimLike) -> Dim:
        return _binary("mul", self, other)

    def __rmul__(self, other: DimLike) -> Dim:
        return _binary("mul", other, self)

    def __floordiv__(self, other: DimLike) -> Dim:
        return _binary("floordiv", self, other)

    def __rfloordiv__(self, other: DimLike) -> Dim:
        return _binary("floordiv", other, self)

    def __mod__(self, other: DimLike) -> Dim:
        return _binary("mod", self, other)

    def __rmod__(self, other: DimLike) -> Dim:
        return _binary("mod", other, self)

    # -- equality ----------------------------------------------------------

    def _key(self) -> Any:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dim):
            if not (_is_int(other) or isinstance(other, str)):
                return NotImplemented
            try:
                other = Dim.of(other)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                return False
        return self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self._key())


class StaticDim(Dim):
    """A size known when the graph is built.

    Raises:
        ValueError: for a negative size (``negative dims are not allowed: -3``)
            or one that does not fit in int64.

    Example:
        >>> StaticDim(3), int(StaticDim(3)), StaticDim(3).value
        (Dim(3), 3, 3)
    """

    __slots__ = ("_value",)

    def __new__(cls, value: int) -> StaticDim:
        if not _is_int(value):
            raise TypeError(f"a static dim is an int, got {type(value).__name__} {value!r}")
        value = int(value)
        if value < 0:
            raise ValueError(f"negative dims are not allowed: {value}")
        if value >= 2**63:
            raise ValueError(f"dim {value} is too large: sizes must fit in int64")
        self = object.__new__(cls)
        object.__setattr__(self, "_value", value)
        return self

    @property
    def value(self) -> int:
        """The size."""
        return self._value

    @property
    def is_static(self) -> bool:
        return True

    def evaluate(self, bindings: Mapping[str, int]) -> int:
        return self._value

    def _key(self) -> Any:
        return self._value

    def __int__(self) -> int:
        return self._value

    def __index__(self) -> int:
        return self._value

    def __str__(self) -> str:
        return str(self._value)

    def __repr__(self) -> str:
        return f"Dim({self._value})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("dims are immutable")

    def __reduce__(self) -> Any:
        return (StaticDim, (self._value,))


class SymbolicDim(Dim):
    """A named size, bound when the compiled graph is called.

    The name must match ``^[A-Za-z_]\\w*$`` and may not be ``floordiv`` or
    ``mod`` (words of the dim grammar).

    Raises:
        ValueError: naming an invalid name.

    Example:
        >>> SymbolicDim("batch"), SymbolicDim("batch").name
        (Dim('batch'), 'batch')
    """

    __slots__ = ("_name",)

    def __new__(cls, name: str) -> SymbolicDim:
        if not isinstance(name, str):
            raise TypeError(f"a symbolic dim's name is a str, got {type(name).__name__}")
        if not _NAME_RE.match(name) or name in _RESERVED:
            why = (
                "it is a word of the dim grammar"
                if name in _RESERVED
                else "it must match ^[A-Za-z_]\\w*$ (a letter or _, then letters, digits or _)"
            )
            raise ValueError(f"invalid name for a symbolic dim: {name!r}; {why}")
        self = object.__new__(cls)
        object.__setattr__(self, "_name", name)
        return self

    @property
    def name(self) -> str:
        """The symbol."""
        return self._name

    @property
    def is_symbolic(self) -> bool:
        return True

    @property
    def symbols(self) -> frozenset[str]:
        return frozenset((self._name,))

    def evaluate(self, bindings: Mapping[str, int]) -> int:
        if self._name not in bindings:
            raise ValueError(f"symbolic dim {self._name!r} is not bound")
        return int(bindings[self._name])

    def _key(self) -> Any:
        return self._name

    def __str__(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"Dim({self._name!r})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("dims are immutable")

    def __reduce__(self) -> Any:
        return (SymbolicDim, (self._name,))


class AlgebraicDim(Dim):
    """``lhs <op> rhs`` for op in ``add``, ``sub``, ``mul``, ``floordiv``, ``mod``.

    Constructing one folds it (see the module docstring), so
    ``AlgebraicDim("mul", 2, 3)`` is ``Dim(6)``; the result is an
    ``AlgebraicDim`` only when nothing folds.

    Example:
        >>> AlgebraicDim("add", "n", 1)
        AlgebraicDim('add', Dim('n'), Dim(1))
        >>> str(AlgebraicDim("floordiv", "a", 2)), AlgebraicDim("mul", "n", 1)
        ('a floordiv 2', Dim('n'))
    """

    __slots__ = ("_op", "_lhs", "_rhs", "_operators")

    def __new__(cls, op: str, lhs: DimLike, rhs: DimLike) -> Dim:  # type: ignore[misc]
        return _binary(op, lhs, rhs, strict=True)

    @classmethod
    def _raw(cls, op: str, lhs: Dim, rhs: Dim) -> AlgebraicDim:
        operators = 1 + _operators(lhs) + _operators(rhs)
        if operators > MAX_DIM_OPERATORS:
            raise ValueError(
                f"dim expression too large: {operators} operators, at most "
                f"{MAX_DIM_OPERATORS}")
        self = object.__new__(cls)
        object.__setattr__(self, "_operators", operators)
        object.__setattr__(self, "_op", op)
        object.__setattr__(self, "_lhs", lhs)
        object.__setattr__(self, "_rhs", rhs)
        return self

    @property
    def op(self) -> str:
        """``'add'``, ``'sub'``, ``'mul'``, ``'floordiv'`` or ``'mod'``."""
        return self._op

    @property
    def lhs(self) -> Dim:
        """The left operand."""
        return self._lhs

    @property
    def rhs(self) -> Dim:
        """The right operand."""
        return self._rhs

    @property
    def symbols(self) -> frozenset[str]:
        return self._lhs.symbols | self._rhs.symbols

    def evaluate(self, bindings: Mapping[str, int]) -> int:
        a = self._lhs.evaluate(bindings)
        b = self._rhs.evaluate(bindings)
        v = _apply(self._op, a, b)
        if v is None:
            raise ValueError(f"division by zero in dim {self} (with {_show(bindings, self)})")
        if v < 0:
            raise ValueError(f"dim {self} is negative ({v}) with {_show(bindings, self)}")
        return v

    def _precedence(self) -> int:
        return _PRECEDENCE[self._op]

    def _key(self) -> Any:
        return (self._op, self._lhs._key(), self._rhs._key())

    def __str__(self) -> str:
        prec = self._precedence()
        lhs, rhs = str(self._lhs), str(self._rhs)
        if self._lhs._precedence() < prec:
            lhs = f"({lhs})"
        if self._rhs._precedence() <= prec:
            rhs = f"({rhs})"
        return f"{lhs} {_SPELLING[self._op]} {rhs}"

    def __repr__(self) -> str:
        return f"AlgebraicDim({self._op!r}, {self._lhs!r}, {self._rhs!r})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("dims are immutable")

    def __reduce__(self) -> Any:
        return (AlgebraicDim._raw, (self._op, self._lhs, self._rhs))


def _show(bindings: Mapping[str, int], dim: Dim) -> str:
    return ", ".join(f"{n}={bindings[n]}" for n in sorted(dim.symbols)) or "no symbols"


def _apply(op: str, a: int, b: int) -> int | None:
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if b == 0:
        return None
    return a // b if op == "floordiv" else a % b


def _operators(d: Dim) -> int:
    return d._operators if isinstance(d, AlgebraicDim) else 0


def _binary(op: str, lhs: Any, rhs: Any, strict: bool = False) -> Any:
    """Builds ``lhs op rhs`` folded; NotImplemented for non-dim operands."""
    if op not in _OPS:
        raise ValueError(f"unknown dim operator {op!r}: expected one of {', '.join(_OPS)}")
    try:
        a, b = Dim.of(lhs), Dim.of(rhs)
    except TypeError:
        if strict:
            raise
        return NotImplemented
    l_static = a.value if isinstance(a, StaticDim) else None
    r_static = b.value if isinstance(b, StaticDim) else None
    if op in ("floordiv", "mod") and r_static == 0:
        raise ValueError(f"division by zero in dim expression {a} {_SPELLING[op]} 0")
    if l_static is not None and r_static is not None:
        v = _apply(op, l_static, r_static)
        assert v is not None
        if v < 0:
            raise ValueError(f"negative dims are not allowed: {a} {_SPELLING[op]} {b} = {v}")
        return StaticDim(v)
    if op == "add":
        if l_static == 0:
            return b
        if r_static == 0:
            return a
    elif op == "sub":
        if r_static == 0:
            return a
    elif op == "mul":
        if l_static == 1:
            return b
        if r_static == 1:
            return a
        if l_static == 0 or r_static == 0:
            return StaticDim(0)
    elif op == "floordiv":
        if r_static == 1:
            return a
    elif op == "mod":
        if r_static == 1:
            return StaticDim(0)
    return AlgebraicDim._raw(op, a, b)


# -- Shape ---------------------------------------------------------------------


class Shape(list):
    """A list of Dims; ``str()`` prints it like the IR: ``[batch, 2]``.

    Example:
        >>> s = Shape(["batch", 2])
        >>> s, str(s), s.rank, s == ["batch", 2]
        ([Dim('batch'), Dim(2)], '[batch, 2]', 2, True)
    """

    def __init__(self, dims: Iterable[DimLike] = ()) -> None:
        if isinstance(dims, (str, bytes)) or _is_int(dims) or isinstance(dims, Dim):
            raise TypeError(
                f"a shape is a list of dims (ints, strs or Dims), got {type(dims).__name__} "
                f"{dims!r}"
            )
        try:
            items = list(dims)
        except TypeError:
            raise TypeError(
                f"a shape is a list of dims (ints, strs or Dims), got {type(dims).__name__}"
            ) from None
        super().__init__(Dim.of(d) for d in items)

    @property
    def rank(self) -> int:
        """The number of dims."""
        return len(self)

    @property
    def is_static(self) -> bool:
        """True when every dim is static."""
        return all(d.is_static for d in self)

    @property
    def symbols(self) -> frozenset[str]:
        """The symbolic names the dims use."""
        out: frozenset[str] = frozenset()
        for d in self:
            out |= d.symbols
        return out

    def static_values(self) -> list[int]:
        """The sizes of an all-static shape.

        Raises:
            ValueError: naming the first non-static dim.
        """
        for i, d in enumerate(self):
            if not d.is_static:
                raise ValueError(f"shape {self} is not static: dim {i} is {d}")
        return [d.value for d in self]  # type: ignore[attr-defined]

    def evaluate(self, bindings: Mapping[str, int]) -> list[int]:
        """The sizes once the symbols are bound."""
        return [d.evaluate(bindings) for d in self]

    @staticmethod
    def parse(text: str) -> Shape:
        """Parses ``[d, d, ...]`` as the ``!mo.tensor`` printer writes it.

        Example:
            >>> Shape.parse("[batch * seq, 4]")
            [AlgebraicDim('mul', Dim('batch'), Dim('seq')), Dim(4)]
        """
        return _Parser(text).parse_shape()

    def __str__(self) -> str:
        return "[" + ", ".join(str(d) for d in self) + "]"


DimLike = Union[int, str, Dim, np.integer]
ShapeLike = Iterable[DimLike]


# -- parser --------------------------------------------------------------------

_TOKEN_RE = re.compile(r"\s*(?:(\d+)|([A-Za-z_]\w*)|(.))", re.ASCII)


class _Parser:
    """Recursive-descent parser of the C++ dim grammar (folding as it goes)."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"expected a str to parse, got {type(text).__name__}")
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        end = len(text.rstrip())
        while pos < end:
            m = _TOKEN_RE.match(text, pos)
            assert m is not None  # some non-space character remains
            if m.group(1) is not None:
                self.tokens.append(("int", m.group(1), m.start(1)))
            elif m.group(2) is not None:
                self.tokens.append(("name", m.group(2), m.start(2)))
            else:
                self.tokens.append(("punct", m.group(3), m.start(3)))
            pos = m.end()
        self.i = 0
        self.parens = 0

    def _peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def _error(self, what: str) -> ValueError:
        tok = self._peek()
        where = f"at column {tok[2]}" if tok else "at the end"
        text = self.text if len(self.text) <= 80 else self.text[:77] + "..."
        return ValueError(f"cannot parse dim {text!r}: {what} {where}")

    def _accept(self, kind: str, value: str | None = None) -> bool:
        tok = self._peek()
        if tok and tok[0] == kind and (value is None or tok[1] == value):
            self.i += 1
            return True
        return False

    def _expect_end(self) -> None:
        if self._peek() is not None:
            raise self._error("unexpected token")

    def parse_dim(self) -> Dim:
        d = self._expr()
        self._expect_end()
        return d

    def parse_shape(self) -> Shape:
        if not self._accept("punct", "["):
            raise self._error("expected '['")
        dims: list[Dim] = []
        if not self._accept("punct", "]"):
            while True:
                dims.append(self._expr())
                if self._accept("punct", "]"):
                    break
                if not self._accept("punct", ","):
                    raise self._error("expected ',' or ']'")
        self._expect_end()
        return Shape(dims)

    def _expr(self) -> Dim:
        lhs = self._term()
        while True:
            if self._accept("punct", "+"):
                lhs = _binary("add", lhs, self._term())
            elif self._accept("punct", "-"):
                lhs = _binary("sub", lhs, self._term())
            else:
                return lhs

    def _term(self) -> Dim:
        lhs = self._atom()
        while True:
            if self._accept("punct", "*"):
                lhs = _binary("mul", lhs, self._atom())
            elif self._accept("name", "floordiv"):
                lhs = _binary("floordiv", lhs, self._atom())
            elif self._accept("name", "mod"):
                lhs = _binary("mod", lhs, self._atom())
            else:
                return lhs

    def _atom(self) -> Dim:
        tok = self._peek()
        if tok is None:
            raise self._error("expected a dim")
        kind, value, _ = tok
        if kind == "int":
            self.i += 1
            return StaticDim(int(value))
        if kind == "name" and value not in _RESERVED:
            self.i += 1
            return SymbolicDim(value)
        if self._accept("punct", "("):
            self.parens += 1
            if self.parens > MAX_DIM_OPERATORS:
                raise self._error(f"more than {MAX_DIM_OPERATORS} nested parentheses")
            inner = self._expr()
            self.parens -= 1
            if not self._accept("punct", ")"):
                raise self._error("expected ')'")
            return inner
        if kind == "punct" and value == "?":
            raise self._error("unknown dims ('?') have no Python Dim")
        raise self._error("expected a dim")
