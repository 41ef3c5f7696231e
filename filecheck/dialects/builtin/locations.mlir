// RUN: xquant-opt %s -split-input-file --mlir-print-debuginfo | filecheck %s
// RUN: xquant-opt %s -split-input-file | filecheck %s --check-prefix=PLAIN
// MLIR's location grammar as JAX and TensorFlow print it: aliases defined
// after the module, file ranges, names, call sites, fused locations; block
// arguments print theirs inline. tests/upstream/test_debuginfo.py compares
// such files with mlir-opt itself.

// CHECK:      #loc1 = loc("x")
// CHECK-NEXT: #loc3 = loc("f.py":9:1 to 10:2)
// CHECK-NEXT: #loc4 = loc("reduce")
// CHECK-NEXT: module @jit_f {
// CHECK-NEXT:   func.func public @main(%arg0: tensor<4xf32> loc("x")) -> tensor<f32> {
// CHECK-NEXT:     %0 = stablehlo.sine %arg0 : tensor<4xf32> loc(#loc6)
// CHECK-NEXT:     %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc)
// CHECK-NEXT:     %1:2 = stablehlo.reduce(%0 init: %cst), (%0 init: %cst) across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT:      reducer(%arg1: tensor<f32> loc("reduce"), %arg3: tensor<f32> loc("reduce")) (%arg2: tensor<f32> loc("reduce"), %arg4: tensor<f32> loc("f.py":9:1 to 10:2))  {
// CHECK-NEXT:       %2 = stablehlo.add %arg1, %arg3 : tensor<f32> loc(#loc7)
// CHECK-NEXT:       %3 = stablehlo.maximum %arg2, %arg4 : tensor<f32> loc(#loc7)
// CHECK-NEXT:       stablehlo.return %2, %3 : tensor<f32>, tensor<f32> loc(#loc7)
// CHECK-NEXT:     } loc(#loc7)
// CHECK-NEXT:     return %1#0 : tensor<f32> loc(#loc)
// CHECK-NEXT:   } loc(#loc)
// CHECK-NEXT: } loc(#loc)
// CHECK-NEXT: #loc = loc(unknown)
// CHECK-NEXT: #loc2 = loc("f.py":3:8 to :20)
// CHECK-NEXT: #loc5 = loc(callsite(#loc2 at #loc3))
// CHECK-NEXT: #loc6 = loc("jit(f)/sin"(#loc5))
// CHECK-NEXT: #loc7 = loc(fused<"reduce">[#loc6, #loc3])
// PLAIN-NOT: loc(
module @jit_f {
  func.func public @main(%arg0: tensor<4xf32> loc("x")) -> tensor<f32> {
    %0 = stablehlo.sine %arg0 : tensor<4xf32> loc(#loc4)
    %cst = stablehlo.constant dense<0.0> : tensor<f32> loc(#loc)
    %1:2 = stablehlo.reduce(%0 init: %cst), (%0 init: %cst) across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
     reducer(%arg1: tensor<f32> loc("reduce"), %arg3: tensor<f32> loc("reduce")) (%arg2: tensor<f32> loc("reduce"), %arg4: tensor<f32> loc(#loc2))  {
      %2 = stablehlo.add %arg1, %arg3 : tensor<f32> loc(#loc5)
      %3 = stablehlo.maximum %arg2, %arg4 : tensor<f32> loc(#loc5)
      stablehlo.return %2, %3 : tensor<f32>, tensor<f32> loc(#loc5)
    } loc(#loc5)
    return %1#0 : tensor<f32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("f.py":3:8 to :20)
#loc2 = loc("f.py":9:1 to 10:2)
#loc3 = loc(callsite(#loc1 at #loc2))
#loc4 = loc("jit(f)/sin"(#loc3))
#loc5 = loc(fused<"reduce">[#loc4, #loc2])
