#a = affine_map<(d0, d1, d2) -> (d0 floordiv 2, d1 mod 3 - d2, -d0 + d1 * -3, (d0 + d1) ceildiv 4)>
module attributes {test.maps = [#a, affine_map<(d0)[s0, s1] -> (d0 * 5 - s1 * 2 + s0 + 7)>, affine_map<() -> (0)>, #a]} {
  func.func @multi(%lb: index, %ub: index, %x: f32) -> (f32, f32) {
    %st = arith.constant 1 : index
    %r:2 = scf.for %i = %lb to %ub step %st iter_args(%p = %x, %q = %x) -> (f32, f32) {
      %s = arith.addf %p, %q : f32
      scf.yield %s, %p : f32, f32
    }
    %t = arith.mulf %r#1, %r#0 : f32
    return %t, %r#0 : f32, f32
  }
  func.func @named(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
    %z = linalg.add ins(%m, %c : tensor<4x2xf32>, tensor<4x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
    %e = math.exp %z : tensor<4x2xf32>
    return %z : tensor<4x2xf32>
  }
  module @nested attributes {test.flag} {
    module {
      func.func private @decl(tensor<*xf32>, i1) -> (i8, ui8)
    }
  }
}
