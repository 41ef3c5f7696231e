// RUN: xquant-opt %s --split-input-file | xquant-opt --split-input-file | filecheck %s
// RUN: xquant-opt %s --mlir-print-op-generic --split-input-file | xquant-opt --split-input-file | filecheck %s
// xquant-opt, not xdsl-opt: these use no xquant dialect, so stock xdsl-opt does not load xquant's fixes to xDSL.
// linalg.div and linalg.batch_matmul, which xquant adds to xDSL's linalg.

// CHECK: %{{.*}} = linalg.div ins(%{{.*}}, %{{.*}} : tensor<6xi32>, tensor<6xi32>) outs(%{{.*}} : tensor<6xi32>) -> tensor<6xi32>
// CHECK: %{{.*}} = linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%{{.*}} : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x3x5xf32>, %x: tensor<6xi32>, %y: tensor<6xi32>) -> (tensor<2x3x5xf32>, tensor<6xi32>) {
  %1 = linalg.div ins(%x, %y : tensor<6xi32>, tensor<6xi32>) outs(%x : tensor<6xi32>) -> tensor<6xi32>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0, %1 : tensor<2x3x5xf32>, tensor<6xi32>
}
