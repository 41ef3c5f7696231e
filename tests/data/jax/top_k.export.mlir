#loc1 = loc("x")
#loc2 = loc("/work/wt27ops/tests/data/jax/generate.py":203:11 to :26)
#loc3 = loc("/work/wt27ops/tests/data/jax/generate.py":402:19 to :51)
#loc4 = loc("/work/wt27ops/tests/data/jax/generate.py":419:4 to :22)
#loc5 = loc("top_k"(#loc2))
#loc6 = loc("main"(#loc3))
#loc7 = loc("<module>"(#loc4))
#loc8 = loc(callsite(#loc6 at #loc7))
#loc9 = loc(callsite(#loc5 at #loc8))
#loc11 = loc("jit(top_k)/top_k"(#loc9))
module @jit_top_k attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x10xf32> loc("x")) -> (tensor<3x3xf32> {jax.result_info = "result[0]"}, tensor<3x3xi32> {jax.result_info = "result[1]"}) {
    %0:2 = stablehlo.composite "chlo.top_k" %arg0 {composite_attributes = {is_stable = true, k = 3 : i64}, decomposition = @chlo.top_k.impl, version = 1 : i32} : (tensor<3x10xf32>) -> (tensor<3x3xf32>, tensor<3x3xi32>) loc(#loc11)
    return %0#0, %0#1 : tensor<3x3xf32>, tensor<3x3xi32> loc(#loc10)
  } loc(#loc)
  func.func private @chlo.top_k.impl(%arg0: tensor<3x10xf32> loc("jit(top_k)/top_k"(#loc9))) -> (tensor<3x3xf32>, tensor<3x3xi32>) {
    %0 = stablehlo.iota dim = 1 : tensor<3x10xi32> loc(#loc11)
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32> loc("jit(top_k)/top_k"(#loc9)), %arg2: tensor<f32> loc("jit(top_k)/top_k"(#loc9)), %arg3: tensor<i32> loc("jit(top_k)/top_k"(#loc9)), %arg4: tensor<i32> loc("jit(top_k)/top_k"(#loc9))):
      %4 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1> loc(#loc11)
      stablehlo.return %4 : tensor<i1> loc(#loc11)
    }) : (tensor<3x10xf32>, tensor<3x10xi32>) -> (tensor<3x10xf32>, tensor<3x10xi32>) loc(#loc11)
    %2 = stablehlo.slice %1#0 [0:3, 0:3] : (tensor<3x10xf32>) -> tensor<3x3xf32> loc(#loc11)
    %3 = stablehlo.slice %1#1 [0:3, 0:3] : (tensor<3x10xi32>) -> tensor<3x3xi32> loc(#loc11)
    return %2, %3 : tensor<3x3xf32>, tensor<3x3xi32> loc(#loc11)
  } loc(#loc11)
} loc(#loc)
#loc = loc(unknown)
#loc10 = loc("jit(top_k)"(#loc8))
