module @jit_erf_erfc attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>) -> (tensor<16xf32> {jax.result_info = "result[0]"}, tensor<16xf32> {jax.result_info = "result[1]"}, tensor<16xf32> {jax.result_info = "result[2]"}) {
    %0 = chlo.erf %arg0 : tensor<16xf32> -> tensor<16xf32>
    %1 = chlo.erfc %arg0 : tensor<16xf32> -> tensor<16xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %3 = stablehlo.multiply %arg0, %2 : tensor<16xf32>
    %4 = chlo.erf %3 : tensor<16xf32> -> tensor<16xf32>
    return %0, %1, %4 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  }
}
