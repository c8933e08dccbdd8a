"""Block quantization encodings with numpy reference implementations.

The built-in encodings are the GGUF/ggml block formats, bit for bit:

=========  ==================  ===========  ==========================================
encoding   elements per block  block bytes  layout (little endian)
=========  ==================  ===========  ==========================================
``Q4_0``   32                  18           ``d: f16, qs: u8[16]``
``Q4_K``   256                 144          ``d: f16, dmin: f16, scales: u8[12],
                                            qs: u8[128]``
``Q5_K``   256                 176          ``d: f16, dmin: f16, scales: u8[12],
                                            qh: u8[32], qs: u8[128]``
``Q6_K``   256                 210          ``ql: u8[128], qh: u8[64], scales: i8[16],
                                            d: f16``
=========  ==================  ===========  ==========================================

A float32 tensor ``[..., K]`` quantizes row-wise into a uint8 tensor
``[..., K / elements_per_block * block_size]``; ``K`` must be a multiple of
``elements_per_block``.

Numerics:

* Dequantization reproduces ggml's ``dequantize_row_*`` (and the ``gguf``
  package's ``gguf.quants.dequantize``) bit for bit, including NaN/inf scales,
  which propagate to the output exactly as they do there.
* Quantization reproduces ggml's reference quantizers (``quantize_row_q4_0_ref``,
  ``quantize_row_q4_K_ref``, ``quantize_row_q5_K_ref``, ``quantize_row_q6_K_ref``)
  with IEEE single precision arithmetic evaluated in C order and without fused
  multiply-adds (what ggml computes when built with ``-ffp-contract=off``; builds
  that contract ``a*b - c*d`` into FMAs can differ in the last bit of a
  search step, and so occasionally in a code).
* ggml's reference quantizers are undefined for non-finite input (the result of a
  NaN depends on its position in the block and on the C compiler's float-to-int
  conversion) and write an infinite float16 scale when a block's magnitude is too
  large for float16, data that ``ggml_validate_row_data`` (and so llama.cpp's
  quantizer) rejects. :func:`quantize` raises :class:`ValueError` for both
  instead of producing such data. Subnormal inputs are handled as in ggml: scales
  that round to zero in float16 give zero blocks.

User-defined encodings subclass :class:`QuantizationEncoding` and are made
available by name with :func:`register_encoding`; :func:`quantize`,
:func:`dequantize`, :func:`get_encoding` and :mod:`mo.checkpoint` then treat them
like the built-ins.

The codecs live in ``mo._quant`` (pure numpy, nothing to do with graphs); this
module is their public path.

Example:
    >>> import numpy as np
    >>> q = quantize("Q4_K", np.ones((2, 256), np.float32))
    >>> q.shape, get_encoding("q4_k") is QuantizationEncoding.Q4_K
    ((2, 144), True)
"""

from mo._quant.encoding import (
    BlockParameters,
    QuantizationEncoding,
    dequantize,
    get_encoding,
    list_encodings,
    quantize,
    register_encoding,
    unregister_encoding,
)

__all__ = [
    "BlockParameters",
    "QuantizationEncoding",
    "dequantize",
    "get_encoding",
    "list_encodings",
    "quantize",
    "register_encoding",
    "unregister_encoding",
]
