// RUN: xquant-opt %s --lower-quant-ops -split-input-file -verify-diagnostics
// torchao's quantizer (data-dependent absmax searches) runs in the interpreter only.

func.func @qcast(%x: tensor<8x64xbf16>) -> tensor<8x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{4}, mean bf16, layout "torchao.nf4">> {
  // expected-error@+1 {{lower-quant-ops cannot lower 'quant.qcast' to !quant.double_quantized (torchao's quantizer runs in the interpreter only)}}
  %q = quant.qcast %x : tensor<8x64xbf16> to tensor<8x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{4}, mean bf16, layout "torchao.nf4">>
  func.return %q : tensor<8x64x!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0,-0.6962,-0.5251,-0.3949,-0.2844,-0.1848,-0.0911,0.0,0.0796,0.1609,0.2461,0.3379,0.4407,0.5626,0.7230,1.0}>:bf16:{1:64}, scales i8:bf16:{4}, mean bf16, layout "torchao.nf4">>
}
