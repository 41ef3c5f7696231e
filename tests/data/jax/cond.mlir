module @jit_cond attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<f32>, %arg1: tensor<5xf32>) -> (tensor<5xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.compare GT, %arg0, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = stablehlo.convert %0 : (tensor<i1>) -> tensor<i32>
    %2 = "stablehlo.case"(%1) ({
      %3 = stablehlo.cosine %arg1 : tensor<5xf32>
      %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %5 = stablehlo.multiply %3, %4 : tensor<5xf32>
      stablehlo.return %5 : tensor<5xf32>
    }, {
      %3 = stablehlo.sine %arg1 : tensor<5xf32>
      stablehlo.return %3 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    return %2 : tensor<5xf32>
  }
}
