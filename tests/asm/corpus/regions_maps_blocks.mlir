#id = affine_map<(d0, d1) -> (d0, d1)>
module @m attributes {foo.x = 1 : i64, a.b = [1, 2, 3], c.f = [1.0, 2.5 : f32], d.n = 0x7FC00000 : f64} {
  func.func private @d(i32) -> i32
  func.func @f(%a: tensor<2x3xf32>, %n: index, %b: i32) -> tensor<2x3xf32> {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %r = scf.for %i = %c0 to %n step %c4 iter_args(%acc = %b) -> (i32) {
      %c0_1 = arith.constant 0 : i32
      %s = func.call @d(%acc) : (i32) -> i32
      %t = builtin.unrealized_conversion_cast %s : i32 to i32
      scf.yield %t : i32
    }
    %e = tensor.empty() : tensor<2x3xf32>
    %g = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
    ^bb0(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      linalg.yield %z : f32
    } -> tensor<2x3xf32>
    %ap = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0 - 1)>(%c0)[%n]
    %dim = tensor.dim %a, %c0 : tensor<2x3xf32>
    %ex = tensor.extract %a[%c0, %c0] : tensor<2x3xf32>
    %cond = arith.cmpi eq, %b, %b : i32
    %v = scf.if %cond -> (i32) {
      %k = arith.constant 3 : i32
      scf.yield %k : i32
    } else {
      %k = arith.constant 3 : i32
      scf.yield %k : i32
    }
    %t3 = tensor.empty() : tensor<3x3xf32>
    %co = tensor.collapse_shape %a [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
    func.return %g : tensor<2x3xf32>
  }
  module @inner {
    func.func @h() {
      return
    }
  }
  %top = "test.op"() : () -> i32
  func.func @k(%q: i32) -> i32 {
    %u = arith.addi %q, %q : i32
    cf.br ^bb5(%u : i32)
  ^bb5(%w: i32):
    cf.br ^bb6
  ^bb6:
    return %w : i32
  }
}
