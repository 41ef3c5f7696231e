// RUN: xdsl-opt %s -p stablehlo-legalize-quantized-op-to-qdq | filecheck %s

// Unary, per-tensor: dequantize, float op, quantize.
// CHECK-LABEL: func.func @abs_per_tensor
// CHECK-NEXT:    %[[D:.*]] = stablehlo.uniform_dequantize %arg0 : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT:    %[[F:.*]] = stablehlo.abs %[[D]] : tensor<4xf32>
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.uniform_quantize %[[F]] : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK-NEXT:    func.return %[[Q]]
func.func @abs_per_tensor(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.abs %arg0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// Binary, per-tensor, three different types.
// CHECK-LABEL: func.func @add_per_tensor
// CHECK-NEXT:    %[[L:.*]] = stablehlo.uniform_dequantize %arg0 : (tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.uniform_dequantize %arg1 : (tensor<2x3x!quant.uniform<i8:f32, 2.500000e-01:4>>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[F:.*]] = stablehlo.add %[[L]], %[[R]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.uniform_quantize %[[F]] : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 1.000000e+00:2>>
// CHECK-NEXT:    func.return %[[Q]]
func.func @add_per_tensor(%arg0: tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<2x3x!quant.uniform<i8:f32, 0.25:4>>) -> tensor<2x3x!quant.uniform<i8:f32, 1.0:2>> {
  %0 = stablehlo.add %arg0, %arg1 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, tensor<2x3x!quant.uniform<i8:f32, 0.25:4>>) -> tensor<2x3x!quant.uniform<i8:f32, 1.0:2>>
  func.return %0 : tensor<2x3x!quant.uniform<i8:f32, 1.0:2>>
}

// add is the element-wise op that also takes per-axis types.
// CHECK-LABEL: func.func @add_per_axis
// CHECK-NEXT:    %[[L:.*]] = stablehlo.uniform_dequantize %arg0 : (tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01:-30,5.000000e-01:-20,2.000000e-01:4}>>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.uniform_dequantize %arg0 : (tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01:-30,5.000000e-01:-20,2.000000e-01:4}>>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[F:.*]] = stablehlo.add %[[L]], %[[R]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.uniform_quantize %[[F]] : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {2.000000e-01:3,2.500000e-01:-1,1.000000e+00}>>
// CHECK-NEXT:    func.return %[[Q]]
func.func @add_per_axis(%arg0: tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20, 0.2:4}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.2:3, 0.25:-1, 1.0}>> {
  %0 = stablehlo.add %arg0, %arg0 : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20, 0.2:4}>>, tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20, 0.2:4}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.2:3, 0.25:-1, 1.0}>>
  func.return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {0.2:3, 0.25:-1, 1.0}>>
}

// clamp: every quantized operand is dequantized.
// CHECK-LABEL: func.func @clamp
// CHECK-NEXT:    %[[LO:.*]] = stablehlo.uniform_dequantize %arg1 : (tensor<!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<f32>
// CHECK-NEXT:    %[[X:.*]] = stablehlo.uniform_dequantize %arg0 : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT:    %[[HI:.*]] = stablehlo.uniform_dequantize %arg1 : (tensor<!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<f32>
// CHECK-NEXT:    %[[F:.*]] = stablehlo.clamp %[[LO]], %[[X]], %[[HI]] : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.uniform_quantize %[[F]] : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
func.func @clamp(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.clamp %arg1, %arg0, %arg1 : (tensor<!quant.uniform<i8:f32, 0.5:-3>>, tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// compare: operands dequantized, the i1 result is used directly (no quantize).
// CHECK-LABEL: func.func @compare
// CHECK-NEXT:    %[[L:.*]] = stablehlo.uniform_dequantize %arg0
// CHECK-NEXT:    %[[R:.*]] = stablehlo.uniform_dequantize %arg1
// CHECK-NEXT:    %[[C:.*]] = stablehlo.compare  LT, %[[L]], %[[R]],  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:    func.return %[[C]] : tensor<4xi1>
func.func @compare(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<4x!quant.uniform<i8:f32, 0.25>>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4x!quant.uniform<i8:f32, 0.25>>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// select: the predicate is used as it is.
// CHECK-LABEL: func.func @select
// CHECK-NEXT:    %[[T:.*]] = stablehlo.uniform_dequantize %arg1
// CHECK-NEXT:    %[[E:.*]] = stablehlo.uniform_dequantize %arg2
// CHECK-NEXT:    %[[S:.*]] = stablehlo.select %arg0, %[[T]], %[[E]] : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:    stablehlo.uniform_quantize %[[S]] : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
func.func @select(%arg0: tensor<4xi1>, %arg1: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %arg2: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4xi1>, tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// dot_general: per-tensor lhs, per-axis rhs and result; the dimension numbers are kept.
// CHECK-LABEL: func.func @dot_general_per_axis
// CHECK-NEXT:    %[[L:.*]] = stablehlo.uniform_dequantize %arg0 : (tensor<2x4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.uniform_dequantize %arg1 : (tensor<4x3x!quant.uniform<i8:f32:1, {5.000000e-01,1.250000e-01,2.500000e-01}>>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[F:.*]] = stablehlo.dot_general %[[L]], %[[R]], contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    stablehlo.uniform_quantize %[[F]] : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {4.000000e+00:-2,1.000000e+00:3,2.000000e+00}>>
func.func @dot_general_per_axis(%arg0: tensor<2x4x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<4x3x!quant.uniform<i8:f32:1, {0.5, 0.125, 0.25}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {4.0:-2, 1.0:3, 2.0}>> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4x3x!quant.uniform<i8:f32:1, {0.5, 0.125, 0.25}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {4.0:-2, 1.0:3, 2.0}>>
  func.return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {4.0:-2, 1.0:3, 2.0}>>
}

// Hybrid dot_general (float lhs): only the rhs is dequantized, the float result stays.
// CHECK-LABEL: func.func @dot_general_hybrid
// CHECK-NEXT:    %[[R:.*]] = stablehlo.uniform_dequantize %arg1 : (tensor<4x3x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[F:.*]] = stablehlo.dot_general %arg0, %[[R]], contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[F]] : tensor<2x3xf32>
func.func @dot_general_hybrid(%arg0: tensor<2x4xf32>, %arg1: tensor<4x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x3xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// convolution, per-tensor; the window and dimension numbers are kept.
// CHECK-LABEL: func.func @convolution_per_tensor
// CHECK-NEXT:    %[[L:.*]] = stablehlo.uniform_dequantize %arg0 : (tensor<1x4x4x1x!quant.uniform<i8:f32, 5.000000e-01:-128>>) -> tensor<1x4x4x1xf32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.uniform_dequantize %arg1 : (tensor<3x3x1x1x!quant.uniform<i8:f32, 2.500000e-01:-128>>) -> tensor<3x3x1x1xf32>
// CHECK-NEXT:    %[[F:.*]] = stablehlo.convolution(%[[L]], %[[R]]) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
// CHECK-NEXT:    stablehlo.uniform_quantize %[[F]] : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1x!quant.uniform<i32:f32, 1.250000e-01>>
func.func @convolution_per_tensor(%arg0: tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5:-128>>, %arg1: tensor<3x3x1x1x!quant.uniform<i8:f32, 0.25:-128>>) -> tensor<1x2x2x1x!quant.uniform<i32:f32, 0.125>> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5:-128>>, tensor<3x3x1x1x!quant.uniform<i8:f32, 0.25:-128>>) -> tensor<1x2x2x1x!quant.uniform<i32:f32, 0.125>>
  func.return %0 : tensor<1x2x2x1x!quant.uniform<i32:f32, 0.125>>
}

// convolution, per-axis rhs and result on the output feature dimension.
// CHECK-LABEL: func.func @convolution_per_axis
// CHECK-NEXT:    %[[L:.*]] = stablehlo.uniform_dequantize %arg0 : (tensor<1x4x4x1x!quant.uniform<i8:f32, 5.000000e-01:-128>>) -> tensor<1x4x4x1xf32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.uniform_dequantize %arg1 : (tensor<3x3x1x2x!quant.uniform<i8:f32:3, {2.500000e-01,5.000000e-01}>>) -> tensor<3x3x1x2xf32>
// CHECK-NEXT:    %[[F:.*]] = stablehlo.convolution(%[[L]], %[[R]]) {{.*}} : (tensor<1x4x4x1xf32>, tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32>
// CHECK-NEXT:    stablehlo.uniform_quantize %[[F]] : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.250000e-01,2.500000e-01}>>
func.func @convolution_per_axis(%arg0: tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5:-128>>, %arg1: tensor<3x3x1x2x!quant.uniform<i8:f32:3, {0.25, 0.5}>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {0.125, 0.25}>> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5:-128>>, tensor<3x3x1x2x!quant.uniform<i8:f32:3, {0.25, 0.5}>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {0.125, 0.25}>>
  func.return %0 : tensor<1x2x2x2x!quant.uniform<i32:f32:3, {0.125, 0.25}>>
}

// Ops with regions stay quantized; the ops in their bodies are decomposed like any other.
// CHECK-LABEL: func.func @reduce_keeps_region_op
// CHECK-NEXT:    %{{.*}} = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [1] : (tensor<4x6x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<4x!quant.uniform<i32:f32, 2.500000e-01:5>>
// CHECK:           %[[A:.*]] = stablehlo.uniform_dequantize %{{.*}} : (tensor<!quant.uniform<i32:f32, 2.500000e-01:5>>) -> tensor<f32>
// CHECK-NEXT:      %[[B:.*]] = stablehlo.uniform_dequantize %{{.*}} : (tensor<!quant.uniform<i32:f32, 2.500000e-01:5>>) -> tensor<f32>
// CHECK-NEXT:      %[[S:.*]] = stablehlo.add %[[A]], %[[B]] : tensor<f32>
// CHECK-NEXT:      %[[Q:.*]] = stablehlo.uniform_quantize %[[S]] : (tensor<f32>) -> tensor<!quant.uniform<i32:f32, 2.500000e-01:5>>
// CHECK-NEXT:      stablehlo.return %[[Q]]
func.func @reduce_keeps_region_op(%arg0: tensor<4x6x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i32:f32, 0.25:5>> {
  %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [1] : (tensor<4x6x!quant.uniform<i8:f32, 0.5:-3>>, tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i32:f32, 0.25:5>>
   reducer(%a: tensor<!quant.uniform<i32:f32, 0.25:5>>, %b: tensor<!quant.uniform<i32:f32, 0.25:5>>)  {
    %1 = stablehlo.add %a, %b : tensor<!quant.uniform<i32:f32, 0.25:5>>
    stablehlo.return %1 : tensor<!quant.uniform<i32:f32, 0.25:5>>
  }
  func.return %0 : tensor<4x!quant.uniform<i32:f32, 0.25:5>>
}

// Data movement, bitcast_convert, quantize/dequantize and custom calls are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT:    %{{.*}} = stablehlo.reshape %arg0
// CHECK-NEXT:    %{{.*}} = stablehlo.transpose %arg0
// CHECK-NEXT:    %{{.*}} = stablehlo.broadcast_in_dim %arg0
// CHECK-NEXT:    %{{.*}} = stablehlo.bitcast_convert %arg0
// CHECK-NEXT:    %{{.*}} = stablehlo.uniform_quantize %arg0
// CHECK-NEXT:    %{{.*}} = stablehlo.uniform_dequantize %arg0
// CHECK-NEXT:    %{{.*}} = stablehlo.custom_call @foo(%arg0)
// CHECK-NEXT:    func.return
func.func @left_alone(%arg0: tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> (tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>, tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, tensor<2x3xi8>, tensor<2x3x!quant.uniform<i8:f32, 0.25:1>>, tensor<2x3xf32>, tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) {
  %0 = stablehlo.reshape %arg0 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>
  %1 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>
  %2 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>
  %3 = stablehlo.bitcast_convert %arg0 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3xi8>
  %4 = stablehlo.uniform_quantize %arg0 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25:1>>
  %5 = stablehlo.uniform_dequantize %arg0 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3xf32>
  %6 = stablehlo.custom_call @foo(%arg0) : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>, tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, tensor<2x3xi8>, tensor<2x3x!quant.uniform<i8:f32, 0.25:1>>, tensor<2x3xf32>, tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>
}

// Float ops are not touched.
// CHECK-LABEL: func.func @float_untouched
// CHECK-NEXT:    %{{.*}} = stablehlo.add %arg0, %arg0 : tensor<4xf32>
// CHECK-NEXT:    func.return
func.func @float_untouched(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
