// RUN: XQUANT_INVALID
// !quant.superblock: every verifier rule, with its message.

func.func private @f(tensor<256x!quant.superblock<u4:i32:{0:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>)
// CHECK: expressed type must be floating point, got i32

// -----
func.func private @f(tensor<256x!quant.superblock<u17:f32:{0:32:256}, scales u6:f16, layout "ggml.Q4_K">>)
// CHECK: illegal code storage type size: 17

// -----
func.func private @f(tensor<256x!quant.superblock<x4:f32:{0:32:256}, scales u6:f16, layout "ggml.Q4_K">>)
// CHECK: expected code storage type (uN or iN)

// -----
func.func private @f(tensor<256x!quant.superblock<u4:f32:{0:0:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>)
// CHECK: block sizes must be positive, got 0 and 256

// -----
func.func private @f(tensor<256x!quant.superblock<u4:f32:{0:48:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>)
// CHECK: super-block size 256 must be a multiple of the sub-block size 48

// -----
func.func private @f(tensor<256x!quant.superblock<u4:f32:{0:32:256}, scales f16, layout "ggml.Q4_K">>)
// CHECK: sub-blocks without integer scales need the sub-block size to equal the super-block size, got 32 and 256

// -----
func.func private @f(tensor<256x!quant.superblock<u4:f32:{0:32:256}, scales u6:i16, layout "ggml.Q4_K">>)
// CHECK: super-block scale type must be floating point, got i16

// -----
func.func private @f(tensor<32x!quant.superblock<u4:f32:{0:32}, scales f16, mins u6:f16, layout "ggml.Q4_0">>)
// CHECK: sub-block mins need integer sub-block scales

// -----
func.func private @f(tensor<32x!quant.superblock<u4:f32:{0:32}, scales f16, table {-1.0, 0.0, 1.0}, layout "ggml.IQ4_NL">>)
// CHECK: lookup table size (3) must equal the number of representable storage values (16)

// -----
func.func private @f(tensor<32x!quant.superblock<i2:f32:{0:32}, scales f16, table {-1.0, 0.0, 1.0, 2.0}, layout "ggml.IQ4_NL">>)
// CHECK: a lookup table is indexed by unsigned codes, got i2

// -----
func.func private @f(tensor<256x!quant.superblock<u4:f32:{0:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q7_K">>)
// CHECK: unknown super-block layout "ggml.Q7_K" (known: "ggml.Q4_0", "ggml.Q4_1", "ggml.Q5_0", "ggml.Q5_1", "ggml.Q8_0", "ggml.Q8_1", "ggml.Q2_K", "ggml.Q3_K", "ggml.Q4_K", "ggml.Q5_K", "ggml.Q6_K", "ggml.IQ4_NL", "ggml.IQ4_XS", "ggml.TQ1_0", "ggml.TQ2_0", "ggml.IQ2_XXS", "ggml.IQ2_XS", "ggml.IQ2_S", "ggml.IQ3_XXS", "ggml.IQ3_S", "ggml.IQ1_S", "ggml.IQ1_M")

// -----
func.func private @f(tensor<256x!quant.superblock<u4:f32:{0:32:256}, scales u8:f16, mins u6:f16, layout "ggml.Q4_K">>)
// CHECK: layout "ggml.Q4_K" requires u4:f32:{0:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K"

// -----
func.func private @f(tensor<256x!quant.superblock<i6:f32:{0:16:256}, scales i8:bf16, layout "ggml.Q6_K">>)
// CHECK: layout "ggml.Q6_K" requires i6:f32:{0:16:256}, scales i8:f16, layout "ggml.Q6_K"

// -----
func.func private @f(tensor<32x!quant.superblock<u4:f32:{0:32}, scales f16, layout "ggml.IQ4_NL">>)
// CHECK: layout "ggml.IQ4_NL" requires the IQ4_NL table

// -----
func.func private @f(tensor<256x!quant.superblock<u2:f32:{0:256}, scales f16, layout "ggml.TQ2_0">>)
// CHECK: layout "ggml.TQ2_0" requires table {-1, 0, 1, 2}

// -----
func.func private @f(tensor<256x!quant.superblock<u2:f32:{0:16:256}, scales u4:f16, mins f16, layout "ggml.Q2_K">>)
// CHECK: a float block min needs a float block scale, not integer sub-block scales

// -----
func.func private @f(tensor<32x!quant.superblock<u4:f32:{0:32}, scales f16, layout "ggml.Q4_1">>)
// CHECK: layout "ggml.Q4_1" requires u4:f32:{0:32}, scales f16, mins f16, layout "ggml.Q4_1"

// -----
func.func private @f(tensor<32x!quant.superblock<u4:f32:{0:32}, scales f16, mins bf16, layout "ggml.Q4_1">>)
// CHECK: layout "ggml.Q4_1" requires u4:f32:{0:32}, scales f16, mins f16, layout "ggml.Q4_1"

// -----
func.func private @f(tensor<32x!quant.superblock<u4:f32:{0:32}, scales f16, mins i16, layout "ggml.Q4_1">>)
// CHECK: super-block min type must be floating point, got i16

// -----
func.func @f(%x: tensor<4x300xf32>) {
  %q = quant.qcast %x : tensor<4x300xf32> to tensor<4x300x!quant.superblock<i8:f32:{1:32}, scales f16, layout "ggml.Q8_0">>
  func.return
}
// CHECK: tensor dimension size 300 at axis 1 must be divisible by the super-block size 32

// -----
func.func @f(%x: tensor<256x4xf32>) {
  %q = quant.qcast %x : tensor<256x4xf32> to tensor<256x4x!quant.superblock<i6:f32:{0:16:256}, scales i8:f16, layout "ggml.Q6_K">>
  func.return
}
// CHECK: layout "ggml.Q6_K" packs blocks along the last dimension (1), not 0

// -----
func.func @f(%x: tensor<256xf32>) {
  %q = quant.qcast %x : tensor<256xf32> to tensor<256x!quant.superblock<i6:f32:{1:16:256}, scales i8:f16, layout "ggml.Q6_K">>
  func.return
}
// CHECK: quantized dimension 1 must be less than tensor rank 1

// -----
func.func @f(%b: tensor<4x200xi8>) {
  %q = quant.scast %b : tensor<4x200xi8> to tensor<4x512x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>
  func.return
}
// CHECK: storage shape of tensor<4x512x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">> must be 4x288xi8: 144 bytes per super-block of 256 along axis 1

// -----
func.func @f(%b: tensor<4x288xi16>) {
  %q = quant.scast %b : tensor<4x288xi16> to tensor<4x512x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>
  func.return
}
// CHECK: storage of !quant.superblock must be raw bytes (i8), got i16

// -----
func.func @f(%x: tensor<4x512xf32>) {
  %q = quant.qcast %x : tensor<4x512xf32> to tensor<4x256x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>
  func.return
}
// CHECK: 'quant.qcast' op failed to verify that input and result are both scalars or both tensors with matching shape

// -----
func.func @f(%x: tensor<*xf32>) {
  %q = quant.qcast %x : tensor<*xf32> to tensor<*x!quant.superblock<u4:f32:{1:32:256}, scales u6:f16, mins u6:f16, layout "ggml.Q4_K">>
  func.return
}
// CHECK: 'quant.qcast' op !quant.superblock needs ranked tensors, got tensor<*xf32>

// -----
func.func private @f(tensor<256x!quant.superblock<u8:f32:{0:32:256}, scales u4:f16, codebook "ggml.iq9_grid" x8, layout "ggml.IQ2_XXS">>)
// CHECK: unknown codebook "ggml.iq9_grid" (known: "ggml.iq2xxs_grid", "ggml.iq2xs_grid", "ggml.iq2s_grid", "ggml.iq3xxs_grid", "ggml.iq3s_grid", "ggml.iq1s_grid")

// -----
func.func private @f(tensor<256x!quant.superblock<u9:f32:{0:32:256}, scales u4:f16, codebook "ggml.iq2xxs_grid" x8, layout "ggml.IQ2_XXS">>)
// CHECK: codebook "ggml.iq2xxs_grid" has 256 entries, but the codes have 512 values

// -----
func.func private @f(tensor<256x!quant.superblock<u8:f32:{0:32:256}, scales u4:f16, codebook "ggml.iq2xxs_grid" x4, layout "ggml.IQ2_XXS">>)
// CHECK: codebook "ggml.iq2xxs_grid" holds vectors of 8 elements, not 4

// -----
func.func private @f(tensor<256x!quant.superblock<i8:f32:{0:32:256}, scales u4:f16, codebook "ggml.iq2xxs_grid" x8, layout "ggml.IQ2_XXS">>)
// CHECK: a codebook is indexed by unsigned codes, got i8

// -----
func.func private @f(tensor<256x!quant.superblock<u8:f32:{0:4:256}, scales u4:f16, codebook "ggml.iq2xxs_grid" x8, layout "ggml.IQ2_XXS">>)
// CHECK: sub-block size 4 must be a multiple of the codebook vector length 8

// -----
func.func private @f(tensor<256x!quant.superblock<u8:f32:{0:32:256}, scales u4:f16, codebook "ggml.iq3xxs_grid" x4, layout "ggml.IQ2_XXS">>)
// CHECK: layout "ggml.IQ2_XXS" requires codebook "ggml.iq2xxs_grid" x8

// -----
func.func private @f(tensor<256x!quant.superblock<u8:f32:{0:32:256}, scales u4:f16, layout "ggml.IQ2_XXS">>)
// CHECK: layout "ggml.IQ2_XXS" requires codebook "ggml.iq2xxs_grid" x8

// -----
func.func private @f(tensor<256x!quant.superblock<u8:f32:{0:32:256}, scales u4:f16, codebook "ggml.iq2xxs_grid" x8, layout "ggml.Q4_K">>)
// CHECK: layout "ggml.Q4_K" requires no codebook

// -----
func.func private @f(tensor<256x!quant.superblock<u8:f32:{0:16:256}, scales u4:f16, codebook "ggml.iq2xxs_grid" x8, layout "ggml.IQ2_XXS">>)
// CHECK: layout "ggml.IQ2_XXS" requires u8:f32:{0:32:256}, scales u4:f16, codebook "ggml.iq2xxs_grid" x8, layout "ggml.IQ2_XXS"

// -----
func.func private @f(tensor<256x!quant.superblock<u8:f32:{0:32:256}, scales u4:f16, codebook "ggml.iq2xxs_grid" y8, layout "ggml.IQ2_XXS">>)
// CHECK: expected codebook vector length (xN)
