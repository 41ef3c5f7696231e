// RUN: xquant-opt %s --lower-mx-tensor -verify-diagnostics
// RUN: not xquant-opt %s -p lower-mx-tensor 2>&1 | filecheck %s --check-prefix=LOC

// An MX value carried through scf.for cannot be split into its parts here.
// LOC: lower-mx-tensor-invalid.mlir:11:8: error: 'scf.for' op cannot be lowered by lower-mx-tensor
func.func @f(%x: tensor<64xf32>, %n: index) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %q = mx_tensor.quantize %x : tensor<64xf32> -> !mx_tensor.tensor<<2xf8E8M0FNU>, <64xf4E2M1FN>>
  // expected-error@+1 {{'scf.for' op cannot be lowered by lower-mx-tensor}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %q) -> (!mx_tensor.tensor<<2xf8E8M0FNU>, <64xf4E2M1FN>>) {
    scf.yield %a : !mx_tensor.tensor<<2xf8E8M0FNU>, <64xf4E2M1FN>>
  }
  %y = mx_tensor.dequantize %r : !mx_tensor.tensor<<2xf8E8M0FNU>, <64xf4E2M1FN>> -> tensor<64xf32>
  func.return %y : tensor<64xf32>
}
