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
