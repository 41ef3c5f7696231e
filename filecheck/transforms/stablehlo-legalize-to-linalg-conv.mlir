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

// Complex convolutions: the named op into a complex zero, as upstream.
// CHECK-LABEL: func.func @conv_complex
// CHECK-NEXT:    %[[Z:.*]] = complex.constant [0.000000e+00 : f32, 0.000000e+00 : f32] : complex<f32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x3x1xcomplex<f32>>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : complex<f32>) outs(%[[E]] : tensor<1x3x1xcomplex<f32>>) -> tensor<1x3x1xcomplex<f32>>
// CHECK-NEXT:    %[[C:.*]] = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a, %b : tensor<1x4x1xcomplex<f32>>, tensor<2x1x1xcomplex<f32>>) outs(%[[F]] : tensor<1x3x1xcomplex<f32>>) -> tensor<1x3x1xcomplex<f32>>
// CHECK-NEXT:    func.return %[[C]]
func.func @conv_complex(%a: tensor<1x4x1xcomplex<f32>>, %b: tensor<2x1x1xcomplex<f32>>) -> tensor<1x3x1xcomplex<f32>> {
  %0 = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xcomplex<f32>>, tensor<2x1x1xcomplex<f32>>) -> tensor<1x3x1xcomplex<f32>>
  func.return %0 : tensor<1x3x1xcomplex<f32>>
}

// Depthwise (feature_group_count = input features) with a channel multiplier of 2: the
// filter [kh, kw, 1, 6] reshaped to [kh, kw, 3, 2] (collapse to 1-D, expand), the
// hwcm op into [.., 3, 2], the result's last two dims collapsed.
// CHECK-LABEL: func.func @depthwise_multiplier
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[K1:.*]] = tensor.collapse_shape %b {{.*}} : tensor<2x2x1x6xf32> into tensor<24xf32>
// CHECK-NEXT:    %[[K:.*]] = tensor.expand_shape %[[K1]] {{.*}} output_shape [2, 2, 3, 2] : tensor<24xf32> into tensor<2x2x3x2xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x3x3x3x2xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<1x3x3x3x2xf32>) -> tensor<1x3x3x3x2xf32>
// CHECK-NEXT:    %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %[[K]] : tensor<1x4x4x3xf32>, tensor<2x2x3x2xf32>) outs(%[[F]] : tensor<1x3x3x3x2xf32>) -> tensor<1x3x3x3x2xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] : tensor<1x3x3x3x2xf32> into tensor<1x3x3x6xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @depthwise_multiplier(%a: tensor<1x4x4x3xf32>, %b: tensor<2x2x1x6xf32>) -> tensor<1x3x3x6xf32> {
  %0 = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<1x4x4x3xf32>, tensor<2x2x1x6xf32>) -> tensor<1x3x3x6xf32>
  func.return %0 : tensor<1x3x3x6xf32>
}

// Depthwise 1-D, multiplier 1: the filter's last two dims collapsed, depthwise_conv_1d_nwc_wc.
// CHECK-LABEL: func.func @depthwise_1d
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x4x3xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<2x4x3xi32>) -> tensor<2x4x3xi32>
// CHECK-NEXT:    %[[K:.*]] = tensor.collapse_shape %b {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<2x1x3xi8> into tensor<2x3xi8>
// CHECK-NEXT:    %[[C:.*]] = linalg.depthwise_conv_1d_nwc_wc {dilations = dense<1> : tensor<1xi64>, someattr, strides = dense<2> : tensor<1xi64>} ins(%a, %[[K]] : tensor<2x8x3xi8>, tensor<2x3xi8>) outs(%[[F]] : tensor<2x4x3xi32>) -> tensor<2x4x3xi32>
// CHECK-NEXT:    func.return %[[C]]
func.func @depthwise_1d(%a: tensor<2x8x3xi8>, %b: tensor<2x1x3xi8>) -> tensor<2x4x3xi32> {
  %0 = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 3 : i64, someattr} : (tensor<2x8x3xi8>, tensor<2x1x3xi8>) -> tensor<2x4x3xi32>
  func.return %0 : tensor<2x4x3xi32>
}
