// RUN: xdsl-opt %s -p stablehlo-quant-legalize-to-tosa-rescale --split-input-file | filecheck %s
// Upstream's cases (openxla/stablehlo legalize_quant_ops_to_tosa_rescale.mlir): the same multipliers and shifts.

// CHECK-LABEL: func.func @add
func.func @add(%arg0 : tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, %arg1 : tensor<2x2x!quant.uniform<i8:f32, 0.075:-1>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-1>> {
  %0 = stablehlo.add %arg0, %arg1 : (tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, tensor<2x2x!quant.uniform<i8:f32, 0.075:-1>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-1>>
  return %0 : tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-1>>
}
// CHECK-DAG: %[[M2:.+]] = "tosa.const"() <{values = dense<1431655765> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-DAG: %[[S13:.+]] = "tosa.const"() <{values = dense<13> : tensor<1xi8>}> : () -> tensor<1xi8>
// CHECK-DAG: %[[ZPM1:.+]] = "tosa.const"() <{values = dense<-1> : tensor<1xi8>}> : () -> tensor<1xi8>
// CHECK-DAG: %[[ZP0:.+]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-DAG: %[[M1:.+]] = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-DAG: %[[S11:.+]] = "tosa.const"() <{values = dense<11> : tensor<1xi8>}> : () -> tensor<1xi8>
// CHECK-DAG: %[[S50:.+]] = "tosa.const"() <{values = dense<50> : tensor<1xi8>}> : () -> tensor<1xi8>
// CHECK-DAG: %[[V0:.+]] = tosa.rescale %arg0, %[[M2]], %[[S13]], %[[ZPM1]], %[[ZP0]] {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<2x2x!quant.uniform<i8:f32, 2.500000e-02:-1>>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<2x2xi32>
// CHECK-DAG: %[[V1:.+]] = tosa.rescale %arg1, %[[M1]], %[[S11]], %[[ZPM1]], %[[ZP0]] {{.*}} -> tensor<2x2xi32>
// CHECK:     %[[V2:.+]] = stablehlo.add %[[V0]], %[[V1]] : tensor<2x2xi32>
// CHECK:     %[[V3:.+]] = tosa.rescale %[[V2]], %[[M1]], %[[S50]], %[[ZP0]], %[[ZPM1]] {{.*}} : (tensor<2x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x2x!quant.uniform<i8:f32, 1.500000e-01:-1>>
// CHECK:     func.return %[[V3]]

// -----

// CHECK-LABEL: func.func @sub
func.func @sub(%arg0 : tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, %arg1 : tensor<2x2x!quant.uniform<i8:f32, 0.075:-1>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-1>> {
  %0 = stablehlo.subtract %arg0, %arg1 : (tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, tensor<2x2x!quant.uniform<i8:f32, 0.075:-1>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-1>>
  return %0 : tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-1>>
}
// CHECK-DAG: %[[M2:.+]] = "tosa.const"() <{values = dense<1431655765> : tensor<1xi32>}>
// CHECK-DAG: %[[S13:.+]] = "tosa.const"() <{values = dense<13> : tensor<1xi8>}>
// CHECK-DAG: %[[ZPM1:.+]] = "tosa.const"() <{values = dense<-1> : tensor<1xi8>}>
// CHECK-DAG: %[[ZP0:.+]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}>
// CHECK-DAG: %[[M1:.+]] = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}>
// CHECK-DAG: %[[S11:.+]] = "tosa.const"() <{values = dense<11> : tensor<1xi8>}>
// CHECK-DAG: %[[S50:.+]] = "tosa.const"() <{values = dense<50> : tensor<1xi8>}>
// CHECK-DAG: %[[V0:.+]] = tosa.rescale %arg0, %[[M2]], %[[S13]], %[[ZPM1]], %[[ZP0]]
// CHECK-DAG: %[[V1:.+]] = tosa.rescale %arg1, %[[M1]], %[[S11]], %[[ZPM1]], %[[ZP0]]
// CHECK:     %[[V2:.+]] = stablehlo.subtract %[[V0]], %[[V1]] : tensor<2x2xi32>
// CHECK:     %[[V3:.+]] = tosa.rescale %[[V2]], %[[M1]], %[[S50]], %[[ZP0]], %[[ZPM1]]
// CHECK:     func.return %[[V3]]

// -----

// CHECK-LABEL: func.func @mul
func.func @mul(%arg0 : tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, %arg1 : tensor<2x2x!quant.uniform<i8:f32, 0.075:-1>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-1>> {
  %0 = stablehlo.multiply %arg0, %arg1 : (tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, tensor<2x2x!quant.uniform<i8:f32, 0.075:-1>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-1>>
  return %0 : tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-1>>
}
// CHECK-DAG: %[[M1:.+]] = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}>
// CHECK-DAG: %[[S30:.+]] = "tosa.const"() <{values = dense<30> : tensor<1xi8>}>
// CHECK-DAG: %[[ZPM1:.+]] = "tosa.const"() <{values = dense<-1> : tensor<1xi8>}>
// CHECK-DAG: %[[ZP0:.+]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}>
// CHECK-DAG: %[[S37:.+]] = "tosa.const"() <{values = dense<37> : tensor<1xi8>}>
// CHECK-DAG: %[[M2:.+]] = "tosa.const"() <{values = dense<1717986918> : tensor<1xi32>}>
// CHECK-DAG: %[[V0:.+]] = tosa.rescale %arg0, %[[M1]], %[[S30]], %[[ZPM1]], %[[ZP0]]
// CHECK-DAG: %[[V1:.+]] = tosa.rescale %arg1, %[[M1]], %[[S30]], %[[ZPM1]], %[[ZP0]]
// CHECK:     %[[V2:.+]] = stablehlo.multiply %[[V0]], %[[V1]] : tensor<2x2xi32>
// CHECK:     %[[V3:.+]] = tosa.rescale %[[V2]], %[[M2]], %[[S37]], %[[ZP0]], %[[ZPM1]]
// CHECK:     func.return %[[V3]]

// -----

// CHECK-LABEL: func.func @max
func.func @max(%arg0 : tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, %arg1 : tensor<2x2x!quant.uniform<i8:f32, 0.075:-2>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>> {
  %0 = stablehlo.maximum %arg0, %arg1 : (tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, tensor<2x2x!quant.uniform<i8:f32, 0.075:-2>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>>
  return %0 : tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>>
}
// CHECK-DAG: %[[M2:.+]] = "tosa.const"() <{values = dense<1431655765> : tensor<1xi32>}>
// CHECK-DAG: %[[S12:.+]] = "tosa.const"() <{values = dense<12> : tensor<1xi8>}>
// CHECK-DAG: %[[ZPM1:.+]] = "tosa.const"() <{values = dense<-1> : tensor<1xi8>}>
// CHECK-DAG: %[[ZP0:.+]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}>
// CHECK-DAG: %[[M1:.+]] = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}>
// CHECK-DAG: %[[S10:.+]] = "tosa.const"() <{values = dense<10> : tensor<1xi8>}>
// CHECK-DAG: %[[ZPM2:.+]] = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}>
// CHECK-DAG: %[[S51:.+]] = "tosa.const"() <{values = dense<51> : tensor<1xi8>}>
// CHECK-DAG: %[[ZPM3:.+]] = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}>
// CHECK-DAG: %[[V0:.+]] = tosa.rescale %arg0, %[[M2]], %[[S12]], %[[ZPM1]], %[[ZP0]]
// CHECK-DAG: %[[V1:.+]] = tosa.rescale %arg1, %[[M1]], %[[S10]], %[[ZPM2]], %[[ZP0]]
// CHECK:     %[[V2:.+]] = stablehlo.maximum %[[V0]], %[[V1]] : tensor<2x2xi32>
// CHECK:     %[[V3:.+]] = tosa.rescale %[[V2]], %[[M1]], %[[S51]], %[[ZP0]], %[[ZPM3]]
// CHECK:     func.return %[[V3]]

// -----

// CHECK-LABEL: func.func @min
func.func @min(%arg0 : tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, %arg1 : tensor<2x2x!quant.uniform<i8:f32, 0.075:-2>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>> {
  %0 = stablehlo.minimum %arg0, %arg1 : (tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, tensor<2x2x!quant.uniform<i8:f32, 0.075:-2>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>>
  return %0 : tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>>
}
// CHECK-DAG: %[[M2:.+]] = "tosa.const"() <{values = dense<1431655765> : tensor<1xi32>}>
// CHECK-DAG: %[[S12:.+]] = "tosa.const"() <{values = dense<12> : tensor<1xi8>}>
// CHECK-DAG: %[[M1:.+]] = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}>
// CHECK-DAG: %[[S10:.+]] = "tosa.const"() <{values = dense<10> : tensor<1xi8>}>
// CHECK-DAG: %[[S51:.+]] = "tosa.const"() <{values = dense<51> : tensor<1xi8>}>
// CHECK-DAG: %[[V0:.+]] = tosa.rescale %arg0, %[[M2]], %[[S12]]
// CHECK-DAG: %[[V1:.+]] = tosa.rescale %arg1, %[[M1]], %[[S10]]
// CHECK:     %[[V2:.+]] = stablehlo.minimum %[[V0]], %[[V1]] : tensor<2x2xi32>
// CHECK:     %[[V3:.+]] = tosa.rescale %[[V2]], %[[M1]], %[[S51]]
// CHECK:     func.return %[[V3]]

// -----

// CHECK-LABEL: func.func @abs
func.func @abs(%arg0 : tensor<20x20x!quant.uniform<i8:f32, 0.025:-1>>) -> tensor<20x20x!quant.uniform<i8:f32, 1.5e-01:-128>> {
  %0 = stablehlo.abs %arg0 : (tensor<20x20x!quant.uniform<i8:f32, 0.025:-1>>) -> tensor<20x20x!quant.uniform<i8:f32, 1.5e-01:-128>>
  return %0 : tensor<20x20x!quant.uniform<i8:f32, 1.5e-01:-128>>
}
// CHECK-DAG: %[[M2:.+]] = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}>
// CHECK-DAG: %[[S30:.+]] = "tosa.const"() <{values = dense<30> : tensor<1xi8>}>
// CHECK-DAG: %[[ZPM1:.+]] = "tosa.const"() <{values = dense<-1> : tensor<1xi8>}>
// CHECK-DAG: %[[ZP0:.+]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}>
// CHECK-DAG: %[[S33:.+]] = "tosa.const"() <{values = dense<33> : tensor<1xi8>}>
// CHECK-DAG: %[[M1:.+]] = "tosa.const"() <{values = dense<1431655765> : tensor<1xi32>}>
// CHECK-DAG: %[[ZPM128:.+]] = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}>
// CHECK:     %[[V0:.+]] = tosa.rescale %arg0, %[[M2]], %[[S30]], %[[ZPM1]], %[[ZP0]]
// CHECK:     %[[V1:.+]] = stablehlo.abs %[[V0]] : tensor<20x20xi32>
// CHECK:     %[[V2:.+]] = tosa.rescale %[[V1]], %[[M1]], %[[S33]], %[[ZP0]], %[[ZPM128]]
// CHECK:     func.return %[[V2]]

// -----

// CHECK-LABEL: func.func @compareGE
func.func @compareGE(%arg0 : tensor<20x20x!quant.uniform<i8:f32, 0.025:-1>>, %arg1 : tensor<20x20x!quant.uniform<i8:f32, 0.075:-2>>) -> tensor<20x20xi1> {
  %0 = stablehlo.compare GE, %arg0, %arg1, TOTALORDER : (tensor<20x20x!quant.uniform<i8:f32, 0.025:-1>>, tensor<20x20x!quant.uniform<i8:f32, 0.075:-2>>) -> tensor<20x20xi1>
  return %0 : tensor<20x20xi1>
}
// CHECK-DAG: %[[M2:.+]] = "tosa.const"() <{values = dense<1431655765> : tensor<1xi32>}>
// CHECK-DAG: %[[S12:.+]] = "tosa.const"() <{values = dense<12> : tensor<1xi8>}>
// CHECK-DAG: %[[ZPM1:.+]] = "tosa.const"() <{values = dense<-1> : tensor<1xi8>}>
// CHECK-DAG: %[[ZP0:.+]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}>
// CHECK-DAG: %[[M1:.+]] = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}>
// CHECK-DAG: %[[S10:.+]] = "tosa.const"() <{values = dense<10> : tensor<1xi8>}>
// CHECK-DAG: %[[ZPM2:.+]] = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}>
// CHECK-DAG: %[[V0:.+]] = tosa.rescale %arg0, %[[M2]], %[[S12]], %[[ZPM1]], %[[ZP0]]
// CHECK-DAG: %[[V1:.+]] = tosa.rescale %arg1, %[[M1]], %[[S10]], %[[ZPM2]], %[[ZP0]]
// CHECK:     %[[V2:.+]] = stablehlo.compare  GE, %[[V0]], %[[V1]],  TOTALORDER : (tensor<20x20xi32>, tensor<20x20xi32>) -> tensor<20x20xi1>
// CHECK:     func.return %[[V2]]

// -----

// 16-bit storage (zero point 0): operands get 15 extra bits instead of 20.
// CHECK-LABEL: func.func @add_i16
func.func @add_i16(%arg0 : tensor<4x!quant.uniform<i16:f32, 0.025>>, %arg1 : tensor<4x!quant.uniform<i16:f32, 0.075>>) -> tensor<4x!quant.uniform<i16:f32, 1.5e-01>> {
  %0 = stablehlo.add %arg0, %arg1 : (tensor<4x!quant.uniform<i16:f32, 0.025>>, tensor<4x!quant.uniform<i16:f32, 0.075>>) -> tensor<4x!quant.uniform<i16:f32, 1.5e-01>>
  return %0 : tensor<4x!quant.uniform<i16:f32, 1.5e-01>>
}
// CHECK-DAG: %[[S18:.+]] = "tosa.const"() <{values = dense<18> : tensor<1xi8>}>
// CHECK-DAG: %[[S16:.+]] = "tosa.const"() <{values = dense<16> : tensor<1xi8>}>
// CHECK-DAG: %[[ZP16:.+]] = "tosa.const"() <{values = dense<0> : tensor<1xi16>}>
// CHECK-DAG: %[[S45:.+]] = "tosa.const"() <{values = dense<45> : tensor<1xi8>}>
// CHECK-DAG: %[[V0:.+]] = tosa.rescale %arg0, %{{.+}}, %[[S18]], %[[ZP16]]
// CHECK-DAG: %[[V1:.+]] = tosa.rescale %arg1, %{{.+}}, %[[S16]], %[[ZP16]]
// CHECK:     %[[V2:.+]] = stablehlo.add %[[V0]], %[[V1]] : tensor<4xi32>
// CHECK:     tosa.rescale %[[V2]], %{{.+}}, %[[S45]], %{{.+}}, %[[ZP16]]

// -----

// divide, as upstream: the multiply scale after a truncating i32 divide
// (`safe=true` leaves it alone: stablehlo-quant-legalize-to-tosa-rescale-safe.mlir).
// CHECK-LABEL: func.func @div
// CHECK-DAG:   %[[S37:.+]] = "tosa.const"() <{values = dense<37> : tensor<1xi8>}>
// CHECK-DAG:   %[[M2:.+]] = "tosa.const"() <{values = dense<1717986918> : tensor<1xi32>}>
// CHECK:       %[[Q:.+]] = stablehlo.divide %{{.+}}, %{{.+}} : tensor<2x2xi32>
// CHECK:       tosa.rescale %[[Q]], %[[M2]], %[[S37]]
func.func @div(%arg0 : tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, %arg1 : tensor<2x2x!quant.uniform<i8:f32, 0.075:-2>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>> {
  %0 = stablehlo.divide %arg0, %arg1 : (tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, tensor<2x2x!quant.uniform<i8:f32, 0.075:-2>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>>
  return %0 : tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-3>>
}

// -----

// Left alone: per-axis types (as upstream).
// CHECK-LABEL: func.func @per_axis
// CHECK-NOT:   tosa.
// CHECK:       stablehlo.add %arg0, %arg0
func.func @per_axis(%arg0 : tensor<2x!quant.uniform<i8:f32:0, {0.1:1, 0.2:2}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:1, 0.2:2}>> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<2x!quant.uniform<i8:f32:0, {0.1:1, 0.2:2}>>
  return %0 : tensor<2x!quant.uniform<i8:f32:0, {0.1:1, 0.2:2}>>
}

// -----

// i16 compare, as upstream: both operands to the larger scale with 15 extra bits.
// CHECK-LABEL: func.func @compare_i16
// CHECK-DAG:   %[[S15:.+]] = "tosa.const"() <{values = dense<15> : tensor<1xi8>}>
// CHECK:       %[[L:.+]] = tosa.rescale %arg0
// CHECK:       %[[R:.+]] = tosa.rescale %arg1, %{{.+}}, %[[S15]]
// CHECK:       stablehlo.compare  LT, %[[L]], %[[R]],  TOTALORDER : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
func.func @compare_i16(%arg0 : tensor<4x!quant.uniform<i16:f32, 0.025>>, %arg1 : tensor<4x!quant.uniform<i16:f32, 0.075>>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %arg0, %arg1, TOTALORDER : (tensor<4x!quant.uniform<i16:f32, 0.025>>, tensor<4x!quant.uniform<i16:f32, 0.075>>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
