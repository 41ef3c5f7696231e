// RUN: xquant-opt %s -p odml-legalize-qdq-custom-call -split-input-file -verify-diagnostics

func.func @no_config(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{@odml_torch.uniform_quantize needs a backend_config string}}
  %0 = stablehlo.custom_call @odml_torch.uniform_quantize(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @not_quantized(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{backend_config 'tensor<2xf32>' is not a quantized tensor type of the operand's shape}}
  %0 = stablehlo.custom_call @odml_torch.uniform_quantize(%x) {backend_config = "tensor<2xf32>"} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dequantize_of_a_float(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{@odml_torch.uniform_dequantize: operand is not quantized (got 'tensor<2xf32>')}}
  %0 = stablehlo.custom_call @odml_torch.uniform_dequantize(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
