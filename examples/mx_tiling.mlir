// The design note's linalg use of an MX tensor, untiled and tiled 32x32 (scf.parallel).
// bf16 + MXFP8 (E4M3 elements, 128x128 blocks) accumulated in f32. Each 32x32 tile of
// the MX operand is a 1x1-scale tile: the scale of the block it lies in, broadcast.
// Run: xquant-run examples/mx_tiling.mlir --function tiled --arg ... (see tests/dialects/mx_tensor/test_linalg.py)

!mx = !mx_tensor.tensor<<2x2xf8E8M0FNU>, <256x256xf8E4M3FN>>
!tile = !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>

func.func @untiled(%a: tensor<256x256xbf16>, %x: tensor<256x256xf32>) -> tensor<256x256xbf16> {
  %b = mx_tensor.quantize %x {block_factor = [128, 128], scale_type = f8E8M0FNU, compute_type = f8E4M3FN} : tensor<256x256xf32> -> !mx
  %0 = linalg.add ins(%a, %b : tensor<256x256xbf16>, !mx) outs(%a : tensor<256x256xbf16>) attrs = {accumulator_type = f32} -> tensor<256x256xbf16>
  func.return %0 : tensor<256x256xbf16>
}

func.func @tiled(%a: tensor<256x256xbf16>, %x: tensor<256x256xf32>) -> tensor<256x256xbf16> {
  %b = mx_tensor.quantize %x {block_factor = [128, 128], scale_type = f8E8M0FNU, compute_type = f8E4M3FN} : tensor<256x256xf32> -> !mx
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : tensor<256x256xbf16>
  %res = "scf.parallel"(%c0, %c0, %c256, %c256, %c32, %c32, %zero) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
  ^bb0(%i: index, %j: index):
    %a0 = tensor.extract_slice %a[%i, %j] [32, 32] [1, 1] : tensor<256x256xbf16> to tensor<32x32xbf16>
    %b0 = mx_tensor.extract_slice %b[%i, %j] [32, 32] [1, 1] : !mx to !tile
    %0 = linalg.add ins(%a0, %b0 : tensor<32x32xbf16>, !tile) outs(%a0 : tensor<32x32xbf16>) attrs = {accumulator_type = f32} -> tensor<32x32xbf16>
    %u = tensor.insert_slice %0 into %zero[%i, %j] [32, 32] [1, 1] : tensor<32x32xbf16> into tensor<256x256xbf16>
    "scf.reduce"(%u) ({
    ^bb1(%lhs: tensor<256x256xbf16>, %rhs: tensor<256x256xbf16>):
      %s = arith.addf %lhs, %rhs : tensor<256x256xbf16>
      "scf.reduce.return"(%s) : (tensor<256x256xbf16>) -> ()
    }) : (tensor<256x256xbf16>) -> ()
  }) : (index, index, index, index, index, index, tensor<256x256xbf16>) -> tensor<256x256xbf16>
  func.return %res : tensor<256x256xbf16>
}
