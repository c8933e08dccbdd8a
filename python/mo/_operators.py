"""Python operators of tensors, defined once for ``Tensor`` and ``TensorValue``.

Each operator is the op of the same meaning in ``mo.graph.ops`` (comparisons
are elementwise and give bool tensors, as in numpy).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_BINARY = {
    "add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "floordiv": "floordiv",
    "mod": "mod", "pow": "pow", "matmul": "matmul",
}
_COMPARE = {
    "eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
    "ge": "greater_equal",
}
_UNARY = {"neg": "negative", "abs": "abs"}
# Methods: x.sum(axis), x.reshape(shape), ... are the ops of the same name.
_METHODS = ["reshape", "cast", "transpose", "sum", "mean", "prod", "max", "min", "argmax",
            "argmin", "squeeze", "unsqueeze", "flatten", "permute", "broadcast_to", "rebind",
            "print"]


def install(cls: type, apply: Callable[..., Any]) -> None:
    """Defines the operators and methods of ``cls`` as ``apply(op_name, *args, **kwargs)``."""

    def binary(op: str, reflected: bool) -> Callable[[Any, Any], Any]:
        if reflected:
            return lambda self, other: apply(op, other, self)
        return lambda self, other: apply(op, self, other)

    for name, op in _BINARY.items():
        setattr(cls, f"__{name}__", binary(op, False))
        setattr(cls, f"__r{name}__", binary(op, True))
    for name, op in _COMPARE.items():
        setattr(cls, f"__{name}__", binary(op, False))
    for name, op in _UNARY.items():
        setattr(cls, f"__{name}__", lambda self, _op=op: apply(_op, self))
    for name in _METHODS:
        method = (lambda _op: lambda self, *args, **kwargs: apply(_op, self, *args, **kwargs))(name)
        method.__name__ = name
        setattr(cls, name, method)
    # x.T: the dims reversed (numpy's transpose).
    cls.T = property(lambda self: apply("permute", self, list(range(self.rank))[::-1]))
    # Defining __eq__ removes hashing: keep identity hashing (numpy arrays,
    # whose == is elementwise too, are unhashable; tensors stay usable as keys).
    cls.__hash__ = object.__hash__
