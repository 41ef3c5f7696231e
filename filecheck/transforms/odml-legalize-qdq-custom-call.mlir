// RUN: xquant-opt %s -p odml-legalize-qdq-custom-call -split-input-file | filecheck %s

// litert-torch's per-tensor Q/DQ pair (the type in backend_config).
// CHECK-LABEL: func.func @per_tensor
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.uniform_quantize %arg0 : (tensor<2x4xf32>) -> tensor<2x4x!quant.uniform<i8:f32, 4.000000e-01:2>>
// CHECK-NEXT:    %[[D:.*]] = stablehlo.uniform_dequantize %[[Q]] : (tensor<2x4x!quant.uniform<i8:f32, 4.000000e-01:2>>) -> tensor<2x4xf32>
// CHECK-NEXT:    return %[[D]] : tensor<2x4xf32>
func.func @per_tensor(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.custom_call @odml_torch.uniform_quantize(%x) {backend_config = "tensor<2x4x!quant.uniform<i8<-128:127>:f32,0.4:2>>"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.custom_call @odml_torch.uniform_dequantize(%0) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// -----

// Per channel, with a narrowed storage range.
// CHECK-LABEL: func.func @per_channel
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.uniform_quantize %arg0 : (tensor<4x3xf32>) -> tensor<4x3x!quant.uniform<i8<-100:100>:f32:1, {3.200000e+00:1,5.300000e+00:2,1.000000e-01:-1}>>
// CHECK-NEXT:    %[[D:.*]] = stablehlo.uniform_dequantize %[[Q]]
// CHECK-NEXT:    %[[A:.*]] = stablehlo.abs %[[D]] : tensor<4x3xf32>
// CHECK-NEXT:    stablehlo.custom_call @other.target(%[[A]])
func.func @per_channel(%w: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = stablehlo.custom_call @odml_torch.uniform_quantize(%w) {backend_config = "tensor<4x3x!quant.uniform<i8<-100:100>:f32:1,{3.2:1,5.3:2,0.1:-1}>>"} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = stablehlo.custom_call @odml_torch.uniform_dequantize(%0) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %2 = stablehlo.abs %1 : tensor<4x3xf32>
  %3 = stablehlo.custom_call @other.target(%2) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %3 : tensor<4x3xf32>
}
