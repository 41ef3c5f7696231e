// RUN: xquant-run %s --function main --arg 'dense<[[1.0, 2.0, 3.0], [-4.0, 0.5, 8.0]]> : tensor<2x3xf32>' | filecheck %s

// A sum and a max in one multi-output generic; each result goes to its own output.
// CHECK:      dense<[6.000000e+00, 4.500000e+00]> : tensor<2xf32>
// CHECK-NEXT: dense<[3.000000e+00, 8.000000e+00]> : tensor<2xf32>

func.func @main(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %m = arith.constant dense<-3.0e38> : tensor<2xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x3xf32>) outs(%z, %m : tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%a: f32, %s: f32, %mx: f32):
    %0 = arith.addf %a, %s : f32
    %1 = arith.maximumf %mx, %a : f32
    linalg.yield %0, %1 : f32, f32
  } -> tensor<2xf32>, tensor<2xf32>
  func.return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}
