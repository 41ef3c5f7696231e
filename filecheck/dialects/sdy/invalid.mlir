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
  // expected-error@+1 {{unknown mesh: other}}
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
  // expected-error@+1 {{in_shardings don't match number of values: 2 shardings vs 1 values}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%arg1: tensor<2xf32>) {
    sdy.return %arg1 : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
