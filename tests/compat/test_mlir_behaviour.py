"""xDSL 0.74 behaviours `xquant.compat` corrects, checked against what mlir-opt 22 does."""

from __future__ import annotations

import pytest
from xdsl.utils.exceptions import ParseError

import xquant


# mlir-opt rounds a literal beyond its type's range to infinity (one nearest-even
# rounding); xDSL's struct-based packing raised OverflowError.
@pytest.mark.parametrize(
    ("literal", "printed"),
    [
        ("70000.0 : f16", "0x7c00 : f16"),
        ("-70000.0 : f16", "0xfc00 : f16"),
        ("1.0e39 : f32", "0x7f800000 : f32"),
        ("65519.0 : f16", "6.550400e+04 : f16"),  # below the rounding midpoint: max f16
        (
            "dense<[70000.0, 1.0]> : tensor<2xf16>",
            "dense<[0x7c00, 1.000000e+00]> : tensor<2xf16>",
        ),
        ("dense<-1.0e39> : tensor<2xf32>", "dense<0xff800000> : tensor<2xf32>"),
    ],
)
def test_float_literals_beyond_the_range_round_to_inf(
    literal: str, printed: str
) -> None:
    module = xquant.parse_module(f"%c = arith.constant {literal}")
    assert f"arith.constant {printed}" in str(module)


# mlir-opt 22 reads i1 hex blobs bit-packed (LSB first, ceil(n/8) bytes; one 0x00/0xFF
# byte is a splat); xDSL read a byte per element and any single byte as a splat.
@pytest.mark.parametrize(
    ("blob", "printed"),
    [
        ('"0x01"> : tensor<4xi1>', "dense<[true, false, false, false]> : tensor<4xi1>"),
        ('"0x05"> : tensor<3xi1>', "dense<[true, false, true]> : tensor<3xi1>"),
        ('"0xFF"> : tensor<4xi1>', "dense<true> : tensor<4xi1>"),
        ('"0x00"> : tensor<12xi1>', "dense<false> : tensor<12xi1>"),
        ('"0x01"> : tensor<i1>', "dense<true> : tensor<i1>"),
        (
            '"0x0580"> : tensor<16xi1>',
            "dense<[true, false, true" + ", false" * 12 + ", true]> : tensor<16xi1>",
        ),
        ('"0x0000803F"> : tensor<2xf32>', "dense<1.000000e+00> : tensor<2xf32>"),
    ],
)
def test_hex_blobs_read_as_mlir(blob: str, printed: str) -> None:
    assert f"arith.constant {printed}" in str(
        xquant.parse_module(f"%c = arith.constant dense<{blob}")
    )


@pytest.mark.parametrize(
    "blob", ['"0x0102"> : tensor<2xi1>', '"0x0000803F00"> : tensor<2xf32>']
)
def test_hex_blob_of_the_wrong_size_is_located(blob: str) -> None:
    with pytest.raises(ParseError, match="elements hex data size is invalid") as info:
        xquant.parse_module(f"%c = arith.constant dense<{blob}")
    assert "<string>:1:27\n" in str(info.value)  # at the string, as mlir-opt


def test_attribute_dictionaries_print_sorted_like_mlir() -> None:
    # stablehlo-opt prints `padding` first (MLIR's DictionaryAttr is sorted by name).
    text = """
func.func @f(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_strides = array<i64: 1, 1>, window_dimensions = array<i64: 1, 2>, padding = dense<0> : tensor<2x2xi64>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {zeta = 1 : i64, alpha = 2 : i64} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}"""
    printed = xquant.print_module(xquant.parse_module(text))
    assert (
        "<{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 2>, "
        "window_strides = array<i64: 1, 1>}>" in printed
    )
    assert "{alpha = 2 : i64, zeta = 1 : i64}" in printed
