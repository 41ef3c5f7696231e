module @jit_integer_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> (tensor<8xi32> {jax.result_info = "result[0]"}, tensor<8xi32> {jax.result_info = "result[1]"}, tensor<8xi32> {jax.result_info = "result[2]"}, tensor<8xi32> {jax.result_info = "result[3]"}, tensor<8xi32> {jax.result_info = "result[4]"}, tensor<8xi32> {jax.result_info = "result[5]"}, tensor<8xi32> {jax.result_info = "result[6]"}, tensor<8xi32> {jax.result_info = "result[7]"}, tensor<8xi32> {jax.result_info = "result[8]"}, tensor<8xi32> {jax.result_info = "result[9]"}, tensor<8xi32> {jax.result_info = "result[10]"}) {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %1 = stablehlo.multiply %arg1, %0 : tensor<8xi32>
    %2 = stablehlo.add %arg0, %1 : tensor<8xi32>
    %3 = stablehlo.and %arg0, %arg1 : tensor<8xi32>
    %4 = stablehlo.or %arg0, %arg1 : tensor<8xi32>
    %5 = stablehlo.xor %arg0, %arg1 : tensor<8xi32>
    %6 = stablehlo.not %arg0 : tensor<8xi32>
    %7 = stablehlo.shift_left %arg0, %arg1 : tensor<8xi32>
    %8 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<8xi32>
    %9 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<8xi32>
    %10 = stablehlo.maximum %arg0, %arg1 : tensor<8xi32>
    %11 = stablehlo.abs %arg0 : tensor<8xi32>
    %12 = stablehlo.sign %arg0 : tensor<8xi32>
    return %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>
  }
}
