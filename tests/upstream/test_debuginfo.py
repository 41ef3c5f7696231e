"""`--mlir-print-debuginfo` and a few custom forms, byte for byte as mlir-opt 22.1.8.

Block arguments carry the location of their name and print it inline
(`%arg0: i32 loc("f.mlir":1:14)`), while its `#locN` definition goes to the top
of the output with the other aliases; op locations print as `loc(#locN)` with
their definitions at the end. The expected texts below were written from
mlir-opt's output; `test_same_as_mlir_opt` compares with mlir-opt itself where
it is installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.upstream.mlir_opt import require_mlir_opt

XQUANT_OPT = [
    sys.executable,
    "-c",
    "import sys; from xquant.tools.xquant_opt import main; sys.exit(main())",
]

BLOCK_ARGS = """\
func.func @f(%a: i32, %b: tensor<2xf32>) -> i32 {
  %c = arith.addi %a, %a : i32
  %r = scf.execute_region -> i32 {
    cf.br ^bb1(%c : i32)
  ^bb1(%x: i32):
    scf.yield %x : i32
  }
  return %r : i32
}
func.func private @decl(i32 {test.attr = 1 : i32}) -> (i32 {foo.bar})
"""

BLOCK_ARGS_EXPECTED = """\
#loc2 = loc("f.mlir":1:14)
#loc3 = loc("f.mlir":1:23)
#loc7 = loc("f.mlir":5:8)
module {
  func.func @f(%arg0: i32 loc("f.mlir":1:14), %arg1: tensor<2xf32> loc("f.mlir":1:23)) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32 loc(#loc4)
    %1 = scf.execute_region -> i32 {
      cf.br ^bb1(%0 : i32) loc(#loc6)
    ^bb1(%2: i32 loc("f.mlir":5:8)):  // pred: ^bb0
      scf.yield %2 : i32 loc(#loc8)
    } loc(#loc5)
    return %1 : i32 loc(#loc9)
  } loc(#loc1)
  func.func private @decl(i32 {test.attr = 1 : i32}) -> (i32 {foo.bar}) loc(#loc10)
} loc(#loc)
#loc = loc("f.mlir":0:0)
#loc1 = loc("f.mlir":1:1)
#loc4 = loc("f.mlir":2:8)
#loc5 = loc("f.mlir":3:8)
#loc6 = loc("f.mlir":4:5)
#loc8 = loc("f.mlir":6:5)
#loc9 = loc("f.mlir":8:3)
#loc10 = loc("f.mlir":10:1)
"""

# Block-argument locations sort with the other aliases (`#loc` before `#map`).
LINALG = """\
#map = affine_map<(d0) -> (d0)>
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""

LINALG_EXPECTED = """\
#loc2 = loc("f.mlir":2:14)
#loc4 = loc("f.mlir":4:8)
#loc5 = loc("f.mlir":4:17)
#map = affine_map<(d0) -> (d0)>
module {
  func.func @g(%arg0: tensor<4xf32> loc("f.mlir":2:14)) -> tensor<4xf32> {
    %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) {
    ^bb0(%in: f32 loc("f.mlir":4:8), %out: f32 loc("f.mlir":4:17)):
      linalg.yield %in : f32 loc(#loc6)
    } -> tensor<4xf32> loc(#loc3)
    return %0 : tensor<4xf32> loc(#loc7)
  } loc(#loc1)
} loc(#loc)
#loc = loc("f.mlir":0:0)
#loc1 = loc("f.mlir":2:1)
#loc3 = loc("f.mlir":3:8)
#loc6 = loc("f.mlir":5:5)
#loc7 = loc("f.mlir":7:3)
"""

# `-> i32` without parentheses, `-> (i32, i32)` with; terminators kept.
EXECUTE_REGION = """\
func.func @e(%a: i32) -> (i32, i32) {
  scf.execute_region {
    "test.op"() : () -> ()
    scf.yield
  }
  %r:2 = scf.execute_region -> (i32, i32) {
    scf.yield %a, %a : i32, i32
  }
  %s = scf.execute_region -> i32 {
    scf.yield %a : i32
  }
  return %r#0, %s : i32, i32
}
"""

EXECUTE_REGION_EXPECTED = """\
module {
  func.func @e(%arg0: i32) -> (i32, i32) {
    scf.execute_region {
      "test.op"() : () -> ()
      scf.yield
    }
    %0:2 = scf.execute_region -> (i32, i32) {
      scf.yield %arg0, %arg0 : i32, i32
    }
    %1 = scf.execute_region -> i32 {
      scf.yield %arg0 : i32
    }
    return %0#0, %1 : i32, i32
  }
}
"""

CASES = {
    "block_args": (BLOCK_ARGS, ["--mlir-print-debuginfo"], BLOCK_ARGS_EXPECTED),
    "linalg": (LINALG, ["--mlir-print-debuginfo"], LINALG_EXPECTED),
    "execute_region": (
        EXECUTE_REGION,
        ["--allow-unregistered-dialect"],
        EXECUTE_REGION_EXPECTED,
    ),
}


def _run(command: list[str], source: str, flags: list[str], tmp_path: Path) -> str:
    (tmp_path / "f.mlir").write_text(source)
    done = subprocess.run(
        [*command, "f.mlir", *flags],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("name", CASES)
def test_expected_text(name: str, tmp_path: Path) -> None:
    source, flags, expected = CASES[name]
    # Both tools end their output with an empty line.
    assert _run(XQUANT_OPT, source, flags, tmp_path) == expected + "\n"


@pytest.mark.parametrize("name", CASES)
def test_same_as_mlir_opt(name: str, tmp_path: Path) -> None:
    mlir_opt = require_mlir_opt()
    source, flags, expected = CASES[name]
    assert (
        _run([str(part) for part in mlir_opt], source, flags, tmp_path)
        == expected + "\n"
    )
