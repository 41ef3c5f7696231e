// RUN: xquant-opt %s -p stablehlo-legalize-control-flow | filecheck %s
// The cases of IREE's legalize_control_flow.mlir that do not use scf.for or stablehlo.if.

// CHECK-LABEL: func.func @while
// CHECK:       %[[R:.*]] = scf.while (%[[A:.*]] = %arg0) : (tensor<i64>) -> tensor<i64> {
// CHECK-NEXT:    %[[C:.*]] = stablehlo.compare LT, %[[A]], %[[A]] : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:    %[[E:.*]] = tensor.extract %[[C]][] : tensor<i1>
// CHECK-NEXT:    scf.condition(%[[E]]) %[[A]] : tensor<i64>
// CHECK-NEXT:  } do {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: tensor<i64>):
// CHECK-NEXT:    %[[S:.*]] = stablehlo.add %[[B]], %[[B]] : tensor<i64>
// CHECK-NEXT:    scf.yield %[[S]] : tensor<i64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[R]] : tensor<i64>
func.func @while(%arg0: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<i64>
  cond {
    %1 = stablehlo.compare LT, %iterArg, %iterArg : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg : tensor<i64>
    stablehlo.return %1 : tensor<i64>
  }
  func.return %0 : tensor<i64>
}

// CHECK-LABEL: func.func @case3
// CHECK:       %[[C0:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:  %[[P0:.*]] = stablehlo.compare EQ, %arg0, %[[C0]] : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:  %[[E0:.*]] = tensor.extract %[[P0]][] : tensor<i1>
// CHECK-NEXT:  %[[R:.*]] = scf.if %[[E0]] -> (tensor<4xf32>) {
// CHECK-NEXT:    %[[L:.*]] = stablehlo.log %arg1 : tensor<4xf32>
// CHECK-NEXT:    scf.yield %[[L]] : tensor<4xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:    %[[C1:.*]] = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:    %[[P1:.*]] = stablehlo.compare EQ, %arg0, %[[C1]] : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:    %[[E1:.*]] = tensor.extract %[[P1]][] : tensor<i1>
// CHECK-NEXT:    %[[I:.*]] = scf.if %[[E1]] -> (tensor<4xf32>) {
// CHECK-NEXT:      %[[X:.*]] = stablehlo.exponential %arg2 : tensor<4xf32>
// CHECK-NEXT:      scf.yield %[[X]] : tensor<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[F:.*]] = stablehlo.floor %arg3 : tensor<4xf32>
// CHECK-NEXT:      scf.yield %[[F]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.yield %[[I]] : tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[R]] : tensor<4xf32>
func.func @case3(%arg0 : tensor<i32>, %arg1 : tensor<4xf32>, %arg2 : tensor<4xf32>, %arg3 : tensor<4xf32>) -> tensor<4xf32> {
  %1 = "stablehlo.case"(%arg0) ({
      %2 = stablehlo.log %arg1 : (tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%2) : (tensor<4xf32>) -> ()
  }, {
      %3 = stablehlo.exponential %arg2 : (tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%3) : (tensor<4xf32>) -> ()
  }, {
      %3 = stablehlo.floor %arg3 : (tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%3) : (tensor<4xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// A case of one branch is inlined.
// CHECK-LABEL: func.func @case0
// CHECK-NEXT:  %[[L:.*]] = stablehlo.log %arg1 : tensor<4xf32>
// CHECK-NEXT:  return %[[L]] : tensor<4xf32>
func.func @case0(%arg0 : tensor<i32>, %arg1 : tensor<4xf32>) -> tensor<4xf32> {
  %1 = "stablehlo.case"(%arg0) ({
      %2 = stablehlo.log %arg1 : (tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%2) : (tensor<4xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
