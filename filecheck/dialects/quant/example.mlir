// examples/quant_types.mlir prints back canonically through both tools (the
// expected text is what mlir-opt 22.1.8 prints for the same file).
// RUN: xquant-opt %S/../../../examples/quant_types.mlir | filecheck %s
// RUN: xdsl-opt %S/../../../examples/quant_types.mlir | filecheck %s

// CHECK: func.func private @types(!quant.any<i8<-8:7>:f32>, !quant.calibrated<f32<-0.998:1.232100e+00>>)
// CHECK: quant.qcast %{{.*}} : tensor<2x3xf32> to tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {2.000000e+00:1,3.000000e+00:-1,2.500000e-01}>>
// CHECK: quant.dcast %{{.*}} : tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {2.000000e+00:1,3.000000e+00:-1,2.500000e-01}>> to tensor<2x3xf32>
// CHECK: quant.qcast %{{.*}} : tensor<2x4xf16> to tensor<2x4x!quant.uniform<i4:f16:{0:1, 1:2}, {{[{][{]}}2.000000e+00:1, 3.000000e+00}, {4.000000e+00, 5.000000e+00:3{{[}][}]}}>>
// CHECK: quant.scast %{{.*}} : tensor<2x4x!quant.uniform<i4:f16:{0:1, 1:2}, {{[{][{]}}2.000000e+00:1, 3.000000e+00}, {4.000000e+00, 5.000000e+00:3{{[}][}]}}>> to tensor<2x4xi4>
// CHECK: quant.qcast %{{.*}} : tensor<f32> to tensor<!quant.uniform<u8:f32, 5.000000e-01:128>>
// CHECK: quant.scast %{{.*}} : tensor<!quant.uniform<u8:f32, 5.000000e-01:128>> to tensor<i8>
