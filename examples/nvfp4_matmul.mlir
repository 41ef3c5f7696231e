// NVFP4 matmul: both operands quantized to NVFP4 (f4E2M1FN elements, f8E4M3FN block scales
// over 16 elements along the contraction axis K) with f32 per-tensor scales, multiplied by
// linalg.matmul (each MX operand decoded as element * block scale, f32 accumulation), then
// the product of the per-tensor scales is applied to the result, as torchao's NVFP4 matmul does.
//   xquant-run examples/nvfp4_matmul.mlir --arg 'dense<3.0> : tensor<8x64xf32>' \
//       --arg 'dense<1.5> : tensor<64x16xf32>' --arg 'dense<0.5> : tensor<f32>' --arg 'dense<0.25> : tensor<f32>'
// prints 288 everywhere (64 * 3 * 1.5: both block scales are exactly 1, every element 6);
// add -p lower-mx-tensor for the same through linalg.generic.
// @block_only is the single-level recipe (no per-tensor scale).
!a = !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>
!b = !mx_tensor.tensor<<4x16xf8E4M3FN>, <64x16xf4E2M1FN>>

func.func @main(%af: tensor<8x64xf32>, %bf: tensor<64x16xf32>, %ga: tensor<f32>, %gb: tensor<f32>) -> tensor<8x16xf32> {
  %a = mx_tensor.quantize %af, %ga {block_factor = [1, 16], scale_type = f8E4M3FN, compute_type = f4E2M1FN, algorithm = "nvfp4"} : tensor<8x64xf32>, tensor<f32> -> !a
  %b = mx_tensor.quantize %bf, %gb {block_factor = [16, 1], scale_type = f8E4M3FN, compute_type = f4E2M1FN, algorithm = "nvfp4"} : tensor<64x16xf32>, tensor<f32> -> !b
  %zero = arith.constant dense<0.0> : tensor<8x16xf32>
  %p = linalg.matmul ins(%a, %b : !a, !b) outs(%zero : tensor<8x16xf32>) -> tensor<8x16xf32>
  %g = arith.mulf %ga, %gb : tensor<f32>
  %init = tensor.empty() : tensor<8x16xf32>
  %gg = linalg.broadcast ins(%g : tensor<f32>) outs(%init : tensor<8x16xf32>) dimensions = [0, 1]
  %r = linalg.mul ins(%p, %gg : tensor<8x16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %r : tensor<8x16xf32>
}

func.func @block_only(%af: tensor<8x64xf32>, %bf: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %a = mx_tensor.quantize %af {algorithm = "nvfp4"} : tensor<8x64xf32> -> !a
  %b = mx_tensor.quantize %bf {algorithm = "nvfp4"} : tensor<64x16xf32> -> !b
  %zero = arith.constant dense<0.0> : tensor<8x16xf32>
  %p = linalg.matmul ins(%a, %b : !a, !b) outs(%zero : tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %p : tensor<8x16xf32>
}
