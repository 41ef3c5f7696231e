// RUN: xquant-opt %s | filecheck %s
// RUN: xquant-opt %s | xquant-opt | filecheck %s
// A reduce of several inputs prints one `(%x init: %i)` group per input and
// one `(%a, %b) ` group of reducer arguments per input, as StableHLO's
// printReduceOp (stablehlo/dialect/AssemblyFormat.cpp) and JAX 0.12 do.

// CHECK-LABEL: func.func @argmax(
// CHECK-NEXT:    %0:2 = stablehlo.reduce(%arg0 init: %arg2), (%arg1 init: %arg3) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK-NEXT:     reducer(%arg4: tensor<f32>, %arg6: tensor<f32>) (%arg5: tensor<i32>, %arg7: tensor<i32>)  {
func.func @argmax(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %xz: tensor<f32>, %iz: tensor<i32>) -> tensor<4xi32> {
  %0:2 = stablehlo.reduce(%x init: %xz), (%i init: %iz) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<i32>, %d: tensor<i32>)  {
    %1 = stablehlo.maximum %a, %b : tensor<f32>
    %2 = stablehlo.minimum %c, %d : tensor<i32>
    stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
  }
  return %0#1 : tensor<4xi32>
}
