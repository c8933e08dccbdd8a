"""The trace context: which graph Tensor operations currently build into.

``compilation.stage`` pushes a ``Capture`` while it runs the user's function;
``Tensor`` operations consult ``current()`` to decide between building graph
ops (inside) and running eagerly (outside).
"""

from __future__ import annotations

import threading
from typing import Any

_state = threading.local()


class Capture:
    """One traced graph: the graph, whether ``as_subgraph`` makes subgraphs,
    and the subgraph bodies shared by the whole module."""

    __slots__ = ("graph", "allow_subgraphs", "subgraphs", "prefix")

    def __init__(self, graph: Any, allow_subgraphs: bool, subgraphs: dict) -> None:
        self.graph = graph
        self.allow_subgraphs = allow_subgraphs
        self.subgraphs = subgraphs
        # Prefix of the inlined as_subgraph calls being traced: placeholder
        # weights resolve against it (a real mo.call applies its own).
        self.prefix = ""

    def __enter__(self) -> Capture:
        _stack().append(self)
        self.graph.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.graph.__exit__(*exc)
        _stack().pop()


def _stack() -> list[Capture]:
    if not hasattr(_state, "stack"):
        _state.stack = []
    return _state.stack


def current() -> Capture | None:
    """The innermost active capture, or None (eager mode)."""
    stack = _stack()
    return stack[-1] if stack else None
