// RUN: xquant-opt %s -split-input-file -verify-diagnostics | filecheck %s
// dynamic_broadcast_in_dim's output dimensions are a 1-D tensor of index or integer
// values (upstream's StableHLO_DimensionTensor), as chlo-legalize-to-stablehlo
// builds them from shape.shape_of.

// CHECK-LABEL: func.func @index_dims
// CHECK: stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [] : (tensor<f32>, tensor<2xindex>) -> tensor<?x?xf32>
func.func @index_dims(%a: tensor<f32>, %s: tensor<2xindex>) -> tensor<?x?xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [] : (tensor<f32>, tensor<2xindex>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

func.func @float_dims(%a: tensor<f32>, %s: tensor<2xf32>) -> tensor<?x?xf32> {
  // expected-error@+1 {{'stablehlo.dynamic_broadcast_in_dim' op operand #1 must be 1D tensor of index or integer values, but got 'tensor<2xf32>'}}
  %0 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [] : (tensor<f32>, tensor<2xf32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}
