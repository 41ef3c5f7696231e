// RUN: XQUANT_INVALID
// !quant.double_quantized: every verifier rule, with its message.

func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:f16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:f16:{1:64}, scales i8:f16:{256}, mean f16, layout "torchao.nf4">>)
// CHECK: expressed type of !quant.double_quantized must be f32 or bf16, got f16

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:i32:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: expressed type must be floating point, got i32

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<ui4:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: storage of !quant.double_quantized must be a !quant.quantile table of 16 values indexed by ui4, got ui4

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<i4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: storage of !quant.double_quantized must be a !quant.quantile table of 16 values indexed by ui4, got !quant.quantile<i4:bf16

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui3:bf16, {-1.0,-0.5,-0.25,0.0,0.25,0.5,0.75,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: storage of !quant.double_quantized must be a !quant.quantile table of 16 values indexed by ui4, got !quant.quantile<ui3:bf16

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: quantile LUT size (15) must equal the number of representable storage values (16)

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:f32, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: quantile type f32 must be the expressed type bf16 (the table is converted to the weight's type)

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:63}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: block size must be a positive even number (two codes per byte), got 63

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:0}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: block size must be a positive even number (two codes per byte), got 0

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i4:bf16:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: block scales must be stored as i8, got i4

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales ui8:bf16:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: block scales must be stored as i8, got ui8

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:f32:{256}, mean bf16, layout "torchao.nf4">>)
// CHECK: scale factor type f32 must be the expressed type bf16 (every step is computed in the weight's type)

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean f16, layout "torchao.nf4">>)
// CHECK: mean type f16 must be the expressed type bf16 (every step is computed in the weight's type)

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{0}, mean bf16, layout "torchao.nf4">>)
// CHECK: scaler block size must be positive, got 0

// -----
func.func private @f(tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "bnb.nf4">>)
// CHECK: unknown !quant.double_quantized layout "bnb.nf4" (known: "torchao.nf4")

// -----
func.func @f(%x: tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{0:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>) {
  %q = quant.dcast %x : tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{0:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">> to tensor<256x64xbf16>
  func.return
}
// CHECK: blocks run along the last dimension (1), not 0

// -----
func.func @f(%x: tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{2:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>) {
  %q = quant.dcast %x : tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{2:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">> to tensor<256x64xbf16>
  func.return
}
// CHECK: quantized dimension 2 must be less than tensor rank 2

// -----
func.func @f(%x: tensor<256x96x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>) {
  %q = quant.dcast %x : tensor<256x96x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">> to tensor<256x96xbf16>
  func.return
}
// CHECK: tensor dimension size 96 at axis 1 must be divisible by the block size 64

// -----
func.func @f(%x: tensor<4x128x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>) {
  %q = quant.dcast %x : tensor<4x128x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">> to tensor<4x128xbf16>
  func.return
}
// CHECK: number of blocks 8 must be divisible by the scaler block size 256

// -----
func.func @f(%x: tensor<?x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>) {
  %q = quant.dcast %x : tensor<?x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">> to tensor<?x64xbf16>
  func.return
}
// CHECK: !quant.double_quantized needs a static shape, got ?x64

// -----
func.func @f(%x: tensor<*x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>) {
  %q = quant.dcast %x : tensor<*x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">> to tensor<*xbf16>
  func.return
}
// CHECK: 'quant.dcast' op !quant.double_quantized needs ranked tensors, got tensor<*x

// -----
func.func @f(%x: tensor<256x64xbf16>) {
  %q = quant.qcast %x : tensor<256x64xbf16> to tensor<64x256x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>
  func.return
}
// CHECK: 'quant.qcast' op failed to verify that input and result are both scalars or both tensors with matching shape

// -----
func.func @f(%x: tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>) {
  %q = quant.dcast %x : tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">> to tensor<256x64xf32>
  func.return
}
// CHECK: expressed type in quantized type expected to match float type

// -----
func.func @f(%x: tensor<8000xi8>) {
  %q = quant.scast %x : tensor<8000xi8> to tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>
  func.return
}
// CHECK: storage of 256x64 elements must be tensor<8452xi8>: 8192 code bytes, 256 i8 block scales, 1 bf16 factor (2 bytes) and a 2-byte mean

// -----
func.func @f(%x: tensor<2x4225xi8>) {
  %q = quant.scast %x : tensor<2x4225xi8> to tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>
  func.return
}
// CHECK: storage of 256x64 elements must be tensor<8452xi8>

// -----
func.func @f(%x: tensor<8452xi16>) {
  %q = quant.scast %x : tensor<8452xi16> to tensor<256x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{256}, mean bf16, layout "torchao.nf4">>
  func.return
}
// CHECK: storage of !quant.double_quantized must be raw bytes (i8), got i16
