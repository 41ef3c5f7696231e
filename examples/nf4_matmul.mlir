// NF4 with double-quantized block scales (QLoRA; torchao's to_nf4 layout) as a
// quant type: an f32 activation times an 8x64 NF4 weight. Every 64 weights along
// a row share one block scale; the block scales are themselves stored as i8 under
// one bf16 factor per 4 blocks (torchao's scaler_block; 256 by default) plus a
// per-tensor bf16 mean. A weight is, rounding every step to bf16 as torchao does,
//     table[code] * (i8_scale / factor + mean)
// The 270 bytes below are torchao.nf4's planar layout of the weight
// 0.05 * sin(0.37 * (64 i + j)) * (1 + i) in bf16: 256 bytes of 4-bit codes (two
// per byte, the even element high), 8 i8 block scales, 2 bf16 factors, the mean:
// byte for byte what torchao 0.18's to_nf4(w, 64, 4) stores (checked once).
//
//   xquant-run examples/nf4_matmul.mlir --arg 'dense<1.0> : tensor<2x64xf32>'
//   xquant-run examples/nf4_matmul.mlir -p lower-quant-ops --arg 'dense<1.0> : tensor<2x64xf32>'
//   xquant-run examples/nf4_matmul.mlir --backend iree --arg 'dense<1.0> : tensor<2x64xf32>'
//   xquant-run examples/nf4_matmul.mlir --function weight     (the dequantized weight)
//
// All three print the weight's row sums (0.155396, 0.286133, -0.306152, ...);
// lower-quant-ops turns the dcast into one linalg.generic on the bytes, with the
// interpreter's bits. docs/gguf.md describes the type.

!nf4 = !quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0, -0.6962, -0.5251, -0.3949, -0.2844, -0.1848, -0.0911, 0.0, 0.0796, 0.1609, 0.2461, 0.3379, 0.4407, 0.5626, 0.7230, 1.0}>:bf16:{1:64}, scales i8:bf16:{4}, mean bf16, layout "torchao.nf4">

func.func @weight() -> tensor<8x64xbf16> {
  %bytes = arith.constant dense_resource<nf4_weight> : tensor<270xi8>
  %q = quant.scast %bytes : tensor<270xi8> to tensor<8x64x!nf4>
  %w = quant.dcast %q : tensor<8x64x!nf4> to tensor<8x64xbf16>
  return %w : tensor<8x64xbf16>
}

func.func @main(%x: tensor<2x64xf32>) -> tensor<2x8xf32> {
  %h = call @weight() : () -> tensor<8x64xbf16>
  %w = arith.extf %h : tensor<8x64xbf16> to tensor<8x64xf32>
  %e = tensor.empty() : tensor<64x8xf32>
  %wt = linalg.transpose ins(%w : tensor<8x64xf32>) outs(%e : tensor<64x8xf32>) permutation = [1, 0]
  %zero = arith.constant dense<0.0> : tensor<2x8xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<2x64xf32>, tensor<64x8xf32>) outs(%zero : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

{-#
  dialect_resources: {
    builtin: {
      nf4_weight: "0x010000007befffed9521000137befffed9521000137befffed9521000137befffed9521000147befffec9521000147cefffec9521000148cefffec9521000148cefffec9521000148cefffec9421000148cefffec8421000148cefffec8421000148cefffec8421000148cefffec8421000248cefffec8420000248cefffec8420001248cefffec8410001248cefffec8410001248cefffec8410001249cefffec8410001249cefffec8410001259cefffec8410001259cefffec7410001259cefffec7410001259defffeb7310001259defffeb7310001259defffeb7310001259defffeb7310001259defffeb7310001259defffeb7310001259defffeb7310001259d80a5caee13365c7f37443844663e"
    }
  }
#-}
