"""Shardy's ops run as on one device: named computations run their body,
barriers and data-flow edges are identities, and a collective, which moves parts
of a global value between devices (Shardy's types are global), is the identity
whatever the size of its mesh axes. Expected values come from numpy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import xquant

# Mesh "x" has one device, "y" two. Each collective below names only "x".
ONE_DEVICE = """\
sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func @main(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x2xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<4x2xf32>
  %1 = sdy.all_slice [{}, {"x"}] %0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x2xf32>
  %2 = sdy.all_to_all [{"x"}: 1->0] %1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x2xf32>
  %3 = sdy.collective_permute %2 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x2xf32>
  %a = stablehlo.abs %arg0 : tensor<4x2xf32>
  %4 = sdy.all_reduce {"x"} %a out_sharding=<@mesh, [{}, {}]> : tensor<4x2xf32>
  %5 = sdy.reduce_scatter [{}, {"x"}] %4 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x2xf32>
  %6 = sdy.named_computation<"mul">(%3, %5) in_shardings=[<@mesh, [{}, {"x"}]>, <@mesh, [{}, {}]>] (%arg1: tensor<4x2xf32>, %arg2: tensor<4x2xf32>) {
    %7 = stablehlo.multiply %arg1, %arg2 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j],[i, j])->([i, j]) {i=4, j=2}>} : tensor<4x2xf32>
    sdy.return %7 : tensor<4x2xf32>
  } : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %8 = sdy.propagation_barrier %6 allowed_direction=FORWARD : tensor<4x2xf32>
  %9 = stablehlo.negate %8 : tensor<4x2xf32>
  %10 = sdy.data_flow_edge %9 sharding=<@mesh, [{}, {}]> : tensor<4x2xf32>
  sdy.sharding_group %10 group_id=0 : tensor<4x2xf32>
  return %10 : tensor<4x2xf32>
}
"""

X = np.array([[1.0, -2.0], [3.5, 4.0], [-0.5, 6.0], [7.0, 0.25]], np.float32)


def test_runs_as_on_one_device() -> None:
    (result,) = xquant.run(xquant.parse_module(ONE_DEVICE), "main", X)
    np.testing.assert_array_equal(result, -(X * np.abs(X)))


@pytest.mark.parametrize(
    "pipeline",
    ["sdy-drop-shardings", "sdy-drop-shardings,stablehlo-legalize-to-linalg"],
)
def test_dropping_the_shardings_keeps_the_bits(pipeline: str) -> None:
    module = xquant.apply_passes(xquant.parse_module(ONE_DEVICE), pipeline)
    assert not [op.name for op in module.walk() if op.name.startswith("sdy.")]
    assert "sdy." not in str(module)
    (result,) = xquant.run(module, "main", X)
    assert result.tobytes() == (-(X * np.abs(X))).tobytes()


# One collective per case, over the two-device axis "y".
CASES = {
    "all_gather": (
        '%0 = sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]>',
        '{sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}',
    ),
    "all_slice": (
        '%0 = sdy.all_slice [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>',
        "",
    ),
    "all_reduce": (
        '%0 = sdy.all_reduce max {"y"} %arg0 out_sharding=<@mesh, [{}, {}]>',
        "",
    ),
    "reduce_scatter": (
        '%0 = sdy.reduce_scatter [{}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {"y"}]>',
        "",
    ),
    "all_to_all": (
        '%0 = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"y"}]>',
        '{sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}',
    ),
    "collective_permute": (
        '%0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{}, {"y"}]>',
        '{sdy.sharding = #sdy.sharding<@mesh, [{}, {"x":(1)2}]>}',
    ),
}


def _two_device_text(name: str) -> str:
    line, arg_attr = CASES[name]
    space = " " if arg_attr else ""
    return (
        'sdy.mesh @mesh = <["x"=4, "y"=2]>\n'
        f"func.func @main(%arg0: tensor<4x2xf32>{space}{arg_attr}) -> tensor<4x2xf32> {{\n"
        f"  {line} : tensor<4x2xf32>\n"
        "  return %0 : tensor<4x2xf32>\n"
        "}\n"
    )


def _axis(name: str) -> str:
    return '"x":(1)2' if name == "collective_permute" else '"y"'


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_collective_over_two_devices_keeps_the_global_value(name: str) -> None:
    module = xquant.parse_module(_two_device_text(name))
    (result,) = xquant.run(module, "main", X)
    assert result.tobytes() == X.tobytes()


@pytest.mark.parametrize("name", sorted(CASES))
def test_sdy_drop_shardings_removes_a_collective_over_two_devices(name: str) -> None:
    module = xquant.apply_passes(
        xquant.parse_module(_two_device_text(name)), "sdy-drop-shardings"
    )
    assert "sdy." not in str(module)
    (result,) = xquant.run(module, "main", X)
    assert result.tobytes() == X.tobytes()


@pytest.mark.parametrize("name", ["all_reduce", "all_to_all"])
def test_xquant_run_prints_the_global_value(tmp_path: Path, name: str) -> None:
    source = tmp_path / "program.mlir"
    source.write_text(_two_device_text(name))
    weights = tmp_path / "x.npy"
    np.save(weights, X)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from xquant.tools.xquant_run import main; sys.exit(main())",
            str(source),
            "--arg",
            str(weights),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dense<[[1.000000e+00, -2.000000e+00], [3.5")


def test_named_computation_runs_its_body_twice() -> None:
    text = """\
func.func @main(%arg0: tensor<3xi32>) -> tensor<3xi32> {
  %0 = sdy.named_computation<"inc">(%arg0) (%arg1: tensor<3xi32>) {
    %1 = stablehlo.add %arg1, %arg1 : tensor<3xi32>
    sdy.return %1 : tensor<3xi32>
  } : (tensor<3xi32>) -> tensor<3xi32>
  %2 = sdy.named_computation<"inc">(%0) (%arg1: tensor<3xi32>) {
    %3 = stablehlo.multiply %arg1, %arg1 : tensor<3xi32>
    sdy.return %3 : tensor<3xi32>
  } : (tensor<3xi32>) -> tensor<3xi32>
  return %2 : tensor<3xi32>
}
"""
    x = np.array([1, -2, 5], np.int32)
    module = xquant.parse_module(text)
    (result,) = xquant.run(module, "main", x)
    np.testing.assert_array_equal(result, (2 * x) ** 2)
    xquant.apply_passes(module, "sdy-drop-shardings")
    assert [op.name for op in module.walk()][-4:] == [
        "func.func",
        "stablehlo.add",
        "stablehlo.multiply",
        "func.return",
    ]
    (inlined,) = xquant.run(module, "main", x)
    np.testing.assert_array_equal(inlined, result)
