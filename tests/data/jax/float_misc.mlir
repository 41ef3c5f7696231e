module @jit_float_misc attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}, tensor<8xf32> {jax.result_info = "result[3]"}, tensor<8xf32> {jax.result_info = "result[4]"}, tensor<8xf32> {jax.result_info = "result[5]"}, tensor<8xf32> {jax.result_info = "result[6]"}, tensor<8xf32> {jax.result_info = "result[7]"}, tensor<8xi1> {jax.result_info = "result[8]"}, tensor<8xf32> {jax.result_info = "result[9]"}) {
    %0 = stablehlo.floor %arg0 : tensor<8xf32>
    %1 = stablehlo.ceil %arg0 : tensor<8xf32>
    %2 = call @round(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %3 = call @clip(%arg0, %c, %c_0) : (tensor<8xf32>, tensor<i32>, tensor<i32>) -> tensor<8xf32>
    %4 = stablehlo.atan2 %arg0, %arg1 : tensor<8xf32>
    %cst = stablehlo.constant dense<0.693147182> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %6 = stablehlo.multiply %5, %arg1 : tensor<8xf32>
    %7 = stablehlo.exponential %6 : tensor<8xf32>
    %8 = stablehlo.abs %arg1 : tensor<8xf32>
    %9 = stablehlo.log_plus_one %8 : tensor<8xf32>
    %10 = stablehlo.exponential_minus_one %arg1 : tensor<8xf32>
    %11 = stablehlo.divide %arg0, %arg1 : tensor<8xf32>
    %12 = stablehlo.is_finite %11 : (tensor<8xf32>) -> tensor<8xi1>
    %13 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %14 = call @_where(%13, %arg0, %arg1) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    return %0, %1, %2, %3, %4, %7, %9, %10, %12, %14 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi1>, tensor<8xf32>
  }
  func.func private @round(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func private @clip(%arg0: tensor<8xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<8xf32>
    %3 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<8xf32>
    return %5 : tensor<8xf32>
  }
  func.func private @_where(%arg0: tensor<8xi1>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8xi1>, tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
