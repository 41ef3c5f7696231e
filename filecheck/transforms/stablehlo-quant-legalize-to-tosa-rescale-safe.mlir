// RUN: xdsl-opt %s -p 'stablehlo-quant-legalize-to-tosa-rescale{safe=true}' --split-input-file | filecheck %s
// Option safe=true: only lowerings that keep the op's numbers; the rest is left alone.

// Left alone: upstream's divide uses the multiply scale after a truncating i32 divide.
// CHECK-LABEL: func.func @div
// CHECK-NOT:   tosa.
// CHECK:       stablehlo.divide %arg0, %arg1 : (tensor<2x2x!quant.uniform<i8:f32, 2.500000e-02:-1>>
func.func @div(%arg0 : tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, %arg1 : tensor<2x2x!quant.uniform<i8:f32, 0.075:-2>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>> {
  %0 = stablehlo.divide %arg0, %arg1 : (tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, tensor<2x2x!quant.uniform<i8:f32, 0.075:-2>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>>
  return %0 : tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>>
}

// -----

// Left alone: i16 compare, whose 2^15 operand rescale (shift 15) would break
// RESCALE's REQUIRE on |q| < 2^14.
// CHECK-LABEL: func.func @compare_i16
// CHECK-NOT:   tosa.
// CHECK:       stablehlo.compare  LT, %arg0, %arg1
func.func @compare_i16(%arg0 : tensor<4x!quant.uniform<i16:f32, 0.025>>, %arg1 : tensor<4x!quant.uniform<i16:f32, 0.075>>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %arg0, %arg1, TOTALORDER : (tensor<4x!quant.uniform<i16:f32, 0.025>>, tensor<4x!quant.uniform<i16:f32, 0.075>>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// The 8-bit add is lowered as by default.
// CHECK-LABEL: func.func @add
// CHECK:       tosa.rescale
// CHECK:       stablehlo.add %{{.+}}, %{{.+}} : tensor<2xi32>
func.func @add(%arg0 : tensor<2x!quant.uniform<i8:f32, 0.025:-1>>, %arg1 : tensor<2x!quant.uniform<i8:f32, 0.075:-1>>) -> tensor<2x!quant.uniform<i8:f32, 1.5e-01:-1>> {
  %0 = stablehlo.add %arg0, %arg1 : (tensor<2x!quant.uniform<i8:f32, 0.025:-1>>, tensor<2x!quant.uniform<i8:f32, 0.075:-1>>) -> tensor<2x!quant.uniform<i8:f32, 1.5e-01:-1>>
  return %0 : tensor<2x!quant.uniform<i8:f32, 1.5e-01:-1>>
}
