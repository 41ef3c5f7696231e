module @jit_f16_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf16>, %arg1: tensor<8x8xf16>) -> (tensor<4xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
    %1 = call @relu(%0) : (tensor<4x8xf16>) -> tensor<4x8xf16>
    %2 = stablehlo.convert %1 : (tensor<4x8xf16>) -> tensor<4x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %4 = stablehlo.convert %3 : (tensor<4xf32>) -> tensor<4xf16>
    return %4 : tensor<4xf16>
  }
  func.func private @relu(%arg0: tensor<4x8xf16>) -> tensor<4x8xf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<4x8xf16>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x8xf16>
    return %1 : tensor<4x8xf16>
  }
}
