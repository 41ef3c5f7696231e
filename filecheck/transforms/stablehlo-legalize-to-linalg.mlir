// RUN: xdsl-opt %s -p stablehlo-legalize-to-linalg | filecheck %s
// RUN: xdsl-opt %s -p 'stablehlo-legalize-to-linalg{capture-scalar-inputs=false}' | filecheck %s --check-prefix=NOCAP
// RUN: xdsl-opt %s -p 'stablehlo-legalize-to-linalg{enable-primitive-ops=true}' | filecheck %s --check-prefix=PRIMITIVE

// ---------------------------------------------------------------------------------------
// Element-wise ops: one all-parallel linalg.generic whose body is the scalar op.

// Float binary op on a 2-D tensor: identity maps, addf in the body.
// CHECK-LABEL: func.func @add_f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%[[E]] : tensor<2x3xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    } -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x3xf32>
func.func @add_f32(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %a, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Integer binary ops use the integer arith op (signed for maximum).
// CHECK-LABEL: func.func @sub_max_i32
// CHECK-NEXT:    %[[E0:.*]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT:    %[[D:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xi32>, tensor<4xi32>) outs(%[[E0]] : tensor<4xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %[[S:.*]] = arith.subi %[[X]], %[[Y]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<4xi32>
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT:    %[[M:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[D]], %b : tensor<4xi32>, tensor<4xi32>) outs(%[[E1]] : tensor<4xi32>) {
// CHECK-NEXT:    ^bb0(%[[X1:.*]]: i32, %[[Y1:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %[[S1:.*]] = arith.maxsi %[[X1]], %[[Y1]] : i32
// CHECK-NEXT:      linalg.yield %[[S1]] : i32
// CHECK-NEXT:    } -> tensor<4xi32>
// CHECK-NEXT:    func.return %[[M]] : tensor<4xi32>
func.func @sub_max_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.subtract %a, %b : tensor<4xi32>
  %1 = stablehlo.maximum %0, %b : tensor<4xi32>
  return %1 : tensor<4xi32>
}

// On booleans, maximum is unsigned (a logical or), as upstream.
// CHECK-LABEL: func.func @max_i1
// CHECK:           %[[S:.*]] = arith.maxui %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:      linalg.yield %[[S]] : i1
func.func @max_i1(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %0 = stablehlo.maximum %a, %b : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// Rank-0 operands: a generic with no loops.
// CHECK-LABEL: func.func @mul_rank0
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a, %b : tensor<f32>, tensor<f32>) outs(%[[E]] : tensor<f32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @mul_rank0(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.multiply %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// Float unary op: the math dialect op.
// CHECK-LABEL: func.func @exp_f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    } -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<4xf32>
func.func @exp_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Integer negate is 0 - x; the constant is created before the generic, not in its body.
// CHECK-LABEL: func.func @negate_i8
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xi8>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xi8>) outs(%[[E]] : tensor<4xi8>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT:      %[[S:.*]] = arith.subi %[[Z]], %[[X]] : i8
// CHECK-NEXT:      linalg.yield %[[S]] : i8
func.func @negate_i8(%a: tensor<4xi8>) -> tensor<4xi8> {
  %0 = stablehlo.negate %a : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// Integer abs: select(x < 0, 0 - x, x) (so abs(-128) wraps to -128, as in StableHLO).
// CHECK-LABEL: func.func @abs_i8
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xi8>
// CHECK-NEXT:    %[[Z0:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xi8>) outs(%[[E]] : tensor<4xi8>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT:      %[[N:.*]] = arith.subi %[[Z0]], %[[X]] : i8
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi slt, %[[X]], %[[Z0]] : i8
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[LT]], %[[N]], %[[X]] : i8
// CHECK-NEXT:      linalg.yield %[[S]] : i8
func.func @abs_i8(%a: tensor<4xi8>) -> tensor<4xi8> {
  %0 = stablehlo.abs %a : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// Float sign: +-1 from two ordered compares, else x itself (keeps NaN and -0.0).
// CHECK-LABEL: func.func @sign_f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[MINUS:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[NEG:.*]] = arith.select %[[LT]], %[[MINUS]], %[[X]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[GT]], %[[ONE]], %[[NEG]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @sign_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.sign %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Integer sign: the fallback is the constant 0.
// CHECK-LABEL: func.func @sign_i32
// CHECK:           %[[GT:.*]] = arith.cmpi sgt, %[[X:.*]], %[[ZERO:.*]] : i32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi slt, %[[X]], %[[ZERO]] : i32
// CHECK-NEXT:      %[[NEG:.*]] = arith.select %[[LT]], %{{.*}}, %[[ZERO]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[GT]], %{{.*}}, %[[NEG]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
func.func @sign_i32(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.sign %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// logistic: 1 / (exp(-x) + 1).
// CHECK-LABEL: func.func @logistic
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT:      %[[EXP:.*]] = math.exp %[[N]] : f32
// CHECK-NEXT:      %[[D:.*]] = arith.addf %[[EXP]], %[[ONE]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.divf %[[ONE]], %[[D]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @logistic(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.logistic %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// clamp with rank-0 bounds: captured (capture-scalar-inputs, the default), read
// once with tensor.extract before the generic; min(max(x, lo), hi).
// CHECK-LABEL: func.func @clamp_i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT:    %[[LO:.*]] = tensor.extract %lo[] : tensor<i32>
// CHECK-NEXT:    %[[HI:.*]] = tensor.extract %hi[] : tensor<i32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xi32>) outs(%[[E]] : tensor<4xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %[[M:.*]] = arith.maxsi %[[LO]], %[[X]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.minsi %[[M]], %[[HI]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
func.func @clamp_i32(%lo: tensor<i32>, %a: tensor<4xi32>, %hi: tensor<i32>) -> tensor<4xi32> {
  %0 = stablehlo.clamp %lo, %a, %hi : (tensor<i32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Float clamp uses the NaN-propagating maximumf/minimumf.
// CHECK-LABEL: func.func @clamp_f32
// CHECK:           %[[M:.*]] = arith.maximumf %[[LO:.*]], %[[X:.*]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.minimumf %[[M]], %[[HI:.*]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @clamp_f32(%lo: tensor<4xf32>, %a: tensor<4xf32>, %hi: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.clamp %lo, %a, %hi : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// ---------------------------------------------------------------------------------------
// compare and select

// Float compare is ordered (olt), the i1 result feeds select.
// CHECK-LABEL: func.func @compare_select
// CHECK-NEXT:    %[[PE:.*]] = tensor.empty() : tensor<4xi1>
// CHECK-NEXT:    %[[P:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%[[PE]] : tensor<4xi1>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf olt, %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[C]] : i1
// CHECK-NEXT:    } -> tensor<4xi1>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[P]], %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[Q:.*]]: i1, %[[T:.*]]: f32, %[[F:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[Q]], %[[T]], %[[F]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    } -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<4xf32>
func.func @compare_select(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %p = stablehlo.compare  LT, %a, %b,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Float NE is the unordered une (NaN != NaN is true).
// CHECK-LABEL: func.func @compare_ne_f32
// CHECK:           %[[C:.*]] = arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      linalg.yield %[[C]] : i1
func.func @compare_ne_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %p = stablehlo.compare  NE, %a, %b,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %p : tensor<4xi1>
}

// Signed integer compare: the signed predicate.
// CHECK-LABEL: func.func @compare_ge_i32
// CHECK:           %[[C:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:      linalg.yield %[[C]] : i1
func.func @compare_ge_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  %p = stablehlo.compare  GE, %a, %b,  SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %p : tensor<4xi1>
}

// A rank-0 predicate is captured (tensor.extract before the generic); with
// capture-scalar-inputs=false it broadcasts through the empty map, as upstream.
// CHECK-LABEL: func.func @select_scalar_pred
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x2xi8>
// CHECK-NEXT:    %[[Q:.*]] = tensor.extract %p[] : tensor<i1>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x2xi8>, tensor<2x2xi8>) outs(%[[E]] : tensor<2x2xi8>) {
// CHECK-NEXT:    ^bb0(%[[T:.*]]: i8, %[[F:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[Q]], %[[T]], %[[F]] : i8
// CHECK-NEXT:      linalg.yield %[[S]] : i8
// NOCAP-LABEL: func.func @select_scalar_pred
// NOCAP-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x2xi8>
// NOCAP-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %a, %b : tensor<i1>, tensor<2x2xi8>, tensor<2x2xi8>) outs(%[[E]] : tensor<2x2xi8>) {
// NOCAP-NEXT:    ^bb0(%[[Q:.*]]: i1, %[[T:.*]]: i8, %[[F:.*]]: i8, %{{.*}}: i8):
// NOCAP-NEXT:      %[[S:.*]] = arith.select %[[Q]], %[[T]], %[[F]] : i8
// NOCAP-NEXT:      linalg.yield %[[S]] : i8
func.func @select_scalar_pred(%p: tensor<i1>, %a: tensor<2x2xi8>, %b: tensor<2x2xi8>) -> tensor<2x2xi8> {
  %0 = stablehlo.select %p, %a, %b : (tensor<i1>, tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// Integer divide, as upstream: x / 0 = -1 and MIN / -1 = MIN around a divsi whose
// divisor is made safe (1) in those two cases.
// CHECK-LABEL: func.func @divide_i32
// CHECK:         ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %[[BY0:.*]] = arith.cmpi eq, %[[Y]], %{{.*}} : i32
// CHECK-NEXT:      %[[XMIN:.*]] = arith.cmpi eq, %[[X]], %{{.*}} : i32
// CHECK-NEXT:      %[[YM1:.*]] = arith.cmpi eq, %[[Y]], %{{.*}} : i32
// CHECK-NEXT:      %[[OV:.*]] = arith.andi %[[XMIN]], %[[YM1]] : i1
// CHECK-NEXT:      %[[SP:.*]] = arith.ori %[[BY0]], %[[OV]] : i1
// CHECK-NEXT:      %[[SAFE:.*]] = arith.select %[[SP]], %{{.*}}, %[[Y]] : i32
// CHECK-NEXT:      %[[Q:.*]] = arith.divsi %[[X]], %[[SAFE]] : i32
// CHECK-NEXT:      %[[Q1:.*]] = arith.select %[[OV]], %{{.*}}, %[[Q]] : i32
// CHECK-NEXT:      %[[Q2:.*]] = arith.select %[[BY0]], %{{.*}}, %[[Q1]] : i32
// CHECK-NEXT:      linalg.yield %[[Q2]] : i32
func.func @divide_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.divide %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Shifts saturate for amounts of the width or more (read unsigned), as upstream.
// CHECK-LABEL: func.func @shift_right_arithmetic_i8
// CHECK:         ^bb0(%[[X:.*]]: i8, %[[S:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT:      %[[SH:.*]] = arith.shrsi %[[X]], %[[S]] : i8
// CHECK-NEXT:      %[[SAT:.*]] = arith.shrsi %[[X]], %{{.*}} : i8
// CHECK-NEXT:      %[[OK:.*]] = arith.cmpi ult, %[[S]], %{{.*}} : i8
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[OK]], %[[SH]], %[[SAT]] : i8
// CHECK-NEXT:      linalg.yield %[[R]] : i8
func.func @shift_right_arithmetic_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = stablehlo.shift_right_arithmetic %a, %b : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// ---------------------------------------------------------------------------------------
// convert and bitcast_convert

// float -> i8: NaN -> 0, clamp to [-128, 127] in the source type, then fptosi (truncates).
// CHECK-LABEL: func.func @convert_f32_i8
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xi8>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[LOW:.*]] = arith.constant -1.280000e+02 : f32
// CHECK-NEXT:    %[[HIGH:.*]] = arith.constant 1.270000e+02 : f32
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%[[E]] : tensor<4xi8>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: i8):
// CHECK-NEXT:      %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[X]] : f32
// CHECK-NEXT:      %[[L:.*]] = arith.maximumf %[[Y]], %[[LOW]] : f32
// CHECK-NEXT:      %[[H:.*]] = arith.minimumf %[[L]], %[[HIGH]] : f32
// CHECK-NEXT:      %[[I:.*]] = arith.fptosi %[[H]] : f32 to i8
// CHECK-NEXT:      linalg.yield %[[I]] : i8
func.func @convert_f32_i8(%a: tensor<4xf32>) -> tensor<4xi8> {
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// f32 -> i32 goes through f64, where -2^31 and 2^31 - 1 are exact.
// CHECK-LABEL: func.func @convert_f32_i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:    %[[LOW:.*]] = arith.constant 0xC1E0000000000000 : f64
// CHECK-NEXT:    %[[HIGH:.*]] = arith.constant 0x41DFFFFFFFC00000 : f64
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%[[E]] : tensor<4xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: i32):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT:      %[[NAN:.*]] = arith.cmpf uno, %[[W]], %[[W]] : f64
// CHECK-NEXT:      %[[Y:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[W]] : f64
// CHECK-NEXT:      %[[L:.*]] = arith.maximumf %[[Y]], %[[LOW]] : f64
// CHECK-NEXT:      %[[H:.*]] = arith.minimumf %[[L]], %[[HIGH]] : f64
// CHECK-NEXT:      %[[I:.*]] = arith.fptosi %[[H]] : f64 to i32
// CHECK-NEXT:      linalg.yield %[[I]] : i32
func.func @convert_f32_i32(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Signed integer -> float: sitofp.
// CHECK-LABEL: func.func @convert_i8_f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xi8>) outs(%[[E]] : tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i8, %{{.*}}: f32):
// CHECK-NEXT:      %[[F:.*]] = arith.sitofp %[[X]] : i8 to f32
// CHECK-NEXT:      linalg.yield %[[F]] : f32
func.func @convert_i8_f32(%a: tensor<4xi8>) -> tensor<4xf32> {
  %0 = stablehlo.convert %a : (tensor<4xi8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Integer widening sign-extends, narrowing truncates (wraps).
// CHECK-LABEL: func.func @convert_int_widths
// CHECK:           %[[W:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK-NEXT:      linalg.yield %[[W]] : i32
// CHECK:           %[[N:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK-NEXT:      linalg.yield %[[N]] : i8
func.func @convert_int_widths(%a: tensor<4xi8>) -> tensor<4xi8> {
  %0 = stablehlo.convert %a : (tensor<4xi8>) -> tensor<4xi32>
  %1 = stablehlo.convert %0 : (tensor<4xi32>) -> tensor<4xi8>
  return %1 : tensor<4xi8>
}

// Float widths: extf up, truncf down.
// CHECK-LABEL: func.func @convert_float_widths
// CHECK:           %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:      linalg.yield %[[W]] : f32
// CHECK:           %[[N:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:      linalg.yield %[[N]] : f16
func.func @convert_float_widths(%a: tensor<4xf16>) -> tensor<4xf16> {
  %0 = stablehlo.convert %a : (tensor<4xf16>) -> tensor<4xf32>
  %1 = stablehlo.convert %0 : (tensor<4xf32>) -> tensor<4xf16>
  return %1 : tensor<4xf16>
}

// Booleans: i1 -> int/float is unsigned (true is 1), int/float -> i1 is "!= 0".
// CHECK-LABEL: func.func @convert_bool
// CHECK:           %[[A:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK-NEXT:      linalg.yield %[[A]] : i32
// CHECK:           %[[B:.*]] = arith.uitofp %{{.*}} : i1 to f32
// CHECK-NEXT:      linalg.yield %[[B]] : f32
// CHECK:         %[[IZ:.*]] = arith.constant 0 : i32
// CHECK:           %[[C:.*]] = arith.cmpi ne, %{{.*}}, %[[IZ]] : i32
// CHECK-NEXT:      linalg.yield %[[C]] : i1
// CHECK:         %[[FZ:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:           %[[D:.*]] = arith.cmpf une, %{{.*}}, %[[FZ]] : f32
// CHECK-NEXT:      linalg.yield %[[D]] : i1
func.func @convert_bool(%p: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.convert %p : (tensor<4xi1>) -> tensor<4xi32>
  %1 = stablehlo.convert %p : (tensor<4xi1>) -> tensor<4xf32>
  %2 = stablehlo.convert %0 : (tensor<4xi32>) -> tensor<4xi1>
  %3 = stablehlo.convert %1 : (tensor<4xf32>) -> tensor<4xi1>
  return %2, %3 : tensor<4xi1>, tensor<4xi1>
}

// bitcast_convert: arith.bitcast.
// CHECK-LABEL: func.func @bitcast_f32_i32
// CHECK:           %[[B:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT:      linalg.yield %[[B]] : i32
func.func @bitcast_f32_i32(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// ---------------------------------------------------------------------------------------
// constant and data movement

// constant: arith.constant with the same dense value.
// CHECK-LABEL: func.func @constant
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-NEXT:    func.return %[[C]] : tensor<2x2xi32>
func.func @constant() -> tensor<2x2xi32> {
  %0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// broadcast_in_dim: the input map keeps only the mapped dimensions.
// CHECK-LABEL: func.func @broadcast_in_dim
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<3xf32>) outs(%[[E]] : tensor<2x3xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[X]] : f32
// CHECK-NEXT:    } -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x3xf32>
func.func @broadcast_in_dim(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// A size-1 operand dimension that is expanded is pinned to 0.
// CHECK-LABEL: func.func @broadcast_in_dim_expand
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x4x3xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<1x3xf32>) outs(%[[E]] : tensor<2x4x3xf32>) {
func.func @broadcast_in_dim_expand(%a: tensor<1x3xf32>) -> tensor<2x4x3xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [1, 2] : (tensor<1x3xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// A permuting broadcast_in_dim: operand dim i reads result dim dims[i].
// CHECK-LABEL: func.func @broadcast_in_dim_permute
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<3x2xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%[[E]] : tensor<3x2xf32>) {
func.func @broadcast_in_dim_permute(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// reshape: collapse to 1-D, then expand to the result shape.
// CHECK-LABEL: func.func @reshape
// CHECK-NEXT:    %[[C:.*]] = tensor.collapse_shape %a {{\[\[}}0 : i64, 1 : i64]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK-NEXT:    %[[X:.*]] = tensor.expand_shape %[[C]] {{\[\[}}0 : i64, 1 : i64]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK-NEXT:    func.return %[[X]] : tensor<3x2xf32>
func.func @reshape(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// reshape to 1-D is only the collapse; 1-D to 1-D is no op at all.
// CHECK-LABEL: func.func @reshape_flatten
// CHECK-NEXT:    %[[C:.*]] = tensor.collapse_shape %a {{\[\[}}0 : i64, 1 : i64]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK-NEXT:    func.return %[[C]] : tensor<6xf32>
// CHECK-LABEL: func.func @reshape_same
// CHECK-NEXT:    func.return %a : tensor<6xf32>
func.func @reshape_flatten(%a: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
func.func @reshape_same(%a: tensor<6xf32>) -> tensor<6xf32> {
  %0 = stablehlo.reshape %a : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// reshape from/to rank 0: one collapse / expand with an empty reassociation, as upstream.
// CHECK-LABEL: func.func @reshape_rank0
// CHECK-NEXT:    %[[R:.*]] = tensor.collapse_shape %a [] : tensor<1x1xf32> into tensor<f32>
// CHECK-NEXT:    func.return %[[R]] : tensor<f32>
func.func @reshape_rank0(%a: tensor<1x1xf32>) -> tensor<f32> {
  %0 = stablehlo.reshape %a : (tensor<1x1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @reshape_from_rank0
// CHECK-NEXT:    %[[R:.*]] = tensor.expand_shape %a [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<1x1xf32>
func.func @reshape_from_rank0(%a: tensor<f32>) -> tensor<1x1xf32> {
  %0 = stablehlo.reshape %a : (tensor<f32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// One collapse or expand when a single one does it (upstream's
// getReassociationIndicesForReshape: greedy groups, trailing 1s join the last).
// CHECK-LABEL: func.func @reshape_collapse_groups
// CHECK-NEXT:    %[[R:.*]] = tensor.collapse_shape %a {{\[\[}}0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<12x42x1x1xi32> into tensor<12x42xi32>
func.func @reshape_collapse_groups(%a: tensor<12x42x1x1xi32>) -> tensor<12x42xi32> {
  %0 = stablehlo.reshape %a : (tensor<12x42x1x1xi32>) -> tensor<12x42xi32>
  return %0 : tensor<12x42xi32>
}

// CHECK-LABEL: func.func @reshape_expand_groups
// CHECK-NEXT:    %[[R:.*]] = tensor.expand_shape %a {{\[\[}}0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [12, 1, 42, 1] : tensor<12x42xi32> into tensor<12x1x42x1xi32>
func.func @reshape_expand_groups(%a: tensor<12x42xi32>) -> tensor<12x1x42x1xi32> {
  %0 = stablehlo.reshape %a : (tensor<12x42xi32>) -> tensor<12x1x42x1xi32>
  return %0 : tensor<12x1x42x1xi32>
}

// No single reshape: collapse to 1-D, then expand.
// CHECK-LABEL: func.func @reshape_through_1d
// CHECK-NEXT:    %[[F:.*]] = tensor.collapse_shape %a {{\[\[}}0 : i64, 1 : i64, 2 : i64]] : tensor<1x49x16xf32> into tensor<784xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.expand_shape %[[F]] {{\[\[}}0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 784, 1, 1] : tensor<784xf32> into tensor<1x784x1x1xf32>
func.func @reshape_through_1d(%a: tensor<1x49x16xf32>) -> tensor<1x784x1x1xf32> {
  %0 = stablehlo.reshape %a : (tensor<1x49x16xf32>) -> tensor<1x784x1x1xf32>
  return %0 : tensor<1x784x1x1xf32>
}

// transpose: a copy generic reading the permuted operand, as upstream; with
// enable-primitive-ops, linalg.transpose with the same permutation.
// CHECK-LABEL: func.func @transpose
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK-NEXT:    %[[T:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[X]] : f32
// CHECK-NEXT:    } -> tensor<4x2x3xf32>
// CHECK-NEXT:    func.return %[[T]] : tensor<4x2x3xf32>
// PRIMITIVE-LABEL: func.func @transpose
// PRIMITIVE-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// PRIMITIVE-NEXT:    %[[T:.*]] = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// PRIMITIVE-NEXT:    func.return %[[T]] : tensor<4x2x3xf32>
func.func @transpose(%a: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = stablehlo.transpose %a, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// concatenate: static shapes stay one tensor.concat (both modes); dynamic ones get
// upstream's generic picking the operand with an scf.if chain (ConcatenateConverter).
// CHECK-LABEL: func.func @concatenate
// CHECK-NEXT:    %[[C:.*]] = tensor.concat dim(1) %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %[[C]] : tensor<2x4xf32>
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @concatenate_dynamic
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         linalg.generic
// CHECK:           %[[I0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[I1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[N:.*]] = tensor.dim %a, %[[C1]] : tensor<?x?xf32>
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi ult, %[[I1]], %[[N]] : index
// CHECK-NEXT:      %[[V:.*]] = scf.if %[[LT]] -> (f32) {
// CHECK-NEXT:        %[[A:.*]] = tensor.extract %a[%[[I0]], %[[I1]]] : tensor<?x?xf32>
// CHECK-NEXT:        scf.yield %[[A]] : f32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %[[J:.*]] = arith.subi %[[I1]], %[[N]] : index
// CHECK-NEXT:        %[[B:.*]] = tensor.extract %b[%[[I0]], %[[J]]] : tensor<?x?xf32>
// CHECK-NEXT:        scf.yield %[[B]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      linalg.yield %[[V]] : f32
// PRIMITIVE-LABEL: func.func @concatenate_dynamic
// PRIMITIVE-NEXT:    %[[C:.*]] = tensor.concat dim(1) %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// PRIMITIVE-NEXT:    func.return %[[C]] : tensor<?x?xf32>
func.func @concatenate_dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// slice: tensor.extract_slice with offsets = starts, sizes = result shape, the strides.
// CHECK-LABEL: func.func @slice
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %a[1, 0] [2, 2] [2, 2] : tensor<4x3xf32> to tensor<2x2xf32>
// CHECK-NEXT:    func.return %[[S]] : tensor<2x2xf32>
func.func @slice(%a: tensor<4x3xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.slice %a [1:4:2, 0:3:2] : (tensor<4x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// ---------------------------------------------------------------------------------------
// dot_general

// The plain [M,K] x [K,N] integer form: linalg.matmul into a zero-filled accumulator.
// CHECK-LABEL: func.func @dot_matmul_i32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[M:.*]] = linalg.matmul ins(%a, %b : tensor<2x4xi32>, tensor<4x3xi32>) outs(%[[F]] : tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    func.return %[[M]] : tensor<2x3xi32>
func.func @dot_matmul_i32(%a: tensor<2x4xi32>, %b: tensor<4x3xi32>) -> tensor<2x3xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x4xi32>, tensor<4x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// i8 x i8 -> i32: the matmul accumulates in i32 (linalg.matmul sign-extends its inputs).
// CHECK-LABEL: func.func @dot_matmul_i8_i32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[M:.*]] = linalg.matmul ins(%a, %b : tensor<2x4xi8>, tensor<4x3xi8>) outs(%[[F]] : tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    func.return %[[M]] : tensor<2x3xi32>
func.func @dot_matmul_i8_i32(%a: tensor<2x4xi8>, %b: tensor<4x3xi8>) -> tensor<2x3xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x4xi8>, tensor<4x3xi8>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// A float matmul accumulates in the result type, as upstream (linalg.matmul's loop order).
// CHECK-LABEL: func.func @dot_matmul_f32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[M:.*]] = linalg.matmul ins(%a, %b : tensor<2x4xf32>, tensor<4x3xf32>) outs(%[[F]] : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[M]] : tensor<2x3xf32>
func.func @dot_matmul_f32(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// A batched i8 -> i32 dot: a generic over (batch, lhs free, contracting); the body widens each operand.
// CHECK-LABEL: func.func @dot_batch_i8_i32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<3x2xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<3x2xi32>) -> tensor<3x2xi32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<3x2x4xi8>, tensor<3x4xi8>) outs(%[[F]] : tensor<3x2xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[XW:.*]] = arith.extsi %[[X]] : i8 to i32
// CHECK-NEXT:      %[[YW:.*]] = arith.extsi %[[Y]] : i8 to i32
// CHECK-NEXT:      %[[P:.*]] = arith.muli %[[XW]], %[[YW]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<3x2xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<3x2xi32>
func.func @dot_batch_i8_i32(%a: tensor<3x2x4xi8>, %b: tensor<3x4xi8>) -> tensor<3x2xi32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x2x4xi8>, tensor<3x4xi8>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// [b, m, k] x [b, k, n] is linalg.batch_matmul, as upstream.
// CHECK-LABEL: func.func @dot_batch_matmul_f32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<5x2x3xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<5x2x3xf32>) -> tensor<5x2x3xf32>
// CHECK-NEXT:    %[[M:.*]] = linalg.batch_matmul ins(%a, %b : tensor<5x2x4xf32>, tensor<5x4x3xf32>) outs(%[[F]] : tensor<5x2x3xf32>) -> tensor<5x2x3xf32>
// CHECK-NEXT:    func.return %[[M]] : tensor<5x2x3xf32>
func.func @dot_batch_matmul_f32(%a: tensor<5x2x4xf32>, %b: tensor<5x4x3xf32>) -> tensor<5x2x3xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x4xf32>, tensor<5x4x3xf32>) -> tensor<5x2x3xf32>
  return %0 : tensor<5x2x3xf32>
}

// Non-default dimension numbers (batch last on lhs, contracting first on lhs and last on rhs):
// loops are (batch d0, lhs free d1, rhs free d2, contracting d3).
// CHECK-LABEL: func.func @dot_general_permuted
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<5x2x3xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<5x2x3xi32>) -> tensor<5x2x3xi32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d0)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x2x5xi32>, tensor<5x3x4xi32>) outs(%[[F]] : tensor<5x2x3xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[P:.*]] = arith.muli %[[X]], %[[Y]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<5x2x3xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<5x2x3xi32>
func.func @dot_general_permuted(%a: tensor<4x2x5xi32>, %b: tensor<5x3x4xi32>) -> tensor<5x2x3xi32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [2] x [0], contracting_dims = [0] x [2] : (tensor<4x2x5xi32>, tensor<5x3x4xi32>) -> tensor<5x2x3xi32>
  return %0 : tensor<5x2x3xi32>
}

// A transposed 2-D dot (contracting [0] x [1]) is not the plain form either.
// CHECK-LABEL: func.func @dot_transposed
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x2xi32>, tensor<3x4xi32>)
// CHECK-NOT:     linalg.matmul
func.func @dot_transposed(%a: tensor<4x2xi32>, %b: tensor<3x4xi32>) -> tensor<2x3xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<4x2xi32>, tensor<3x4xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// Two contracting dimensions, in different orders on each side: two reduction loops.
// CHECK-LABEL: func.func @dot_two_contracting
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a, %b : tensor<1x3x4xf32>, tensor<1x4x3xf32>) outs(%{{.*}} : tensor<1xf32>)
func.func @dot_two_contracting(%a: tensor<1x3x4xf32>, %b: tensor<1x4x3xf32>) -> tensor<1xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2, 1] x [1, 2] : (tensor<1x3x4xf32>, tensor<1x4x3xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// ---------------------------------------------------------------------------------------
// reduce

// The init value read (tensor.extract) and filled into the result (linalg.fill), as
// upstream, then a generic with the reduced dims as the innermost loops.
// The reducer's accumulator (its first argument) is the generic's output argument.
// CHECK-LABEL: func.func @reduce_sum_f32
// CHECK-NEXT:    %[[V:.*]] = tensor.extract %z[] : tensor<f32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %[[I:.*]] = linalg.fill ins(%[[V]] : f32) outs(%[[E]] : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<2x3xf32>) outs(%[[I]] : tensor<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    } -> tensor<2xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2xf32>
func.func @reduce_sum_f32(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// i8 values summed in i32 (the convert is explicit, as stablehlo-legalize-quant-to-math
// writes it): the extsi generic, then the reduction accumulates in i32.
// CHECK-LABEL: func.func @reduce_i8_into_i32
// CHECK-NEXT:    %[[E0:.*]] = tensor.empty() : tensor<4x6xi32>
// CHECK-NEXT:    %[[W:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x6xi8>) outs(%[[E0]] : tensor<4x6xi32>) {
// CHECK-NEXT:    ^bb0(%[[B:.*]]: i8, %{{.*}}: i32):
// CHECK-NEXT:      %[[BW:.*]] = arith.extsi %[[B]] : i8 to i32
// CHECK-NEXT:      linalg.yield %[[BW]] : i32
// CHECK-NEXT:    } -> tensor<4x6xi32>
// CHECK-NEXT:    %[[V:.*]] = tensor.extract %z[] : tensor<i32>
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT:    %[[I:.*]] = linalg.fill ins(%[[V]] : i32) outs(%[[E1]] : tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[W]] : tensor<4x6xi32>) outs(%[[I]] : tensor<4xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[X]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<4xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<4xi32>
func.func @reduce_i8_into_i32(%a: tensor<4x6xi8>, %z: tensor<i32>) -> tensor<4xi32> {
  %e = stablehlo.convert %a : (tensor<4x6xi8>) -> tensor<4x6xi32>
  %0 = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x6xi32>, tensor<i32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Reducing dimensions 0 and 2 of three: the kept dim is loop 0, the reduced ones
// loops 1 and 2 (upstream's getTransposeMapForReduction), output map (d0).
// CHECK-LABEL: func.func @reduce_multi_dim_max
// CHECK:         %[[I:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<3xi32>) -> tensor<3xi32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a : tensor<2x3x4xi32>) outs(%[[I]] : tensor<3xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[S:.*]] = arith.maxsi %[[ACC]], %[[X]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<3xi32>
func.func @reduce_multi_dim_max(%a: tensor<2x3x4xi32>, %z: tensor<i32>) -> tensor<3xi32> {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// Reducing every dimension: a rank-0 result, all iterators reduction.
// CHECK-LABEL: func.func @reduce_all_dims
// CHECK:         %[[I:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<f32>) -> tensor<f32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a : tensor<2x3xf32>) outs(%[[I]] : tensor<f32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[ACC]], %[[X]] : f32
func.func @reduce_all_dims(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// A multi-op reducer body becomes scalar ops; its constant is created before the generics.
// CHECK-LABEL: func.func @reduce_body_ops
// CHECK-NEXT:    %[[C:.*]] = arith.constant 100 : i32
// CHECK-NEXT:    %[[V:.*]] = tensor.extract %z[] : tensor<i32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT:    %[[I:.*]] = linalg.fill ins(%[[V]] : i32) outs(%[[E]] : tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x6xi32>) outs(%[[I]] : tensor<4xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[X]] : i32
// CHECK-NEXT:      %[[M:.*]] = arith.minsi %[[S]], %[[C]] : i32
// CHECK-NEXT:      linalg.yield %[[M]] : i32
// CHECK-NEXT:    } -> tensor<4xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<4xi32>
func.func @reduce_body_ops(%a: tensor<4x6xi32>, %z: tensor<i32>) -> tensor<4xi32> {
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [1] : (tensor<4x6xi32>, tensor<i32>) -> tensor<4xi32>
   reducer(%x: tensor<i32>, %y: tensor<i32>)  {
    %s = stablehlo.add %x, %y : tensor<i32>
    %c = stablehlo.constant dense<100> : tensor<i32>
    %m = stablehlo.minimum %s, %c : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }
  return %0 : tensor<4xi32>
}

// Two inputs: one generic with two outputs; block args are (inputs..., accumulators...).
// CHECK-LABEL: func.func @reduce_two_inputs
// CHECK:         %[[IA:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<f32>)
// CHECK:         %[[IB:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<i32>)
// CHECK:         %[[RA:.*]], %[[RB:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%a, %b : tensor<4xf32>, tensor<4xi32>) outs(%[[IA]], %[[IB]] : tensor<f32>, tensor<i32>) {
// CHECK-NEXT:    ^bb0(%[[XA:.*]]: f32, %[[XB:.*]]: i32, %[[AA:.*]]: f32, %[[AB:.*]]: i32):
// CHECK-NEXT:      %[[SA:.*]] = arith.addf %[[AA]], %[[XA]] : f32
// CHECK-NEXT:      %[[SB:.*]] = arith.addi %[[AB]], %[[XB]] : i32
// CHECK-NEXT:      linalg.yield %[[SA]], %[[SB]] : f32, i32
// CHECK-NEXT:    } -> (tensor<f32>, tensor<i32>)
// CHECK-NEXT:    func.return %[[RA]], %[[RB]] : tensor<f32>, tensor<i32>
func.func @reduce_two_inputs(%a: tensor<4xf32>, %b: tensor<4xi32>, %za: tensor<f32>, %zb: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %0:2 = stablehlo.reduce(%a init: %za), (%b init: %zb) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
   reducer(%x: tensor<f32>, %y: tensor<f32>) (%p: tensor<i32>, %q: tensor<i32>)  {
    %s = stablehlo.add %x, %y : tensor<f32>
    %t = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %s, %t : tensor<f32>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<f32>, tensor<i32>
}

// ---------------------------------------------------------------------------------------
// reduce_window

// In upstream's order: the init broadcast to the result, the input padded with the
// init value, then loops (out0, out1, win0, win1) with d * stride + w maps and a
// window-shaped f32 tensor.empty operand that only gives the window loops their extent.
// CHECK-LABEL: func.func @reduce_window_max
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:    %[[I:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%z : tensor<f32>) outs(%[[E]] : tensor<2x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[IV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IV]] : f32
// CHECK-NEXT:    } -> tensor<2x4xf32>
// CHECK-NEXT:    %[[V:.*]] = tensor.extract %z[] : tensor<f32>
// CHECK-NEXT:    %[[P:.*]] = tensor.pad %a low[0, 1] high[0, 1] {
// CHECK-NEXT:    ^bb0(%{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:      tensor.yield %[[V]] : f32
// CHECK-NEXT:    } : tensor<4x4xf32> to tensor<4x6xf32>
// CHECK-NEXT:    %[[W:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (((d0 * 2) + d2), (d1 + d3))>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[P]], %[[W]] : tensor<4x6xf32>, tensor<2x3xf32>) outs(%[[I]] : tensor<2x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK-NEXT:    } -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x4xf32>
func.func @reduce_window_max(%a: tensor<4x4xf32>, %z: tensor<f32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 1>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// No padding: no tensor.pad; a window dilation multiplies the window loop (d0 + d1 * 2).
// CHECK-LABEL: func.func @reduce_window_dilated
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<3xi32>
// CHECK-NEXT:    %[[I:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%z : tensor<i32>) outs(%[[E]] : tensor<3xi32>) {
// CHECK:         %[[W:.*]] = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ((d0 + (d1 * 2)))>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %[[W]] : tensor<5xi32>, tensor<2xf32>) outs(%[[I]] : tensor<3xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32, %{{.*}}: f32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[X]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<3xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<3xi32>
func.func @reduce_window_dilated(%a: tensor<5xi32>, %z: tensor<i32>) -> tensor<3xi32> {
  %0 = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %m = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_dilations = array<i64: 2>} : (tensor<5xi32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// ---------------------------------------------------------------------------------------
// convolution

// 2-D NHWC/HWIO f32 conv with padding and strides (canonical layout, as upstream): the
// zero-filled result, the input padded with the same zero, linalg.conv_2d_nhwc_hwcf
// summing in f32.
// CHECK-LABEL: func.func @conv_nhwc_pad_stride
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x3x3x4xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
// CHECK-NEXT:    %[[P:.*]] = tensor.pad %img low[0, 1, 1, 0] high[0, 1, 1, 0] {
// CHECK-NEXT:    ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:      tensor.yield %[[Z]] : f32
// CHECK-NEXT:    } : tensor<1x5x5x2xf32> to tensor<1x7x7x2xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %k : tensor<1x7x7x2xf32>, tensor<3x3x2x4xf32>) outs(%[[F]] : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<1x3x3x4xf32>
func.func @conv_nhwc_pad_stride(%img: tensor<1x5x5x2xf32>, %k: tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// i8 x i8 -> i32: linalg.conv_2d_nhwc_hwcf into an i32 result (its body sign-extends).
// CHECK-LABEL: func.func @conv_i8_i32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x3x3x3xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<1x3x3x3xi32>) -> tensor<1x3x3x3xi32>
// CHECK-NEXT:    %[[G:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img, %k : tensor<1x4x4x2xi8>, tensor<2x2x2x3xi8>) outs(%[[F]] : tensor<1x3x3x3xi32>) -> tensor<1x3x3x3xi32>
// CHECK-NEXT:    func.return %[[G]] : tensor<1x3x3x3xi32>
func.func @conv_i8_i32(%img: tensor<1x4x4x2xi8>, %k: tensor<2x2x2x3xi8>) -> tensor<1x3x3x3xi32> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xi8>, tensor<2x2x2x3xi8>) -> tensor<1x3x3x3xi32>
  return %0 : tensor<1x3x3x3xi32>
}

// rhs (atrous) dilation: the named op's `dilations`.
// CHECK-LABEL: func.func @conv_rhs_dilation
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x3x5x1xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<1x3x5x1xi32>) -> tensor<1x3x5x1xi32>
// CHECK-NEXT:    %[[G:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img, %k : tensor<1x7x7x1xi32>, tensor<3x3x1x1xi32>) outs(%[[F]] : tensor<1x3x5x1xi32>) -> tensor<1x3x5x1xi32>
// CHECK-NEXT:    func.return %[[G]] : tensor<1x3x5x1xi32>
func.func @conv_rhs_dilation(%img: tensor<1x7x7x1xi32>, %k: tensor<3x3x1x1xi32>) -> tensor<1x3x5x1xi32> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x7x7x1xi32>, tensor<3x3x1x1xi32>) -> tensor<1x3x5x1xi32>
  return %0 : tensor<1x3x5x1xi32>
}

// lhs (transposed) dilation with padding: after the result's zero fill, the input is
// inserted with strides 2 into a zero-filled tensor at the low padding (the same zero).
// CHECK-LABEL: func.func @conv_lhs_dilation
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x6x4x1xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<1x6x4x1xi32>) -> tensor<1x6x4x1xi32>
// CHECK-NEXT:    %[[EP:.*]] = tensor.empty() : tensor<1x7x5x1xi32>
// CHECK-NEXT:    %[[FP:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[EP]] : tensor<1x7x5x1xi32>) -> tensor<1x7x5x1xi32>
// CHECK-NEXT:    %[[D:.*]] = tensor.insert_slice %img into %[[FP]][0, 1, 0, 0] [1, 3, 3, 1] [1, 2, 2, 1] : tensor<1x3x3x1xi32> into tensor<1x7x5x1xi32>
// CHECK-NEXT:    %[[G:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[D]], %k : tensor<1x7x5x1xi32>, tensor<2x2x1x1xi32>) outs(%[[F]] : tensor<1x6x4x1xi32>) -> tensor<1x6x4x1xi32>
// CHECK-NEXT:    func.return %[[G]] : tensor<1x6x4x1xi32>
func.func @conv_lhs_dilation(%img: tensor<1x3x3x1xi32>, %k: tensor<2x2x1x1xi32>) -> tensor<1x6x4x1xi32> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [0, 0]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x3x1xi32>, tensor<2x2x1x1xi32>) -> tensor<1x6x4x1xi32>
  return %0 : tensor<1x6x4x1xi32>
}

// feature_group_count = 3: input features 6 -> (3, 2), kernel and result output features
// 9 -> (3, 3); the group is loop d1, shared by all three maps; the result is collapsed back.
// CHECK-LABEL: func.func @conv_feature_groups
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[K:.*]] = tensor.expand_shape %k {{\[}}[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [2, 2, 2, 3, 3] : tensor<2x2x2x9xi32> into tensor<2x2x2x3x3xi32>
// CHECK-NEXT:    %[[I:.*]] = tensor.expand_shape %img {{\[}}[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [1, 4, 4, 3, 2] : tensor<1x4x4x6xi32> into tensor<1x4x4x3x2xi32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x3x3x3x3xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<1x3x3x3x3xi32>) -> tensor<1x3x3x3x3xi32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, (d3 + d5), (d4 + d6), d1, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7, d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d3, d4, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[I]], %[[K]] : tensor<1x4x4x3x2xi32>, tensor<2x2x2x3x3xi32>) outs(%[[F]] : tensor<1x3x3x3x3xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32, %[[W:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[X]], %[[W]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[M]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<1x3x3x3x3xi32>
// CHECK-NEXT:    %[[R:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] : tensor<1x3x3x3x3xi32> into tensor<1x3x3x9xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<1x3x3x9xi32>
func.func @conv_feature_groups(%img: tensor<1x4x4x6xi32>, %k: tensor<2x2x2x9xi32>) -> tensor<1x3x3x9xi32> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<1x4x4x6xi32>, tensor<2x2x2x9xi32>) -> tensor<1x3x3x9xi32>
  return %0 : tensor<1x3x3x9xi32>
}

// batch_group_count = 2: the input batch 4 -> (2, 2) (group first), output features
// 6 -> (2, 3); the input map reads (group d1, batch d0).
// CHECK-LABEL: func.func @conv_batch_groups
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[K:.*]] = tensor.expand_shape %k {{\[}}[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [2, 2, 2, 2, 3] : tensor<2x2x2x6xi32> into tensor<2x2x2x2x3xi32>
// CHECK-NEXT:    %[[I:.*]] = tensor.expand_shape %img {{\[}}[0 : i64, 1 : i64], [2 : i64], [3 : i64], [4 : i64]] output_shape [2, 2, 3, 3, 2] : tensor<4x3x3x2xi32> into tensor<2x2x3x3x2xi32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x2x2x2x3xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<2x2x2x2x3xi32>) -> tensor<2x2x2x2x3xi32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d0, (d3 + d5), (d4 + d6), d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7, d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d3, d4, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[I]], %[[K]] : tensor<2x2x3x3x2xi32>, tensor<2x2x2x2x3xi32>) outs(%[[F]] : tensor<2x2x2x2x3xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32, %[[W:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[X]], %[[W]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[M]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<2x2x2x2x3xi32>
// CHECK-NEXT:    %[[R:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] : tensor<2x2x2x2x3xi32> into tensor<2x2x2x6xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x2x2x6xi32>
func.func @conv_batch_groups(%img: tensor<4x3x3x2xi32>, %k: tensor<2x2x2x6xi32>) -> tensor<2x2x2x6xi32> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x3x3x2xi32>, tensor<2x2x2x6xi32>) -> tensor<2x2x2x6xi32>
  return %0 : tensor<2x2x2x6xi32>
}

// NCHW/OIHW/NCHW: the same loops, the layouts folded into the maps.
// CHECK-LABEL: func.func @conv_nchw_oihw
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x4x4x4xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<2x4x4x4xi32>) -> tensor<2x4x4x4xi32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d6, (d2 + d4), (d3 + d5))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d6, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%img, %k : tensor<2x3x5x5xi32>, tensor<4x3x2x2xi32>) outs(%[[F]] : tensor<2x4x4x4xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32, %[[W:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[X]], %[[W]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[M]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<2x4x4x4xi32>
// CHECK-NEXT:    func.return %[[G]] : tensor<2x4x4x4xi32>
func.func @conv_nchw_oihw(%img: tensor<2x3x5x5xi32>, %k: tensor<4x3x2x2xi32>) -> tensor<2x4x4x4xi32> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x5x5xi32>, tensor<4x3x2x2xi32>) -> tensor<2x4x4x4xi32>
  return %0 : tensor<2x4x4x4xi32>
}

// window_reversal and negative padding: the kernel is flipped by a copy generic reading
// `2 - k`; the negative low padding crops the input with tensor.extract_slice.
// CHECK-LABEL: func.func @conv_reversal_negative_pad
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[EK:.*]] = tensor.empty() : tensor<3x2x1xi32>
// CHECK-NEXT:    %[[K:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (((d0 * -1) + 2), d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<3x2x1xi32>) outs(%[[EK]] : tensor<3x2x1xi32>) {
// CHECK-NEXT:    ^bb0(%[[V:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      linalg.yield %[[V]] : i32
// CHECK-NEXT:    } -> tensor<3x2x1xi32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x3x1xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%[[E]] : tensor<1x3x1xi32>) -> tensor<1x3x1xi32>
// CHECK-NEXT:    %[[C:.*]] = tensor.extract_slice %img[0, 1, 0] [1, 5, 2] [1, 1, 1] : tensor<1x6x2xi32> to tensor<1x5x2xi32>
// CHECK-NEXT:    %[[G:.*]] = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%[[C]], %[[K]] : tensor<1x5x2xi32>, tensor<3x2x1xi32>) outs(%[[F]] : tensor<1x3x1xi32>) -> tensor<1x3x1xi32>
// CHECK-NEXT:    func.return %[[G]] : tensor<1x3x1xi32>
func.func @conv_reversal_negative_pad(%img: tensor<1x6x2xi32>, %k: tensor<3x2x1xi32>) -> tensor<1x3x1xi32> {
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[-1, 0]], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x2xi32>, tensor<3x2x1xi32>) -> tensor<1x3x1xi32>
  return %0 : tensor<1x3x1xi32>
}

// ---------------------------------------------------------------------------------------
// gather: one all-parallel generic over the result, no inputs; linalg.index gives the
// result position, each start index is a tensor.extract from the indices, index_cast
// and clamped to [0, operand_dim - slice_size]; the element is a tensor.extract.

// Embedding lookup (row gather), index_vector_dim = rank of the indices (implicit
// trailing vector of one): the row is clamp(ids[d0], 0, 5 - 1), the column d1.
// CHECK-LABEL: func.func @gather_embedding
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<4x3xf32>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32):
// CHECK-NEXT:      %[[D0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[ID:.*]] = tensor.extract %ids[%[[D0]]] : tensor<4xi32>
// CHECK-NEXT:      %[[IX:.*]] = arith.index_cast %[[ID]] : i32 to index
// CHECK-NEXT:      %[[LO:.*]] = arith.maxsi %[[IX]], %[[C0]] : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.minsi %[[LO]], %[[C4]] : index
// CHECK-NEXT:      %[[D1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %table[%[[ROW]], %[[D1]]] : tensor<5x3xf32>
// CHECK-NEXT:      linalg.yield %[[V]] : f32
// CHECK-NEXT:    } -> tensor<4x3xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<4x3xf32>
func.func @gather_embedding(%table: tensor<5x3xf32>, %ids: tensor<4xi32>) -> tensor<4x3xf32> {
  %0 = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// index_vector_dim last, start_index_map = [1, 0]: component 0 starts operand dim 1
// (clamped to 4 - 2), component 1 the collapsed dim 0 (clamped to 3 - 1); the offset
// dims 2 and 3 of the result add to operand dims 1 and 2.
// CHECK-LABEL: func.func @gather_index_vector_last
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3x2x2xi8>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%[[E]] : tensor<2x3x2x2xi8>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: i8):
// CHECK-NEXT:      %[[D0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[D1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[A:.*]] = tensor.extract %i[%[[D0]], %[[D1]], %[[C0]]] : tensor<2x3x2xi32>
// CHECK-NEXT:      %[[AX:.*]] = arith.index_cast %[[A]] : i32 to index
// CHECK-NEXT:      %[[ALO:.*]] = arith.maxsi %[[AX]], %[[C0]] : index
// CHECK-NEXT:      %[[S1:.*]] = arith.minsi %[[ALO]], %[[C2]] : index
// CHECK-NEXT:      %[[B:.*]] = tensor.extract %i[%[[D0]], %[[D1]], %[[C1]]] : tensor<2x3x2xi32>
// CHECK-NEXT:      %[[BX:.*]] = arith.index_cast %[[B]] : i32 to index
// CHECK-NEXT:      %[[BLO:.*]] = arith.maxsi %[[BX]], %[[C0]] : index
// CHECK-NEXT:      %[[S0:.*]] = arith.minsi %[[BLO]], %[[C2]] : index
// CHECK-NEXT:      %[[D2:.*]] = linalg.index 2 : index
// CHECK-NEXT:      %[[D3:.*]] = linalg.index 3 : index
// CHECK-NEXT:      %[[P1:.*]] = arith.addi %[[S1]], %[[D2]] : index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %x[%[[S0]], %[[P1]], %[[D3]]] : tensor<3x4x2xi8>
// CHECK-NEXT:      linalg.yield %[[V]] : i8
// CHECK-NEXT:    } -> tensor<2x3x2x2xi8>
func.func @gather_index_vector_last(%x: tensor<3x4x2xi8>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xi8> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = true, slice_sizes = array<i64: 1, 2, 2>}> : (tensor<3x4x2xi8>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xi8>
  return %0 : tensor<2x3x2x2xi8>
}

// index_vector_dim in the middle of i64 indices, every operand dim collapsed: the
// result's batch dims d0, d1 are the indices' dims 0 and 2, the vector dim is pinned.
// CHECK-LABEL: func.func @gather_index_vector_middle
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<3x2xi32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<3x2xi32>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: i32):
// CHECK-NEXT:      %[[D0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[D1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[A:.*]] = tensor.extract %i[%[[D0]], %[[C0]], %[[D1]]] : tensor<3x2x2xi64>
// CHECK-NEXT:      %[[AX:.*]] = arith.index_cast %[[A]] : i64 to index
// CHECK-NEXT:      %[[ALO:.*]] = arith.maxsi %[[AX]], %[[C0]] : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.minsi %[[ALO]], %[[C3]] : index
// CHECK-NEXT:      %[[B:.*]] = tensor.extract %i[%[[D0]], %[[C1]], %[[D1]]] : tensor<3x2x2xi64>
// CHECK-NEXT:      %[[BX:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK-NEXT:      %[[BLO:.*]] = arith.maxsi %[[BX]], %[[C0]] : index
// CHECK-NEXT:      %[[COL:.*]] = arith.minsi %[[BLO]], %[[C4]] : index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %x[%[[ROW]], %[[COL]]] : tensor<4x5xi32>
// CHECK-NEXT:      linalg.yield %[[V]] : i32
// CHECK-NEXT:    } -> tensor<3x2xi32>
func.func @gather_index_vector_middle(%x: tensor<4x5xi32>, %i: tensor<3x2x2xi64>) -> tensor<3x2xi32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x5xi32>, tensor<3x2x2xi64>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// A start on a dim the slice covers whole clamps to [0, 0] (read and clamped all the
// same, as upstream); the unit result dim's index is the constant 0.
// CHECK-LABEL: func.func @gather_full_dim
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1xi8>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%[[E]] : tensor<1xi8>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: i8):
// CHECK-NEXT:      %[[A:.*]] = tensor.extract %i[%[[C0]], %[[C0]]] : tensor<1x2xi32>
// CHECK-NEXT:      %[[AX:.*]] = arith.index_cast %[[A]] : i32 to index
// CHECK-NEXT:      %[[ALO:.*]] = arith.maxsi %[[AX]], %[[C0]] : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.minsi %[[ALO]], %[[C0]] : index
// CHECK-NEXT:      %[[B:.*]] = tensor.extract %i[%[[C0]], %[[C1]]] : tensor<1x2xi32>
// CHECK-NEXT:      %[[BX:.*]] = arith.index_cast %[[B]] : i32 to index
// CHECK-NEXT:      %[[BLO:.*]] = arith.maxsi %[[BX]], %[[C0]] : index
// CHECK-NEXT:      %[[COL:.*]] = arith.minsi %[[BLO]], %[[C1]] : index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %x[%[[ROW]], %[[COL]]] : tensor<1x2xi8>
// CHECK-NEXT:      linalg.yield %[[V]] : i8
// CHECK-NEXT:    } -> tensor<1xi8>
func.func @gather_full_dim(%x: tensor<1x2xi8>, %i: tensor<1x2xi32>) -> tensor<1xi8> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<1x2xi8>, tensor<1x2xi32>) -> tensor<1xi8>
  return %0 : tensor<1xi8>
}

// Batching dims: operand dim 0 is indices dim 0, i.e. the result's batch dim d0.
// CHECK-LABEL: func.func @gather_batching
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x4x3xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%[[E]] : tensor<2x4x3xf32>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32):
// CHECK-NEXT:      %[[D0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[D1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[A:.*]] = tensor.extract %i[%[[D0]], %[[D1]], %[[C0]]] : tensor<2x4x1xi32>
// CHECK-NEXT:      %[[AX:.*]] = arith.index_cast %[[A]] : i32 to index
// CHECK-NEXT:      %[[LO:.*]] = arith.maxsi %[[AX]], %[[C0]] : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.minsi %[[LO]], %[[C4]] : index
// CHECK-NEXT:      %[[D2:.*]] = linalg.index 2 : index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %x[%[[D0]], %[[ROW]], %[[D2]]] : tensor<2x5x3xf32>
// CHECK-NEXT:      linalg.yield %[[V]] : f32
// CHECK-NEXT:    } -> tensor<2x4x3xf32>
func.func @gather_batching(%x: tensor<2x5x3xf32>, %i: tensor<2x4x1xi32>) -> tensor<2x4x3xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<2x5x3xf32>, tensor<2x4x1xi32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// Out-of-range starts are clamped, whatever the constant indices say: 7 and -2 become
// clamp(_, 0, 4 - 1). An offset dim first in the result (i1 elements).
// CHECK-LABEL: func.func @gather_clamped_constant
// CHECK-NEXT:    %[[I:.*]] = arith.constant dense<[7, -2, 1]> : tensor<3xi64>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<2x3xi1>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: i1):
// CHECK-NEXT:      %[[D1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[A:.*]] = tensor.extract %[[I]][%[[D1]]] : tensor<3xi64>
// CHECK-NEXT:      %[[AX:.*]] = arith.index_cast %[[A]] : i64 to index
// CHECK-NEXT:      %[[LO:.*]] = arith.maxsi %[[AX]], %[[C0]] : index
// CHECK-NEXT:      %[[COL:.*]] = arith.minsi %[[LO]], %[[C3]] : index
// CHECK-NEXT:      %[[D0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %x[%[[D0]], %[[COL]]] : tensor<6x4xi1>
// CHECK-NEXT:      linalg.yield %[[V]] : i1
// CHECK-NEXT:    } -> tensor<2x3xi1>
func.func @gather_clamped_constant(%x: tensor<6x4xi1>) -> tensor<2x3xi1> {
  %i = stablehlo.constant dense<[7, -2, 1]> : tensor<3xi64>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 2, 1>}> : (tensor<6x4xi1>, tensor<3xi64>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// ---------------------------------------------------------------------------------------
// Left as they are.

// Ops with no lowering here: a convolution on i1 (no ring to accumulate in),
// custom_call, integer power. (A gather with unsigned start indices lowers with
// arith.index_castui, as upstream.)
// CHECK-LABEL: func.func @not_lowered
// CHECK:         %[[G:.*]] = linalg.generic
// CHECK:           arith.index_castui
// CHECK:         } -> tensor<2x3xf32>
// CHECK-NEXT:    %[[C:.*]] = stablehlo.convolution(%img, %k)
// CHECK-NEXT:    %[[CC:.*]] = stablehlo.custom_call @foo(%x)
// CHECK-NEXT:    %[[DIV:.*]] = stablehlo.power %n, %n : tensor<4xi32>
// CHECK-NEXT:    func.return %[[G]], %[[C]], %[[CC]], %[[DIV]]
func.func @not_lowered(%x: tensor<2x3xf32>, %i: tensor<2x1xui32>, %img: tensor<1x4x4x1xi1>, %k: tensor<3x3x1x2xi1>, %n: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<1x4x4x2xi1>, tensor<2x3xf32>, tensor<4xi32>) {
  %1 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xui32>) -> tensor<2x3xf32>
  %2 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi1>, tensor<3x3x1x2xi1>) -> tensor<1x4x4x2xi1>
  %3 = stablehlo.custom_call @foo(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = stablehlo.power %n, %n : tensor<4xi32>
  return %1, %2, %3, %4 : tensor<2x3xf32>, tensor<1x4x4x2xi1>, tensor<2x3xf32>, tensor<4xi32>
}

// Quantized operands are left for other passes.
// CHECK-LABEL: func.func @not_lowered_types
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.add %q, %q : tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK-NEXT:    func.return %[[Q]]
func.func @not_lowered_types(%q: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.add %q, %q : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// A reduce whose body has an op with no scalar lowering stays, body included.
// CHECK-LABEL: func.func @reduce_unsupported_body
// CHECK-NEXT:    %{{.*}} = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:     reducer(%x: tensor<i32>, %y: tensor<i32>)  {
// CHECK-NEXT:      %{{.*}} = stablehlo.power %x, %y : tensor<i32>
func.func @reduce_unsupported_body(%a: tensor<4xi32>, %z: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
   reducer(%x: tensor<i32>, %y: tensor<i32>)  {
    %d = stablehlo.power %x, %y : tensor<i32>
    stablehlo.return %d : tensor<i32>
  }
  return %0 : tensor<i32>
}

// A reduce that promotes i8 inputs to an i32 reducer implicitly: the init value is
// converted once before it fills the result, each element inside the reduction body.
// CHECK-LABEL: func.func @reduce_implicit_promotion
// CHECK-NEXT:    %[[Z:.*]] = tensor.extract %z[] : tensor<i8>
// CHECK-NEXT:    %[[ZW:.*]] = arith.extsi %[[Z]] : i8 to i32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT:    %[[INIT:.*]] = linalg.fill ins(%[[ZW]] : i32) outs(%[[E]] : tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x6xi8>) outs(%[[INIT]] : tensor<4xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i8, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[XW:.*]] = arith.extsi %[[X]] : i8 to i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[XW]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<4xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<4xi32>
func.func @reduce_implicit_promotion(%a: tensor<4x6xi8>, %z: tensor<i8>) -> tensor<4xi32> {
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [1] : (tensor<4x6xi8>, tensor<i8>) -> tensor<4xi32>
   reducer(%x: tensor<i32>, %y: tensor<i32>)  {
    %s = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }
  return %0 : tensor<4xi32>
}

// reduce_window with base dilations: the holes hold the init value, as upstream's
// lowering of stablehlo.pad (fill + strided insert_slice); select_and_scatter on a
// dynamic shape is not lowered (static ones are: select_and_scatter.py).
// CHECK-LABEL: func.func @windows_not_lowered
// CHECK:         %[[V:.*]] = tensor.extract %z[] : tensor<i32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<5xi32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[V]] : i32) outs(%[[E]] : tensor<5xi32>) -> tensor<5xi32>
// CHECK-NEXT:    %{{.*}} = tensor.insert_slice %a into %[[F]][0] [3] [2] : tensor<3xi32> into tensor<5xi32>
// CHECK:         "stablehlo.select_and_scatter"(%f, %f, %fz)
// CHECK-NOT:     linalg
// CHECK:         func.return
func.func @windows_not_lowered(%a: tensor<3xi32>, %z: tensor<i32>, %f: tensor<2x?xf32>, %fz: tensor<f32>) -> (tensor<4xi32>, tensor<2x?xf32>) {
  %0 = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %m = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) {window_dimensions = array<i64: 2>, base_dilations = array<i64: 2>} : (tensor<3xi32>, tensor<i32>) -> tensor<4xi32>
  %1 = "stablehlo.select_and_scatter"(%f, %f, %fz) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = stablehlo.compare  GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>} : (tensor<2x?xf32>, tensor<2x?xf32>, tensor<f32>) -> tensor<2x?xf32>
  return %0, %1 : tensor<4xi32>, tensor<2x?xf32>
}
