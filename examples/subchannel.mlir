// Sub-channel (blockwise) int4 quantization of a 2x8 weight: one scale and
// zero point per 1x4 block. Run it as written, or after lowering:
//
//   xquant-run examples/subchannel.mlir
//   xquant-run examples/subchannel.mlir -p 'lower-quant-ops{rounding=nearest-even}'
//   xdsl-opt examples/subchannel.mlir -p 'lower-quant-ops{rounding=nearest-even}'   (the lowered IR)
//
// Both runs print the same storage integers and the same round-tripped values.
// Plain `-p lower-quant-ops` is upstream MLIR's lowering, which truncates toward
// zero instead (0.0625 / 0.125 + 1 = 1.5 stores 1, not 2), is poison beyond the
// storage range (100.0 here; the interpreter saturates it to 7), and folds
// `quant.dcast (quant.qcast %x)` to %x (so %y is %x).

!w = !quant.uniform<i4:f32:{0:1, 1:4}, {{0.125:1, 0.5}, {1.0:-2, 0.0625:3}}>

func.func @main() -> (tensor<2x8xi4>, tensor<2x8xf32>) {
  %x = arith.constant dense<[[0.0, 0.0625, -0.5, 2.0, 1.25, -1.75, 3.0, 100.0],
                             [-3.5, 2.5, 0.5, -9.0, 0.03125, 0.09375, -0.5, 0.4]]> : tensor<2x8xf32>
  %q = quant.qcast %x : tensor<2x8xf32> to tensor<2x8x!w>
  %storage = quant.scast %q : tensor<2x8x!w> to tensor<2x8xi4>
  %y = quant.dcast %q : tensor<2x8x!w> to tensor<2x8xf32>
  return %storage, %y : tensor<2x8xi4>, tensor<2x8xf32>
}
