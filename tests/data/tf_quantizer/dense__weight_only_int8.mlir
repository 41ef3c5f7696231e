func.func @main(%arg0: tensor<2x8xf32> {tf_saved_model.index_path = ["x"]}) -> (tensor<2x6xf32> {tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "PartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
  %cst = stablehlo.constant dense<[0.900817453, 0.657551885, 0.17869021, -0.604159296, -0.00222706655, 0.328237474]> : tensor<6xf32>
  %cst_0 = stablehlo.constant() <{value = dense<[[7, -16, 65, 9, -47, 23], [71, 115, -72, -108, -54, 3], [-127, -27, -127, -62, -47, -20], [22, 127, -13, 116, -58, 23], [49, 11, -76, -78, -40, 14], [-55, -25, -16, 46, 19, 23], [-36, -16, 80, 127, -110, 98], [74, 95, 27, -27, 127, 127]]> : tensor<8x6xi8>}> : () -> tensor<8x6x!quant.uniform<i8<-127:127>:f32:1, {0.009153664581418976,0.0041043833484799841,0.0049051614258233019,0.0058796499657818649,0.0057402389256034306,0.0077175526168402724}>>
  %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<2x6xf32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [1] : (tensor<6xf32>) -> tensor<2x6xf32>
  %1 = stablehlo.dot_general %arg0, %cst_0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x6x!quant.uniform<i8<-127:127>:f32:1, {0.009153664581418976,0.0041043833484799841,0.0049051614258233019,0.0058796499657818649,0.0057402389256034306,0.0077175526168402724}>>) -> tensor<2x6xf32>
  %2 = stablehlo.add %1, %0 : tensor<2x6xf32>
  %3 = stablehlo.maximum %2, %cst_1 : tensor<2x6xf32>
  return %3 : tensor<2x6xf32>
}
