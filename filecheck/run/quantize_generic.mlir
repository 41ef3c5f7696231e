// RUN: xquant-run %s --function main --arg 'dense<[[0.5, -1.0, 3.9, 100.0], [-7.25, 0.0, 2.5, -300.0]]> : tensor<2x4xf32>' --arg 'dense<[[0.5, 2.0], [0.25, 1.0]]> : tensor<2x2xf32>' | filecheck %s

// Block-scaled quantize (1x2 blocks, zero point 1): round half to even, clamp to i8.
// CHECK: dense<{{\[}}[2, -1, 3, 51], [-28, 1, 4, -128]]> : tensor<2x4xi8>

#map = affine_map<(d0, d1) -> (d0, d1)>
#smap = affine_map<(d0, d1) -> (d0, d1 floordiv 2)>
func.func @main(%x: tensor<2x4xf32>, %s: tensor<2x2xf32>) -> tensor<2x4xi8> {
  %e = tensor.empty() : tensor<2x4xi8>
  %zp = arith.constant 1.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %r = linalg.generic {indexing_maps = [#map, #smap, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<2x4xf32>, tensor<2x2xf32>) outs(%e : tensor<2x4xi8>) {
  ^bb0(%a: f32, %b: f32, %o: i8):
    %0 = arith.divf %a, %b : f32
    %1 = arith.addf %0, %zp : f32
    %2 = arith.maximumf %1, %lo : f32
    %3 = arith.minimumf %2, %hi : f32
    %4 = math.roundeven %3 : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<2x4xi8>
  func.return %r : tensor<2x4xi8>
}
