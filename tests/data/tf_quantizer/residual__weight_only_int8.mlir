func.func @main(%arg0: tensor<2x8xf32> {tf_saved_model.index_path = ["x"]}) -> (tensor<2x8xf32> {tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "PartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
  %cst = stablehlo.constant dense<[0.701132417, 0.575082839, -1.182652, 0.614341855, 1.698100e-01, 0.211885676, 0.185613707, 0.191378579]> : tensor<8xf32>
  %cst_0 = stablehlo.constant dense<[0.164484814, -0.129286274, 0.791736423, 0.660180509, 0.316676319, -1.1017549, 0.0260144863, 0.341843098]> : tensor<8xf32>
  %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<2x8xf32>
  %cst_2 = stablehlo.constant() <{value = dense<[[127, -46, 127, -107, -37, 90, 4, 127], [24, -48, -26, -88, -72, 61, 52, 82], [-95, 127, -20, 127, -24, -71, 22, 65], [20, -44, -93, -113, 28, 95, -15, -68], [110, -96, -50, 50, -127, 37, -52, 7], [-10, 15, 48, -61, 80, 70, 75, 74], [100, 63, 5, -115, -8, -74, -127, 16], [-72, -77, -73, 22, 20, 127, -1, 66]]> : tensor<8x8xi8>}> : () -> tensor<8x8x!quant.uniform<i8<-127:127>:f32:1, {0.0039526045791746121,0.0066500292049618218,0.0071732730377377487,0.0061984578455527,0.0088588234007827872,0.0052065253257751465,0.0056013455541115108,0.0078834351592176541}>>
  %cst_3 = stablehlo.constant() <{value = dense<[[9, -11, 60, 11, -29, 34, 95, 61], [-50, -106, -59, 4, -127, -20, -91, -47], [-38, -27, 39, 110, -7, 127, -49, 23], [64, 8, -70, -97, -25, 20, -74, -14], [-11, 45, 20, 37, -36, -12, 57, 97], [-89, 127, 127, 82, 14, -29, 106, 127], [127, 110, 34, -127, 0, 61, -94, 26], [30, 58, -112, -70, -24, -109, 127, -32]]> : tensor<8x8xi8>}> : () -> tensor<8x8x!quant.uniform<i8<-127:127>:f32:1, {0.0070930508178050121,0.0059603297804284279,0.0052987219780448857,0.0047571598075506257,0.009153664581418976,0.005379777255020742,0.0068479048924183286,0.0077175526168402724}>>
  %0 = stablehlo.broadcast_in_dim %cst_0, dims = [1] : (tensor<8xf32>) -> tensor<2x8xf32>
  %1 = stablehlo.dot_general %arg0, %cst_3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x8x!quant.uniform<i8<-127:127>:f32:1, {0.0070930508178050121,0.0059603297804284279,0.0052987219780448857,0.0047571598075506257,0.009153664581418976,0.005379777255020742,0.0068479048924183286,0.0077175526168402724}>>) -> tensor<2x8xf32>
  %2 = stablehlo.add %1, %0 : tensor<2x8xf32>
  %3 = stablehlo.maximum %2, %cst_1 : tensor<2x8xf32>
  %4 = stablehlo.broadcast_in_dim %cst, dims = [1] : (tensor<8xf32>) -> tensor<2x8xf32>
  %5 = stablehlo.dot_general %3, %cst_2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x8x!quant.uniform<i8<-127:127>:f32:1, {0.0039526045791746121,0.0066500292049618218,0.0071732730377377487,0.0061984578455527,0.0088588234007827872,0.0052065253257751465,0.0056013455541115108,0.0078834351592176541}>>) -> tensor<2x8xf32>
  %6 = stablehlo.add %5, %4 : tensor<2x8xf32>
  %7 = stablehlo.add %6, %arg0 : tensor<2x8xf32>
  %8 = stablehlo.maximum %7, %cst_1 : tensor<2x8xf32>
  return %8 : tensor<2x8xf32>
}
