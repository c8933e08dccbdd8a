"""Complex views and the inverse real FFT (MAX's ``as_interleaved_complex``
and ``irfft``), re-exported by ``mo.graph.ops``. mo has no complex dtype: a
complex tensor is a real one whose last dim (of size 2) holds (real, imag).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mo.graph.dim import Dim
from mo.graph.graph import TensorValue
from mo.graph.ops import (
    add,
    as_tensor_value,
    constant,
    matmul,
    op_error,
    permute,
    reshape,
    slice_tensor,
)


def as_interleaved_complex(x: Any) -> TensorValue:
    """``[..., 2 n]`` of alternating (real, imag) as ``[..., n, 2]``."""
    v = as_tensor_value(x)
    last = v.shape[-1] if v.rank else None
    if last is None or not last.is_static or int(last) % 2:
        raise op_error("as_interleaved_complex", [v], f"the last dim must be static and even, "
                                                      f"got shape {v.shape}")
    return reshape(v, [*v.shape[:-1], Dim(int(last) // 2), Dim(2)])


def irfft(input_tensor: Any, n: int | None = None, axis: int = -1,
          normalization: str = "backward", input_is_complex: bool = False,
          buffer_size_mb: int = 512) -> TensorValue:
    """The inverse of a real FFT along ``axis`` (numpy's ``irfft``): the input
    holds the ``m`` non-negative frequencies as complex numbers (interleaved
    pairs in its last dim, or ``[..., 2]`` with ``input_is_complex``), the
    result ``n`` real samples (default ``2 (m - 1)``); ``normalization``
    "backward" scales by ``1/n``, "ortho" by ``1/sqrt(n)``, "forward" not at
    all. A matrix product with the inverse DFT's cosines and sines (static
    sizes); ``buffer_size_mb`` is accepted for MAX compatibility."""
    x = as_tensor_value(input_tensor)
    inputs = [x, n, axis]
    if not x.dtype.is_float:
        raise op_error("irfft", inputs, f"irfft is defined on floating-point tensors, got "
                                        f"{x.dtype.name}")
    z = x if input_is_complex else as_interleaved_complex(x)
    if z.rank < 2 or z.shape[-1] != Dim(2):
        raise op_error("irfft", inputs, f"a complex input ends in a dim of 2, got {z.shape}")
    scales = {"backward": None, "ortho": None, "forward": 1.0}
    if normalization not in scales:
        raise op_error("irfft", inputs, f"normalization must be 'backward', 'ortho' or "
                                        f"'forward', got {normalization!r}")
    # The frequency axis among the dims before the (real, imag) pair.
    rank = z.rank - 1
    if isinstance(axis, bool) or not isinstance(axis, int) or not -rank <= axis < rank:
        raise op_error("irfft", inputs, f"axis must be an int in [-{rank}, {rank}), got {axis!r}")
    ax = axis % rank
    m = z.shape[ax]
    if not m.is_static:
        raise op_error("irfft", inputs, f"the frequency dim must be static, got {m}")
    m = int(m)
    n = 2 * (m - 1) if n is None else int(n)
    if n < 1:
        raise op_error("irfft", inputs, f"n must be >= 1, got {n}")
    scale = {"backward": 1.0 / n, "ortho": 1.0 / math.sqrt(n), "forward": 1.0}[normalization]
    # Frequencies used: up to n // 2 (missing ones are zero, extra ones ignored).
    used = min(m, n // 2 + 1)
    j = np.arange(used)[:, None]
    k = np.arange(n)[None, :]
    weight = np.where((j == 0) | ((n % 2 == 0) & (j == n // 2)), 1.0, 2.0)
    angle = 2 * np.pi * j * k / n
    cos = constant((weight * np.cos(angle) * scale).astype(x.dtype.to_numpy()), x.dtype, x.device)
    sin = constant((-weight * np.sin(angle) * scale).astype(x.dtype.to_numpy()), x.dtype,
                   x.device)
    # Move the frequency axis last, split real and imaginary parts.
    perm = [d for d in range(rank) if d != ax] + [ax]
    zp = permute(z, perm + [rank])
    lead = [slice(None)] * (rank - 1)
    real = slice_tensor(zp, (*lead, slice(0, used), 0))
    imag = slice_tensor(zp, (*lead, slice(0, used), 1))
    out = add(matmul(real if rank > 1 else reshape(real, [1, used]), cos),
              matmul(imag if rank > 1 else reshape(imag, [1, used]), sin))
    if rank == 1:
        return reshape(out, [n])
    back = [perm.index(d) for d in range(rank)]
    return permute(out, back)

