func.func @main(%arg0: tensor<1x8x8x2xf32> {tf_saved_model.index_path = ["x"]}) -> (tensor<1x3x3x4xf32> {tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "PartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
  %cst = stablehlo.constant dense<1.000000e+00> : tensor<1x3x3x4xf32>
  %cst_0 = stablehlo.constant() <{value = dense<[[[[7, -8, 47, 7], [-29, 21, 95, 61]], [[-38, -73, -46, 3], [-127, -13, -91, -47]], [[-30, -18, 30, 68], [-7, 79, -49, 23]]], [[[49, 5, -54, -60], [-25, 13, -74, -14]], [[-9, 31, 16, 23], [-36, -7, 57, 97]], [[-69, 87, 98, 51], [14, -18, 106, 127]]], [[[98, 76, 26, -78], [0, 38, -94, 26]], [[23, 40, -86, -43], [-24, -67, 127, -32]], [[18, -15, 116, 86], [35, -127, 4, 44]]]]> : tensor<3x3x2x4xi8>}> : () -> tensor<3x3x2x4x!quant.uniform<i8<-127:127>:f32:3, {0.009153664581418976,0.0086752354629396448,0.0068479048924183286,0.0077175526168402724}>>
  %cst_1 = stablehlo.constant() <{value = dense<[1916, -1244, 4647, -2988]> : tensor<4xi32>}> : () -> tensor<4x!quant.uniform<i32:f32:0, {2.6206188127495553E-4,2.4836484947635579E-4,1.9604987957958682E-4,2.2094717799831149E-4}>>
  %cst_2 = stablehlo.constant() <{value = dense<-128> : tensor<i8>}> : () -> tensor<!quant.uniform<i8:f32, 0.029395524193258846:-128>>
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<1x8x8x2xf32>) -> tensor<1x8x8x2x!quant.uniform<i8:f32, 0.028629176756914926:-4>>
  %1 = stablehlo.broadcast_in_dim %cst_1, dims = [3] : (tensor<4x!quant.uniform<i32:f32:0, {2.6206188127495553E-4,2.4836484947635579E-4,1.9604987957958682E-4,2.2094717799831149E-4}>>) -> tensor<1x6x6x4x!quant.uniform<i32:f32:3, {2.6206188127495553E-4,2.4836484947635579E-4,1.9604987957958682E-4,2.2094717799831149E-4}>>
  %2 = stablehlo.convolution(%0, %cst_0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x2x!quant.uniform<i8:f32, 0.028629176756914926:-4>>, tensor<3x3x2x4x!quant.uniform<i8<-127:127>:f32:3, {0.009153664581418976,0.0086752354629396448,0.0068479048924183286,0.0077175526168402724}>>) -> tensor<1x6x6x4x!quant.uniform<i32:f32:3, {2.6206188127495553E-4,2.4836484947635579E-4,1.9604987957958682E-4,2.2094717799831149E-4}>>
  %3 = stablehlo.add %2, %1 : tensor<1x6x6x4x!quant.uniform<i32:f32:3, {2.6206188127495553E-4,2.4836484947635579E-4,1.9604987957958682E-4,2.2094717799831149E-4}>>
  %4 = stablehlo.uniform_quantize %3 : (tensor<1x6x6x4x!quant.uniform<i32:f32:3, {2.6206188127495553E-4,2.4836484947635579E-4,1.9604987957958682E-4,2.2094717799831149E-4}>>) -> tensor<1x6x6x4x!quant.uniform<i8:f32, 0.029395524193258846:-128>>
  %5 = "stablehlo.reduce_window"(%4, %cst_2) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%arg1: tensor<!quant.uniform<i8:f32, 0.029395524193258846:-128>>, %arg2: tensor<!quant.uniform<i8:f32, 0.029395524193258846:-128>>):
    %8 = stablehlo.maximum %arg1, %arg2 : tensor<!quant.uniform<i8:f32, 0.029395524193258846:-128>>
    stablehlo.return %8 : tensor<!quant.uniform<i8:f32, 0.029395524193258846:-128>>
  }) : (tensor<1x6x6x4x!quant.uniform<i8:f32, 0.029395524193258846:-128>>, tensor<!quant.uniform<i8:f32, 0.029395524193258846:-128>>) -> tensor<1x3x3x4x!quant.uniform<i8:f32, 0.029395524193258846:-128>>
  %6 = stablehlo.uniform_dequantize %5 : (tensor<1x3x3x4x!quant.uniform<i8:f32, 0.029395524193258846:-128>>) -> tensor<1x3x3x4xf32>
  %7 = stablehlo.divide %6, %cst : tensor<1x3x3x4xf32>
  return %7 : tensor<1x3x3x4xf32>
}
