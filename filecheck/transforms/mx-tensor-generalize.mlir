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

// -----
// linalg.max of two MX operands: both decoded, combined with arith.maximumf (as linalg.max
// is defined: NaN blocks propagate, -0.0 < +0.0); f32 output, so no final cast.
// CHECK-LABEL: func.func @max
// CHECK:       %[[S0:.*]], %[[D0:.*]] = mx_tensor.deconstruct %a
// CHECK:       %[[S1:.*]], %[[D1:.*]] = mx_tensor.deconstruct %b
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 floordiv 32))>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ((d0 floordiv 2), (d1 floordiv 16))>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[S0]], %[[D0]], %[[S1]], %[[D1]] : tensor<8x2xf8E8M0FNU>, tensor<8x64xf4E2M1FN>, tensor<4x4xf8E8M0FNU>, tensor<8x64xf4E2M1FN>) outs(%o : tensor<8x64xf32>)
// CHECK:       ^bb0(%[[SA:.*]]: f8E8M0FNU, %[[EA:.*]]: f4E2M1FN, %[[SB:.*]]: f8E8M0FNU, %[[EB:.*]]: f4E2M1FN, %{{.*}}: f32):
// CHECK-NEXT:    %[[EAF:.*]] = arith.extf %[[EA]] : f4E2M1FN to f32
// CHECK-NEXT:    %[[SAF:.*]] = arith.extf %[[SA]] : f8E8M0FNU to f32
// CHECK-NEXT:    %[[A:.*]] = arith.mulf %[[EAF]], %[[SAF]] : f32
// CHECK-NEXT:    %[[EBF:.*]] = arith.extf %[[EB]] : f4E2M1FN to f32
// CHECK-NEXT:    %[[SBF:.*]] = arith.extf %[[SB]] : f8E8M0FNU to f32
// CHECK-NEXT:    %[[B:.*]] = arith.mulf %[[EBF]], %[[SBF]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK-NEXT:    linalg.yield %[[R]] : f32
// CHECK-NOT:   linalg.max
func.func @max(%a: !mx_tensor.tensor<<8x2xf8E8M0FNU>, <8x64xf4E2M1FN>>, %b: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <8x64xf4E2M1FN>>, %o: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = linalg.max ins(%a, %b : !mx_tensor.tensor<<8x2xf8E8M0FNU>, <8x64xf4E2M1FN>>, !mx_tensor.tensor<<4x4xf8E8M0FNU>, <8x64xf4E2M1FN>>) outs(%o : tensor<8x64xf32>) -> tensor<8x64xf32>
  func.return %0 : tensor<8x64xf32>
}

// -----
// linalg.min of an MX operand (bf16 elements) and a bf16 tensor, in an f32 accumulator:
// arith.minimumf in f32, then truncf to the bf16 output.
// CHECK-LABEL: func.func @min
// CHECK:       %[[S:.*]], %[[D:.*]] = mx_tensor.deconstruct %a
// CHECK:       linalg.generic {{.*}} ins(%[[S]], %[[D]], %b : tensor<1x4xf8E8M0FNU>, tensor<8x64xbf16>, tensor<8x64xbf16>) outs(%b : tensor<8x64xbf16>)
// CHECK:       ^bb0(%[[SA:.*]]: f8E8M0FNU, %[[EA:.*]]: bf16, %[[B:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT:    %[[EAF:.*]] = arith.extf %[[EA]] : bf16 to f32
// CHECK-NEXT:    %[[SAF:.*]] = arith.extf %[[SA]] : f8E8M0FNU to f32
// CHECK-NEXT:    %[[A:.*]] = arith.mulf %[[EAF]], %[[SAF]] : f32
// CHECK-NEXT:    %[[BF:.*]] = arith.extf %[[B]] : bf16 to f32
// CHECK-NEXT:    %[[R:.*]] = arith.minimumf %[[A]], %[[BF]] : f32
// CHECK-NEXT:    %[[T:.*]] = arith.truncf %[[R]] : f32 to bf16
// CHECK-NEXT:    linalg.yield %[[T]] : bf16
// CHECK-NOT:   linalg.min
func.func @min(%a: !mx_tensor.tensor<<1x4xf8E8M0FNU>, <8x64xbf16>>, %b: tensor<8x64xbf16>) -> tensor<8x64xbf16> {
  %0 = linalg.min ins(%a, %b : !mx_tensor.tensor<<1x4xf8E8M0FNU>, <8x64xbf16>>, tensor<8x64xbf16>) outs(%b : tensor<8x64xbf16>) attrs = {accumulator_type = f32} -> tensor<8x64xbf16>
  func.return %0 : tensor<8x64xbf16>
}

// -----
// NVFP4 x NVFP4 matmul: both operands decoded as extf(element) * extf(f8E4M3FN block scale),
// the blocks of 16 along K (d2) on both sides.
// CHECK-LABEL: func.func @matmul_nvfp4
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, (d2 floordiv 16))>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> ((d2 floordiv 16), d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-NEXT:  ^bb0(%[[SA:.*]]: f8E4M3FN, %[[EA:.*]]: f4E2M1FN, %[[SB:.*]]: f8E4M3FN, %[[EB:.*]]: f4E2M1FN, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[EAF:.*]] = arith.extf %[[EA]] : f4E2M1FN to f32
// CHECK-NEXT:    %[[SAF:.*]] = arith.extf %[[SA]] : f8E4M3FN to f32
// CHECK-NEXT:    %[[A:.*]] = arith.mulf %[[EAF]], %[[SAF]] : f32
// CHECK-NEXT:    %[[EBF:.*]] = arith.extf %[[EB]] : f4E2M1FN to f32
// CHECK-NEXT:    %[[SBF:.*]] = arith.extf %[[SB]] : f8E4M3FN to f32
// CHECK-NEXT:    %[[B:.*]] = arith.mulf %[[EBF]], %[[SBF]] : f32
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:    linalg.yield %[[R]] : f32
// CHECK-NOT:   linalg.matmul
func.func @matmul_nvfp4(%a: !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>, %b: !mx_tensor.tensor<<4x16xf8E4M3FN>, <64x16xf4E2M1FN>>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = linalg.matmul ins(%a, %b : !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>, !mx_tensor.tensor<<4x16xf8E4M3FN>, <64x16xf4E2M1FN>>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
