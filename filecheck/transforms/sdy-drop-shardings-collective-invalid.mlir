// RUN: xquant-opt %s -split-input-file -p sdy-drop-shardings -verify-diagnostics
// A collective over a mesh axis of more than one device is communication.

sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func @main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'sdy.all_reduce' op communicates over mesh axis "y" (2 devices), which cannot run on one device}}
  %0 = sdy.all_reduce {"x", "y"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @sub_axis(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x8xf32> {
  // expected-error@+1 {{'sdy.all_gather' op communicates over mesh axis "x":(2)2 (2 devices), which cannot run on one device}}
  %0 = sdy.all_gather [{"x":(2)2}, {}] %arg0 out_sharding=<@mesh, [{"x":(1)2}, {}]> : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A sharding rule must fit its op.
func.func @rule(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'stablehlo.negate' op operand - mapping rank must match: 1 != 2}}
  %0 = stablehlo.negate %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i, j]) {i=4, j=8}>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
