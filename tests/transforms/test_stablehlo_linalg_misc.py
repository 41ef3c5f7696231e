"""`stablehlo-legalize-to-linalg` on iota, reverse, pad, dynamic_slice, dynamic_update_slice and map.

Each lowered program (both `enable-primitive-ops` settings) runs in the
interpreter and must equal, bit for bit, a numpy reference written from the
StableHLO spec (np.arange here; np.flip, np.pad with interior padding done by
hand, slices at clamped start indices and the map body's numpy op in
`tests/transforms/stablehlo_data_movement_cases.py`, shared with the
interpreter's tests), independently of the interpreter and of the lowering.
iota also runs as written and must give the same bits; reverse, pad,
dynamic_slice, dynamic_update_slice and map are checked against numpy only
here (`tests/interpreter/test_stablehlo_data_movement.py` runs them as
written). The lowered text must parse and verify in upstream `mlir-opt` where
it is installed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import xquant
from tests.transforms import stablehlo_data_movement_cases as cases
from tests.upstream import mlir_opt

# Cases of the shared tables that this pass leaves as StableHLO (the interpreter's
# tests run them as written): a map body that reshapes to rank 1 is not
# elementwise, and a dynamic pad or dynamic_update_slice has no lowering here.
# `test_unlowered_shared_cases_stay_stablehlo` checks that they still are left.
UNLOWERED_MAPS = ("not_elementwise_reshape",)
UNLOWERED_DYNAMIC = ("pad", "dynamic_update_slice")
LOWERED_MAPS = {k: v for k, v in cases.MAPS.items() if k not in UNLOWERED_MAPS}
LOWERED_DYNAMIC = {k: v for k, v in cases.DYNAMIC.items() if k not in UNLOWERED_DYNAMIC}


def lowered(text: str, pipeline: str) -> ModuleOp:
    return xquant.apply_passes(xquant.parse_module(text), pipeline)


def run_lowered(text: str, pipeline: str, *args: Any) -> np.ndarray:
    """The function lowered (every StableHLO op gone) and run in the interpreter."""
    module = lowered(text, pipeline)
    left = [op.name for op in module.walk() if op.name.startswith("stablehlo.")]
    assert not left, left
    (got,) = xquant.run(module, "main", *args)
    return np.asarray(got)


def run_both(text: str, pipeline: str, *args: Any) -> np.ndarray:
    """The function run as written and lowered: the same bits."""
    got = run_lowered(text, pipeline, *args)
    (want,) = xquant.run(xquant.parse_module(text), "main", *args)
    cases.assert_identical(got, want)
    return got


# ---------------------------------------------------------------------------- iota

IOTAS: list[tuple[list[int], int, str]] = [
    ([7, 10], 1, "f32"),
    ([7, 10], 0, "i32"),
    ([4, 3, 5], 2, "i8"),
    ([200], 0, "i8"),  # wraps, as the spec's conversion of 128..199 to i8
    ([3, 300], 1, "ui8"),
    ([5, 2], 0, "bf16"),
    ([2, 9], 1, "f16"),
    ([6], 0, "f64"),
    ([2, 2], 1, "i1"),
]  # complex<f32> (no interpreter dtype) is checked by upstream's FileCheck case


def iota_text(shape: list[int], dim: int, element: str) -> str:
    t = cases.tensor(shape, element)
    return f"""func.func @main() -> {t} {{
  %0 = stablehlo.iota dim = {dim} : {t}
  func.return %0 : {t}
}}"""


def iota_reference(shape: list[int], dim: int, element: str) -> np.ndarray:
    """`result[i] = i[dim]` converted to the element type (integers wrap modulo 2^N)."""
    line = np.arange(shape[dim], dtype=np.int64)
    view = line.reshape([-1 if d == dim else 1 for d in range(len(shape))])
    return np.broadcast_to(view, shape).astype(cases.DTYPES[element])


@pytest.mark.parametrize("pipeline", cases.PASSES)
@pytest.mark.parametrize(("shape", "dim", "element"), IOTAS)
def test_iota(pipeline: str, shape: list[int], dim: int, element: str) -> None:
    got = run_both(iota_text(shape, dim, element), pipeline)
    cases.assert_identical(got, iota_reference(shape, dim, element))


def test_iota_left_where_the_cast_would_wrap() -> None:
    """An i1 iota of 3 (the index cast keeps the low bit) and an f16 one of 40000
    (past i16) stay StableHLO rather than compute other values."""
    for shape, element in (([3], "i1"), ([40000], "f16")):
        module = lowered(iota_text(shape, 0, element), cases.PASS)
        assert any(op.name == "stablehlo.iota" for op in module.walk())


# ------------------------------------------------------------------------- reverse


@pytest.mark.parametrize("pipeline", cases.PASSES)
@pytest.mark.parametrize(("shape", "dims", "element"), cases.REVERSES)
def test_reverse(
    pipeline: str, shape: list[int], dims: list[int], element: str
) -> None:
    x = cases.random_array(np.random.default_rng(len(shape)), shape, element)
    got = run_lowered(cases.reverse_text(shape, dims, element), pipeline, x)
    cases.assert_identical(got, np.flip(x, axis=tuple(dims)))


# ----------------------------------------------------------------------------- pad


@pytest.mark.parametrize("pipeline", cases.PASSES)
@pytest.mark.parametrize("name", sorted(cases.PADS))
def test_pad(pipeline: str, name: str) -> None:
    case = cases.PADS[name]
    rng = np.random.default_rng(len(name))
    x = cases.random_array(rng, case.shape, case.element)
    value = np.asarray(cases.random_array(rng, [], case.element))
    got = run_lowered(case.text(), pipeline, x, value)
    cases.assert_identical(got, cases.pad_reference(case, x, value))


def test_pad_constant_value_is_a_scalar_constant() -> None:
    """A splat constant padding value becomes an `arith.constant` (upstream folds the extract)."""
    text = """func.func @main(%x: tensor<2xi8>) -> tensor<5xi8> {
  %v = stablehlo.constant dense<-7> : tensor<i8>
  %0 = stablehlo.pad %x, %v, low = [1], high = [2], interior = [0] : (tensor<2xi8>, tensor<i8>) -> tensor<5xi8>
  func.return %0 : tensor<5xi8>
}"""
    x = np.array([3, -4], np.int8)
    got = run_lowered(text, cases.PASS, x)
    cases.assert_identical(got, np.array([-7, 3, -4, -7, -7], np.int8))
    module = lowered(text, cases.PASS)
    assert not any(op.name == "tensor.extract" for op in module.walk())


# ---------------------------------------------------------------- dynamic slices


@pytest.mark.parametrize("pipeline", cases.PASSES)
@pytest.mark.parametrize("name", sorted(cases.SLICES))
def test_dynamic_slice(pipeline: str, name: str) -> None:
    case = cases.SLICES[name]
    rng = np.random.default_rng(len(name))
    x = cases.random_array(rng, case.shape, case.element)
    for trial in range(4):
        starts = [int(rng.choice(cases.STARTS)) for _ in case.shape]
        if trial == 0:
            starts = [-3] * len(starts)
        values = [cases.index_value(s, case.index) for s in starts]
        got = run_lowered(case.text(), pipeline, x, *values)
        cases.assert_identical(got, cases.dynamic_slice_reference(case, x, values))


@pytest.mark.parametrize("pipeline", cases.PASSES)
@pytest.mark.parametrize("name", sorted(cases.UPDATES))
def test_dynamic_update_slice(pipeline: str, name: str) -> None:
    case = cases.UPDATES[name]
    rng = np.random.default_rng(len(name))
    x = cases.random_array(rng, case.shape, case.element)
    update = cases.random_array(rng, case.update, case.element)
    for trial in range(4):
        starts = [int(rng.choice(cases.STARTS)) for _ in case.shape]
        if trial == 0:
            starts = [1000] * len(starts)
        values = [cases.index_value(s, case.index) for s in starts]
        got = run_lowered(case.text(), pipeline, x, update, *values)
        want = cases.dynamic_update_slice_reference(case, x, update, values)
        cases.assert_identical(got, want)


# ----------------------------------------------------------------------------- map


@pytest.mark.parametrize("pipeline", cases.PASSES)
@pytest.mark.parametrize("name", sorted(LOWERED_MAPS))
def test_map(pipeline: str, name: str) -> None:
    case = LOWERED_MAPS[name]
    rng = np.random.default_rng(len(name))
    args = [cases.random_array(rng, case.shape, e) for e in case.elements]
    got = run_lowered(case.text(), pipeline, *args)
    cases.assert_identical(got, case.reference(*args))


# ------------------------------------------------------------------ dynamic dims


@pytest.mark.parametrize("pipeline", cases.PASSES)
def test_dynamic_dims(pipeline: str) -> None:
    rng = np.random.default_rng(7)
    x = cases.random_array(rng, [5, 3], "f32")
    cases.assert_identical(
        run_lowered(LOWERED_DYNAMIC["reverse"], pipeline, x), x[:, ::-1]
    )
    table = cases.random_array(rng, [6, 4], "i32")
    for i, j in ((-2, 9), (3, 1), (5, -1), (100, 2)):
        got = run_lowered(
            LOWERED_DYNAMIC["dynamic_slice"],
            pipeline,
            table,
            np.asarray(i),
            np.asarray(j),
        )
        row, column = min(max(i, 0), 6 - 2), min(max(j, 0), 4 - 3)
        cases.assert_identical(got, table[row : row + 2, column : column + 3])
    a, b = cases.random_array(rng, [4], "f32"), cases.random_array(rng, [4], "f32")
    cases.assert_identical(run_lowered(LOWERED_DYNAMIC["map"], pipeline, a, b), a - b)


# ------------------------------------------------------------ left as they are


def test_left_unchanged() -> None:
    """Forms without a lowering here stay StableHLO: a reversed dynamic dim, a
    dynamic pad, a dynamic dynamic_update_slice, a map body op with no scalar form
    (integer power)."""
    texts = [
        """func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.reverse %x, dims = [0] : tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}""",
        """func.func @main(%x: tensor<?xf32>, %v: tensor<f32>) -> tensor<?xf32> {
  %0 = stablehlo.pad %x, %v, low = [1], high = [1], interior = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
        """func.func @main(%x: tensor<?xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<?xf32> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<?xf32>, tensor<2xf32>, tensor<i32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
        """func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<i32>):
    %r = stablehlo.power %a, %a : tensor<i32>
    "stablehlo.return"(%r) : (tensor<i32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}""",
    ]
    kept = [
        "stablehlo.reverse",
        "stablehlo.pad",
        "stablehlo.dynamic_update_slice",
        "stablehlo.map",
    ]
    for text, name in zip(texts, kept, strict=True):
        module = lowered(text, cases.PASS)
        assert name in [op.name for op in module.walk()], text


@pytest.mark.parametrize("pipeline", cases.PASSES)
def test_unlowered_shared_cases_stay_stablehlo(pipeline: str) -> None:
    """The shared cases left out above are left out because the pass keeps them."""
    texts = [cases.MAPS[k].text() for k in UNLOWERED_MAPS]
    texts += [cases.DYNAMIC[k] for k in UNLOWERED_DYNAMIC]
    for text in texts:
        module = lowered(text, pipeline)
        assert any(op.name.startswith("stablehlo.") for op in module.walk()), text


# ----------------------------------------------------------- upstream validity


def _all_programs() -> list[str]:
    programs = [iota_text(s, d, e) for s, d, e in IOTAS]
    programs.append(iota_text([3, 4], 1, "complex<f32>"))
    programs += [cases.reverse_text(s, d, e) for s, d, e in cases.REVERSES]
    programs += [case.text() for case in cases.PADS.values()]
    programs += [case.text() for case in cases.SLICES.values()]
    programs += [case.text() for case in cases.UPDATES.values()]
    programs += [case.text() for case in LOWERED_MAPS.values()]
    programs += list(LOWERED_DYNAMIC.values())
    return programs


@pytest.mark.parametrize("pipeline", cases.PASSES)
def test_lowered_ir_verifies_upstream(pipeline: str) -> None:
    """Every lowered program above, in one module per program, parses and verifies in mlir-opt."""
    mlir_opt.require_mlir_opt()
    for text in _all_programs():
        module = lowered(text, pipeline)
        mlir_opt.assert_verifies_upstream(xquant.print_module(module))
