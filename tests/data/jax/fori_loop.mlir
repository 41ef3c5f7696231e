module @jit_fori_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<i32>, tensor<i32>, tensor<4xf32>
    cond {
      %c_3 = stablehlo.constant dense<5> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg_1, %c_3 : tensor<i32>
      %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %3 = stablehlo.multiply %iterArg_2, %2 : tensor<4xf32>
      %4 = stablehlo.convert %iterArg_1 : (tensor<i32>) -> tensor<f32>
      %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %6 = stablehlo.add %3, %5 : tensor<4xf32>
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %7 = stablehlo.add %iterArg, %c_4 : tensor<i32>
      stablehlo.return %7, %1, %6 : tensor<i32>, tensor<i32>, tensor<4xf32>
    }
    return %0#2 : tensor<4xf32>
  }
}
