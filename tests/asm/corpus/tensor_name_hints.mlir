func.func @f(%a: tensor<2x3xf32>, %i: index, %s: tensor<?xf32>, %sh: tensor<2xindex>, %x: f32) {
  %c = tensor.cast %a : tensor<2x3xf32> to tensor<?x3xf32>
  %e = tensor.expand_shape %s [[0, 1]] output_shape [%i, 1] : tensor<?xf32> into tensor<?x1xf32>
  %sl = tensor.extract_slice %a[0, 0] [1, 3] [1, 1] : tensor<2x3xf32> to tensor<1x3xf32>
  %ins = tensor.insert_slice %sl into %a[0, 0] [1, 3] [1, 1] : tensor<1x3xf32> into tensor<2x3xf32>
  %fe = tensor.from_elements %x, %x : tensor<2xf32>
  %in = tensor.insert %x into %fe[%i] : tensor<2xf32>
  %sp = tensor.splat %x : tensor<4xf32>
  %r = tensor.reshape %s(%sh) : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %pd = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%p: index, %q: index):
    tensor.yield %x : f32
  } : tensor<2x3xf32> to tensor<4x5xf32>
  %cc = tensor.concat dim(0) %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %mm = arith.maximumf %x, %x : f32
  %ab = math.absf %x : f32
  return
}
