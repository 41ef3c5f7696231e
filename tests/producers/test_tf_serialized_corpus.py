"""TensorFlow 2.21's serialized integer-only modules: parse with locations, run with
TF's numbers, lower bit-identically, print back as upstream MLIR does.

A SavedModel quantized with `op_set=STABLEHLO` runs one `XlaCallModule` op; its
`module` attribute is a VHLO portable artifact, the integer-only module TF's
`stablehlo-legalize-quant-to-math` made of the quantized one (no `!quant`
types left: int8 storage, i32 accumulation, f32 rescaling).
`tests/data/tf_quantizer/generate.py` (run by hand with TensorFlow) wrote each
one deserialized and printed with its locations by upstream MLIR's printer
(`serialized/<name>.mlir`), its arguments (the platform index, `x`) and TF's
output `y` (`serialized/<name>.npz`; the same `y` the quantized module of
`test_tf_quantizer_corpus.py` is checked against). `serialized/<name>.savedmodel.mlir`
is the same program as TF's converter (`savedmodel_to_stablehlo`) writes the
whole SavedModel: the call inlined, `x` its only argument. Each text below is
one of the two.

- Static-range modules end in an int8 value dequantized with one f32 multiply:
  equal to TF bit for bit. Weight-only modules compute in f32 with
  dequantized weights: 1e-5 relative, 1e-6 absolute (XLA may sum in another
  order).
- Printed with `debuginfo` (and by `xquant-opt --mlir-print-debuginfo`), each
  module is the file's text (upstream MLIR's custom form); its generic form is
  what mlir-opt 22.1.8 prints for it under `--allow-unregistered-dialect
  --mlir-print-debuginfo` (mlir-opt has no StableHLO dialect, so it reads only
  the generic form).
- Under `backend="iree"` (when installed) the static-range modules give TF's
  bits, except where f32 arithmetic follows the last dequantize (IREE contracts
  a multiply and an add into one fused multiply-add, XLA and the interpreter do
  not): those and the weight-only modules are compared with the weight-only
  tolerance.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xquant
from tests.upstream.mlir_opt import require_mlir_opt, run_mlir_opt

DATA = Path(__file__).resolve().parents[1] / "data" / "tf_quantizer" / "serialized"
PROGRAMS = sorted(p.stem for p in DATA.glob("*.npz"))
CASES = sorted(p.name[: -len(".mlir")] for p in DATA.glob("*.mlir"))
LOWER = "stablehlo-legalize-quant-to-math{exact=true},stablehlo-legalize-to-linalg"
LEFT_AS_IS = {"stablehlo.optimization_barrier"}
"""Kept by the lowering, as in `test_tf_quantizer_corpus.py`: TF puts it around
dequantized weights; upstream's linalg lowering has no pattern for it."""


IREE_FMA = {"residual__static_int8"}
"""Static-range modules that add the f32 input to the dequantized result
(`x * scale + residual`, one FMA under IREE)."""


def _load(stem: str) -> tuple[str, list[np.ndarray], np.ndarray]:
    """The text, its arguments and TF's output (the platform index is an argument
    of the serialized module only)."""
    program, _, form = stem.partition(".")
    data = np.load(DATA / f"{program}.npz")
    names = ("x",) if form == "savedmodel" else ("platform", "x")
    args = [data[k] for k in names if k in data.files]
    return (DATA / f"{stem}.mlir").read_text(), args, data["y"]


def test_the_corpus_is_there() -> None:
    assert len(PROGRAMS) >= 12, PROGRAMS
    assert CASES == sorted([*PROGRAMS, *(f"{p}.savedmodel" for p in PROGRAMS)])
    for stem in CASES:
        text = (DATA / f"{stem}.mlir").read_text()
        assert "quant.uniform" not in text, stem
        assert "#loc" in text and "loc(callsite(" in text, stem


@pytest.mark.parametrize("stem", CASES)
def test_runs_with_tf_numbers_and_lowers_bit_identically(stem: str) -> None:
    text, args, want = _load(stem)
    module = xquant.parse_module(text, f"{stem}.mlir")
    (got,) = xquant.run(module, "main", *args)
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    if stem.partition(".")[0].endswith("weight_only_int8"):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    lowered = xquant.apply_passes(xquant.parse_module(text, f"{stem}.mlir"), LOWER)
    left = sorted(
        {op.name for op in lowered.walk() if op.name.startswith("stablehlo.")}
        - LEFT_AS_IS
    )
    assert not left, left
    (after,) = xquant.run(lowered, "main", *args)
    np.testing.assert_array_equal(
        np.asarray(after).view(np.uint32), got.view(np.uint32)
    )


@pytest.mark.parametrize("stem", CASES)
def test_prints_back_with_locations(stem: str) -> None:
    text, _, _ = _load(stem)
    module = xquant.parse_module(text, f"{stem}.mlir")
    # The file is upstream MLIR's printing (less the empty line it ends with).
    assert xquant.print_module(module, debuginfo=True) + "\n" == text


@pytest.mark.parametrize("stem", CASES)
def test_generic_form_as_mlir_opt(stem: str) -> None:
    require_mlir_opt()
    text, _, _ = _load(stem)
    generic = xquant.print_module(
        xquant.parse_module(text, f"{stem}.mlir"), generic=True, debuginfo=True
    )
    done = run_mlir_opt(
        generic,
        "--allow-unregistered-dialect",
        "--mlir-print-debuginfo",
        "--mlir-print-op-generic",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == generic + "\n"


@pytest.mark.parametrize("stem", CASES)
def test_xquant_opt_prints_back_with_locations(
    stem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from xquant.tools.xquant_opt import main as xquant_opt

    assert xquant_opt([str(DATA / f"{stem}.mlir"), "--mlir-print-debuginfo"]) == 0
    assert capsys.readouterr().out == (DATA / f"{stem}.mlir").read_text()


@pytest.mark.parametrize("stem", PROGRAMS)
def test_iree_runs_with_tf_numbers(stem: str) -> None:
    """The serialized modules (the converter's texts hold the same ops)."""
    from xquant.backends import iree

    reason = iree.available()
    if reason is not None:
        pytest.skip(reason)
    text, args, want = _load(stem)
    (got,) = xquant.run(xquant.parse_module(text), "main", *args, backend="iree")
    got = np.asarray(got)
    program = stem.partition(".")[0]
    if program.endswith("weight_only_int8") or program in IREE_FMA:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
