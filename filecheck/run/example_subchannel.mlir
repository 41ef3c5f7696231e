// The README's example runs the same before and after lowering; the values are
// worked out by hand in examples/subchannel.mlir's terms (x / scale + zp, ties to even).
// RUN: xquant-run %S/../../examples/subchannel.mlir | filecheck %s
// RUN: xquant-run %S/../../examples/subchannel.mlir -p 'lower-quant-ops{rounding=nearest-even}' | filecheck %s
// RUN: xdsl-opt %S/../../examples/subchannel.mlir -p 'lower-quant-ops{rounding=nearest-even}' | filecheck %s --check-prefix=IR
// The default lowering is upstream's: truncation toward zero, so ties and fractions
// move toward zero (1.5 -> 1, -3.5 -> -3, -5.5 -> -5, -1.5 -> -1, 3.5 -> 3), and, as
// upstream's conversion folds dcast(qcast x) to x, the round trip returns %x unchanged.
// RUN: xquant-run %S/../../examples/subchannel.mlir -p lower-quant-ops | filecheck %s --check-prefix=UPSTREAM

// CHECK:      dense<[[1, 2, -3, 7, 2, -4, 6, 7], [-6, 0, -2, -8, 4, 4, -5, 7]]> : tensor<2x8xi4>
// CHECK-NEXT: dense<[[0.000000e+00, 1.250000e-01, -5.000000e-01, 7.500000e-01, 1.000000e+00, -2.000000e+00, 3.000000e+00, 3.500000e+00], [-4.000000e+00, 2.000000e+00, 0.000000e+00, -6.000000e+00, 6.250000e-02, 6.250000e-02, -5.000000e-01, 2.500000e-01]]> : tensor<2x8xf32>

// IR-NOT: quant.qcast
// IR-NOT: quant.dcast
// IR:     linalg.generic
// IR:     math.roundeven

// UPSTREAM:      dense<[[1, 1, -3, 7, 2, -3, 6, 7], [-5, 0, -1, -8, 3, 4, -5, 7]]> : tensor<2x8xi4>
// UPSTREAM-NEXT: dense<[[0.000000e+00, 6.250000e-02, -5.000000e-01, 2.000000e+00, 1.250000e+00, -1.750000e+00, 3.000000e+00, 1.000000e+02], [-3.500000e+00, 2.500000e+00, 5.000000e-01, -9.000000e+00, 3.125000e-02, 9.375000e-02, -5.000000e-01, 4.000000e-01]]> : tensor<2x8xf32>
