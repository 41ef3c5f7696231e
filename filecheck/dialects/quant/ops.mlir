// RUN: XQUANT_ROUNDTRIP
// RUN: XQUANT_GENERIC_ROUNDTRIP
// The three cast ops in upstream's assembly format, on scalars, ranked, dynamic and unranked tensors.

// CHECK-LABEL: func.func @scalar
// CHECK: %0 = quant.qcast %arg0 : f32 to !quant.uniform<i8:f32, 1.000000e+00>
// CHECK: %1 = quant.scast %0 : !quant.uniform<i8:f32, 1.000000e+00> to i8
// CHECK: %2 = quant.dcast %0 : !quant.uniform<i8:f32, 1.000000e+00> to f32
func.func @scalar(%arg0: f32) -> f32 {
  %0 = quant.qcast %arg0 : f32 to !quant.uniform<i8:f32, 1.0>
  %1 = quant.scast %0 : !quant.uniform<i8:f32, 1.0> to i8
  %2 = quant.dcast %0 : !quant.uniform<i8:f32, 1.0> to f32
  func.return %2 : f32
}

// CHECK-LABEL: func.func @per_axis_unranked
// CHECK: quant.dcast %arg0 : tensor<*x!quant.uniform<i8:f32:2, {1.000000e+00,2.000000e+00,3.000000e+00}>> to tensor<*xf32>
func.func @per_axis_unranked(%arg0: tensor<*x!quant.uniform<i8:f32:2, {1.0,2.0,3.0}>>) -> tensor<*xf32> {
  %0 = quant.dcast %arg0 : tensor<*x!quant.uniform<i8:f32:2, {1.0,2.0,3.0}>> to tensor<*xf32>
  func.return %0 : tensor<*xf32>
}

// CHECK-LABEL: func.func @per_axis_dynamic
// CHECK: quant.qcast %arg0 : tensor<?x?x?xf32> to tensor<?x?x?x!quant.uniform<i8:f32:2, {1.000000e+00,2.000000e+00,3.000000e+00}>>
func.func @per_axis_dynamic(%arg0: tensor<?x?x?xf32>) {
  %0 = quant.qcast %arg0 : tensor<?x?x?xf32> to tensor<?x?x?x!quant.uniform<i8:f32:2, {1.0,2.0,3.0}>>
  func.return
}

// CHECK-LABEL: func.func @sub_channel
// CHECK: quant.scast %arg0 : tensor<2x4xi8> to tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{[{][{]}}2.000000e+00, 3.000000e+00}, {4.000000e+00, 5.000000e+00{{[}][}]}}>>
// CHECK: quant.qcast %arg1 : tensor<?x?xf32> to tensor<?x?x!quant.uniform<i8:f32:{0:1, 1:2}, {{[{][{]}}2.000000e+00, 3.000000e+00}, {4.000000e+00, 5.000000e+00{{[}][}]}}>>
func.func @sub_channel(%arg0: tensor<2x4xi8>, %arg1: tensor<?x?xf32>) {
  %0 = quant.scast %arg0 : tensor<2x4xi8> to tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0,3.0},{4.0,5.0}}>>
  %1 = quant.qcast %arg1 : tensor<?x?xf32> to tensor<?x?x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0,3.0},{4.0,5.0}}>>
  func.return
}

// Unlike upstream, sub-channel types on unranked tensors are valid (seed 000, appendix case 2).
// CHECK-LABEL: func.func @sub_channel_unranked
// CHECK: quant.dcast %arg0 : tensor<*x!quant.uniform<i8:f32:{1:2}, {{[{][{]}}2.000000e+00, 3.000000e+00{{[}][}]}}>> to tensor<*xf32>
func.func @sub_channel_unranked(%arg0: tensor<*x!quant.uniform<i8:f32:{1:2}, {{2.0, 3.0}}>>) {
  %0 = quant.dcast %arg0 : tensor<*x!quant.uniform<i8:f32:{1:2}, {{2.0, 3.0}}>> to tensor<*xf32>
  func.return
}

// CHECK-LABEL: func.func @any_and_calibrated
// CHECK: quant.qcast %arg0 : f32 to !quant.any<i8:f32>
// CHECK: quant.qcast %arg0 : f32 to !quant.calibrated<f32<-1.000000e+00:1.000000e+00>>
func.func @any_and_calibrated(%arg0: f32) {
  %0 = quant.qcast %arg0 : f32 to !quant.any<i8:f32>
  %1 = quant.dcast %0 : !quant.any<i8:f32> to f32
  %2 = quant.qcast %arg0 : f32 to !quant.calibrated<f32<-1.0:1.0>>
  func.return
}
