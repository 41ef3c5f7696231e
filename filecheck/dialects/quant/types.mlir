// RUN: XQUANT_ROUNDTRIP
// RUN: XQUANT_GENERIC_ROUNDTRIP
// Every type form parses and prints back canonically (as mlir-opt prints it).

// CHECK: @per_layer() -> !quant.uniform<i8:f32, 2.000000e+00>
func.func private @per_layer() -> !quant.uniform<i8:f32, 2.0>
// CHECK: @per_layer_zp() -> !quant.uniform<u8:f32, 5.000000e-01:7>
func.func private @per_layer_zp() -> !quant.uniform<u8:f32, 0.5:7>
// CHECK: @zero_zp() -> !quant.uniform<i8:f32, 1.000000e-03>
func.func private @zero_zp() -> !quant.uniform<i8:f32, 1.0e-3:0>
// CHECK: @narrow() -> !quant.uniform<i8<-127:127>:f32, 1.000000e+00>
func.func private @narrow() -> !quant.uniform<i8<-127:127>:f32, 1.0>
// CHECK: @full_bounds() -> !quant.uniform<i8:f32, 1.500000e+00:-3>
func.func private @full_bounds() -> !quant.uniform<i8<-128:127>:f32, 1.5:-3>
// CHECK: @ui8() -> !quant.uniform<ui8:f32, 1.000000e+00>
func.func private @ui8() -> !quant.uniform<ui8:f32, 1.0>
// CHECK: @si8() -> !quant.uniform<si8:f32, 1.000000e+00>
func.func private @si8() -> !quant.uniform<si8:f32, 1.0>
// CHECK: @bf16() -> !quant.uniform<i16:bf16, 1.500000e+00>
func.func private @bf16() -> !quant.uniform<i16:bf16, 1.5>
// CHECK: @f64() -> !quant.uniform<i32:f64, 1.000000e-300>
func.func private @f64() -> !quant.uniform<i32:f64, 1.0e-300>
// CHECK: @i1() -> !quant.uniform<i1:f32, 1.000000e+00>
func.func private @i1() -> !quant.uniform<i1:f32, 1.0>
// CHECK: @u4_bounds() -> !quant.uniform<u4<1:14>:f16, 2.500000e-01:8>
func.func private @u4_bounds() -> !quant.uniform<u4<1:14>:f16, 0.25:8>
// CHECK: @big_zp() -> !quant.uniform<i8:f32, 1.000000e+00:1000>
func.func private @big_zp() -> !quant.uniform<i8:f32, 1.0:1000>
// CHECK: @hex() -> !quant.uniform<u8:f32, 0x41646ABBA0000000:128>
func.func private @hex() -> !quant.uniform<u8:f32, 0x41646ABBA0000000:128>
// CHECK: @long_decimal() -> !quant.uniform<i8:f32, 0.69999999999999996>
func.func private @long_decimal() -> !quant.uniform<i8:f32, 0.7>

// CHECK: @per_axis() -> !quant.uniform<u8:f32:1, {2.000000e+02:-120,9.987200e-01:127}>
func.func private @per_axis() -> !quant.uniform<u8:f32:1, {2.0e+2:-120,0.99872:127}>
// CHECK: @per_axis_mixed() -> !quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00:3}>
func.func private @per_axis_mixed() -> !quant.uniform<i8:f32:0, {1.0, 2.0:3}>
// CHECK: @per_axis_tensor() -> tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {1.000000e+00,2.000000e+00,3.000000e+00}>>
func.func private @per_axis_tensor() -> tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {1.0,2.0,3.0}>>

// CHECK: @sub_channel() -> !quant.uniform<i8:f32:{0:1, 1:2}, {{[{][{]}}2.000000e+00:10, 3.000000e+00:20}, {4.000000e+00:30, 5.000000e+00:40{{[}][}]}}>
func.func private @sub_channel() -> !quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:10, 3.0:20}, {4.0:30, 5.0:40}}>
// CHECK: @sub_channel_u8() -> !quant.uniform<u8:f32:{0:1, 1:2}, {{[{][{]}}2.000000e+00:120, 3.000000e+00:127}, {4.000000e+00, 5.000000e+00{{[}][}]}}>
func.func private @sub_channel_u8() -> !quant.uniform<u8:f32:{0:1, 1:2}, {{2.0:120,3.0:127}, {4.0,5.0}}>
// CHECK: @sub_channel_empty_info() -> !quant.uniform<i8:f32:{}, {{[{][{]}}2.000000e+00{{[}][}]}}>
func.func private @sub_channel_empty_info() -> !quant.uniform<i8:f32:{}, {{2.0}}>
// CHECK: @sub_channel_flat() -> !quant.uniform<i8:f32:{0:1}, {2.000000e+00, 3.000000e+00}>
func.func private @sub_channel_flat() -> !quant.uniform<i8:f32:{0:1}, {2.0, 3.0}>
// CHECK: @sub_channel_order() -> !quant.uniform<i8:f32:{1:2, 0:1}, {{[{][{]}}1.000000e+00, 2.000000e+00{{[}][}]}}>
func.func private @sub_channel_order() -> !quant.uniform<i8:f32:{1:2, 0:1}, {{1.0, 2.0}}>
// CHECK: @sub_channel_3d() -> !quant.uniform<i4:f16:{0:2, 2:4}, {{[{][{][{]}}1.000000e+00}, {2.000000e+00{{[}][}]}}, {{[{][{]}}3.000000e+00}, {4.000000e+00{{[}][}][}]}}>
func.func private @sub_channel_3d() -> !quant.uniform<i4:f16:{0:2, 2:4}, {{{1.0}, {2.0}}, {{3.0}, {4.0}}}>
// Deliberate fixes of upstream: a negative zero point in range prints back unchanged,
// an unsigned zero point above the signed maximum prints as written.
// CHECK: @sub_channel_negative_zp() -> !quant.uniform<i8:f32:{0:1}, {{[{][{]}}2.000000e+00:-1}, {3.000000e+00:1{{[}][}]}}>
func.func private @sub_channel_negative_zp() -> !quant.uniform<i8:f32:{0:1}, {{2.0:-1}, {3.0:1}}>
// CHECK: @sub_channel_u8_high_zp() -> !quant.uniform<u8:f32:{0:1}, {2.000000e+00:200}>
func.func private @sub_channel_u8_high_zp() -> !quant.uniform<u8:f32:{0:1}, {2.0:200}>
// CHECK: @sub_channel_unranked() -> tensor<*x!quant.uniform<i8:f32:{1:2}, {{[{][{]}}2.000000e+00, 3.000000e+00{{[}][}]}}>>
func.func private @sub_channel_unranked() -> tensor<*x!quant.uniform<i8:f32:{1:2}, {{2.0, 3.0}}>>

// CHECK: @any() -> !quant.any<i8<-8:7>:f32>
func.func private @any() -> !quant.any<i8<-8:7>:f32>
// CHECK: @any_no_expressed() -> !quant.any<i8<-8:7>>
func.func private @any_no_expressed() -> !quant.any<i8<-8:7>>
// CHECK: @any_u8() -> !quant.any<u8<1:200>:f16>
func.func private @any_u8() -> !quant.any<u8<1:200>:f16>
// CHECK: @any_plain() -> !quant.any<i8>
func.func private @any_plain() -> !quant.any<i8>

// CHECK: @calibrated() -> !quant.calibrated<f32<-1.000000e+00:1.000000e+00>>
func.func private @calibrated() -> !quant.calibrated<f32<-1.0:1.0>>
// CHECK: @calibrated_long() -> !quant.calibrated<f32<-0.998:1.232100e+00>>
func.func private @calibrated_long() -> !quant.calibrated<f32<-0.998:1.2321>>
