"""The op registry, as the build dumped it from the TableGen rows.

``dialects/Mo/MoElementwise.td`` states each elementwise op once: mnemonic,
summary, the element kinds it is defined on (the verifier's operand
constraint), its scalar computation and its numpy reference. The build writes
those rows to ``mo/_opdefs.json``; this module reads them, so the Python
wrappers (``ops.*``, ``F.*``) and the tests are built from the same rows as
the dialect and cannot drift from it.

Example:
    >>> from mo import _opdefs
    >>> from mo.dtype import DType
    >>> sub = _opdefs.by_name()["sub"]
    >>> sub.family, sub.kinds, sub.reference
    ('binary', ('float', 'signed', 'unsigned'), 'subtract')
    >>> sub.accepts(DType.bool), sub.kinds_text
    (False, 'floating-point or signed integer or unsigned integer')
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass

import mo
from mo.dtype import DType

__all__ = ["OpDef", "by_name", "family", "kind_of"]


def kind_of(dtype: DType) -> str:
    """The registry's element kind of a dtype: float, signed, unsigned or bool."""
    if dtype is DType.bool:
        return "bool"
    if dtype.is_float:
        return "float"
    return "signed" if dtype.is_signed else "unsigned"


@dataclass(frozen=True, slots=True)
class OpDef:
    """One op of the registry."""

    name: str
    cls: str
    summary: str
    family: str | None = None
    arity: int | None = None
    kinds: tuple[str, ...] = ()
    kinds_text: str = ""
    reference: str = ""
    python_name: str = ""
    """The Python function's name (``sum`` for ``reduce_sum``), else ``name``."""
    bool_result: bool = False
    """Whether the result holds bools (comparisons, ``is_nan``)."""

    def accepts(self, dtype: DType) -> bool:
        """Whether the op is defined on ``dtype`` elements."""
        return kind_of(dtype) in self.kinds


def _path() -> str:
    for directory in mo.__path__:
        candidate = os.path.join(directory, "_opdefs.json")
        if os.path.exists(candidate):
            return candidate
    raise ImportError("mo/_opdefs.json is missing: the native build writes it "
                      "(re-run scripts/setup.sh)")


@functools.cache
def by_name() -> dict[str, OpDef]:
    """Every registered op by mnemonic."""
    with open(_path()) as f:
        ops = json.load(f)["ops"]
    return {o["name"]: OpDef(o["name"], o["class"], o["summary"], o.get("family"),
                             o.get("arity"), tuple(o.get("kinds", ())),
                             o.get("kindsText", ""), o.get("reference", ""),
                             o.get("pythonName", o["name"]), bool(o.get("boolResult", 0)))
            for o in ops}


def family(name: str) -> list[OpDef]:
    """The ops of one family ("unary", "binary", "reduce"), in registry order."""
    return [o for o in by_name().values() if o.family == name]
