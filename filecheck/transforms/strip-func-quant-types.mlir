// RUN: xquant-opt %s --strip-func-quant-types -split-input-file -verify-diagnostics | filecheck %s

// Arguments become storage integers with a scast at entry; returned values are cast back;
// the pair around a returned argument folds away.
// CHECK-LABEL: func.func @s(%arg0: i8, %arg1: tensor<2xi8>, %arg2: f32) -> tensor<2xi8> {
// CHECK-NEXT:    %[[A:.*]] = quant.scast %arg0 : i8 to !quant.uniform<u8:f32, 2.000000e+00:128>
// CHECK-NEXT:    %{{.*}} = quant.dcast %[[A]] : !quant.uniform<u8:f32, 2.000000e+00:128> to f32
// CHECK-NEXT:    return %arg1 : tensor<2xi8>
func.func @s(%a: !quant.uniform<u8:f32, 2.0:128>, %b: tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, %c: f32) -> tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>> {
  %0 = quant.dcast %a : !quant.uniform<u8:f32, 2.0:128> to f32
  return %b : tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
}

// -----
// Results computed in the body are cast to storage; unranked works.
// CHECK-LABEL: func.func @r(%arg0: tensor<*xf32>) -> tensor<*xi8> {
// CHECK-NEXT:    %[[Q:.*]] = quant.qcast %arg0 : tensor<*xf32> to tensor<*x!quant.uniform<i8:f32, 1.000000e+00>>
// CHECK-NEXT:    %[[I:.*]] = quant.scast %[[Q]] : tensor<*x!quant.uniform<i8:f32, 1.000000e+00>> to tensor<*xi8>
// CHECK-NEXT:    return %[[I]] : tensor<*xi8>
func.func @r(%arg0: tensor<*xf32>) -> tensor<*x!quant.uniform<i8:f32, 1.0>> {
  %0 = quant.qcast %arg0 : tensor<*xf32> to tensor<*x!quant.uniform<i8:f32, 1.0>>
  return %0 : tensor<*x!quant.uniform<i8:f32, 1.0>>
}

// -----
// Calls pass storage integers and cast results back; declarations are converted.
// CHECK-LABEL: func.func @caller(%arg0: f32) -> f32 {
// CHECK-NEXT:    %[[Q:.*]] = quant.qcast %arg0 : f32 to !quant.uniform<i8:f32, 1.000000e+00>
// CHECK-NEXT:    %[[I:.*]] = quant.scast %[[Q]] : !quant.uniform<i8:f32, 1.000000e+00> to i8
// CHECK-NEXT:    %[[R:.*]] = call @callee(%[[I]]) : (i8) -> i8
// CHECK-NEXT:    %[[RQ:.*]] = quant.scast %[[R]] : i8 to !quant.uniform<i8:f32, 1.000000e+00>
// CHECK-NEXT:    %[[F:.*]] = quant.dcast %[[RQ]]
// CHECK: func.func private @callee(i8) -> i8
func.func @caller(%arg0: f32) -> f32 {
  %0 = quant.qcast %arg0 : f32 to !quant.uniform<i8:f32, 1.0>
  %1 = func.call @callee(%0) : (!quant.uniform<i8:f32, 1.0>) -> !quant.uniform<i8:f32, 1.0>
  %2 = quant.dcast %1 : !quant.uniform<i8:f32, 1.0> to f32
  return %2 : f32
}
func.func private @callee(!quant.uniform<i8:f32, 1.0>) -> !quant.uniform<i8:f32, 1.0>

// -----
// As upstream's dialect conversion: an operand is cast right after its definition
// (not before its user), once per value; results of one op are cast in reverse use order.
// CHECK-LABEL: func.func @placement(%arg0: i1, %arg1: f32) -> (i8, i8, i8, i8) {
// CHECK-NEXT:    %[[A:.*]] = quant.qcast %arg1
// CHECK-NEXT:    %[[AI:.*]] = quant.scast %[[A]] : !quant.uniform<i8:f32, 2.000000e+00:10> to i8
// CHECK-NEXT:    %[[R:.*]]:2 = scf.if %arg0
// CHECK:         } else {
// CHECK:         }
// CHECK-NEXT:    %[[R0:.*]] = quant.scast %[[R]]#0 : !quant.uniform<i8:f32, 2.000000e+00:10> to i8
// CHECK-NEXT:    %[[R1:.*]] = quant.scast %[[R]]#1 : !quant.uniform<i8:f32, 2.000000e+00:10> to i8
// CHECK-NEXT:    %{{.*}} = arith.constant
// CHECK-NEXT:    %{{.*}} = call @use(%[[AI]]) : (i8) -> f32
// CHECK-NEXT:    return %[[R1]], %[[R0]], %[[AI]], %[[AI]] : i8, i8, i8, i8
!q = !quant.uniform<i8:f32, 2.0:10>
func.func @placement(%p: i1, %x: f32) -> (!q, !q, !q, !q) {
  %a = quant.qcast %x : f32 to !q
  %r:2 = scf.if %p -> (!q, !q) {
    scf.yield %a, %a : !q, !q
  } else {
    scf.yield %a, %a : !q, !q
  }
  %c = arith.constant 1.0 : f32
  %u = func.call @use(%a) : (!q) -> f32
  return %r#1, %r#0, %a, %a : !q, !q, !q, !q
}
func.func private @use(!q) -> f32

// -----
// !quant.calibrated has no storage type: the pass fails where upstream's does (the
// first function op holding one), changing nothing.
// expected-error@+1 {{failed to legalize operation 'func.func' that was explicitly marked illegal}}
func.func private @calibrated(tensor<4x!quant.any<i8:f32>>) -> !quant.calibrated<f32<-1.0:1.0>>

// -----
// Upstream crashes on a tensor of calibrated elements; here it is the same error.
func.func @fine(%a: !quant.uniform<i8:f32, 1.0>) -> !quant.uniform<i8:f32, 1.0> {
  return %a : !quant.uniform<i8:f32, 1.0>
}
// expected-error@+1 {{failed to legalize operation 'func.func' that was explicitly marked illegal}}
func.func @calibrated_tensor(%a: tensor<2x!quant.calibrated<f32<-1.0:1.0>>>, %b: f32) -> f32 {
  return %b : f32
}

// -----
// A legal function with a call holding a calibrated type: the error is at the call.
func.func @calls(%x: f32) -> f32 {
  // expected-error@+1 {{failed to legalize operation 'func.call' that was explicitly marked illegal}}
  %0 = func.call @g() : () -> !quant.calibrated<f32<-1.0:1.0>>
  return %x : f32
}
func.func private @g() -> !quant.calibrated<f32<-1.0:1.0>>
