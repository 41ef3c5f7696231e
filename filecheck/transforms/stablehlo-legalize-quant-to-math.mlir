// RUN: xdsl-opt %s -p 'stablehlo-legalize-quant-to-math{exact=true}' | filecheck %s

// Every quantized StableHLO op becomes StableHLO on integers and floats; function
// signatures become storage integers.

// uniform_quantize of floats, as upstream: rank-0 parameters, chlo.broadcast_divide by the scale,
// chlo.broadcast_add of the zero point, clamp, then round half to even.
// CHECK-LABEL: func.func @quantize
// CHECK-SAME:    (%arg0: tensor<4xf32>) -> tensor<4xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<-3.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = stablehlo.constant dense<1.270000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = chlo.broadcast_divide %arg0, %[[V0]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = chlo.broadcast_add %[[V4]], %[[V1]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.clamp %[[V2]], %[[V5]], %[[V3]] : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V6]] : tensor<4xf32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.convert %[[V7]] : (tensor<4xf32>) -> tensor<4xi8>
// CHECK-NEXT:    func.return %[[V8]] : tensor<4xi8>
func.func @quantize(%arg0: tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// uniform_dequantize, as upstream: q - z exactly in i32 (storage of at most 16 bits), one conversion, * s.
// CHECK-LABEL: func.func @dequantize
// CHECK-SAME:    (%arg0: tensor<4xi8>) -> tensor<4xf32> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<-3> : tensor<i32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V2]], %[[V1]] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.convert %[[V3]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V4]], %[[V0]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[V5]] : tensor<4xf32>
func.func @dequantize(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// i32 storage with a zero point subtracts in i64 (upstream: i32, which can wrap); a zero point of 0 stays in i32.
// CHECK-LABEL: func.func @dequantize_i32
// CHECK-SAME:    (%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xi64>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V2]], %[[V1]] : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.convert %[[V3]] : (tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V4]], %[[V0]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.constant dense<2.500000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.convert %arg1 : tensor<4xi32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V8]], %[[V7]] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V10:[a-z0-9_]+]] = stablehlo.convert %[[V9]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V10]], %[[V6]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[V5]], %[[V11]] : tensor<4xf32>, tensor<4xf32>
func.func @dequantize_i32(%arg0: tensor<4x!quant.uniform<i32:f32, 1.0:3>>, %arg1: tensor<4x!quant.uniform<i32:f32, 0.25>>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<4x!quant.uniform<i32:f32, 1.0:3>>) -> tensor<4xf32>
  %1 = stablehlo.uniform_dequantize %arg1 : (tensor<4x!quant.uniform<i32:f32, 0.25>>) -> tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// Requantize between equal scales: upstream's merged scale (1) and zero point (+5) in f32, exact here, clamped.
// CHECK-LABEL: func.func @requantize_same_scale
// CHECK-SAME:    (%arg0: tensor<4xi8>) -> tensor<4xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V0]], %[[V1]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = stablehlo.constant dense<5.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = chlo.broadcast_add %[[V2]], %[[V3]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.constant dense<1.270000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.clamp %[[V5]], %[[V4]], %[[V6]] : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V7]] : tensor<4xf32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = stablehlo.convert %[[V8]] : (tensor<4xf32>) -> tensor<4xi8>
// CHECK-NEXT:    func.return %[[V9]] : tensor<4xi8>
func.func @requantize_same_scale(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:2>> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:2>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:2>>
}

// Requantize where s_from = 2 * s_to: upstream's f32 form 2 * q + (z_to - 2 * z_from), exact here, clamped.
// CHECK-LABEL: func.func @requantize
// CHECK-SAME:    (%arg0: tensor<4xi8>) -> tensor<4xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V0]], %[[V1]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = stablehlo.constant dense<8.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = chlo.broadcast_add %[[V2]], %[[V3]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.constant dense<1.270000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.clamp %[[V5]], %[[V4]], %[[V6]] : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V7]] : tensor<4xf32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = stablehlo.convert %[[V8]] : (tensor<4xf32>) -> tensor<4xi8>
// CHECK-NEXT:    func.return %[[V9]] : tensor<4xi8>
func.func @requantize(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.25:2>> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.25:2>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.25:2>>
}

// Per-axis quantize: scales and zero points are 1-D constants, broadcast_dimensions = [axis].
// CHECK-LABEL: func.func @quantize_per_axis
// CHECK-SAME:    (%arg0: tensor<2x3xf32>) -> tensor<2x3xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.constant dense<[5.000000e-01, 2.500000e-01, 2.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<[-3.000000e+00, 0.000000e+00, 7.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = stablehlo.constant dense<1.270000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = chlo.broadcast_divide %arg0, %[[V0]] {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = chlo.broadcast_add %[[V4]], %[[V1]] {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.clamp %[[V2]], %[[V5]], %[[V3]] : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V6]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.convert %[[V7]] : (tensor<2x3xf32>) -> tensor<2x3xi8>
// CHECK-NEXT:    func.return %[[V8]] : tensor<2x3xi8>
func.func @quantize_per_axis(%arg0: tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5:-3, 0.25, 2.0:7}>> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5:-3, 0.25, 2.0:7}>>
  func.return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {0.5:-3, 0.25, 2.0:7}>>
}

// Per-axis dequantize along dimension 0.
// CHECK-LABEL: func.func @dequantize_per_axis
// CHECK-SAME:    (%arg0: tensor<2x3xi8>) -> tensor<2x3xf32> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.constant dense<[5.000000e-01, 2.500000e-01]> : tensor<2xf32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<[-3, 0]> : tensor<2xi32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.convert %arg0 : (tensor<2x3xi8>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V2]], %[[V1]] {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.convert %[[V3]] : (tensor<2x3xi32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V4]], %[[V0]] {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[V5]] : tensor<2x3xf32>
func.func @dequantize_per_axis(%arg0: tensor<2x3x!quant.uniform<i8:f32:0, {0.5:-3, 0.25}>>) -> tensor<2x3xf32> {
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<2x3x!quant.uniform<i8:f32:0, {0.5:-3, 0.25}>>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// add, as upstream: each operand requantized to the result's parameters into i32 (exact here), then
// q_a' + q_b' - z_out, clamped.
// CHECK-LABEL: func.func @add_same_scale
// CHECK-SAME:    (%arg0: tensor<4xi8>, %arg1: tensor<4xi8>) -> tensor<4xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V0]], %[[V1]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = stablehlo.constant dense<5.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = chlo.broadcast_add %[[V2]], %[[V3]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V4]] : tensor<4xf32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.convert %[[V5]] : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.convert %arg1 : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V7]], %[[V8]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V10:[a-z0-9_]+]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = chlo.broadcast_add %[[V9]], %[[V10]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V12:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V11]] : tensor<4xf32>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = stablehlo.convert %[[V12]] : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:    %[[V15:[a-z0-9_]+]] = chlo.broadcast_add %[[V6]], %[[V13]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V16:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V15]], %[[V14]] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V17:[a-z0-9_]+]] = stablehlo.constant dense<-128> : tensor<i32>
// CHECK-NEXT:    %[[V18:[a-z0-9_]+]] = stablehlo.constant dense<127> : tensor<i32>
// CHECK-NEXT:    %[[V19:[a-z0-9_]+]] = stablehlo.clamp %[[V17]], %[[V16]], %[[V18]] : (tensor<i32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V20:[a-z0-9_]+]] = stablehlo.convert %[[V19]] : (tensor<4xi32>) -> tensor<4xi8>
// CHECK-NEXT:    func.return %[[V20]] : tensor<4xi8>
func.func @add_same_scale(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:2>> {
  %0 = stablehlo.add %arg0, %arg1 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:2>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:2>>
}

// Per-axis add of 8-bit storage: upstream's dequantize -> f32 add -> quantize (bit-identical to integers here).
// CHECK-LABEL: func.func @add_per_axis
// CHECK-SAME:    (%arg0: tensor<2x3xi8>) -> tensor<2x3xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.constant dense<[1.000000e-01, 5.000000e-01, 2.000000e-01]> : tensor<3xf32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<[-3, 2, 0]> : tensor<3xi32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.convert %arg0 : (tensor<2x3xi8>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V2]], %[[V1]] {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.convert %[[V3]] : (tensor<2x3xi32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V4]], %[[V0]] {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.constant dense<[1.000000e-01, 5.000000e-01, 2.000000e-01]> : tensor<3xf32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.constant dense<[-3, 2, 0]> : tensor<3xi32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.convert %arg0 : (tensor<2x3xi8>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V8]], %[[V7]] {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[V10:[a-z0-9_]+]] = stablehlo.convert %[[V9]] : (tensor<2x3xi32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V10]], %[[V6]] {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[V12:[a-z0-9_]+]] = stablehlo.add %[[V5]], %[[V11]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = stablehlo.constant dense<[1.000000e-01, 5.000000e-01, 2.000000e-01]> : tensor<3xf32>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = stablehlo.constant dense<[1.000000e+00, 0.000000e+00, -4.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %[[V15:[a-z0-9_]+]] = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V16:[a-z0-9_]+]] = stablehlo.constant dense<1.270000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V17:[a-z0-9_]+]] = chlo.broadcast_divide %[[V12]], %[[V13]] {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[V18:[a-z0-9_]+]] = chlo.broadcast_add %[[V17]], %[[V14]] {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[V19:[a-z0-9_]+]] = stablehlo.clamp %[[V15]], %[[V18]], %[[V16]] : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[V20:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V19]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[V21:[a-z0-9_]+]] = stablehlo.convert %[[V20]] : (tensor<2x3xf32>) -> tensor<2x3xi8>
// CHECK-NEXT:    func.return %[[V21]] : tensor<2x3xi8>
func.func @add_per_axis(%arg0: tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-3, 0.5:2, 0.2}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:1, 0.5, 0.2:-4}>> {
  %0 = stablehlo.add %arg0, %arg0 : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-3, 0.5:2, 0.2}>>, tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-3, 0.5:2, 0.2}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:1, 0.5, 0.2:-4}>>
  func.return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {0.1:1, 0.5, 0.2:-4}>>
}

// add with different scales falls back to dequantize -> f32 add -> quantize.
// CHECK-LABEL: func.func @add_different_scales
// CHECK-SAME:    (%arg0: tensor<4xi8>, %arg1: tensor<4xi8>) -> tensor<4xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<-3> : tensor<i32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V2]], %[[V1]] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.convert %[[V3]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V4]], %[[V0]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.constant dense<2.500000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.convert %arg1 : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V8]], %[[V7]] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V10:[a-z0-9_]+]] = stablehlo.convert %[[V9]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V10]], %[[V6]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V12:[a-z0-9_]+]] = stablehlo.add %[[V5]], %[[V11]] : tensor<4xf32>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V15:[a-z0-9_]+]] = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V16:[a-z0-9_]+]] = stablehlo.constant dense<1.270000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V17:[a-z0-9_]+]] = chlo.broadcast_divide %[[V12]], %[[V13]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V18:[a-z0-9_]+]] = chlo.broadcast_add %[[V17]], %[[V14]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V19:[a-z0-9_]+]] = stablehlo.clamp %[[V15]], %[[V18]], %[[V16]] : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V20:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V19]] : tensor<4xf32>
// CHECK-NEXT:    %[[V21:[a-z0-9_]+]] = stablehlo.convert %[[V20]] : (tensor<4xf32>) -> tensor<4xi8>
// CHECK-NEXT:    func.return %[[V21]] : tensor<4xi8>
func.func @add_different_scales(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<4x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<4x!quant.uniform<i8:f32, 1.0>> {
  %0 = stablehlo.add %arg0, %arg1 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<4x!quant.uniform<i8:f32, 1.0>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 1.0>>
}

// maximum on one type works on storage (dequantization is monotone).
// CHECK-LABEL: func.func @maximum
// CHECK-SAME:    (%arg0: tensor<4xi8>, %arg1: tensor<4xi8>) -> tensor<4xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.maximum %arg0, %arg1 : tensor<4xi8>
// CHECK-NEXT:    func.return %[[V0]] : tensor<4xi8>
func.func @maximum(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.maximum %arg0, %arg1 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// Any other element-wise op: dequantize -> float op -> quantize.
// CHECK-LABEL: func.func @abs
// CHECK-SAME:    (%arg0: tensor<4xi8>) -> tensor<4xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<-3> : tensor<i32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V2]], %[[V1]] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.convert %[[V3]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V4]], %[[V0]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.abs %[[V5]] : tensor<4xf32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.constant dense<-3.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V10:[a-z0-9_]+]] = stablehlo.constant dense<1.270000e+02> : tensor<f32>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = chlo.broadcast_divide %[[V6]], %[[V7]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V12:[a-z0-9_]+]] = chlo.broadcast_add %[[V11]], %[[V8]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = stablehlo.clamp %[[V9]], %[[V12]], %[[V10]] : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V13]] : tensor<4xf32>
// CHECK-NEXT:    %[[V15:[a-z0-9_]+]] = stablehlo.convert %[[V14]] : (tensor<4xf32>) -> tensor<4xi8>
// CHECK-NEXT:    func.return %[[V15]] : tensor<4xi8>
func.func @abs(%arg0: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.abs %arg0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// Integer dot_general: i32 accumulation, - z_lhs * sum_K(rhs), one f64 rescale (0.5 * 0.25 / 1), + z_out, clamp, round.
// CHECK-LABEL: func.func @dot_per_tensor
// CHECK-SAME:    (%arg0: tensor<2x3xi8>, %arg1: tensor<3x4xi8>) -> tensor<2x4xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.convert %arg1 : (tensor<3x4xi8>) -> tensor<3x4xi32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = stablehlo.reduce(%[[V1]] init: %[[V2]]) applies stablehlo.add across dimensions = [0] : (tensor<3x4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V3]], dims = [1] : (tensor<4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = stablehlo.constant dense<-3> : tensor<i32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V5]], dims = [] : (tensor<i32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.multiply %[[V4]], %[[V6]] : tensor<2x4xi32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.subtract %[[V0]], %[[V7]] : tensor<2x4xi32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = stablehlo.convert %[[V8]] : (tensor<2x4xi32>) -> tensor<2x4xf64>
// CHECK-NEXT:    %[[V10:[a-z0-9_]+]] = stablehlo.constant dense<1.250000e-01> : tensor<f64>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V10]], dims = [] : (tensor<f64>) -> tensor<2x4xf64>
// CHECK-NEXT:    %[[V12:[a-z0-9_]+]] = stablehlo.multiply %[[V9]], %[[V11]] : tensor<2x4xf64>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = stablehlo.constant dense<1.000000e+00> : tensor<f64>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V13]], dims = [] : (tensor<f64>) -> tensor<2x4xf64>
// CHECK-NEXT:    %[[V15:[a-z0-9_]+]] = stablehlo.add %[[V12]], %[[V14]] : tensor<2x4xf64>
// CHECK-NEXT:    %[[V16:[a-z0-9_]+]] = stablehlo.constant dense<-1.280000e+02> : tensor<f64>
// CHECK-NEXT:    %[[V17:[a-z0-9_]+]] = stablehlo.constant dense<1.270000e+02> : tensor<f64>
// CHECK-NEXT:    %[[V18:[a-z0-9_]+]] = stablehlo.clamp %[[V16]], %[[V15]], %[[V17]] : (tensor<f64>, tensor<2x4xf64>, tensor<f64>) -> tensor<2x4xf64>
// CHECK-NEXT:    %[[V19:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V18]] : tensor<2x4xf64>
// CHECK-NEXT:    %[[V20:[a-z0-9_]+]] = stablehlo.convert %[[V19]] : (tensor<2x4xf64>) -> tensor<2x4xi8>
// CHECK-NEXT:    func.return %[[V20]] : tensor<2x4xi8>
func.func @dot_per_tensor(%arg0: tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<3x4x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x4x!quant.uniform<i8:f32, 1.0:1>> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x4x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x4x!quant.uniform<i8:f32, 1.0:1>>
  func.return %0 : tensor<2x4x!quant.uniform<i8:f32, 1.0:1>>
}

// Per-axis rhs and result: the rescale is a per-channel constant (0.5 * {0.25, 0.5} / {0.25, 0.125}).
// CHECK-LABEL: func.func @dot_per_axis
// CHECK-SAME:    (%arg0: tensor<2x3xi8>, %arg1: tensor<3x2xi8>) -> tensor<2x2xi32> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.convert %arg1 : (tensor<3x2xi8>) -> tensor<3x2xi32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = stablehlo.reduce(%[[V1]] init: %[[V2]]) applies stablehlo.add across dimensions = [0] : (tensor<3x2xi32>, tensor<i32>) -> tensor<2xi32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V3]], dims = [1] : (tensor<2xi32>) -> tensor<2x2xi32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = stablehlo.constant dense<-3> : tensor<i32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V5]], dims = [] : (tensor<i32>) -> tensor<2x2xi32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.multiply %[[V4]], %[[V6]] : tensor<2x2xi32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.subtract %[[V0]], %[[V7]] : tensor<2x2xi32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = stablehlo.convert %[[V8]] : (tensor<2x2xi32>) -> tensor<2x2xf64>
// CHECK-NEXT:    %[[V10:[a-z0-9_]+]] = stablehlo.constant dense<[5.000000e-01, 2.000000e+00]> : tensor<2xf64>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V10]], dims = [1] : (tensor<2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT:    %[[V12:[a-z0-9_]+]] = stablehlo.multiply %[[V9]], %[[V11]] : tensor<2x2xf64>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = stablehlo.constant dense<0xC1E0000000000000> : tensor<f64>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = stablehlo.constant dense<0x41DFFFFFFFC00000> : tensor<f64>
// CHECK-NEXT:    %[[V15:[a-z0-9_]+]] = stablehlo.clamp %[[V13]], %[[V12]], %[[V14]] : (tensor<f64>, tensor<2x2xf64>, tensor<f64>) -> tensor<2x2xf64>
// CHECK-NEXT:    %[[V16:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V15]] : tensor<2x2xf64>
// CHECK-NEXT:    %[[V17:[a-z0-9_]+]] = stablehlo.convert %[[V16]] : (tensor<2x2xf64>) -> tensor<2x2xi32>
// CHECK-NEXT:    func.return %[[V17]] : tensor<2x2xi32>
func.func @dot_per_axis(%arg0: tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, %arg1: tensor<3x2x!quant.uniform<i8:f32:1, {0.25, 0.5}>>) -> tensor<2x2x!quant.uniform<i32:f32:1, {0.25, 0.125}>> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x2x!quant.uniform<i8:f32:1, {0.25, 0.5}>>) -> tensor<2x2x!quant.uniform<i32:f32:1, {0.25, 0.125}>>
  func.return %0 : tensor<2x2x!quant.uniform<i32:f32:1, {0.25, 0.125}>>
}

// Long contraction: the bound K * (max|q_lhs| + |z_lhs|) * max|q_rhs| = 65536 * 256 * 128 = 2^31 does not fit
// i32, so the dot_general and the zero-point sums accumulate in i64 (still one f64 rescale).
// CHECK-LABEL: func.func @dot_long_contraction
// CHECK-SAME:    (%arg0: tensor<1x65536xi8>, %arg1: tensor<65536x1xi8>) -> tensor<1x1xi32> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<1x65536xi8>, tensor<65536x1xi8>) -> tensor<1x1xi64>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.convert %arg1 : (tensor<65536x1xi8>) -> tensor<65536x1xi64>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = stablehlo.reduce(%[[V1]] init: %[[V2]]) applies stablehlo.add across dimensions = [0] : (tensor<65536x1xi64>, tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V3]], dims = [1] : (tensor<1xi64>) -> tensor<1x1xi64>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = stablehlo.constant dense<-128> : tensor<i64>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V5]], dims = [] : (tensor<i64>) -> tensor<1x1xi64>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.multiply %[[V4]], %[[V6]] : tensor<1x1xi64>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.subtract %[[V0]], %[[V7]] : tensor<1x1xi64>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = stablehlo.convert %[[V8]] : (tensor<1x1xi64>) -> tensor<1x1xf64>
// CHECK-NEXT:    %[[V10:[a-z0-9_]+]] = stablehlo.constant dense<1.250000e-01> : tensor<f64>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V10]], dims = [] : (tensor<f64>) -> tensor<1x1xf64>
// CHECK-NEXT:    %[[V12:[a-z0-9_]+]] = stablehlo.multiply %[[V9]], %[[V11]] : tensor<1x1xf64>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = stablehlo.constant dense<0xC1E0000000000000> : tensor<f64>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = stablehlo.constant dense<0x41DFFFFFFFC00000> : tensor<f64>
// CHECK-NEXT:    %[[V15:[a-z0-9_]+]] = stablehlo.clamp %[[V13]], %[[V12]], %[[V14]] : (tensor<f64>, tensor<1x1xf64>, tensor<f64>) -> tensor<1x1xf64>
// CHECK-NEXT:    %[[V16:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V15]] : tensor<1x1xf64>
// CHECK-NEXT:    %[[V17:[a-z0-9_]+]] = stablehlo.convert %[[V16]] : (tensor<1x1xf64>) -> tensor<1x1xi32>
// CHECK-NEXT:    func.return %[[V17]] : tensor<1x1xi32>
func.func @dot_long_contraction(%arg0: tensor<1x65536x!quant.uniform<i8:f32, 0.5:-128>>, %arg1: tensor<65536x1x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x1x!quant.uniform<i32:f32, 1.0>> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<1x65536x!quant.uniform<i8:f32, 0.5:-128>>, tensor<65536x1x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x1x!quant.uniform<i32:f32, 1.0>>
  func.return %0 : tensor<1x1x!quant.uniform<i32:f32, 1.0>>
}

// Hybrid dot_general (float lhs), as upstream: optimization_barrier on the rhs storage, its f32 dequantization, the op on floats.
// CHECK-LABEL: func.func @dot_hybrid
// CHECK-SAME:    (%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xi8>) -> tensor<2x4xf32> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.optimization_barrier %arg1 : tensor<3x4xi8>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<2.500000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = stablehlo.convert %[[V0]] : (tensor<3x4xi8>) -> tensor<3x4xf32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V3]], %[[V1]] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = stablehlo.dot_general %arg0, %[[V4]], contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %[[V5]] : tensor<2x4xf32>
func.func @dot_hybrid(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// Integer convolution: zero points subtracted first so padding stays a real zero; rescale 0.5 * 0.25 / 2.
// CHECK-LABEL: func.func @convolution
// CHECK-SAME:    (%img: tensor<1x4x4x1xi8>, %k: tensor<3x3x1x2xi8>) -> tensor<1x4x4x2xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.convert %[[V1:[a-z0-9_]+]] : (tensor<1x4x4x1xi8>) -> tensor<1x4x4x1xi32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.constant dense<-3> : tensor<i32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V2]], dims = [] : (tensor<i32>) -> tensor<1x4x4x1xi32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.subtract %[[V0]], %[[V3]] : tensor<1x4x4x1xi32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = stablehlo.convert %[[V6:[a-z0-9_]+]] : (tensor<3x3x1x2xi8>) -> tensor<3x3x1x2xi32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.convolution(%[[V4]], %[[V5]]) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi32>, tensor<3x3x1x2xi32>) -> tensor<1x4x4x2xi32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.convert %[[V7]] : (tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xf64>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = stablehlo.constant dense<6.250000e-02> : tensor<f64>
// CHECK-NEXT:    %[[V10:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V9]], dims = [] : (tensor<f64>) -> tensor<1x4x4x2xf64>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = stablehlo.multiply %[[V8]], %[[V10]] : tensor<1x4x4x2xf64>
// CHECK-NEXT:    %[[V12:[a-z0-9_]+]] = stablehlo.constant dense<1.000000e+00> : tensor<f64>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V12]], dims = [] : (tensor<f64>) -> tensor<1x4x4x2xf64>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = stablehlo.add %[[V11]], %[[V13]] : tensor<1x4x4x2xf64>
// CHECK-NEXT:    %[[V15:[a-z0-9_]+]] = stablehlo.constant dense<-1.280000e+02> : tensor<f64>
// CHECK-NEXT:    %[[V16:[a-z0-9_]+]] = stablehlo.constant dense<1.270000e+02> : tensor<f64>
// CHECK-NEXT:    %[[V17:[a-z0-9_]+]] = stablehlo.clamp %[[V15]], %[[V14]], %[[V16]] : (tensor<f64>, tensor<1x4x4x2xf64>, tensor<f64>) -> tensor<1x4x4x2xf64>
// CHECK-NEXT:    %[[V18:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V17]] : tensor<1x4x4x2xf64>
// CHECK-NEXT:    %[[V19:[a-z0-9_]+]] = stablehlo.convert %[[V18]] : (tensor<1x4x4x2xf64>) -> tensor<1x4x4x2xi8>
// CHECK-NEXT:    func.return %[[V19]] : tensor<1x4x4x2xi8>
func.func @convolution(%img: tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5:-3>>, %k: tensor<3x3x1x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 2.0:1>> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x3x1x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 2.0:1>>
  func.return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 2.0:1>>
}

// A sum into a wider accumulator: raw storage summed in i64 once, count * zero-point terms applied to the result (9 = z + 4 * (0 - z)), one clamp.
// CHECK-LABEL: func.func @reduce_sum
// CHECK-SAME:    (%x: tensor<4x4xi8>, %z: tensor<i8>) -> tensor<4xi32> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.convert %[[V1:[a-z0-9_]+]] : (tensor<i8>) -> tensor<f32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V0]], %[[V2]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V3]] : tensor<f32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = stablehlo.convert %[[V4]] : (tensor<f32>) -> tensor<i32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.convert %[[V5]] : (tensor<i32>) -> tensor<i64>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.constant dense<-3> : tensor<i64>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.subtract %[[V6]], %[[V7]] : tensor<i64>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = stablehlo.convert %[[V10:[a-z0-9_]+]] : (tensor<4x4xi8>) -> tensor<4x4xi64>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = stablehlo.reduce(%[[V9]] init: %[[V8]]) applies stablehlo.add across dimensions = [0] : (tensor<4x4xi64>, tensor<i64>) -> tensor<4xi64>
// CHECK-NEXT:    %[[V12:[a-z0-9_]+]] = stablehlo.constant dense<9> : tensor<i64>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V12]], dims = [] : (tensor<i64>) -> tensor<4xi64>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = stablehlo.add %[[V11]], %[[V13]] : tensor<4xi64>
// CHECK-NEXT:    %[[V15:[a-z0-9_]+]] = stablehlo.constant dense<-2147483648> : tensor<i64>
// CHECK-NEXT:    %[[V16:[a-z0-9_]+]] = stablehlo.constant dense<2147483647> : tensor<i64>
// CHECK-NEXT:    %[[V17:[a-z0-9_]+]] = stablehlo.clamp %[[V15]], %[[V14]], %[[V16]] : (tensor<i64>, tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
// CHECK-NEXT:    %[[V18:[a-z0-9_]+]] = stablehlo.convert %[[V17]] : (tensor<4xi64>) -> tensor<4xi32>
// CHECK-NEXT:    func.return %[[V18]] : tensor<4xi32>
func.func @reduce_sum(%x: tensor<4x4x!quant.uniform<i8:f32, 0.5:-3>>, %z: tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i32:f32, 0.5:-3>> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4x4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i32:f32, 0.5:-3>>
   reducer(%a: tensor<!quant.uniform<i32:f32, 0.5:-3>>, %b: tensor<!quant.uniform<i32:f32, 0.5:-3>>)  {
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i32:f32, 0.5:-3>>
    stablehlo.return %s : tensor<!quant.uniform<i32:f32, 0.5:-3>>
  }
  func.return %0 : tensor<4x!quant.uniform<i32:f32, 0.5:-3>>
}

// reduce_window with a maximum body on one type: the body and operands become storage integers.
// CHECK-LABEL: func.func @reduce_window_max
// CHECK-SAME:    (%x: tensor<4x4xi8>, %z: tensor<i8>) -> tensor<2x4xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = "stablehlo.reduce_window"(%[[V1:[a-z0-9_]+]], %[[V2:[a-z0-9_]+]]) <{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 1>}> ({
// CHECK-NEXT:    ^bb0(%[[V3:[a-z0-9_]+]]: tensor<i8>, %[[V4:[a-z0-9_]+]]: tensor<i8>):
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = stablehlo.maximum %[[V3]], %[[V4]] : tensor<i8>
// CHECK-NEXT:    stablehlo.return %[[V5]] : tensor<i8>
// CHECK-NEXT:    }) : (tensor<4x4xi8>, tensor<i8>) -> tensor<2x4xi8>
// CHECK-NEXT:    func.return %[[V0]] : tensor<2x4xi8>
func.func @reduce_window_max(%x: tensor<4x4x!quant.uniform<i8:f32, 2.0:15>>, %z: tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<2x4x!quant.uniform<i8:f32, 2.0:15>> {
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 2.0:15>>, %b: tensor<!quant.uniform<i8:f32, 2.0:15>>):
    %m = stablehlo.maximum %a, %b : tensor<!quant.uniform<i8:f32, 2.0:15>>
    stablehlo.return %m : tensor<!quant.uniform<i8:f32, 2.0:15>>
  }) {padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 1>} : (tensor<4x4x!quant.uniform<i8:f32, 2.0:15>>, tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<2x4x!quant.uniform<i8:f32, 2.0:15>>
  func.return %0 : tensor<2x4x!quant.uniform<i8:f32, 2.0:15>>
}

// Data movement changes element types only.
// CHECK-LABEL: func.func @data_movement
// CHECK-SAME:    (%x: tensor<2x3xi8>) -> tensor<6xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.transpose %[[V1:[a-z0-9_]+]], dims = [1, 0] : (tensor<2x3xi8>) -> tensor<3x2xi8>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.reshape %[[V0]] : (tensor<3x2xi8>) -> tensor<6xi8>
// CHECK-NEXT:    func.return %[[V2]] : tensor<6xi8>
func.func @data_movement(%x: tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<6x!quant.uniform<i8:f32, 0.5:-3>> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>
  %r = stablehlo.reshape %t : (tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<6x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %r : tensor<6x!quant.uniform<i8:f32, 0.5:-3>>
}

// A quantized constant becomes its storage integers.
// CHECK-LABEL: func.func @constant
// CHECK-SAME:    () -> tensor<2xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.constant dense<[1, -2]> : tensor<2xi8>
// CHECK-NEXT:    func.return %[[V0]] : tensor<2xi8>
func.func @constant() -> tensor<2x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.constant() {value = dense<[1, -2]> : tensor<2xi8>} : () -> tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
}

// select on one type chooses storage integers.
// CHECK-LABEL: func.func @select_same_type
// CHECK-SAME:    (%p: tensor<4xi1>, %a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.select %[[V1:[a-z0-9_]+]], %[[V2:[a-z0-9_]+]], %[[V3:[a-z0-9_]+]] : tensor<4xi1>, tensor<4xi8>
// CHECK-NEXT:    func.return %[[V0]] : tensor<4xi8>
func.func @select_same_type(%p: tensor<4xi1>, %a: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %b: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.select %p, %a, %b : (tensor<4xi1>, tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// compare dequantizes both sides (the scales differ).
// CHECK-LABEL: func.func @compare
// CHECK-SAME:    (%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi1> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V1:[a-z0-9_]+]] = stablehlo.constant dense<-3> : tensor<i32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.convert %[[V3:[a-z0-9_]+]] : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V2]], %[[V1]] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = stablehlo.convert %[[V4]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V5]], %[[V0]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.constant dense<2.500000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = stablehlo.convert %[[V10:[a-z0-9_]+]] : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = chlo.broadcast_subtract %[[V9]], %[[V8]] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[V12:[a-z0-9_]+]] = stablehlo.convert %[[V11]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V12]], %[[V7]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = stablehlo.compare  LT, %[[V6]], %[[V13]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:    func.return %[[V14]] : tensor<4xi1>
func.func @compare(%a: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %b: tensor<4x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %a, %b : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// reduce_window sum: inputs requantized (same scale, +4) and centred, summed in i64, then + z and clamp.
// CHECK-LABEL: func.func @reduce_window_sum
// CHECK-SAME:    (%x: tensor<6xi8>, %z: tensor<i8>) -> tensor<3xi16> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.convert %[[V1:[a-z0-9_]+]] : (tensor<i8>) -> tensor<f32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V0]], %[[V2]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.constant dense<4.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = chlo.broadcast_add %[[V3]], %[[V4]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.constant dense<-3.276800e+04> : tensor<f32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.constant dense<3.276700e+04> : tensor<f32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.clamp %[[V6]], %[[V5]], %[[V7]] : tensor<f32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V8]] : tensor<f32>
// CHECK-NEXT:    %[[V10:[a-z0-9_]+]] = stablehlo.convert %[[V9]] : (tensor<f32>) -> tensor<i16>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = stablehlo.convert %[[V10]] : (tensor<i16>) -> tensor<i64>
// CHECK-NEXT:    %[[V12:[a-z0-9_]+]] = stablehlo.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = stablehlo.subtract %[[V11]], %[[V12]] : tensor<i64>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = stablehlo.convert %[[V15:[a-z0-9_]+]] : (tensor<6xi8>) -> tensor<6xf32>
// CHECK-NEXT:    %[[V16:[a-z0-9_]+]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V17:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V14]], %[[V16]] : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
// CHECK-NEXT:    %[[V18:[a-z0-9_]+]] = stablehlo.constant dense<4.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V19:[a-z0-9_]+]] = chlo.broadcast_add %[[V17]], %[[V18]] : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
// CHECK-NEXT:    %[[V20:[a-z0-9_]+]] = stablehlo.constant dense<-3.276800e+04> : tensor<f32>
// CHECK-NEXT:    %[[V21:[a-z0-9_]+]] = stablehlo.constant dense<3.276700e+04> : tensor<f32>
// CHECK-NEXT:    %[[V22:[a-z0-9_]+]] = stablehlo.clamp %[[V20]], %[[V19]], %[[V21]] : (tensor<f32>, tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
// CHECK-NEXT:    %[[V23:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V22]] : tensor<6xf32>
// CHECK-NEXT:    %[[V24:[a-z0-9_]+]] = stablehlo.convert %[[V23]] : (tensor<6xf32>) -> tensor<6xi16>
// CHECK-NEXT:    %[[V25:[a-z0-9_]+]] = stablehlo.convert %[[V24]] : (tensor<6xi16>) -> tensor<6xi64>
// CHECK-NEXT:    %[[V26:[a-z0-9_]+]] = stablehlo.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %[[V27:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V26]], dims = [] : (tensor<i64>) -> tensor<6xi64>
// CHECK-NEXT:    %[[V28:[a-z0-9_]+]] = stablehlo.subtract %[[V25]], %[[V27]] : tensor<6xi64>
// CHECK-NEXT:    %[[V29:[a-z0-9_]+]] = "stablehlo.reduce_window"(%[[V28]], %[[V13]]) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
// CHECK-NEXT:    ^bb0(%[[V30:[a-z0-9_]+]]: tensor<i64>, %[[V31:[a-z0-9_]+]]: tensor<i64>):
// CHECK-NEXT:    %[[V32:[a-z0-9_]+]] = stablehlo.add %[[V30]], %[[V31]] : tensor<i64>
// CHECK-NEXT:    stablehlo.return %[[V32]] : tensor<i64>
// CHECK-NEXT:    }) : (tensor<6xi64>, tensor<i64>) -> tensor<3xi64>
// CHECK-NEXT:    %[[V33:[a-z0-9_]+]] = stablehlo.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %[[V34:[a-z0-9_]+]] = stablehlo.broadcast_in_dim %[[V33]], dims = [] : (tensor<i64>) -> tensor<3xi64>
// CHECK-NEXT:    %[[V35:[a-z0-9_]+]] = stablehlo.add %[[V29]], %[[V34]] : tensor<3xi64>
// CHECK-NEXT:    %[[V36:[a-z0-9_]+]] = stablehlo.constant dense<-32768> : tensor<i64>
// CHECK-NEXT:    %[[V37:[a-z0-9_]+]] = stablehlo.constant dense<32767> : tensor<i64>
// CHECK-NEXT:    %[[V38:[a-z0-9_]+]] = stablehlo.clamp %[[V36]], %[[V35]], %[[V37]] : (tensor<i64>, tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
// CHECK-NEXT:    %[[V39:[a-z0-9_]+]] = stablehlo.convert %[[V38]] : (tensor<3xi64>) -> tensor<3xi16>
// CHECK-NEXT:    func.return %[[V39]] : tensor<3xi16>
func.func @reduce_window_sum(%x: tensor<6x!quant.uniform<i8:f32, 0.5:-3>>, %z: tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x!quant.uniform<i16:f32, 0.5:1>> {
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<!quant.uniform<i16:f32, 0.5:1>>, %b: tensor<!quant.uniform<i16:f32, 0.5:1>>):
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i16:f32, 0.5:1>>
    stablehlo.return %s : tensor<!quant.uniform<i16:f32, 0.5:1>>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<6x!quant.uniform<i8:f32, 0.5:-3>>, tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x!quant.uniform<i16:f32, 0.5:1>>
  func.return %0 : tensor<3x!quant.uniform<i16:f32, 0.5:1>>
}

// A maximum into a wider accumulator (s_from = 2 * s_to): the operands are requantized in integers first.
// CHECK-LABEL: func.func @reduce_max_wider
// CHECK-SAME:    (%x: tensor<4xi8>, %z: tensor<i8>) -> tensor<i16> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.convert %[[V1:[a-z0-9_]+]] : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V0]], %[[V2]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.constant dense<6.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = chlo.broadcast_add %[[V3]], %[[V4]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.constant dense<-3.276800e+04> : tensor<f32>
// CHECK-NEXT:    %[[V7:[a-z0-9_]+]] = stablehlo.constant dense<3.276700e+04> : tensor<f32>
// CHECK-NEXT:    %[[V8:[a-z0-9_]+]] = stablehlo.clamp %[[V6]], %[[V5]], %[[V7]] : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[V9:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V8]] : tensor<4xf32>
// CHECK-NEXT:    %[[V10:[a-z0-9_]+]] = stablehlo.convert %[[V9]] : (tensor<4xf32>) -> tensor<4xi16>
// CHECK-NEXT:    %[[V11:[a-z0-9_]+]] = stablehlo.convert %[[V12:[a-z0-9_]+]] : (tensor<i8>) -> tensor<f32>
// CHECK-NEXT:    %[[V13:[a-z0-9_]+]] = stablehlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V14:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V11]], %[[V13]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[V15:[a-z0-9_]+]] = stablehlo.constant dense<6.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V16:[a-z0-9_]+]] = chlo.broadcast_add %[[V14]], %[[V15]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[V17:[a-z0-9_]+]] = stablehlo.constant dense<-3.276800e+04> : tensor<f32>
// CHECK-NEXT:    %[[V18:[a-z0-9_]+]] = stablehlo.constant dense<3.276700e+04> : tensor<f32>
// CHECK-NEXT:    %[[V19:[a-z0-9_]+]] = stablehlo.clamp %[[V17]], %[[V16]], %[[V18]] : tensor<f32>
// CHECK-NEXT:    %[[V20:[a-z0-9_]+]] = stablehlo.round_nearest_even %[[V19]] : tensor<f32>
// CHECK-NEXT:    %[[V21:[a-z0-9_]+]] = stablehlo.convert %[[V20]] : (tensor<f32>) -> tensor<i16>
// CHECK-NEXT:    %[[V22:[a-z0-9_]+]] = stablehlo.reduce(%[[V10]] init: %[[V21]]) applies stablehlo.maximum across dimensions = [0] : (tensor<4xi16>, tensor<i16>) -> tensor<i16>
// CHECK-NEXT:    func.return %[[V22]] : tensor<i16>
func.func @reduce_max_wider(%x: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %z: tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<!quant.uniform<i16:f32, 0.25>> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<!quant.uniform<i16:f32, 0.25>>
   reducer(%a: tensor<!quant.uniform<i16:f32, 0.25>>, %b: tensor<!quant.uniform<i16:f32, 0.25>>)  {
    %m = stablehlo.maximum %a, %b : tensor<!quant.uniform<i16:f32, 0.25>>
    stablehlo.return %m : tensor<!quant.uniform<i16:f32, 0.25>>
  }
  func.return %0 : tensor<!quant.uniform<i16:f32, 0.25>>
}

// Hybrid convolution, as upstream: optimization_barrier on the rhs storage, its f32 dequantization, the op on floats.
// CHECK-LABEL: func.func @convolution_hybrid
// CHECK-SAME:    (%img: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x2xi8>) -> tensor<1x2x2x2xf32> {
// CHECK-NEXT:    %[[V0:[a-z0-9_]+]] = stablehlo.optimization_barrier %[[V1:[a-z0-9_]+]] : tensor<3x3x1x2xi8>
// CHECK-NEXT:    %[[V2:[a-z0-9_]+]] = stablehlo.constant dense<2.500000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V3:[a-z0-9_]+]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V4:[a-z0-9_]+]] = stablehlo.convert %[[V0]] : (tensor<3x3x1x2xi8>) -> tensor<3x3x1x2xf32>
// CHECK-NEXT:    %[[V5:[a-z0-9_]+]] = chlo.broadcast_multiply %[[V4]], %[[V2]] : (tensor<3x3x1x2xf32>, tensor<f32>) -> tensor<3x3x1x2xf32>
// CHECK-NEXT:    %[[V6:[a-z0-9_]+]] = stablehlo.convolution(%[[V7:[a-z0-9_]+]], %[[V5]]) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32>
// CHECK-NEXT:    func.return %[[V6]] : tensor<1x2x2x2xf32>
func.func @convolution_hybrid(%img: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x2x2x2xf32> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x2x2x2xf32>
  func.return %0 : tensor<1x2x2x2xf32>
}
