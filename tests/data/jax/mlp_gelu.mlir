module @jit_mlp_gelu attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16x4xf32>) -> (tensor<4x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<4x16xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x16xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<4x16xf32>
    %6 = stablehlo.negate %3 : tensor<4x16xf32>
    %cst_0 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<4x16xf32>
    %9 = chlo.erfc %8 : tensor<4x16xf32> -> tensor<4x16xf32>
    %10 = stablehlo.multiply %5, %9 : tensor<4x16xf32>
    %11 = stablehlo.dot_general %10, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
    return %11 : tensor<4x4xf32>
  }
}
