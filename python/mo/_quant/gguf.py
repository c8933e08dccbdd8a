"""The GGUF/ggml block formats Q4_0, Q4_K, Q5_K and Q6_K, bit for bit (numpy).

Block layouts, bit packing and ports of ggml's reference quantizers; the
layouts and numerics are documented in :mod:`mo.graph.quantization`. Importing
this module registers the four encodings as built-ins
(``QuantizationEncoding.Q4_0``, ...).

Example:
    >>> import numpy as np
    >>> q4_0 = QuantizationEncoding.Q4_0
    >>> x = np.repeat(np.arange(-8, 8, dtype=np.float32) / 4, 2)[None]  # one block, d = 0.25
    >>> block = q4_0.quantize_blocks(x)
    >>> block.shape, q4_0.layout.dtype.names, bool((q4_0.dequantize_blocks(block) == x).all())
    ((1, 18), ('d', 'qs'), True)
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from mo._quant.encoding import BlockParameters, QuantizationEncoding, _BlockError, _register_builtin

__all__: list[str] = []  # the encodings are reached through the registry

_F32 = np.float32


# --------------------------------------------------------------------------------------
# Shared block-layout machinery for the GGUF formats
# --------------------------------------------------------------------------------------


class _BlockLayout:
    """A packed little-endian block struct: named fields of fixed-size arrays."""

    def __init__(self, *fields: tuple[str, str, int]) -> None:
        self.dtype = np.dtype(
            [(name, dt, (count,)) if count > 1 else (name, dt) for name, dt, count in fields]
        )

    @property
    def size(self) -> int:
        return self.dtype.itemsize

    def unpack(self, blocks: np.ndarray) -> np.ndarray:
        """uint8 ``[n, size]`` -> a structured ``[n]`` view with one entry per field."""
        return np.ascontiguousarray(blocks).view(self.dtype).reshape(-1)

    def pack(self, n: int, **fields: np.ndarray) -> np.ndarray:
        """Field arrays -> uint8 ``[n, size]``."""
        out = np.empty(n, dtype=self.dtype)
        for name in self.dtype.names or ():
            out[name] = fields[name]
        return out.view(np.uint8).reshape(n, self.size)


def _pack_planes(codes: np.ndarray, bits: int, group: int) -> np.ndarray:
    """Packs ``bits``-bit codes ``[n, E]`` into bytes ``[n, E * bits / 8]``.

    The ggml layouts store codes in bit planes: within every run of
    ``planes * group`` codes (``planes = 8 // bits``), code ``p * group + i`` goes
    to bits ``[bits * p, bits * (p + 1))`` of byte ``i`` of the run.
    """
    planes = 8 // bits
    n = codes.shape[0]
    runs = codes.reshape(n, -1, planes, group)
    out = runs[:, :, 0, :].copy()
    for p in range(1, planes):
        out |= runs[:, :, p, :] << np.uint8(bits * p)
    return out.reshape(n, -1)


def _unpack_planes(data: np.ndarray, bits: int, group: int) -> np.ndarray:
    """Inverse of :func:`_pack_planes`: bytes ``[n, B]`` -> codes ``[n, B * 8 / bits]``."""
    planes = 8 // bits
    n = data.shape[0]
    shifts = (np.arange(planes, dtype=np.uint8) * np.uint8(bits)).reshape(1, 1, planes, 1)
    codes = (data.reshape(n, -1, 1, group) >> shifts) & np.uint8((1 << bits) - 1)
    return codes.reshape(n, -1)


def _to_f16(x: np.ndarray) -> np.ndarray:
    """float32 -> float16, rounding to nearest even like ``GGML_FP32_TO_FP16``."""
    return x.astype(np.float16)


def _nearest_int(x: np.ndarray) -> np.ndarray:
    """ggml's ``nearest_int``: the float32 magic-number rounding (half to even).

    Emulated bit for bit, including its wrap-around outside ``|x| <= 2**22``.
    """
    bits = (x + _F32(12582912.0)).view(np.int32)
    return (bits & np.int32(0x007FFFFF)) - np.int32(0x00400000)


def _seqsum(terms: np.ndarray, *, from_zero: bool = True) -> np.ndarray:
    """Sums ``terms[0] + terms[1] + ...`` along axis 0 in that order, like a C loop.

    Float addition is not associative, so ggml's sequential float32 accumulation is
    reproduced explicitly (numpy's own ``sum`` may use pairwise summation). With
    ``from_zero`` the accumulator starts at +0.0 (``float s = 0; s += ...``),
    otherwise at ``terms[0]``. ``terms`` may have trailing axes; several sums can be
    stacked as ``terms[:, k, ...]`` by passing a transposed view.
    """
    acc = terms[0] + _F32(0) if from_zero else terms[0].copy()
    for row in terms[1:]:
        acc += row
    return acc


# nearest_int(v) equals round-half-to-even(v) exactly when |v| < 2**22.
_RINT_SAFE = 4_000_000.0


def _round_codes(v: np.ndarray, bound: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """In place: ``v = clamp(nearest_int(v), lo, hi)`` as float32.

    ``bound`` bounds ``|v|`` per group (column); callers pass 0 for groups whose
    codes they discard. When every bound is small the fast ``rint`` is exact,
    otherwise ggml's magic-number rounding is emulated bit for bit.
    """
    if bound.size == 0 or bound.max() < _RINT_SAFE:  # False for NaN/inf bounds
        np.rint(v, out=v)
    else:
        v[...] = _nearest_int(v)
    return np.clip(v, _F32(lo), _F32(hi), out=v)


def _first_absmax(x: np.ndarray, axis: int) -> np.ndarray:
    """The element of largest magnitude along ``axis`` (first one on ties), as ggml picks it."""
    idx = np.expand_dims(np.argmax(np.abs(x), axis=axis), axis)
    return np.take_along_axis(x, idx, axis=axis).squeeze(axis)


def _check_scales(problem: str, *scales: np.ndarray) -> None:
    """Raises :class:`_BlockError` for the first block (row) with a non-finite scale."""
    bad = np.zeros(scales[0].shape[0], dtype=bool)
    for s in scales:
        bad |= ~np.isfinite(s.reshape(s.shape[0], -1)).all(axis=1)
    if bad.any():
        raise _BlockError(int(np.argmax(bad)), problem)


_OVERFLOW = "values too large: the block's float16 scale overflows"


class _GGUFEncoding(QuantizationEncoding):
    """Common base of the built-in GGUF encodings."""

    layout: ClassVar[_BlockLayout]
    _name: ClassVar[str]
    _epb: ClassVar[int]

    @property
    def name(self) -> str:
        return self._name

    @property
    def block_parameters(self) -> BlockParameters:
        return BlockParameters(self._epb, self.layout.size)

    @property
    def is_gguf(self) -> bool:
        return True


# --------------------------------------------------------------------------------------
# Q4_0
# --------------------------------------------------------------------------------------


class _Q4_0(_GGUFEncoding):
    """32 elements: ``x = d * (q - 8)`` with a float16 ``d`` and 4-bit ``q``."""

    _name = "Q4_0"
    _epb = 32
    layout = _BlockLayout(("d", "<f2", 1), ("qs", "u1", 16))

    def quantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        # quantize_row_q4_0_ref: d = max / -8 where max is the first element of
        # largest magnitude; q = min(15, (int8_t)(x * (1 / d) + 8.5)).
        vmax = _first_absmax(blocks, axis=1)
        d = vmax / _F32(-8)
        inv = np.where(d == 0, _F32(0), _F32(1) / d)
        v = blocks * inv[:, None] + _F32(8.5)
        # (int8_t) of a non-finite float (reachable only when 1/d overflows for a
        # subnormal d, whose float16 is 0 anyway) is 0 on x86, as in ggml and gguf.
        q = np.where(np.isfinite(v), np.clip(np.trunc(v), 0, 15), 0).astype(np.uint8)
        d16 = _to_f16(d)
        _check_scales(_OVERFLOW, d16)
        return self.layout.pack(blocks.shape[0], d=d16, qs=_pack_planes(q, 4, 16))

    def dequantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        rec = self.layout.unpack(blocks)
        d = rec["d"].astype(_F32)[:, None]
        q = _unpack_planes(rec["qs"], 4, 16).astype(np.int8) - np.int8(8)
        return d * q.astype(_F32)


# --------------------------------------------------------------------------------------
# K-quants: super-blocks of 256
# --------------------------------------------------------------------------------------

_QK_K = 256
_GROUP_MAX_EPS = _F32(1e-15)


def _make_qkx2_quants(
    x: np.ndarray, weights: np.ndarray, nmax: int, rmin: float, rdelta: float, nstep: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ggml's ``make_qkx2_quants`` for many groups at once.

    Fits ``x ~ scale * L - the_min`` with ``L`` in ``[0, nmax]`` by trying
    ``nstep + 1`` candidate inverse scales, each followed by a weighted
    least-squares refit of scale and min, keeping the best weighted squared error.

    Args:
        x, weights: float32 ``[n, G]``: column ``g`` is one group of ``n`` values.

    Returns:
        ``(L, scale, the_min)``: uint8 ``[n, G]``, float32 ``[G]``, float32 ``[G]``.
    """
    fmax = _F32(nmax)
    xmin = x.min(axis=0)
    hi = x.max(axis=0)
    sum_w = _seqsum(weights, from_zero=False)
    sum_x = _seqsum(weights * x, from_zero=False)
    lo = np.where(xmin > 0, _F32(0), xmin)
    flat = hi == lo  # ggml returns L = 0, scale = 0 for these

    laux = np.empty_like(x)
    prods = np.empty((3, *x.shape), dtype=_F32)  # w*l, w*l*l, w*l*x

    def codes(iscale: np.ndarray, lo: np.ndarray) -> np.ndarray:
        """laux = clamp(nearest_int(iscale * (x - lo)), 0, nmax)."""
        np.subtract(x, lo, out=laux)
        np.multiply(laux, iscale, out=laux)
        span = np.maximum(np.abs(hi - lo), np.abs(xmin - lo)).astype(np.float64)
        bound = np.where(flat, 0.0, np.abs(iscale) * span * (1 + 1e-6))
        return _round_codes(laux, bound, 0, nmax)

    def weighted_error(scale: np.ndarray, lo: np.ndarray) -> np.ndarray:
        """sum(w * (scale * L + min - x)**2) over each group, for L = laux."""
        diff = prods[0]
        np.multiply(laux, scale, out=diff)
        diff += lo
        diff -= x
        np.multiply(diff, diff, out=diff)
        diff *= weights
        return _seqsum(diff)

    # The codes of the best candidate are recomputed at the end from the inverse
    # scale and min that produced them, instead of being copied at every step.
    iscale = fmax / (hi - lo)
    scale = _F32(1) / iscale
    codes(iscale, lo)
    best = weighted_error(scale, lo)
    best_iscale, best_lo = iscale, lo
    for step in range(nstep + 1):
        iscale = (_F32(rmin) + _F32(rdelta) * _F32(step) + fmax) / (hi - lo)
        codes(iscale, lo)
        np.multiply(weights, laux, out=prods[0])
        np.multiply(prods[0], laux, out=prods[1])
        np.multiply(prods[0], x, out=prods[2])
        sum_l, sum_l2, sum_xl = _seqsum(prods.swapaxes(0, 1))
        det = sum_w * sum_l2 - sum_l * sum_l
        this_scale = (sum_w * sum_xl - sum_x * sum_l) / det
        this_min = (sum_l2 * sum_x - sum_l * sum_xl) / det
        clamp = this_min > 0
        this_min = np.where(clamp, _F32(0), this_min)
        this_scale = np.where(clamp, sum_xl / sum_l2, this_scale)
        err = weighted_error(this_scale, this_min)
        better = (det > 0) & (err < best)
        best = np.where(better, err, best)
        best_iscale = np.where(better, iscale, best_iscale)
        best_lo = np.where(better, lo, best_lo)
        scale = np.where(better, this_scale, scale)
        lo = np.where(better, this_min, lo)
    levels = codes(best_iscale, best_lo)
    levels[:, flat] = 0
    scale = np.where(flat, _F32(0), scale)
    return levels.astype(np.uint8), scale, -lo


def _make_qx_quants(x: np.ndarray, nmax: int) -> tuple[np.ndarray, np.ndarray]:
    """ggml's ``make_qx_quants`` with ``rmse_type == 1`` and no importance weights.

    Fits ``x ~ scale * (L - nmax)`` with ``L`` in ``[0, 2 * nmax)`` (weights ``x**2``),
    trying 19 inverse scales around ``-nmax / max``.

    Args:
        x: float32 ``[n, G]``: column ``g`` is one group.

    Returns:
        ``(L, scale)``: uint8 ``[n, G]`` and float32 ``[G]``.
    """
    vmax = _first_absmax(x, axis=0)
    tiny = np.abs(vmax) < _GROUP_MAX_EPS  # ggml returns L = 0, scale = 0 for these
    amax = np.abs(vmax).astype(np.float64)
    w = x * x
    wx = w * x
    l = np.empty_like(x)
    prods = np.empty((2, *x.shape), dtype=_F32)  # w*x*l, w*l*l

    def codes(iscale: np.ndarray) -> np.ndarray:
        """l = clamp(nearest_int(iscale * x), -nmax, nmax - 1)."""
        np.multiply(x, iscale, out=l)
        bound = np.where(tiny, 0.0, np.abs(iscale) * amax * (1 + 1e-6))
        return _round_codes(l, bound, -nmax, nmax - 1)

    def fit(iscale: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        codes(iscale)
        np.multiply(wx, l, out=prods[0])
        np.multiply(w, l, out=prods[1])
        prods[1] *= l
        sumlx, suml2 = _seqsum(prods.swapaxes(0, 1))
        return sumlx, suml2

    best_iscale = _F32(-nmax) / vmax
    sumlx, suml2 = fit(best_iscale)
    scale = np.where(suml2 != 0, sumlx / suml2, _F32(0))
    best = scale * sumlx
    for step in range(-9, 10):
        if step == 0:
            continue
        iscale = -(_F32(nmax) + _F32(0.1) * _F32(step)) / vmax
        sumlx, suml2 = fit(iscale)
        better = (suml2 > 0) & (sumlx * sumlx > best * suml2)
        best_iscale = np.where(better, iscale, best_iscale)
        scale = np.where(better, sumlx / suml2, scale)
        best = np.where(better, scale * sumlx, best)
    levels = codes(best_iscale)
    levels += _F32(nmax)
    levels[:, tiny] = 0
    scale = np.where(tiny, _F32(0), scale)
    return levels.astype(np.uint8), scale


def _requantize(
    x: np.ndarray, levels: np.ndarray, d: np.ndarray, offset: np.ndarray | None, lo: int, hi: int
) -> np.ndarray:
    """The final pass of the K-quantizers: ``L = clamp(nearest_int((x + m) / d))``.

    Groups whose float16-rounded scale ``d`` is zero keep the ``levels`` of the search
    (ggml's ``if (!d) continue;``). Codes are returned shifted to be non-negative.

    Args:
        x: float32 ``[n, G]``; ``d`` and ``offset``: float32 ``[G]``.
    """
    v = x + offset if offset is not None else x
    q = np.clip(_nearest_int(v / d), lo, hi) - lo
    return np.where(d != 0, q, levels).astype(np.uint8)


def _group_major(blocks: np.ndarray, group: int) -> np.ndarray:
    """float32 ``[n, 256]`` -> ``[group, n * 256 / group]``: one column per group."""
    return np.ascontiguousarray(blocks.reshape(-1, group).T)


def _block_major(codes: np.ndarray, n: int) -> np.ndarray:
    """Inverse of :func:`_group_major` for the code array."""
    return np.ascontiguousarray(codes.T).reshape(n, _QK_K)


class _AffineKQuant(_GGUFEncoding):
    """Q4_K / Q5_K: 8 groups of 32 with 6-bit scales and mins, ``x = d*sc*q - dmin*m``.

    Subclasses set the code width and ggml's search parameters; Q5_K stores the
    fifth bit of each code in ``qh``.
    """

    _epb = _QK_K
    _bits: ClassVar[int]
    _search: ClassVar[tuple[float, float, int]]  # rmin, rdelta, nstep

    @staticmethod
    def _unpack_scales(scales: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``get_scale_min_k4`` for all 8 groups: 12 bytes -> 6-bit ``sc[8]``, ``m[8]``."""
        s = scales
        sc = np.concatenate([s[:, 0:4] & 63, (s[:, 8:12] & 0xF) | ((s[:, 0:4] >> 6) << 4)], axis=1)
        m = np.concatenate([s[:, 4:8] & 63, (s[:, 8:12] >> 4) | ((s[:, 4:8] >> 6) << 4)], axis=1)
        return sc, m

    @staticmethod
    def _pack_scales(sc: np.ndarray, m: np.ndarray) -> np.ndarray:
        return np.concatenate(
            [
                sc[:, :4] | ((sc[:, 4:] >> 4) << 6),
                m[:, :4] | ((m[:, 4:] >> 4) << 6),
                (sc[:, 4:] & 0xF) | ((m[:, 4:] & 0xF) << 4),
            ],
            axis=1,
        )

    def _codes(self, rec: np.ndarray) -> np.ndarray:
        q = _unpack_planes(rec["qs"], 4, 32)
        if self._bits == 5:
            q |= _unpack_planes(rec["qh"], 1, 32) << np.uint8(4)
        return q

    def dequantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        n = blocks.shape[0]
        rec = self.layout.unpack(blocks)
        sc, m = self._unpack_scales(rec["scales"])
        d = (rec["d"].astype(_F32)[:, None] * sc.astype(_F32))[:, :, None]
        dm = (rec["dmin"].astype(_F32)[:, None] * m.astype(_F32))[:, :, None]
        q = self._codes(rec).reshape(n, 8, 32).astype(_F32)
        return (d * q - dm).reshape(n, _QK_K)

    def quantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        n = blocks.shape[0]
        nmax = (1 << self._bits) - 1
        x = _group_major(blocks, 32)
        # Weights: av_x + |x| with av_x the group's RMS (quantize_row_q4_K_ref).
        av_x = np.sqrt(_seqsum(x * x) / _F32(32))
        levels, scales, mins = _make_qkx2_quants(x, av_x + np.abs(x), nmax, *self._search)
        scales = scales.reshape(n, 8)
        mins = mins.reshape(n, 8)
        max_scale = np.maximum(scales.max(axis=1), _F32(0))
        max_min = np.maximum(mins.max(axis=1), _F32(0))
        inv_scale = np.where(max_scale > 0, _F32(63) / max_scale, _F32(0))
        inv_min = np.where(max_min > 0, _F32(63) / max_min, _F32(0))
        # uint8_t ls = nearest_int(...); ls = MIN(63, ls);
        ls = np.minimum(_nearest_int(inv_scale[:, None] * scales).astype(np.uint8), 63)
        lm = np.minimum(_nearest_int(inv_min[:, None] * mins).astype(np.uint8), 63)
        d16 = _to_f16(max_scale / _F32(63))
        dmin16 = _to_f16(max_min / _F32(63))
        _check_scales(_OVERFLOW, d16, dmin16, scales, mins)
        d = (d16.astype(_F32)[:, None] * ls.astype(_F32)).reshape(-1)
        dm = (dmin16.astype(_F32)[:, None] * lm.astype(_F32)).reshape(-1)
        codes = _block_major(_requantize(x, levels, d, dm, 0, nmax), n)
        fields = {
            "d": d16,
            "dmin": dmin16,
            "scales": self._pack_scales(ls, lm),
            "qs": _pack_planes(codes & np.uint8(0xF), 4, 32),
        }
        if self._bits == 5:
            fields["qh"] = _pack_planes(codes >> np.uint8(4), 1, 32)
        return self.layout.pack(n, **fields)


class _Q4_K(_AffineKQuant):
    _name = "Q4_K"
    _bits = 4
    _search = (-1.0, 0.1, 20)
    layout = _BlockLayout(
        ("d", "<f2", 1), ("dmin", "<f2", 1), ("scales", "u1", 12), ("qs", "u1", 128)
    )


class _Q5_K(_AffineKQuant):
    _name = "Q5_K"
    _bits = 5
    _search = (-0.5, 0.1, 15)
    layout = _BlockLayout(
        ("d", "<f2", 1),
        ("dmin", "<f2", 1),
        ("scales", "u1", 12),
        ("qh", "u1", 32),
        ("qs", "u1", 128),
    )


class _Q6_K(_GGUFEncoding):
    """16 groups of 16 with 8-bit signed scales: ``x = d * sc * (q - 32)``, 6-bit ``q``."""

    _name = "Q6_K"
    _epb = _QK_K
    layout = _BlockLayout(
        ("ql", "u1", 128), ("qh", "u1", 64), ("scales", "i1", 16), ("d", "<f2", 1)
    )

    def dequantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        n = blocks.shape[0]
        rec = self.layout.unpack(blocks)
        q = _unpack_planes(rec["ql"], 4, 64) | (_unpack_planes(rec["qh"], 2, 32) << np.uint8(4))
        q = (q.astype(np.int8) - np.int8(32)).reshape(n, 16, 16).astype(_F32)
        d = rec["d"].astype(_F32)[:, None] * rec["scales"].astype(_F32)
        return (d[:, :, None] * q).reshape(n, _QK_K)

    def quantize_blocks(self, blocks: np.ndarray) -> np.ndarray:
        n = blocks.shape[0]
        x = _group_major(blocks, 16)
        levels, scales = _make_qx_quants(x, 32)
        scales = scales.reshape(n, 16)
        max_scale = _first_absmax(scales, axis=1)
        zero = np.abs(max_scale) < _GROUP_MAX_EPS
        iscale = _F32(-128) / max_scale
        d16 = np.where(zero, np.float16(0), _to_f16(_F32(1) / iscale))
        _check_scales(
            _OVERFLOW, np.where(zero, np.float16(0), d16), np.where(zero[:, None], _F32(0), scales)
        )
        # y.scales[ib] = MIN(127, nearest_int(iscale * scales[ib])), stored as int8_t.
        sc = np.minimum(_nearest_int(iscale[:, None] * scales), 127).astype(np.int8)
        sc = np.where(zero[:, None], np.int8(0), sc)
        d = (d16.astype(_F32)[:, None] * sc.astype(_F32)).reshape(-1)
        codes = _requantize(x, levels, d, None, -32, 31)
        # All-zero blocks are written as zero bytes (memset in ggml).
        codes = np.where(np.repeat(zero, 16)[None, :], np.uint8(0), codes)
        codes = _block_major(codes, n)
        return self.layout.pack(
            n,
            ql=_pack_planes(codes & np.uint8(0xF), 4, 64),
            qh=_pack_planes(codes >> np.uint8(4), 2, 32),
            scales=sc,
            d=d16,
        )


for _cls in (_Q4_0, _Q4_K, _Q5_K, _Q6_K):
    _register_builtin(_cls())
del _cls
