// RUN: xdsl-opt %s -p stablehlo-legalize-qdq-to-quantized-op | filecheck %s

// Unary, per-tensor (upstream's compose_quantized_abs_op).
// CHECK-LABEL: func.func @abs
// CHECK-NEXT:    %[[R:.*]] = stablehlo.abs %arg0 : tensor<16x16x!quant.uniform<u8:f32, 3.400000e+01:16>>
// CHECK-NEXT:    func.return %[[R]]
func.func @abs(%arg0: tensor<16x16x!quant.uniform<u8:f32, 34.0:16>>) -> tensor<16x16x!quant.uniform<u8:f32, 34.0:16>> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<16x16x!quant.uniform<u8:f32, 34.0:16>>) -> tensor<16x16xf32>
  %1 = stablehlo.abs %0 : tensor<16x16xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<16x16xf32>) -> tensor<16x16x!quant.uniform<u8:f32, 34.0:16>>
  func.return %2 : tensor<16x16x!quant.uniform<u8:f32, 34.0:16>>
}

// Binary, per-tensor, three different types.
// CHECK-LABEL: func.func @add_per_tensor
// CHECK-NEXT:    %[[R:.*]] = stablehlo.add %arg0, %arg1 : (tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<2x3x!quant.uniform<i8:f32, 2.500000e-01:4>>) -> tensor<2x3x!quant.uniform<i8:f32, 1.000000e+00:2>>
// CHECK-NEXT:    func.return %[[R]]
func.func @add_per_tensor(%arg0: tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<2x3x!quant.uniform<i8:f32, 0.25:4>>) -> tensor<2x3x!quant.uniform<i8:f32, 1.0:2>> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3xf32>
  %1 = stablehlo.uniform_dequantize %arg1 : (tensor<2x3x!quant.uniform<i8:f32, 0.25:4>>) -> tensor<2x3xf32>
  %2 = stablehlo.add %0, %1 : tensor<2x3xf32>
  %3 = stablehlo.uniform_quantize %2 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 1.0:2>>
  func.return %3 : tensor<2x3x!quant.uniform<i8:f32, 1.0:2>>
}

// add accepts per-axis types; the same dequantize may feed both operands.
// CHECK-LABEL: func.func @add_per_axis
// CHECK-NEXT:    %[[R:.*]] = stablehlo.add %arg0, %arg0 : (tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01:-30,5.000000e-01:-20,2.000000e-01:4}>>, tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01:-30,5.000000e-01:-20,2.000000e-01:4}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {2.000000e-01:3,2.500000e-01:-1,1.000000e+00}>>
// CHECK-NEXT:    func.return %[[R]]
func.func @add_per_axis(%arg0: tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20, 0.2:4}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.2:3, 0.25:-1, 1.0}>> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20, 0.2:4}>>) -> tensor<2x3xf32>
  %1 = stablehlo.add %0, %0 : tensor<2x3xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.2:3, 0.25:-1, 1.0}>>
  func.return %2 : tensor<2x3x!quant.uniform<i8:f32:1, {0.2:3, 0.25:-1, 1.0}>>
}

// clamp with quantized bounds.
// CHECK-LABEL: func.func @clamp
// CHECK-NEXT:    %[[R:.*]] = stablehlo.clamp %arg1, %arg0, %arg1 : (tensor<!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK-NEXT:    func.return %[[R]]
func.func @clamp(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.uniform_dequantize %arg1 : (tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<f32>
  %1 = stablehlo.uniform_dequantize %arg0 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  %2 = stablehlo.clamp %0, %1, %0 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %3 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// dot_general, per-axis rhs and result; dimension numbers and precision are kept.
// CHECK-LABEL: func.func @dot_general_per_axis
// CHECK-NEXT:    %[[R:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<4x3x!quant.uniform<i8:f32:1, {5.000000e-01,1.250000e-01,2.500000e-01}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {4.000000e+00:-2,1.000000e+00:3,2.000000e+00}>>
// CHECK-NEXT:    func.return %[[R]]
func.func @dot_general_per_axis(%arg0: tensor<2x4x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<4x3x!quant.uniform<i8:f32:1, {0.5, 0.125, 0.25}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {4.0:-2, 1.0:3, 2.0}>> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<2x4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x4xf32>
  %1 = stablehlo.uniform_dequantize %arg1 : (tensor<4x3x!quant.uniform<i8:f32:1, {0.5, 0.125, 0.25}>>) -> tensor<4x3xf32>
  %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %3 = stablehlo.uniform_quantize %2 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {4.0:-2, 1.0:3, 2.0}>>
  func.return %3 : tensor<2x3x!quant.uniform<i8:f32:1, {4.0:-2, 1.0:3, 2.0}>>
}

// convolution, per-tensor; window and dimension numbers are kept.
// CHECK-LABEL: func.func @convolution
// CHECK-NEXT:    %[[R:.*]] = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1x!quant.uniform<i8:f32, 5.000000e-01:-128>>, tensor<3x3x1x1x!quant.uniform<i8:f32, 2.500000e-01:-128>>) -> tensor<1x2x2x1x!quant.uniform<i32:f32, 1.250000e-01>>
// CHECK-NEXT:    func.return %[[R]]
func.func @convolution(%arg0: tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5:-128>>, %arg1: tensor<3x3x1x1x!quant.uniform<i8:f32, 0.25:-128>>) -> tensor<1x2x2x1x!quant.uniform<i32:f32, 0.125>> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5:-128>>) -> tensor<1x4x4x1xf32>
  %1 = stablehlo.uniform_dequantize %arg1 : (tensor<3x3x1x1x!quant.uniform<i8:f32, 0.25:-128>>) -> tensor<3x3x1x1xf32>
  %2 = stablehlo.convolution(%0, %1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  %3 = stablehlo.uniform_quantize %2 : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1x!quant.uniform<i32:f32, 0.125>>
  func.return %3 : tensor<1x2x2x1x!quant.uniform<i32:f32, 0.125>>
}

// A chain fuses op by op; a dequantize with another user stays for that user.
// CHECK-LABEL: func.func @chain_and_shared_dequantize
// CHECK-NEXT:    %[[D:.*]] = stablehlo.uniform_dequantize %arg0 : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT:    %[[A:.*]] = stablehlo.abs %arg0 : tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[A]] : tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK-NEXT:    func.return %[[N]], %[[D]]
func.func @chain_and_shared_dequantize(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4xf32>) {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  %1 = stablehlo.abs %0 : tensor<4xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  %3 = stablehlo.uniform_dequantize %2 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  %4 = stablehlo.negate %3 : tensor<4xf32>
  %5 = stablehlo.uniform_quantize %4 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %5, %0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4xf32>
}

// Data movement is fused too when the quantized op verifies (same scale and zero point) ...
// CHECK-LABEL: func.func @reshape_same_type
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<3x2x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK-NEXT:    func.return %[[R]]
func.func @reshape_same_type(%arg0: tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3xf32>
  %1 = stablehlo.reshape %0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<3x2xf32>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %2 : tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>
}

// ... and not when it would not verify (a quantized reshape keeps scale and zero point).
// CHECK-LABEL: func.func @no_fusion_reshape_rescales
// CHECK-NEXT:    %[[D:.*]] = stablehlo.uniform_dequantize %arg0
// CHECK-NEXT:    %[[F:.*]] = stablehlo.reshape %[[D]] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.uniform_quantize %[[F]]
// CHECK-NEXT:    func.return %[[Q]]
func.func @no_fusion_reshape_rescales(%arg0: tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.25:-3>> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3xf32>
  %1 = stablehlo.reshape %0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<3x2xf32>) -> tensor<3x2x!quant.uniform<i8:f32, 0.25:-3>>
  func.return %2 : tensor<3x2x!quant.uniform<i8:f32, 0.25:-3>>
}

// multiply takes per-tensor types only: not fused.
// CHECK-LABEL: func.func @no_fusion_per_axis_multiply
// CHECK:         stablehlo.multiply %{{.*}}, %{{.*}} : tensor<2x3xf32>
// CHECK-NEXT:    stablehlo.uniform_quantize
func.func @no_fusion_per_axis_multiply(%arg0: tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20, 0.2:4}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.2:3, 0.25:-1, 1.0}>> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20, 0.2:4}>>) -> tensor<2x3xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<2x3xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.2:3, 0.25:-1, 1.0}>>
  func.return %2 : tensor<2x3x!quant.uniform<i8:f32:1, {0.2:3, 0.25:-1, 1.0}>>
}

// add needs one storage type for operands and result: not fused.
// CHECK-LABEL: func.func @no_fusion_mixed_storage
// CHECK:         stablehlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    stablehlo.uniform_quantize
func.func @no_fusion_mixed_storage(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5>>, %arg1: tensor<4x!quant.uniform<i16:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xf32>
  %1 = stablehlo.uniform_dequantize %arg1 : (tensor<4x!quant.uniform<i16:f32, 0.5>>) -> tensor<4xf32>
  %2 = stablehlo.add %0, %1 : tensor<4xf32>
  %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  func.return %3 : tensor<4x!quant.uniform<i8:f32, 0.5>>
}

// A quantized dot_general needs a zero rhs zero point: not fused.
// CHECK-LABEL: func.func @no_fusion_dot_rhs_zero_point
// CHECK:         stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    stablehlo.uniform_quantize
func.func @no_fusion_dot_rhs_zero_point(%arg0: tensor<2x4x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<4x3x!quant.uniform<i8:f32, 0.25:5>>) -> tensor<2x3x!quant.uniform<i8:f32, 1.0>> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<2x4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x4xf32>
  %1 = stablehlo.uniform_dequantize %arg1 : (tensor<4x3x!quant.uniform<i8:f32, 0.25:5>>) -> tensor<4x3xf32>
  %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %3 = stablehlo.uniform_quantize %2 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 1.0>>
  func.return %3 : tensor<2x3x!quant.uniform<i8:f32, 1.0>>
}

// The float result has another user: not fused.
// CHECK-LABEL: func.func @no_fusion_second_use
// CHECK-NEXT:    %[[D:.*]] = stablehlo.uniform_dequantize %arg0
// CHECK-NEXT:    %[[F:.*]] = stablehlo.abs %[[D]] : tensor<4xf32>
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.uniform_quantize %[[F]]
// CHECK-NEXT:    func.return %[[Q]], %[[F]]
func.func @no_fusion_second_use(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4xf32>) {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  %1 = stablehlo.abs %0 : tensor<4xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %2, %1 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4xf32>
}

// An operand that is not dequantized (hybrid-like): not fused.
// CHECK-LABEL: func.func @no_fusion_float_operand
// CHECK-NEXT:    %[[D:.*]] = stablehlo.uniform_dequantize %arg1
// CHECK-NEXT:    %[[F:.*]] = stablehlo.add %arg0, %[[D]] : tensor<4xf32>
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.uniform_quantize %[[F]]
func.func @no_fusion_float_operand(%arg0: tensor<4xf32>, %arg1: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.uniform_dequantize %arg1 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<4xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %2 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// select's predicate is not dequantized: not fused (as upstream).
// CHECK-LABEL: func.func @no_fusion_select
// CHECK:         stablehlo.select %arg0, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:    stablehlo.uniform_quantize
func.func @no_fusion_select(%arg0: tensor<4xi1>, %arg1: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.uniform_dequantize %arg1 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  %1 = stablehlo.select %arg0, %0, %0 : tensor<4xi1>, tensor<4xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %2 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// The quantized value is a function argument (upstream's operand_not_defined_by_op).
// CHECK-LABEL: func.func @no_fusion_block_argument
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.uniform_quantize %arg0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK-NEXT:    func.return %[[Q]]
func.func @no_fusion_block_argument(%arg0: tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// A requantize of a quantized op's result is left as it is.
// CHECK-LABEL: func.func @no_fusion_requantize
// CHECK-NEXT:    %[[A:.*]] = stablehlo.abs %arg0 : tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.uniform_quantize %[[A]] : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>
func.func @no_fusion_requantize(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>> {
  %0 = stablehlo.abs %arg0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  %1 = stablehlo.uniform_quantize %0 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>>
  func.return %1 : tensor<4x!quant.uniform<i8:f32, 0.25>>
}

// Ops with regions are not fused (upstream's failed_to_match_op_with_region).
// CHECK-LABEL: func.func @no_fusion_region_op
// CHECK-NEXT:    %[[D:.*]] = stablehlo.uniform_dequantize %arg0
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reduce(%[[D]] init: %arg1) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.uniform_quantize %[[R]]
func.func @no_fusion_region_op(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  %1 = stablehlo.reduce(%0 init: %arg1) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5:-3>>
  func.return %2 : tensor<!quant.uniform<i8:f32, 0.5:-3>>
}
