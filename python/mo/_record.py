"""Immutable value records: frozen, slotted dataclasses.

``@record`` is ``@dataclass(frozen=True, slots=True)``, except that assigning
to or deleting any attribute raises ``FrozenInstanceError("<Class> is
immutable")`` (an ``AttributeError``), the message mo's value classes have
always given, instead of dataclasses' ``cannot assign to field 'x'``.

Example:
    >>> @record
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> p = Point(1)
    >>> p, p == Point(1, 0), hash(p) == hash(Point(1))
    (Point(x=1, y=0), True, True)
    >>> p.x = 2
    Traceback (most recent call last):
    dataclasses.FrozenInstanceError: Point is immutable
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["record"]

_T = TypeVar("_T", bound=type)


def _immutable(self: Any, name: str, value: Any = None) -> None:
    raise dataclasses.FrozenInstanceError(f"{type(self).__name__} is immutable")


def record(cls: _T | None = None, /, **options: Any) -> _T | Callable[[_T], _T]:
    """Makes ``cls`` a frozen, slotted dataclass (``options`` go to ``dataclass``).

    A class with custom construction passes ``init=False`` and sets its fields
    with ``object.__setattr__`` in its own ``__init__``. Subclasses that add no
    fields declare ``__slots__ = ()`` and inherit equality (same class and
    equal fields), hashing, pickling and the mutation error.
    """

    def wrap(cls: _T) -> _T:
        cls = dataclasses.dataclass(frozen=True, slots=True, **options)(cls)
        cls.__setattr__ = _immutable  # type: ignore[assignment]
        cls.__delattr__ = _immutable  # type: ignore[assignment]
        return cls

    return wrap if cls is None else wrap(cls)
