"""lower-quant-ops keeps the numbers: original IR, lowered IR and an independent numpy model agree.

`rounding=nearest-even` is compared with the interpreter's contract
(`golden_quantize` / `golden_dequantize`), the default `rounding=toward-zero`
(upstream's lowering) with a model of upstream's arithmetic
(`golden_toward_zero_quantize` / `golden_toward_zero_dequantize`).

Each case is described by plain Python data (scales, zero points, blocks,
storage range); the type text and the golden values are both built from that
data here, so neither depends on the code under test. Inputs mix ordinary
values with exact ties, out-of-range values, NaN and +-inf.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest

import xquant


@dataclass(frozen=True)
class Case:
    name: str
    storage: str  # i8, u8, i4, u4, i16, ...
    shape: tuple[int, ...]
    scales: np.ndarray  # one entry per block, same rank as the tensor
    zero_points: np.ndarray
    blocks: dict[
        int, int
    ]  # axis -> block size (sub-channel); empty for per-layer/per-axis
    axis: int | None = None  # per-axis quantized dimension
    bounds: tuple[int, int] | None = None  # narrow storage range
    expressed: str = "f32"

    @property
    def signed(self) -> bool:
        return self.storage.startswith("i")

    @property
    def width(self) -> int:
        return int(self.storage[1:])

    @property
    def storage_range(self) -> tuple[int, int]:
        if self.bounds:
            return self.bounds
        if self.signed:
            return -(1 << (self.width - 1)), (1 << (self.width - 1)) - 1
        return 0, (1 << self.width) - 1

    def type_text(self) -> str:
        head = self.storage + (
            f"<{self.bounds[0]}:{self.bounds[1]}>" if self.bounds else ""
        )
        pairs = [
            f"{s!r}:{int(z)}"
            for s, z in zip(
                self.scales.ravel().tolist(), self.zero_points.ravel().tolist()
            )
        ]
        if self.axis is not None:
            return f"!quant.uniform<{head}:{self.expressed}:{self.axis}, {{{','.join(pairs)}}}>"
        if not self.blocks:
            return f"!quant.uniform<{head}:{self.expressed}, {pairs[0]}>"
        blocks = ", ".join(f"{a}:{b}" for a, b in self.blocks.items())
        return f"!quant.uniform<{head}:{self.expressed}:{{{blocks}}}, {_nest(self.scales, self.zero_points)}>"


def _nest(scales: np.ndarray, zps: np.ndarray) -> str:
    if scales.ndim == 1:
        return (
            "{"
            + ", ".join(
                f"{s!r}:{int(z)}" for s, z in zip(scales.tolist(), zps.tolist())
            )
            + "}"
        )
    return "{" + ", ".join(_nest(s, z) for s, z in zip(scales, zps)) + "}"


def _params_per_element(
    case: Case, shape: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """Scale and zero point of every element, by explicit index arithmetic."""
    idx = np.indices(shape)
    if case.axis is not None:
        sel = (idx[case.axis],)
    elif case.blocks:
        sel = tuple(idx[d] // case.blocks.get(d, shape[d]) for d in range(len(shape)))
    else:
        sel = (np.zeros(shape, dtype=np.int64),)
    return case.scales[sel], case.zero_points[sel]


def golden_quantize(case: Case, x: np.ndarray) -> np.ndarray:
    """clamp(x / s + zp) in f32, then round half to even; NaN -> 0."""
    s, z = _params_per_element(case, x.shape)
    lo, hi = case.storage_range
    with np.errstate(all="ignore"):
        v = x / s.astype(np.float32) + z.astype(np.float32)
    out = np.empty(x.shape, dtype=np.int64)
    for i, e in enumerate(v.ravel()):  # the spec, element by element
        if np.isnan(e):
            out.flat[i] = 0
            continue
        c = min(max(float(e), float(lo)), float(hi))
        out.flat[i] = round(c)  # Python's round is half-to-even
    return out


def golden_dequantize(case: Case, q: np.ndarray) -> np.ndarray:
    """(q - zp) exactly in int64, converted to f32 (once, through an exact f64), times the scale."""
    s, z = _params_per_element(case, q.shape)
    centred = q.astype(np.int64) - z.astype(np.int64)
    return (
        centred.astype(np.float64).astype(np.float32) * s.astype(np.float32)
    ).astype(np.float32)


def _f32(values: list[float]) -> np.ndarray:
    return np.array(values, dtype=np.float32)


CASES = [
    Case("per_layer_i8", "i8", (4, 6), _f32([0.5]), np.array([3]), {}),
    Case("per_layer_u8_big_zp", "u8", (4, 6), _f32([0.25]), np.array([200]), {}),
    Case(
        "per_layer_i4_narrow",
        "i4",
        (3, 5),
        _f32([1.0]),
        np.array([-1]),
        {},
        bounds=(-7, 7),
    ),
    Case("per_layer_u4", "u4", (2, 8), _f32([0.75]), np.array([5]), {}),
    Case("per_layer_i16", "i16", (8,), _f32([0.001]), np.array([-300]), {}),
    Case(
        "per_axis_0",
        "i8",
        (3, 4),
        _f32([0.5, 2.0, 0.125]),
        np.array([0, -4, 7]),
        {},
        axis=0,
    ),
    Case(
        "per_axis_1_u8",
        "u8",
        (2, 5),
        _f32([1.0, 0.5, 0.25, 4.0, 3.0]),
        np.array([128, 0, 255, 17, 1]),
        {},
        axis=1,
    ),
    Case(
        "sub_channel_1x2",
        "i8",
        (2, 4),
        _f32([[0.5, 2.0], [1.0, 0.25]]),
        np.array([[3, -1], [0, 5]]),
        {0: 1, 1: 2},
    ),
    Case(
        "sub_channel_2x3_u4",
        "u4",
        (4, 6),
        _f32([[0.5, 1.5], [0.25, 3.0]]),
        np.array([[1, 15], [8, 0]]),
        {0: 2, 1: 3},
    ),
    Case(
        "sub_channel_3d",
        "i8",
        (2, 4, 4),
        np.linspace(0.1, 1.6, 8, dtype=np.float32).reshape(2, 2, 2),
        np.arange(-4, 4).reshape(2, 2, 2),
        {0: 1, 1: 2, 2: 2},
        bounds=(-100, 100),
    ),
]


def _inputs(case: Case, shape: tuple[int, ...]) -> np.ndarray:
    rng = np.random.default_rng(abs(hash(case.name)) % (1 << 32))
    s, z = _params_per_element(case, shape)
    lo, hi = case.storage_range
    # Values landing on every storage level, on exact ties, and beyond the range.
    levels = rng.integers(lo - 3, hi + 4, size=shape)
    ties = rng.integers(0, 2, size=shape) * 0.5
    x = ((levels - z + ties) * s).astype(np.float32)
    flat = x.reshape(-1)
    specials = _f32([np.nan, np.inf, -np.inf, 0.0, -0.0, 3e38, -3e38])
    flat[: min(len(specials), flat.size)] = specials[: flat.size]
    return x


def _functions(case: Case, tensor: str) -> str:
    q = case.type_text()
    qt, ft, st = (
        f"tensor<{tensor}x{q}>",
        f"tensor<{tensor}xf32>",
        f"tensor<{tensor}xi{case.width}>",
    )
    return f"""
func.func @quantize(%x: {ft}) -> {st} {{
  %q = quant.qcast %x : {ft} to {qt}
  %s = quant.scast %q : {qt} to {st}
  return %s : {st}
}}
func.func @dequantize(%s: {st}) -> {ft} {{
  %q = quant.scast %s : {st} to {qt}
  %x = quant.dcast %q : {qt} to {ft}
  return %x : {ft}
}}
"""


def _tensor_forms(case: Case) -> list[tuple[str, str]]:
    static = "x".join(map(str, case.shape))
    return [
        ("static", static),
        ("dynamic", "x".join("?" for _ in case.shape)),
        ("unranked", "*"),
    ]


def _as_storage(case: Case, q: np.ndarray) -> np.ndarray:
    """Storage integers as the `iN` holder the functions return (two's complement bits)."""
    bits = q.astype(np.int64) & ((1 << case.width) - 1)
    half = 1 << (case.width - 1)
    return (bits ^ half) - half


PARAMS = [
    pytest.param(c, form, text, id=f"{c.name}-{form}")
    for c in CASES
    for form, text in _tensor_forms(c)
]


@pytest.mark.parametrize(("case", "form", "tensor"), PARAMS)
def test_original_lowered_and_golden_agree(case: Case, form: str, tensor: str) -> None:
    text = _functions(case, tensor)
    original = xquant.parse_module(text)
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "lower-quant-ops{rounding=nearest-even}"
    )
    # Upstream's lowering keeps `quant.scast` to re-attach the type; only the casts with numbers go.
    assert "quant.qcast" not in str(lowered) and "quant.dcast" not in str(lowered)

    x = _inputs(case, case.shape)
    expected_q = _as_storage(case, golden_quantize(case, x))
    for module in (original, lowered):
        (q,) = xquant.run(module, "quantize", x)
        np.testing.assert_array_equal(q.astype(np.int64), expected_q)

    storage = np.asarray(expected_q).astype(
        f"int{max(8, 1 << (case.width - 1).bit_length())}"
    )
    lo, hi = case.storage_range
    unsigned = golden_quantize(case, x)  # the value the storage bits stand for
    assert unsigned.min() >= lo and unsigned.max() <= hi
    expected_x = golden_dequantize(case, unsigned)
    for module in (original, lowered):
        (y,) = xquant.run(module, "dequantize", storage)
        np.testing.assert_array_equal(y, expected_x)


def golden_toward_zero_quantize(case: Case, x: np.ndarray) -> np.ndarray:
    """Upstream: trunc(x / s + f32(zp)) in f32 (out of range saturates, NaN -> 0, as the
    interpreter's fptosi/fptoui), then an integer clamp only for narrowed bounds."""
    s, z = _params_per_element(case, x.shape)
    with np.errstate(all="ignore"):
        v = (x / s.astype(np.float32)).astype(np.float32) + z.astype(np.float32)
    # fptosi/fptoui convert straight to the storage width (i4 for i4 and u4).
    full = (
        (-(1 << (case.width - 1)), (1 << (case.width - 1)) - 1)
        if case.signed
        else (0, (1 << case.width) - 1)
    )
    out = np.empty(x.shape, dtype=np.int64)
    for i, e in enumerate(v.ravel()):  # element by element, as the spec reads
        out.flat[i] = 0 if np.isnan(e) else int(min(max(np.trunc(e), full[0]), full[1]))
    if case.bounds:
        out = np.clip(out, *case.bounds)
    return out


def golden_toward_zero_dequantize(case: Case, q: np.ndarray) -> np.ndarray:
    """Upstream: (f32(q) - f32(zp)) * s, all in f32."""
    s, z = _params_per_element(case, q.shape)
    return (
        (q.astype(np.float32) - z.astype(np.float32)) * s.astype(np.float32)
    ).astype(np.float32)


@pytest.mark.parametrize(("case", "form", "tensor"), PARAMS)
def test_default_lowering_is_upstreams_numbers(
    case: Case, form: str, tensor: str
) -> None:
    """The default (`rounding=toward-zero`) computes upstream's arithmetic."""
    text = _functions(case, tensor)
    lowered = xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
    x = _inputs(case, case.shape)
    (q,) = xquant.run(lowered, "quantize", x)
    np.testing.assert_array_equal(
        q.astype(np.int64), _as_storage(case, golden_toward_zero_quantize(case, x))
    )
    lo, hi = case.storage_range
    stored = np.arange(lo, hi + 1)[: int(np.prod(case.shape))]
    stored = np.resize(stored, case.shape)
    storage = _as_storage(case, stored).astype(
        f"int{max(8, 1 << (case.width - 1).bit_length())}"
    )
    (y,) = xquant.run(lowered, "dequantize", storage)
    np.testing.assert_array_equal(y, golden_toward_zero_dequantize(case, stored))


@pytest.mark.parametrize("mode", ["toward-zero"])
def test_toward_zero_rounding_option(mode: str) -> None:
    """`rounding=toward-zero` reproduces upstream's fptosi truncation."""
    case = CASES[0]
    text = _functions(case, "4x6")
    lowered = xquant.apply_passes(
        xquant.parse_module(text), f"lower-quant-ops{{rounding={mode}}}"
    )
    x = _f32([0.5 * k + 0.25 for k in range(-12, 12)]).reshape(4, 6)
    (q,) = xquant.run(lowered, "quantize", x)
    expected = np.clip(np.trunc(x / np.float32(0.5) + np.float32(3)), -128, 127).astype(
        np.int64
    )
    np.testing.assert_array_equal(q.astype(np.int64), expected)


def test_toward_zero_out_of_range_saturates_instead_of_wrapping() -> None:
    """Upstream's lowering (which `toward-zero` copies) clamps full-range types only
    through fptosi, which is poison out of range; the interpreter saturates it, so the
    numbers are still the clamped ones rather than wrapped bits (300 -> 44 in i8)."""
    text = """
func.func @main(%x: tensor<5xf32>) -> (tensor<5xi8>, tensor<5xi4>) {
  %q = quant.qcast %x : tensor<5xf32> to tensor<5x!quant.uniform<i8:f32, 1.0>>
  %s = quant.scast %q : tensor<5x!quant.uniform<i8:f32, 1.0>> to tensor<5xi8>
  %n = quant.qcast %x : tensor<5xf32> to tensor<5x!quant.uniform<i4<-7:7>:f32, 0.25:1>>
  %t = quant.scast %n : tensor<5x!quant.uniform<i4<-7:7>:f32, 0.25:1>> to tensor<5xi4>
  return %s, %t : tensor<5xi8>, tensor<5xi4>
}"""
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "lower-quant-ops{rounding=toward-zero}"
    )
    x = _f32([1.9, 300.0, -300.0, np.inf, np.nan])
    wide, narrow = xquant.run(lowered, "main", x)
    np.testing.assert_array_equal(wide, [1, 127, -128, 127, 0])
    # x / 0.25 + 1 truncated: 8.6 -> 8 -> clamped to 7; the rest saturate, then clamp.
    np.testing.assert_array_equal(narrow, [7, 7, -7, 7, 0])


# ----------------------------------------------------------------------------------------
# dequantize subtracts the zero point in integers: values where the float subtraction differs

SPEC_CASES = [
    # (type, storage values, expressed dtype name, StableHLO spec / ONNX results)
    (
        "!quant.uniform<i32:f32, 1.0:3>",
        [33554433, 123456789],
        "f32",
        [33554430, 123456784],
    ),
    ("!quant.uniform<i16:f16, 1.0:-3>", [-32762], "f16", [-32752]),
    ("!quant.uniform<i16:bf16, 1.0:-3>", [-32706], "bf16", [-32640]),
]


def _spec_golden(stored: list[int], zero_point: int, dtype: np.dtype) -> np.ndarray:
    """`convert(q - zp) * 1.0`: int64 difference, exact f64, one rounding (bf16 via an exact f32)."""
    centred = np.array(stored, np.int64) - zero_point
    as_float = centred.astype(np.float64)
    if dtype == ml_dtypes.bfloat16:
        assert np.abs(centred).max() < 2**24
        as_float = as_float.astype(np.float32)
    return as_float.astype(dtype)


def _dequantize_forms(qtype: str, n: int, expressed: str, storage: str) -> str:
    functions = [
        f"""
func.func @scalar(%s: {storage}) -> {expressed} {{
  %q = quant.scast %s : {storage} to {qtype}
  %x = quant.dcast %q : {qtype} to {expressed}
  return %x : {expressed}
}}"""
    ]
    for name, shape in (("static", f"{n}"), ("dynamic", "?"), ("unranked", "*")):
        qt, ft, st = (
            f"tensor<{shape}x{qtype}>",
            f"tensor<{shape}x{expressed}>",
            f"tensor<{shape}x{storage}>",
        )
        functions.append(f"""
func.func @{name}(%s: {st}) -> {ft} {{
  %q = quant.scast %s : {st} to {qt}
  %x = quant.dcast %q : {qt} to {ft}
  return %x : {ft}
}}""")
    return "\n".join(functions)


@pytest.mark.parametrize(("qtype", "stored", "expressed", "spec"), SPEC_CASES)
def test_dequantize_subtracts_zero_point_in_integers(
    qtype: str, stored: list[int], expressed: str, spec: list[int]
) -> None:
    dtype = np.dtype(
        {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}[expressed]
    )
    zero_point = int(qtype.rsplit(":", 1)[1].rstrip(">"))
    golden = _spec_golden(stored, zero_point, dtype)
    assert golden.astype(np.int64).tolist() == spec
    storage = "i32" if "<i32" in qtype else "i16"
    q = np.array(stored, np.int32 if storage == "i32" else np.int16)
    text = _dequantize_forms(qtype, len(stored), expressed, storage)
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "lower-quant-ops{rounding=nearest-even}"
    )
    assert "arith.subi" in str(lowered) and "arith.subf" not in str(lowered)
    for module in (xquant.parse_module(text), lowered):
        for name in ("static", "dynamic", "unranked"):
            (y,) = xquant.run(module, name, q)
            assert y.dtype == dtype
            np.testing.assert_array_equal(y, golden)
        for value, want in zip(q, golden, strict=True):
            (y,) = xquant.run(module, "scalar", value)
            assert np.asarray(y).tobytes() == np.asarray(want).tobytes()


def test_toward_zero_keeps_upstreams_float_subtraction() -> None:
    """`rounding=toward-zero` copies upstream: sitofp(q) - sitofp(zp) in f32 rounds twice."""
    qtype = "!quant.uniform<i32:f32, 1.0:3>"
    text = _dequantize_forms(qtype, 2, "f32", "i32")
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "lower-quant-ops{rounding=toward-zero}"
    )
    assert "arith.subf" in str(lowered) and "arith.subi" not in str(lowered)
    q = np.array([33554433, 123456789], np.int32)
    (y,) = xquant.run(lowered, "static", q)
    # f32(33554433) = 33554432, - 3 -> 33554428; f32(123456789) = 123456792, - 3 -> 123456792
    assert y.astype(np.int64).tolist() == [33554428, 123456792]
