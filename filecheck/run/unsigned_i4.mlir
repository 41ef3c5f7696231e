// RUN: xquant-run %s --split-input-file --arg 'dense<[-1, 7, -8, 3]> : tensor<4xi4>' | filecheck %s

// i4 values are held sign-extended; unsigned ops read the same 4 bits as 0..15.
// CHECK: dense<[1.500000e+01, 7.000000e+00, 8.000000e+00, 3.000000e+00]> : tensor<4xf32>
func.func @main(%x: tensor<4xi4>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xi4>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: i4, %o: f32):
    %f = arith.uitofp %a : i4 to f32
    linalg.yield %f : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: // -----
// The unsigned max of {15, 7, 8, 3} is 15, held (and printed) as the i4 value -1.
// CHECK: -1 : i4
func.func @main(%x: tensor<4xi4>) -> i4 {
  %init = arith.constant dense<0> : tensor<i4>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<4xi4>) outs(%init : tensor<i4>) {
  ^bb0(%a: i4, %o: i4):
    %m = arith.maxui %a, %o : i4
    linalg.yield %m : i4
  } -> tensor<i4>
  %v = tensor.extract %r[] : tensor<i4>
  func.return %v : i4
}
