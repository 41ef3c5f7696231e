module @jit_square_and_powers attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xi32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<8xi32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}, tensor<8xi32> {jax.result_info = "result[3]"}, tensor<8xf32> {jax.result_info = "result[4]"}) {
    %0 = chlo.square %arg0 : tensor<8xf32> -> tensor<8xf32>
    %1 = stablehlo.multiply %arg1, %arg1 : tensor<8xi32>
    %2 = stablehlo.multiply %arg0, %arg0 : tensor<8xf32>
    %3 = stablehlo.multiply %2, %arg0 : tensor<8xf32>
    %4 = stablehlo.multiply %arg1, %arg1 : tensor<8xi32>
    %5 = stablehlo.multiply %4, %arg1 : tensor<8xi32>
    %6 = stablehlo.abs %arg0 : tensor<8xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.power %6, %7 : tensor<8xf32>
    return %0, %1, %3, %5, %8 : tensor<8xf32>, tensor<8xi32>, tensor<8xf32>, tensor<8xi32>, tensor<8xf32>
  }
}
