// RUN: xquant-opt %s --widen-boundary-types -split-input-file | filecheck %s

// An i4 tensor crosses as i8: trunci on the way in, extsi on the way out.
// CHECK-LABEL: func.func @tensor_i4(%arg0: tensor<4xi8>) -> tensor<4xi8> {
// CHECK:         %[[IN:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4xi8>) outs(%{{.*}} : tensor<4xi4>) {
// CHECK:           arith.trunci %in : i8 to i4
// CHECK:         %[[OUT:.*]] = linalg.generic {{.*}} ins(%[[IN]] : tensor<4xi4>) outs(%{{.*}} : tensor<4xi8>) {
// CHECK:           arith.extsi %in : i4 to i8
// CHECK:         return %[[OUT]] : tensor<4xi8>
func.func @tensor_i4(%a: tensor<4xi4>) -> tensor<4xi4> {
  return %a : tensor<4xi4>
}

// -----

// An f4 tensor crosses as its bit pattern in an i8 (zero-extended out).
// CHECK-LABEL: func.func @tensor_f4(%arg0: tensor<2xi8>) -> tensor<2xi8> {
// CHECK:         arith.trunci %in : i8 to i4
// CHECK-NEXT:    arith.bitcast %{{.*}} : i4 to f4E2M1FN
// CHECK:         arith.bitcast %in : f4E2M1FN to i4
// CHECK-NEXT:    arith.extui %{{.*}} : i4 to i8
func.func @tensor_f4(%a: tensor<2xf4E2M1FN>) -> tensor<2xf4E2M1FN> {
  return %a : tensor<2xf4E2M1FN>
}

// -----

// Scalars cross in 32 bits: i4 as i32, f16 as f32, E8M0 as its bits in an i32.
// CHECK-LABEL: func.func @scalars(%arg0: i32, %arg1: f32, %arg2: i32) -> (i32, f32, i32) {
// CHECK-DAG:     arith.trunci %arg0 : i32 to i4
// CHECK-DAG:     arith.truncf %arg1 : f32 to f16
// CHECK-DAG:     arith.trunci %arg2 : i32 to i8
// CHECK-DAG:     arith.extsi %{{.*}} : i4 to i32
// CHECK-DAG:     arith.extf %{{.*}} : f16 to f32
// CHECK-DAG:     arith.extui %{{.*}} : i8 to i32
func.func @scalars(%a: i4, %b: f16, %c: f8E8M0FNU) -> (i4, f16, f8E8M0FNU) {
  return %a, %b, %c : i4, f16, f8E8M0FNU
}

// -----

// Byte-sized, i1 and dynamic-shaped values are left as they are.
// CHECK-LABEL: func.func @unchanged(%arg0: tensor<4xi8>, %arg1: tensor<?xi4>, %arg2: i1) -> (tensor<4xi8>, tensor<?xi4>, i1) {
// CHECK-NEXT:    return %arg0, %arg1, %arg2 : tensor<4xi8>, tensor<?xi4>, i1
func.func @unchanged(%a: tensor<4xi8>, %b: tensor<?xi4>, %c: i1) -> (tensor<4xi8>, tensor<?xi4>, i1) {
  return %a, %b, %c : tensor<4xi8>, tensor<?xi4>, i1
}

// -----

// Unsigned tensors cross as signless of their width; the body's own casts to
// signless (stablehlo-legalize-to-linalg's) fold with the boundary's.
// CHECK-LABEL: func.func @unsigned(%arg0: tensor<4xi8>, %arg1: tensor<2xi16>) -> (tensor<4xi8>, tensor<2xi16>) {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : tensor<4xi8>
// CHECK-NEXT:    return %0, %arg1 : tensor<4xi8>, tensor<2xi16>
func.func @unsigned(%a: tensor<4xui8>, %b: tensor<2xui16>) -> (tensor<4xui8>, tensor<2xui16>) {
  %s = builtin.unrealized_conversion_cast %a : tensor<4xui8> to tensor<4xi8>
  %t = arith.addi %s, %s : tensor<4xi8>
  %u = builtin.unrealized_conversion_cast %t : tensor<4xi8> to tensor<4xui8>
  return %u, %b : tensor<4xui8>, tensor<2xui16>
}
