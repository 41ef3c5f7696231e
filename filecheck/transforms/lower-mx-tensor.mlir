// RUN: xdsl-opt %s -p lower-mx-tensor --split-input-file | filecheck %s

// Dequantize: one generic, the scale read through floordiv maps, extf and a multiply.
// CHECK-LABEL: func.func @dequantize
// CHECK-SAME:    (%[[S0:[^:]*]]: tensor<4x4xf8E8M0FNU>, %[[D0:[^:]*]]: tensor<1024x1024xf8E4M3FN>) -> tensor<1024x1024xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ((d0 floordiv 256), (d1 floordiv 256))>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[S0]], %[[D0]] : tensor<4x4xf8E8M0FNU>, tensor<1024x1024xf8E4M3FN>)
// CHECK:       ^bb0(%[[S:.*]]: f8E8M0FNU, %[[D:.*]]: f8E4M3FN, %{{.*}}: f32):
// CHECK-NEXT:    %[[DF:.*]] = arith.extf %[[D]] : f8E4M3FN to f32
// CHECK-NEXT:    %[[SF:.*]] = arith.extf %[[S]] : f8E8M0FNU to f32
// CHECK-NEXT:    %[[V:.*]] = arith.mulf %[[DF]], %[[SF]] : f32
// CHECK-NEXT:    linalg.yield %[[V]] : f32
// CHECK-NOT:   mx_tensor
func.func @dequantize(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) -> tensor<1024x1024xf32> {
  %y = mx_tensor.dequantize %m : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> -> tensor<1024x1024xf32>
  func.return %y : tensor<1024x1024xf32>
}

// -----
// Quantize: block max of |x| bit patterns (reduction over the expanded shape), the shared
// exponent from integer bit operations, then scale / clamp / truncf, split into i2 + i4.
// CHECK-LABEL: func.func @quantize
// CHECK-SAME:    -> (tensor<32x1xf8E8M0FNU>, tensor<1024x1024xi2>, tensor<1024x1024xi4>)
// CHECK:       tensor.expand_shape %x {{\[}}[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [32, 32, 1, 1024] : tensor<1024x1024xf32> into tensor<32x32x1x1024xf32>
// CHECK:       iterator_types = ["parallel", "reduction", "parallel", "reduction"]
// CHECK:         arith.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT:    arith.andi
// CHECK-NEXT:    arith.maxsi
// CHECK:       linalg.generic
// CHECK:         arith.mulf
// CHECK:         arith.shrui
// CHECK:         arith.maxsi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    arith.minsi
// CHECK:         arith.bitcast %{{.*}} : i8 to f8E8M0FNU
// CHECK:       affine_map<(d0, d1) -> ((d0 floordiv 32), (d1 floordiv 1024))>
// CHECK:         arith.mulf
// CHECK-NEXT:    arith.maximumf
// CHECK-NEXT:    arith.minimumf
// CHECK-NEXT:    arith.cmpf uno
// CHECK-NEXT:    arith.select
// CHECK-NEXT:    arith.truncf %{{.*}} : f32 to f6E2M3FN
// CHECK-NEXT:    arith.bitcast %{{.*}} : f6E2M3FN to i6
// CHECK-NEXT:    arith.extui %{{.*}} : i6 to i32
// CHECK-NEXT:    arith.shrui
// CHECK-NEXT:    arith.trunci %{{.*}} : i32 to i2
// CHECK-NEXT:    arith.trunci %{{.*}} : i32 to i4
// CHECK-NOT:   mx_tensor
func.func @quantize(%x: tensor<1024x1024xf32>) -> !mx_tensor.tensor<<32x1xf8E8M0FNU>, [<1024x1024xi2>, <1024x1024xi4>] x f6E2M3FN> {
  %q = mx_tensor.quantize %x {block_factor = [32, 1024], scale_type = f8E8M0FNU, compute_type = f6E2M3FN, storage_types = [i2, i4]} : tensor<1024x1024xf32> -> !mx_tensor.tensor<<32x1xf8E8M0FNU>, [<1024x1024xi2>, <1024x1024xi4>] x f6E2M3FN>
  func.return %q : !mx_tensor.tensor<<32x1xf8E8M0FNU>, [<1024x1024xi2>, <1024x1024xi4>] x f6E2M3FN>
}

// -----
// Split storage on load: extui / shli / ori, then trunci and bitcast to the element.
// CHECK-LABEL: func.func @load_split
// CHECK:         arith.extui %{{.*}} : i2 to i32
// CHECK-NEXT:    arith.shli
// CHECK-NEXT:    arith.extui %{{.*}} : i4 to i32
// CHECK-NEXT:    arith.ori
// CHECK-NEXT:    arith.trunci %{{.*}} : i32 to i6
// CHECK-NEXT:    arith.bitcast %{{.*}} : i6 to f6E2M3FN
func.func @load_split(%m: !mx_tensor.tensor<<32x1xi8>, [<64x64xi2>, <64x64xi4>] x f6E2M3FN>) -> tensor<64x64xf16> {
  %y = mx_tensor.dequantize %m : !mx_tensor.tensor<<32x1xi8>, [<64x64xi2>, <64x64xi4>] x f6E2M3FN> -> tensor<64x64xf16>
  func.return %y : tensor<64x64xf16>
}

// -----
// Slices: each part is sliced; the scale at offset floordiv block (a 1x1 broadcast tile here).
// CHECK-LABEL: func.func @slice
// CHECK:       %[[B:.*]] = arith.constant 256 : index
// CHECK-NEXT:  %[[SO:.*]] = arith.floordivsi %j, %[[B]] : index
// CHECK-NEXT:  tensor.extract_slice %{{.*}}[0, %[[SO]]] [1, 1] [1, 1] : tensor<4x4xf8E8M0FNU> to tensor<1x1xf8E8M0FNU>
// CHECK-NEXT:  tensor.extract_slice %{{.*}}[32, %j] [32, 32] [1, 1] : tensor<1024x1024xf8E4M3FN> to tensor<32x32xf8E4M3FN>
func.func @slice(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>, %j: index) -> tensor<32x32xf32> {
  %t = mx_tensor.extract_slice %m[32, %j] [32, 32] [1, 1] : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>
  %y = mx_tensor.dequantize %t : !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>> -> tensor<32x32xf32>
  func.return %y : tensor<32x32xf32>
}

// -----
// NVFP4 quantize with a per-tensor scale %g (rank 0, read through `-> ()` maps): block max of
// |x| bits, then amax / 6 / g clamped to [2^-6, 448] and truncf'd to f8E4M3FN; the factor is
// (1 / g) / extf(scale), a reciprocal multiply as torchao's reference; elements as MXFP4.
// CHECK-LABEL: func.func @quantize_nvfp4
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<8x64xf32>, %[[G:[^:]*]]: tensor<f32>) -> (tensor<8x4xf8E4M3FN>, tensor<8x64xf4E2M1FN>)
// CHECK:       iterator_types = ["parallel", "reduction", "parallel", "reduction"]
// CHECK:       %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT:  %[[EPS:.*]] = arith.constant 1.562500e-02 : f32
// CHECK-NEXT:  %[[MAX:.*]] = arith.constant 4.480000e+02 : f32
// CHECK-NEXT:  %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %[[G]] : tensor<8x4xi32>, tensor<f32>)
// CHECK-NEXT:  ^bb0(%[[AMAX:.*]]: i32, %[[GS:.*]]: f32, %{{.*}}: f8E4M3FN, %{{.*}}: f32):
// CHECK-NEXT:    %[[A:.*]] = arith.bitcast %[[AMAX]] : i32 to f32
// CHECK-NEXT:    %[[B:.*]] = arith.divf %[[A]], %[[SIX]] : f32
// CHECK-NEXT:    %[[BG:.*]] = arith.divf %[[B]], %[[GS]] : f32
// CHECK-NEXT:    %[[LO:.*]] = arith.maximumf %[[BG]], %[[EPS]] : f32
// CHECK-NEXT:    %[[HI:.*]] = arith.minimumf %[[LO]], %[[MAX]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.truncf %[[HI]] : f32 to f8E4M3FN
// CHECK-NEXT:    %[[R:.*]] = arith.divf %[[ONE]], %[[GS]] : f32
// CHECK-NEXT:    %[[SF:.*]] = arith.extf %[[S]] : f8E4M3FN to f32
// CHECK-NEXT:    %[[F:.*]] = arith.divf %[[R]], %[[SF]] : f32
// CHECK-NEXT:    linalg.yield %[[S]], %[[F]] : f8E4M3FN, f32
// CHECK:       affine_map<(d0, d1) -> (d0, (d1 floordiv 16))>
// CHECK:         arith.mulf
// CHECK-NEXT:    arith.maximumf
// CHECK-NEXT:    arith.minimumf
// CHECK-NEXT:    arith.cmpf uno
// CHECK-NEXT:    arith.select
// CHECK-NEXT:    arith.truncf %{{.*}} : f32 to f4E2M1FN
// CHECK-NOT:   mx_tensor
func.func @quantize_nvfp4(%x: tensor<8x64xf32>, %g: tensor<f32>) -> !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>> {
  %q = mx_tensor.quantize %x, %g {algorithm = "nvfp4"} : tensor<8x64xf32>, tensor<f32> -> !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>
  func.return %q : !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>
}

// -----
// NVFP4 dequantize with the per-tensor scale: element * (g * extf(block scale)).
// CHECK-LABEL: func.func @dequantize_nvfp4
// CHECK-SAME:    (%[[S0:[^:]*]]: tensor<8x4xf8E4M3FN>, %[[D0:[^:]*]]: tensor<8x64xf4E2M1FN>, %[[G:[^:]*]]: tensor<f32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 floordiv 16))>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[S0]], %[[D0]], %[[G]] : tensor<8x4xf8E4M3FN>, tensor<8x64xf4E2M1FN>, tensor<f32>)
// CHECK-NEXT:  ^bb0(%[[S:.*]]: f8E4M3FN, %[[D:.*]]: f4E2M1FN, %[[GS:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT:    %[[DF:.*]] = arith.extf %[[D]] : f4E2M1FN to f32
// CHECK-NEXT:    %[[SF:.*]] = arith.extf %[[S]] : f8E4M3FN to f32
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[GS]], %[[SF]] : f32
// CHECK-NEXT:    %[[V:.*]] = arith.mulf %[[DF]], %[[M]] : f32
// CHECK-NEXT:    %[[T:.*]] = arith.truncf %[[V]] : f32 to bf16
// CHECK-NEXT:    linalg.yield %[[T]] : bf16
// CHECK-NOT:   mx_tensor
func.func @dequantize_nvfp4(%m: !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>, %g: tensor<f32>) -> tensor<8x64xbf16> {
  %y = mx_tensor.dequantize %m, %g : !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>, tensor<f32> -> tensor<8x64xbf16>
  func.return %y : tensor<8x64xbf16>
}
