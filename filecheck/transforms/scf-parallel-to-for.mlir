// RUN: xquant-opt %s -p scf-parallel-to-for | filecheck %s

// A 2-D scf.parallel with a float reduction: nested scf.for, the first
// induction variable outermost, the reduction region inlined as acc = f(acc, x).
// CHECK-LABEL: func.func @sum
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:      %[[S:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = tensor.extract %arg0[%[[I]], %[[J]]] : tensor<4x3xf32>
// CHECK-NEXT:        %[[N:.*]] = arith.addf %[[B]], %[[X]] : f32
// CHECK-NEXT:        scf.yield %[[N]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : f32
func.func @sum(%t: tensor<4x3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %init = arith.constant 0.5 : f32
  %r = "scf.parallel"(%c0, %c0, %c4, %c3, %c1, %c1, %init) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
  ^bb0(%i: index, %j: index):
    %x = tensor.extract %t[%i, %j] : tensor<4x3xf32>
    "scf.reduce"(%x) ({
    ^bb1(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      "scf.reduce.return"(%s) : (f32) -> ()
    }) : (f32) -> ()
  }) : (index, index, index, index, index, index, f32) -> f32
  return %r : f32
}
