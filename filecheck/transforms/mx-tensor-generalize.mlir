// RUN: xdsl-opt %s -p mx-tensor-generalize --split-input-file | filecheck %s

// The note's linalg.add with an MX operand: the parts become generic inputs (the scale
// through a floordiv map), the body dequantizes, computes in the accumulator type, truncf's.
// CHECK-LABEL: func.func @add
// CHECK:       %[[S:.*]], %[[D:.*]] = mx_tensor.deconstruct %b
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ((d0 floordiv 256), (d1 floordiv 256))>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %[[S]], %[[D]] : tensor<1024x1024xbf16>, tensor<4x4xf8E8M0FNU>, tensor<1024x1024xf8E4M3FN>) outs(%a : tensor<1024x1024xbf16>)
// CHECK:       ^bb0(%[[A:.*]]: bf16, %[[SC:.*]]: f8E8M0FNU, %[[E:.*]]: f8E4M3FN, %{{.*}}: bf16):
// CHECK-NEXT:    %[[AF:.*]] = arith.extf %[[A]] : bf16 to f32
// CHECK-NEXT:    %[[EF:.*]] = arith.extf %[[E]] : f8E4M3FN to f32
// CHECK-NEXT:    %[[SF:.*]] = arith.extf %[[SC]] : f8E8M0FNU to f32
// CHECK-NEXT:    %[[B:.*]] = arith.mulf %[[EF]], %[[SF]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.addf %[[AF]], %[[B]] : f32
// CHECK-NEXT:    %[[T:.*]] = arith.truncf %[[R]] : f32 to bf16
// CHECK-NEXT:    linalg.yield %[[T]] : bf16
// CHECK-NOT:   linalg.add
func.func @add(%a: tensor<1024x1024xbf16>, %b: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) -> tensor<1024x1024xbf16> {
  %0 = linalg.add ins(%a, %b : tensor<1024x1024xbf16>, !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) outs(%a : tensor<1024x1024xbf16>) attrs = {accumulator_type = f32} -> tensor<1024x1024xbf16>
  func.return %0 : tensor<1024x1024xbf16>
}

// -----
// matmul accumulating in f32 into a bf16 output: extf the output, reduce, truncf.
// CHECK-LABEL: func.func @matmul
// CHECK:       linalg.generic {{.*}} ins(%c : tensor<8x16xbf16>) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> ((d2 floordiv 32), d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:       linalg.generic {{.*}} outs(%{{.*}} : tensor<8x16xbf16>)
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT:   linalg.matmul
func.func @matmul(%a: tensor<8x64xbf16>, %w: !mx_tensor.tensor<<2x16xf8E8M0FNU>, <64x16xf4E2M1FN>>, %c: tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  %0 = linalg.matmul {accumulator_type = f32} ins(%a, %w : tensor<8x64xbf16>, !mx_tensor.tensor<<2x16xf8E8M0FNU>, <64x16xf4E2M1FN>>) outs(%c : tensor<8x16xbf16>) -> tensor<8x16xbf16>
  func.return %0 : tensor<8x16xbf16>
}
