module {
  func.func public @main(%arg0: tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32> {
    %cst = arith.constant dense<[[[[-0.00176466047, 0.126440972, -0.193993598], [-0.173462495, -0.0907817557, 0.0632052943], [-0.00467001135, 0.186885849, -0.0209171716]], [[0.0623697788, -0.071232304, -0.0463309065], [-0.225177795, -0.156101391, -0.0971619188], [0.00873125345, 9.318140e-02, 0.141426727]]], [[[-0.159792244, -0.102639571, 0.0856110975], [0.195724323, -0.0485075675, 0.176378772], [-0.0379912816, 0.024940623, 0.21342279]], [[-2.186540e-01, -0.148383513, -0.0596716218], [-0.0918767303, 0.203646943, -0.152777404], [-0.108501501, -0.164671138, -0.220749542]]], [[[-0.137588948, 0.202609196, 0.105174676], [0.114238419, 0.01239595, -0.120840661], [0.0398772135, -0.220073953, -0.170310497]], [[-0.121511586, 0.148713499, 0.138197243], [-0.104532786, -0.00850469991, 0.150745898], [0.234319419, 0.0935460254, 0.0318416916]]], [[[0.158035144, -0.138782039, 0.0439217091], [-0.182741255, -0.163361967, -0.121759914], [0.106648922, 0.094790116, -0.139618829]], [[0.0712073222, 0.12939395, -0.0297497176], [0.0089994762, 0.0546133257, 0.146224171], [0.226319924, -0.181637719, -0.0863777473]]]]> : tensor<4x2x3x3xf32>
    %cst_0 = arith.constant dense<[0.0926333219, 0.195290968, 0.205109835, 0.20797348]> : tensor<4xf32>
    %cst_1 = arith.constant dense<[0.00177305355, 0.00173818541, 0.00184503477, 0.00178204663]> : tensor<4xf32>
    %cst_2 = arith.constant dense<0> : tensor<4xi64>
    %0 = stablehlo.custom_call @odml_torch.uniform_quantize(%cst) {backend_config = "tensor<4x2x3x3x!quant.uniform<i8<-127:127>:f32:0, {0.0017730535473674536,0.0017381854122504592,0.0018450347706675529,0.0017820466309785843}>>"} : (tensor<4x2x3x3xf32>) -> tensor<4x2x3x3xf32>
    %1 = stablehlo.custom_call @odml_torch.uniform_dequantize(%0) : (tensor<4x2x3x3xf32>) -> tensor<4x2x3x3xf32>
    %2 = stablehlo.custom_call @odml_torch.uniform_quantize(%arg0) {backend_config = "tensor<1x2x6x6x!quant.uniform<i8:f32, 0.026231173425912857:-15>>"} : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
    %3 = stablehlo.custom_call @odml_torch.uniform_dequantize(%2) : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
    %4 = stablehlo.convolution(%3, %1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [1] : (tensor<4xf32>) -> tensor<1x4x6x6xf32>
    %6 = stablehlo.add %4, %5 : tensor<1x4x6x6xf32>
    %7 = call @_aten_relu_0_5ebe0919(%6) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %8 = stablehlo.custom_call @odml_torch.uniform_quantize(%7) {backend_config = "tensor<1x4x6x6x!quant.uniform<i8:f32, 0.0079868920147418975:-128>>"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %9 = stablehlo.custom_call @odml_torch.uniform_dequantize(%8) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    return %9 : tensor<1x4x6x6xf32>
  }
  func.func private @_aten_relu_0_5ebe0919(%arg0: tensor<1x4x6x6xf32>) -> (tensor<1x4x6x6xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x4x6x6xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<1x4x6x6xf32>
    return %1 : tensor<1x4x6x6xf32>
  }
}
