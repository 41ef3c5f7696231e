// RUN: xquant-opt %s | filecheck %s
// RUN: xquant-opt %s | xquant-opt | filecheck %s

// CHECK-LABEL: func.func @unary
// CHECK-NEXT:  %0 = chlo.square %arg0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %1 = chlo.erf %0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %2 = chlo.erfc %1 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %3 = chlo.erf_inv %2 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %4 = chlo.acosh %3 : tensor<4xf32> -> tensor<4xf32>
func.func @unary(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.erf %0 : tensor<4xf32> -> tensor<4xf32>
  %2 = chlo.erfc %1 : tensor<4xf32> -> tensor<4xf32>
  %3 = chlo.erf_inv %2 : tensor<4xf32> -> tensor<4xf32>
  %4 = chlo.acosh %3 : tensor<4xf32> -> tensor<4xf32>
  func.return %4 : tensor<4xf32>
}

// CHECK-LABEL: func.func @top_k
// CHECK-NEXT:  %0:2 = chlo.top_k(%arg0, k = 3) : tensor<3x10xf32> -> (tensor<3x3xf32>, tensor<3x3xi32>)
// CHECK-NEXT:  %1:2 = chlo.top_k(%arg0, k = 2, is_stable = false) : tensor<3x10xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
func.func @top_k(%x: tensor<3x10xf32>) -> (tensor<3x3xf32>, tensor<3x2xi32>) {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<3x10xf32> -> (tensor<3x3xf32>, tensor<3x3xi32>)
  %v2, %i2 = chlo.top_k(%x, k = 2, is_stable = false) : tensor<3x10xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
  func.return %v, %i2 : tensor<3x3xf32>, tensor<3x2xi32>
}

// CHECK-LABEL: func.func @special
// CHECK-NEXT:  %0 = chlo.zeta %arg0, %arg1 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %1 = chlo.polygamma %arg0, %0 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %2 = chlo.next_after %1, %arg1 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %3 = chlo.bessel_i1e %2 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:  %4 = chlo.broadcast_zeta %3, %arg2 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:  %5 = chlo.is_inf %4 : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:  %6 = chlo.mulhi %arg3, %arg3 : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT:  %7 = "chlo.constant_like"(%arg0) <{value = 3.200000e+00 : f32}> : (tensor<4xf32>) -> tensor<4xf32>
func.func @special(%x: tensor<4xf32>, %q: tensor<4xf32>, %s: tensor<f32>, %i: tensor<4xi32>) -> tensor<4xi1> {
  %0 = chlo.zeta %x, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.polygamma %x, %0 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %2 = chlo.next_after %1, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %3 = chlo.bessel_i1e %2 : tensor<4xf32> -> tensor<4xf32>
  %4 = chlo.broadcast_zeta %3, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %5 = chlo.is_inf %4 : tensor<4xf32> -> tensor<4xi1>
  %6 = "chlo.mulhi"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %7 = "chlo.constant_like"(%x) {value = 3.2 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %5 : tensor<4xi1>
}

// CHECK-LABEL: func.func @ragged_dot
// CHECK-NEXT:  %0 = "chlo.ragged_dot"(%arg0, %arg1, %arg2) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi32>) -> tensor<11x7xf32>
func.func @ragged_dot(%l: tensor<11x5xf32>, %r: tensor<3x5x7xf32>, %g: tensor<3xi32>) -> tensor<11x7xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<rhs_group_dimensions = [0], lhs_ragged_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>,
    precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]
  } : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi32>) -> tensor<11x7xf32>
  func.return %0 : tensor<11x7xf32>
}

// CHECK-LABEL: func.func @scan
// CHECK-NEXT:  %0:2 = chlo.scan(%arg0) inits (%arg1) dimension=0 attributes {is_reverse = true} {
// CHECK-NEXT:  ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
// CHECK-NEXT:    %1 = stablehlo.add %arg2, %arg3 : tensor<i32>
// CHECK-NEXT:    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
// CHECK-NEXT:  } : (tensor<2xi32>, tensor<i32>) -> (tensor<2xi32>, tensor<i32>)
func.func @scan(%arg0: tensor<2xi32>, %arg1: tensor<i32>) -> (tensor<2xi32>, tensor<i32>) {
  %0:2 = chlo.scan(%arg0) inits(%arg1) dimension=0 attributes {is_reverse = true} {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  } : (tensor<2xi32>, tensor<i32>) -> (tensor<2xi32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<2xi32>, tensor<i32>
}
