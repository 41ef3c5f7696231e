// RUN: xquant-opt %s -split-input-file -p sdy-drop-shardings | filecheck %s
// Shardy's annotations leave a program for one device.

// CHECK-NOT: sdy.mesh
// CHECK-LABEL: func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32> {test.kept}) -> (tensor<4x16xf32> {jax.result_info = "result"}) {
// CHECK-NEXT:    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    %1 = stablehlo.tanh %0 : tensor<4x16xf32>
// CHECK-NEXT:    %2 = stablehlo.add %1, %1 : tensor<4x16xf32>
// CHECK-NEXT:    return %2 : tensor<4x16xf32>
sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>, test.kept}) -> (tensor<4x16xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x16xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {}]> : tensor<4x16xf32>
  %3 = sdy.reshard %2 <@mesh, [{}, {"y"}]> : tensor<4x16xf32>
  %4 = stablehlo.add %3, %3 : tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// -----

// A manual computation over one device is its body.
// CHECK-NOT: sdy.
// CHECK-LABEL: func.func @manual(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
// CHECK-NEXT:    %1 = stablehlo.add %0, %arg0 : tensor<4xf32>
// CHECK-NEXT:    return %1 : tensor<4xf32>
sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func @manual(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = stablehlo.multiply %arg1, %arg1 : tensor<4xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"x"}]> : tensor<4xf32>
    sdy.return %2 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  %3 = stablehlo.add %0, %arg0 : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// Named computations are inlined where they stand; barriers, edges, groups,
// sharding rules and collectives over an axis of size 1 disappear.
// CHECK-NOT: sdy.
// CHECK-LABEL: func.func @named(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:    %0 = stablehlo.abs %arg0 : tensor<4x2xf32>
// CHECK-NEXT:    %1 = stablehlo.multiply %arg0, %0 : tensor<4x2xf32>
// CHECK-NEXT:    %2 = stablehlo.negate %1 : tensor<4x2xf32>
// CHECK-NEXT:    return %2 : tensor<4x2xf32>
sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func @named(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x2xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<4x2xf32>
  %1 = stablehlo.abs %arg0 : tensor<4x2xf32>
  %2 = sdy.all_reduce {"x"} %1 out_sharding=<@mesh, [{}, {}]> : tensor<4x2xf32>
  %3 = sdy.named_computation<"mul">(%0, %2) out_shardings=[<@mesh, [{}, {}]>] (%arg1: tensor<4x2xf32>, %arg2: tensor<4x2xf32>) {
    %4 = stablehlo.multiply %arg1, %arg2 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j],[i, j])->([i, j]) {i=4, j=2}>} : tensor<4x2xf32>
    sdy.return %4 : tensor<4x2xf32>
  } : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %5 = sdy.propagation_barrier %3 allowed_direction=NONE : tensor<4x2xf32>
  %6 = stablehlo.negate %5 : tensor<4x2xf32>
  %7 = sdy.data_flow_edge %6 : tensor<4x2xf32>
  sdy.sharding_group %7 group_id=3 : tensor<4x2xf32>
  return %7 : tensor<4x2xf32>
}
