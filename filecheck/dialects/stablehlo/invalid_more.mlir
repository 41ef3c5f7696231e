// RUN: xquant-opt %s -split-input-file -verify-diagnostics
// Verifier messages of the ops beyond the quantized subset.

func.func @and_quantized(%a: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  // expected-error@+1 {{'stablehlo.and' op operand #0 must be ranked tensor of pred (AKA boolean or 1-bit integer) or 2/4/8/16/32/64-bit integer values, but got 'tensor<2x!quant.uniform<i8:f32, 1.000000e+00>>'}}
  %0 = stablehlo.and %a, %a : tensor<2x!quant.uniform<i8:f32, 1.0>>
  func.return
}

// -----

func.func @pad_zero_point(%a: tensor<2x!quant.uniform<i8:f32, 1.0:1>>, %v: tensor<!quant.uniform<i8:f32, 1.0:2>>) {
  // expected-error@+1 {{expect same quantization scale and zero_point but got 'tensor<2x!quant.uniform<i8:f32, 1.000000e+00:1>>' vs 'tensor<!quant.uniform<i8:f32, 1.000000e+00:2>>'}}
  %0 = stablehlo.pad %a, %v, low = [1], high = [0], interior = [0] : (tensor<2x!quant.uniform<i8:f32, 1.0:1>>, tensor<!quant.uniform<i8:f32, 1.0:2>>) -> tensor<3x!quant.uniform<i8:f32, 1.0:1>>
  func.return
}

// -----

func.func @dynamic_slice_too_big(%a: tensor<3x4xf32>, %i: tensor<i64>) {
  // expected-error@+1 {{has slice size 5 greater than dimension size 4 in dimension 1 of operand}}
  %0 = stablehlo.dynamic_slice %a, %i, %i, sizes = [1, 5] : (tensor<3x4xf32>, tensor<i64>, tensor<i64>) -> tensor<1x5xf32>
  func.return
}

// -----

func.func @while_cond(%a: tensor<i32>) {
  // expected-error@+1 {{expect condition block return a zero-ranked tensor of i1 but got 'tensor<i32>'}}
  %0 = stablehlo.while(%x = %a) : tensor<i32>
  cond {
    stablehlo.return %x : tensor<i32>
  } do {
    stablehlo.return %x : tensor<i32>
  }
  func.return
}

// -----

func.func @get_dimension_size(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{requires dimension attribute in range [0, 2); found (2)}}
  %0 = stablehlo.get_dimension_size %a, dim = 2 : (tensor<3x4xf32>) -> tensor<i32>
  func.return
}
