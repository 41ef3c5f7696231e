module @jit_bool_logic attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xi1> {jax.result_info = "result[0]"}, tensor<8xi1> {jax.result_info = "result[1]"}, tensor<8xi1> {jax.result_info = "result[2]"}, tensor<8xi1> {jax.result_info = "result[3]"}, tensor<8xi32> {jax.result_info = "result[4]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %3 = stablehlo.compare GT, %arg1, %2, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %4 = stablehlo.and %1, %3 : tensor<8xi1>
    %5 = stablehlo.or %1, %3 : tensor<8xi1>
    %6 = stablehlo.xor %1, %3 : tensor<8xi1>
    %7 = stablehlo.not %1 : tensor<8xi1>
    %8 = stablehlo.not %3 : tensor<8xi1>
    %9 = stablehlo.and %1, %8 : tensor<8xi1>
    %10 = stablehlo.convert %9 : (tensor<8xi1>) -> tensor<8xi32>
    return %4, %5, %6, %7, %10 : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi32>
  }
}
