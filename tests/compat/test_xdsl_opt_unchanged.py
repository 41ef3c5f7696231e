"""Stock `xdsl-opt` does exactly the same with and without the xquant plugin on IR
that uses none of xquant's dialects or passes: same stdout, stderr and exit code.

Each input runs twice through the same wrapper around xDSL's `xdsl-opt` main, once
as installed and once with the `xquant` entry point filtered out of
`importlib.metadata.entry_points`. The inputs touch everything `xquant.compat`
changes (an unsorted attribute dictionary, f16/f32 overflow, `tensor.reshape`,
linalg named ops, a multi-result `linalg.generic`, hexadecimal dense literals, the
string lexer) and include invalid IR, so a fix installed on import (rather than
when xquant's dialects or passes load) makes this test fail.
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

WRAPPER = """
import sys
from importlib import metadata

if sys.argv.pop(1) == "without-xquant":
    all_entry_points = metadata.entry_points

    def entry_points(**params):
        found = all_entry_points(**params)
        if params.get("group") != "xdsl.universe":
            return found
        return metadata.EntryPoints(ep for ep in found if ep.name != "xquant")

    metadata.entry_points = entry_points

from xdsl.tools.xdsl_opt import main

sys.argv[0] = "xdsl-opt"
sys.exit(main())
"""

DIAGNOSTICS = ("--split-input-file", "--parsing-diagnostics", "--verify-diagnostics")

# Chunks that xdsl-opt reports and goes on from (`--*-diagnostics`), or prints.
SPLIT_INPUT = """
func.func @attrs(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "arith.addf"(%x, %x) {zeta = 1 : i64, alpha = 2 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "test.op"() {d = {z = 1, y = 2}, c = unit} : () -> ()
  func.return %0 : tensor<2xf32>
}
"func.func"() <{sym_name = "g", function_type = () -> (), sym_visibility = "private"}> ({}) : () -> ()
// -----
func.func @reshape(%x: tensor<6xf32>, %s: tensor<2xindex>) -> tensor<2x3xf32> {
  %r = tensor.reshape %x(%s) : (tensor<6xf32>, tensor<2xindex>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}
// -----
func.func @reshape_dynamic(%x: tensor<?xf32>, %s: tensor<2xindex>) -> tensor<2x?xf32> {
  %r = tensor.reshape %x(%s) : (tensor<?xf32>, tensor<2xindex>) -> tensor<2x?xf32>
  func.return %r : tensor<2x?xf32>
}
// -----
func.func @reshape_unranked(%x: tensor<*xf32>, %s: tensor<1xindex>) -> tensor<?xf32> {
  %r = tensor.reshape %x(%s) : (tensor<*xf32>, tensor<1xindex>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}
// -----
func.func @named(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %i: tensor<4x4xi32>) -> tensor<4x4xf32> {
  %0 = linalg.add ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.sub ins(%0, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = linalg.mul ins(%i, %i : tensor<4x4xi32>, tensor<4x4xi32>) outs(%i : tensor<4x4xi32>) -> tensor<4x4xi32>
  %3 = linalg.matmul ins(%1, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %3 : tensor<4x4xf32>
}
// -----
func.func @mixed(%a: tensor<4xbf16>, %b: tensor<4xf8E4M3FN>) -> tensor<4xbf16> {
  %r = linalg.add ins(%a, %b : tensor<4xbf16>, tensor<4xf8E4M3FN>) outs(%a : tensor<4xbf16>) -> tensor<4xbf16>
  func.return %r : tensor<4xbf16>
}
// -----
func.func @div(%x: tensor<6xi32>, %y: tensor<6xi32>) -> tensor<6xi32> {
  %r = linalg.div ins(%x, %y : tensor<6xi32>, tensor<6xi32>) outs(%x : tensor<6xi32>) -> tensor<6xi32>
  func.return %r : tensor<6xi32>
}
// -----
#map = affine_map<(d0) -> (d0)>
func.func @generic_bare(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a, %a : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o1: f32, %o2: f32):
    linalg.yield %x, %x : f32, f32
  } -> tensor<4xf32>, tensor<4xf32>
  func.return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
// -----
#map = affine_map<(d0) -> (d0)>
func.func @generic_parens(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a, %a : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o1: f32, %o2: f32):
    linalg.yield %x, %x : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  func.return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
// -----
%f = arith.constant dense<[1.0, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<4xf32>
%h = arith.constant dense<0x7C00> : tensor<2xf16>
%b = arith.constant dense<[0x7F80, 1.5]> : tensor<2xbf16>
// -----
%o = arith.constant dense<0x1FF800000> : tensor<2xf32>
// -----
%a = arith.constant dense<"0x05"> : tensor<3xi1>
%b = arith.constant dense<"0x0580"> : tensor<16xi1>
// -----
%c = arith.constant dense<"0xFF"> : tensor<4xi1>
%d = arith.constant dense<"0x0000803F"> : tensor<2xf32>
// -----
%e = arith.constant dense<"0x0000803F00"> : tensor<2xf32>
// -----
%e = arith.constant dense<"0xZZ"> : tensor<2xi8>
// -----
%s = "test.op"() {s = "a\\"b\\\\c\\n\\t\\41"} : () -> i32
// -----
func.func private @f() -> "aaaaaaaaaaaa
// -----
func.func private @g() -> "abc\\q"
// -----
"test.op"() : () -> vector<2xmemref<4xf32>>
// -----
%u = "test.custom_op"() : () -> i32
// -----
%v = arith.constant 1.0 : f32
%w = arith.addf %v, %v : f16
// -----
func.func @bad_verify(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%x : tensor<4xf32>) -> tensor<8xf32>
  func.return %r : tensor<4xf32>
}
"""

# Inputs that end xdsl-opt with a traceback: one file each, run without flags.
CRASHING_INPUTS = {
    "f16_overflow": "%c = arith.constant 70000.0 : f16\n",
    "f32_overflow": "%c = arith.constant dense<[1.0e39, 1.0]> : tensor<2xf32>\n",
    "unranked_reshape": """func.func @f(%x: tensor<*xf32>, %s: tensor<1xindex>) -> tensor<?xf32> {
  %r = tensor.reshape %x(%s) : (tensor<*xf32>, tensor<1xindex>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}
""",
    "mixed_named_op": """func.func @f(%a: tensor<4xbf16>, %b: tensor<4xf8E4M3FN>) -> tensor<4xbf16> {
  %r = linalg.add ins(%a, %b : tensor<4xbf16>, tensor<4xf8E4M3FN>) outs(%a : tensor<4xbf16>) -> tensor<4xbf16>
  func.return %r : tensor<4xbf16>
}
""",
    "unknown_named_op": """func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  func.return %r : tensor<2x3x5xf32>
}
""",
    "i1_blob": '%a = arith.constant dense<"0x0580"> : tensor<16xi1>\n',
    "empty": "",
}

# (input name, flags): every run compared with and without the plugin.
RUNS = [
    ("split", DIAGNOSTICS),
    ("split", (*DIAGNOSTICS, "--print-op-generic")),
    ("valid", ()),
    ("valid", ("--print-op-generic",)),
    ("valid", ("-p", "canonicalize,cse")),
    *((name, ()) for name in CRASHING_INPUTS),
]

VALID_INPUT = SPLIT_INPUT.split("// -----")[0] + SPLIT_INPUT.split("// -----")[4]


def xdsl_opt(mode: str, path: Path, flags: tuple[str, ...]) -> tuple[str, str, int]:
    """stdout, stderr and exit code of xdsl-opt `flags` `path`, `mode` "with-xquant" or not."""
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, mode, str(path), *flags],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=path.parent,
    )
    return done.stdout, done.stderr, done.returncode


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("xdsl_opt_inputs")
    texts = {"split": SPLIT_INPUT, "valid": VALID_INPUT, **CRASHING_INPUTS}
    paths: dict[str, Path] = {}
    for name, text in texts.items():
        paths[name] = folder / f"{name}.mlir"
        paths[name].write_text(text)
    return paths


@pytest.fixture(scope="module")
def outputs(
    inputs: dict[str, Path],
) -> dict[tuple[str, str, tuple[str, ...]], tuple[str, str, int]]:
    """Every run of RUNS in both modes (two at a time: there are two cores)."""
    jobs = [
        (mode, name, flags)
        for name, flags in RUNS
        for mode in ("with-xquant", "without-xquant")
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda job: xdsl_opt(job[0], inputs[job[1]], job[2]), jobs)
        return dict(zip(jobs, results))


@pytest.mark.parametrize(
    ("name", "flags"), RUNS, ids=[f"{n}{''.join(f)}" for n, f in RUNS]
)
def test_xdsl_opt_output_is_unchanged_by_the_plugin(
    name: str,
    flags: tuple[str, ...],
    outputs: dict[tuple[str, str, tuple[str, ...]], tuple[str, str, int]],
) -> None:
    with_xquant = outputs["with-xquant", name, flags]
    without_xquant = outputs["without-xquant", name, flags]
    assert with_xquant[0] == without_xquant[0], "stdout differs"
    assert with_xquant[1] == without_xquant[1], "stderr differs"
    assert with_xquant[2] == without_xquant[2], "exit code differs"
    if name == "valid":
        assert with_xquant[2] == 0, with_xquant[1]


def test_the_filter_removes_the_plugin(tmp_path: Path) -> None:
    """IR that uses xquant's dialect reads with the plugin only (so the runs above differ
    in whether xquant is loaded), and with it the fixes apply."""
    path = tmp_path / "quant.mlir"
    path.write_text(
        "func.func private @f(tensor<2x!quant.uniform<i8:f32, 1.0>>)\n"
        "%c = arith.constant 70000.0 : f16\n"
    )
    out, _, code = xdsl_opt("with-xquant", path, ())
    assert code == 0
    assert "0x7c00 : f16" in out
    _, err, code = xdsl_opt("without-xquant", path, ())
    assert code != 0
    assert "quant.uniform" in err
