"""The interpreter on stablehlo.reverse, pad, dynamic_slice, dynamic_update_slice and map.

Each result must equal, bit for bit, a numpy reference written from the
StableHLO spec in `tests/transforms/stablehlo_data_movement_cases.py`
(np.flip; np.pad with interior padding inserted by hand and negative edges
cropped; slices at `clamp(0, start, dim - size)`; the map body's numpy op),
and, where `stablehlo-legalize-to-linalg` lowers the program, the lowered
program run in the interpreter (differential check).
Bad values that the verifier cannot see (runtime sizes of dynamic dims) must
be located diagnostics.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import xquant
from tests.transforms.stablehlo_data_movement_cases import (
    DYNAMIC,
    MAPS,
    PADS,
    PASS,
    PASSES,
    REVERSES,
    SLICES,
    STARTS,
    UPDATES,
    Map,
    assert_identical,
    dynamic_slice_reference,
    dynamic_update_slice_reference,
    index_value,
    pad_reference,
    random_array,
    reverse_text,
    tensor,
)
from xquant.interpreter.errors import OpInterpretationError
from xquant.interpreter.stablehlo import data_movement


def run_checked(text: str, *args: Any) -> np.ndarray:
    """Run `text` as written; where the pass lowers every StableHLO op, the lowered
    program must give the same bits."""
    (got,) = xquant.run(xquant.parse_module(text), "main", *args)
    for pipeline in PASSES:
        module = xquant.apply_passes(xquant.parse_module(text), pipeline)
        if any(op.name.startswith("stablehlo.") for op in module.walk()):
            continue
        (lowered,) = xquant.run(module, "main", *args)
        assert_identical(got, lowered)
    return np.asarray(got)


def is_lowered(text: str) -> bool:
    """The pass leaves no StableHLO op."""
    module = xquant.apply_passes(xquant.parse_module(text), PASS)
    return not any(op.name.startswith("stablehlo.") for op in module.walk())


# ------------------------------------------------------------------------- reverse


@pytest.mark.parametrize(("shape", "dims", "element"), REVERSES)
def test_reverse(shape: list[int], dims: list[int], element: str) -> None:
    x = np.asarray(random_array(np.random.default_rng(len(shape)), shape, element))
    got = run_checked(reverse_text(shape, dims, element), x)
    assert_identical(got, np.flip(x, axis=tuple(dims)))


def test_reverse_is_lowered() -> None:
    """The differential half of the check is not vacuous."""
    assert is_lowered(reverse_text([2, 3], [1], "f32"))


# ----------------------------------------------------------------------------- pad


@pytest.mark.parametrize("name", sorted(PADS))
def test_pad(name: str) -> None:
    case = PADS[name]
    rng = np.random.default_rng(len(name))
    x = np.asarray(random_array(rng, case.shape, case.element))
    value = np.asarray(random_array(rng, [], case.element))
    got = run_checked(case.text(), x, value)
    assert_identical(got, pad_reference(case, x, value))


def test_pad_is_lowered() -> None:
    assert is_lowered(PADS["interior_negative_i32"].text())


# ---------------------------------------------------------------- dynamic slices


@pytest.mark.parametrize("name", sorted(SLICES))
def test_dynamic_slice(name: str) -> None:
    case = SLICES[name]
    rng = np.random.default_rng(len(name))
    x = np.asarray(random_array(rng, case.shape, case.element))
    trials = [[-3] * len(case.shape), [2**63 + 5] * len(case.shape)]
    trials += [[int(rng.choice(STARTS)) for _ in case.shape] for _ in range(4)]
    for starts in trials:
        values = [index_value(s, case.index) for s in starts]
        got = run_checked(case.text(), x, *values)
        assert_identical(got, dynamic_slice_reference(case, x, values))


def test_dynamic_slice_ui64_start_past_2_63() -> None:
    """2^63 + 5 as a ui64 start is huge, not negative: clamped to dim - size."""
    case = SLICES["ui64_ui64_index"]
    x = np.arange(7, dtype=np.uint64)
    got = run_checked(case.text(), x, np.asarray(2**63 + 5, np.uint64))
    assert_identical(got, x[4:7])


def test_dynamic_slice_is_lowered() -> None:
    assert is_lowered(SLICES["block_i8_i32_index"].text())


@pytest.mark.parametrize("name", sorted(UPDATES))
def test_dynamic_update_slice(name: str) -> None:
    case = UPDATES[name]
    rng = np.random.default_rng(len(name))
    x = np.asarray(random_array(rng, case.shape, case.element))
    update = np.asarray(random_array(rng, case.update, case.element))
    trials = [[1000] * len(case.shape), [-2] * len(case.shape)]
    trials += [[int(rng.choice(STARTS)) for _ in case.shape] for _ in range(4)]
    for starts in trials:
        values = [index_value(s, case.index) for s in starts]
        got = run_checked(case.text(), x, update, *values)
        want = dynamic_update_slice_reference(case, x, update, values)
        assert_identical(got, want)


def test_dynamic_update_slice_is_lowered() -> None:
    assert is_lowered(UPDATES["square_i32"].text())


# ----------------------------------------------------------------------------- map


def map_args(name: str) -> list[np.ndarray]:
    """Random inputs of a map case."""
    case = MAPS[name]
    rng = np.random.default_rng(len(name))
    return [np.asarray(random_array(rng, case.shape, e)) for e in case.elements]


@pytest.mark.parametrize("name", sorted(MAPS))
def test_map(name: str) -> None:
    case = MAPS[name]
    args = map_args(name)
    got = run_checked(case.text(), *args)
    assert_identical(got, np.asarray(case.reference(*args)))


@pytest.mark.parametrize("name", sorted(MAPS))
def test_map_per_element_fallback(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forced to run the body once per element, map gives the same bits."""
    monkeypatch.setattr(data_movement, "is_elementwise_body", _never)
    case = MAPS[name]
    args = map_args(name)
    (got,) = xquant.run(case.text(), "main", *args)
    assert_identical(got, np.asarray(case.reference(*args)))


def _never(*_: Any) -> bool:
    return False


def test_map_vectorizes_only_elementwise_bodies() -> None:
    """A body with a reshape to rank 1 runs per element; add/max bodies run vectorized."""
    from xquant.dialects.stablehlo.control_flow import MapOp

    for name, vectorized in (("add_f32", True), ("not_elementwise_reshape", False)):
        module = xquant.parse_module(MAPS[name].text())
        (op,) = [op for op in module.walk() if isinstance(op, MapOp)]
        assert data_movement.is_elementwise_body(op.computation) is vectorized


def test_map_is_lowered() -> None:
    assert is_lowered(MAPS["add_f32"].text())


def test_map_signed_zeros_agree_with_the_lowering() -> None:
    """IEEE-754 maximum/minimum order -0 below +0; map runs its body's own ops, so it
    agrees with the lowered `arith.maximumf`/`minimumf` exactly when they do."""
    case = Map(
        [2],
        ["f32", "f32"],
        "f32",
        MAPS["max_f64"].body.replace("f64", "f32"),
        np.maximum,
    )
    a = np.array([-0.0, 0.0], np.float32)
    b = np.array([0.0, -0.0], np.float32)
    got = run_checked(case.text(), a, b)
    assert_identical(got, np.zeros(2, np.float32))


# ------------------------------------------------------------------- dynamic dims


def test_dynamic_dims() -> None:
    """Runtime sizes of dynamic dims, against numpy and (where lowered) the lowering."""
    rng = np.random.default_rng(7)
    x = np.asarray(random_array(rng, [5, 3], "f32"))
    assert_identical(run_checked(DYNAMIC["reverse"], x), x[:, ::-1])
    table = np.asarray(random_array(rng, [6, 4], "i32"))
    for i, j in ((-2, 9), (3, 1), (5, -1), (100, 2)):
        starts = np.asarray(i), np.asarray(j)
        got = run_checked(DYNAMIC["dynamic_slice"], table, *starts)
        row, column = min(max(i, 0), 6 - 2), min(max(j, 0), 4 - 3)
        assert_identical(got, table[row : row + 2, column : column + 3])
    a, b = (np.asarray(random_array(rng, [4], "f32")) for _ in range(2))
    assert_identical(run_checked(DYNAMIC["map"], a, b), a - b)
    small = np.array([1, 2, 3], np.int8)
    got = run_checked(DYNAMIC["pad"], small, np.asarray(np.int8(-9)))
    assert_identical(got, np.array([-9, 2, -9, 3, -9, -9], np.int8))
    update = np.array([7.0, 8.0], np.float32)
    got = run_checked(
        DYNAMIC["dynamic_update_slice"], x[:, 0].copy(), update, np.asarray(np.int32(9))
    )
    want = x[:, 0].copy()
    want[3:5] = update
    assert_identical(got, want)


# ----------------------------------------------------------------------- quantized

Q = "!quant.uniform<i8:f32, 5.000000e-01:3>"


def test_quantized_data_movement_moves_storage() -> None:
    """With one quantized type throughout, every op moves the storage integers."""
    t4, t6, t2, s = (tensor([n], Q) for n in (4, 6, 2, 0))
    s = tensor([], Q)
    text = f"""func.func @main(%x: {t4}, %v: {s}, %u: {t2}, %i: tensor<i32>) -> ({t4}, {t6}, {t2}, {t4}) {{
  %0 = stablehlo.reverse %x, dims = [0] : {t4}
  %1 = stablehlo.pad %x, %v, low = [1], high = [-2], interior = [1] : ({t4}, {s}) -> {t6}
  %2 = stablehlo.dynamic_slice %x, %i, sizes = [2] : ({t4}, tensor<i32>) -> {t2}
  %3 = stablehlo.dynamic_update_slice %x, %u, %i : ({t4}, {t2}, tensor<i32>) -> {t4}
  func.return %0, %1, %2, %3 : {t4}, {t6}, {t2}, {t4}
}}"""
    x = np.array([-128, 5, 0, 127], np.int8)
    v, u, i = np.asarray(np.int8(9)), np.array([1, 2], np.int8), np.asarray(3, np.int32)
    got = xquant.run(text, "main", x, v, u, i)
    want = [
        x[::-1],
        np.array([9, -128, 9, 5, 9, 0], np.int8),
        x[2:4],
        np.array([-128, 5, 1, 2], np.int8),
    ]
    for g, w in zip(got, want, strict=True):
        assert_identical(g, w)


def test_quantized_map_runs_its_body() -> None:
    """A quantized map gives what its body op gives on the whole tensors."""
    t = tensor([5], Q)
    s = tensor([], Q)
    text = f"""func.func @main(%x: {t}, %y: {t}) -> ({t}, {t}) {{
  %0 = "stablehlo.map"(%x, %y) ({{
  ^bb0(%a: {s}, %b: {s}):
    %r = stablehlo.add %a, %b : {s}
    "stablehlo.return"(%r) : ({s}) -> ()
  }}) {{dimensions = array<i64: 0>}} : ({t}, {t}) -> {t}
  %1 = stablehlo.add %x, %y : {t}
  func.return %0, %1 : {t}, {t}
}}"""
    x = np.array([-128, 5, 0, 127, 60], np.int8)
    y = np.array([3, 3, -50, 127, 70], np.int8)
    mapped, added = xquant.run(text, "main", x, y)
    assert_identical(mapped, added)


# ---------------------------------------------------------------------- bad values

BAD = {
    "dynamic_slice_size_past_runtime_dim": (
        """func.func @main(%x: tensor<?xf32>, %s: tensor<i32>) -> tensor<3xf32> {
  %0 = stablehlo.dynamic_slice %x, %s, sizes = [3] : (tensor<?xf32>, tensor<i32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}""",
        [np.zeros(2, np.float32), np.asarray(0, np.int32)],
        "'stablehlo.dynamic_slice' op: size 3 exceeds the runtime size 2",
    ),
    "dynamic_update_slice_update_past_runtime_dim": (
        """func.func @main(%x: tensor<?xi8>, %u: tensor<?xi8>, %s: tensor<i32>) -> tensor<?xi8> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %s : (tensor<?xi8>, tensor<?xi8>, tensor<i32>) -> tensor<?xi8>
  func.return %0 : tensor<?xi8>
}""",
        [np.zeros(2, np.int8), np.zeros(3, np.int8), np.asarray(0, np.int32)],
        "'stablehlo.dynamic_update_slice' op: size 3 exceeds the runtime size 2",
    ),
    "pad_negative_runtime_size": (
        """func.func @main(%x: tensor<?xf32>, %v: tensor<f32>) -> tensor<?xf32> {
  %0 = stablehlo.pad %x, %v, low = [-3], high = [0], interior = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
        [np.zeros(2, np.float32), np.asarray(0, np.float32)],
        "'stablehlo.pad' op: padding gives a negative result size [-1]",
    ),
    "map_runtime_shapes_differ": (
        """func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
        [np.zeros(2, np.float32), np.zeros(3, np.float32)],
        "'stablehlo.map' op: input #1 has runtime shape [3], input #0 has [2]",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_values_are_located_diagnostics(name: str) -> None:
    text, args, message = BAD[name]
    with pytest.raises(OpInterpretationError) as info:
        xquant.run(text, "main", *args)
    assert str(info.value).startswith("<string>:2:"), str(info.value)
    assert message in str(info.value)
