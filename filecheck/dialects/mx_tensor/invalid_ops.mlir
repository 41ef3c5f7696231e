// RUN: xquant-opt %s -split-input-file -verify-diagnostics
// Every op verifier rule, with its message.

func.func @f(%s: tensor<4xf8E8M0FNU>) {
  // expected-error@+1 {{expected 2 operands for !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>, got 1}}
  %m = mx_tensor.construct %s : !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%s: tensor<4xf8E8M0FNU>, %d: tensor<128xf8E4M3FN>) {
  // expected-error@+1 {{'mx_tensor.construct' op expected 2 operands (the scale and 1 data tensor(s)), got 1}}
  %m = "mx_tensor.construct"(%s) : (tensor<4xf8E8M0FNU>) -> !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%s: tensor<4xf8E8M0FNU>, %d: tensor<128xf8E5M2>) {
  // expected-error@+1 {{'mx_tensor.construct' op operand #1 has type tensor<128xf8E5M2> but data tensor #0 of the result is tensor<128xf8E4M3FN>}}
  %m = "mx_tensor.construct"(%s, %d) : (tensor<4xf8E8M0FNU>, tensor<128xf8E5M2>) -> !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf6E2M3FN>>) {
  // expected-error@+1 {{'mx_tensor.deconstruct' op storage type #1 is f16; storage types must be signless integers}}
  %s, %hi, %lo = mx_tensor.deconstruct %m {storage_types = [i2, f16]} : !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf6E2M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf6E2M3FN>>) {
  // expected-error@+1 {{'mx_tensor.deconstruct' op storage widths 2 + 2 = 4 do not add up to the 6 bits of f6E2M3FN}}
  %s, %hi, %lo = mx_tensor.deconstruct %m {storage_types = [i2, i2]} : !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf6E2M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf6E2M3FN>>) {
  // expected-error@+1 {{'mx_tensor.deconstruct' op expected 2 results, got 1}}
  %s = "mx_tensor.deconstruct"(%m) : (!mx_tensor.tensor<<4xf8E8M0FNU>, <128xf6E2M3FN>>) -> tensor<4xf8E8M0FNU>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf6E2M3FN>>) {
  // expected-error@+1 {{'mx_tensor.deconstruct' op result #0 has type tensor<4xi8> but expected tensor<4xf8E8M0FNU>}}
  %s, %d = "mx_tensor.deconstruct"(%m) : (!mx_tensor.tensor<<4xf8E8M0FNU>, <128xf6E2M3FN>>) -> (tensor<4xi8>, tensor<128xf6E2M3FN>)
  func.return
}

// -----
func.func @f(%x: tensor<128xf64>) {
  // expected-error@+1 {{'mx_tensor.quantize' op input element type must be f16, bf16 or f32, got f64}}
  %m = mx_tensor.quantize %x : tensor<128xf64> -> !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%x: tensor<64xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op input shape [64] does not match the data shape [128] of the result}}
  %m = mx_tensor.quantize %x : tensor<64xf32> -> !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%x: tensor<128xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op quantize computes power-of-two scales; the scale type must be f8E8M0FNU or an 8-bit integer, got f16}}
  %m = mx_tensor.quantize %x : tensor<128xf32> -> !mx_tensor.tensor<<4xf16>, <128xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%x: tensor<128xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op algorithm must be "floor", "rceil" or "nvfp4", got "ceil"}}
  %m = mx_tensor.quantize %x {algorithm = "ceil"} : tensor<128xf32> -> !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%x: tensor<128xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op block_factor has 2 entries for data of rank 1}}
  %m = mx_tensor.quantize %x {block_factor = [32, 1]} : tensor<128xf32> -> !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%x: tensor<64x128xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op block_factor [32, 32] does not match the result type's blocks [32, 64] (dimension 1: 128 / 2 = 64)}}
  %m = mx_tensor.quantize %x {block_factor = [32, 32]} : tensor<64x128xf32> -> !mx_tensor.tensor<<2x2xf8E8M0FNU>, <64x128xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%x: tensor<128xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op scale_type i8 does not match the result's scale type f8E8M0FNU}}
  %m = mx_tensor.quantize %x {scale_type = i8} : tensor<128xf32> -> !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%x: tensor<128xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op compute_type f8E5M2 does not match the result's compute type f8E4M3FN}}
  %m = mx_tensor.quantize %x {compute_type = f8E5M2} : tensor<128xf32> -> !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%x: tensor<128xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op storage_types [i2, i4] do not match the result's data storage [i4, i2]}}
  %m = mx_tensor.quantize %x {storage_types = [i2, i4]} : tensor<128xf32> -> !mx_tensor.tensor<<4xf8E8M0FNU>, [<128xi4>, <128xi2>] x f6E2M3FN>
  func.return
}

// -----
func.func @f(%x: tensor<128xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op storage_types [f6E2M3FN] do not match the result's data storage [i2, i4]}}
  %m = mx_tensor.quantize %x : tensor<128xf32> -> !mx_tensor.tensor<<4xf8E8M0FNU>, [<128xi2>, <128xi4>] x f6E2M3FN>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.dequantize' op result element type must be f16, bf16 or f32, got f8E4M3FN}}
  %y = mx_tensor.dequantize %m : !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>> -> tensor<128xf8E4M3FN>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.dequantize' op result shape [64] does not match the data shape [128]}}
  %y = mx_tensor.dequantize %m : !mx_tensor.tensor<<4xf8E8M0FNU>, <128xf8E4M3FN>> -> tensor<64xf32>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.extract_slice' op dimension 1: stride 2 is not supported; MX slices have unit strides}}
  %t = mx_tensor.extract_slice %m[0, 0] [32, 32] [1, 2] : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>, %n: index) {
  // expected-error@+1 {{'mx_tensor.extract_slice' op dimension 1: sizes and strides must be static}}
  %t = mx_tensor.extract_slice %m[0, 0] [32, %n] [1, 1] : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.extract_slice' op dimension 1: the tile has data size 32 but the slice size is 64}}
  %t = mx_tensor.extract_slice %m[0, 0] [32, 64] [1, 1] : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.extract_slice' op the tile and the source must have the same scale, storage and compute types}}
  %t = mx_tensor.extract_slice %m[0, 0] [32, 32] [1, 1] : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1x1xi8>, <32x32xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x32xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.extract_slice' op dimension 1: a tile of 64 elements with 1 scale(s) (block 64) cannot describe source blocks of 32; the tile block must equal the source block, or the tile must have one scale and divide the block}}
  %t = mx_tensor.extract_slice %m[0, 0] [32, 64] [1, 1] : !mx_tensor.tensor<<4x32xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x64xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.extract_slice' op dimension 1: offset 16 is not a multiple of the tile size 32, so the tile straddles two blocks of 256}}
  %t = mx_tensor.extract_slice %m[0, 16] [32, 32] [1, 1] : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.extract_slice' op dimension 0: offset 128 is not a multiple of the block size 256}}
  %t = mx_tensor.extract_slice %m[128, 0] [256, 32] [1, 1] : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1x1xf8E8M0FNU>, <256x32xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.extract_slice' op dimension 0: slice [1024, 1056) is out of bounds of size 1024}}
  %t = mx_tensor.extract_slice %m[1024, 0] [32, 32] [1, 1] : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.extract_slice' op expected 2 sizes and strides, got 1 and 1}}
  %t = mx_tensor.extract_slice %m[0] [32] [1] : !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>> to !mx_tensor.tensor<<1xf8E8M0FNU>, <32xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>, %t: !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.insert_slice' op dimension 0: the tile's block (32) differs from the destination's block (256); inserting it would change the scale of elements outside the tile}}
  %r = mx_tensor.insert_slice %t into %m[0, 0] [32, 32] [1, 1] : !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>> into !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>, %t: !mx_tensor.tensor<<1x1xf8E8M0FNU>, <256x256xf8E4M3FN>>) {
  // expected-error@+1 {{'mx_tensor.insert_slice' op dimension 1: offset 128 is not a multiple of the block size 256}}
  %r = mx_tensor.insert_slice %t into %m[0, 128] [256, 256] [1, 1] : !mx_tensor.tensor<<1x1xf8E8M0FNU>, <256x256xf8E4M3FN>> into !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) {
  // expected-error@+1 {{The number of dynamic positions passed as values (0) does not match the number of dynamic position markers (1) in the offset arguments.}}
  %t = "mx_tensor.extract_slice"(%m) <{static_offsets = array<i64: 0, -9223372036854775808>, static_sizes = array<i64: 32, 32>, static_strides = array<i64: 1, 1>, operandSegmentSizes = array<i32: 1, 0, 0, 0>}> : (!mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>) -> !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>
  func.return
}

// -----
// NVFP4: f8E4M3FN block scales, f4E2M1FN elements, blocks of 16 along the last dimension.
func.func @f(%x: tensor<2x32xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op nvfp4 block scales are f8E4M3FN, got f8E8M0FNU}}
  %m = mx_tensor.quantize %x {algorithm = "nvfp4"} : tensor<2x32xf32> -> !mx_tensor.tensor<<2x2xf8E8M0FNU>, <2x32xf4E2M1FN>>
  func.return
}

// -----
func.func @f(%x: tensor<2x32xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op nvfp4 elements are f4E2M1FN, got f8E4M3FN}}
  %m = mx_tensor.quantize %x {algorithm = "nvfp4"} : tensor<2x32xf32> -> !mx_tensor.tensor<<2x2xf8E4M3FN>, <2x32xf8E4M3FN>>
  func.return
}

// -----
func.func @f(%x: tensor<2x64xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op nvfp4 blocks are 16 elements along one dimension (the contraction axis) and 1 along the others, got [1, 32]}}
  %m = mx_tensor.quantize %x {algorithm = "nvfp4"} : tensor<2x64xf32> -> !mx_tensor.tensor<<2x2xf8E4M3FN>, <2x64xf4E2M1FN>>
  func.return
}

// -----
func.func @f(%x: tensor<32x32xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op nvfp4 blocks are 16 elements along one dimension (the contraction axis) and 1 along the others, got [16, 16]}}
  %m = mx_tensor.quantize %x {algorithm = "nvfp4"} : tensor<32x32xf32> -> !mx_tensor.tensor<<2x2xf8E4M3FN>, <32x32xf4E2M1FN>>
  func.return
}

// -----
func.func @f(%x: tensor<2x32xf32>, %g: tensor<f32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op a tensor_scale operand needs algorithm = "nvfp4"}}
  %m = mx_tensor.quantize %x, %g : tensor<2x32xf32>, tensor<f32> -> !mx_tensor.tensor<<2x1xf8E8M0FNU>, <2x32xf4E2M1FN>>
  func.return
}

// -----
func.func @f(%x: tensor<2x32xf32>, %g: tensor<1xf32>) {
  // expected-error@+1 {{'mx_tensor.quantize' op tensor_scale must be tensor<f32>, got tensor<1xf32>}}
  %m = mx_tensor.quantize %x, %g {algorithm = "nvfp4"} : tensor<2x32xf32>, tensor<1xf32> -> !mx_tensor.tensor<<2x2xf8E4M3FN>, <2x32xf4E2M1FN>>
  func.return
}

// -----
func.func @f(%x: tensor<2x32xf32>, %g: tensor<f32>) {
  // expected-error@+1 {{expected 2 operand type(s), got 1}}
  %m = mx_tensor.quantize %x, %g {algorithm = "nvfp4"} : tensor<2x32xf32> -> !mx_tensor.tensor<<2x2xf8E4M3FN>, <2x32xf4E2M1FN>>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<2x2xf8E4M3FN>, <2x32xf4E2M1FN>>, %g: tensor<f16>) {
  // expected-error@+1 {{'mx_tensor.dequantize' op tensor_scale must be tensor<f32>, got tensor<f16>}}
  %y = mx_tensor.dequantize %m, %g : !mx_tensor.tensor<<2x2xf8E4M3FN>, <2x32xf4E2M1FN>>, tensor<f16> -> tensor<2x32xf32>
  func.return
}

// -----
func.func @f(%m: !mx_tensor.tensor<<2x1xf8E8M0FNU>, <2x32xf4E2M1FN>>, %g: tensor<f32>) {
  // expected-error@+1 {{'mx_tensor.dequantize' op tensor_scale is the NVFP4 per-tensor scale; the block scales must be f8E4M3FN, got f8E8M0FNU}}
  %y = mx_tensor.dequantize %m, %g : !mx_tensor.tensor<<2x1xf8E8M0FNU>, <2x32xf4E2M1FN>>, tensor<f32> -> tensor<2x32xf32>
  func.return
}
