// A quantized StableHLO layer: i8 activations x i8 weights -> i8, then a sum of
// each row (requantized to i16) into a wider i32 accumulator type. Run it as written, or lowered:
//
//   xquant-run examples/stablehlo_quantized.mlir --arg 'dense<[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]> : tensor<2x3xf32>'
//   xquant-run examples/stablehlo_quantized.mlir -p 'stablehlo-legalize-quant-to-math{exact=true},stablehlo-legalize-to-linalg' --arg '...'
//
// Both print the same numbers (quantize, integer dot with one rescale, sum, dequantize).
// Without exact=true the pass is upstream's, which refuses the quantized reduce.
func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x2xf32>, tensor<2xf32>) {
  %w = stablehlo.constant() {value = dense<[[10, -20], [30, 5], [-7, 12]]> : tensor<3x2xi8>} : () -> tensor<3x2x!quant.uniform<i8:f32:1, {2.500000e-02,5.000000e-02}>>
  %q = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 2.500000e-02:3>>
  %y = stablehlo.dot_general %q, %w, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 2.500000e-02:3>>, tensor<3x2x!quant.uniform<i8:f32:1, {2.500000e-02,5.000000e-02}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {1.000000e-02,2.000000e-02}>>
  %z = stablehlo.constant() {value = dense<0> : tensor<i16>} : () -> tensor<!quant.uniform<i16:f32, 1.000000e-02>>
  %yt = stablehlo.uniform_quantize %y : (tensor<2x2x!quant.uniform<i8:f32:1, {1.000000e-02,2.000000e-02}>>) -> tensor<2x2x!quant.uniform<i16:f32, 1.000000e-02>>
  %s = stablehlo.reduce(%yt init: %z) across dimensions = [1] : (tensor<2x2x!quant.uniform<i16:f32, 1.000000e-02>>, tensor<!quant.uniform<i16:f32, 1.000000e-02>>) -> tensor<2x!quant.uniform<i32:f32, 5.000000e-03>>
   reducer(%a: tensor<!quant.uniform<i32:f32, 5.000000e-03>>, %b: tensor<!quant.uniform<i32:f32, 5.000000e-03>>)  {
    %t = stablehlo.add %a, %b : tensor<!quant.uniform<i32:f32, 5.000000e-03>>
    stablehlo.return %t : tensor<!quant.uniform<i32:f32, 5.000000e-03>>
  }
  %yf = stablehlo.uniform_dequantize %y : (tensor<2x2x!quant.uniform<i8:f32:1, {1.000000e-02,2.000000e-02}>>) -> tensor<2x2xf32>
  %sf = stablehlo.uniform_dequantize %s : (tensor<2x!quant.uniform<i32:f32, 5.000000e-03>>) -> tensor<2xf32>
  func.return %yf, %sf : tensor<2x2xf32>, tensor<2xf32>
}
