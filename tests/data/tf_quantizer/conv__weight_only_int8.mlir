func.func @main(%arg0: tensor<1x6x6x2xf32> {tf_saved_model.index_path = ["x"]}) -> (tensor<1x6x6x4xf32> {tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "PartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
  %cst = stablehlo.constant dense<[0.501980782, -0.308953524, 0.911005675, -0.660215497]> : tensor<4xf32>
  %cst_0 = stablehlo.constant() <{value = dense<[[[[7, -8, 47, 7], [-29, 21, 95, 61]], [[-38, -73, -46, 3], [-127, -13, -91, -47]], [[-30, -18, 30, 68], [-7, 79, -49, 23]]], [[[49, 5, -54, -60], [-25, 13, -74, -14]], [[-9, 31, 16, 23], [-36, -7, 57, 97]], [[-69, 87, 98, 51], [14, -18, 106, 127]]], [[[98, 76, 26, -78], [0, 38, -94, 26]], [[23, 40, -86, -43], [-24, -67, 127, -32]], [[18, -15, 116, 86], [35, -127, 4, 44]]]]> : tensor<3x3x2x4xi8>}> : () -> tensor<3x3x2x4x!quant.uniform<i8<-127:127>:f32:3, {0.009153664581418976,0.0086752354629396448,0.0068479048924183286,0.0077175526168402724}>>
  %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<1x6x6x4xf32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [3] : (tensor<4xf32>) -> tensor<1x6x6x4xf32>
  %1 = stablehlo.convolution(%arg0, %cst_0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x6x6x2xf32>, tensor<3x3x2x4x!quant.uniform<i8<-127:127>:f32:3, {0.009153664581418976,0.0086752354629396448,0.0068479048924183286,0.0077175526168402724}>>) -> tensor<1x6x6x4xf32>
  %2 = stablehlo.add %1, %0 : tensor<1x6x6x4xf32>
  %3 = stablehlo.maximum %2, %cst_1 : tensor<1x6x6x4xf32>
  return %3 : tensor<1x6x6x4xf32>
}
