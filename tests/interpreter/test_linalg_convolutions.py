"""The channel-last and depthwise convolutions (`xquant.dialects.upstream.linalg`) and the
complex `linalg.matmul` body: text and numbers as upstream's.

- Each op prints byte-identical to `mlir-opt` 22.1.8, and print -> parse -> print
  is a fixed point.
- `linalg-generalize-named-ops` gives `mlir-opt`'s generics (maps, iterator
  types, casts in the body): the ops' definitions are OpDSL's.
- Interpreted, each op equals, bit for bit, `mlir-opt`'s own generalization of it
  run through the generic engine (an independent statement of the op: upstream's
  maps and body, not xquant's), on a non-zero init.
"""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np
import pytest

import xquant
from tests.upstream.mlir_opt import NOT_INSTALLED, find_mlir_opt, run_mlir_opt
from xquant.asm.printer import module_to_mlir

needs_mlir_opt = pytest.mark.skipif(find_mlir_opt() is None, reason=NOT_INSTALLED)

SAMPLE = """\
func.func @conv(%a: tensor<1x8x2xf32>, %b: tensor<2x2x3xf32>, %c: tensor<1x3x3xf32>, %d: tensor<1x8x8x8x2xf16>, %e: tensor<2x2x2x2x3xf16>, %f: tensor<1x7x7x7x3xf16>) -> (tensor<1x3x3xf32>, tensor<1x7x7x7x3xf16>) {
  %0 = linalg.conv_1d_nwc_wcf {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>, someattr} ins(%a, %b : tensor<1x8x2xf32>, tensor<2x2x3xf32>) outs(%c : tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
  %1 = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%d, %e : tensor<1x8x8x8x2xf16>, tensor<2x2x2x2x3xf16>) outs(%f : tensor<1x7x7x7x3xf16>) -> tensor<1x7x7x7x3xf16>
  return %0, %1 : tensor<1x3x3xf32>, tensor<1x7x7x7x3xf16>
}
func.func @conv_2d(%a: tensor<2x21x31x3xcomplex<f32>>, %b: tensor<4x4x3x3xcomplex<f32>>, %c: tensor<2x15x25x3xcomplex<f32>>, %x: tensor<1x4x5x2xi8>, %y: tensor<2x2x2x3xi8>, %z: tensor<1x2x4x3xi32>) -> (tensor<2x15x25x3xcomplex<f32>>, tensor<1x2x4x3xi32>) {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %b : tensor<2x21x31x3xcomplex<f32>>, tensor<4x4x3x3xcomplex<f32>>) outs(%c : tensor<2x15x25x3xcomplex<f32>>) -> tensor<2x15x25x3xcomplex<f32>>
  %1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %y : tensor<1x4x5x2xi8>, tensor<2x2x2x3xi8>) outs(%z : tensor<1x2x4x3xi32>) -> tensor<1x2x4x3xi32>
  return %0, %1 : tensor<2x15x25x3xcomplex<f32>>, tensor<1x2x4x3xi32>
}
func.func @depthwise_1d(%a: tensor<1x8x2xf32>, %b: tensor<2x2xf32>, %c: tensor<1x7x2xf32>, %d: tensor<2x2x3xf32>, %e: tensor<1x7x2x3xf32>, %i: tensor<1x8x2xi8>, %j: tensor<2x2xi8>, %k: tensor<1x4x2xi32>) -> (tensor<1x7x2xf32>, tensor<1x7x2x3xf32>, tensor<1x4x2xi32>) {
  %0 = linalg.depthwise_conv_1d_nwc_wc {dilations = dense<1> : tensor<1xi64>, someattr, strides = dense<1> : tensor<1xi64>} ins(%a, %b : tensor<1x8x2xf32>, tensor<2x2xf32>) outs(%c : tensor<1x7x2xf32>) -> tensor<1x7x2xf32>
  %1 = linalg.depthwise_conv_1d_nwc_wcm {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a, %d : tensor<1x8x2xf32>, tensor<2x2x3xf32>) outs(%e : tensor<1x7x2x3xf32>) -> tensor<1x7x2x3xf32>
  %2 = linalg.depthwise_conv_1d_nwc_wc {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%i, %j : tensor<1x8x2xi8>, tensor<2x2xi8>) outs(%k : tensor<1x4x2xi32>) -> tensor<1x4x2xi32>
  return %0, %1, %2 : tensor<1x7x2xf32>, tensor<1x7x2x3xf32>, tensor<1x4x2xi32>
}
func.func @depthwise_2d(%a: tensor<1x8x8x2xf32>, %b: tensor<2x2x2xf32>, %c: tensor<1x7x7x2xf32>, %d: tensor<2x2x2x3xf32>, %e: tensor<1x7x7x2x3xf32>) -> (tensor<1x7x7x2xf32>, tensor<1x7x7x2x3xf32>) {
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %b : tensor<1x8x8x2xf32>, tensor<2x2x2xf32>) outs(%c : tensor<1x7x7x2xf32>) -> tensor<1x7x7x2xf32>
  %1 = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, someattr, strides = dense<1> : tensor<2xi64>} ins(%a, %d : tensor<1x8x8x2xf32>, tensor<2x2x2x3xf32>) outs(%e : tensor<1x7x7x2x3xf32>) -> tensor<1x7x7x2x3xf32>
  return %0, %1 : tensor<1x7x7x2xf32>, tensor<1x7x7x2x3xf32>
}
func.func @depthwise_3d(%a: tensor<1x8x8x8x2xbf16>, %b: tensor<2x2x2x2xbf16>, %c: tensor<1x7x7x7x2xf32>, %d: tensor<2x2x2x2x3xbf16>, %e: tensor<1x7x7x7x2x3xf32>) -> (tensor<1x7x7x7x2xf32>, tensor<1x7x7x7x2x3xf32>) {
  %0 = linalg.depthwise_conv_3d_ndhwc_dhwc {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%a, %b : tensor<1x8x8x8x2xbf16>, tensor<2x2x2x2xbf16>) outs(%c : tensor<1x7x7x7x2xf32>) -> tensor<1x7x7x7x2xf32>
  %1 = linalg.depthwise_conv_3d_ndhwc_dhwcm {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%a, %d : tensor<1x8x8x8x2xbf16>, tensor<2x2x2x2x3xbf16>) outs(%e : tensor<1x7x7x7x2x3xf32>) -> tensor<1x7x7x7x2x3xf32>
  return %0, %1 : tensor<1x7x7x7x2xf32>, tensor<1x7x7x7x2x3xf32>
}
func.func @complex_matmul(%a: tensor<2x3xcomplex<f32>>, %b: tensor<3x4xcomplex<f32>>, %c: tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>> {
  %0 = linalg.matmul {someattr} ins(%a, %b : tensor<2x3xcomplex<f32>>, tensor<3x4xcomplex<f32>>) outs(%c : tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  return %0 : tensor<2x4xcomplex<f32>>
}
"""

FUNCTIONS = re.findall(r"func\.func @(\w+)\(", SAMPLE)
DTYPES = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "f32": np.float32,
    "i8": np.int8,
    "i32": np.int32,
}


def _mlir_opt(text: str, *flags: str) -> str:
    done = run_mlir_opt(text, *flags)
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs_mlir_opt
def test_prints_as_mlir_opt() -> None:
    ours = module_to_mlir(xquant.parse_module(SAMPLE))
    assert ours + "\n" == _mlir_opt(SAMPLE)


def test_print_parse_print_is_a_fixed_point() -> None:
    once = module_to_mlir(xquant.parse_module(SAMPLE))
    assert module_to_mlir(xquant.parse_module(once)) == once


@needs_mlir_opt
def test_generalizes_as_mlir_opt() -> None:
    ours = xquant.apply_passes(
        xquant.parse_module(SAMPLE), "linalg-generalize-named-ops"
    )
    assert module_to_mlir(ours) + "\n" == _mlir_opt(
        SAMPLE, "--linalg-generalize-named-ops"
    )


def _arguments(signature: str, rng: np.random.Generator) -> list[np.ndarray]:
    arguments: list[np.ndarray] = []
    for shape, element in re.findall(r"tensor<((?:\d+x)+)(\w+)>", signature):
        dims = [int(d) for d in shape.rstrip("x").split("x")]
        dtype = DTYPES[element]
        if element.startswith("i"):
            arguments.append(rng.integers(-128, 128, size=dims).astype(dtype))
        else:
            arguments.append((rng.standard_normal(dims) * 4).astype(dtype))
    return arguments


@needs_mlir_opt
@pytest.mark.parametrize(
    "name",
    [f for f in FUNCTIONS if f not in ("conv_2d", "complex_matmul")] + ["conv_2d_real"],
)
def test_interpreted_as_mlir_opt_generalizes_it(name: str) -> None:
    text = SAMPLE
    if name == "conv_2d_real":  # the interpreter has no complex numbers
        text = re.sub(r"complex<f32>", "f32", SAMPLE)
        name = "conv_2d"
    generic = _mlir_opt(text, "--linalg-generalize-named-ops")
    signature = re.search(rf"func\.func @{name}\((.*?)\) ->", text)
    assert signature is not None
    arguments = _arguments(signature.group(1), np.random.default_rng(len(name)))
    want = xquant.run(generic, name, *arguments)
    got = xquant.run(text, name, *arguments)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
