// RUN: xquant-opt %s -p sdy-drop-shardings -verify-diagnostics
// Per-device code over two devices cannot run on one.

sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op per-device code over manual axes {"x"} (2 devices) cannot run on one device}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<2x8xf32>) {
    sdy.return %arg1 : tensor<2x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
