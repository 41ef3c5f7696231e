// RUN: xquant-opt %s -split-input-file -p sdy-drop-shardings -verify-diagnostics
// A sharding rule must fit its op.
func.func @rule(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'stablehlo.negate' op operand - mapping rank must match: 1 != 2}}
  %0 = stablehlo.negate %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i, j]) {i=4, j=8}>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
