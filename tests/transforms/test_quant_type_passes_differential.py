"""strip-func-quant-types and normalize-quant-types change types, never numbers.

Each module runs in the interpreter before and after the pass (and after the
full `... ,lower-quant-ops{rounding=nearest-even}` pipeline, the lowering
that keeps the interpreter's numbers) on the same inputs; the outputs must be
identical bit for bit. A `!quant` value holds its storage integers in the
interpreter, so a quantized argument is passed as those integers either way.

Both passes also give upstream's IR: where mlir-opt is installed, it prints
our output and its own output of the same pass identically in generic form
(and rejects a `!quant.calibrated` boundary where we do).
"""

from __future__ import annotations

import numpy as np
import pytest

import xquant
from tests.upstream import mlir_opt
from xquant.asm.diagnostics import OpDiagnostic
from xquant.asm.printer import module_to_mlir

STRIP = """
!q = !quant.uniform<u8:f32, 0.5:128>
!p = !quant.uniform<i8:f32:1, {0.25:1,2.0:-3,1.0}>
func.func @requant(%a: tensor<4x3x!p>, %x: tensor<4x3xf32>) -> (tensor<4x3x!q>, tensor<4x3xf32>) {
  %d = quant.dcast %a : tensor<4x3x!p> to tensor<4x3xf32>
  %s = arith.addf %d, %x : tensor<4x3xf32>
  %q = quant.qcast %s : tensor<4x3xf32> to tensor<4x3x!q>
  %y = func.call @back(%q) : (tensor<4x3x!q>) -> tensor<4x3xf32>
  return %q, %y : tensor<4x3x!q>, tensor<4x3xf32>
}
func.func @back(%q: tensor<4x3x!q>) -> tensor<4x3xf32> {
  %y = quant.dcast %q : tensor<4x3x!q> to tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}
"""

NORMALIZE = """
!layer = !quant.uniform<i8:f32:{0:3, 1:6}, {{0.75:5}}>
!axis = !quant.uniform<u8<0:200>:f32:{0:1}, {{0.5:7}, {3.0:9}, {0.125:100}}>
!blocked = !quant.uniform<i8:f32:{1:2}, {{2.0:1, 0.5:2, 4.0:-3}}>
func.func @main(%x: tensor<3x6xf32>) -> (tensor<3x6xf32>, tensor<3x6xf32>, tensor<3x6xf32>) {
  %a = quant.qcast %x : tensor<3x6xf32> to tensor<3x6x!layer>
  %b = quant.qcast %x : tensor<3x6xf32> to tensor<3x6x!axis>
  %c = quant.qcast %x : tensor<3x6xf32> to tensor<3x6x!blocked>
  %ya = quant.dcast %a : tensor<3x6x!layer> to tensor<3x6xf32>
  %yb = quant.dcast %b : tensor<3x6x!axis> to tensor<3x6xf32>
  %yc = quant.dcast %c : tensor<3x6x!blocked> to tensor<3x6xf32>
  return %ya, %yb, %yc : tensor<3x6xf32>, tensor<3x6xf32>, tensor<3x6xf32>
}
"""


def _outputs(
    text: str, pipeline: str | None, function: str, *args: np.ndarray
) -> tuple[np.ndarray, ...]:
    module = xquant.parse_module(text)
    if pipeline:
        module = xquant.apply_passes(module, pipeline)
    return tuple(np.asarray(r) for r in xquant.run(module, function, *args))


def _assert_same(
    expected: tuple[np.ndarray, ...], actual: tuple[np.ndarray, ...]
) -> None:
    assert len(expected) == len(actual)
    for e, a in zip(expected, actual):
        assert e.shape == a.shape
        np.testing.assert_array_equal(
            e.view(np.uint8), a.astype(e.dtype).view(np.uint8)
        )


@pytest.mark.parametrize(
    "pipeline",
    [
        "strip-func-quant-types",
        "strip-func-quant-types,lower-quant-ops{rounding=nearest-even}",
    ],
)
def test_strip_func_quant_types_keeps_numbers(pipeline: str) -> None:
    rng = np.random.default_rng(1)
    a = rng.integers(-128, 128, size=(4, 3)).astype(np.int8)
    x = rng.normal(0, 20, size=(4, 3)).astype(np.float32)
    x[0, 0], x[1, 1] = np.nan, np.inf
    before = _outputs(STRIP, None, "requant", a, x)
    after = _outputs(STRIP, pipeline, "requant", a, x)
    assert before[0].dtype == np.uint8  # the quantized result, as storage
    _assert_same(before, after)
    stripped = str(
        xquant.apply_passes(xquant.parse_module(STRIP), "strip-func-quant-types")
    )
    assert (
        "func.func @requant(%a : tensor<4x3xi8>, %x : tensor<4x3xf32>) -> (tensor<4x3xi8>, tensor<4x3xf32>)"
        in (stripped.replace("%a: ", "%a : ").replace("%x: ", "%x : "))
    )


@pytest.mark.parametrize(
    "pipeline",
    [
        "normalize-quant-types",
        "normalize-quant-types,lower-quant-ops{rounding=nearest-even}",
    ],
)
def test_normalize_quant_types_keeps_numbers(pipeline: str) -> None:
    x = (np.arange(18, dtype=np.float32).reshape(3, 6) - 9) * np.float32(0.8)
    x[2, 5] = np.nan
    before = _outputs(NORMALIZE, None, "main", x)
    after = _outputs(NORMALIZE, pipeline, "main", x)
    _assert_same(before, after)
    normalized = str(
        xquant.apply_passes(xquant.parse_module(NORMALIZE), "normalize-quant-types")
    )
    assert "!quant.uniform<i8:f32, 7.500000e-01:5>" in normalized
    assert (
        "!quant.uniform<u8<0:200>:f32:0, {5.000000e-01:7,3.000000e+00:9,1.250000e-01:100}>"
        in normalized
    )
    assert "{1:2}" in normalized  # a blocked axis stays sub-channel


# ----- upstream parity (mlir-opt) -----

PLACEMENT = """
!q = !quant.uniform<i8:f32, 2.0:10>
!u = !quant.uniform<u8:f32, 0.5:128>
func.func private @two() -> (!q, !q, f32)
func.func @results(%p: i1) -> (f32, f32) {
  %r:3 = func.call @two() : () -> (!q, !q, f32)
  %x = scf.if %p -> (f32) {
    %a = quant.dcast %r#1 : !q to f32
    scf.yield %a : f32
  } else {
    scf.yield %r#2 : f32
  }
  %b = quant.dcast %r#0 : !q to f32
  return %x, %b : f32, f32
}
func.func @operands(%a: !q, %u: !u, %unused: !q, %x: f32) -> (!q, f32, !q, !q) {
  %c = arith.constant 1.0 : f32
  %d = quant.dcast %a : !q to f32
  %e = quant.dcast %u : !u to f32
  %y = arith.addf %d, %x : f32
  %q = quant.qcast %y : f32 to !q
  %z = arith.addf %y, %c : f32
  return %a, %d, %q, %q : !q, f32, !q, !q
}
func.func @calls(%p: i1, %x: f32) -> f32 {
  %c = arith.constant 1.0 : f32
  %q = quant.qcast %x : f32 to !q
  %y = arith.addf %x, %c : f32
  %u = quant.qcast %y : f32 to !u
  %r:4 = func.call @operands(%q, %u, %q, %y) : (!q, !u, !q, f32) -> (!q, f32, !q, !q)
  %w = quant.dcast %r#3 : !q to f32
  %m:2 = scf.if %p -> (!q, !q) {
    scf.yield %q, %r#2 : !q, !q
  } else {
    %b = quant.qcast %y : f32 to !q
    %v = func.call @h(%b, %q) : (!q, !q) -> f32
    scf.yield %b, %b : !q, !q
  }
  %v = func.call @h(%m#1, %m#0) : (!q, !q) -> f32
  return %v : f32
}
func.func private @h(!q, !q) -> f32
"""

NORMALIZE_SIGNATURES = """
!sc = !quant.uniform<i8:f32:{0:1}, {{2.0:127}, {3.0:127}}>
!one = !quant.uniform<i8:f32:{0:1,1:4}, {{2.0:127}}>
func.func private @callee(tensor<?x?x!one>, tensor<2x3x!sc>) -> tensor<?x?x!one>
func.func @f(%a: tensor<2x3x!sc>, %i: tensor<2x3xi8>, %o: tensor<?x?x!one>) -> (tensor<2x3xf32>, tensor<2x3xi8>, tensor<?x?x!one>) {
  %d = quant.dcast %a : tensor<2x3x!sc> to tensor<2x3xf32>
  %s = quant.scast %i : tensor<2x3xi8> to tensor<2x3x!sc>
  %r = func.call @callee(%o, %s) : (tensor<?x?x!one>, tensor<2x3x!sc>) -> tensor<?x?x!one>
  %t = quant.scast %a : tensor<2x3x!sc> to tensor<2x3xi8>
  return %d, %t, %r : tensor<2x3xf32>, tensor<2x3xi8>, tensor<?x?x!one>
}
"""

NORMALIZE_FOLDABLE = """
!sc = !quant.uniform<i8:f32:{0:1}, {{2.0:127}, {3.0:127}}>
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %q = quant.qcast %x : tensor<2x3xf32> to tensor<2x3x!sc>
  %y = quant.dcast %q : tensor<2x3x!sc> to tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
"""


STRIP_FOLDABLE = """
func.func @f(%x: f32, %a: !quant.uniform<i8:f32, 0.5>) -> f32 {
  %q = quant.qcast %x : f32 to !quant.uniform<i8:f32, 0.5>
  %y = quant.dcast %q : !quant.uniform<i8:f32, 0.5> to f32
  return %y : f32
}
"""


def _generic_upstream(text: str, *flags: str) -> str:
    done = mlir_opt.run_mlir_opt(text, *flags, "--mlir-print-op-generic")
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    ("pass_name", "text"),
    [
        ("strip-func-quant-types", PLACEMENT),
        ("strip-func-quant-types", STRIP),
        ("normalize-quant-types", NORMALIZE_SIGNATURES),
    ],
    ids=["strip-placement", "strip", "normalize"],
)
def test_output_is_upstreams_ir(pass_name: str, text: str) -> None:
    """mlir-opt prints our output exactly as its own output of the same pass."""
    mlir_opt.require_mlir_opt()
    ours = xquant.apply_passes(xquant.parse_module(text), pass_name)
    assert _generic_upstream(module_to_mlir(ours)) == _generic_upstream(
        text, f"--{pass_name}"
    )


def test_quant_cast_pairs_are_kept_where_upstream_folds_them() -> None:
    """A known difference, kept on purpose: upstream's dialect conversion tries to fold
    each op it visits (every op of unknown legality in strip's partial conversion, every
    retyped op in normalize's full conversion), so `dcast(qcast x)` becomes `x` and the
    quantization error disappears; ours change types (and casts), never numbers."""
    for text, pass_name in (
        (NORMALIZE_FOLDABLE, "normalize-quant-types"),
        (STRIP_FOLDABLE, "strip-func-quant-types"),
    ):
        ours = module_to_mlir(xquant.apply_passes(xquant.parse_module(text), pass_name))
        assert "quant.dcast" in ours
        if mlir_opt.find_mlir_opt() is not None:
            theirs = _generic_upstream(text, f"--{pass_name}")
            assert "quant.dcast" not in theirs


CALIBRATED = [
    ("func.func private @d(!quant.calibrated<f32<-1.0:1.0>>) -> f32", "func.func", 1),
    (
        "func.func @ok(%a: !quant.uniform<i8:f32, 1.0>) -> f32 {\n"
        "  %c = arith.constant 0.0 : f32\n  return %c : f32\n}\n"
        "func.func @r(%a: f32) -> !quant.calibrated<f32<-1.0:1.0>> {\n"
        '  %0 = "test.op"() : () -> !quant.calibrated<f32<-1.0:1.0>>\n'
        "  return %0 : !quant.calibrated<f32<-1.0:1.0>>\n}",
        "func.func",
        5,
    ),
    (
        "func.func @f(%x: f32) -> f32 {\n"
        "  %0 = func.call @g() : () -> !quant.calibrated<f32<-1.0:1.0>>\n"
        "  return %x : f32\n}\n"
        "func.func private @g() -> !quant.calibrated<f32<-1.0:1.0>>",
        "func.call",
        2,
    ),
]


@pytest.mark.parametrize(("text", "op_name", "line"), CALIBRATED)
def test_calibrated_boundary_fails_where_upstream_does(
    text: str, op_name: str, line: int
) -> None:
    """No storage type to strip to: the first function op holding one fails, as upstream."""
    module = xquant.parse_module(text)
    before = str(module)
    with pytest.raises(OpDiagnostic) as info:
        xquant.apply_passes(module, "strip-func-quant-types")
    message = (
        f"failed to legalize operation '{op_name}' that was explicitly marked illegal"
    )
    assert str(info.value) == message
    assert info.value.op.name == op_name
    assert str(module) == before  # nothing changed
    mlir_opt.require_mlir_opt()  # the rest compares with upstream
    done = mlir_opt.run_mlir_opt(
        text, "--strip-func-quant-types", "-allow-unregistered-dialect"
    )
    assert done.returncode == 1
    assert f"<stdin>:{line}:" in done.stderr.splitlines()[0]
    assert message in done.stderr.splitlines()[0]
