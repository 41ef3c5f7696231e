// RUN: xdsl-opt %s -p canonicalize | filecheck %s
// The three folds: dcast(qcast x) -> x, qcast(dcast x) -> x and scast(scast x) -> x when types match.

// CHECK-LABEL: func.func @dcast_qcast
// CHECK-NEXT: func.return %arg0 : f32
func.func @dcast_qcast(%arg0: f32) -> f32 {
  %0 = quant.qcast %arg0 : f32 to !quant.uniform<i8:f32, 2.0>
  %1 = quant.dcast %0 : !quant.uniform<i8:f32, 2.0> to f32
  func.return %1 : f32
}

// CHECK-LABEL: func.func @qcast_dcast
// CHECK-NEXT: func.return %arg0 : !quant.uniform<i8:f32, 2.000000e+00>
func.func @qcast_dcast(%arg0: !quant.uniform<i8:f32, 2.0>) -> !quant.uniform<i8:f32, 2.0> {
  %0 = quant.dcast %arg0 : !quant.uniform<i8:f32, 2.0> to f32
  %1 = quant.qcast %0 : f32 to !quant.uniform<i8:f32, 2.0>
  func.return %1 : !quant.uniform<i8:f32, 2.0>
}

// A different target type is a requantization: it stays.
// CHECK-LABEL: func.func @qcast_dcast_other_type
// CHECK: quant.dcast
// CHECK: quant.qcast
func.func @qcast_dcast_other_type(%arg0: !quant.uniform<i8:f32, 2.0>) -> !quant.uniform<i8:f32, 3.0> {
  %0 = quant.dcast %arg0 : !quant.uniform<i8:f32, 2.0> to f32
  %1 = quant.qcast %0 : f32 to !quant.uniform<i8:f32, 3.0>
  func.return %1 : !quant.uniform<i8:f32, 3.0>
}

// CHECK-LABEL: func.func @scast_scast
// CHECK-NEXT: func.return %arg0 : tensor<4xi8>
func.func @scast_scast(%arg0: tensor<4xi8>) -> tensor<4xi8> {
  %0 = quant.scast %arg0 : tensor<4xi8> to tensor<4x!quant.uniform<i8:f32, 2.0>>
  %1 = quant.scast %0 : tensor<4x!quant.uniform<i8:f32, 2.0>> to tensor<4xi8>
  func.return %1 : tensor<4xi8>
}
