// RUN: XQUANT_ROUNDTRIP
// RUN: XQUANT_GENERIC_ROUNDTRIP
// !quant.superblock: every ggml layout parses and prints back canonically.

// CHECK: @q4_0(tensor<8x64x!quant.superblock<i4:f32:{1:32}, scales f16, layout "ggml.Q4_0">>)
func.func private @q4_0(tensor<8x64x!quant.superblock<i4:f32:{1:32}, scales f16, layout "ggml.Q4_0">>)
// CHECK: @q5_0(tensor<64x!quant.superblock<i5:f32:{0:32}, scales f16, layout "ggml.Q5_0">>)
func.func private @q5_0(tensor<64x!quant.superblock<i5:f32:{0:32}, scales f16, layout "ggml.Q5_0">>)
// CHECK: @q8_0(tensor<8x64x!quant.superblock<i8:f32:{1:32}, scales f16, layout "ggml.Q8_0">>)
func.func private @q8_0(tensor<8x64x!quant.superblock<i8:f32:{1:32:32}, scales f16, layout "ggml.Q8_0">>)
// CHECK: @q2_k(tensor<2x256x!quant.superblock<u2:f32:{1:16:256}, scales u4:f16, mins u4:f16, layout "ggml.Q2_K">>)
func.func private @q2_k(tensor<2x256x!quant.superblock<u2:f32:{1:16:256}, scales u4:f16, mins u4:f16, layout "ggml.Q2_K">>)
// CHECK: @q3_k(tensor<2x256x!quant.superblock<i3:f32:{1:16:256}, scales i6:f16, layout "ggml.Q3_K">>)
func.func private @q3_k(tensor<2x256x!quant.superblock<i3:f32:{1:16:256}, scales i6:f16, layout "ggml.Q3_K">>)
// CHECK: @q4_k(tensor<2x512x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>)
func.func private @q4_k(tensor<2x512x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>)
// CHECK: @q5_k(tensor<256x!quant.superblock<u5:bf16:{0:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q5_K">>)
func.func private @q5_k(tensor<256x!quant.superblock<u5:bf16:{0:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q5_K">>)
// CHECK: @q6_k(tensor<?x256x!quant.superblock<i6:f16:{1:16:256}, scales i8:f16, layout "ggml.Q6_K">>)
func.func private @q6_k(tensor<?x256x!quant.superblock<i6:f16:{1:16:256}, scales i8:f16, layout "ggml.Q6_K">>)
// CHECK: @iq4_nl(tensor<32x!quant.superblock<u4:f32:{0:32}, scales f16, table {-1.270000e+02,-1.040000e+02,-8.300000e+01,-6.500000e+01,-4.900000e+01,-3.500000e+01,-2.200000e+01,-1.000000e+01,1.000000e+00,1.300000e+01,2.500000e+01,3.800000e+01,5.300000e+01,6.900000e+01,8.900000e+01,1.130000e+02}, layout "ggml.IQ4_NL">>)
func.func private @iq4_nl(tensor<32x!quant.superblock<u4:f32:{0:32}, scales f16, table {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113}, layout "ggml.IQ4_NL">>)
// CHECK: @iq4_xs(tensor<256x!quant.superblock<u4:f32:{0:32:256}, scales i6:f16, table {-1.270000e+02,
func.func private @iq4_xs(tensor<256x!quant.superblock<u4:f32:{0:32:256}, scales i6:f16, table {-127.0, -104.0, -83.0, -65.0, -49.0, -35.0, -22.0, -10.0, 1.0, 13.0, 25.0, 38.0, 53.0, 69.0, 89.0, 113.0}, layout "ggml.IQ4_XS">>)
// CHECK: @q4_1(tensor<8x64x!quant.superblock<u4:f32:{1:32}, scales f16, mins f16, layout "ggml.Q4_1">>)
func.func private @q4_1(tensor<8x64x!quant.superblock<u4:f32:{1:32}, scales f16, mins f16, layout "ggml.Q4_1">>)
// CHECK: @q5_1(tensor<64x!quant.superblock<u5:f16:{0:32}, scales f16, mins f16, layout "ggml.Q5_1">>)
func.func private @q5_1(tensor<64x!quant.superblock<u5:f16:{0:32:32}, scales f16, mins f16, layout "ggml.Q5_1">>)
// CHECK: @q8_1(tensor<8x64x!quant.superblock<i8:f32:{1:32}, scales f16, layout "ggml.Q8_1">>)
func.func private @q8_1(tensor<8x64x!quant.superblock<i8:f32:{1:32}, scales f16, layout "ggml.Q8_1">>)
// CHECK: @tq1_0(tensor<256x!quant.superblock<u2:f32:{0:256}, scales f16, table {-1.000000e+00,0.000000e+00,1.000000e+00,2.000000e+00}, layout "ggml.TQ1_0">>)
func.func private @tq1_0(tensor<256x!quant.superblock<u2:f32:{0:256}, scales f16, table {-1, 0, 1, 2}, layout "ggml.TQ1_0">>)
// CHECK: @tq2_0(tensor<2x512x!quant.superblock<u2:f32:{1:256}, scales f16, table {-1.000000e+00,0.000000e+00,1.000000e+00,2.000000e+00}, layout "ggml.TQ2_0">>)
func.func private @tq2_0(tensor<2x512x!quant.superblock<u2:f32:{1:256}, scales f16, table {-1.0, 0.0, 1.0, 2.0}, layout "ggml.TQ2_0">>)
// CHECK: @iq2_xxs(tensor<2x512x!quant.superblock<u8:f32:{1:32:256}, scales u4:f16, codebook "ggml.iq2xxs_grid" x8, layout "ggml.IQ2_XXS">>)
func.func private @iq2_xxs(tensor<2x512x!quant.superblock<u8:f32:{1:32:256}, scales u4:f16, codebook "ggml.iq2xxs_grid" x8, layout "ggml.IQ2_XXS">>)
// CHECK: @iq3_s(tensor<256x!quant.superblock<u9:f16:{0:32:256}, scales u4:f16, codebook "ggml.iq3s_grid" x4, layout "ggml.IQ3_S">>)
func.func private @iq3_s(tensor<256x!quant.superblock<u9:f16:{0:32:256}, scales u4:f16, codebook "ggml.iq3s_grid" x4, layout "ggml.IQ3_S">>)
// CHECK: @iq1_m(tensor<?x256x!quant.superblock<u11:f32:{1:16:256}, scales u3:f16, codebook "ggml.iq1s_grid" x8, layout "ggml.IQ1_M">>)
func.func private @iq1_m(tensor<?x256x!quant.superblock<u11:f32:{1:16:256}, scales u3:f16, codebook "ggml.iq1s_grid" x8, layout "ggml.IQ1_M">>)

// The casts: raw bytes <-> quantized tensor <-> f32.
// CHECK-LABEL: func.func @casts
// CHECK: quant.scast %{{.*}} : tensor<4x288xi8> to tensor<4x512x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>
// CHECK: quant.dcast %{{.*}} : tensor<4x512x!quant.superblock<{{.*}}>> to tensor<4x512xf32>
// CHECK: quant.qcast %{{.*}} : tensor<4x512xf32> to tensor<4x512x!quant.superblock<{{.*}}>>
// CHECK: quant.scast %{{.*}} : tensor<4x512x!quant.superblock<{{.*}}>> to tensor<4x288xi8>
func.func @casts(%bytes: tensor<4x288xi8>) -> tensor<4x288xi8> {
  %q = quant.scast %bytes : tensor<4x288xi8> to tensor<4x512x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>
  %f = quant.dcast %q : tensor<4x512x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">> to tensor<4x512xf32>
  %q2 = quant.qcast %f : tensor<4x512xf32> to tensor<4x512x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>
  %b = quant.scast %q2 : tensor<4x512x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">> to tensor<4x288xi8>
  func.return %b : tensor<4x288xi8>
}
