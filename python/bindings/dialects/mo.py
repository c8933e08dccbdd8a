"""The `mo` dialect: generated op classes and the mo types."""

from ._mo_ops_gen import *  # noqa: F401,F403
from ._mo_ops_gen import _Dialect  # noqa: F401
from .._mlir_libs._moDialects import *  # noqa: F401,F403
