module {
  func.func public @main(%arg0: tensor<2x8xf32>) -> tensor<2x6xf32> {
    %cst = arith.constant dense<[[-0.00264699059, 0.189661443, -0.290990382, -0.260193735, -0.136172622, 0.0948079451, -0.00700501679, 0.280328751], [-0.0313757583, 0.0935546681, -0.106848456, -0.069496356, -0.337766707, -0.234152079, -0.145742878, 0.0130968802], [0.139772102, 0.212140083, -0.239688367, -0.153959364, 0.128416643, 0.293586463, -0.0727613494, 0.26456815], [-0.0569869205, 0.0374109335, 0.320134193, -3.279810e-01, -0.222575262, -0.0895074307, -0.137815088, 0.305470407], [-0.229166105, -0.162752241, -0.247006699, -0.331124306, -0.206383422, 0.303913802, 0.157762021, 0.171357617], [0.0185939241, -0.181260988, 0.0598158166, -0.330110937, -0.255465746, -0.182267368, 0.223070249, 0.20729585]]> : tensor<6x8xf32>
    %cst_0 = arith.constant dense<[-0.156799167, -0.0127570499, 0.226118848, 0.351479113, 0.140319034, 0.0477625355]> : tensor<6xf32>
    %cst_1 = arith.constant dense<[0.00229126285, 0.00265958044, 0.00231170445, 0.00258252746, 0.00260727806, 0.00259929872]> : tensor<6xf32>
    %cst_2 = arith.constant dense<0> : tensor<6xi64>
    %0 = stablehlo.custom_call @odml_torch.uniform_quantize(%cst) {backend_config = "tensor<6x8x!quant.uniform<i8<-127:127>:f32:0, {0.002291262848302722,0.0026595804374665022,0.0023117044474929571,0.0025825274642556906,0.0026072780601680279,0.0025992987211793661}>>"} : (tensor<6x8xf32>) -> tensor<6x8xf32>
    %1 = stablehlo.custom_call @odml_torch.uniform_dequantize(%0) : (tensor<6x8xf32>) -> tensor<6x8xf32>
    %2 = stablehlo.custom_call @odml_torch.uniform_quantize(%arg0) {backend_config = "tensor<2x8x!quant.uniform<i8:f32, 0.021892590448260307:4>>"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %3 = stablehlo.custom_call @odml_torch.uniform_dequantize(%2) : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %4 = call @permute_0_10de9762(%1) : (tensor<6x8xf32>) -> tensor<8x6xf32>
    %5 = call @_aten_mm_1_d9c083fa(%3, %4) : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %6 = call @jax_lowering_2_860af5c5(%5, %c) : (tensor<2x6xf32>, tensor<i32>) -> tensor<2x6xf32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %7 = call @jax_lowering_3_f57eb91a(%cst_0, %c_3) : (tensor<6xf32>, tensor<i32>) -> tensor<6xf32>
    %8 = call @jax_lowering_4_30c7bae6(%6, %7) : (tensor<2x6xf32>, tensor<6xf32>) -> tensor<2x6xf32>
    %9 = stablehlo.custom_call @odml_torch.uniform_quantize(%8) {backend_config = "tensor<2x6x!quant.uniform<i8:f32, 0.013282147236168385:8>>"} : (tensor<2x6xf32>) -> tensor<2x6xf32>
    %10 = stablehlo.custom_call @odml_torch.uniform_dequantize(%9) : (tensor<2x6xf32>) -> tensor<2x6xf32>
    %11 = call @_aten_relu_5_f013e6de(%10) : (tensor<2x6xf32>) -> tensor<2x6xf32>
    return %11 : tensor<2x6xf32>
  }
  func.func private @_aten_relu_5_f013e6de(%arg0: tensor<2x6xf32>) -> (tensor<2x6xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x6xf32>
    return %1 : tensor<2x6xf32>
  }
  func.func private @jax_lowering_4_30c7bae6(%arg0: tensor<2x6xf32>, %arg1: tensor<6xf32>) -> (tensor<2x6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<6xf32>) -> tensor<1x6xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x6xf32>) -> tensor<2x6xf32>
    %2 = stablehlo.add %arg0, %1 : tensor<2x6xf32>
    return %2 : tensor<2x6xf32>
  }
  func.func private @jax_lowering_3_f57eb91a(%arg0: tensor<6xf32>, %arg1: tensor<i32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<6xf32>
    return %2 : tensor<6xf32>
  }
  func.func private @jax_lowering_2_860af5c5(%arg0: tensor<2x6xf32>, %arg1: tensor<i32>) -> (tensor<2x6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<2x6xf32>
    return %2 : tensor<2x6xf32>
  }
  func.func private @_aten_mm_1_d9c083fa(%arg0: tensor<2x8xf32>, %arg1: tensor<8x6xf32>) -> (tensor<2x6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
    return %0 : tensor<2x6xf32>
  }
  func.func private @permute_0_10de9762(%arg0: tensor<6x8xf32>) -> (tensor<8x6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<6x8xf32>) -> tensor<8x6xf32>
    return %0 : tensor<8x6xf32>
  }
}
