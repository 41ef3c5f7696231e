// RUN: xquant-opt %s -inline -allow-unregistered-dialect | filecheck %s
// tests/transforms/test_inline.py checks that upstream mlir-opt -inline prints the same.

!q = !quant.uniform<i8:f32, 2.0:10>

// A private callee is inlined everywhere and erased; its constant is hoisted by
// the canonicalizer that -inline runs afterwards.
// CHECK-NOT:   func.func private @dequantize_plus_one
func.func private @dequantize_plus_one(%arg0: !q) -> f32 {
  %0 = quant.dcast %arg0 : !q to f32
  %c = arith.constant 1.0 : f32
  %1 = arith.addf %0, %c : f32
  return %1 : f32
}

// A public callee stays; calls to it are inlined, chains flatten.
// CHECK-LABEL: func.func @requantize(%arg0: f32) -> !quant.uniform<i8:f32, 2.000000e+00:10> {
// CHECK-NEXT:    %0 = quant.qcast %arg0 : f32 to !quant.uniform<i8:f32, 2.000000e+00:10>
// CHECK-NEXT:    return %0
func.func @requantize(%v: f32) -> !q {
  %0 = quant.qcast %v : f32 to !q
  return %0 : !q
}

// CHECK-LABEL: func.func @chain(%arg0: !quant.uniform<i8:f32, 2.000000e+00:10>) -> !quant.uniform<i8:f32, 2.000000e+00:10> {
// CHECK-NEXT:    %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %0 = quant.dcast %arg0 : !quant.uniform<i8:f32, 2.000000e+00:10> to f32
// CHECK-NEXT:    %1 = arith.addf %0, %cst : f32
// CHECK-NEXT:    %2 = quant.qcast %1 : f32 to !quant.uniform<i8:f32, 2.000000e+00:10>
// CHECK-NEXT:    return %2
func.func @chain(%v: !q) -> !q {
  %0 = call @dequantize_plus_one(%v) : (!q) -> f32
  %1 = call @requantize(%0) : (f32) -> !q
  return %1 : !q
}

// Recursive calls and callees holding an op of a dialect without an inliner
// interface (here the test dialect's) stay calls.
// CHECK-LABEL: func.func @countdown(%arg0: f32) -> f32 {
// CHECK-NEXT:    %0 = call @countdown(%arg0) : (f32) -> f32
func.func @countdown(%a: f32) -> f32 {
  %0 = call @countdown(%a) : (f32) -> f32
  return %0 : f32
}

// CHECK-LABEL: func.func private @opaque(
func.func private @opaque(%a: f32) -> f32 {
  %0 = "test.op"(%a) : (f32) -> f32
  return %0 : f32
}

// CHECK-LABEL: func.func @calls_opaque(%arg0: f32) -> f32 {
// CHECK-NEXT:    %0 = call @opaque(%arg0) : (f32) -> f32
func.func @calls_opaque(%a: f32) -> f32 {
  %0 = call @opaque(%a) : (f32) -> f32
  return %0 : f32
}
