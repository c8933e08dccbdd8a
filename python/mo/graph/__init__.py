"""Graph builder (MAX ``max.graph`` surface).

``Graph``, ``TensorValue``, ``ops`` and friends need mo's native library and
load on first use; ``Dim``, ``TensorType``, ``DeviceRef`` do not.
"""

from mo.graph.dim import AlgebraicDim, Dim, Shape, StaticDim, SymbolicDim
from mo.graph.type import BufferType, DeviceRef, TensorType

_NATIVE = {
    "Graph": "mo.graph.graph",
    "TensorValue": "mo.graph.graph",
    "BufferValue": "mo.graph.graph",
    "Value": "mo.graph.graph",
    "layer": "mo.graph.graph",
    "current_layer": "mo.graph.graph",
}

__all__ = ["AlgebraicDim", "BufferType", "DeviceRef", "Dim", "Shape", "StaticDim",
           "SymbolicDim", "TensorType", "ops", "quantization", *_NATIVE]


def __getattr__(name: str):
    import importlib

    if name in ("ops", "quantization"):
        return importlib.import_module(f"mo.graph.{name}")
    if name in _NATIVE:
        return getattr(importlib.import_module(_NATIVE[name]), name)
    raise AttributeError(f"module 'mo.graph' has no attribute {name!r}")
