// RUN: xquant-opt %s -split-input-file -verify-diagnostics

func.func @erf_element_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error@+1 {{'chlo.erf' op requires the same element type for all operands and results}}
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf16>
  func.return %0 : tensor<4xf16>
}

// -----

func.func @top_k_too_big(%x: tensor<3x2xf32>) -> tensor<3x3xf32> {
  // expected-error@+1 {{'chlo.top_k' op operand's last dimension must be at least 3, but got 2}}
  %v, %i = chlo.top_k(%x, k = 3) : tensor<3x2xf32> -> (tensor<3x3xf32>, tensor<3x3xi32>)
  func.return %v : tensor<3x3xf32>
}

// -----

func.func @case_branch_args(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{branch 0 must have 0 arguments, but found 1}}
  %0 = "stablehlo.case"(%i) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
