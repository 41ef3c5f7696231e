// RUN: xquant-opt %s --stablehlo-legalize-quant-to-math -split-input-file -verify-diagnostics
// RUN: not xquant-opt %s -p stablehlo-legalize-quant-to-math --split-input-file 2>&1 | filecheck %s --check-prefix=LOC
// What the pass cannot lower is an error at the op, never a half-lowered module.

func.func @dynamic(%arg0: tensor<?xf32>) -> tensor<?x!quant.uniform<i8:f32, 0.5:-3>> {
  // expected-error@+1 {{'stablehlo.uniform_quantize' op with quantized dynamic shapes is not supported}}
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<?xf32>) -> tensor<?x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<?x!quant.uniform<i8:f32, 0.5:-3>>
}
// LOC: stablehlo-legalize-quant-to-math-invalid.mlir:7:8: error: 'stablehlo.uniform_quantize' op with quantized dynamic shapes is not supported

// -----

// A quantized value from an op no pattern knows: upstream's legality error.
func.func @unknown_op() -> tensor<2x!quant.uniform<i8:f32, 0.5:-3>> {
  // expected-error@+1 {{failed to legalize operation 'tensor.empty' that was explicitly marked illegal}}
  %0 = tensor.empty() : tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
}
// LOC: stablehlo-legalize-quant-to-math-invalid.mlir:17:8: error: failed to legalize operation 'tensor.empty' that was explicitly marked illegal
