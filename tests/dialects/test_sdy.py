"""Shardy (`sdy`) on JAX's own texts: parse, print as JAX, run as on one device.

The texts are JAX 0.12's (tests/data/locations/generate.py, 8 host devices):
a jit with argument shardings and a `with_sharding_constraint`, and a
`shard_map` over 2 devices. Expected values come from numpy.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

import xquant
from xquant.asm.printer import module_to_mlir
from xquant.dialects.sdy import MeshAttr, ShardingConstraintOp, TensorShardingAttr

DATA = Path(__file__).resolve().parents[1] / "data" / "locations"


@pytest.mark.parametrize("name", ["sharded.mlir", "shard_map.mlir"])
def test_prints_as_jax(name: str) -> None:
    text = (DATA / name).read_text()
    printed = module_to_mlir(xquant.parse_module(text))
    assert printed.rstrip("\n") == text.rstrip("\n")


@pytest.mark.parametrize("name", ["sharded.debug.mlir", "shard_map.debug.mlir"])
def test_prints_as_jax_with_locations(name: str) -> None:
    text = (DATA / name).read_text()
    printed = module_to_mlir(xquant.parse_module(text), debuginfo=True)
    assert printed.rstrip("\n") == text.rstrip("\n")


def test_attributes_are_read() -> None:
    module = xquant.parse_module((DATA / "sharded.mlir").read_text())
    (constraint,) = [op for op in module.walk() if isinstance(op, ShardingConstraintOp)]
    mesh = constraint.sharding.mesh(constraint)
    assert isinstance(mesh, MeshAttr)
    assert mesh.axis_sizes == {"x": 2, "y": 4}
    func = next(op for op in module.walk() if op.name == "func.func")
    arg_attrs = func.properties["arg_attrs"]
    sharding = arg_attrs.data[1].data["sdy.sharding"]  # pyright: ignore
    assert isinstance(sharding, TensorShardingAttr)
    assert [len(d.axes.data) for d in sharding.dim_shardings.data] == [0, 1]


def test_runs_as_on_one_device() -> None:
    module = xquant.parse_module((DATA / "sharded.debug.mlir").read_text())
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    w = rng.standard_normal((8, 16)).astype(np.float32)
    (result,) = xquant.run(module, "main", x, w)
    np.testing.assert_allclose(result, np.tanh(x @ w), rtol=1e-5, atol=1e-6)


def test_lowering_keeps_the_constraint_running() -> None:
    text = (DATA / "sharded.mlir").read_text()
    module = xquant.apply_passes(
        xquant.parse_module(text), "stablehlo-legalize-to-linalg"
    )
    x = np.ones((4, 8), np.float32)
    w = np.full((8, 16), 0.1, np.float32)
    (result,) = xquant.run(module, "main", x, w)
    np.testing.assert_allclose(result, np.tanh(x @ w), rtol=1e-6)


MANUAL_ONE_DEVICE = """\
sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = stablehlo.multiply %arg1, %arg1 : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_manual_computation_on_one_device_runs() -> None:
    x = np.array([1.0, 2.0, 3.0, -4.0], np.float32)
    (result,) = xquant.run(xquant.parse_module(MANUAL_ONE_DEVICE), "main", x)
    np.testing.assert_array_equal(result, x * x)


@pytest.mark.parametrize(
    ("name", "line"), [("shard_map.mlir", 4), ("shard_map.debug.mlir", 7)]
)
def test_manual_computation_over_two_devices_is_a_located_error(
    tmp_path: Path, name: str, line: int
) -> None:
    """At the op's position in the file (not at its `loc(...)`), exit 1."""
    source = DATA / name
    weights = tmp_path / "x.npy"
    np.save(weights, np.ones((4, 8), np.float32))
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
    assert done.returncode == 1
    first = done.stderr.splitlines()[0]
    assert first == (
        f"{source}:{line}:10: error: 'sdy.manual_computation' op: per-device code over "
        'manual axes {"x"} (2 devices) cannot run on one device'
    )
    assert "Traceback" not in done.stderr


def test_bad_sharding_is_a_verify_error() -> None:
    text = """\
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"b"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
    with pytest.raises(VerifyException, match='unknown axis name: "b"'):
        xquant.parse_module(text)


def test_a_padded_dimension_is_allowed() -> None:
    """Shardy verifies with `checkDivisibility=false` (verifiers.cc): a
    dimension of 3 over 2 devices is padded, not an error."""
    text = """\
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}]> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""
    x = np.array([1.0, 2.0, 3.0], np.float32)
    (result,) = xquant.run(xquant.parse_module(text), "f", x)
    np.testing.assert_array_equal(result, x)


def test_a_huge_mesh_parses_without_listing_its_devices() -> None:
    """A fuzzed mesh of 2**32 x 4 devices: checking for the default device order
    must not build the list of 2**34 ids (it did: MemoryError)."""
    text = (
        'sdy.mesh @mesh = <["x"=4294967296, "y"=4]>\n'
        "func.func @main(%arg0: tensor<4xf32> "
        '{sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {\n'
        "  return %arg0 : tensor<4xf32>\n}\n"
    )
    assert '"x"=4294967296' in xquant.print_module(xquant.parse_module(text))
