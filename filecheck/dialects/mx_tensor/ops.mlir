// RUN: XQUANT_ROUNDTRIP
// RUN: XQUANT_GENERIC_ROUNDTRIP
// The design note's op assembly, which the printer emits unchanged.

// CHECK-LABEL: func.func @ops
// CHECK:      %m = mx_tensor.empty : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
// CHECK-NEXT: %m_1 = mx_tensor.construct %scale, %data : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
// CHECK-NEXT: %m_2 = mx_tensor.construct %s6, %hi, %lo : !mx_tensor.tensor<<32x1xf8E8M0FNU>, [<1024x1024xi2>, <1024x1024xi4>] x f6E2M3FN>
// CHECK-NEXT: %s, %d = mx_tensor.deconstruct %m_1 : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
// CHECK-NEXT: %s_1, %hi_1, %lo_1 = mx_tensor.deconstruct %m6 {storage_types = [i2, i4]} : !mx_tensor.tensor<<32x1xf8E8M0FNU>, <1024x1024xf6E2M3FN>>
// CHECK-NEXT: %q = mx_tensor.quantize %x {block_factor = [256, 256], scale_type = f8E8M0FNU, compute_type = f8E4M3FN} : tensor<1024x1024xf32> -> !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
// CHECK-NEXT: %q6 = mx_tensor.quantize %x {block_factor = [32, 1024], scale_type = f8E8M0FNU, compute_type = f6E2M3FN, storage_types = [i2, i4], algorithm = "rceil"} : tensor<1024x1024xf32> -> !mx_tensor.tensor<<32x1xf8E8M0FNU>, [<1024x1024xi2>, <1024x1024xi4>] x f6E2M3FN>
// CHECK-NEXT: %y = mx_tensor.dequantize %q : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> -> tensor<1024x1024xf32>
// CHECK-NEXT: %t = mx_tensor.extract_slice %q[0, 32] [32, 32] [1, 1] : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>
// CHECK-NEXT: %r = mx_tensor.insert_slice %t2 into %q[0, 256] [256, 512] [1, 1] : !mx_tensor.tensor<<1x2xf8E8M0FNU>, <256x512xf8E4M3FN>> into !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
func.func @ops(%scale: tensor<4x4xf8E8M0FNU>, %data: tensor<1024x1024xf8E4M3FN>, %s6: tensor<32x1xf8E8M0FNU>,
               %hi: tensor<1024x1024xi2>, %lo: tensor<1024x1024xi4>, %m6: !mx_tensor.tensor<<32x1xf8E8M0FNU>, <1024x1024xf6E2M3FN>>,
               %x: tensor<1024x1024xf32>, %t2: !mx_tensor.tensor<<1x2xf8E8M0FNU>, <256x512xf8E4M3FN>>) {
  %m = mx_tensor.empty : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
  %m_1 = mx_tensor.construct %scale, %data : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
  %m_2 = mx_tensor.construct %s6, %hi, %lo : !mx_tensor.tensor<<32x1xf8E8M0FNU>, [<1024x1024xi2>, <1024x1024xi4>] x f6E2M3FN>
  %s, %d = mx_tensor.deconstruct %m_1 : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
  %s_1, %hi_1, %lo_1 = mx_tensor.deconstruct %m6 {storage_types = [i2, i4]} : !mx_tensor.tensor<<32x1xf8E8M0FNU>, <1024x1024xf6E2M3FN>>
  %q = mx_tensor.quantize %x {block_factor = [256, 256], scale_type = f8E8M0FNU, compute_type = f8E4M3FN} : tensor<1024x1024xf32> -> !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
  %q6 = mx_tensor.quantize %x {block_factor = [32, 1024], scale_type = f8E8M0FNU, compute_type = f6E2M3FN, storage_types = [i2, i4], algorithm = "rceil"} : tensor<1024x1024xf32> -> !mx_tensor.tensor<<32x1xf8E8M0FNU>, [<1024x1024xi2>, <1024x1024xi4>] x f6E2M3FN>
  %y = mx_tensor.dequantize %q : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> -> tensor<1024x1024xf32>
  %t = mx_tensor.extract_slice %q[0, 32] [32, 32] [1, 1] : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>
  %r = mx_tensor.insert_slice %t2 into %q[0, 256] [256, 512] [1, 1] : !mx_tensor.tensor<<1x2xf8E8M0FNU>, <256x512xf8E4M3FN>> into !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
  func.return
}

// NVFP4: f8E4M3FN block scales over 16 f4E2M1FN elements, with and without the per-tensor scale.
// CHECK-LABEL: func.func @nvfp4
// CHECK:      %q = mx_tensor.quantize %x {algorithm = "nvfp4"} : tensor<8x64xf32> -> !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>
// CHECK-NEXT: %q2 = mx_tensor.quantize %x, %g {block_factor = [1, 16], scale_type = f8E4M3FN, compute_type = f4E2M1FN, algorithm = "nvfp4"} : tensor<8x64xf32>, tensor<f32> -> !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>
// CHECK-NEXT: %y = mx_tensor.dequantize %q : !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>> -> tensor<8x64xf32>
// CHECK-NEXT: %y2 = mx_tensor.dequantize %q2, %g : !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>, tensor<f32> -> tensor<8x64xbf16>
func.func @nvfp4(%x: tensor<8x64xf32>, %g: tensor<f32>) {
  %q = mx_tensor.quantize %x {algorithm = "nvfp4"} : tensor<8x64xf32> -> !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>
  %q2 = mx_tensor.quantize %x, %g {algorithm = "nvfp4", compute_type = f4E2M1FN, block_factor = [1, 16], scale_type = f8E4M3FN} : tensor<8x64xf32>, tensor<f32> -> !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>
  %y = mx_tensor.dequantize %q : !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>> -> tensor<8x64xf32>
  %y2 = mx_tensor.dequantize %q2, %g : !mx_tensor.tensor<<8x4xf8E4M3FN>, <8x64xf4E2M1FN>>, tensor<f32> -> tensor<8x64xbf16>
  func.return
}
