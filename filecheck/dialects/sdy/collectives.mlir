// RUN: xquant-opt %s -split-input-file | filecheck %s
// RUN: xquant-opt %s -split-input-file | xquant-opt -split-input-file | filecheck %s
// RUN: xquant-opt %s -split-input-file --mlir-print-op-generic | xquant-opt -split-input-file | filecheck %s
// Shardy's collectives, named computations, barriers, edges and sharding rules;
// the CHECK lines are those of Shardy's own tests (shardy/dialect/sdy/ir/test/
// collective_parse_print.mlir, named_computation_parse_print.mlir,
// propagation_barrier_parse_print.mlir, sharding_rule_parse_print.mlir).

sdy.mesh @mesh1 = <["x"=2, "y"=2]>
sdy.mesh @mesh2 = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @mesh3 = <["x"=4, "y"=2]>

// CHECK-LABEL: func @all_gather
func.func @all_gather(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh1, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh1, [{"y"}, {}]> : tensor<16x8xf32>
  %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh1, [{"y"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func @all_gather_subaxis
func.func @all_gather_subaxis(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh3, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.all_gather [{}, {"x":(2)2}] %arg0 out_sharding=<@mesh3, [{"y"}, {"x":(1)2}]> : tensor<16x8xf32>
  %0 = sdy.all_gather [{}, {"x":(2)2}] %arg0 out_sharding=<@mesh3, [{"y"}, {"x":(1)2}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func @all_slice
func.func @all_slice(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh2, [{"y"}, {}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.all_slice [{"x"}, {"z"}] %arg0 out_sharding=<@mesh2, [{"y", "x"}, {"z"}]> : tensor<16x8xf32>
  %0 = sdy.all_slice [{"x"}, {"z"}] %arg0 out_sharding=<@mesh2, [{"y", "x"}, {"z"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func @all_to_all
func.func @all_to_all(%arg0 : tensor<16x8x4x4xf32> {sdy.sharding=#sdy.sharding<@mesh2, [{"x"}, {"y"}, {"z"}, {}]>}) -> tensor<16x8x4x4xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.all_to_all [{"x"}: 0->1, {"z"}: 2->3] %arg0 out_sharding=<@mesh2, [{}, {"y", "x"}, {}, {"z"}]> : tensor<16x8x4x4xf32>
  %0 = sdy.all_to_all [{"x"}: 0->1, {"z"}: 2->3] %arg0 out_sharding=<@mesh2, [{}, {"y", "x"}, {}, {"z"}]> : tensor<16x8x4x4xf32>
  return %0 : tensor<16x8x4x4xf32>
}

// CHECK-LABEL: func @collective_permute
func.func @collective_permute(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh2, [{"x", "y", "z"}, {}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh2, [{"z", "x", "y", ?}, {}]> : tensor<16x8xf32>
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh2, [{"z", "x", "y", ?}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func @all_reduce
func.func @all_reduce(%arg0 : tensor<16x2xf32> {sdy.sharding=#sdy.sharding<@mesh1, [{}, {"x"}]>}) -> tensor<16x2xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh1, [{}, {"x"}]> : tensor<16x2xf32>
  %0 = sdy.all_reduce sum {"y"} %arg0 out_sharding=<@mesh1, [{}, {"x"}]> : tensor<16x2xf32>
  // CHECK-NEXT{LITERAL}: %1 = sdy.all_reduce max {"y"} %0 out_sharding=<@mesh1, [{}, {"x"}]> : tensor<16x2xf32>
  %1 = sdy.all_reduce max {"y"} %0 out_sharding=<@mesh1, [{}, {"x"}]> : tensor<16x2xf32>
  return %1 : tensor<16x2xf32>
}

// CHECK-LABEL: func @reduce_scatter
func.func @reduce_scatter(%arg0 : tensor<16xf32> {sdy.sharding=#sdy.sharding<@mesh1, [{"x"}]>}) -> tensor<16xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.reduce_scatter min [{"y"}] %arg0 out_sharding=<@mesh1, [{"x", "y"}]> : tensor<16xf32>
  %0 = sdy.reduce_scatter min [{"y"}] %arg0 out_sharding=<@mesh1, [{"x", "y"}]> : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// CHECK-LABEL: func @unreduced
func.func @unreduced(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh1, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.sharded_to_unreduced [{}, {"x"}] %arg0 out_sharding=<@mesh1, [{"y"}, {}], unreduced={"x"}> : tensor<16x8xf32>
  %0 = sdy.sharded_to_unreduced [{}, {"x"}] %arg0 out_sharding=<@mesh1, [{"y"}, {}], unreduced={"x"}> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @named
func.func @named(%arg0: tensor<8x2xi32>, %arg1: !stablehlo.token) -> (tensor<8x2xi32>, !stablehlo.token) {
  // CHECK-NEXT{LITERAL}: %0:2 = sdy.named_computation<"foo">(%arg0, %arg1) in_shardings=[<@mesh, [{"b"}, {}]>, <@mesh, []>] out_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, []>] (%arg2: tensor<8x2xi32>, %arg3: !stablehlo.token) {
  // CHECK-NEXT:   sdy.return %arg2, %arg3 : tensor<8x2xi32>, !stablehlo.token
  // CHECK-NEXT: } : (tensor<8x2xi32>, !stablehlo.token) -> (tensor<8x2xi32>, !stablehlo.token)
  %0:2 = sdy.named_computation<"foo">(%arg0, %arg1) in_shardings=[<@mesh, [{"b"}, {}]>, <@mesh, []>] out_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, []>] (%arg2: tensor<8x2xi32>, %arg3: !stablehlo.token) {
    sdy.return %arg2, %arg3 : tensor<8x2xi32>, !stablehlo.token
  } : (tensor<8x2xi32>, !stablehlo.token) -> (tensor<8x2xi32>, !stablehlo.token)
  // CHECK-NEXT: %1 = sdy.named_computation<"bar">(%0#0) (%arg2: tensor<8x2xi32>) {
  %1 = sdy.named_computation<"bar">(%0#0) (%arg2: tensor<8x2xi32>) {
    sdy.return %arg2 : tensor<8x2xi32>
  } : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %1, %0#1 : tensor<8x2xi32>, !stablehlo.token
}

// CHECK-LABEL: func @barrier_edge_group
func.func @barrier_edge_group(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8xf32>
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8xf32>
  // CHECK-NEXT{LITERAL}: %1 = sdy.propagation_barrier %0 allowed_direction=NONE {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=NONE {sdy.sharding=#sdy.sharding_per_value<[<@mesh, [{"a",?}]>]>} : tensor<8xf32>
  // CHECK-NEXT: %2 = stablehlo.negate %1 : tensor<8xf32>
  %2 = stablehlo.negate %1 : tensor<8xf32>
  // CHECK-NEXT{LITERAL}: %3 = sdy.data_flow_edge %2 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  %3 = sdy.data_flow_edge %2 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  // CHECK-NEXT: sdy.sharding_group %3 group_id=21 : tensor<8xf32>
  sdy.sharding_group %3 group_id=21 : tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func @rules
func.func @rules(%arg0: tensor<f32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x3x5x7xf32>) -> tensor<8xf32> {
  // CHECK{LITERAL}: {sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>}
  %0 = stablehlo.multiply %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>} : tensor<f32>
  // CHECK{LITERAL}: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=2, j=4}>}
  %1 = stablehlo.reshape %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=2, j=4}>} : (tensor<2x4xf32>) -> tensor<8xf32>
  // CHECK{LITERAL}: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={j} need_replication={i, l} permutation={k} blocked_propagation={l}, custom>}
  %2 = stablehlo.custom_call @foo(%arg2) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={j} need_replication={i, l} permutation={k} blocked_propagation={l}, custom>} : (tensor<2x3x5x7xf32>) -> tensor<2x5x7xf32>
  return %1 : tensor<8xf32>
}
