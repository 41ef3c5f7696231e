// The shipped StableHLO example gives the same numbers as written, after quant-to-math and as linalg (unfused and fused).
// RUN: xquant-run %S/../../examples/stablehlo_quantized.mlir --arg 'dense<[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]> : tensor<2x3xf32>' | filecheck %s
// RUN: xquant-run %S/../../examples/stablehlo_quantized.mlir -p 'stablehlo-legalize-quant-to-math{exact=true}' --arg 'dense<[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]> : tensor<2x3xf32>' | filecheck %s
// RUN: xquant-run %S/../../examples/stablehlo_quantized.mlir -p 'stablehlo-legalize-quant-to-math{exact=true}',stablehlo-legalize-to-linalg --arg 'dense<[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]> : tensor<2x3xf32>' | filecheck %s
// RUN: xquant-run %S/../../examples/stablehlo_quantized.mlir -p 'stablehlo-legalize-quant-to-math{exact=true}',stablehlo-legalize-to-linalg,linalg-fuse-elementwise-ops --arg 'dense<[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]> : tensor<2x3xf32>' | filecheck %s

// Row 1's -1.88 fits the i16 requantized type, so the row sums are exact: -0.98 + 0.46, 0.69 - 1.88.
// CHECK:      dense<{{\[\[}}-0.979999959, 0.459999979], [0.689999997, -1.880000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: dense<[-5.200000e-01, -1.18999994]> : tensor<2xf32>
