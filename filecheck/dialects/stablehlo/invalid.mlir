// RUN: xquant-opt %s -split-input-file -verify-diagnostics
// Every quantization constraint of the StableHLO subset, with its (upstream) message.

// add_c2
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2xf32>) {
  // expected-error@+1 {{expects  all operands and results to be either quantized or non-quantized}}
  %0 = stablehlo.add %a, %b : (tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----
// add_c3
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x!quant.uniform<i16:f32, 1.0>>) {
  // expected-error@+1 {{mismatched operands and result quantization storage types}}
  %0 = stablehlo.add %a, %b : (tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<2x!quant.uniform<i16:f32, 1.0>>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----
// add_c4
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x!quant.uniform<i8:f16, 1.0>>) {
  // expected-error@+1 {{mismatched operands and result quantization expressed types}}
  %0 = stablehlo.add %a, %b : (tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<2x!quant.uniform<i8:f16, 1.0>>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----
// add_c5
func.func @f(%a: tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, %b: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  // expected-error@+1 {{result is not per_axis quantized but lhs or rhs are}}
  %0 = stablehlo.add %a, %b : (tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----
// add_c5 (result per-axis alone)
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  // expected-error@+1 {{result per_axis quantized but none from rhs and lhs are per_axis quantized}}
  %0 = stablehlo.add %a, %a : (tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  return
}

// -----
// add_c6
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, %b: tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) {
  // expected-error@+1 {{quantization_dimension of lhs and result are not same '!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00}>' vs '!quant.uniform<i8:f32:1, {1.000000e+00,2.000000e+00}>'}}
  %0 = stablehlo.add %a, %b : (tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>
  return
}

// -----
// add_c7
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, %b: tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) {
  // expected-error@+1 {{quantization_dimension of rhs and result are not same '!quant.uniform<i8:f32:1, {1.000000e+00,2.000000e+00}>' vs '!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00}>'}}
  %0 = stablehlo.add %a, %b : (tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  return
}

// -----
// per-tensor only ops reject per-axis types
func.func @f(%a: tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) {
  // expected-error@+1 {{'stablehlo.multiply' op operand #0 must be ranked tensor of non-quantized or per-tensor quantized values, but got 'tensor<2x!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00}>>'}}
  %0 = stablehlo.multiply %a, %a : tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  return
}

// -----
// dequantize_op_quantize needs one storage and expressed type
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  // expected-error@+1 {{'stablehlo.negate' op requires compatible element types for all operands and results}}
  %0 = stablehlo.negate %a : (tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x!quant.uniform<i16:f32, 1.0>>
  return
}

// -----
// reshape_c1 per-tensor
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0:3>>) {
  // expected-error@+1 {{expect same quantization scale and zero_point but got 'tensor<2x2x!quant.uniform<i8:f32, 1.000000e+00:3>>' vs 'tensor<4x!quant.uniform<i8:f32, 2.000000e+00:3>>'}}
  %0 = stablehlo.reshape %a : (tensor<2x2x!quant.uniform<i8:f32, 1.0:3>>) -> tensor<4x!quant.uniform<i8:f32, 2.0:3>>
  return
}

// -----
// reshape_c1 per-axis
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32:1, {1.0:3, 2.0:3}>>) {
  // expected-error@+1 {{expect same quantization scales and zero_points but got 'tensor<2x2x!quant.uniform<i8:f32:1, {1.000000e+00:3,2.000000e+00:3}>>' vs 'tensor<1x2x2x!quant.uniform<i8:f32:2, {1.000000e+00:3,3.000000e+00:3}>>'}}
  %0 = stablehlo.reshape %a : (tensor<2x2x!quant.uniform<i8:f32:1, {1.0:3, 2.0:3}>>) -> tensor<1x2x2x!quant.uniform<i8:f32:2, {1.0:3, 3.0:3}>>
  return
}

// -----
// reshape_c3 size of the quantized dimension: with static shapes, the type constraint C13 catches it first
func.func @f(%a: tensor<2x4x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) {
  // expected-error@+1 {{'stablehlo.reshape' op result #0 has 2 scales but its quantization dimension 0 has size 4, in 'tensor<4x2x!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00}>>'}}
  %0 = stablehlo.reshape %a : (tensor<2x4x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) -> tensor<4x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  return
}

// -----
// reshape_c3 product of the dimensions before it
func.func @f(%a: tensor<2x2x3x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) {
  // expected-error@+1 {{product of dimensions before quantization dimension must match between operand and result for 2 and 1}}
  %0 = stablehlo.reshape %a : (tensor<2x2x3x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) -> tensor<2x6x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  return
}

// -----
// transpose_c1
func.func @f(%a: tensor<1x2x2x!quant.uniform<i8:f32, 0.2:-30>>) {
  // expected-error@+1 {{expect same quantization scale and zero_point but got 'tensor<1x2x2x!quant.uniform<i8:f32, 2.000000e-01:-30>>' vs 'tensor<1x2x2x!quant.uniform<i8:f32, 1.000000e-01:-30>>'}}
  %0 = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<1x2x2x!quant.uniform<i8:f32, 0.2:-30>>) -> tensor<1x2x2x!quant.uniform<i8:f32, 0.1:-30>>
  return
}

// -----
// transpose_c4
func.func @f(%a: tensor<2x2x2x!quant.uniform<i8:f32:0, {0.1:-30, 0.1:-30}>>) {
  // expected-error@+1 {{operand quantization_dimension 0 is not same as permutation[1] = 2}}
  %0 = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<2x2x2x!quant.uniform<i8:f32:0, {0.1:-30, 0.1:-30}>>) -> tensor<2x2x2x!quant.uniform<i8:f32:1, {0.1:-30, 0.1:-30}>>
  return
}

// -----
// broadcast_in_dim_c6 axis
func.func @f(%a: tensor<1x2x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.1:-30}>>) {
  // expected-error@+1 {{result quantization_dimension 3 not same as broadcast_dimensions[2] = 2}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1, 2] : (tensor<1x2x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.1:-30}>>) -> tensor<1x2x2x2x!quant.uniform<i8:f32:3, {0.1:-30, 0.1:-30}>>
  return
}

// -----
// broadcast_in_dim_c6 scales of an expanded axis
func.func @f(%a: tensor<1x2x1x!quant.uniform<i8:f32:2, {0.1:-30}>>) {
  // expected-error@+1 {{mismatch result scale 0 (2.000000e-01) and operand scale 0 (1.000000e-01)}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1, 2] : (tensor<1x2x1x!quant.uniform<i8:f32:2, {0.1:-30}>>) -> tensor<1x2x2x!quant.uniform<i8:f32:2, {0.2:-30, 0.1:-30}>>
  return
}

// -----
// broadcast_in_dim_c6 zero points of an expanded axis
func.func @f(%a: tensor<1x2x1x!quant.uniform<i8:f32:2, {0.1:-30}>>) {
  // expected-error@+1 {{mismatch result zero_point 1 (-20) and operand zero_point 0 (-30)}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1, 2] : (tensor<1x2x1x!quant.uniform<i8:f32:2, {0.1:-30}>>) -> tensor<1x2x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.1:-20}>>
  return
}

// -----
// dot_general_c14
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2xf32>) {
  // expected-error@+1 {{rhs should be quantized for quantized operations and is_quantized(lhs)=is_quantized(result) should hold}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i32:f32, 1.0>>
  return
}

// -----
// dot_general_c15 per-tensor
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i8:f32, 1.0:3>>) {
  // expected-error@+1 {{Zero point of rhs should be 0}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i8:f32, 1.0:3>>) -> tensor<2x2x!quant.uniform<i32:f32, 1.0>>
  return
}

// -----
// dot_general_c15 per-axis
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i8:f32:1, {1.0:0, 1.0:2}>>) {
  // expected-error@+1 {{Zero points of rhs should be 0}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i8:f32:1, {1.0:0, 1.0:2}>>) -> tensor<2x2x!quant.uniform<i32:f32:1, {1.0, 1.0}>>
  return
}

// -----
// dot_general_c16
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 1.0}>>) {
  // expected-error@+1 {{Quantization dimension of rhs should not be in the contracting dimension of rhs}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 1.0}>>) -> tensor<2x2x!quant.uniform<i32:f32:1, {1.0, 1.0}>>
  return
}

// -----
// dot_general_c17
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i4:f32, 1.0>>) {
  // expected-error@+1 {{mismatched lhs and rhs quantization storage types}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i4:f32, 1.0>>) -> tensor<2x2x!quant.uniform<i32:f32, 1.0>>
  return
}

// -----
// dot_general_c18
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i8:f32, 1.0>>) {
  // expected-error@+1 {{mismatched lhs, rhs and result quantization expressed types}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2x!quant.uniform<i32:f16, 1.0>>
  return
}

// -----
// dot_general_c19
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i8:f32, 1.0>>) {
  // expected-error@+1 {{mismatched rhs and result quantization granularity}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2x!quant.uniform<i32:f32:1, {1.0, 1.0}>>
  return
}

// -----
// dot_general_c20 (hybrid)
func.func @f(%a: tensor<2x2xf16>, %b: tensor<2x2x!quant.uniform<i8:f32, 1.0>>) {
  // expected-error@+1 {{mismatched rhs quantization expressed type and lhs and result element type}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xf16>, tensor<2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2xf16>
  return
}

// -----
// dot_general: the lhs is per-tensor
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 1.0}>>, %b: tensor<2x2x!quant.uniform<i8:f32, 1.0>>) {
  // expected-error@+1 {{'stablehlo.dot_general' op operand #0 must be ranked tensor of non-quantized or per-tensor quantized values, but got 'tensor<2x2x!quant.uniform<i8:f32:0, {1.000000e+00,1.000000e+00}>>'}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 1.0}>>, tensor<2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2x!quant.uniform<i32:f32, 1.0>>
  return
}

// -----
// convolution_c29
func.func @f(%x: tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0>>, %k: tensor<3x3x1x2x!quant.uniform<i8:f32:2, {1.0}>>) {
  // expected-error@+1 {{quantization dimension of rhs should be same with kernel_output_feature_dimension}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0>>, tensor<3x3x1x2x!quant.uniform<i8:f32:2, {1.0}>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.0, 1.0}>>
  return
}

// -----
// convolution_c30
func.func @f(%x: tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0>>, %k: tensor<3x3x1x2x!quant.uniform<i8:f32:3, {1.0, 1.0}>>) {
  // expected-error@+1 {{quantization dimension of result should be same with output_feature_dimension}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0>>, tensor<3x3x1x2x!quant.uniform<i8:f32:3, {1.0, 1.0}>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:1, {1.0, 1.0}>>
  return
}

// -----
// convolution_c28
func.func @f(%x: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x2x!quant.uniform<i8:f32, 1.0>>) {
  // expected-error@+1 {{rhs should be quantized for quantized operations and is_quantized(lhs)=is_quantized(result) should hold}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32, 1.0>>
  return
}

// -----
// uniform_quantize_c2
func.func @f(%x: tensor<2xf64>) {
  // expected-error@+1 {{Expressed type of result expected to be 'f64', but got 'f32'}}
  %0 = stablehlo.uniform_quantize %x : (tensor<2xf64>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----
// uniform_dequantize_c2
func.func @f(%x: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  // expected-error@+1 {{'stablehlo.uniform_dequantize' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2xf64>'}}
  %0 = stablehlo.uniform_dequantize %x : (tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2xf64>
  return
}

// -----
// convert does not take quantized types
func.func @f(%x: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  // expected-error@+1 {{'stablehlo.convert' op operand #0 must be ranked tensor of non-quantized values, but got 'tensor<2x!quant.uniform<i8:f32, 1.000000e+00>>'}}
  %0 = stablehlo.convert %x : (tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2xf32>
  return
}

// -----
// reduce_c6: the body's argument must be promotable from the input (same expressed type)
func.func @f(%x: tensor<4x4x!quant.uniform<i8:f64, 2.0:15>>, %z: tensor<!quant.uniform<i8:f32, 2.0:15>>) {
  // expected-error@+1 {{The element-type of reduction-region's argument at index 1 is expected to be promotable from '!quant.uniform<i8:f64, 2.000000e+00:15>', but got '!quant.uniform<i16:f32, 2.000000e+00:15>'}}
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4x4x!quant.uniform<i8:f64, 2.0:15>>, tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<4x!quant.uniform<i16:f32, 2.0:15>>
   reducer(%a: tensor<!quant.uniform<i16:f32, 2.0:15>>, %b: tensor<!quant.uniform<i16:f32, 2.0:15>>)  {
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i16:f32, 2.0:15>>
    stablehlo.return %s : tensor<!quant.uniform<i16:f32, 2.0:15>>
  }
  return
}

// -----
// reduce_c6: no narrower accumulator than the init value
func.func @f(%x: tensor<4x4x!quant.uniform<i16:f32, 2.0:15>>, %z: tensor<!quant.uniform<i16:f32, 2.0:15>>) {
  // expected-error@+1 {{The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>' vs 'tensor<!quant.uniform<i16:f32, 2.000000e+00:15>>'}}
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4x4x!quant.uniform<i16:f32, 2.0:15>>, tensor<!quant.uniform<i16:f32, 2.0:15>>) -> tensor<4x!quant.uniform<i8:f32, 2.0:15>>
   reducer(%a: tensor<!quant.uniform<i8:f32, 2.0:15>>, %b: tensor<!quant.uniform<i8:f32, 2.0:15>>)  {
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i8:f32, 2.0:15>>
    stablehlo.return %s : tensor<!quant.uniform<i8:f32, 2.0:15>>
  }
  return
}

// -----
// reduce_c6: quantized input, non-quantized accumulator
func.func @f(%x: tensor<4x!quant.uniform<i8:f32, 2.0:15>>, %z: tensor<!quant.uniform<i8:f32, 2.0:15>>) {
  // expected-error@+1 {{The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<i32>' vs 'tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>'}}
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4x!quant.uniform<i8:f32, 2.0:15>>, tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<i32>
   reducer(%a: tensor<i32>, %b: tensor<i32>)  {
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }
  return
}

// -----
// reduce_c8: the result has the accumulator type
func.func @f(%x: tensor<4x4x!quant.uniform<i8:f32, 2.0:15>>, %z: tensor<!quant.uniform<i8:f32, 2.0:15>>) {
  // expected-error@+1 {{'stablehlo.reduce' op inferred type(s) 'tensor<4x!quant.uniform<i32:f32, 2.000000e+00:15>>' are incompatible with return type(s) of operation 'tensor<4x!quant.uniform<i8:f32, 2.000000e+00:15>>'}}
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4x4x!quant.uniform<i8:f32, 2.0:15>>, tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<4x!quant.uniform<i8:f32, 2.0:15>>
   reducer(%a: tensor<!quant.uniform<i32:f32, 2.0:15>>, %b: tensor<!quant.uniform<i32:f32, 2.0:15>>)  {
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i32:f32, 2.0:15>>
    stablehlo.return %s : tensor<!quant.uniform<i32:f32, 2.0:15>>
  }
  return
}

// -----
// reduce_window_c13
func.func @f(%x: tensor<4x!quant.uniform<i16:f32, 2.0:15>>, %z: tensor<!quant.uniform<i16:f32, 2.0:15>>) {
  // expected-error@+1 {{The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>' vs 'tensor<!quant.uniform<i16:f32, 2.000000e+00:15>>'}}
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 2.0:15>>, %b: tensor<!quant.uniform<i8:f32, 2.0:15>>):
    %m = stablehlo.maximum %a, %b : tensor<!quant.uniform<i8:f32, 2.0:15>>
    stablehlo.return %m : tensor<!quant.uniform<i8:f32, 2.0:15>>
  }) {window_dimensions = array<i64: 2>} : (tensor<4x!quant.uniform<i16:f32, 2.0:15>>, tensor<!quant.uniform<i16:f32, 2.0:15>>) -> tensor<3x!quant.uniform<i8:f32, 2.0:15>>
  return
}

// -----
// select_and_scatter_c10
func.func @f(%x: tensor<4x!quant.uniform<i8:f32, 2.0:15>>, %s: tensor<2x!quant.uniform<i8:f32, 2.0:15>>, %z: tensor<!quant.uniform<i8:f32, 2.0:15>>) {
  // expected-error@+1 {{The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<!quant.uniform<i32:f16, 2.000000e+00:15>>' vs 'tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>'}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 2.0:15>>, %b: tensor<!quant.uniform<i8:f32, 2.0:15>>):
    %c = stablehlo.compare  GE, %a, %b : (tensor<!quant.uniform<i8:f32, 2.0:15>>, tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<!quant.uniform<i32:f16, 2.0:15>>, %b: tensor<!quant.uniform<i32:f16, 2.0:15>>):
    %t = stablehlo.add %a, %b : tensor<!quant.uniform<i32:f16, 2.0:15>>
    stablehlo.return %t : tensor<!quant.uniform<i32:f16, 2.0:15>>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4x!quant.uniform<i8:f32, 2.0:15>>, tensor<2x!quant.uniform<i8:f32, 2.0:15>>, tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<4x!quant.uniform<i32:f16, 2.0:15>>
  return
}

// -----
// quantized constant: the literal holds storage integers
func.func @f() {
  // expected-error@+1 {{'stablehlo.constant' op inferred type(s) 'tensor<2xi16>' are incompatible with return type(s) of operation 'tensor<2x!quant.uniform<i8:f32, 2.000000e+00:15>>'}}
  %0 = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi16>}> : () -> tensor<2x!quant.uniform<i8:f32, 2.0:15>>
  return
}

// -----
// compact reduce form: the combiner must be a commutative binary stablehlo op
func.func @f(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error@+1 {{expected the inner-op to be a commutative binary-op from the stablehlo dialect, with zero region, producing single result}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.subtract across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return
}

// -----
// Element kinds (ODS constraints, shortened): no booleans for arithmetic that is not logic
func.func @f(%a: tensor<4xi1>) {
  // expected-error@+1 {{'stablehlo.negate' op operand #0 must be ranked tensor of integer (not i1), floating-point, complex or per-tensor integer quantized values, but got 'tensor<4xi1>'}}
  %0 = stablehlo.negate %a : tensor<4xi1>
  return
}

// -----
// Transcendental and rounding ops take floats (or quantized integers), not plain integers
func.func @f(%a: tensor<4xi32>) {
  // expected-error@+1 {{'stablehlo.sqrt' op operand #0 must be ranked tensor of floating-point, complex or per-tensor integer quantized values, but got 'tensor<4xi32>'}}
  %0 = stablehlo.sqrt %a : tensor<4xi32>
  return
}

// -----
// convolution: feature_group_count must be positive
func.func @f(%x: tensor<1x4x4x2xf32>, %k: tensor<3x3x2x2xf32>) {
  // expected-error@+1 {{expects feature_group_count to be a positive number, got 0.}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 0 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x4xf32>
  return
}

// -----
// convolution: batch_group_count must be positive
func.func @f(%x: tensor<1x4x4x2xf32>, %k: tensor<3x3x2x2xf32>) {
  // expected-error@+1 {{expects batch_group_count to be a positive number, got 0.}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 0 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x4xf32>
  return
}

// -----
// convolution: not both group counts above 1 (c13)
func.func @f(%x: tensor<2x4x4x4xf32>, %k: tensor<3x3x2x4xf32>) {
  // expected-error@+1 {{expects batch_group_count and feature_group_count not to be both greater than 1. Got 2 and 2 resp.}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<2x4x4x4xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  return
}

// -----
// convolution: kernel output features a multiple of batch_group_count (c15)
func.func @f(%x: tensor<2x4x4x2xf32>, %k: tensor<3x3x2x3xf32>) {
  // expected-error@+1 {{expects output feature dimension size (3) to be a multiple of batch_group_count. Got batch_group_count = 2.}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<2x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x4xf32>
  return
}

// -----
// convolution: kernel output features divisible by feature_group_count (c14)
func.func @f(%x: tensor<1x4x4x4xf32>, %k: tensor<3x3x2x3xf32>) {
  // expected-error@+1 {{expects kernel output feature dimension (3) to be divisible by feature_group_count. For feature_group_count = 2.}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x4xf32>
  return
}

// -----
// convolution: input features a multiple of feature_group_count (c11)
func.func @f(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x1x4xf32>) {
  // expected-error@+1 {{expects input feature dimension (3) to be a multiple of feature_group_count. Got feature_group_count = 2.}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x3xf32>, tensor<3x3x1x4xf32>) -> tensor<1x2x2x4xf32>
  return
}

// -----
// convolution: input batch divisible by batch_group_count (c10)
func.func @f(%x: tensor<3x4x4x2xf32>, %k: tensor<3x3x2x2xf32>) {
  // expected-error@+1 {{expects input batch dimension (3) to be divisible by batch_group_count. Got batch_group_count = 2.}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<3x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x4xf32>
  return
}

// -----
// convolution: input features / feature_group_count = kernel input features (c12)
func.func @f(%x: tensor<1x4x4x4xf32>, %k: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{expects input feature dimension (4) / feature_group_count = kernel input feature dimension (3). Got feature_group_count = 2.}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<3x3x3x4xf32>) -> tensor<1x2x2x4xf32>
  return
}

// -----
// quantized element types (spec "Types", C8): a zero point within [storage_min, storage_max]
func.func @f(%x: tensor<4xf32>) {
  // expected-error@+1 {{'stablehlo.uniform_quantize' op result #0 has zero point 300 outside the storage range [-128, 127] in 'tensor<4x!quant.uniform<i8:f32, 1.000000e+00:300>>'}}
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.0:300>>
  return
}

// -----
// C8 with a narrowed storage range
func.func @f(%x: tensor<4x!quant.uniform<i8<-8:7>:f32, 1.0:10>>) {
  // expected-error@+1 {{'stablehlo.uniform_dequantize' op operand #0 has zero point 10 outside the storage range [-8, 7] in 'tensor<4x!quant.uniform<i8<-8:7>:f32, 1.000000e+00:10>>'}}
  %0 = stablehlo.uniform_dequantize %x : (tensor<4x!quant.uniform<i8<-8:7>:f32, 1.0:10>>) -> tensor<4xf32>
  return
}

// -----
// quantized tensor types, C12: quantization_dimension < rank
func.func @f(%x: tensor<2x!quant.uniform<i8:f32:4, {0.5:3, 0.25:-1}>>) {
  // expected-error@+1 {{'stablehlo.broadcast_in_dim' op operand #0 has quantization dimension 4, which is out of range for rank 1, in 'tensor<2x!quant.uniform<i8:f32:4, {5.000000e-01:3,2.500000e-01:-1}>>'}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<2x!quant.uniform<i8:f32:4, {0.5:3, 0.25:-1}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.5:3, 0.25:-1}>>
  return
}

// -----
// C12 on a result
func.func @f(%x: tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.5, 0.5}>>) {
  // expected-error@+1 {{'stablehlo.reshape' op result #0 has quantization dimension 1, which is out of range for rank 1, in 'tensor<6x!quant.uniform<i8:f32:1, {5.000000e-01,5.000000e-01,5.000000e-01}>>'}}
  %0 = stablehlo.reshape %x : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.5, 0.5}>>) -> tensor<6x!quant.uniform<i8:f32:1, {0.5, 0.5, 0.5}>>
  return
}

// -----
// C13: one scale per slice of the quantized dimension
func.func @f(%x: tensor<4xf32>) {
  // expected-error@+1 {{'stablehlo.uniform_quantize' op result #0 has 2 scales but its quantization dimension 0 has size 4, in 'tensor<4x!quant.uniform<i8:f32:0, {5.000000e-01,5.000000e-01}>>'}}
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32:0, {0.5, 0.5}>>
  return
}

// -----
// storage widths: 2, 4, 8, 16 or 32 bits
func.func @f(%x: tensor<4xf32>) {
  // expected-error@+1 {{'stablehlo.uniform_quantize' op result #0 has storage width 3, expected one of 2, 4, 8, 16, 32, in 'tensor<4x!quant.uniform<i3:f32, 1.000000e+00>>'}}
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i3:f32, 1.0>>
  return
}

// -----
// bitcast_convert_c1: a narrower result adds an innermost dimension
func.func @f(%x: tensor<4xf32>) {
  // expected-error@+1 {{rank of smaller element type (1) should be 1 more than rank of larger element type (1), but 1 != 1 + 1.}}
  %0 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----
// bitcast_convert_c1: of size (larger width / smaller width)
func.func @f(%x: tensor<4xf32>) {
  // expected-error@+1 {{requires compatible bit widths. Got: 'tensor<4xf32>' and 'tensor<4x3xi8>', but 8 * 3 != 32.}}
  %0 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x3xi8>
  return
}

// -----
// bitcast_convert_c1: a wider result drops the innermost dimension, the others match
func.func @f(%x: tensor<4x2xf16>) {
  // expected-error@+1 {{operand and result shapes must match except for the innermost dimension of the shape with the smaller element type. Got: 'tensor<4x2xf16>' and 'tensor<5xf32>'.}}
  %0 = stablehlo.bitcast_convert %x : (tensor<4x2xf16>) -> tensor<5xf32>
  return
}

// -----
// broadcast_in_dim_c5: unique broadcast_dimensions
func.func @f(%x: tensor<1x4xf32>) {
  // expected-error@+1 {{broadcast_dimensions should not have duplicates, but [1, 1] contains 1 more than once}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [1, 1] : (tensor<1x4xf32>) -> tensor<4x4xf32>
  return
}

// -----
// gather_c1
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{offset_dims size (2) plus collapsed_slice_dims size (1) plus operand_batching_dims size (0) is not equal to operand rank (2)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c2
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{index_vector_dim 3 is out of bounds for start_indices rank 2, expected to be in [0, 2]}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c3: size(start_index_map) is the index vector size
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{start_index_map size (2) is not equal to the index vector size (1) of start_indices at index_vector_dim 1}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c4: unique offset_dims
func.func @f(%x: tensor<2x3x4xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{offset_dims [1, 1] contains dimension 1 more than once}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3, 4>}> : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x3x4xf32>
  return
}

// -----
// gather_c4: sorted offset_dims
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{offset_dims [2, 1] must be sorted in ascending order}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x1x3xf32>
  return
}

// -----
// gather_c5 (was a StopIteration)
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{offset_dims contains 9, which is out of bounds for result rank 2, expected to be in [0, 2)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [9], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c5, negative
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{offset_dims contains -1, which is out of bounds for result rank 2, expected to be in [0, 2)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [-1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c6: collapsed_slice_dims unique
func.func @f(%x: tensor<1x1x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{collapsed_slice_dims [0, 0] contains dimension 0 more than once}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<1x1x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c6: collapsed_slice_dims and operand_batching_dims disjoint
func.func @f(%x: tensor<2x1x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{collapsed_slice_dims [1] and operand_batching_dims [1] share dimension 1}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [1], start_indices_batching_dims = [0], start_index_map = [2], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<2x1x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c8 (was an IndexError)
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{collapsed_slice_dims contains 9, which is out of bounds for operand rank 2, expected to be in [0, 2)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [9], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c11: operand_batching_dims in range
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{operand_batching_dims contains 5, which is out of bounds for operand rank 2, expected to be in [0, 2)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], operand_batching_dims = [5], start_indices_batching_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c14: start_indices_batching_dims in range
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{start_indices_batching_dims contains 9, which is out of bounds for start_indices rank 2, expected to be in [0, 2)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [9], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c16
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{operand_batching_dims size (1) is not equal to start_indices_batching_dims size (0)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], operand_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c18: start_index_map unique
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x2xi32>) {
  // expected-error@+1 {{start_index_map [0, 0] contains dimension 0 more than once}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c19: start_index_map in range
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{start_index_map contains 7, which is out of bounds for operand rank 2, expected to be in [0, 2)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [7], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c19: negative
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{start_index_map contains -1, which is out of bounds for operand rank 2, expected to be in [0, 2)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [-1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather: start indices are integers
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xf32>) {
  // expected-error@+1 {{'stablehlo.gather' op operand #1 must be ranked tensor of integer values, but got 'tensor<2x1xf32>'}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return
}

// -----
// reduce: init values are rank-0 tensors
func.func @f(%x: tensor<2x3xf32>, %z: tensor<2xf32>) {
  // expected-error@+1 {{The shape of reduction-region's result type at index 0 differs from the op's corresponding init-value type: 'tensor<f32>' vs 'tensor<2xf32>'}}
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  return
}

// -----
// select_and_scatter: the init value is a rank-0 tensor
func.func @f(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<1xf32>) {
  // expected-error@+1 {{The shape of reduction-region's result type at index 0 differs from the op's corresponding init-value type: 'tensor<f32>' vs 'tensor<1xf32>'}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare  GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}

// -----
// select_and_scatter_c9: the select region returns a tensor<i1>
func.func @f(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) {
  // expected-error@+1 {{expects the return-type of select-region to be 'tensor<i1>', but got: 'tensor<f32>'}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----
// select_and_scatter_c10: the scatter body is promotable from the source
func.func @f(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<i32>) {
  // expected-error@+1 {{The element-type of reduction-region's argument at index 1 is expected to be promotable from 'f32', but got 'i32'}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare  GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xi32>
  return
}

// -----
// reduce_window_c13: the body is promotable from the input
func.func @f(%x: tensor<4xi32>, %z: tensor<i8>) {
  // expected-error@+1 {{The element-type of reduction-region's argument at index 1 is expected to be promotable from 'i32', but got 'i8'}}
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %m = stablehlo.maximum %a, %b : tensor<i8>
    stablehlo.return %m : tensor<i8>
  }) {window_dimensions = array<i64: 2>} : (tensor<4xi32>, tensor<i8>) -> tensor<3xi8>
  return
}

// -----
// reduce_window: window_dimensions is required
func.func @f(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error@+1 {{property 'window_dimensions' expected in operation 'stablehlo.reduce_window'}}
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----
// reduce_window: padding has shape [rank, 2]
func.func @f(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error@+1 {{expects the shape of padding-attribute to be {N, 2}, but got {4}.}}
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2>, padding = dense<[0, 0, 0, 1]> : tensor<4xi64>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c15: index_vector_dim is not a batching dimension of the start indices
func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{index_vector_dim 1 must not be in start_indices_batching_dims [1]}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return
}

// -----
// gather_c17: batching dimensions have equal sizes
func.func @f(%x: tensor<2x3x5xf32>, %i: tensor<2x4x1xi32>) {
  // expected-error@+1 {{operand dimension 0 (size 2) and start_indices dimension 1 (size 4) are batching dimensions of different sizes}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 5>}> : (tensor<2x3x5xf32>, tensor<2x4x1xi32>) -> tensor<2x4x5xf32>
  return
}

// -----
// compare_c3: compare_type matches the element type
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{compare_type SIGNED is not valid for element type 'f32', expected FLOAT or TOTALORDER}}
  %0 = stablehlo.compare  LT, %a, %b,  SIGNED : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----
// compare_c3: SIGNED is for signed integers
func.func @f(%a: tensor<4xui8>, %b: tensor<4xui8>) {
  // expected-error@+1 {{compare_type SIGNED is not valid for element type 'ui8', expected UNSIGNED}}
  %0 = stablehlo.compare  LT, %a, %b,  SIGNED : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  return
}

// -----
// dot_general_c11: one precision per operand
func.func @f(%x: tensor<2x3xf32>, %y: tensor<3x5xf32>) {
  // expected-error@+1 {{expects precision config to be empty or have 2 elements (lhs and rhs), but got 1: [DEFAULT]}}
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0], precision = [DEFAULT] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return
}

// -----
// convolution_c24: at most 2 precisions (upstream's message)
func.func @f(%x: tensor<1x5x2xf32>, %k: tensor<3x2x4xf32>) {
  // expected-error@+1 {{expects precision config to be empty or have <= 2 elements.}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>, #stablehlo<precision HIGH>]} : (tensor<1x5x2xf32>, tensor<3x2x4xf32>) -> tensor<1x3x4xf32>
  return
}

// -----
// convolution_c25: negative padding may not make the padded input negative
func.func @f(%x: tensor<1x5x2xf32>, %k: tensor<3x2x4xf32>) {
  // expected-error@+1 {{expects the padded size of input dimension 1 to be non-negative, but got -4 (dilated size 5, padding [-9, 0])}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[-9, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x2xf32>, tensor<3x2x4xf32>) -> tensor<1x0x4xf32>
  return
}

// -----
// reduce_window_c16: the same for reduce_window
func.func @f(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error@+1 {{expects the padded size of input dimension 1 to be non-negative, but got -1 (dilated size 3, padding [-5, 1])}}
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2>, padding = dense<[[0, 0], [-5, 1]]> : tensor<2x2xi64>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x0xf32>
  return
}

// -----
// custom_call @check.*: only the checks the interpreter runs
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{custom_call @check.foo is not a known check, expected one of @check.eq, @check.expect_eq, @check.expect_almost_eq, @check.expect_close}}
  stablehlo.custom_call @check.foo(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}

// -----
// custom_call @check.*: two operands (actual, expected)
func.func @f(%a: tensor<4xf32>) {
  // expected-error@+1 {{custom_call @check.eq expects 2 operands (actual, expected), got 1}}
  %0 = stablehlo.custom_call @check.eq(%a) : (tensor<4xf32>) -> tensor<i1>
  return
}

// -----
// custom_call @check.*: operands of one shape
func.func @f(%a: tensor<4xf32>, %c: tensor<3xf32>) {
  // expected-error@+1 {{custom_call @check.eq requires operands of the same shape and element type, got 'tensor<4xf32>' and 'tensor<3xf32>'}}
  %0 = stablehlo.custom_call @check.eq(%a, %c) : (tensor<4xf32>, tensor<3xf32>) -> tensor<i1>
  return
}

// -----
// custom_call @check.*: and one element type (a quantized operand counts as its expressed type)
func.func @f(%a: tensor<4xf32>, %c: tensor<4xi32>) {
  // expected-error@+1 {{custom_call @check.expect_eq requires operands of the same shape and element type, got 'tensor<4xf32>' and 'tensor<4xi32>'}}
  stablehlo.custom_call @check.expect_eq(%a, %c) : (tensor<4xf32>, tensor<4xi32>) -> ()
  return
}

// -----
// check.expect_close: actual and expected have one type
func.func @f(%a: tensor<4xf32>, %c: tensor<4xf64>) {
  // expected-error@+1 {{requires all operands to have the same type, got 'tensor<4xf32>' and 'tensor<4xf64>'}}
  "check.expect_close"(%a, %c) : (tensor<4xf32>, tensor<4xf64>) -> ()
  return
}
