// RUN: xdsl-opt %s -p tosa-rescale-legalize-to-stablehlo --split-input-file | filecheck %s
// tosa.rescale as StableHLO i64 math. The rescales upstream lowers (per-tensor,
// SINGLE_ROUND, scale32, signed) get upstream's sequence (full-shape constants, shifts);
// the others: `>> shift` is a truncating divide by 2^shift corrected towards -inf, and
// rounding terms and 2^shift are folded from the constant shifts.

// Upstream's case (legalize_tosa_rescale_to_stablehlo.mlir): quantized i8 input, i32 output.
// CHECK-LABEL: func.func @rescale
func.func @rescale(%arg0 : tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>) -> tensor<2x2xi32> {
  %multiplier = "tosa.const"() {values = dense<1431655765> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<13> : tensor<1xi8>} : () -> tensor<1xi8>
  %input_zp = "tosa.const"() {values = dense<-1> : tensor<1xi8>} : () -> tensor<1xi8>
  %output_zp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %0 = tosa.rescale %arg0, %multiplier, %shift, %input_zp, %output_zp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}
// CHECK-NOT:  tosa.
// CHECK:      %[[ARG:.+]] = stablehlo.bitcast_convert %arg0 : (tensor<2x2x!quant.uniform<i8:f32, 2.500000e-02:-1>>) -> tensor<2x2xi8>
// CHECK-NEXT: %[[MC:.+]] = stablehlo.constant dense<1431655765> : tensor<2x2xi32>
// CHECK-NEXT: %[[SC:.+]] = stablehlo.constant dense<13> : tensor<2x2xi8>
// CHECK-NEXT: %[[IZC:.+]] = stablehlo.constant dense<-1> : tensor<2x2xi32>
// CHECK-NEXT: %[[OZC:.+]] = stablehlo.constant dense<0> : tensor<2x2xi32>
// CHECK-NEXT: %[[ONE:.+]] = stablehlo.constant dense<1> : tensor<2x2xi64>
// CHECK-NEXT: %[[LO:.+]] = stablehlo.constant dense<-2147483648> : tensor<2x2xi64>
// CHECK-NEXT: %[[HI:.+]] = stablehlo.constant dense<2147483647> : tensor<2x2xi64>
// CHECK-NEXT: %[[M:.+]] = stablehlo.convert %[[MC]] : (tensor<2x2xi32>) -> tensor<2x2xi64>
// CHECK-NEXT: %[[S:.+]] = stablehlo.convert %[[SC]] : (tensor<2x2xi8>) -> tensor<2x2xi64>
// CHECK-NEXT: %[[IZP:.+]] = stablehlo.convert %[[IZC]] : (tensor<2x2xi32>) -> tensor<2x2xi64>
// CHECK-NEXT: %[[OZP:.+]] = stablehlo.convert %[[OZC]] : (tensor<2x2xi32>) -> tensor<2x2xi64>
// CHECK-NEXT: %[[X:.+]] = stablehlo.convert %[[ARG]] : (tensor<2x2xi8>) -> tensor<2x2xi64>
// CHECK-NEXT: %[[V:.+]] = stablehlo.subtract %[[X]], %[[IZP]] : tensor<2x2xi64>
// CHECK-NEXT: %[[S1:.+]] = stablehlo.subtract %[[S]], %[[ONE]] : tensor<2x2xi64>
// CHECK-NEXT: %[[R:.+]] = stablehlo.shift_left %[[ONE]], %[[S1]] : tensor<2x2xi64>
// CHECK-NEXT: %[[P:.+]] = stablehlo.multiply %[[V]], %[[M]] : tensor<2x2xi64>
// CHECK-NEXT: %[[T:.+]] = stablehlo.add %[[P]], %[[R]] : tensor<2x2xi64>
// CHECK-NEXT: %[[SH:.+]] = stablehlo.shift_right_arithmetic %[[T]], %[[S]] : tensor<2x2xi64>
// CHECK-NEXT: %[[Y:.+]] = stablehlo.add %[[SH]], %[[OZP]] : tensor<2x2xi64>
// CHECK-NEXT: %[[CL:.+]] = stablehlo.clamp %[[LO]], %[[Y]], %[[HI]] : tensor<2x2xi64>
// CHECK-NEXT: %[[OUT:.+]] = stablehlo.convert %[[CL]] : (tensor<2x2xi64>) -> tensor<2x2xi32>
// CHECK-NEXT: func.return %[[OUT]] : tensor<2x2xi32>

// -----

// DOUBLE_ROUND, per channel: the round term is 2^(shift-1), +-2^30 by the sign of the value where shift > 31;
// per-channel parameters broadcast along the last dimension.
// CHECK-LABEL: func.func @double_round_per_channel
func.func @double_round_per_channel(%arg0 : tensor<2x3xi8>) -> tensor<2x3xi32> {
  %m = "tosa.const"() <{values = dense<[1073741824, 1431655765, 1976912426]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %s = "tosa.const"() <{values = dense<[30, 31, 32]> : tensor<3xi8>}> : () -> tensor<3xi8>
  %izp = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %0 = tosa.rescale %arg0, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<2x3xi8>, tensor<3xi32>, tensor<3xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
// CHECK:      %[[V:.+]] = stablehlo.subtract
// CHECK-NEXT: %[[MC:.+]] = stablehlo.constant dense<[1073741824, 1431655765, 1976912426]> : tensor<3xi64>
// CHECK-NEXT: %[[M:.+]] = stablehlo.broadcast_in_dim %[[MC]], dims = [1] : (tensor<3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT: %[[P:.+]] = stablehlo.multiply %[[V]], %[[M]] : tensor<2x3xi64>
// CHECK:      %[[NONNEG:.+]] = stablehlo.compare  GE, %[[V]], %{{.+}} : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
// CHECK-NEXT: %[[UPC:.+]] = stablehlo.constant dense<[536870912, 1073741824, 3221225472]> : tensor<3xi64>
// CHECK-NEXT: %[[UP:.+]] = stablehlo.broadcast_in_dim %[[UPC]], dims = [1]
// CHECK-NEXT: %[[DOWNC:.+]] = stablehlo.constant dense<[536870912, 1073741824, 1073741824]> : tensor<3xi64>
// CHECK-NEXT: %[[DOWN:.+]] = stablehlo.broadcast_in_dim %[[DOWNC]], dims = [1]
// CHECK-NEXT: %[[R:.+]] = stablehlo.select %[[NONNEG]], %[[UP]], %[[DOWN]] : tensor<2x3xi1>, tensor<2x3xi64>
// CHECK-NEXT: %[[T:.+]] = stablehlo.add %[[P]], %[[R]] : tensor<2x3xi64>
// CHECK-NEXT: %[[DC:.+]] = stablehlo.constant dense<[1073741824, 2147483648, 4294967296]> : tensor<3xi64>
// CHECK-NEXT: %[[D:.+]] = stablehlo.broadcast_in_dim %[[DC]], dims = [1]
// CHECK-NEXT: stablehlo.divide %[[T]], %[[D]] : tensor<2x3xi64>

// -----

// Unsigned input: the i8 bits are read as u8 (bitcast to ui8, then a zero-extending convert), zp 128.
// CHECK-LABEL: func.func @unsigned_input
func.func @unsigned_input(%arg0 : tensor<4xi8>) -> tensor<4xi8> {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.rescale %arg0, %m, %s, %izp, %ozp {input_unsigned = true, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
// CHECK:      %[[U:.+]] = stablehlo.bitcast_convert %arg0 : (tensor<4xi8>) -> tensor<4xui8>
// CHECK-NEXT: %[[X:.+]] = stablehlo.convert %[[U]] : (tensor<4xui8>) -> tensor<4xi64>
// CHECK-NEXT: %[[ZC:.+]] = stablehlo.constant dense<128> : tensor<i64>
// CHECK:      stablehlo.constant dense<-128> : tensor<i64>
// CHECK:      stablehlo.constant dense<127> : tensor<i64>
// CHECK:      %[[CL:.+]] = stablehlo.clamp
// CHECK-NEXT: %[[OUT:.+]] = stablehlo.convert %[[CL]] : (tensor<4xi64>) -> tensor<4xi8>
// CHECK-NEXT: func.return %[[OUT]]

// -----

// Unsigned output, 16-bit multiplier, INEXACT_ROUND (computed as SINGLE_ROUND): clamp to [0, 255],
// convert to ui8, bitcast to the signless i8 result.
// CHECK-LABEL: func.func @unsigned_output_scale16
func.func @unsigned_output_scale16(%arg0 : tensor<4xi8>) -> tensor<4xi8> {
  %m = "tosa.const"() <{values = dense<16384> : tensor<1xi16>}> : () -> tensor<1xi16>
  %s = "tosa.const"() <{values = dense<14> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.rescale %arg0, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = true, per_channel = false, rounding_mode = INEXACT_ROUND, scale32 = false} : (tensor<4xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
// CHECK:      %[[X:.+]] = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xi64>
// CHECK-NEXT: stablehlo.constant dense<16384> : tensor<i64>
// CHECK:      stablehlo.constant dense<8192> : tensor<i64>
// CHECK:      %[[ZC:.+]] = stablehlo.constant dense<128> : tensor<i64>
// CHECK:      %[[Y:.+]] = stablehlo.add %{{.+}}, %{{.+}} : tensor<4xi64>
// CHECK-NEXT: %[[LOC:.+]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK:      %[[HIC:.+]] = stablehlo.constant dense<255> : tensor<i64>
// CHECK:      %[[CL:.+]] = stablehlo.clamp %{{.+}}, %[[Y]], %{{.+}} : tensor<4xi64>
// CHECK-NEXT: %[[U:.+]] = stablehlo.convert %[[CL]] : (tensor<4xi64>) -> tensor<4xui8>
// CHECK-NEXT: %[[OUT:.+]] = stablehlo.bitcast_convert %[[U]] : (tensor<4xui8>) -> tensor<4xi8>
// CHECK-NEXT: func.return %[[OUT]]

// -----

// Quantized result: clamp to i8, convert, bitcast to the quantized type.
// CHECK-LABEL: func.func @quantized_output
func.func @quantized_output(%arg0 : tensor<4xi32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:3>> {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.rescale %arg0, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:3>>
}
// Upstream's form: full-shape constants, shifts.
// CHECK:      stablehlo.constant dense<3> : tensor<4xi32>
// CHECK:      stablehlo.constant dense<-128> : tensor<4xi64>
// CHECK:      %[[X:.+]] = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xi64>
// CHECK:      stablehlo.shift_right_arithmetic
// CHECK:      %[[CL:.+]] = stablehlo.clamp
// CHECK-NEXT: %[[S:.+]] = stablehlo.convert %[[CL]] : (tensor<4xi64>) -> tensor<4xi8>
// CHECK-NEXT: %[[OUT:.+]] = stablehlo.bitcast_convert %[[S]] : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>
// CHECK-NEXT: func.return %[[OUT]]
