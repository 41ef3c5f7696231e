// RUN: xquant-opt %s --stablehlo-legalize-quant-to-math="exact=true" -split-input-file -verify-diagnostics
// RUN: not xquant-opt %s -p "stablehlo-legalize-quant-to-math{exact=true}" --split-input-file 2>&1 | filecheck %s --check-prefix=LOC
// With exact=true (the default lowers dynamic shapes as upstream does): what the pass
// cannot lower is an error at the op, never a half-lowered module.

func.func @dynamic(%arg0: tensor<?x4x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<4x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<?x2x!quant.uniform<i32:f32, 0.25>> {
  // expected-error@+1 {{'stablehlo.dot_general' op with quantized dynamic shapes is not supported}}
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<?x4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<?x2x!quant.uniform<i32:f32, 0.25>>
  func.return %0 : tensor<?x2x!quant.uniform<i32:f32, 0.25>>
}
// LOC: stablehlo-legalize-quant-to-math-invalid.mlir:8:8: error: 'stablehlo.dot_general' op with quantized dynamic shapes is not supported

// -----

// A quantized value from an op no pattern knows: upstream's legality error.
func.func @unknown_op() -> tensor<2x!quant.uniform<i8:f32, 0.5:-3>> {
  // expected-error@+1 {{failed to legalize operation 'tensor.empty' that was explicitly marked illegal}}
  %0 = tensor.empty() : tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
}
// LOC: stablehlo-legalize-quant-to-math-invalid.mlir:18:8: error: failed to legalize operation 'tensor.empty' that was explicitly marked illegal
