// RUN: XQUANT_INVALID
// Every quantization constraint of the StableHLO subset, with its (upstream) message.

// add_c2
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2xf32>) {
  %0 = stablehlo.add %a, %b : (tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}
// CHECK: expects  all operands and results to be either quantized or non-quantized

// -----
// add_c3
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x!quant.uniform<i16:f32, 1.0>>) {
  %0 = stablehlo.add %a, %b : (tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<2x!quant.uniform<i16:f32, 1.0>>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}
// CHECK: mismatched operands and result quantization storage types

// -----
// add_c4
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x!quant.uniform<i8:f16, 1.0>>) {
  %0 = stablehlo.add %a, %b : (tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<2x!quant.uniform<i8:f16, 1.0>>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}
// CHECK: mismatched operands and result quantization expressed types

// -----
// add_c5
func.func @f(%a: tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, %b: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  %0 = stablehlo.add %a, %b : (tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}
// CHECK: result is not per_axis quantized but lhs or rhs are

// -----
// add_c5 (result per-axis alone)
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  %0 = stablehlo.add %a, %a : (tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  return
}
// CHECK: result per_axis quantized but none from rhs and lhs are per_axis quantized

// -----
// add_c6
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, %b: tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) {
  %0 = stablehlo.add %a, %b : (tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>
  return
}
// CHECK: quantization_dimension of lhs and result are not same '!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00}>' vs '!quant.uniform<i8:f32:1, {1.000000e+00,2.000000e+00}>'

// -----
// add_c7
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, %b: tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) {
  %0 = stablehlo.add %a, %b : (tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  return
}
// CHECK: quantization_dimension of rhs and result are not same '!quant.uniform<i8:f32:1, {1.000000e+00,2.000000e+00}>' vs '!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00}>'

// -----
// per-tensor only ops reject per-axis types
func.func @f(%a: tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) {
  %0 = stablehlo.multiply %a, %a : tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  return
}
// CHECK: 'stablehlo.multiply' op operand #0 must be ranked tensor of non-quantized or per-tensor quantized values, but got 'tensor<2x!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00}>>'

// -----
// dequantize_op_quantize needs one storage and expressed type
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  %0 = stablehlo.negate %a : (tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x!quant.uniform<i16:f32, 1.0>>
  return
}
// CHECK: 'stablehlo.negate' op requires compatible element types for all operands and results

// -----
// reshape_c1 per-tensor
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0:3>>) {
  %0 = stablehlo.reshape %a : (tensor<2x2x!quant.uniform<i8:f32, 1.0:3>>) -> tensor<4x!quant.uniform<i8:f32, 2.0:3>>
  return
}
// CHECK: expect same quantization scale and zero_point but got 'tensor<2x2x!quant.uniform<i8:f32, 1.000000e+00:3>>' vs 'tensor<4x!quant.uniform<i8:f32, 2.000000e+00:3>>'

// -----
// reshape_c1 per-axis
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32:1, {1.0:3, 2.0:3}>>) {
  %0 = stablehlo.reshape %a : (tensor<2x2x!quant.uniform<i8:f32:1, {1.0:3, 2.0:3}>>) -> tensor<1x2x2x!quant.uniform<i8:f32:2, {1.0:3, 3.0:3}>>
  return
}
// CHECK: expect same quantization scales and zero_points but got 'tensor<2x2x!quant.uniform<i8:f32:1, {1.000000e+00:3,2.000000e+00:3}>>' vs 'tensor<1x2x2x!quant.uniform<i8:f32:2, {1.000000e+00:3,3.000000e+00:3}>>'

// -----
// reshape_c3 size of the quantized dimension
func.func @f(%a: tensor<2x4x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) {
  %0 = stablehlo.reshape %a : (tensor<2x4x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) -> tensor<4x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  return
}
// CHECK: expect same quantization dimension size for operand and result 'tensor<2x4x!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00}>>' and 'tensor<4x2x!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00}>>'

// -----
// reshape_c3 product of the dimensions before it
func.func @f(%a: tensor<2x2x3x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) {
  %0 = stablehlo.reshape %a : (tensor<2x2x3x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) -> tensor<2x6x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  return
}
// CHECK: product of dimensions before quantization dimension must match between operand and result for 2 and 1

// -----
// transpose_c1
func.func @f(%a: tensor<1x2x2x!quant.uniform<i8:f32, 0.2:-30>>) {
  %0 = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<1x2x2x!quant.uniform<i8:f32, 0.2:-30>>) -> tensor<1x2x2x!quant.uniform<i8:f32, 0.1:-30>>
  return
}
// CHECK: expect same quantization scale and zero_point but got 'tensor<1x2x2x!quant.uniform<i8:f32, 2.000000e-01:-30>>' vs 'tensor<1x2x2x!quant.uniform<i8:f32, 1.000000e-01:-30>>'

// -----
// transpose_c4
func.func @f(%a: tensor<1x2x2x!quant.uniform<i8:f32:0, {0.1:-30}>>) {
  %0 = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<1x2x2x!quant.uniform<i8:f32:0, {0.1:-30}>>) -> tensor<1x2x2x!quant.uniform<i8:f32:1, {0.1:-30}>>
  return
}
// CHECK: operand quantization_dimension 0 is not same as permutation[1] = 2

// -----
// broadcast_in_dim_c6 axis
func.func @f(%a: tensor<1x2x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.1:-30}>>) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1, 2] : (tensor<1x2x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.1:-30}>>) -> tensor<1x2x2x2x!quant.uniform<i8:f32:3, {0.1:-30, 0.1:-30}>>
  return
}
// CHECK: result quantization_dimension 3 not same as broadcast_dimensions[2] = 2

// -----
// broadcast_in_dim_c6 scales of an expanded axis
func.func @f(%a: tensor<1x2x1x!quant.uniform<i8:f32:2, {0.1:-30}>>) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1, 2] : (tensor<1x2x1x!quant.uniform<i8:f32:2, {0.1:-30}>>) -> tensor<1x2x2x!quant.uniform<i8:f32:2, {0.2:-30, 0.1:-30}>>
  return
}
// CHECK: mismatch result scale 0 (2.000000e-01) and operand scale 0 (1.000000e-01)

// -----
// broadcast_in_dim_c6 zero points of an expanded axis
func.func @f(%a: tensor<1x2x1x!quant.uniform<i8:f32:2, {0.1:-30}>>) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1, 2] : (tensor<1x2x1x!quant.uniform<i8:f32:2, {0.1:-30}>>) -> tensor<1x2x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.1:-20}>>
  return
}
// CHECK: mismatch result zero_point 1 (-20) and operand zero_point 0 (-30)

// -----
// dot_general_c14
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i32:f32, 1.0>>
  return
}
// CHECK: rhs should be quantized for quantized operations and is_quantized(lhs)=is_quantized(result) should hold

// -----
// dot_general_c15 per-tensor
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i8:f32, 1.0:3>>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i8:f32, 1.0:3>>) -> tensor<2x2x!quant.uniform<i32:f32, 1.0>>
  return
}
// CHECK: Zero point of rhs should be 0

// -----
// dot_general_c15 per-axis
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i8:f32:1, {1.0:0, 1.0:2}>>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i8:f32:1, {1.0:0, 1.0:2}>>) -> tensor<2x2x!quant.uniform<i32:f32:1, {1.0, 1.0}>>
  return
}
// CHECK: Zero points of rhs should be 0

// -----
// dot_general_c16
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 1.0}>>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 1.0}>>) -> tensor<2x2x!quant.uniform<i32:f32:1, {1.0, 1.0}>>
  return
}
// CHECK: Quantization dimension of rhs should not be in the contracting dimension of rhs

// -----
// dot_general_c17
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i4:f32, 1.0>>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i4:f32, 1.0>>) -> tensor<2x2x!quant.uniform<i32:f32, 1.0>>
  return
}
// CHECK: mismatched lhs and rhs quantization storage types

// -----
// dot_general_c18
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i8:f32, 1.0>>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2x!quant.uniform<i32:f16, 1.0>>
  return
}
// CHECK: mismatched lhs, rhs and result quantization expressed types

// -----
// dot_general_c19
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 1.0>>, %b: tensor<2x2x!quant.uniform<i8:f32, 1.0>>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2x!quant.uniform<i32:f32:1, {1.0, 1.0}>>
  return
}
// CHECK: mismatched rhs and result quantization granularity

// -----
// dot_general_c20 (hybrid)
func.func @f(%a: tensor<2x2xf16>, %b: tensor<2x2x!quant.uniform<i8:f32, 1.0>>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xf16>, tensor<2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2xf16>
  return
}
// CHECK: mismatched rhs quantization expressed type and lhs and result element type

// -----
// dot_general: the lhs is per-tensor
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 1.0}>>, %b: tensor<2x2x!quant.uniform<i8:f32, 1.0>>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 1.0}>>, tensor<2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2x!quant.uniform<i32:f32, 1.0>>
  return
}
// CHECK: 'stablehlo.dot_general' op operand #0 must be ranked tensor of non-quantized or per-tensor quantized values, but got 'tensor<2x2x!quant.uniform<i8:f32:0, {1.000000e+00,1.000000e+00}>>'

// -----
// convolution_c29
func.func @f(%x: tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0>>, %k: tensor<3x3x1x2x!quant.uniform<i8:f32:2, {1.0}>>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0>>, tensor<3x3x1x2x!quant.uniform<i8:f32:2, {1.0}>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.0, 1.0}>>
  return
}
// CHECK: quantization dimension of rhs should be same with kernel_output_feature_dimension

// -----
// convolution_c30
func.func @f(%x: tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0>>, %k: tensor<3x3x1x2x!quant.uniform<i8:f32:3, {1.0, 1.0}>>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0>>, tensor<3x3x1x2x!quant.uniform<i8:f32:3, {1.0, 1.0}>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:1, {1.0, 1.0}>>
  return
}
// CHECK: quantization dimension of result should be same with output_feature_dimension

// -----
// convolution_c28
func.func @f(%x: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x2x!quant.uniform<i8:f32, 1.0>>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32, 1.0>>
  return
}
// CHECK: rhs should be quantized for quantized operations and is_quantized(lhs)=is_quantized(result) should hold

// -----
// uniform_quantize_c2
func.func @f(%x: tensor<2xf64>) {
  %0 = stablehlo.uniform_quantize %x : (tensor<2xf64>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}
// CHECK: Expressed type of result expected to be 'f64', but got 'f32'

// -----
// uniform_dequantize_c2
func.func @f(%x: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  %0 = stablehlo.uniform_dequantize %x : (tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2xf64>
  return
}
// CHECK: 'stablehlo.uniform_dequantize' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2xf64>'

// -----
// convert does not take quantized types
func.func @f(%x: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  %0 = stablehlo.convert %x : (tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2xf32>
  return
}
// CHECK: 'stablehlo.convert' op operand #0 must be ranked tensor of non-quantized values, but got 'tensor<2x!quant.uniform<i8:f32, 1.000000e+00>>'

// -----
// reduce_c6: the body's argument must be promotable from the input (same expressed type)
func.func @f(%x: tensor<4x4x!quant.uniform<i8:f64, 2.0:15>>, %z: tensor<!quant.uniform<i8:f32, 2.0:15>>) {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4x4x!quant.uniform<i8:f64, 2.0:15>>, tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<4x!quant.uniform<i16:f32, 2.0:15>>
   reducer(%a: tensor<!quant.uniform<i16:f32, 2.0:15>>, %b: tensor<!quant.uniform<i16:f32, 2.0:15>>)  {
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i16:f32, 2.0:15>>
    stablehlo.return %s : tensor<!quant.uniform<i16:f32, 2.0:15>>
  }
  return
}
// CHECK: The element-type of reduction-region's argument at index 1 is expected to be promotable from '!quant.uniform<i8:f64, 2.000000e+00:15>', but got '!quant.uniform<i16:f32, 2.000000e+00:15>'

// -----
// reduce_c6: no narrower accumulator than the init value
func.func @f(%x: tensor<4x4x!quant.uniform<i16:f32, 2.0:15>>, %z: tensor<!quant.uniform<i16:f32, 2.0:15>>) {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4x4x!quant.uniform<i16:f32, 2.0:15>>, tensor<!quant.uniform<i16:f32, 2.0:15>>) -> tensor<4x!quant.uniform<i8:f32, 2.0:15>>
   reducer(%a: tensor<!quant.uniform<i8:f32, 2.0:15>>, %b: tensor<!quant.uniform<i8:f32, 2.0:15>>)  {
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i8:f32, 2.0:15>>
    stablehlo.return %s : tensor<!quant.uniform<i8:f32, 2.0:15>>
  }
  return
}
// CHECK: The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>' vs 'tensor<!quant.uniform<i16:f32, 2.000000e+00:15>>'

// -----
// reduce_c6: quantized input, non-quantized accumulator
func.func @f(%x: tensor<4x!quant.uniform<i8:f32, 2.0:15>>, %z: tensor<!quant.uniform<i8:f32, 2.0:15>>) {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4x!quant.uniform<i8:f32, 2.0:15>>, tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<i32>
   reducer(%a: tensor<i32>, %b: tensor<i32>)  {
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }
  return
}
// CHECK: The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<i32>' vs 'tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>'

// -----
// reduce_c8: the result has the accumulator type
func.func @f(%x: tensor<4x4x!quant.uniform<i8:f32, 2.0:15>>, %z: tensor<!quant.uniform<i8:f32, 2.0:15>>) {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4x4x!quant.uniform<i8:f32, 2.0:15>>, tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<4x!quant.uniform<i8:f32, 2.0:15>>
   reducer(%a: tensor<!quant.uniform<i32:f32, 2.0:15>>, %b: tensor<!quant.uniform<i32:f32, 2.0:15>>)  {
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i32:f32, 2.0:15>>
    stablehlo.return %s : tensor<!quant.uniform<i32:f32, 2.0:15>>
  }
  return
}
// CHECK: 'stablehlo.reduce' op inferred type(s) 'tensor<4x!quant.uniform<i32:f32, 2.000000e+00:15>>' are incompatible with return type(s) of operation 'tensor<4x!quant.uniform<i8:f32, 2.000000e+00:15>>'

// -----
// reduce_window_c13
func.func @f(%x: tensor<4x!quant.uniform<i16:f32, 2.0:15>>, %z: tensor<!quant.uniform<i16:f32, 2.0:15>>) {
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 2.0:15>>, %b: tensor<!quant.uniform<i8:f32, 2.0:15>>):
    %m = stablehlo.maximum %a, %b : tensor<!quant.uniform<i8:f32, 2.0:15>>
    stablehlo.return %m : tensor<!quant.uniform<i8:f32, 2.0:15>>
  }) {window_dimensions = array<i64: 2>} : (tensor<4x!quant.uniform<i16:f32, 2.0:15>>, tensor<!quant.uniform<i16:f32, 2.0:15>>) -> tensor<3x!quant.uniform<i8:f32, 2.0:15>>
  return
}
// CHECK: The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>' vs 'tensor<!quant.uniform<i16:f32, 2.000000e+00:15>>'

// -----
// select_and_scatter_c10
func.func @f(%x: tensor<4x!quant.uniform<i8:f32, 2.0:15>>, %s: tensor<2x!quant.uniform<i8:f32, 2.0:15>>, %z: tensor<!quant.uniform<i8:f32, 2.0:15>>) {
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
// CHECK: The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<!quant.uniform<i32:f16, 2.000000e+00:15>>' vs 'tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>'

// -----
// quantized constant: the literal holds storage integers
func.func @f() {
  %0 = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi16>}> : () -> tensor<2x!quant.uniform<i8:f32, 2.0:15>>
  return
}
// CHECK: 'stablehlo.constant' op inferred type(s) 'tensor<2xi16>' are incompatible with return type(s) of operation 'tensor<2x!quant.uniform<i8:f32, 2.000000e+00:15>>'

// -----
// compact reduce form: the combiner must be a commutative binary stablehlo op
func.func @f(%x: tensor<4xf32>, %z: tensor<f32>) {
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.subtract across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return
}
// CHECK: expected the inner-op to be a commutative binary-op from the stablehlo dialect, with zero region, producing single result

// -----
// Element kinds (ODS constraints, shortened): no booleans for arithmetic that is not logic
func.func @f(%a: tensor<4xi1>) {
  %0 = stablehlo.negate %a : tensor<4xi1>
  return
}
// CHECK: 'stablehlo.negate' op operand #0 must be ranked tensor of integer (not i1), floating-point, complex or per-tensor integer quantized values, but got 'tensor<4xi1>'

// -----
// Transcendental and rounding ops take floats (or quantized integers), not plain integers
func.func @f(%a: tensor<4xi32>) {
  %0 = stablehlo.sqrt %a : tensor<4xi32>
  return
}
// CHECK: 'stablehlo.sqrt' op operand #0 must be ranked tensor of floating-point, complex or per-tensor integer quantized values, but got 'tensor<4xi32>'

// -----
// convolution: feature_group_count must be positive
func.func @f(%x: tensor<1x4x4x2xf32>, %k: tensor<3x3x2x2xf32>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 0 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x4xf32>
  return
}
// CHECK: expects feature_group_count to be a positive number, got 0.

// -----
// convolution: batch_group_count must be positive
func.func @f(%x: tensor<1x4x4x2xf32>, %k: tensor<3x3x2x2xf32>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 0 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x4xf32>
  return
}
// CHECK: expects batch_group_count to be a positive number, got 0.

// -----
// convolution: not both group counts above 1 (c13)
func.func @f(%x: tensor<2x4x4x4xf32>, %k: tensor<3x3x2x4xf32>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<2x4x4x4xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  return
}
// CHECK: expects batch_group_count and feature_group_count not to be both greater than 1. Got 2 and 2 resp.

// -----
// convolution: kernel output features a multiple of batch_group_count (c15)
func.func @f(%x: tensor<2x4x4x2xf32>, %k: tensor<3x3x2x3xf32>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<2x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x4xf32>
  return
}
// CHECK: expects output feature dimension size (3) to be a multiple of batch_group_count. Got batch_group_count = 2.

// -----
// convolution: kernel output features divisible by feature_group_count (c14)
func.func @f(%x: tensor<1x4x4x4xf32>, %k: tensor<3x3x2x3xf32>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x4xf32>
  return
}
// CHECK: expects kernel output feature dimension (3) to be divisible by feature_group_count. For feature_group_count = 2.

// -----
// convolution: input features a multiple of feature_group_count (c11)
func.func @f(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x1x4xf32>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x3xf32>, tensor<3x3x1x4xf32>) -> tensor<1x2x2x4xf32>
  return
}
// CHECK: expects input feature dimension (3) to be a multiple of feature_group_count. Got feature_group_count = 2.

// -----
// convolution: input batch divisible by batch_group_count (c10)
func.func @f(%x: tensor<3x4x4x2xf32>, %k: tensor<3x3x2x2xf32>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<3x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x4xf32>
  return
}
// CHECK: expects input batch dimension (3) to be divisible by batch_group_count. Got batch_group_count = 2.

// -----
// convolution: input features / feature_group_count = kernel input features (c12)
func.func @f(%x: tensor<1x4x4x4xf32>, %k: tensor<3x3x3x4xf32>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<3x3x3x4xf32>) -> tensor<1x2x2x4xf32>
  return
}
// CHECK: expects input feature dimension (4) / feature_group_count = kernel input feature dimension (3). Got feature_group_count = 2.
