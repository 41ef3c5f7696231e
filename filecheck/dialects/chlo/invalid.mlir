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

// -----

func.func @constant_like_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'chlo.constant_like' op value's type doesn't match element return type}}
  %0 = "chlo.constant_like"(%x) {value = 3 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @ragged_dot_two_ragged(%l: tensor<11x5xf32>, %r: tensor<3x5x7xf32>, %g: tensor<3xi32>) -> tensor<11x7xf32> {
  // expected-error@+1 {{There must be exactly one ragged dimension in the lhs.}}
  %0 = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0, 1], rhs_group_dimensions = [0]>
  } : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi32>) -> tensor<11x7xf32>
  func.return %0 : tensor<11x7xf32>
}

// -----

func.func @zeta_types(%x: tensor<4xf32>, %q: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error@+1 {{'chlo.zeta' op requires compatible types for all operands and results}}
  %0 = chlo.zeta %x, %q : tensor<4xf32>, tensor<4xf16> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @ragged_dot_no_group(%l: tensor<11x5xf32>, %r: tensor<5x7xf32>, %g: tensor<3xi32>) -> tensor<11x7xf32> {
  // expected-error@+1 {{There must be exactly one group dimension in the rhs when the lhs ragged dimension is non-contracting.}}
  %0 = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [0]>
  } : (tensor<11x5xf32>, tensor<5x7xf32>, tensor<3xi32>) -> tensor<11x7xf32>
  func.return %0 : tensor<11x7xf32>
}

// -----

func.func @scan_body_args(%arg0: tensor<2xi32>, %arg1: tensor<i32>) -> (tensor<2xi32>, tensor<i32>) {
  // expected-error@+1 {{'chlo.scan' op expects 2 arguments in the body, but got 1}}
  %0:2 = chlo.scan(%arg0) inits(%arg1) dimension=0 {
  ^bb0(%a: tensor<i32>):
    stablehlo.return %a, %a : tensor<i32>, tensor<i32>
  } : (tensor<2xi32>, tensor<i32>) -> (tensor<2xi32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<2xi32>, tensor<i32>
}
