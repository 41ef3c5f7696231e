// RUN: xdsl-opt %s -p strip-func-quant-types | filecheck %s

// Arguments become storage integers with a scast at entry; returned values are cast back;
// the pair around a returned argument folds away.
// CHECK-LABEL: func.func @s(%a: i8, %b: tensor<2xi8>, %c: f32) -> tensor<2xi8> {
// CHECK-NEXT:    %[[A:.*]] = quant.scast %a : i8 to !quant.uniform<u8:f32, 2.000000e+00:128>
// CHECK-NEXT:    %{{.*}} = quant.dcast %[[A]] : !quant.uniform<u8:f32, 2.000000e+00:128> to f32
// CHECK-NEXT:    func.return %b : tensor<2xi8>
func.func @s(%a: !quant.uniform<u8:f32, 2.0:128>, %b: tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, %c: f32) -> tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>> {
  %0 = quant.dcast %a : !quant.uniform<u8:f32, 2.0:128> to f32
  return %b : tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
}

// Results computed in the body are cast to storage before the return; unranked works.
// CHECK-LABEL: func.func @r(%arg0: tensor<*xf32>) -> tensor<*xi8> {
// CHECK-NEXT:    %[[Q:.*]] = quant.qcast %arg0 : tensor<*xf32> to tensor<*x!quant.uniform<i8:f32, 1.000000e+00>>
// CHECK-NEXT:    %[[I:.*]] = quant.scast %[[Q]] : tensor<*x!quant.uniform<i8:f32, 1.000000e+00>> to tensor<*xi8>
// CHECK-NEXT:    func.return %[[I]] : tensor<*xi8>
func.func @r(%arg0: tensor<*xf32>) -> tensor<*x!quant.uniform<i8:f32, 1.0>> {
  %0 = quant.qcast %arg0 : tensor<*xf32> to tensor<*x!quant.uniform<i8:f32, 1.0>>
  return %0 : tensor<*x!quant.uniform<i8:f32, 1.0>>
}

// Calls pass storage integers and cast results back.
// CHECK-LABEL: func.func @caller(%arg0: f32) -> f32 {
// CHECK-NEXT:    %[[Q:.*]] = quant.qcast %arg0 : f32 to !quant.uniform<i8:f32, 1.000000e+00>
// CHECK-NEXT:    %[[I:.*]] = quant.scast %[[Q]] : !quant.uniform<i8:f32, 1.000000e+00> to i8
// CHECK-NEXT:    %[[R:.*]] = func.call @callee(%[[I]]) : (i8) -> i8
// CHECK-NEXT:    %[[RQ:.*]] = quant.scast %[[R]] : i8 to !quant.uniform<i8:f32, 1.000000e+00>
// CHECK-NEXT:    %[[F:.*]] = quant.dcast %[[RQ]]
func.func @caller(%arg0: f32) -> f32 {
  %0 = quant.qcast %arg0 : f32 to !quant.uniform<i8:f32, 1.0>
  %1 = func.call @callee(%0) : (!quant.uniform<i8:f32, 1.0>) -> !quant.uniform<i8:f32, 1.0>
  %2 = quant.dcast %1 : !quant.uniform<i8:f32, 1.0> to f32
  return %2 : f32
}

// Declarations are converted; calibrated types have no storage and stay.
// CHECK: func.func private @callee(i8) -> i8
func.func private @callee(!quant.uniform<i8:f32, 1.0>) -> !quant.uniform<i8:f32, 1.0>
// CHECK: func.func private @calibrated(tensor<4xi8>) -> !quant.calibrated<f32<-1.000000e+00:1.000000e+00>>
func.func private @calibrated(tensor<4x!quant.any<i8:f32>>) -> !quant.calibrated<f32<-1.0:1.0>>
