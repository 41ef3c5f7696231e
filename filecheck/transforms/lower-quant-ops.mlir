// RUN: xdsl-opt %s -p 'lower-quant-ops{rounding=nearest-even}' --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p lower-quant-ops --split-input-file | filecheck %s --check-prefix=UPSTREAM
// RUN: xdsl-opt %s -p 'lower-quant-ops{rounding=toward-zero}' --split-input-file | filecheck %s --check-prefix=UPSTREAM

// Scalar per-layer: clamp in float, round half to even, NaN -> 0, then convert.
// CHECK-LABEL: func.func @qcast_scalar
// CHECK-DAG:   %[[S:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:   %[[Z:.*]] = arith.constant 1.000000e+01 : f32
// CHECK-DAG:   %[[LO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK-DAG:   %[[HI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[D:.*]] = arith.divf %arg0, %[[S]] : f32
// CHECK-NEXT:  %[[A:.*]] = arith.addf %[[D]], %[[Z]] : f32
// CHECK-NEXT:  %[[MX:.*]] = arith.maximumf %[[A]], %[[LO]] : f32
// CHECK-NEXT:  %[[MN:.*]] = arith.minimumf %[[MX]], %[[HI]] : f32
// CHECK-NEXT:  %[[R:.*]] = math.roundeven %[[MN]] : f32
// CHECK-NEXT:  %[[NAN:.*]] = arith.cmpf uno, %[[R]], %[[R]] : f32
// CHECK-NEXT:  %[[SEL:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[R]] : f32
// CHECK-NEXT:  %[[I:.*]] = arith.fptosi %[[SEL]] : f32 to i8
// CHECK-NEXT:  %[[Q:.*]] = quant.scast %[[I]] : i8 to !quant.uniform<i8:f32, 2.000000e+00:10>
// CHECK-NEXT:  func.return %[[Q]]
// Upstream's lowering: truncation, no clamp without explicit bounds.
// UPSTREAM-LABEL: func.func @qcast_scalar
// UPSTREAM:       %[[D:.*]] = arith.divf %arg0, %{{.*}} : f32
// UPSTREAM-NEXT:  %[[Z:.*]] = arith.sitofp %{{.*}} : i8 to f32
// UPSTREAM-NEXT:  %[[A:.*]] = arith.addf %[[D]], %[[Z]] : f32
// UPSTREAM-NEXT:  %[[I:.*]] = arith.fptosi %[[A]] : f32 to i8
// UPSTREAM-NEXT:  quant.scast %[[I]] : i8 to !quant.uniform<i8:f32, 2.000000e+00:10>
func.func @qcast_scalar(%arg0: f32) -> !quant.uniform<i8:f32, 2.0:10> {
  %0 = quant.qcast %arg0 : f32 to !quant.uniform<i8:f32, 2.0:10>
  return %0 : !quant.uniform<i8:f32, 2.0:10>
}

// -----
// Explicit bounds: upstream clamps the integers (zero point 0: no add).
// UPSTREAM-LABEL: func.func @qcast_bounds
// UPSTREAM-NOT:   arith.addf
// UPSTREAM:       %[[I:.*]] = arith.fptosi %{{.*}} : f32 to i8
// UPSTREAM-NEXT:  %[[LO:.*]] = arith.constant -5 : i8
// UPSTREAM-NEXT:  %[[HI:.*]] = arith.constant 10 : i8
// UPSTREAM-NEXT:  %[[MX:.*]] = arith.maxsi %[[I]], %[[LO]] : i8
// UPSTREAM-NEXT:  arith.minsi %[[MX]], %[[HI]] : i8
// CHECK-LABEL: func.func @qcast_bounds
// CHECK-DAG:   arith.constant -5.000000e+00 : f32
// CHECK-DAG:   arith.constant 1.000000e+01 : f32
// CHECK-NOT:   arith.addf
// CHECK:       math.roundeven
func.func @qcast_bounds(%arg0: f32) -> !quant.uniform<i8<-5:10>:f32, 2.0> {
  %0 = quant.qcast %arg0 : f32 to !quant.uniform<i8<-5:10>:f32, 2.0>
  return %0 : !quant.uniform<i8<-5:10>:f32, 2.0>
}

// -----
// Dequantize subtracts the zero point exactly in integers, then converts once:
// unsigned storage zero-extends (extui) to i32, subi, sitofp, mulf.
// CHECK-LABEL: func.func @dcast_unsigned
// CHECK:       %[[I:.*]] = quant.scast %arg0 : !quant.uniform<u8:f32, 2.000000e+00:10> to i8
// CHECK-DAG:   %[[S:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:   %[[Z:.*]] = arith.constant 10 : i32
// CHECK:       %[[W:.*]] = arith.extui %[[I]] : i8 to i32
// CHECK-NEXT:  %[[SUB:.*]] = arith.subi %[[W]], %[[Z]] : i32
// CHECK-NEXT:  %[[F:.*]] = arith.sitofp %[[SUB]] : i32 to f32
// CHECK-NEXT:  %[[R:.*]] = arith.mulf %[[F]], %[[S]] : f32
// CHECK-NEXT:  func.return %[[R]] : f32
// Upstream subtracts in float: uitofp of the value and of the zero point, subf.
// UPSTREAM-LABEL: func.func @dcast_unsigned
// UPSTREAM:       %[[F:.*]] = arith.uitofp %{{.*}} : i8 to f32
// UPSTREAM-NEXT:  %[[Z:.*]] = arith.uitofp %{{.*}} : i8 to f32
// UPSTREAM-NEXT:  %[[SUB:.*]] = arith.subf %[[F]], %[[Z]] : f32
// UPSTREAM-NEXT:  arith.mulf %[[SUB]], %{{.*}} : f32
func.func @dcast_unsigned(%arg0: !quant.uniform<u8:f32, 2.0:10>) -> f32 {
  %0 = quant.dcast %arg0 : !quant.uniform<u8:f32, 2.0:10> to f32
  return %0 : f32
}

// -----
// Storage wider than 16 bits subtracts in i64 (extsi); a zero point of 0 is just sitofp.
// CHECK-LABEL: func.func @dcast_i32
// CHECK-DAG:   %[[Z:.*]] = arith.constant -7 : i64
// CHECK:       %[[W:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT:  %[[SUB:.*]] = arith.subi %[[W]], %[[Z]] : i64
// CHECK-NEXT:  %[[F:.*]] = arith.sitofp %[[SUB]] : i64 to f32
// CHECK-NEXT:  arith.mulf %[[F]], %{{.*}} : f32
// CHECK-LABEL: func.func @dcast_i32_no_zero_point
// CHECK-NOT:   arith.subi
// CHECK:       %[[F:.*]] = arith.sitofp %{{.*}} : i32 to f32
// CHECK-NEXT:  arith.mulf %[[F]], %{{.*}} : f32
// UPSTREAM-LABEL: func.func @dcast_i32
// UPSTREAM:       arith.sitofp %{{.*}} : i32 to f32
// UPSTREAM-NEXT:  arith.sitofp %{{.*}} : i32 to f32
// UPSTREAM-NEXT:  arith.subf
func.func @dcast_i32(%arg0: !quant.uniform<i32:f32, 0.5:-7>) -> f32 {
  %0 = quant.dcast %arg0 : !quant.uniform<i32:f32, 0.5:-7> to f32
  return %0 : f32
}
func.func @dcast_i32_no_zero_point(%arg0: !quant.uniform<i32:f32, 0.5>) -> f32 {
  %0 = quant.dcast %arg0 : !quant.uniform<i32:f32, 0.5> to f32
  return %0 : f32
}

// -----
// Per-layer, dynamic ranked tensor: one generic, dims from tensor.dim.
// CHECK-LABEL: func.func @qcast_per_layer_dynamic
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[D1:.*]] = tensor.dim %arg0, %[[C1]] : tensor<3x?x5xf32>
// CHECK-NEXT:  %[[E:.*]] = tensor.empty(%[[D1]]) : tensor<3x?x5xi8>
// CHECK-NEXT:  %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<3x?x5xf32>) outs(%[[E]] : tensor<3x?x5xi8>)
// CHECK:       math.roundeven
// CHECK:       linalg.yield %{{.*}} : i8
// CHECK:       quant.scast %[[G]] : tensor<3x?x5xi8> to tensor<3x?x5x!quant.uniform<i8:f32, 2.000000e+00>>
// Upstream: element-wise arith on the tensor, parameters splat to its shape.
// UPSTREAM-LABEL: func.func @qcast_per_layer_dynamic
// UPSTREAM:       %[[S:.*]] = arith.constant 2.000000e+00 : f32
// UPSTREAM-NEXT:  arith.constant 0 : i8
// UPSTREAM-NEXT:  %[[C1:.*]] = arith.constant 1 : index
// UPSTREAM-NEXT:  %[[D1:.*]] = tensor.dim %arg0, %[[C1]] : tensor<3x?x5xf32>
// UPSTREAM-NEXT:  %[[SS:.*]] = tensor.splat %[[S]][%[[D1]]] : tensor<3x?x5xf32>
// UPSTREAM-NEXT:  %[[DIV:.*]] = arith.divf %arg0, %[[SS]] : tensor<3x?x5xf32>
// UPSTREAM-NEXT:  %[[I:.*]] = arith.fptosi %[[DIV]] : tensor<3x?x5xf32> to tensor<3x?x5xi8>
// UPSTREAM-NEXT:  quant.scast %[[I]] : tensor<3x?x5xi8> to tensor<3x?x5x!quant.uniform<i8:f32, 2.000000e+00>>
// UPSTREAM-NOT:   linalg.generic
func.func @qcast_per_layer_dynamic(%arg0: tensor<3x?x5xf32>) -> tensor<3x?x5x!quant.uniform<i8:f32, 2.0>> {
  %0 = quant.qcast %arg0 : tensor<3x?x5xf32> to tensor<3x?x5x!quant.uniform<i8:f32, 2.0>>
  return %0 : tensor<3x?x5x!quant.uniform<i8:f32, 2.0>>
}

// -----
// Per-layer, unranked: flatten to 1-D, lower, reshape back.
// CHECK-LABEL: func.func @dcast_per_layer_unranked
// CHECK:       %[[I:.*]] = quant.scast %arg0 : tensor<*x!quant.uniform<i8:f32, 2.000000e+00:10>> to tensor<*xi8>
// CHECK-NEXT:  %[[SH:.*]] = shape.shape_of %[[I]] : tensor<*xi8> -> tensor<?xindex>
// CHECK-NEXT:  %[[N:.*]] = shape.num_elements %[[SH]] : tensor<?xindex> -> index
// CHECK-NEXT:  %[[EX:.*]] = tensor.from_elements %[[N]] : tensor<1xindex>
// CHECK-NEXT:  %[[FLAT:.*]] = tensor.reshape %[[I]](%[[EX]]) : (tensor<*xi8>, tensor<1xindex>) -> tensor<?xi8>
// CHECK:       %[[G:.*]] = linalg.generic {{.*}} ins(%[[FLAT]] : tensor<?xi8>)
// CHECK:       tensor.reshape %[[G]](%[[SH]]) : (tensor<?xf32>, tensor<?xindex>) -> tensor<*xf32>
// UPSTREAM-LABEL: func.func @dcast_per_layer_unranked
// UPSTREAM:       %[[FLAT:.*]] = tensor.reshape %{{.*}}(%{{.*}}) : (tensor<*xi8>, tensor<1xindex>) -> tensor<?xi8>
// UPSTREAM:       %[[F:.*]] = arith.sitofp %[[FLAT]] : tensor<?xi8> to tensor<?xf32>
// UPSTREAM-NEXT:  %[[ZS:.*]] = tensor.splat %{{.*}}[%{{.*}}] : tensor<?xi8>
// UPSTREAM-NEXT:  %[[Z:.*]] = arith.sitofp %[[ZS]] : tensor<?xi8> to tensor<?xf32>
// UPSTREAM-NEXT:  %[[SUB:.*]] = arith.subf %[[F]], %[[Z]] : tensor<?xf32>
// UPSTREAM-NEXT:  %[[R:.*]] = arith.mulf %[[SUB]], %{{.*}} : tensor<?xf32>
// UPSTREAM-NEXT:  tensor.reshape %[[R]](%{{.*}}) : (tensor<?xf32>, tensor<?xindex>) -> tensor<*xf32>
func.func @dcast_per_layer_unranked(%arg0: tensor<*x!quant.uniform<i8:f32, 2.0:10>>) -> tensor<*xf32> {
  %0 = quant.dcast %arg0 : tensor<*x!quant.uniform<i8:f32, 2.0:10>> to tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----
// Per-axis, ranked: dense parameter constants read through (d_axis).
// CHECK-LABEL: func.func @qcast_per_axis
// CHECK-DAG:   %[[S:.*]] = arith.constant dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-DAG:   %[[Z:.*]] = arith.constant dense<[0.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK:       %[[E:.*]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<4x?x?x5xi8>
// CHECK-NEXT:  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %[[S]], %[[Z]] : tensor<4x?x?x5xf32>, tensor<2xf32>, tensor<2xf32>) outs(%[[E]] : tensor<4x?x?x5xi8>)
// CHECK-NEXT:  ^bb0(%[[X:.*]]: f32, %[[SC:.*]]: f32, %[[ZP:.*]]: f32, %{{.*}}: i8):
// CHECK-NEXT:  %[[DIV:.*]] = arith.divf %[[X]], %[[SC]] : f32
// CHECK-NEXT:  arith.addf %[[DIV]], %[[ZP]] : f32
// UPSTREAM-LABEL: func.func @qcast_per_axis
// UPSTREAM-DAG:   arith.constant dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>
// UPSTREAM-DAG:   arith.constant dense<[0, 4]> : tensor<2xi8>
// UPSTREAM:       ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: i8, %{{.*}}: i8):
func.func @qcast_per_axis(%arg0: tensor<4x?x?x5xf32>) -> tensor<4x?x?x5x!quant.uniform<i8:f32:1, {2.0, 3.0:4}>> {
  %0 = quant.qcast %arg0 : tensor<4x?x?x5xf32> to tensor<4x?x?x5x!quant.uniform<i8:f32:1, {2.0, 3.0:4}>>
  return %0 : tensor<4x?x?x5x!quant.uniform<i8:f32:1, {2.0, 3.0:4}>>
}

// -----
// Per-axis, unranked: split the shape around the axis, view as ?xNx?.
// CHECK-LABEL: func.func @qcast_per_axis_unranked
// CHECK:       %[[SH:.*]] = shape.shape_of %arg0 : tensor<*xf32> -> tensor<?xindex>
// CHECK-NEXT:  %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[LEFT:.*]], %{{.*}} = "shape.split_at"(%[[SH]], %[[C2]]) : (tensor<?xindex>, index) -> (tensor<?xindex>, tensor<?xindex>)
// CHECK-NEXT:  %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:  %{{.*}}, %[[RIGHT:.*]] = "shape.split_at"(%[[SH]], %[[C3]]) : (tensor<?xindex>, index) -> (tensor<?xindex>, tensor<?xindex>)
// CHECK-NEXT:  %[[L:.*]] = shape.num_elements %[[LEFT]] : tensor<?xindex> -> index
// CHECK-NEXT:  %[[N:.*]] = arith.constant 3 : index
// CHECK-NEXT:  %[[R:.*]] = shape.num_elements %[[RIGHT]] : tensor<?xindex> -> index
// CHECK-NEXT:  %[[EX:.*]] = tensor.from_elements %[[L]], %[[N]], %[[R]] : tensor<3xindex>
// CHECK-NEXT:  tensor.reshape %arg0(%[[EX]]) : (tensor<*xf32>, tensor<3xindex>) -> tensor<?x3x?xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:       tensor.reshape %{{.*}}(%[[SH]]) : (tensor<?x3x?xi8>, tensor<?xindex>) -> tensor<*xi8>
func.func @qcast_per_axis_unranked(%arg0: tensor<*xf32>) -> tensor<*x!quant.uniform<i8:f32:2, {2.0, 3.0:4, 5.0}>> {
  %0 = quant.qcast %arg0 : tensor<*xf32> to tensor<*x!quant.uniform<i8:f32:2, {2.0, 3.0:4, 5.0}>>
  return %0 : tensor<*x!quant.uniform<i8:f32:2, {2.0, 3.0:4, 5.0}>>
}

// -----
// Sub-channel, ranked with dynamic dims: unlisted axes read index 0, blocks use floordiv.
// CHECK-LABEL: func.func @qcast_sub_channel
// CHECK-DAG:   %[[S:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00, 3.000000e+00]]], {{\[\[\[}}4.000000e+00, 5.000000e+00]]]]> : tensor<2x1x1x2xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, (d3 floordiv 2))>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, (d3 floordiv 2))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:  ins(%arg0, %[[S]], %{{.*}} : tensor<2x?x?x4xf32>, tensor<2x1x1x2xf32>, tensor<2x1x1x2xf32>)
func.func @qcast_sub_channel(%arg0: tensor<2x?x?x4xf32>) -> tensor<2x?x?x4x!quant.uniform<i8:f32:{0:1, 3:2}, {{{{2.0, 3.0}}}, {{{4.0, 5.0}}}}>> {
  %0 = quant.qcast %arg0 : tensor<2x?x?x4xf32> to tensor<2x?x?x4x!quant.uniform<i8:f32:{0:1, 3:2}, {{{{2.0, 3.0}}}, {{{4.0, 5.0}}}}>>
  return %0 : tensor<2x?x?x4x!quant.uniform<i8:f32:{0:1, 3:2}, {{{{2.0, 3.0}}}, {{{4.0, 5.0}}}}>>
}

// -----
// Sub-channel dcast, static: (d0, d1 floordiv 2), i32 zero points, body extsi, subi, sitofp, mulf.
// CHECK-LABEL: func.func @dcast_sub_channel
// CHECK-DAG:   %[[ZS:.*]] = arith.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, (d1 floordiv 2))>, affine_map<(d0, d1) -> (d0, (d1 floordiv 2))>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:  ins(%{{.*}}, %{{.*}}, %[[ZS]] : tensor<2x4xi8>, tensor<2x2xf32>, tensor<2x2xi32>)
// CHECK-NEXT:  ^bb0(%[[Q:.*]]: i8, %[[S:.*]]: f32, %[[Z:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT:  %[[W:.*]] = arith.extsi %[[Q]] : i8 to i32
// CHECK-NEXT:  %[[SUB:.*]] = arith.subi %[[W]], %[[Z]] : i32
// CHECK-NEXT:  %[[F:.*]] = arith.sitofp %[[SUB]] : i32 to f32
// CHECK-NEXT:  %[[R:.*]] = arith.mulf %[[F]], %[[S]] : f32
// CHECK-NEXT:  linalg.yield %[[R]] : f32
// UPSTREAM-LABEL: func.func @dcast_sub_channel
// UPSTREAM:       ^bb0(%{{.*}}: i8, %{{.*}}: f32, %{{.*}}: i8, %{{.*}}: f32):
// UPSTREAM-NEXT:  arith.sitofp %{{.*}} : i8 to f32
// UPSTREAM-NEXT:  arith.sitofp %{{.*}} : i8 to f32
// UPSTREAM-NEXT:  arith.subf
// UPSTREAM-NEXT:  arith.mulf
func.func @dcast_sub_channel(%arg0: tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:1, 3.0:2}, {4.0:3, 5.0:4}}>>) -> tensor<2x4xf32> {
  %0 = quant.dcast %arg0 : tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:1, 3.0:2}, {4.0:3, 5.0:4}}>> to tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----
// Sub-channel, unranked (not supported upstream): view as [left, 4, mid, 4, right]
// from the scale shape (seed 000, appendix case 2).
// CHECK-LABEL: func.func @qcast_sub_channel_unranked
// CHECK:       %[[SH:.*]] = shape.shape_of %arg0 : tensor<*xf32> -> tensor<?xindex>
// CHECK-COUNT-4: "shape.split_at"
// CHECK:       tensor.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<5xindex>
// CHECK-NEXT:  tensor.reshape %arg0(%{{.*}}) : (tensor<*xf32>, tensor<5xindex>) -> tensor<?x4x?x4x?xf32>
// CHECK:       arith.constant dense<{{.*}}> : tensor<1x2x1x2x1xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (0, (d1 floordiv 2), 0, (d3 floordiv 2), 0)>, affine_map<(d0, d1, d2, d3, d4) -> (0, (d1 floordiv 2), 0, (d3 floordiv 2), 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>]
// CHECK:       tensor.reshape %{{.*}}(%[[SH]]) : (tensor<?x4x?x4x?xi8>, tensor<?xindex>) -> tensor<*xi8>
// Upstream has no such lowering (its verifier rejects the type); the default
// views the tensor the same way and runs upstream's arithmetic on i8 zero points.
// UPSTREAM-LABEL: func.func @qcast_sub_channel_unranked
// UPSTREAM:       tensor.reshape %arg0(%{{.*}}) : (tensor<*xf32>, tensor<5xindex>) -> tensor<?x4x?x4x?xf32>
// UPSTREAM:       arith.constant dense<{{.*}}> : tensor<1x2x1x2x1xi8>
// UPSTREAM:       arith.fptosi %{{.*}} : f32 to i8
// UPSTREAM:       tensor.reshape %{{.*}} : (tensor<?x4x?x4x?xi8>, tensor<?xindex>) -> tensor<*xi8>
func.func @qcast_sub_channel_unranked(%arg0: tensor<*xf32>) -> tensor<*x!quant.uniform<i8:f32:{1:2, 3:2}, {{1.0:1, 2.0:2}, {3.0:3, 4.0:4}}>> {
  %0 = quant.qcast %arg0 : tensor<*xf32> to tensor<*x!quant.uniform<i8:f32:{1:2, 3:2}, {{1.0:1, 2.0:2}, {3.0:3, 4.0:4}}>>
  return %0 : tensor<*x!quant.uniform<i8:f32:{1:2, 3:2}, {{1.0:1, 2.0:2}, {3.0:3, 4.0:4}}>>
}

// -----
// As upstream's conversion folds each op before lowering it, dcast(qcast x) is x by
// default, and a qcast(dcast p) of the same type is p (its dcast is still lowered for
// its other user); nearest-even lowers every cast and keeps the quantization error.
// UPSTREAM-LABEL: func.func @pairs
// UPSTREAM-NOT:   quant.dcast
// UPSTREAM:       arith.fptosi
// UPSTREAM:       quant.scast %p : !quant.uniform<i8:f32, 5.000000e-01:-1> to i8
// UPSTREAM:       func.return %x, %p, %{{.*}} : f32, !quant.uniform<i8:f32, 5.000000e-01:-1>, f32
// CHECK-LABEL:    func.func @pairs
// CHECK-COUNT-2:  math.roundeven
func.func @pairs(%x: f32, %p: !quant.uniform<i8:f32, 0.5:-1>) -> (f32, !quant.uniform<i8:f32, 0.5:-1>, f32) {
  %q = quant.qcast %x : f32 to !quant.uniform<i8:f32, 0.5:-1>
  %d = quant.dcast %q : !quant.uniform<i8:f32, 0.5:-1> to f32
  %e = quant.dcast %p : !quant.uniform<i8:f32, 0.5:-1> to f32
  %f = quant.qcast %e : f32 to !quant.uniform<i8:f32, 0.5:-1>
  return %d, %f, %e : f32, !quant.uniform<i8:f32, 0.5:-1>, f32
}
