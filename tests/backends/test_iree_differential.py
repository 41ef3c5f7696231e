"""The interpreter and IREE agree bit for bit on the whole corpus (NaN payloads aside).

Each case runs `xquant.run(..., backend="interpreter")` and
`xquant.run(..., backend="iree")` on the same arguments and compares every
result by bit pattern (`cases.same_bits`). The corpus: the examples, StableHLO's
quantized conformance modules (their checks turned into results), every
function of the quant / StableHLO / MX lowering corpora in filecheck/transforms,
and MX round trips of every element format.

Cases IREE cannot compile or computes differently are in `KNOWN`, with the
reason; docs/iree-backend.md lists the same ones (a test checks that). They
are strict xfails: once IREE (or xquant) is fixed, the test says so.

The whole suite skips, with one line saying why, when IREE is not installed.
Compiled modules are cached per session by their text (`xquant.backends.iree`).
Every case runs by default (about 2 minutes on the 2-core machine);
`XQUANT_IREE_CORPUS=sample` runs every fourth conformance module and corpus
function (with every example, MX round trip and golden vector) for a quick
local check.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.utils.exceptions import DiagnosticException, ParseError

import xquant
from tests.backends.cases import (
    CONFORMANCE_DIR,
    ROOT,
    arguments,
    checks_to_results,
    chunks,
    same_bits,
)
from xquant.backends.iree import IreeUnsupportedOpError, available

REASON = available()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

SAMPLE = os.environ.get("XQUANT_IREE_CORPUS", "full") == "sample"
DOC = ROOT / "docs" / "iree-backend.md"

_F4 = "IREE: arith.truncf f32 -> f4E2M1FN rounds 0.75 (a tie) and 0.8 to 0.5 (APFloat, ml_dtypes: 1.0)"
_F8 = "IREE: arith.truncf f32 -> f8 flushes results in the f8 subnormal range to zero"
_F6 = "IREE: no f6 storage: 'memref.store' of f6E2M3FN/f6E3M2FN fails to legalize"
_FTZ = "IREE: the CPU runtime flushes f32 subnormals to zero (1e-42 inputs become 0)"
_FMA = (
    "IREE: llvm-cpu contracts the matmul body's a * b + acc into one fused "
    "multiply-add (one rounding instead of two; no iree-compile flag turns it off)"
)
# Corpus functions that stay StableHLO by design (stablehlo-legalize-to-linalg's
# "not lowered" cases): the backend must refuse them, naming the op.
NOT_LOWERED: dict[str, str] = {
    "stablehlo-legalize-to-linalg#10@reduce_unsupported_body": "stablehlo.reduce",
    "stablehlo-legalize-to-linalg#10@windows_not_lowered": "stablehlo.select_and_scatter",
}

# case id -> why IREE does not match; each is listed in docs/iree-backend.md.
KNOWN: dict[str, str] = {
    "example:mx_matmul@main": _F4,
    "example:nvfp4_matmul@main": _F4,
    "mx-golden:e2m1-ties": _F4,
    "mx:f4E2M1FN/floor": _F4,
    "mx:f4E2M1FN/rceil": _F4,
    "mx:f8E4M3FN/floor": _F8,
    "mx:f8E4M3FN/rceil": _F8,
    "mx:f8E5M2/floor": _F8,
    "mx:f8E5M2/rceil": _F8,
    "mx:f6E2M3FN/floor": _F6,
    "mx:f6E2M3FN/rceil": _F6,
    "mx:f6E3M2FN/floor": _F6,
    "mx:f6E3M2FN/rceil": _F6,
    "mx:bf16/floor": _FTZ,
    "mx:bf16/rceil": _FTZ,
    "stablehlo-legalize-to-linalg#5@dot_batch_matmul_f32": _FMA,
    "stablehlo-legalize-to-linalg#5@dot_matmul_f32": _FMA,
    "stablehlo-legalize-to-linalg#8@conv_nhwc_pad_stride": _FMA,
    "stablehlo-legalize-quant-to-math#0@convolution_hybrid": _FMA,
    "stablehlo-legalize-to-linalg#6@reduce_body_ops": (
        "order: min(acc + x, 100) is not associative; StableHLO leaves the reduction "
        "order to the implementation and IREE reorders it (100 vs -162)"
    ),
}


def _compare(text: str, function: str, args: list[Any], *, drawn: bool = False) -> None:
    try:
        expected = xquant.run(text, function, *args)
    except DiagnosticException:
        if not drawn:
            raise
        # Arguments drawn from the types can miss what the function needs (an
        # external callee, a custom_call target): the interpreter refuses with a
        # located diagnostic, and the native backend must refuse as well, never
        # return numbers.
        with pytest.raises(DiagnosticException):
            xquant.run(text, function, *args, backend="iree")
        return
    got = xquant.run(text, function, *args, backend="iree")
    assert len(got) == len(expected)
    for index, (a, b) in enumerate(zip(expected, got)):
        difference = same_bits(a, b)
        assert difference is None, f"result #{index}: {difference}"


def _param(case_id: str, *values: Any) -> Any:
    marks = (
        [pytest.mark.xfail(reason=KNOWN[case_id], strict=True)]
        if case_id in KNOWN
        else []
    )
    return pytest.param(*values, id=case_id, marks=marks)


# ----- the examples -----

_BF16 = ml_dtypes.bfloat16
EXAMPLES: dict[str, tuple[str, list[Any]]] = {
    "stablehlo_quantized": (
        "main",
        [np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)],
    ),
    "subchannel": ("main", []),
    "quant_types": (
        "casts",
        [
            np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3),
            np.linspace(-3, 3, 8).astype(np.float16).reshape(2, 4),
        ],
    ),
    "mx_matmul": (
        "main",
        [
            np.full((8, 64), 0.5, _BF16),
            np.linspace(-1, 1, 64 * 16, dtype=np.float32).reshape(64, 16),
            np.ones((8, 16), _BF16),
        ],
    ),
    "mx_tiling": ("main", []),
    # Powers of two: every partial sum of the bf16 weights is exact in f32, so
    # IREE's matmul order gives the same bits.
    "nf4_matmul": (
        "main",
        [np.tile(np.float32([1.0, -0.5]), (2, 32)) * np.float32([[1.0], [4.0]])],
    ),
    "nvfp4_matmul": (
        "main",
        [
            np.linspace(-3, 3, 8 * 64, dtype=np.float32).reshape(8, 64),
            np.linspace(2, -2, 64 * 16, dtype=np.float32).reshape(64, 16),
            np.array(0.5, np.float32),
            np.array(0.25, np.float32),
        ],
    ),
}


def test_every_example_is_a_case() -> None:
    assert {p.stem for p in (ROOT / "examples").glob("*.mlir")} == set(EXAMPLES)


@pytest.mark.parametrize(
    ("name", "function", "args"),
    [
        _param(f"example:{name}@{function}", name, function, args)
        for name, (function, args) in EXAMPLES.items()
    ],
)
def test_example(name: str, function: str, args: list[Any]) -> None:
    _compare((ROOT / "examples" / f"{name}.mlir").read_text(), function, args)


# ----- StableHLO's quantized conformance modules -----

_FUNCTION = re.compile(r"^\s*func\.func\s+(?:public\s+)?@([\w.$-]+)", re.MULTILINE)


def _chunk_functions(path: Path) -> list[tuple[int, str]]:
    """(chunk index, public function) pairs of a file, found in its text."""
    out: list[tuple[int, str]] = []
    for k, chunk in enumerate(chunks(path.read_text())):
        out += [(k, name) for name in _FUNCTION.findall(chunk)]
    return out


def _every_fourth(items: list[Any]) -> list[Any]:
    return items[::4] if SAMPLE else items


CONFORMANCE = sorted(CONFORMANCE_DIR.glob("*.mlir")) if CONFORMANCE_DIR.is_dir() else []


@pytest.mark.skipif(not CONFORMANCE, reason=f"{CONFORMANCE_DIR} is not available")
@pytest.mark.parametrize(
    ("path", "chunk", "function"),
    _every_fourth(
        [
            _param(f"stablehlo:{path.name[:48]}#{k}@{fn}", path, k, fn)
            for path in CONFORMANCE
            for k, fn in _chunk_functions(path)
        ]
    ),
)
def test_stablehlo_conformance(path: Path, chunk: int, function: str) -> None:
    module = xquant.parse_module(chunks(path.read_text())[chunk])
    checks_to_results(module)
    _compare(xquant.print_module(module), function, [])


# ----- the lowering corpora -----

CORPORA = [
    "lower-quant-ops.mlir",
    "strip-func-quant-types.mlir",
    "normalize-quant-types.mlir",
    "stablehlo-legalize-quant-to-math.mlir",
    "stablehlo-legalize-to-linalg.mlir",
    "lower-mx-tensor.mlir",
    "mx-tensor-generalize.mlir",
]


def _entry_points(path: Path) -> list[tuple[int, str]]:
    """The corpus functions a caller can run with numpy values: chunks that parse
    (the invalid-input chunks test diagnostics), public definitions, no MX result
    (no numpy value to compare), and arguments numpy can hold (not unranked
    tensors or `!shape` values). Everything else is not a case."""
    out: list[tuple[int, str]] = []
    for k, chunk in enumerate(chunks(path.read_text())):
        try:
            module = xquant.parse_module(chunk)
        except (ParseError, DiagnosticException):
            continue
        for op in module.walk():
            if not isinstance(op, func.FuncOp) or not op.body.blocks:
                continue
            if op.sym_visibility is not None:
                continue
            if any("mx_tensor" in str(t) for t in op.function_type.outputs.data):
                continue
            if arguments(op.function_type, seed=k) is None:
                continue
            out.append((k, op.sym_name.data))
    return out


def _corpus_params() -> list[Any]:
    # Parsing the corpora costs seconds: only when the suite can run at all.
    if REASON is not None:
        return []
    params: list[Any] = []
    for name in CORPORA:
        path = ROOT / "filecheck" / "transforms" / name
        params += [
            _param(f"{name.removesuffix('.mlir')}#{k}@{fn}", path, k, fn)
            for k, fn in _entry_points(path)
        ]
    return _every_fourth(params)


@pytest.mark.parametrize(("path", "chunk", "function"), _corpus_params())
def test_lowering_corpus(path: Path, chunk: int, function: str) -> None:
    text = chunks(path.read_text())[chunk]
    module = xquant.parse_module(text)
    fn = next(
        op
        for op in module.walk()
        if isinstance(op, func.FuncOp) and op.sym_name.data == function
    )
    args = arguments(fn.function_type, seed=chunk)
    assert args is not None
    case_id = f"{path.stem}#{chunk}@{function}"
    if case_id in NOT_LOWERED:
        with pytest.raises(IreeUnsupportedOpError, match=NOT_LOWERED[case_id]):
            xquant.run(text, function, *args, backend="iree")
        return
    _compare(text, function, args, drawn=True)


# ----- MX round trips and golden vectors -----

MX_FORMATS = ["f8E4M3FN", "f8E5M2", "f6E2M3FN", "f6E3M2FN", "f4E2M1FN", "i8", "bf16"]


@pytest.mark.parametrize(
    ("compute", "algorithm"),
    [
        _param(f"mx:{compute}/{algorithm}", compute, algorithm)
        for compute in MX_FORMATS
        for algorithm in ("floor", "rceil")
    ],
)
def test_mx_round_trip(compute: str, algorithm: str) -> None:
    from tests.transforms.test_lower_mx_tensor import (  # the same modules and inputs
        _input,  # pyright: ignore[reportPrivateUsage]
        _round_trip_module,  # pyright: ignore[reportPrivateUsage]
    )

    text = _round_trip_module(compute, None, algorithm, "f8E8M0FNU", "f32")
    _compare(text, "main", [_input((32, 64), 5)])


# One 32-element block each; the scale byte and the decoded elements follow the
# OCP MX spec (the same values as tests/numerics/test_mx.py derives by hand).
MX_GOLDEN: dict[str, tuple[str, str, list[float], int, list[float]]] = {
    "e2m1-ties": (
        "f4E2M1FN",
        "floor",
        [6.0, 1.25, 2.5, 5.0, 0.25, 0.75, -1.75, 3.5],
        127,
        [6.0, 1.0, 2.0, 4.0, 0.0, 1.0, -2.0, 4.0],
    ),
    "e2m1-rceil": ("f4E2M1FN", "rceil", [7.0, 1.0], 128, [4.0, 0.5]),
    "e4m3-957": ("f8E4M3FN", "floor", [957.0, 960.0, 1.0], 128, [448.0, 448.0, 0.5]),
    "e4m3-subnormals": (
        "f8E4M3FN",
        "floor",
        [448.0, 2.0**-9, 2.0**-10, 3 * 2.0**-10, 2.0**-7 + 2.0**-9],
        127,
        [448.0, 2.0**-9, 0.0, 2.0**-8, 2.0**-7 + 2.0**-9],
    ),
    "mxint8": (
        "i8",
        "floor",
        [1.5, 0.5 / 64, 1.5 / 64, -2.5 / 64, 1.99],
        127,
        [1.5, 0.0, 2 / 64, -2 / 64, 127 / 64],
    ),
}


def _mx_block_module(compute: str, algorithm: str) -> str:
    mx_type = f"!mx_tensor.tensor<<1xf8E8M0FNU>, <32x{compute}>>"
    return f"""
func.func @main(%x: tensor<32xf32>) -> (tensor<32xf32>, tensor<1xf8E8M0FNU>) {{
  %q = mx_tensor.quantize %x {{algorithm = "{algorithm}"}} : tensor<32xf32> -> {mx_type}
  %y = mx_tensor.dequantize %q : {mx_type} -> tensor<32xf32>
  %s, %d = mx_tensor.deconstruct %q {{storage_types = [i{8 if compute in ("i8", "f8E4M3FN") else 4}]}} : {mx_type}
  func.return %y, %s : tensor<32xf32>, tensor<1xf8E8M0FNU>
}}
"""


@pytest.mark.parametrize(
    "name", [_param(f"mx-golden:{name}", name) for name in MX_GOLDEN]
)
def test_mx_golden_vector(name: str) -> None:
    compute, algorithm, values, scale_byte, decoded = MX_GOLDEN[name]
    x = np.array(values + [0.0] * (32 - len(values)), np.float32)
    text = _mx_block_module(compute, algorithm)
    y, scale = xquant.run(text, "main", x, backend="iree")
    assert int(np.asarray(scale).view(np.uint8)[0]) == scale_byte
    exponent = scale_byte - 127
    assert (np.asarray(y)[: len(values)] / 2.0**exponent).tolist() == decoded
    _compare(text, "main", [x])


def test_known_failures_are_documented() -> None:
    doc = DOC.read_text()
    missing = [case for case in KNOWN if f"`{case}`" not in doc]
    assert missing == []
