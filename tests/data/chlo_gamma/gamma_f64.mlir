module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<207xf64>) -> (tensor<207xf64> {jax.result_info = "result[0]"}, tensor<207xf64> {jax.result_info = "result[1]"}) {
    %0 = chlo.lgamma %arg0 : tensor<207xf64> -> tensor<207xf64>
    %1 = chlo.digamma %arg0 : tensor<207xf64> -> tensor<207xf64>
    return %0, %1 : tensor<207xf64>, tensor<207xf64>
  }
}
