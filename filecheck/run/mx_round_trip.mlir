// RUN: xquant-run %s --arg 'dense<[6.0, 1.25, 2.5, 5.0, 7.0, -0.25, 0.75, 3.5]> : tensor<8xf32>' | filecheck %s
// RUN: xquant-opt %s -p lower-mx-tensor --print-op-generic | xquant-run - --arg 'dense<[6.0, 1.25, 2.5, 5.0, 7.0, -0.25, 0.75, 3.5]> : tensor<8xf32>' | filecheck %s

// MXFP4 with 8-element blocks: amax 7 -> scale 2^0; ties to even (1.25 -> 1, 2.5 -> 2, 5 -> 4),
// the block max saturates (7 -> 6), 0.75 -> 1, -0.25 -> -0.
// CHECK: dense<[6.000000e+00, 1.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00, -0.000000e+00, 1.000000e+00, 4.000000e+00]> : tensor<8xf32>
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %q = mx_tensor.quantize %x {block_factor = [8], scale_type = f8E8M0FNU, compute_type = f4E2M1FN} : tensor<8xf32> -> !mx_tensor.tensor<<1xf8E8M0FNU>, <8xf4E2M1FN>>
  %y = mx_tensor.dequantize %q : !mx_tensor.tensor<<1xf8E8M0FNU>, <8xf4E2M1FN>> -> tensor<8xf32>
  func.return %y : tensor<8xf32>
}
