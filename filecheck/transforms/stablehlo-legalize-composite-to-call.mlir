// RUN: xquant-opt %s -p stablehlo-legalize-composite-to-call | filecheck %s

// CHECK-LABEL: func.func @main
// CHECK-NEXT:  %[[R:.*]] = call @my.op.impl(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:  return %[[R]] : tensor<2xf32>
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.composite "my.op" %a {decomposition = @my.op.impl} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @my.op.impl(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.tanh %a : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
