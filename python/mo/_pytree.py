"""Pytrees: nested tuples, lists and dicts of tensors and static values.

``flatten(tree, is_leaf)`` turns an argument tree into its tensor leaves and a
``TreeDef`` that records the structure and every static (non-tensor) value;
``unflatten`` rebuilds a tree; ``TreeDef.check`` re-flattens a new tree
against a recorded structure and raises MAX's ``tree structure mismatch``
errors. The call-site structure of a staged function is ``((args...),
{kwargs})``.

Example:
    >>> is_leaf = lambda x: isinstance(x, str) and x.startswith("T")
    >>> leaves, td = flatten((("T0", {"b": "T2", "a": "T1"}), {"gain": 3.0}), is_leaf)
    >>> leaves, td.leaf_paths, td.num_leaves
    (['T0', 'T1', 'T2'], ('0.0', '0.1.a', '0.1.b'), 3)
    >>> td.check((("X", {"a": "Y", "b": "Z"}), {"gain": 3.0}), is_leaf)
    ['X', 'Y', 'Z']
    >>> td.check((("X", {"a": "Y", "b": "Z"}), {"gain": 4.0}), is_leaf)
    Traceback (most recent call last):
    ...
    ValueError: tree structure mismatch at '1.gain': expected 3.0, got 4.0

Kinds of nodes:

* ``'leaf'``: a tensor (whatever ``is_leaf`` accepts); ``meta`` is None.
* ``'static'``: any other non-container value, ``None`` included; ``meta`` is
  the value. It must be hashable (``TypeError`` naming its path otherwise),
  and an array (a numpy array or anything with ``__dlpack__`` / ``__array__``;
  numpy scalars are values) is never static: flattening one that ``is_leaf`` rejects is a
  ``TypeError``. Static values compare strictly: same type and equal value
  (``3`` is not ``3.0``, ``-0.0`` is not ``0.0``, NaN equals NaN).
* ``'tuple'``, ``'list'``: exactly those types; children in order.
* ``'namedtuple'``: ``meta`` is the class, ``keys`` its field names; rebuilt
  as that class.
* ``'dict'``: any ``dict`` (subclasses are rebuilt as plain dicts); children
  in **sorted key order**, ``keys`` the sorted keys.

Paths join keys with dots: ``'0'``, ``'0.a'``, ``'1.gain'`` (the root is
``''``, shown as "the root" in messages).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["LEAF", "TreeDef", "flatten", "unflatten"]

_KINDS = ("leaf", "static", "tuple", "list", "dict", "namedtuple")


class TreeDef:
    """The structure of a pytree and its static values.

    Immutable, hashable and comparable (static values strictly, see the module
    docstring). The repr is MAX's: ``TreeDef(kind='tuple', children=(...),
    keys=(), meta=None)``.

    Example:
        >>> LEAF
        TreeDef(kind='leaf', children=(), keys=(), meta=None)
    """

    __slots__ = ("kind", "children", "keys", "meta", "_hash", "_num_leaves")

    kind: str
    children: tuple[TreeDef, ...]
    keys: tuple[Any, ...]
    meta: Any

    def __init__(self, kind: str, children: Sequence[TreeDef] = (), keys: Sequence[Any] = (),
                 meta: Any = None) -> None:
        if kind not in _KINDS:
            raise ValueError(f"unknown TreeDef kind {kind!r}: expected one of {', '.join(_KINDS)}")
        children = tuple(children)
        keys = tuple(keys)
        for c in children:
            if not isinstance(c, TreeDef):
                raise TypeError(f"TreeDef children must be TreeDefs, got {type(c).__name__}")
        if kind in ("leaf", "static") and children:
            raise ValueError(f"a {kind!r} TreeDef has no children")
        if kind in ("dict", "namedtuple") and len(keys) != len(children):
            raise ValueError(f"a {kind!r} TreeDef needs one key per child")
        if kind in ("leaf", "static", "tuple", "list") and keys:
            raise ValueError(f"a {kind!r} TreeDef has no keys")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "children", children)
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "meta", meta)
        object.__setattr__(self, "_hash", None)
        object.__setattr__(
            self, "_num_leaves",
            1 if kind == "leaf" else sum(c._num_leaves for c in children),
        )

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("TreeDef is immutable")

    def __reduce__(self) -> Any:
        return (TreeDef, (self.kind, self.children, self.keys, self.meta))

    def __repr__(self) -> str:
        return (
            f"TreeDef(kind={self.kind!r}, children={self.children!r}, keys={self.keys!r}, "
            f"meta={self.meta!r})"
        )

    def _meta_key(self) -> Any:
        return _static_key(self.meta) if self.kind == "static" else self.meta

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TreeDef):
            return NotImplemented
        if self is other:
            return True
        return (
            self.kind == other.kind
            and self.keys == other.keys
            and self._meta_key() == other._meta_key()
            and self.children == other.children
        )

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(
                self, "_hash", hash((self.kind, self.children, self.keys, self._meta_key()))
            )
        return self._hash  # type: ignore[return-value]

    # -- queries -----------------------------------------------------------

    @property
    def num_leaves(self) -> int:
        """The number of tensor leaves."""
        return self._num_leaves

    @property
    def leaf_paths(self) -> tuple[str, ...]:
        """The dotted path of every tensor leaf, in flattening order.

        Example:
            >>> _, td = flatten(((1, {"a": 2}), {}), lambda x: isinstance(x, int))
            >>> td.leaf_paths
            ('0.0', '0.1.a')
        """
        out: list[str] = []
        self._collect_paths("", out)
        return tuple(out)

    def _collect_paths(self, path: str, out: list[str]) -> None:
        if self.kind == "leaf":
            out.append(path)
            return
        for key, child in zip(self._child_keys(), self.children):
            child._collect_paths(_join(path, key), out)

    def _child_keys(self) -> Sequence[Any]:
        if self.kind in ("dict", "namedtuple"):
            return self.keys
        return range(len(self.children))

    def _describe(self) -> str:
        """``tuple of 2 items``-style description for mismatch messages."""
        if self.kind == "leaf":
            return "a tensor"
        if self.kind == "static":
            return repr(self.meta)
        if self.kind == "namedtuple":
            return f"{self.meta.__qualname__} of {len(self.children)} items"
        return f"{self.kind} of {len(self.children)} items"

    # -- check -------------------------------------------------------------

    def check(self, tree: Any, is_leaf: Callable[[Any], bool]) -> list[Any]:
        """Checks that ``tree`` has this structure and these static values,
        and returns its leaves.

        At a leaf position any value is taken as the leaf (the caller checks
        its type and names it by ``leaf_paths``). At a static position a value
        ``is_leaf`` accepts is a mismatch.

        Raises:
            ValueError: ``tree structure mismatch at '<path>': expected ...,
                got ...`` for a different static value, dict keys, container
                kind or length.
        """
        leaves: list[Any] = []
        self._check(tree, is_leaf, "", leaves)
        return leaves

    def _check(self, x: Any, is_leaf: Callable[[Any], bool], path: str, out: list[Any]) -> None:
        kind = self.kind
        if kind == "leaf":
            out.append(x)
            return
        if kind == "static":
            if is_leaf(x):
                _mismatch(path, f"expected {self.meta!r}, got a tensor ({_type_name(x)})")
            if not _static_equal(self.meta, x):
                if type(x) is not type(self.meta) and _safe_eq(x, self.meta):
                    _mismatch(
                        path,
                        f"expected {self.meta!r} ({_type_name(self.meta)}), "
                        f"got {_safe_repr(x)} ({_type_name(x)})",
                    )
                _mismatch(path, f"expected {self.meta!r}, got {_safe_repr(x)}")
            return
        if kind == "dict":
            if not isinstance(x, dict):
                _mismatch(path, f"expected {self._describe()}, got {_describe_value(x, is_leaf)}")
            got = _sorted_keys(x)
            if list(self.keys) != got:
                _mismatch(path, f"expected keys {list(self.keys)!r}, got {got!r}")
            for key, child in zip(self.keys, self.children):
                child._check(x[key], is_leaf, _join(path, key), out)
            return
        # tuple, list, namedtuple
        if kind == "namedtuple":
            ok = type(x) is self.meta
        elif kind == "tuple":
            ok = type(x) is tuple
        else:
            ok = type(x) is list
        if not ok:
            _mismatch(path, f"expected {self._describe()}, got {_describe_value(x, is_leaf)}")
        if len(x) != len(self.children):
            # MAX's wording: the children's keys are their indices.
            _mismatch(
                path,
                f"expected keys {list(range(len(self.children)))!r}, got {list(range(len(x)))!r}",
            )
        for key, item, child in zip(self._child_keys(), x, self.children):
            child._check(item, is_leaf, _join(path, key), out)

    # -- unflatten ---------------------------------------------------------

    def unflatten(self, leaves: Sequence[Any]) -> Any:
        """Rebuilds a tree of this structure from its leaves (and static values).

        Raises:
            ValueError: if the number of leaves differs from ``num_leaves``.
        """
        leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(
                f"this tree has {self.num_leaves} leaves, got {len(leaves)} to unflatten"
            )
        it = iter(leaves)
        return self._build(it)

    def _build(self, it: Any) -> Any:
        kind = self.kind
        if kind == "leaf":
            return next(it)
        if kind == "static":
            return self.meta
        items = [c._build(it) for c in self.children]
        if kind == "tuple":
            return tuple(items)
        if kind == "list":
            return items
        if kind == "namedtuple":
            return self.meta(*items)
        return dict(zip(self.keys, items))


LEAF = TreeDef("leaf")


def flatten(tree: Any, is_leaf: Callable[[Any], bool]) -> tuple[list[Any], TreeDef]:
    """Flattens ``tree`` into its tensor leaves and its ``TreeDef``.

    Args:
        tree: nested tuples, lists, namedtuples and dicts of leaves and
            static values.
        is_leaf: says which values are tensor leaves. It is asked before
            containers are looked into, so a container type can be a leaf.

    Raises:
        TypeError: for an unhashable static value or an array that
            ``is_leaf`` rejects (naming its path); for dict keys that cannot
            be sorted.

    Example:
        >>> flatten(((7, None), {"k": "x"}), lambda v: v == 7)
        ([7], TreeDef(kind='tuple', children=(TreeDef(kind='tuple', children=(TreeDef(kind='leaf', children=(), keys=(), meta=None), TreeDef(kind='static', children=(), keys=(), meta=None)), keys=(), meta=None), TreeDef(kind='dict', children=(TreeDef(kind='static', children=(), keys=(), meta='x'),), keys=('k',), meta=None)), keys=(), meta=None))
    """
    leaves: list[Any] = []
    td = _flatten(tree, is_leaf, "", leaves)
    return leaves, td


def unflatten(treedef: TreeDef, leaves: Sequence[Any]) -> Any:
    """Rebuilds a tree from its ``TreeDef`` and leaves (``treedef.unflatten``).

    Example:
        >>> leaves, td = flatten({"b": 1, "a": (2, "s")}, lambda v: isinstance(v, int))
        >>> unflatten(td, [10, 20])
        {'a': (10, 's'), 'b': 20}
    """
    return treedef.unflatten(leaves)


def _flatten(x: Any, is_leaf: Callable[[Any], bool], path: str, out: list[Any]) -> TreeDef:
    if is_leaf(x):
        out.append(x)
        return LEAF
    t = type(x)
    if t is tuple or t is list:
        children = [_flatten(v, is_leaf, _join(path, i), out) for i, v in enumerate(x)]
        return TreeDef(t.__name__, children)
    if isinstance(x, tuple) and hasattr(t, "_fields"):
        fields = tuple(t._fields)
        children = [_flatten(v, is_leaf, _join(path, f), out) for f, v in zip(fields, x)]
        return TreeDef("namedtuple", children, fields, t)
    if isinstance(x, dict):
        try:
            keys = sorted(x)
        except TypeError:
            raise TypeError(
                f"the keys of the dict at {_where(path)} cannot be sorted "
                f"({', '.join(sorted({type(k).__name__ for k in x}))}); use keys of one type"
            ) from None
        children = [_flatten(x[k], is_leaf, _join(path, k), out) for k in keys]
        return TreeDef("dict", children, keys)
    if _is_array(x):
        raise TypeError(
            f"the value at {_where(path)} is an array ({_type_name(x)}), which cannot be a "
            f"static argument; pass it as a tensor"
        )
    try:
        hash(x)
    except TypeError:
        raise TypeError(
            f"static argument at {_where(path)} is unhashable ({_type_name(x)}); pass hashable "
            f"values (tuples, numbers, strings)"
        ) from None
    return TreeDef("static", meta=x)


# -- helpers -------------------------------------------------------------------


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _where(path: str) -> str:
    return f"'{path}'" if path else "the root"


def _mismatch(path: str, what: str) -> None:
    raise ValueError(f"tree structure mismatch at {_where(path)}: {what}")


def _type_name(x: Any) -> str:
    t = x if isinstance(x, type) else type(x)
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


def _is_array(x: Any) -> bool:
    if isinstance(x, np.generic):  # numpy scalars are values, not arrays
        return False
    return hasattr(x, "__dlpack__") or hasattr(x, "__array__") or hasattr(
        x, "__array_interface__"
    )


def _sorted_keys(d: dict) -> list[Any]:
    try:
        return sorted(d)
    except TypeError:
        return list(d)


def _describe_value(x: Any, is_leaf: Callable[[Any], bool]) -> str:
    t = type(x)
    if t is tuple or t is list:
        return f"{t.__name__} of {len(x)} items"
    if isinstance(x, tuple) and hasattr(t, "_fields"):
        return f"{t.__qualname__} of {len(x)} items"
    if isinstance(x, dict):
        return f"dict with keys {_sorted_keys(x)!r}"
    if is_leaf(x):
        return f"a tensor ({_type_name(x)})"
    return f"{_safe_repr(x)} ({_type_name(x)})"


def _safe_repr(x: Any) -> str:
    try:
        r = repr(x)
    except Exception:
        return f"<{_type_name(x)}>"
    return r if len(r) <= 80 else r[:77] + "..."


def _safe_eq(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False


def _static_key(v: Any) -> Any:
    """A hashable key under which static values compare strictly."""
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return (type(v), "nan" if math.isnan(f) else f, math.copysign(1.0, f))
    if type(v) is complex:
        return (complex, _static_key(v.real), _static_key(v.imag))
    return (type(v), v)


def _static_equal(expected: Any, got: Any) -> bool:
    if type(expected) is not type(got):
        return False
    try:
        return _static_key(expected) == _static_key(got)
    except Exception:
        return False
