"""`lower-quant-ops` against upstream's own test file, case by case, with the real mlir-opt.

For every function of `../shared/mlir-quant-tests/lower-quant-ops.mlir`:

- our default lowering (`rounding=toward-zero`) is accepted by mlir-opt, and
  is upstream's lowering op for op: mlir-opt prints both in generic form to
  the same text (so the comparison does not depend on xquant's printer);
- upstream's own output of `--lower-quant-ops` runs in `xquant.run`, with
  results identical to our default lowering and to a model of upstream's
  toward-zero semantics applied to the quant ops (`toward_zero_reference`);
- `rounding=nearest-even` gives the same numbers as interpreting the quant
  ops directly (the project's numeric contract).

The mlir-opt parts skip, with the reason, when mlir-opt is not installed.
Concrete shapes for the dynamic and unranked arguments are in `SHAPES`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, UnrankedTensorType
from xdsl.ir import Attribute

import xquant
from tests.fetch_upstream_tests import SHARED_DIR, absent_reason
from tests.upstream import mlir_opt
from xquant.asm.printer import module_to_mlir
from xquant.dialects.quant.types import UniformQuantizedType

UPSTREAM_FILE = SHARED_DIR / "mlir-quant-tests" / "lower-quant-ops.mlir"

SHAPES: dict[str, tuple[int, ...]] = {
    "dcast_per_layer_scalar": (),
    "dcast_per_layer_scalar_unsigned": (),
    "dcast_per_layer_0d": (),
    "dcast_per_layer_ranked": (3, 4, 5),
    "dcast_per_layer_unranked": (2, 3, 4),
    "dcast_per_channel_ranked": (4, 2, 3, 5),
    "dcast_per_channel_unranked": (2, 2, 3, 2),
    "qcast_per_layer_scalar": (),
    "qcast_per_layer_scalar_bounds": (),
    "qcast_per_layer_scalar_unsigned_bounds": (),
    "qcast_per_layer_0d": (),
    "qcast_per_layer_ranked": (3, 4, 5),
    "qcast_per_layer_ranked_bounds": (3, 5),
    "qcast_per_layer_unranked": (2, 3, 4),
    "qcast_per_channel_ranked": (4, 2, 3, 5),
    "qcast_per_channel_ranked_bounds": (4, 2, 5),
    "qcast_per_channel_unranked": (2, 2, 3, 2),
    "qcast_sub_channel_ranked": (2, 3, 2, 4),
    "qcast_sub_channel_ranked_bounds": (2, 3, 5, 4),
}
"""Each function's argument shape (its static dimensions, with `?` and `*` chosen)."""


def _requires_upstream_file() -> None:
    if not UPSTREAM_FILE.is_file():
        pytest.skip(absent_reason("mlir-quant-tests/lower-quant-ops.mlir"))


@cache
def _chunks() -> dict[str, str]:
    """The upstream file's cases, by function name."""
    if not UPSTREAM_FILE.is_file():
        return {}
    chunks: dict[str, str] = {}
    for text in UPSTREAM_FILE.read_text().split("// -----"):
        (name,) = (op.sym_name.data for op in _functions(xquant.parse_module(text)))
        chunks[name] = text
    return chunks


def _functions(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.walk() if isinstance(op, func.FuncOp)]


def _names() -> list[str]:
    return list(_chunks()) or list(SHAPES)


def test_every_upstream_case_has_a_shape() -> None:
    _requires_upstream_file()
    assert sorted(_chunks()) == sorted(SHAPES)


# ----- a model of upstream's semantics, on the quant ops' types -----


def _quantized(attr: Attribute) -> UniformQuantizedType:
    element = (
        attr.get_element_type()
        if isinstance(attr, TensorType | UnrankedTensorType)
        else attr
    )
    assert isinstance(element, UniformQuantizedType)
    return element


def _per_element(
    values: np.ndarray, qtype: UniformQuantizedType, shape: tuple[int, ...]
) -> np.ndarray:
    """A parameter array (shaped like the scales) broadcast to every element of `shape`."""
    if qtype.is_per_layer:
        return np.broadcast_to(values, shape)
    if qtype.is_per_axis:
        axis = qtype.quantized_dimensions[0]
        return values[np.indices(shape)[axis]]
    idx = np.indices(shape)
    blocks = [shape[d] // values.shape[d] for d in range(len(shape))]
    return values[tuple(idx[d] // blocks[d] for d in range(len(shape)))]


def _storage_range(qtype: UniformQuantizedType) -> tuple[int, int]:
    width = qtype.storage_width
    if qtype.is_signed:
        return -(1 << (width - 1)), (1 << (width - 1)) - 1
    return 0, (1 << width) - 1


def toward_zero_reference(
    qtype: UniformQuantizedType, quantize: bool, x: np.ndarray
) -> np.ndarray:
    """Upstream's arithmetic on f32: quantize `trunc(x / s + f32(zp))`, then the bounds'
    integer clamp; dequantize `(f32(q) - f32(zp)) * s`. fptosi/fptoui out of range
    (poison in MLIR) saturates and NaN gives 0, as the interpreter defines them."""
    shape = x.shape
    scale = _per_element(qtype.scales.astype(np.float32), qtype, shape)
    zero_point = _per_element(qtype.zero_points, qtype, shape).astype(np.float32)
    with np.errstate(all="ignore"):
        if not quantize:
            return ((x.astype(np.float32) - zero_point) * scale).astype(np.float32)
        v = (x / scale).astype(np.float32)
        v = (v + zero_point).astype(np.float32)
        low, high = _storage_range(qtype)
        t = np.trunc(v.astype(np.float64))
        t = np.where(np.isnan(t), 0.0, np.clip(t, low, high)).astype(np.int64)
    return np.clip(t, qtype.storage_min, qtype.storage_max)


# ----- inputs -----


def _argument(
    name: str, module: ModuleOp
) -> tuple[np.ndarray | np.generic, bool, UniformQuantizedType]:
    """The input for function `name`, whether it quantizes, and its quantized type."""
    (function,) = _functions(module)
    (arg_type,) = function.function_type.inputs.data
    shape = SHAPES[name]
    quantize = name.startswith("qcast")
    qtype = _quantized(function.function_type.outputs.data[0] if quantize else arg_type)
    rng = np.random.default_rng(sum(map(ord, name)))
    size = int(np.prod(shape))
    if quantize:
        scale = _per_element(qtype.scales, qtype, shape).ravel()
        levels = rng.integers(-140, 270, size=size)
        ties = rng.integers(0, 4, size=size) * 0.25
        x = ((levels + ties) * scale).astype(np.float32)
        specials = np.array([np.nan, np.inf, -np.inf, -0.0, 1e30, -1e30], np.float32)
        x[: min(size, len(specials))] = specials[: min(size, len(specials))]
        if size == 1:
            x[0] = np.float32(-13.75)
        value: np.ndarray = x.reshape(shape)
    else:
        low, high = _storage_range(qtype)
        dtype = np.int8 if qtype.is_signed else np.uint8
        value = rng.integers(low, high + 1, size=size).astype(dtype).reshape(shape)
    return (
        (value[()] if shape == () and not _is_tensor(arg_type) else value),
        quantize,
        qtype,
    )


def _is_tensor(attr: Attribute) -> bool:
    return isinstance(attr, TensorType | UnrankedTensorType)


def _result(module: ModuleOp, name: str, arg: Any) -> np.ndarray:
    (out,) = xquant.run(module, name, arg)
    return np.asarray(out)


def _as_values(result: np.ndarray, quantize: bool) -> np.ndarray:
    """Storage integers as int64 (an `i8` view of `u8` storage reads back as is)."""
    return result.astype(np.int64) if quantize else result


# ----- the tests -----


@pytest.mark.parametrize("name", _names())
def test_default_is_upstreams_ir(name: str) -> None:
    """mlir-opt accepts our default lowering and prints it as it prints its own."""
    _requires_upstream_file()
    mlir_opt.require_mlir_opt()
    text = _chunks()[name]
    ours = xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
    mlir_opt.assert_verifies_upstream(module_to_mlir(ours))
    generic = "--mlir-print-op-generic"
    ours_generic = mlir_opt.run_mlir_opt(module_to_mlir(ours), generic)
    theirs_generic = mlir_opt.run_mlir_opt(text, "--lower-quant-ops", generic)
    assert theirs_generic.returncode == 0, theirs_generic.stderr
    assert ours_generic.stdout == theirs_generic.stdout


@pytest.mark.parametrize("name", _names())
def test_upstream_output_runs_with_identical_numbers(name: str) -> None:
    """Upstream's lowered IR, ours and the toward-zero model agree bit for bit."""
    _requires_upstream_file()
    mlir_opt.require_mlir_opt()
    text = _chunks()[name]
    lowered = mlir_opt.run_mlir_opt(text, "--lower-quant-ops")
    assert lowered.returncode == 0, lowered.stderr
    theirs = xquant.parse_module(lowered.stdout)
    ours = xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
    arg, quantize, qtype = _argument(name, xquant.parse_module(text))

    expected = toward_zero_reference(qtype, quantize, np.asarray(arg))
    for module in (theirs, ours):
        got = _as_values(_result(module, name, arg), quantize)
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("name", _names())
def test_nearest_even_keeps_the_interpreters_numbers(name: str) -> None:
    """`rounding=nearest-even` computes what interpreting the quant ops computes."""
    _requires_upstream_file()
    text = _chunks()[name]
    original = xquant.parse_module(text)
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "lower-quant-ops{rounding=nearest-even}"
    )
    arg, quantize, _ = _argument(name, original)
    want = _as_values(_result(original, name, arg), quantize)
    got = _as_values(_result(lowered, name, arg), quantize)
    np.testing.assert_array_equal(got, want)


NUMERICS_DOC_EXAMPLE = """
!q = !quant.uniform<i8:f32, 0.5:-1>
func.func @quantize(%x: tensor<3xf32>) -> tensor<3xi8> {
  %q = quant.qcast %x : tensor<3xf32> to tensor<3x!q>
  %s = quant.scast %q : tensor<3x!q> to tensor<3xi8>
  return %s : tensor<3xi8>
}
func.func @dequantize(%s: tensor<3xi8>) -> tensor<3xf32> {
  %q = quant.scast %s : tensor<3xi8> to tensor<3x!q>
  %y = quant.dcast %q : tensor<3x!q> to tensor<3xf32>
  return %y : tensor<3xf32>
}
"""


def test_the_two_modes_differ_as_the_numerics_doc_says() -> None:
    """docs/numerics.md's lower-quant-ops example: `x / 0.5 - 1` = 1.6, -3.6, 0.5."""
    x = np.array([1.3, -1.3, 0.75], np.float32)
    expected = {
        "lower-quant-ops": ([1, -3, 0], [1.0, -1.0, 0.5]),
        "lower-quant-ops{rounding=nearest-even}": ([2, -4, 0], [1.5, -1.5, 0.5]),
    }
    for pipeline, (stored, values) in expected.items():
        module = xquant.apply_passes(
            xquant.parse_module(NUMERICS_DOC_EXAMPLE), pipeline
        )
        q = _result(module, "quantize", x)
        np.testing.assert_array_equal(q, stored)
        np.testing.assert_array_equal(_result(module, "dequantize", q), values)
    original = xquant.parse_module(NUMERICS_DOC_EXAMPLE)
    np.testing.assert_array_equal(_result(original, "quantize", x), [2, -4, 0])


PAIRS = """
!q = !quant.uniform<i8:f32, 0.5:-1>
!r = !quant.uniform<i8:f32, 0.25>
func.func @pairs(%x: tensor<4xf32>, %p: tensor<4x!q>) -> (tensor<4xf32>, tensor<4x!q>, tensor<4x!r>, tensor<4xf32>) {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!q>
  %d = quant.dcast %q : tensor<4x!q> to tensor<4xf32>
  %e = quant.dcast %p : tensor<4x!q> to tensor<4xf32>
  %f = quant.qcast %e : tensor<4xf32> to tensor<4x!q>
  %g = quant.qcast %e : tensor<4xf32> to tensor<4x!r>
  %h = quant.dcast %f : tensor<4x!q> to tensor<4xf32>
  return %d, %f, %g, %h : tensor<4xf32>, tensor<4x!q>, tensor<4x!r>, tensor<4xf32>
}
"""


def test_default_folds_cast_pairs_as_upstream() -> None:
    """Upstream's conversion folds `dcast(qcast x)` (and a same-type `qcast(dcast p)`)
    before lowering, lazily (a qcast whose only user folds is still lowered); so do we,
    by default only: nearest-even keeps every cast and its quantization error."""
    x = np.array([1.3, -1.3, 0.75, 7.0], np.float32)
    p = np.array([-128, -1, 5, 127], np.int8)
    ours = xquant.apply_passes(xquant.parse_module(PAIRS), "lower-quant-ops")
    d, f, _, h = (np.asarray(v) for v in xquant.run(ours, "pairs", x, p))
    np.testing.assert_array_equal(d, x)  # folded: no quantization error
    np.testing.assert_array_equal(f, p)
    np.testing.assert_array_equal(h, (p.astype(np.float32) + 1) * np.float32(0.5))
    contract = xquant.apply_passes(
        xquant.parse_module(PAIRS), "lower-quant-ops{rounding=nearest-even}"
    )
    (d_contract, *_) = xquant.run(contract, "pairs", x, p)
    np.testing.assert_array_equal(d_contract, [1.5, -1.5, 0.5, 7.0])
    mlir_opt.require_mlir_opt()  # the rest compares with upstream
    generic = "--mlir-print-op-generic"
    theirs = mlir_opt.run_mlir_opt(PAIRS, "--lower-quant-ops", generic)
    assert theirs.returncode == 0, theirs.stderr
    assert mlir_opt.run_mlir_opt(module_to_mlir(ours), generic).stdout == theirs.stdout
