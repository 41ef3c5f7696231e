module {
  func.func public @main(%arg0: tensor<2x8xf32>) -> tensor<2x4xf32> {
    %cst = arith.constant dense<"0x22792DBB9C36423EB1FC94BE1D3885BED6700BBEAB2AC23D578AE5BB40878F3EDE8300BD9799BF3D5DD3DABD1B548EBDC2EFACBE90C56FBE9F3D15BE4C94563C6B200F3E403B593EDE7075BE86A71DBEA77F033EF750963EE70395BD7A75873E1E6B69BD353C193DA1E8A33E20EDA7BEC5EA63BEAC4FB7BD661F0DBE9E669C3E85AA6ABE86A826BE53EF7CBE2089A9BE2D5653BE979A9B3E5E8C213E5F782F3E4952983C7B9C39BE6E01753D4D04A9BE68CC82BE4CA43ABE876C643E5D45543EF68F20BEF20251BCB38B673E12F5B33ECBAF0F3EA6A2433DF2BD723E522B55BE70ED863D65588CBE8AEC7ABEF2053BBE10D0233EFD98113E5B7456BEB8BFDA3DC5BF463E43C836BDCF2B5D3CAAC5A73DAE99603E4ED0AD3E6D7F8BBE1CAD04BEE7480E3EC4FB953E3C869D3E40B99F3E171A903D49699DBE2838053D4B7E62BEA4B3A8BE96D5A03ECBA3893E6492B4BEEC86873DC6F473BD5C4F6EBDC7B925BE65390B3ED06F56BE61B8043EFD15373E2B96813ECB5E073E4529B3BE76DA6ABE77C5343EE58C973DD5358DBE0B7850BE374BAA3EB8F2733EA3DB1DBE3F3DB6BD4D70ACBE123CD0BB775188BE67A18BBEE4959FBCEA6E593D0B4414BE5DD3563E8F505CBE6440A43EE51A783E88A698BE2536B4BD67B0823C8F49533D86BBAB3DFF120E3E4A7DAD3C2AA630BE0E502B3E81A4ADBE2E9556BE1842B5BD975A30BE"> : tensor<16x8xf32>
    %cst_0 = arith.constant dense<[-0.123684771, -0.289780021, -0.0752061605, 0.0755743161, -0.230327934, -0.0181441344, 0.253091484, -0.0363453776, 0.00982603151, -0.0305006616, 0.0715526193, 0.224803194, 0.334902108, 0.224526167, 0.335668355, -0.0255695656]> : tensor<16xf32>
    %cst_1 = arith.constant dense<[[-0.224580377, -0.118519306, 0.170226306, -0.00162062049, -0.124261588, -0.191577941, -0.233963013, -0.211002052, -0.050709188, 0.137101501, 0.135160267, -0.24110797, 0.15594551, -0.195627362, -0.052852571, -0.101368159], [-0.0481538177, -0.0490856767, -0.224337488, -0.215859473, -0.0391198695, 0.00323304534, -0.113568723, 9.417480e-02, -0.225014597, -0.01687181, 0.219854861, -1.019730e-01, 0.225750774, 0.0905384421, -0.225615233, 0.158174336], [-0.0288486183, -0.11160171, 0.199913323, -0.202023804, 0.0268262327, -0.0523421764, 0.17852816, 0.0697861314, 0.120126337, 0.0882897377, -0.0601186752, -0.0525763631, -0.206020355, 0.135461032, 0.198494524, 0.171056211], [-0.176344573, 0.0111499727, -0.17623353, -0.137621045, -0.145676374, 0.0854362547, -0.148978293, -0.00545430183, 0.010517031, 0.16115576, -0.188980013, -0.171628058, -0.145165384, 0.174983352, -0.0898662507, 0.210872173]]> : tensor<4x16xf32>
    %cst_2 = arith.constant dense<[0.0904018878, 0.0316565037, -0.00186100602, -0.0494203866]> : tensor<4xf32>
    %cst_3 = arith.constant dense<[0.00229126285, 0.00265958044, 0.00231170445, 0.00258252746, 0.00260727806, 0.00259929872, 0.00276755216, 0.00215836149, 0.00267306971, 0.00245637959, 0.00277700298, 0.00275530899, 0.00261893775, 0.00265192357, 0.00252601388, 0.00267043849]> : tensor<16xf32>
    %cst_4 = arith.constant dense<0> : tensor<16xi64>
    %cst_5 = arith.constant dense<[0.00189848791, 0.00177756511, 0.00162220758, 0.00166041078]> : tensor<4xf32>
    %cst_6 = arith.constant dense<0> : tensor<4xi64>
    %0 = stablehlo.custom_call @odml_torch.uniform_quantize(%cst) {backend_config = "tensor<16x8x!quant.uniform<i8<-127:127>:f32:0, {0.002291262848302722,0.0026595804374665022,0.0023117044474929571,0.0025825274642556906,0.0026072780601680279,0.0025992987211793661,0.0027675521560013294,0.0021583614870905876,0.0026730697136372328,0.0024563795886933804,0.0027770029846578836,0.0027553089894354343,0.0026189377531409264,0.002651923568919301,0.0025260138791054487,0.0026704384945333004}>>"} : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = stablehlo.custom_call @odml_torch.uniform_dequantize(%0) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %2 = stablehlo.custom_call @odml_torch.uniform_quantize(%cst_1) {backend_config = "tensor<4x16x!quant.uniform<i8<-127:127>:f32:0, {0.0018984879134222865,0.0017775651067495346,0.00162220757920295,0.0016604107804596424}>>"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %3 = stablehlo.custom_call @odml_torch.uniform_dequantize(%2) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %4 = stablehlo.custom_call @odml_torch.uniform_quantize(%arg0) {backend_config = "tensor<2x8x!quant.uniform<i8:f32, 0.02569941058754921:-5>>"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %5 = stablehlo.custom_call @odml_torch.uniform_dequantize(%4) : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %6 = call @permute_0_e8753e43(%1) : (tensor<16x8xf32>) -> tensor<8x16xf32>
    %7 = call @_aten_mm_1_3f092420(%5, %6) : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %8 = call @jax_lowering_2_d219fc18(%7, %c) : (tensor<2x16xf32>, tensor<i32>) -> tensor<2x16xf32>
    %c_7 = stablehlo.constant dense<1> : tensor<i32>
    %9 = call @jax_lowering_3_1ec08c17(%cst_0, %c_7) : (tensor<16xf32>, tensor<i32>) -> tensor<16xf32>
    %10 = call @jax_lowering_4_3dbbfe41(%8, %9) : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    %11 = stablehlo.custom_call @odml_torch.uniform_quantize(%10) {backend_config = "tensor<2x16x!quant.uniform<i8:f32, 0.015002586878836155:11>>"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %12 = stablehlo.custom_call @odml_torch.uniform_dequantize(%11) : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %13 = call @_aten_relu_5_771c92a7(%12) : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %14 = stablehlo.custom_call @odml_torch.uniform_quantize(%13) {backend_config = "tensor<2x16x!quant.uniform<i8:f32, 0.0068550235591828823:-128>>"} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %15 = stablehlo.custom_call @odml_torch.uniform_dequantize(%14) : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %16 = call @permute_6_c501ea4c(%3) : (tensor<4x16xf32>) -> tensor<16x4xf32>
    %17 = call @_aten_mm_7_78643a77(%15, %16) : (tensor<2x16xf32>, tensor<16x4xf32>) -> tensor<2x4xf32>
    %c_8 = stablehlo.constant dense<1> : tensor<i32>
    %18 = call @jax_lowering_8_219ed903(%17, %c_8) : (tensor<2x4xf32>, tensor<i32>) -> tensor<2x4xf32>
    %c_9 = stablehlo.constant dense<1> : tensor<i32>
    %19 = call @jax_lowering_9_d8b8bae7(%cst_2, %c_9) : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
    %20 = call @jax_lowering_10_d806a582(%18, %19) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %21 = stablehlo.custom_call @odml_torch.uniform_quantize(%20) {backend_config = "tensor<2x4x!quant.uniform<i8:f32, 0.0046404371969401836:32>>"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %22 = stablehlo.custom_call @odml_torch.uniform_dequantize(%21) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %22 : tensor<2x4xf32>
  }
  func.func private @jax_lowering_10_d806a582(%arg0: tensor<2x4xf32>, %arg1: tensor<4xf32>) -> (tensor<2x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<2x4xf32>
    %2 = stablehlo.add %arg0, %1 : tensor<2x4xf32>
    return %2 : tensor<2x4xf32>
  }
  func.func private @jax_lowering_9_d8b8bae7(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
  func.func private @jax_lowering_8_219ed903(%arg0: tensor<2x4xf32>, %arg1: tensor<i32>) -> (tensor<2x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<2x4xf32>
    return %2 : tensor<2x4xf32>
  }
  func.func private @_aten_mm_7_78643a77(%arg0: tensor<2x16xf32>, %arg1: tensor<16x4xf32>) -> (tensor<2x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x16xf32>, tensor<16x4xf32>) -> tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
  }
  func.func private @permute_6_c501ea4c(%arg0: tensor<4x16xf32>) -> (tensor<16x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x16xf32>) -> tensor<16x4xf32>
    return %0 : tensor<16x4xf32>
  }
  func.func private @_aten_relu_5_771c92a7(%arg0: tensor<2x16xf32>) -> (tensor<2x16xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x16xf32>
    return %1 : tensor<2x16xf32>
  }
  func.func private @jax_lowering_4_3dbbfe41(%arg0: tensor<2x16xf32>, %arg1: tensor<16xf32>) -> (tensor<2x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<2x16xf32>
    %2 = stablehlo.add %arg0, %1 : tensor<2x16xf32>
    return %2 : tensor<2x16xf32>
  }
  func.func private @jax_lowering_3_1ec08c17(%arg0: tensor<16xf32>, %arg1: tensor<i32>) -> (tensor<16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<16xf32>
    return %2 : tensor<16xf32>
  }
  func.func private @jax_lowering_2_d219fc18(%arg0: tensor<2x16xf32>, %arg1: tensor<i32>) -> (tensor<2x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<2x16xf32>
    return %2 : tensor<2x16xf32>
  }
  func.func private @_aten_mm_1_3f092420(%arg0: tensor<2x8xf32>, %arg1: tensor<8x16xf32>) -> (tensor<2x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
    return %0 : tensor<2x16xf32>
  }
  func.func private @permute_0_e8753e43(%arg0: tensor<16x8xf32>) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
