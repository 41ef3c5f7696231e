"""Locations on real programs: JAX 0.12's texts in tests/data/locations.

JAX prints with MLIR's own printer, so `--mlir-print-debuginfo` must give back
each file's location table (`#locN = ...` lines, numbered by MLIR) and every
op's and argument's `loc(...)` exactly; where xquant prints StableHLO as
JAX's StableHLO does, the whole text. The differential tests against
mlir-opt itself are in tests/upstream/test_debuginfo.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp, UnknownLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError

import xquant
from xquant.asm.printer import module_to_mlir

DATA = Path(__file__).resolve().parents[1] / "data" / "locations"
# `*.debug.mlir` (`as_text(debug_info=True)`) and `*.export.mlir`
# (`jax.export`); the others have no locations (tests/dialects/test_sdy.py).
SAMPLES = sorted([*DATA.glob("*.debug.mlir"), *DATA.glob("*.export.mlir")])
# xquant prints these as JAX's StableHLO does, op for op.
WHOLE_TEXT = ("mlp", "layernorm")
_TRAILING_LOC = re.compile(r" loc\((#loc\d*)\)$")
_ARG_LOC = re.compile(
    r'%[\w#]+: [^,)]* loc\((?:[^()"]|"[^"]*"|\((?:[^()"]|"[^"]*")*\))*\)'
)


def _locations(text: str) -> tuple[list[str], list[str], list[str]]:
    """The alias definitions, each line's trailing `loc(#locN)`, each
    argument's inline location."""
    lines = text.splitlines()
    definitions = [line for line in lines if line.startswith("#loc")]
    trailing = [m.group(1) for line in lines if (m := _TRAILING_LOC.search(line))]
    arguments = [m.group(0) for line in lines for m in _ARG_LOC.finditer(line)]
    return definitions, trailing, arguments


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_prints_the_producers_locations(path: Path) -> None:
    text = path.read_text()
    module = xquant.parse_module(text, path.name)
    printed = module_to_mlir(module, debuginfo=True)
    expected = _locations(text)
    assert expected[0] and expected[1]  # the sample has locations
    assert _locations(printed) == expected
    if path.name.split(".")[0] in WHOLE_TEXT:
        assert printed.rstrip("\n") == text.rstrip("\n")


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_round_trip(path: Path) -> None:
    printed = module_to_mlir(xquant.parse_module(path.read_text()), debuginfo=True)
    again = module_to_mlir(xquant.parse_module(printed), debuginfo=True)
    assert again == printed


def test_without_debuginfo_nothing_is_printed() -> None:
    text = (DATA / "layernorm.debug.mlir").read_text()
    printed = xquant.print_module(xquant.parse_module(text))
    assert "loc(" not in printed and "#loc" not in printed


def _ops(module: ModuleOp) -> list[Operation]:
    """The ops in the functions (JAX leaves the module and functions unknown)."""
    return [
        op for op in module.walk() if op.name not in ("builtin.module", "func.func")
    ]


def test_a_lowering_keeps_locations() -> None:
    """Ops a pattern builds get the location of the op they replace (MLIR's
    `rewriter.create<...>(op.getLoc(), ...)`)."""
    module = xquant.parse_module((DATA / "layernorm.debug.mlir").read_text())
    sources = {str(op.location) for op in _ops(module)}
    xquant.apply_passes(module, "stablehlo-legalize-to-linalg")
    lowered = _ops(module)
    assert not any(op.name.startswith("stablehlo.") for op in lowered)
    assert all(not isinstance(op.location, UnknownLoc) for op in lowered)
    assert {str(op.location) for op in lowered} <= sources


def test_the_interpreter_runs_located_ops() -> None:
    import numpy as np

    module = xquant.parse_module((DATA / "layernorm.export.mlir").read_text())
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    (result,) = xquant.run(module, "main", x)
    mean = x.mean(axis=-1, keepdims=True)
    expected = (x - mean) / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(result, expected, rtol=1e-5)


# The grammar through the API: located ParseErrors, never another exception.
MALFORMED = [
    'loc("f.py":1:2 to 3)',
    "loc(callsite(",
    'loc(fused<"m"',
    "loc(#undefined)",
    'loc("a"("b")',
    "loc(",
    "loc",
    'loc("f.py":1:',
]


@pytest.mark.parametrize("location", MALFORMED)
def test_malformed_location_is_a_parse_error(location: str) -> None:
    text = f"func.func @f(%a: i32) -> i32 {{\n  return %a : i32 {location}\n}}\n"
    with pytest.raises(ParseError) as info:
        xquant.parse_module(text, "m.mlir")
    assert ":2:" in str(info.value)


def test_forward_alias_on_a_block_argument() -> None:
    text = (
        "func.func @f(%a: i32 loc(#a)) -> i32 {\n"
        "  %r = scf.execute_region -> i32 {\n"
        "    cf.br ^bb1(%a : i32) loc(#b)\n"
        "  ^bb1(%x: i32 loc(#b)):\n"
        "    scf.yield %x : i32\n"
        "  }\n"
        "  return %r : i32\n"
        "}\n"
        '#a = loc("a.py":1:2 to :5)\n'
        '#b = loc(callsite("f"(#a) at "b.py":3:4))\n'
    )
    printed = module_to_mlir(xquant.parse_module(text), debuginfo=True)
    assert 'func.func @f(%arg0: i32 loc("a.py":1:2 to :5))' in printed
    # mlir-opt numbers these #loc3 and #loc2 (tests/upstream/test_debuginfo.py).
    assert "^bb1(%1: i32 loc(callsite(#loc3 at #loc2))):" in printed
