// Every quant type form and the three cast ops; `xquant-opt` / `xdsl-opt` print
// it back in upstream mlir-opt's canonical form (filecheck/dialects/quant/example.mlir).

!any = !quant.any<i8<-8:7>:f32>
!layer = !quant.uniform<u8:f32, 0.5:128>
!axis = !quant.uniform<i8<-127:127>:f32:1, {2.0:1, 3.0:-1, 0.25}>
!sub = !quant.uniform<i4:f16:{0:1, 1:2}, {{2.0:1, 3.0}, {4.0, 5.0:3}}>
!cal = !quant.calibrated<f32<-0.998:1.2321>>

func.func private @types(!any, !cal) -> ()

func.func @casts(%x: tensor<2x3xf32>, %y: tensor<2x4xf16>) -> (tensor<2x3xf32>, tensor<2x4xi4>, tensor<i8>) {
  %q = quant.qcast %x : tensor<2x3xf32> to tensor<2x3x!axis>
  %d = quant.dcast %q : tensor<2x3x!axis> to tensor<2x3xf32>
  %s = quant.qcast %y : tensor<2x4xf16> to tensor<2x4x!sub>
  %i = quant.scast %s : tensor<2x4x!sub> to tensor<2x4xi4>
  %c = arith.constant dense<1.5> : tensor<f32>
  %l = quant.qcast %c : tensor<f32> to tensor<!layer>
  %u = quant.scast %l : tensor<!layer> to tensor<i8>
  return %d, %i, %u : tensor<2x3xf32>, tensor<2x4xi4>, tensor<i8>
}
