module @jit_trig_hyperbolic attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}, tensor<8xf32> {jax.result_info = "result[3]"}, tensor<8xf32> {jax.result_info = "result[4]"}, tensor<8xf32> {jax.result_info = "result[5]"}, tensor<8xf32> {jax.result_info = "result[6]"}, tensor<8xf32> {jax.result_info = "result[7]"}, tensor<8xf32> {jax.result_info = "result[8]"}) {
    %0 = chlo.sinh %arg0 : tensor<8xf32> -> tensor<8xf32>
    %1 = chlo.cosh %arg0 : tensor<8xf32> -> tensor<8xf32>
    %2 = stablehlo.tan %arg0 : tensor<8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %4 = stablehlo.subtract %3, %arg0 : tensor<8xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %6 = stablehlo.add %5, %arg0 : tensor<8xf32>
    %7 = stablehlo.multiply %4, %6 : tensor<8xf32>
    %8 = stablehlo.sqrt %7 : tensor<8xf32>
    %9 = stablehlo.atan2 %arg0, %8 : tensor<8xf32>
    %10 = chlo.acos %arg0 : tensor<8xf32> -> tensor<8xf32>
    %11 = chlo.atan %arg0 : tensor<8xf32> -> tensor<8xf32>
    %12 = chlo.asinh %arg0 : tensor<8xf32> -> tensor<8xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %14 = stablehlo.add %arg0, %13 : tensor<8xf32>
    %15 = call @arccosh(%14) : (tensor<8xf32>) -> tensor<8xf32>
    %16 = chlo.atanh %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0, %1, %2, %9, %10, %11, %12, %15, %16 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  }
  func.func private @arccosh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = chlo.acosh %arg0 : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
