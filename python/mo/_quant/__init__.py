"""Block-quantization codecs (pure numpy), public as :mod:`mo.graph.quantization`.

:mod:`mo._quant.encoding` holds the encoding protocol, the registry and row-wise
``quantize``/``dequantize``; :mod:`mo._quant.gguf` the built-in GGUF formats,
registered whenever this package is imported.
"""

from mo._quant import gguf as _gguf  # noqa: F401 (registers the built-in encodings)
