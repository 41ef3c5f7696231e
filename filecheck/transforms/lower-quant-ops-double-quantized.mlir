// RUN: xdsl-opt %s -p lower-quant-ops | filecheck %s
// !quant.double_quantized: quant.dcast lowers to one linalg.generic reading the
// planar bytes (256 code bytes, 8 i8 block scales, 2 bf16 factors, the bf16
// mean) through pure affine maps; torchao's bf16 steps are truncf + integer
// widening (IREE folds extf(truncf x) to x).

// CHECK-LABEL: func.func @dcast
// CHECK: %[[RAW:.*]] = quant.scast %{{.*}} : tensor<8x64x!quant.double_quantized<{{.*}}>> to tensor<270xi8>
// CHECK: %[[SHIFT:.*]] = arith.constant dense<[4, 0]> : tensor<2xi32>
// CHECK: %[[LUT:.*]] = arith.constant dense<[-1.000000e+00, -0.6953125, {{.*}}, 1.000000e+00]> : tensor<16xf32>
// CHECK: linalg.generic {indexing_maps = [
// CHECK-SAME: affine_map<(d0, d1, d2, d3) -> ((((d0 * 128) + (d1 * 32)) + d2))>
// CHECK-SAME: affine_map<(d0, d1, d2, d3) -> ((((d0 * 4) + 256) + d1))>
// CHECK-SAME: affine_map<(d0, d1, d2, d3) -> (((d0 * 2) + 264))>
// CHECK-SAME: affine_map<(d0, d1, d2, d3) -> (((d0 * 2) + 265))>
// CHECK-SAME: affine_map<(d0, d1, d2, d3) -> (268)>
// CHECK-SAME: affine_map<(d0, d1, d2, d3) -> (269)>
// CHECK-SAME: affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-SAME: ins(%[[RAW]], %[[RAW]], %[[RAW]], %[[RAW]], %[[RAW]], %[[RAW]], %[[SHIFT]] :
// CHECK: arith.shrui
// CHECK: tensor.extract %[[LUT]]
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: %[[DIV:.*]] = arith.divf
// CHECK-NEXT: arith.truncf %[[DIV]] : f32 to bf16
// CHECK: %[[ADD:.*]] = arith.addf
// CHECK-NEXT: arith.truncf %[[ADD]] : f32 to bf16
// CHECK: %[[MUL:.*]] = arith.mulf
// CHECK-NEXT: %[[X:.*]] = arith.truncf %[[MUL]] : f32 to bf16
// CHECK-NEXT: linalg.yield %[[X]] : bf16
// CHECK: } -> tensor<2x4x32x2xbf16>
// CHECK: tensor.collapse_shape {{.*}} : tensor<2x4x32x2xbf16> into tensor<512xbf16>
// CHECK: tensor.expand_shape {{.*}} output_shape [8, 64] : tensor<512xbf16> into tensor<8x64xbf16>
// CHECK-NOT: quant.dcast
func.func @dcast(%bytes: tensor<270xi8>) -> tensor<8x64xbf16> {
  %q = quant.scast %bytes : tensor<270xi8> to tensor<8x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{4}, mean bf16, layout "torchao.nf4">>
  %f = quant.dcast %q : tensor<8x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{4}, mean bf16, layout "torchao.nf4">> to tensor<8x64xbf16>
  func.return %f : tensor<8x64xbf16>
}
