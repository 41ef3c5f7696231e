"""NVFP4 against torchao's reference: checked-in golden vectors vs numerics, interpreter and lowered IR.

The vectors (`tests/data/nvfp4/golden.npz`) were generated once by
`tests/data/nvfp4/generate_golden.py` with torchao 0.18.0 / torch 2.13.0,
which are not dependencies of xquant. Compared bit for bit: block-scale
bytes, element codes (except inside NaN blocks, whose element bits torchao
leaves as garbage and xquant defines as +0) and the dequantized f32 values.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import f4E2M1FN, f8E4M3FN

import xquant
from tests.upstream import mlir_opt
from xquant.numerics import mx

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "nvfp4" / "golden.npz"
NVFP4 = "!mx_tensor.tensor<<{r}x4xf8E4M3FN>, <{r}x64xf4E2M1FN>>"
SPLIT = "!mx_tensor.tensor<<{r}x4xf8E4M3FN>, [<{r}x64xi1>, <{r}x64xi3>] x f4E2M1FN>"


def _load() -> dict[str, np.ndarray]:
    with np.load(GOLDEN) as z:
        return {k: z[k] for k in z.files}


DATA = _load()
NAMES = [str(n) for n in DATA["names"]]
CASES = list(range(len(NAMES)))


def _case(
    k: int,
) -> tuple[np.ndarray, np.float32 | None, np.ndarray, np.ndarray, np.ndarray]:
    g = DATA[f"case{k}_g"]
    return (
        DATA[f"case{k}_x"],
        None if np.isnan(g) else np.float32(g),
        DATA[f"case{k}_scale"],
        DATA[f"case{k}_codes"],
        DATA[f"case{k}_dequant"],
    )


def _module(rows: int, with_g: bool, mx_type: str = NVFP4) -> str:
    t = mx_type.format(r=rows)
    storage = ", storage_types = [i1, i3]" if mx_type == SPLIT else ""
    g_arg = ", %g: tensor<f32>" if with_g else ""
    g_use, g_type = (", %g", ", tensor<f32>") if with_g else ("", "")
    return f"""
func.func @main(%x: tensor<{rows}x64xf32>{g_arg}) -> (tensor<{rows}x4xf8E4M3FN>, tensor<{rows}x64xi4>, tensor<{rows}x64xf32>) {{
  %q = mx_tensor.quantize %x{g_use} {{algorithm = "nvfp4"{storage}}} : tensor<{rows}x64xf32>{g_type} -> {t}
  %y = mx_tensor.dequantize %q{g_use} : {t}{g_type} -> tensor<{rows}x64xf32>
  %s, %d = mx_tensor.deconstruct %q {{storage_types = [i4]}} : {t}
  func.return %s, %d, %y : tensor<{rows}x4xf8E4M3FN>, tensor<{rows}x64xi4>, tensor<{rows}x64xf32>
}}
"""


def _check(k: int, scale: np.ndarray, codes: np.ndarray, values: np.ndarray) -> None:
    _, _, want_scale, want_codes, want_values = _case(k)
    scale_bytes = np.asarray(scale).view(np.uint8)
    np.testing.assert_array_equal(scale_bytes, want_scale, err_msg=NAMES[k])
    nan_block = np.repeat(want_scale == 0x7F, 16, axis=1)
    codes = np.asarray(codes).view(np.uint8) & 0xF
    np.testing.assert_array_equal(
        np.where(nan_block, 0, codes),
        np.where(nan_block, 0, want_codes),
        err_msg=NAMES[k],
    )
    assert not codes[nan_block].any(), "NaN blocks hold +0 elements"
    values = np.asarray(values, np.float32)
    same = (values.view(np.uint32) == want_values.view(np.uint32)) | (
        np.isnan(values) & np.isnan(want_values)
    )
    assert same.all(), (NAMES[k], values[~same][:4], want_values[~same][:4])


def test_golden_versions_are_recorded() -> None:
    assert str(DATA["torchao_version"]) == "0.18.0"
    assert str(DATA["torch_version"]).startswith("2.13.0")
    assert {"random/none", "special/amax", "special/fixed"} <= set(NAMES)


@pytest.mark.parametrize("k", CASES, ids=NAMES)
def test_numerics_match_torchao(k: int) -> None:
    x, g, *_ = _case(k)
    scale, elements = mx.quantize_nvfp4(x, (x.shape[0], 4), g)
    values = mx.dequantize(scale, f8E4M3FN, elements, f4E2M1FN, np.float32, g)
    _check(k, scale, elements.view(np.uint8), values)


@pytest.mark.parametrize("lowered", [False, True], ids=["interpreter", "lowered"])
@pytest.mark.parametrize("k", CASES, ids=NAMES)
def test_ir_matches_torchao(k: int, lowered: bool) -> None:
    x, g, *_ = _case(k)
    module = xquant.parse_module(_module(x.shape[0], g is not None))
    if lowered:
        xquant.apply_passes(module, "lower-mx-tensor")
        assert "mx_tensor" not in str(module)
    args = [x] if g is None else [x, np.array(g, np.float32)]
    scale, codes, values = xquant.run(module, "main", *args)
    _check(k, scale, codes, values)


@pytest.mark.parametrize("with_g", [False, True])
def test_split_storage_lowered_is_bit_identical(with_g: bool) -> None:
    x, g, *_ = _case(NAMES.index("special/amax" if with_g else "special/none"))
    text = _module(x.shape[0], with_g, SPLIT)
    args = [x] if not with_g else [x, np.array(g, np.float32)]
    expected = xquant.run(text, "main", *args)
    module = xquant.parse_module(text)
    xquant.apply_passes(module, "lower-mx-tensor")
    got = xquant.run(module, "main", *args)
    for a, b in zip(expected, got, strict=True):
        np.testing.assert_array_equal(
            np.asarray(a).view(np.uint8), np.asarray(b).view(np.uint8)
        )


@pytest.mark.parametrize("with_g", [False, True])
def test_lowered_nvfp4_verifies_upstream(with_g: bool) -> None:
    module = xquant.parse_module(_module(12, with_g))
    xquant.apply_passes(module, "lower-mx-tensor")
    mlir_opt.assert_verifies_upstream(str(module))


def test_every_e4m3_scale_byte_dequantizes_as_ml_dtypes() -> None:
    """Subnormal, normal and NaN block scales: decode(element) * f32(scale), in the IR too."""
    scale = np.arange(128, dtype=np.uint8).reshape(32, 4).view(ml_dtypes.float8_e4m3fn)
    codes = np.arange(32 * 64, dtype=np.uint8).reshape(32, 64) % 16
    elements = codes.view(ml_dtypes.float4_e2m1fn)
    with np.errstate(invalid="ignore"):
        want = elements.astype(np.float32) * np.repeat(
            scale.astype(np.float32), 16, axis=1
        )
    t = NVFP4.format(r=32)
    text = f"""
func.func @main(%s: tensor<32x4xf8E4M3FN>, %d: tensor<32x64xf4E2M1FN>) -> tensor<32x64xf32> {{
  %m = mx_tensor.construct %s, %d : {t}
  %y = mx_tensor.dequantize %m : {t} -> tensor<32x64xf32>
  func.return %y : tensor<32x64xf32>
}}
"""
    module = xquant.parse_module(text)
    xquant.apply_passes(module, "lower-mx-tensor")
    for source in (text, module):
        (got,) = xquant.run(source, "main", scale, elements)
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


EXAMPLE = (
    Path(__file__).resolve().parents[3] / "examples" / "nvfp4_matmul.mlir"
).read_text()


@pytest.mark.parametrize(
    "pipeline", [None, "mx-tensor-generalize", "lower-mx-tensor"], ids=str
)
def test_matmul_example_matches_torchao_dequantized_operands(
    pipeline: str | None,
) -> None:
    """A = random rows (blocks along K = dim 1), B = magnitudes transposed (blocks along K = dim 0):
    f32 accumulation in loop order of torchao's quantized operands, times g_a * g_b."""
    ka, kb = NAMES.index("random/amax"), NAMES.index("magnitudes/amax")
    a, ga, *_ = _case(ka)
    bt, gb, *_ = _case(kb)
    assert ga is not None and gb is not None
    # The example's shapes: A 8x64, B 64x16 (two transposed 8x64 cases side by side).
    b = np.concatenate([bt.T, bt[::-1].T], axis=1)
    # B has the amax of its case, so the golden g_b is its per-tensor scale.
    module = xquant.parse_module(EXAMPLE)
    if pipeline is not None:
        xquant.apply_passes(module, pipeline)
        assert "linalg.matmul" not in str(module)
    (got,) = xquant.run(
        module, "main", a, b, np.array(ga, np.float32), np.array(gb, np.float32)
    )
    # The matmul decodes element * block scale (torchao's scaled_mm); g_a * g_b comes after, as in
    # torchao's NVFP4 matmul. Operands from the golden codes and scale bytes:
    a_blocks = _block_only(ka)
    b_blocks = np.concatenate([_block_only(kb).T, _block_only(kb)[::-1].T], axis=1)
    acc = np.zeros((8, 16), np.float32)
    for k in range(64):
        acc = acc + a_blocks[:, k : k + 1] * b_blocks[k : k + 1, :]
    want = acc * (np.float32(ga) * np.float32(gb))
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


def _block_only(k: int) -> np.ndarray:
    """decode(element) * f32(block scale) from the golden codes and scale bytes (no tensor scale)."""
    _, _, scale, codes, _ = _case(k)
    elements = codes.view(ml_dtypes.float4_e2m1fn).astype(np.float32)
    scales = scale.view(ml_dtypes.float8_e4m3fn).astype(np.float32)
    return elements * np.repeat(scales, 16, axis=1)


@pytest.mark.parametrize("g", [0.0, np.inf, np.nan, 1e-30, 3e38, -0.5], ids=str)
def test_degenerate_tensor_scales_follow_the_f32_ops_in_both_paths(g: float) -> None:
    """Outside torchao's domain the result is whatever the f32 ops give; both paths agree."""
    x, *_ = _case(NAMES.index("special/none"))
    text = _module(x.shape[0], True)
    args = [x, np.array(g, np.float32)]
    with np.errstate(all="ignore"):
        scale, elements = mx.quantize_nvfp4(x, (x.shape[0], 4), np.float32(g))
    expected = xquant.run(text, "main", *args)
    np.testing.assert_array_equal(expected[0].view(np.uint8), scale.view(np.uint8))
    np.testing.assert_array_equal(
        expected[1].view(np.uint8) & 0xF, elements.view(np.uint8)
    )
    module = xquant.parse_module(text)
    xquant.apply_passes(module, "lower-mx-tensor")
    got = xquant.run(module, "main", *args)
    for a, b in zip(expected, got, strict=True):
        np.testing.assert_array_equal(
            np.asarray(a).view(np.uint8), np.asarray(b).view(np.uint8)
        )


def test_bf16_input_is_widened_exactly() -> None:
    x, *_ = _case(NAMES.index("random/none"))
    xb = x.astype(ml_dtypes.bfloat16)
    rows = x.shape[0]
    text = _module(rows, False).replace(
        f"tensor<{rows}x64xf32> ", f"tensor<{rows}x64xbf16> "
    )
    text = text.replace(f"%x: tensor<{rows}x64xf32>", f"%x: tensor<{rows}x64xbf16>")
    assert text.count("x64xbf16") == 2
    scale, elements = mx.quantize_nvfp4(xb.astype(np.float32), (x.shape[0], 4))
    module = xquant.parse_module(text)
    xquant.apply_passes(module, "lower-mx-tensor")
    for source in (text, module):
        got_scale, got_codes, _ = xquant.run(source, "main", xb)
        np.testing.assert_array_equal(got_scale.view(np.uint8), scale.view(np.uint8))
        np.testing.assert_array_equal(
            got_codes.view(np.uint8) & 0xF, elements.view(np.uint8)
        )
