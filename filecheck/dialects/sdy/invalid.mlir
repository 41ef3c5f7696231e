// RUN: xquant-opt %s -split-input-file -verify-diagnostics
// Shardy's verifier messages (shardy/dialect/sdy/ir/verifiers.cc).

// expected-error@+1 {{axis size must be at least 1, got: 0}}
sdy.mesh @mesh = <["a"=0]>

// -----

// expected-error@+1 {{duplicate axis name: "a"}}
sdy.mesh @mesh = <["a"=2, "a"=4]>

// -----

// expected-error@+1 {{axes is empty and device_ids has more than one element}}
sdy.mesh @mesh = <[], device_ids=[0, 1]>

// -----

// expected-error@+1 {{total product of axis sizes must match total number of device ids, got: 2 != 3}}
sdy.mesh @mesh = <["a"=2], device_ids=[0, 2, 1]>

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @rank(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{sharding doesn't match tensor rank: 2 != 1}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unknown_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{unknown mesh: @other}}
  %0 = sdy.sharding_constraint %arg0 <@other, [{"a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @unknown_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{unknown axis name: "c"}}
  %0 = sdy.reshard %arg0 <@mesh, [{"c"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @duplicate_axis(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{duplicate axis ref: "a"}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @priority(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{dim 0 is empty and closed but has a priority}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}p0]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @bad_priority(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{expecting priority in format 'p<number>', got: q0}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}q0]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @manual_counts(%arg0: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op operand shardings don't match number of values: 2 shardings vs 1 values}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%arg1: tensor<2xf32>) {
    sdy.return %arg1 : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Collectives, named computations and barriers (Shardy's
// collective_verification.mlir, named_computation_verification.mlir,
// propagation_barrier_verification.mlir, data_flow_edge_verification.mlir).

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @no_operand_sharding(%arg0 : tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error@+1 {{collective on operand without sharding}}
  %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @gather_not_suffix(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  // expected-error@+1 {{can't apply gathering axis "y" to operand sharding on dimension 1}}
  %0 = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @slice_mismatch(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<16x8xf32> {
  // expected-error@+1 {{result sharding doesn't match expected sharding ["x"] on dimension 1}}
  %0 = sdy.all_slice [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @axes_rank(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  // expected-error@+1 {{result sharding has rank 2 but collective axes has rank 1}}
  %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @all_to_all_overlap(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  // expected-error@+1 {{overlapping source/target dimensions in all-to-all params: 1}}
  %0 = sdy.all_to_all [{"y"}: 0->1, {"x"}: 1->0] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @permute_size(%arg0 : tensor<16x8xf32> {sdy.sharding=#sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  // expected-error@+1 {{sharded size of result doesn't match operand on dimension 0: 4 != 2}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @reduce_overlap(%arg0 : tensor<16x2xf32> {sdy.sharding=#sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<16x2xf32> {
  // expected-error@+1 {{reduction axis "y" overlaps with operand dimension sharding or replicated axes}}
  %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @reduce_not_equivalent(%arg0 : tensor<16x2xf32> {sdy.sharding=#sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<16x2xf32> {
  // expected-error@+1 {{operand and result shardings are not equivalent}}
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}

// -----

func.func @named_argument_type(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  // expected-error@+1 {{expected the type of the 0'th block argument to match the type of the corresponding operand: 'tensor<4x2xi32>' vs 'tensor<8x2xi32>'}}
  %0 = sdy.named_computation<"bar">(%arg0) (%arg1: tensor<4x2xi32>) {
    %1 = stablehlo.custom_call @foo(%arg1) : (tensor<4x2xi32>) -> tensor<8x2xi32>
    sdy.return %1 : tensor<8x2xi32>
  } : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @named_in_shardings(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  // expected-error@+1 {{in_shardings shardings don't match number of values: 2 shardings vs 1 values}}
  %0 = sdy.named_computation<"bar">(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"a"}, {}]>] (%arg1: tensor<8x2xi32>) {
    sdy.return %arg1 : tensor<8x2xi32>
  } : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}

// -----

func.func @barrier_both(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{cannot specify `BOTH` as the direction. Not blocking propagation direction makes the op redundant.}}
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @edge_users(%arg0: tensor<32x96xf32>) -> (tensor<32x96xf32>, tensor<32x96xf32>) {
  // expected-error@+1 {{expected input of sdy.data_flow_edge to have a single user}}
  %0 = sdy.data_flow_edge %arg0 : tensor<32x96xf32>
  return %arg0, %0 : tensor<32x96xf32>, tensor<32x96xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_local_shape(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op operand shape, corresponding sharding, and region operand shape at index 0 must match. Expected local shape 'tensor<8x32xf32>', actual local shape 'tensor<16x32xf32>'}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<16x32xf32>) {
    sdy.return %arg1 : tensor<16x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_unknown_axis(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op unknown manual axis: "c"}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"c"} (%arg1: tensor<16x32xf32>) {
    sdy.return %arg1 : tensor<16x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

// Discardable attributes are verified against their op (Shardy's
// verifyRegionArgAttribute / verifyOperationAttribute).
sdy.mesh @mesh = <["a"=2]>
// expected-error@+1 {{'func.func' op arg 0 - sharding doesn't match tensor rank: 2 != 1}}
func.func @arg_rank(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=8]>
func.func @sub_axes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'stablehlo.negate' op result - overlapping sub-axes: "a":(1)4, "a":(2)4}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a":(1)4, "a":(2)4}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @rule_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'stablehlo.add' op number of operands and mappings must match: 2 != 1}}
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @rule_reduction(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'stablehlo.negate' op reduction factor cannot be in result mappings}}
  %0 = stablehlo.negate %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} reduction={j}>} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @reshard_max(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.reshard' op cannot introduce 'max' unreduced axes. Expected 'sum'.}}
  %0 = sdy.reshard %arg0 <@mesh, [{}], unreduced=max{"b"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_adds_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.all_reduce' op cannot add new unreduced axis 'b'.}}
  %0 = sdy.all_reduce {"a"} %arg0 out_sharding=<@mesh, [{}], unreduced={"b"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
