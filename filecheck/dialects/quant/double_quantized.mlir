// RUN: XQUANT_ROUNDTRIP
// RUN: XQUANT_GENERIC_ROUNDTRIP
// !quant.double_quantized (NF4 with double-quantized block scales, torchao's
// to_nf4): parses and prints back canonically, the quantile table as upstream
// prints it inside another quant type.

// CHECK: @nf4_bf16(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.000000e+00,-6.962000e-01,-5.251000e-01,-3.949000e-01,-2.844000e-01,-1.848000e-01,-9.110000e-02,0.000000e+00,7.960000e-02,1.609000e-01,2.461000e-01,3.379000e-01,4.407000e-01,5.626000e-01,7.230000e-01,1.000000e+00}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>)
func.func private @nf4_bf16(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: @nf4_f32(tensor<2x2x128x!quant.double_quantized<!quant.quantile<ui4:f32, {-1.000000e+00,{{.*}},1.000000e+00}>:f32:{2:64}, scales i8:f32:{4}, mean f32, layout "torchao.nf4">>)
func.func private @nf4_f32(tensor<2x2x128x!quant.double_quantized<!quant.quantile<ui4:f32, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:f32:{2:64}, scales i8:f32:{4}, mean f32, layout "torchao.nf4">>)
// CHECK: @other_table(tensor<16384x!quant.double_quantized<!quant.quantile<ui4:bf16, {-6.000000e+00,-4.000000e+00,{{.*}},6.000000e+00}>:bf16:{0:32}, scales i8:bf16:{512}, mean bf16, layout "torchao.nf4">>)
func.func private @other_table(tensor<16384x!quant.double_quantized<!quant.quantile<ui4:bf16, {-6.0,-4.0,-3.0,-2.0,-1.5,-1.0,-0.5,0.0,0.0,0.5,1.0,1.5,2.0,3.0,4.0,6.0}>:bf16:{0:32}, scales i8:bf16:{512}, mean bf16, layout "torchao.nf4">>)

// The casts: the planar bytes (8192 code bytes, 256 i8 scales, one bf16
// factor, the bf16 mean) <-> the quantized tensor <-> bf16.
// CHECK-LABEL: func.func @casts
// CHECK: quant.scast %{{.*}} : tensor<8452xi8> to tensor<256x64x!quant.double_quantized<{{.*}}>>
// CHECK: quant.dcast %{{.*}} : tensor<256x64x!quant.double_quantized<{{.*}}>> to tensor<256x64xbf16>
// CHECK: quant.qcast %{{.*}} : tensor<256x64xbf16> to tensor<256x64x!quant.double_quantized<{{.*}}>>
// CHECK: quant.scast %{{.*}} : tensor<256x64x!quant.double_quantized<{{.*}}>> to tensor<8452xi8>
func.func @casts(%bytes: tensor<8452xi8>) -> tensor<8452xi8> {
  %q = quant.scast %bytes : tensor<8452xi8> to tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>
  %f = quant.dcast %q : tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">> to tensor<256x64xbf16>
  %q2 = quant.qcast %f : tensor<256x64xbf16> to tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>
  %b = quant.scast %q2 : tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">> to tensor<8452xi8>
  func.return %b : tensor<8452xi8>
}
