// RUN: xdsl-opt %s -p linalg-fuse-elementwise-ops | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d1)>
#scalar = affine_map<(d0, d1) -> ()>

// A chain: the producer's body runs first, its inputs replace the fused operand.
// CHECK-LABEL: func.func @chain(%a: tensor<2x3xi8>, %b: tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK:         %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x3xi8>, tensor<2x3xi32>)
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %[[E:.*]] = arith.extsi %[[A]] : i8 to i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[E]], %[[B]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NOT:     linalg.generic
func.func @chain(%a: tensor<2x3xi8>, %b: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %e0 = tensor.empty() : tensor<2x3xi32>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xi8>) outs(%e0 : tensor<2x3xi32>) {
  ^bb0(%x: i8, %o: i32):
    %y = arith.extsi %x : i8 to i32
    linalg.yield %y : i32
  } -> tensor<2x3xi32>
  %e1 = tensor.empty() : tensor<2x3xi32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %b : tensor<2x3xi32>, tensor<2x3xi32>) outs(%e1 : tensor<2x3xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %z = arith.addi %x, %y : i32
    linalg.yield %z : i32
  } -> tensor<2x3xi32>
  func.return %s : tensor<2x3xi32>
}

// A broadcast producer (stablehlo.broadcast_in_dim's generic): its input map composes
// with the consumer's, so the row is read directly.
// CHECK-LABEL: func.func @broadcast(%v: tensor<3xf32>, %m: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v, %m : tensor<3xf32>, tensor<2x3xf32>)
// CHECK-NEXT:    ^bb0(%[[V:.*]]: f32, %[[M:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      arith.mulf %[[V]], %[[M]] : f32
// CHECK-NOT:     linalg.generic
func.func @broadcast(%v: tensor<3xf32>, %m: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e0 = tensor.empty() : tensor<2x3xf32>
  %b = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<3xf32>) outs(%e0 : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x3xf32>
  %e1 = tensor.empty() : tensor<2x3xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%b, %m : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e1 : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.mulf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x3xf32>
  func.return %p : tensor<2x3xf32>
}

// A transposing producer (output map a permutation): the inverse is composed in.
// CHECK-LABEL: func.func @transposed(%a: tensor<3x2xf32>) -> tensor<2x3xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<3x2xf32>)
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[A]] : f32
// CHECK-NEXT:      arith.addf %[[N]], %[[N]] : f32
// CHECK-NOT:     linalg.generic
func.func @transposed(%a: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %e0 = tensor.empty() : tensor<2x3xf32>
  %n = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<3x2xf32>) outs(%e0 : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<2x3xf32>
  %e1 = tensor.empty() : tensor<2x3xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%n : tensor<2x3xf32>) outs(%e1 : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x3xf32>
  func.return %d : tensor<2x3xf32>
}

// A reduction consumer takes the widening producer (the wide-accumulator sum).
// CHECK-LABEL: func.func @into_reduction(%a: tensor<4x5xi8>, %init: tensor<5xi64>) -> tensor<5xi64>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a : tensor<4x5xi8>) outs(%init : tensor<5xi64>)
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i8, %[[ACC:.*]]: i64):
// CHECK-NEXT:      %[[W:.*]] = arith.extsi %[[A]] : i8 to i64
// CHECK-NEXT:      arith.addi %[[ACC]], %[[W]] : i64
// CHECK-NOT:     linalg.generic
func.func @into_reduction(%a: tensor<4x5xi8>, %init: tensor<5xi64>) -> tensor<5xi64> {
  %e0 = tensor.empty() : tensor<4x5xi64>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x5xi8>) outs(%e0 : tensor<4x5xi64>) {
  ^bb0(%x: i8, %o: i64):
    %y = arith.extsi %x : i8 to i64
    linalg.yield %y : i64
  } -> tensor<4x5xi64>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["reduction", "parallel"]} ins(%w : tensor<4x5xi64>) outs(%init : tensor<5xi64>) {
  ^bb0(%x: i64, %acc: i64):
    %s = arith.addi %acc, %x : i64
    linalg.yield %s : i64
  } -> tensor<5xi64>
  func.return %r : tensor<5xi64>
}

// Fusing a scalar broadcast into a reduction would leave the reduction loop unsized:
// the broadcast stays.
// CHECK-LABEL: func.func @keeps_loop_sized(%s: tensor<f32>, %init: tensor<3xf32>) -> tensor<3xf32>
// CHECK:         %[[B:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:         linalg.generic {{.*}} ins(%[[B]] : tensor<4x3xf32>) outs(%init : tensor<3xf32>)
func.func @keeps_loop_sized(%s: tensor<f32>, %init: tensor<3xf32>) -> tensor<3xf32> {
  %e0 = tensor.empty() : tensor<4x3xf32>
  %b = linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<f32>) outs(%e0 : tensor<4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["reduction", "parallel"]} ins(%b : tensor<4x3xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %acc, %x : f32
    linalg.yield %t : f32
  } -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// Not fused: a producer with two uses (another op, the return), one that reads its
// init, one with linalg.index, and a reduction producer. (Two uses by the same operand
// of one consumer are merged first, and then fuse.)
// CHECK-LABEL: func.func @not_fused
// CHECK:         %twice = linalg.generic
// CHECK:         %use = linalg.generic {{.*}} ins(%twice, %reads_init, %indexed : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK:         %sum = linalg.generic
// CHECK:         %after = linalg.generic
// CHECK-NOT:     linalg.generic
func.func @not_fused(%a: tensor<2x3xf32>, %init: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) {
  %e = tensor.empty() : tensor<2x3xf32>
  %twice = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<2x3xf32>
  %reads_init = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%a : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x3xf32>
  %indexed = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x3xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  } -> tensor<2x3xf32>
  %use = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%twice, %reads_init, %indexed, %twice : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %w: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %z : f32
    %u = arith.addf %t, %w : f32
    linalg.yield %u : f32
  } -> tensor<2x3xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["reduction", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %e1 = tensor.empty() : tensor<3xf32>
  %after = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sum : tensor<3xf32>) outs(%e1 : tensor<3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  func.return %use, %reads_init, %indexed, %after, %twice : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>
}

// Clean-ups: a splat constant input becomes a scalar constant, a duplicate input
// (same value, same map) is merged, and the inputs left unused are dropped.
// CHECK-LABEL: func.func @clean_ups(%a: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[C:.*]] = arith.constant 2.500000e-01 : f32
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>)
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[A]], %[[A]] : f32
// CHECK-NEXT:      arith.mulf %[[P]], %[[C]] : f32
func.func @clean_ups(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = arith.constant dense<2.500000e-01> : tensor<f32>
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #scalar, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %a, %c : tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %s: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %q = arith.mulf %p, %s : f32
    linalg.yield %q : f32
  } -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// A generic whose result nobody reads is erased (xDSL's dce keeps it: no effect interface).
// CHECK-LABEL: func.func @dead(%a: tensor<2x3xi8>) {
// CHECK-NEXT:    func.return
func.func @dead(%a: tensor<2x3xi8>) {
  %e = tensor.empty() : tensor<2x3xi32>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xi8>) outs(%e : tensor<2x3xi32>) {
  ^bb0(%x: i8, %o: i32):
    %y = arith.extsi %x : i8 to i32
    linalg.yield %y : i32
  } -> tensor<2x3xi32>
  func.return
}

// arith.constant takes signless integers only: an unsigned splat stays a tensor input
// (upstream's pass crashes here: "'arith.constant' op integer return type must be signless").
// CHECK-LABEL: func.func @unsigned_splat(%a: tensor<4xi8>) -> tensor<4xui8>
// CHECK:         %u = arith.constant dense<200> : tensor<4xui8>
// CHECK:         linalg.generic {{.*}} ins(%u : tensor<4xui8>)
func.func @unsigned_splat(%a: tensor<4xi8>) -> tensor<4xui8> {
  %u = arith.constant dense<200> : tensor<4xui8>
  %e = tensor.empty() : tensor<4xui8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%u : tensor<4xui8>) outs(%e : tensor<4xui8>) {
  ^bb0(%x: ui8, %o: ui8):
    linalg.yield %x : ui8
  } -> tensor<4xui8>
  func.return %r : tensor<4xui8>
}
