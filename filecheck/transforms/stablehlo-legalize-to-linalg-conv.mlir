// RUN: xdsl-opt %s -p stablehlo-legalize-to-linalg | filecheck %s

// A convolution with no spatial dims, [b, f] x [i, o] -> [b, f], is linalg.matmul into a
// zero-filled result (upstream's conv_0d), discardable attributes carried over.
// CHECK-LABEL: func.func @conv_0d
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    %[[M:.*]] = linalg.matmul {someattr} ins(%a, %b : tensor<3x2xf32>, tensor<2x3xf32>) outs(%[[F]] : tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    func.return %[[M]]
func.func @conv_0d(%a: tensor<3x2xf32>, %b: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = stablehlo.convolution(%a, %b) dim_numbers = [b, f]x[i, o]->[b, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, someattr} : (tensor<3x2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// Complex convolutions have no lowering here: left as they are (no internal error).
// CHECK-LABEL: func.func @conv_complex
// CHECK-NEXT:    stablehlo.convolution
func.func @conv_complex(%a: tensor<1x4x1xcomplex<f32>>, %b: tensor<2x1x1xcomplex<f32>>) -> tensor<1x3x1xcomplex<f32>> {
  %0 = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xcomplex<f32>>, tensor<2x1x1xcomplex<f32>>) -> tensor<1x3x1xcomplex<f32>>
  func.return %0 : tensor<1x3x1xcomplex<f32>>
}
