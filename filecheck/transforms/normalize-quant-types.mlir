// RUN: xdsl-opt %s -p normalize-quant-types | filecheck %s

// One scale -> per-layer.
// CHECK-LABEL: func.func @per_layer(%arg0: tensor<?x?x!quant.uniform<i8:f32, 2.000000e+00:127>>) -> tensor<?x?x!quant.uniform<i8:f32, 2.000000e+00:127>>
func.func @per_layer(%arg0: tensor<?x?x!quant.uniform<i8:f32:{0:1, 1:4}, {{2.0:127}}>>) -> tensor<?x?x!quant.uniform<i8:f32:{0:1, 1:4}, {{2.0:127}}>> {
  return %arg0 : tensor<?x?x!quant.uniform<i8:f32:{0:1, 1:4}, {{2.0:127}}>>
}

// One varying dimension with block size 1 -> per-axis; op results and bounds/storage are kept.
// CHECK-LABEL: func.func @per_axis(%arg0: tensor<?x?xf32>) -> tensor<?x?x!quant.uniform<u8<0:100>:f16:0, {2.000000e+00:7,3.000000e+00:9}>>
// CHECK:         quant.qcast %{{.*}} : tensor<?x?xf16> to tensor<?x?x!quant.uniform<u8<0:100>:f16:0, {2.000000e+00:7,3.000000e+00:9}>>
func.func @per_axis(%arg0: tensor<?x?xf32>) -> tensor<?x?x!quant.uniform<u8<0:100>:f16:{0:1}, {{2.0:7}, {3.0:9}}>> {
  %0 = arith.truncf %arg0 : tensor<?x?xf32> to tensor<?x?xf16>
  %1 = quant.qcast %0 : tensor<?x?xf16> to tensor<?x?x!quant.uniform<u8<0:100>:f16:{0:1}, {{2.0:7}, {3.0:9}}>>
  return %1 : tensor<?x?x!quant.uniform<u8<0:100>:f16:{0:1}, {{2.0:7}, {3.0:9}}>>
}

// A 2x2 scale tensor stays sub-channel.
// CHECK-LABEL: func.func @stays(%arg0: tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{[{][{]}}2.000000e+00, 3.000000e+00}, {4.000000e+00, 5.000000e+00{{[}][}]}}>>)
func.func @stays(%arg0: tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0, 3.0}, {4.0, 5.0}}>>) {
  return
}

// Block size 2 on the varying axis: per-axis would mean something else (upstream converts it
// into a type that fails verification), so it stays.
// CHECK-LABEL: func.func @blocked(%arg0: tensor<5x6x!quant.uniform<i8:f32:{1:2}, {{[{][{]}}2.000000e+00:1, 3.000000e+00:2, 4.000000e+00:3{{[}][}]}}>>)
func.func @blocked(%arg0: tensor<5x6x!quant.uniform<i8:f32:{1:2}, {{2.0:1, 3.0:2, 4.0:3}}>>) {
  return
}
