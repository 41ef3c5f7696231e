module @jit_remainder_floor_divide attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>) -> (tensor<8xi32> {jax.result_info = "result[0]"}, tensor<8xi32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}, tensor<8xf32> {jax.result_info = "result[3]"}, tensor<8xi32> {jax.result_info = "result[4]"}) {
    %0 = call @remainder(%arg0, %arg1) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %1 = call @floor_divide(%arg0, %arg1) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %2 = call @remainder_0(%arg2, %arg3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %3 = call @floor_divide_1(%arg2, %arg3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<8xi32>
    return %0, %1, %2, %3, %4 : tensor<8xi32>, tensor<8xi32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>
  }
  func.func private @remainder(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %1 = stablehlo.compare EQ, %arg1, %0, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %3 = call @_where(%1, %2, %arg1) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<8xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %10 = stablehlo.compare LT, %3, %9, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    %12 = stablehlo.and %11, %6 : tensor<8xi1>
    %13 = stablehlo.add %4, %3 : tensor<8xi32>
    %14 = stablehlo.select %12, %13, %4 : tensor<8xi1>, tensor<8xi32>
    return %14 : tensor<8xi32>
  }
  func.func private @_where(%arg0: tensor<8xi1>, %arg1: tensor<8xi32>, %arg2: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8xi1>, tensor<8xi32>
    return %0 : tensor<8xi32>
  }
  func.func private @floor_divide(%arg0: tensor<8xi32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<8xi32>
    %1 = stablehlo.sign %arg0 : tensor<8xi32>
    %2 = stablehlo.sign %arg1 : tensor<8xi32>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %7 = stablehlo.and %3, %6 : tensor<8xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %9 = stablehlo.subtract %0, %8 : tensor<8xi32>
    %10 = call @_where(%7, %9, %0) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    return %10 : tensor<8xi32>
  }
  func.func private @remainder_0(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.compare NE, %0, %1, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %4 = stablehlo.compare LT, %0, %3, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %6 = stablehlo.compare LT, %arg1, %5, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %7 = stablehlo.compare NE, %4, %6, UNSIGNED : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    %8 = stablehlo.and %7, %2 : tensor<8xi1>
    %9 = stablehlo.add %0, %arg1 : tensor<8xf32>
    %10 = stablehlo.select %8, %9, %0 : tensor<8xi1>, tensor<8xf32>
    return %10 : tensor<8xf32>
  }
  func.func private @floor_divide_1(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.compare EQ, %arg1, %1, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %3 = stablehlo.subtract %arg0, %0 : tensor<8xf32>
    %4 = call @_where_2(%2, %arg0, %3) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %5 = stablehlo.divide %4, %arg1 : tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %7 = stablehlo.compare NE, %0, %6, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %8 = stablehlo.sign %arg1 : tensor<8xf32>
    %9 = stablehlo.sign %0 : tensor<8xf32>
    %10 = stablehlo.compare NE, %8, %9, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %11 = stablehlo.and %7, %10 : tensor<8xi1>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %13 = stablehlo.subtract %5, %12 : tensor<8xf32>
    %14 = stablehlo.select %11, %13, %5 : tensor<8xi1>, tensor<8xf32>
    %15 = stablehlo.round_nearest_afz %14 : tensor<8xf32>
    return %15 : tensor<8xf32>
  }
  func.func private @_where_2(%arg0: tensor<8xi1>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8xi1>, tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
