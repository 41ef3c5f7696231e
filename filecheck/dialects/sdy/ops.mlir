// RUN: xquant-opt %s -split-input-file | filecheck %s
// RUN: xquant-opt %s -split-input-file | xquant-opt -split-input-file | filecheck %s
// RUN: xquant-opt %s -split-input-file --mlir-print-op-generic | xquant-opt -split-input-file | filecheck %s
// Shardy's syntax; the CHECK lines are those of Shardy's own tests
// (shardy/dialect/sdy/ir/test/mesh_parse_print.mlir, tensor_sharding_parse_print.mlir).

// CHECK: sdy.mesh @empty_mesh = <[]>
sdy.mesh @empty_mesh = <[]>
// CHECK: sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
// CHECK: sdy.mesh @single_axis_of_size_1_with_device_id = <["a"=1]>
sdy.mesh @single_axis_of_size_1_with_device_id = <["a"=1], device_ids=[0]>
// CHECK: sdy.mesh @two_axes_explicit_device_ids = <["a"=2, "b"=1], device_ids=[1, 0]>
sdy.mesh @two_axes_explicit_device_ids = <["a"=2, "b"=1], device_ids=[1, 0]>
// CHECK: sdy.mesh @iota_explicit_device_ids = <["a"=2, "b"=2]>
sdy.mesh @iota_explicit_device_ids = <["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>

// -----

// CHECK: sdy.mesh @foo = <["a"=2, "b"=4]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}]}}
sdy.mesh @foo = <["a"=2, "b"=4]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}]}}
sdy.mesh @bar = <["a"=4, "b"=2]>

// CHECK-LABEL: func @arguments
// CHECK-SAME{LITERAL}: (%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@foo, [{"a"}p0, {"b"}]>}, %arg1: tensor<8x8xf32>)
// CHECK-SAME{LITERAL}: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@foo, [{}, {"b", ?}p1], replicated={"a"}>})
func.func @arguments(%arg0 : tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@foo, [{"a"}p0, {"b"}]>}, %arg1 : tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@foo, [{}, {"b", ?}p1], replicated={"a"}>}) {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @constraints
func.func @constraints(%arg0 : tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.sharding_constraint %arg0 <@foo, [{"a", ?}, {?}]> : tensor<8x8xf32>
  %0 = sdy.sharding_constraint %arg0 <@foo, [{"a", ?}, {?}]> : tensor<8x8xf32>
  // CHECK-NEXT{LITERAL}: %1 = sdy.sharding_constraint %0 <@bar, [{"a":(1)2, "b", "a":(2)2}, {}]> : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@bar, [{"a":(1)2, "b", "a":(2)2}, {}]> : tensor<8x8xf32>
  // CHECK-NEXT{LITERAL}: %2 = sdy.sharding_constraint %1 <mesh<["x"=2, "y"=2]>, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <mesh<["x"=2, "y"=2]>, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  // CHECK-NEXT{LITERAL}: %3 = sdy.reshard %2 <@foo, [{}, {}], replicated={"a", "b"}> : tensor<8x8xf32>
  %3 = sdy.reshard %2 <@foo, [{}, {}], replicated={"a", "b"}> : tensor<8x8xf32>
  // A reshard may only introduce `sum` unreduced axes (Shardy's
  // verifyUnreducedAxesTransition): `max` ones come from an unsharded value.
  // CHECK-NEXT{LITERAL}: %4 = sdy.reshard %arg0 <@foo, [{"a"}, {}], unreduced=max{"b"}> : tensor<8x8xf32>
  %4 = sdy.reshard %arg0 <@foo, [{"a"}, {}], unreduced=max{"b"}> : tensor<8x8xf32>
  // CHECK-NEXT{LITERAL}: %5 = sdy.reshard %3 <@foo, [{"a"}, {}], unreduced={"b"}> : tensor<8x8xf32>
  %5 = sdy.reshard %3 <@foo, [{"a"}, {}], unreduced{"b"}> : tensor<8x8xf32>
  return %5 : tensor<8x8xf32>
}

// CHECK-LABEL: func @per_value
func.func @per_value(%arg0 : tensor<8x8xf32>, %arg1 : tensor<f32>) -> tensor<8x8xf32> {
  // CHECK-NEXT{LITERAL}: stablehlo.add %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@foo, [], replicated={"b"}>]>} : tensor<f32>
  %0 = stablehlo.add %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@foo, [], replicated={"b"}>]>} : tensor<f32>
  // CHECK-NEXT{LITERAL}: #sdy.sharding_per_value<[<mesh<["a"=2, "b"=4]>, [{"a"}, {}]>, <@foo, [{"a"}, {}]>]>
  %1:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2, "b"=4]>, [{"a"}, {}]>, <@foo, [{"a"}, {}]>]>} %arg0, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>
  return %1#0 : tensor<8x8xf32>
}

// -----

// As JAX's shard_map prints it.
sdy.mesh @mesh = <["x"=2]>
// CHECK-LABEL: func @manual
func.func @manual(%arg0: tensor<4xf32>) -> tensor<2xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%arg1: tensor<2xf32>) {
  // CHECK-NEXT: %1 = stablehlo.multiply %arg1, %arg1 : tensor<2xf32>
  // CHECK-NEXT: sdy.return %1 : tensor<2xf32>
  // CHECK-NEXT: } : (tensor<4xf32>) -> tensor<2xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%arg1: tensor<2xf32>) {
    %1 = stablehlo.multiply %arg1, %arg1 : tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
