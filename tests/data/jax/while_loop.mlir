module @jit_while_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<f32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<i32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<f32>, tensor<i32>
    cond {
      %cst = stablehlo.constant dense<1.000000e+02> : tensor<f32>
      %1 = stablehlo.compare LT, %iterArg, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %cst = stablehlo.constant dense<1.500000e+00> : tensor<f32>
      %1 = stablehlo.multiply %iterArg, %cst : tensor<f32>
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_0, %c_1 : tensor<i32>
      stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
    }
    return %0#0, %0#1 : tensor<f32>, tensor<i32>
  }
}
