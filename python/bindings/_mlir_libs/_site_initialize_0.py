"""Registers mo and the upstream dialects it uses in every new Context."""

from ._moDialects import register_dialects  # noqa: F401
