func.func private @d(i32) -> i32
func.func @f(%a: i32, %b: index) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c0b = arith.constant 0 : i32
  %c5 = arith.constant 5 : i64
  %c1 = arith.constant 1 : index
  %m = arith.constant -1 : i32
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.0 : f32
  %y = arith.constant 2.0 : f64
  %d = arith.constant dense<1.0> : tensor<4xf32>
  %e = arith.constant dense<[1, 2]> : tensor<2xi32>
  %z = arith.constant 0x7FC00000 : f32
  %i = arith.constant 0x7F800000 : f32
  %mx = arith.constant 3.40282347E+38 : f32
  %s = arith.addi %a, %c0 : i32
  %r = func.call @d(%s) : (i32) -> i32
  %q:2 = "test.two"() : () -> (i32, i32)
  %u = arith.addi %q#1, %q#0 : i32
  %c0_i32 = arith.constant 7 : i32
  %c0_i32_0 = arith.constant 8 : i32
  %cst = arith.constant 9.0 : f16
  func.return %r, %u : i32, i32
}
