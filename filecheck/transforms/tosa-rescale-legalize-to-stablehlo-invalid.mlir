// RUN: xquant-opt %s --tosa-rescale-legalize-to-stablehlo -split-input-file -verify-diagnostics
// RUN: not xquant-opt %s -p tosa-rescale-legalize-to-stablehlo 2>&1 | filecheck %s --check-prefix=LOC
// A rescale that cannot be lowered exactly is an error at the op, not a wrong number.

func.func @dynamic_multiplier(%arg0 : tensor<4xi8>, %m : tensor<1xi32>) -> tensor<4xi32> {
  %s = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error@+1 {{'tosa.rescale' op multiplier, shift, input_zp and output_zp must be constants to lower to StableHLO}}
  %0 = tosa.rescale %arg0, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// LOC: tosa-rescale-legalize-to-stablehlo-invalid.mlir:10:8: error: 'tosa.rescale' op multiplier, shift, input_zp and output_zp must be constants to lower to StableHLO

// -----

func.func @double_round_scale16(%arg0 : tensor<4xi8>) -> tensor<4xi32> {
  %m = "tosa.const"() <{values = dense<16384> : tensor<1xi16>}> : () -> tensor<1xi16>
  %s = "tosa.const"() <{values = dense<14> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error@+1 {{'tosa.rescale' op ERROR_IF: DOUBLE_ROUND needs scale32}}
  %0 = tosa.rescale %arg0, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = false} : (tensor<4xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @shift_too_large(%arg0 : tensor<4xi8>) -> tensor<4xi32> {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<63> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error@+1 {{'tosa.rescale' op REQUIRE(2 <= shift <= 62) fails}}
  %0 = tosa.rescale %arg0, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @i16_input_zero_point(%arg0 : tensor<4xi16>) -> tensor<4xi32> {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<7> : tensor<1xi16>}> : () -> tensor<1xi16>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error@+1 {{'tosa.rescale' op ERROR_IF: input_zp must be 0 unless the input is i8 or unsigned i16}}
  %0 = tosa.rescale %arg0, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4xi16>, tensor<1xi32>, tensor<1xi8>, tensor<1xi16>, tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @float_input(%arg0 : tensor<4xf32>) -> tensor<4xi32> {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error@+1 {{'tosa.rescale' op input and output element types must be integer types or quantized integer types}}
  %0 = tosa.rescale %arg0, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4xf32>, tensor<1xi32>, tensor<1xi8>, tensor<1xf32>, tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
