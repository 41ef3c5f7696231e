// The README's example runs the same before and after lowering; the values are
// worked out by hand in examples/subchannel.mlir's terms (x / scale + zp, ties to even).
// RUN: xquant-run %S/../../examples/subchannel.mlir | filecheck %s
// RUN: xquant-run %S/../../examples/subchannel.mlir -p lower-quant-ops | filecheck %s
// RUN: xdsl-opt %S/../../examples/subchannel.mlir -p lower-quant-ops | filecheck %s --check-prefix=IR

// CHECK:      dense<[[1, 2, -3, 7, 2, -4, 6, 7], [-6, 0, -2, -8, 4, 4, -5, 7]]> : tensor<2x8xi4>
// CHECK-NEXT: dense<[[0.000000e+00, 1.250000e-01, -5.000000e-01, 7.500000e-01, 1.000000e+00, -2.000000e+00, 3.000000e+00, 3.500000e+00], [-4.000000e+00, 2.000000e+00, 0.000000e+00, -6.000000e+00, 6.250000e-02, 6.250000e-02, -5.000000e-01, 2.500000e-01]]> : tensor<2x8xf32>

// IR-NOT: quant.qcast
// IR-NOT: quant.dcast
// IR:     linalg.generic
// IR:     math.roundeven
