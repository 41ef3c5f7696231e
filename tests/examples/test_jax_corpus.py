"""JAX's own programs (tests/data/jax, written by generate.py with JAX 0.12): parse, run
equal to JAX's CPU outputs, lower, and run lowered equal to the interpreter bit for bit.

Goldens are JAX's outputs (XLA on CPU), never xquant's. Tolerances, per output
element type:
- integers and booleans: exact;
- f32: |got - want| <= 1e-5 * |want| + 1e-6 * max|want| (relative, with an absolute
  floor at a millionth of the output's scale for values that cancel to near zero);
- f16/bf16: the same with 2 ulps of the type (2 * 2^-10, 2 * 2^-7) instead of 1e-5.

Lowering is `PIPELINE`: composites to calls, while/case to scf, then
`stablehlo-legalize-to-linalg` (which runs `chlo-legalize-to-stablehlo` first). StableHLO/chlo ops that may stay, and why, are in `MAY_STAY`.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import xquant

CORPUS = Path(__file__).resolve().parents[1] / "data" / "jax"
NAMES = sorted(
    p.name[: -len(".mlir")] for p in CORPUS.glob("*.mlir") if p.name.count(".") == 1
)
PIPELINE = (
    "stablehlo-legalize-composite-to-call,stablehlo-legalize-control-flow,"
    "stablehlo-legalize-to-linalg"
)

# Ops left after lowering on purpose (upstream's stablehlo-legalize-to-linalg leaves them too).
MAY_STAY = {
    # sort and scatter: upstream's pass has no linalg form for them (IREE converts them to
    # iree_linalg_ext.sort/scatter); their scalar bodies stay with them.
    "stablehlo.sort": "no linalg form upstream",
    "stablehlo.scatter": "no linalg form upstream",
    "stablehlo.compare": "inside sort comparators",
    "stablehlo.select": "inside sort comparators",
    "stablehlo.constant": "inside sort comparators",
    "stablehlo.add": "inside scatter update computations",
    "stablehlo.maximum": "inside scatter update computations",
    "stablehlo.return": "terminator of the regions above",
}

# Known gaps, each with its reason (tracked in issue 27).
STAY_GAPS = {}

ULP_16 = {np.dtype(np.float16): 2.0**-10, np.dtype(ml_dtypes.bfloat16): 2.0**-7}


def load(name: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    arrays = np.load(CORPUS / f"{name}.npz")
    values: dict[str, np.ndarray] = {}
    for key in arrays.files:
        if key.startswith("dtype_"):
            continue
        if key.startswith("bits_"):
            values[key[len("bits_") :]] = arrays[key].view(ml_dtypes.bfloat16)
        else:
            values[key] = arrays[key]

    def ordered(prefix: str) -> list[np.ndarray]:
        keys = sorted(
            (k for k in values if k.startswith(prefix)),
            key=lambda k: int(k[len(prefix) :]),
        )
        return [values[k] for k in keys]

    return ordered("in"), ordered("out")


def assert_matches_jax(got: np.ndarray, want: np.ndarray, label: str) -> None:
    assert got.shape == want.shape, f"{label}: shape {got.shape}, JAX {want.shape}"
    if want.dtype.kind in "iub":
        assert got.dtype == want.dtype, f"{label}: dtype {got.dtype}, JAX {want.dtype}"
        np.testing.assert_array_equal(got, want, err_msg=label)
        return
    relative = ULP_16.get(want.dtype, 1e-5)
    wide, golden = got.astype(np.float64), want.astype(np.float64)
    finite = np.isfinite(golden)
    scale = float(np.max(np.abs(golden[finite]), initial=0.0))
    np.testing.assert_allclose(
        wide,
        golden,
        rtol=relative,
        atol=relative * 0.1 * scale,
        equal_nan=True,
        err_msg=label,
    )


def test_corpus_is_there() -> None:
    assert len(NAMES) >= 30, NAMES


@pytest.mark.parametrize("name", NAMES)
def test_runs_equal_to_jax(name: str) -> None:
    inputs, outputs = load(name)
    module = xquant.parse_module((CORPUS / f"{name}.mlir").read_text())
    results = xquant.run(module, "main", *inputs)
    assert len(results) == len(outputs)
    for index, (got, want) in enumerate(zip(results, outputs, strict=True)):
        assert_matches_jax(np.asarray(got), want, f"{name} result {index}")


@pytest.mark.parametrize("name", NAMES)
def test_lowers_and_runs_bit_identical(name: str) -> None:
    text = (CORPUS / f"{name}.mlir").read_text()
    inputs, _ = load(name)
    lowered = xquant.apply_passes(xquant.parse_module(text), PIPELINE)
    left = {
        op.name
        for op in lowered.walk()
        if op.name.split(".")[0] in ("stablehlo", "chlo")
    }
    unexpected = left - set(MAY_STAY) - STAY_GAPS.get(name, set())
    assert not unexpected, f"{name}: left after lowering: {sorted(unexpected)}"
    before = xquant.run(xquant.parse_module(text), "main", *inputs)
    after = xquant.run(lowered, "main", *inputs)
    for index, (a, b) in enumerate(zip(before, after, strict=True)):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape, f"{name} result {index}"
        assert a.tobytes() == b.tobytes(), (
            f"{name} result {index}: lowered != interpreted"
        )


@pytest.mark.parametrize("kind", ["debug", "export"])
@pytest.mark.parametrize("name", NAMES)
def test_located_texts_parse(name: str, kind: str) -> None:
    """JAX's texts with locations (`as_text(debug_info=True)`, `jax.export`) parse
    and run equal to JAX."""
    text = (CORPUS / f"{name}.{kind}.mlir").read_text()
    module = xquant.parse_module(text)
    inputs, outputs = load(name)
    results = xquant.run(module, "main", *inputs)
    for index, (got, want) in enumerate(zip(results, outputs, strict=True)):
        assert_matches_jax(np.asarray(got), want, f"{name} {kind} result {index}")


BAD_INPUTS = {
    "while_condition_not_i1": (
        """func.func @main(%a: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%i = %a) : tensor<i32>
  cond {
    stablehlo.return %i : tensor<i32>
  } do {
    stablehlo.return %i : tensor<i32>
  }
  return %0 : tensor<i32>
}
""",
        ":2:8: error: expect condition block return a zero-ranked tensor of i1 but got 'tensor<i32>'",
    ),
    "sort_comparator_arguments": (
        """func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<f32>):
    %c = stablehlo.compare GT, %x, %x : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
""",
        ":2:8: error: comparator expects 2 parameters, but takes 1",
    ),
    "case_index_not_i32": (
        """func.func @main(%i: tensor<i64>) -> tensor<f32> {
  %0 = "stablehlo.case"(%i) ({
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<i64>) -> tensor<f32>
  return %0 : tensor<f32>
}
""",
        ":2:8: error: 'stablehlo.case' op operand #0 must be ranked tensor of 32-bit "
        "signless integer values, but got 'tensor<i64>'",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_control_flow_is_a_located_error(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from xquant.tools.xquant_run import main as xquant_run

    text, message = BAD_INPUTS[case]
    path = tmp_path / "bad.mlir"
    path.write_text(text)
    assert xquant_run([str(path)]) == 1
    captured = capsys.readouterr()
    assert f"{path}{message}" in captured.err, captured.err
    assert "Traceback" not in captured.err


# What the IREE backend cannot compile (sort and scatter go to IREE's own StableHLO
# input conversion, xquant/backends/iree_input.py; unsigned tensors at a function's
# boundary cross as signless, widen-boundary-types): nothing in this corpus.
IREE_UNSUPPORTED: dict[str, str] = {}


@pytest.mark.parametrize("name", NAMES)
def test_iree_runs_equal_to_jax(name: str) -> None:
    """`backend="iree"`: integers exactly as JAX, floats within the tolerances above
    (IREE's math functions are other approximations than numpy's, so floats are not
    bit-identical to the interpreter; integer programs are). IREE accumulates bf16
    dot products in f32, so the bf16 programs pass here."""
    from xquant.backends import iree

    reason = iree.available()
    if reason is not None:
        pytest.skip(reason)
    inputs, outputs = load(name)
    module = xquant.parse_module((CORPUS / f"{name}.mlir").read_text())
    if name in IREE_UNSUPPORTED:
        with pytest.raises(iree.IreeError, match=IREE_UNSUPPORTED[name]):
            xquant.run(module, "main", *inputs, backend="iree")
        return
    results = xquant.run(module, "main", *inputs, backend="iree")
    for index, (got, want) in enumerate(zip(results, outputs, strict=True)):
        assert_matches_jax(np.asarray(got), want, f"{name} result {index} (IREE)")
