"""llama.cpp's reference quantizers (`quantize_row_*_ref` of ggml-quants.c), in numpy.

Our implementation of the published algorithms, vectorized over blocks and
sub-blocks but keeping the C code's f32 evaluation order: every product,
quotient and running sum is one f32 operation in the C order (sums run
element by element, never pairwise), `nearest_int` is ggml's
`fval + 12582912.f` bit trick (round half to even), f32 -> f16 is round to
nearest even, float -> integer stores truncate and wrap as C does. The
results are byte-identical to ggml's C quantizers compiled without FMA
contraction (x86-64 baseline, as ggml builds its base library), which
`tests/numerics/test_gguf.py` checks against bytes from `ggml-python`.

Formats: Q4_0, Q8_0 (plain absmax), Q2_K, Q4_K, Q5_K (`make_qkx2_quants`:
weighted search of scale and min), Q3_K (`make_q3_quants`), Q6_K
(`make_qx_quants`: weighted scale search); the sub-block scales are then
quantized to 4/6/8 bits under one f16 super-block scale. IQ4_NL and IQ4_XS:
`quantize_iq4_nl` / `quantize_iq4_xs` without importance weights (the scale
search of `quantize_row_iq4_nl_impl` with ntry = 7, what `ggml_quantize_chunk`
and llama-quantize run), with ggml 0.15's `best_index_int8` (nearest table
entry, an f32 tie going up; later ggml compares against midpoints instead).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from xquant.numerics.gguf.layouts import IQ4_NL_VALUES, LAYOUTS, QK_K, GGMLType

F32 = np.float32
_CHUNK_ELEMENTS = 1 << 18
GROUP_MAX_EPS = F32(1e-15)


def nearest_int(v: np.ndarray) -> np.ndarray:
    """ggml's `nearest_int`: `fval + 12582912.f`, the low 23 bits, minus 2^22
    (round half to even for |v| < 2^22; the same bits as C beyond)."""
    with np.errstate(invalid="ignore", over="ignore"):
        val = np.asarray(v, F32) + F32(12582912.0)
    return (val.view(np.int32) & 0x007FFFFF) - 0x00400000


def round_half_away(v: np.ndarray) -> np.ndarray:
    """C's `roundf` on f32 values, exactly (no `floor(x + 0.5)` double rounding)."""
    t = np.trunc(v)
    return t + np.where(np.abs(v - t) >= F32(0.5), np.sign(v), F32(0))


def _f16_bytes(v: np.ndarray) -> np.ndarray:
    """`GGML_FP32_TO_FP16` (round to nearest even) as two little-endian bytes."""
    with np.errstate(over="ignore"):
        return np.asarray(v, F32).astype("<f2").reshape(-1, 1).view(np.uint8)


def _f16_round(v: np.ndarray) -> np.ndarray:
    """`GGML_FP16_TO_FP32(GGML_FP32_TO_FP16(v))`."""
    with np.errstate(over="ignore"):
        return np.asarray(v, F32).astype(np.float16).astype(F32)


def _seq_sum(terms: np.ndarray) -> np.ndarray:
    """`s = 0; for i: s += terms[:, i]` in f32, left to right."""
    columns = np.ascontiguousarray(terms.T)
    s = np.zeros(terms.shape[0], F32)
    for column in columns:
        s += column
    return s


def _first_absmax(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`if (fabsf(x[i]) > amax) { amax = fabsf(x[i]); max = x[i]; }` from 0:
    the first element of largest magnitude, and its magnitude."""
    ax = np.abs(x)
    idx = np.argmax(ax, axis=1)
    mx = np.take_along_axis(x, idx[:, None], axis=1)[:, 0]
    amax = np.take_along_axis(ax, idx[:, None], axis=1)[:, 0]
    return np.where(amax > 0, mx, F32(0)), np.maximum(amax, F32(0))


# ------------------------------------------------------------ scale searches


def make_qkx2_quants(
    x: np.ndarray,
    weights: np.ndarray,
    nmax: int,
    rmin: float,
    rdelta: float,
    nstep: int,
    use_mad: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted least-squares search of a scale and a min per row of `x`
    (ggml's `make_qkx2_quants`): (scale, -min, L) with codes L in [0, nmax]."""
    n = x.shape[1]
    mn = x[:, 0].copy()
    mx = x[:, 0].copy()
    sum_w = weights[:, 0].copy()
    sum_x = sum_w * x[:, 0]
    for i in range(1, n):
        xi = x[:, i]
        mn = np.where(xi < mn, xi, mn)
        mx = np.where(xi > mx, xi, mx)
        sum_w = sum_w + weights[:, i]
        sum_x = sum_x + weights[:, i] * xi
    mn = np.where(mn > 0, F32(0), mn)
    flat = mx == mn
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        iscale = F32(nmax) / (mx - mn)
        scale = F32(1) / iscale
        levels = np.clip(nearest_int(iscale[:, None] * (x - mn[:, None])), 0, nmax)
        diff = scale[:, None] * levels.astype(F32) + mn[:, None] - x
        err = np.abs(diff) if use_mad else diff * diff
        best_error = _seq_sum(weights * err)
        for step in range(nstep + 1):
            num = F32(rmin) + F32(rdelta) * F32(step) + F32(nmax)
            iscale = num / (mx - mn)
            laux = np.clip(nearest_int(iscale[:, None] * (x - mn[:, None])), 0, nmax)
            lf = laux.astype(F32)
            wl = weights * lf
            sum_l = _seq_sum(wl)
            sum_l2 = _seq_sum(wl * lf)
            sum_xl = _seq_sum(wl * x)
            det = sum_w * sum_l2 - sum_l * sum_l
            this_scale = (sum_w * sum_xl - sum_x * sum_l) / det
            this_min = (sum_l2 * sum_x - sum_l * sum_xl) / det
            pos = this_min > 0
            this_min = np.where(pos, F32(0), this_min)
            this_scale = np.where(pos, sum_xl / sum_l2, this_scale)
            diff = this_scale[:, None] * lf + this_min[:, None] - x
            err = np.abs(diff) if use_mad else diff * diff
            cur_error = _seq_sum(weights * err)
            better = (det > 0) & (cur_error < best_error)
            levels = np.where(better[:, None], laux, levels)
            best_error = np.where(better, cur_error, best_error)
            scale = np.where(better, this_scale, scale)
            mn = np.where(better, this_min, mn)
    levels = np.where(flat[:, None], 0, levels)
    scale = np.where(flat, F32(0), scale)
    return scale.astype(F32), (-mn).astype(F32), levels.astype(np.uint8)


def make_qx_quants(x: np.ndarray, nmax: int) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric scale search weighted by x^2 (ggml's `make_qx_quants` with
    `rmse_type = 1` and no importance weights): (scale, L), L in [0, 2 nmax)."""
    mx, amax = _first_absmax(x)
    zero = amax < GROUP_MAX_EPS
    w = x * x
    wx = w * x
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):

        def trial(iscale: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            lv = np.clip(nearest_int(iscale[:, None] * x), -nmax, nmax - 1)
            lf = lv.astype(F32)
            return lv, _seq_sum(wx * lf), _seq_sum(w * lf * lf)

        levels, sumlx, suml2 = trial(F32(-nmax) / mx)
        scale = np.where(suml2 != 0, sumlx / suml2, F32(0))
        best = scale * sumlx
        for step in range(-9, 10):
            if step == 0:
                continue
            iscale = -(F32(nmax) + F32(0.1) * F32(step)) / mx
            lv, slx, sl2 = trial(iscale)
            better = (sl2 > 0) & (slx * slx > best * sl2)
            levels = np.where(better[:, None], lv, levels)
            scale = np.where(better, slx / sl2, scale)
            best = np.where(better, scale * slx, best)
    levels = np.where(zero[:, None], -nmax, levels)
    return np.where(zero, F32(0), scale).astype(F32), (levels + nmax).astype(np.int8)


def make_q3_quants(x: np.ndarray, nmax: int) -> tuple[np.ndarray, np.ndarray]:
    """ggml's `make_q3_quants` with `do_rmse`: a start from the absmax scale,
    then up to five passes moving single codes while the x^2-weighted fit
    improves. (scale, L), L in [0, 2 nmax)."""
    mx, amax = _first_absmax(x)
    zero = amax < GROUP_MAX_EPS
    n = x.shape[1]
    w = x * x
    wx = w * x
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        levels = np.clip(nearest_int((F32(-nmax) / mx)[:, None] * x), -nmax, nmax - 1)
        lf = levels.astype(F32)
        sumlx = _seq_sum(wx * lf)
        suml2 = _seq_sum(w * lf * lf)
        for _ in range(5):  # a row with no change in a pass stays unchanged after it
            for i in range(n):
                li = levels[:, i].astype(F32)
                slx = sumlx - wx[:, i] * li
                sl2 = suml2 - w[:, i] * li * li
                new = np.clip(nearest_int(x[:, i] * sl2 / slx), -nmax, nmax - 1)
                nf = new.astype(F32)
                slx2 = slx + wx[:, i] * nf
                sl22 = sl2 + w[:, i] * nf * nf
                take = (
                    (slx > 0)
                    & (new != levels[:, i])
                    & (sl22 > 0)
                    & (slx2 * slx2 * suml2 > sumlx * sumlx * sl22)
                )
                levels[:, i] = np.where(take, new, levels[:, i])
                sumlx = np.where(take, slx2, sumlx)
                suml2 = np.where(take, sl22, suml2)
        scale = np.where(suml2 > 0, sumlx / suml2, F32(0))
    levels = np.where(zero[:, None], -nmax, levels)
    return np.where(zero, F32(0), scale).astype(F32), (levels + nmax).astype(np.int8)


# ------------------------------------------------------------ block formats


def quantize_q8_0(x: np.ndarray) -> np.ndarray:
    """`quantize_row_q8_0_ref`: d = amax / 127, q = roundf(x / d)."""
    amax = np.max(np.abs(x), axis=1)
    d = amax / F32(127)
    with np.errstate(divide="ignore"):
        inv = np.where(d != 0, F32(1) / d, F32(0))
    q = round_half_away(x * inv[:, None]).astype(np.int8)
    return np.concatenate([_f16_bytes(d), q.view(np.uint8)], axis=1)


def quantize_q4_0(x: np.ndarray) -> np.ndarray:
    """`quantize_row_q4_0_ref`: d = max / -8 (max: the signed absmax),
    q = min(15, (int8)(x / d + 8.5))."""
    mx, _ = _first_absmax(x)
    d = mx / F32(-8)
    with np.errstate(divide="ignore"):
        inv = np.where(d != 0, F32(1) / d, F32(0))
    q = np.minimum(np.trunc(x * inv[:, None] + F32(8.5)), 15).astype(np.uint8)
    return np.concatenate([_f16_bytes(d), q[:, :16] | (q[:, 16:] << 4)], axis=1)


def _pack_k4_scales(ls: np.ndarray, lm: np.ndarray) -> np.ndarray:
    """Eight 6-bit scales and mins into Q4_K/Q5_K's 12 bytes."""
    out = np.zeros((ls.shape[0], 12), np.uint8)
    out[:, 0:4] = ls[:, :4] | ((ls[:, 4:] >> 4) << 6)
    out[:, 4:8] = lm[:, :4] | ((lm[:, 4:] >> 4) << 6)
    out[:, 8:12] = (ls[:, 4:] & 0xF) | ((lm[:, 4:] & 0xF) << 4)
    return out


def _quantize_qkx(
    x: np.ndarray, nmax: int, rmin: float, nstep: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The common part of Q4_K and Q5_K: (d bytes, dmin bytes, 12 scale
    bytes, codes (nb, 256) in [0, nmax])."""
    nb = x.shape[0]
    sub = x.reshape(nb * 8, 32)
    av_x = np.sqrt(_seq_sum(sub * sub) / F32(32))
    weights = av_x[:, None] + np.abs(sub)
    scales, mins, levels = make_qkx2_quants(sub, weights, nmax, rmin, 0.1, nstep, False)
    scales = scales.reshape(nb, 8)
    mins = mins.reshape(nb, 8)
    max_scale = np.maximum(np.max(scales, axis=1), F32(0))
    max_min = np.maximum(np.max(mins, axis=1), F32(0))
    with np.errstate(divide="ignore"):
        inv_scale = np.where(max_scale > 0, F32(63) / max_scale, F32(0))
        inv_min = np.where(max_min > 0, F32(63) / max_min, F32(0))
    ls = np.minimum(nearest_int(inv_scale[:, None] * scales) & 0xFF, 63).astype(
        np.uint8
    )
    lm = np.minimum(nearest_int(inv_min[:, None] * mins) & 0xFF, 63).astype(np.uint8)
    d = max_scale / F32(63)
    dmin = max_min / F32(63)
    dl = _f16_round(d)[:, None] * ls.astype(F32)
    dml = _f16_round(dmin)[:, None] * lm.astype(F32)
    levels = levels.reshape(nb, 8, 32)
    with np.errstate(divide="ignore", invalid="ignore"):
        requant = nearest_int((x.reshape(nb, 8, 32) + dml[..., None]) / dl[..., None])
    requant = np.clip(requant, 0, nmax).astype(np.uint8)
    levels = np.where((dl != 0)[..., None], requant, levels).reshape(nb, QK_K)
    return _f16_bytes(d), _f16_bytes(dmin), _pack_k4_scales(ls, lm), levels


def quantize_q4_k(x: np.ndarray) -> np.ndarray:
    """`quantize_row_q4_K_ref`."""
    d, dmin, scales, levels = _quantize_qkx(x, 15, -1.0, 20)
    lv = levels.reshape(-1, 4, 2, 32)
    qs = (lv[:, :, 0] | (lv[:, :, 1] << 4)).reshape(-1, 128)
    return np.concatenate([d, dmin, scales, qs], axis=1)


def quantize_q5_k(x: np.ndarray) -> np.ndarray:
    """`quantize_row_q5_K_ref`."""
    d, dmin, scales, levels = _quantize_qkx(x, 31, -0.5, 15)
    lv = levels.reshape(-1, 8, 32)  # sub-block k, element l: bit k of qh[l]
    high = (lv >> 4) << np.arange(8, dtype=np.uint8).reshape(1, 8, 1)
    qh = np.bitwise_or.reduce(high, axis=1).astype(np.uint8)
    low = (lv & 0xF).reshape(-1, 4, 2, 32)
    qs = (low[:, :, 0] | (low[:, :, 1] << 4)).reshape(-1, 128)
    return np.concatenate([d, dmin, scales, qh, qs], axis=1)


def _pack_2bit(levels: np.ndarray) -> np.ndarray:
    """Q2_K/Q3_K's 2-bit planes: byte c*32 + l holds elements c*128 + 32k + l."""
    lv = levels.reshape(-1, 2, 4, 32)
    out = lv[:, :, 0] | (lv[:, :, 1] << 2) | (lv[:, :, 2] << 4) | (lv[:, :, 3] << 6)
    return out.reshape(-1, 64).astype(np.uint8)


def quantize_q2_k(x: np.ndarray) -> np.ndarray:
    """`quantize_row_q2_K_ref`."""
    nb = x.shape[0]
    sub = x.reshape(nb * 16, 16)
    scales, mins, levels = make_qkx2_quants(sub, np.abs(sub), 3, -0.5, 0.1, 15, True)
    scales = scales.reshape(nb, 16)
    mins = mins.reshape(nb, 16)
    max_scale = np.maximum(np.max(scales, axis=1), F32(0))
    max_min = np.maximum(np.max(mins, axis=1), F32(0))
    with np.errstate(divide="ignore", invalid="ignore"):
        ls = nearest_int((F32(15) / max_scale)[:, None] * scales)
        lm = nearest_int((F32(15) / max_min)[:, None] * mins)
    ls = np.where((max_scale > 0)[:, None], ls & 0xFF, 0)
    lm = np.where((max_min > 0)[:, None], lm, 0)
    sc = (ls | (lm << 4)) & 0xFF
    d = np.where(max_scale > 0, max_scale / F32(15), F32(0))
    dmin = np.where(max_min > 0, max_min / F32(15), F32(0))
    dl = _f16_round(d)[:, None] * (sc & 0xF).astype(F32)
    ml = _f16_round(dmin)[:, None] * (sc >> 4).astype(F32)
    with np.errstate(divide="ignore", invalid="ignore"):
        requant = nearest_int((x.reshape(nb, 16, 16) + ml[..., None]) / dl[..., None])
    requant = np.clip(requant, 0, 3)
    levels = np.where((dl != 0)[..., None], requant, levels.reshape(nb, 16, 16))
    levels = levels.reshape(nb, QK_K).astype(np.uint8)
    return np.concatenate(
        [sc.astype(np.uint8), _pack_2bit(levels), _f16_bytes(d), _f16_bytes(dmin)],
        axis=1,
    )


def quantize_q3_k(x: np.ndarray) -> np.ndarray:
    """`quantize_row_q3_K_ref`."""
    nb = x.shape[0]
    scales, levels = make_q3_quants(x.reshape(nb * 16, 16), 4)
    scales = scales.reshape(nb, 16)
    max_scale, _ = _first_absmax(scales)
    with np.errstate(divide="ignore", invalid="ignore"):
        iscale = F32(-32) / max_scale
        ls = nearest_int(iscale[:, None] * scales).astype(np.int8)  # int8_t l = ...
    ls = (np.clip(ls, -32, 31) + 32).astype(np.uint8)
    ls = np.where((max_scale != 0)[:, None], ls, 0).astype(np.uint8)
    packed = np.zeros((nb, 12), np.uint8)
    packed[:, :8] = (ls[:, :8] & 0xF) | ((ls[:, 8:] & 0xF) << 4)
    high = (ls >> 4).reshape(nb, 4, 4) << (2 * np.arange(4, dtype=np.uint8)).reshape(
        1, 4, 1
    )
    packed[:, 8:] = np.bitwise_or.reduce(high, axis=1)
    with np.errstate(divide="ignore"):
        d = np.where(max_scale != 0, F32(1) / iscale, F32(0))
    dl = _f16_round(d)[:, None] * (ls.astype(np.int8) - np.int8(32)).astype(F32)
    dl = np.where((max_scale != 0)[:, None], dl, F32(0))
    with np.errstate(divide="ignore", invalid="ignore"):
        requant = nearest_int(x.reshape(nb, 16, 16) / dl[..., None])
    requant = np.clip(requant, -4, 3) + 4
    levels = np.where((dl != 0)[..., None], requant, levels.reshape(nb, 16, 16))
    levels = levels.reshape(nb, QK_K).astype(np.uint8)
    hbit = (levels > 3).astype(np.uint8).reshape(nb, 8, 32)  # element k*32 + l
    hmask = np.bitwise_or.reduce(
        hbit << np.arange(8, dtype=np.uint8).reshape(1, 8, 1), axis=1
    ).astype(np.uint8)
    levels = np.where(levels > 3, levels - 4, levels).astype(np.uint8)
    return np.concatenate([hmask, _pack_2bit(levels), packed, _f16_bytes(d)], axis=1)


def quantize_q6_k(x: np.ndarray) -> np.ndarray:
    """`quantize_row_q6_K_ref`."""
    nb = x.shape[0]
    scales, levels = make_qx_quants(x.reshape(nb * 16, 16), 32)
    scales = scales.reshape(nb, 16)
    max_scale, max_abs = _first_absmax(scales)
    zero = max_abs < GROUP_MAX_EPS
    with np.errstate(divide="ignore", invalid="ignore"):
        iscale = F32(-128) / max_scale
        d = F32(1) / iscale
        sc = np.minimum(nearest_int(iscale[:, None] * scales), 127)
    sc = (sc & 0xFF).astype(np.uint8).view(np.int8)
    dl = _f16_round(d)[:, None] * sc.astype(F32)
    with np.errstate(divide="ignore", invalid="ignore"):
        requant = np.clip(nearest_int(x.reshape(nb, 16, 16) / dl[..., None]), -32, 31)
    levels = np.where(
        (dl != 0)[..., None], requant + 32, levels.reshape(nb, 16, 16)
    ).reshape(nb, 2, 4, 32)
    lv = levels.astype(np.uint8)
    low = lv & 0xF
    ql = np.concatenate(
        [low[:, :, 0] | (low[:, :, 2] << 4), low[:, :, 1] | (low[:, :, 3] << 4)],
        axis=2,
    ).reshape(nb, 128)
    hi = lv >> 4
    qh = hi[:, :, 0] | (hi[:, :, 1] << 2) | (hi[:, :, 2] << 4) | (hi[:, :, 3] << 6)
    out = np.concatenate(
        [ql, qh.reshape(nb, 64), sc.view(np.uint8), _f16_bytes(d)], axis=1
    )
    out[zero] = 0
    return out


def best_index_int8(values: np.ndarray, x: np.ndarray) -> np.ndarray:
    """ggml's `best_index_int8` (ggml 0.15): the nearest entry of the sorted
    table, ties (in f32 distance) to the upper one; below/above the ends clamp."""
    v = values.astype(F32)
    mu = np.clip(np.searchsorted(v, x, side="right"), 1, len(v) - 1)
    lower = (x - v[mu - 1]) < (v[mu] - x)
    index = np.where(lower, mu - 1, mu)
    index = np.where(x <= v[0], 0, index)
    return np.where(x >= v[-1], len(v) - 1, index).astype(np.uint8)


def _iq4_fit(xb: np.ndarray, ntry: int) -> np.ndarray:
    """The per-sub-block scale search of `quantize_row_iq4_nl_impl` (no
    importance weights: w = x^2)."""
    values = IQ4_NL_VALUES
    table = values.astype(F32)
    w = xb * xb
    mx, amax = _first_absmax(xb)
    zero = amax < GROUP_MAX_EPS
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        d = (-mx if ntry > 0 else mx) / F32(int(values[0]))

        def sums(inv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            q = table[best_index_int8(values, inv[:, None] * xb)]
            wq = w * q
            return _seq_sum(wq * xb), _seq_sum(wq * q)

        sumqx, sumq2 = sums(F32(1) / d)
        d = np.where(sumq2 > 0, sumqx / sumq2, F32(0))
        best = d * sumqx
        for itry in range(-ntry, ntry + 1):
            sqx, sq2 = sums(F32(itry + int(values[0])) / mx)
            better = (sq2 > 0) & (sqx * sqx > best * sq2)
            d = np.where(better, sqx / sq2, d)
            best = np.where(better, d * sqx, best)
    return np.where(zero, F32(0), d).astype(F32)


def _pack_iq4(levels: np.ndarray) -> np.ndarray:
    """Per 32 elements: byte j holds element j (low) and j + 16 (high)."""
    lv = levels.reshape(-1, 2, 16)
    return (lv[:, 0] | (lv[:, 1] << 4)).astype(np.uint8).reshape(levels.shape[0], -1)


def quantize_iq4_nl(x: np.ndarray) -> np.ndarray:
    """`quantize_iq4_nl` without importance weights (what `ggml_quantize_chunk`
    and llama-quantize run: `quantize_row_iq4_nl_impl` with ntry = 7)."""
    d = _iq4_fit(x, 7)
    with np.errstate(divide="ignore"):
        inv = np.where(d != 0, F32(1) / d, F32(0))
    levels = best_index_int8(IQ4_NL_VALUES, inv[:, None] * x)
    return np.concatenate([_f16_bytes(d), _pack_iq4(levels)], axis=1)


def quantize_iq4_xs(x: np.ndarray) -> np.ndarray:
    """`quantize_iq4_xs` without importance weights (ntry = 7)."""
    nb = x.shape[0]
    sub = x.reshape(nb * 8, 32)
    scales = _iq4_fit(sub, 7).reshape(nb, 8)
    max_scale, _ = _first_absmax(scales)
    d = -max_scale / F32(32)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(d != 0, F32(1) / d, F32(0))
        ls = np.clip(nearest_int(inv[:, None] * scales), -32, 31)
        dl = d[:, None] * ls.astype(F32)
        idl = np.where(dl != 0, F32(1) / dl, F32(0))
    levels = best_index_int8(IQ4_NL_VALUES, (idl[..., None] * x.reshape(nb, 8, 32)))
    codes = (ls + 32).astype(np.uint16)
    low = (codes & 0xF).astype(np.uint8)
    scales_l = (low[:, 0::2] | (low[:, 1::2] << 4)).astype(np.uint8)
    high = (codes >> 4) << (2 * np.arange(8, dtype=np.uint16))
    scales_h = np.bitwise_or.reduce(high, axis=1).astype("<u2").reshape(nb, 1)
    return np.concatenate(
        [
            _f16_bytes(d),
            scales_h.view(np.uint8),
            scales_l,
            _pack_iq4(levels.reshape(nb, QK_K)),
        ],
        axis=1,
    )


QUANTIZERS: dict[GGMLType, Callable[[np.ndarray], np.ndarray]] = {
    GGMLType.Q4_0: quantize_q4_0,
    GGMLType.Q8_0: quantize_q8_0,
    GGMLType.Q2_K: quantize_q2_k,
    GGMLType.Q3_K: quantize_q3_k,
    GGMLType.Q4_K: quantize_q4_k,
    GGMLType.Q5_K: quantize_q5_k,
    GGMLType.Q6_K: quantize_q6_k,
    GGMLType.IQ4_NL: quantize_iq4_nl,
    GGMLType.IQ4_XS: quantize_iq4_xs,
}
"""The formats with a reference quantizer here."""


def quantize(x: np.ndarray, ggml_type: GGMLType) -> np.ndarray:
    """f32 values (any shape, size a multiple of the block size, blocks
    along the last axis) -> uint8 block bytes, shape (..., row bytes)."""
    layout = LAYOUTS[ggml_type]
    x = np.asarray(x, F32)
    if x.shape[-1] % layout.block_size:
        raise ValueError(
            f"{layout.name}: the last dimension ({x.shape[-1]}) is not a multiple "
            f"of the block size {layout.block_size}"
        )
    blocks = np.ascontiguousarray(x).reshape(-1, layout.block_size)
    step = max(1, _CHUNK_ELEMENTS // layout.block_size)  # cache-sized pieces
    out = np.concatenate(
        [
            QUANTIZERS[ggml_type](blocks[k : k + step])
            for k in range(0, max(blocks.shape[0], 1), step)
        ]
    )
    row = x.shape[-1] // layout.block_size * layout.type_size
    return out.reshape((*x.shape[:-1], row))
