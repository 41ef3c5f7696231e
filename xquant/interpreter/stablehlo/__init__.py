"""Interpreter implementations of the `stablehlo` dialect, on numpy arrays.

Values: a tensor is a numpy array (0-d for rank 0); a tensor of
`!quant.uniform` holds its storage integers. Quantized semantics follow the
spec and the project's numeric contract (`xquant.numerics.uniform`):

- element-wise ops, compare, select, clamp: dequantize the quantized
  operands, compute in the expressed type, quantize into the result type
  (`dequantize_op_quantize`);
- dot_general, convolution with quantized operands and result: an exact
  integer sum of zero-centred storage values, rescaled once in float64
  (`uniform.contraction_rescale`), as `stablehlo-legalize-quant-to-math`
  lowers them, so both agree bit for bit; where that form does not apply,
  and for hybrid ops (float lhs: only the rhs is dequantized), floats as above;
- data movement (reshape, transpose, gather, ...) moves storage integers;
- reduce / reduce_window / select_and_scatter first convert inputs and init
  values to the body's (possibly wider) accumulator type (a requantize for
  quantized types), then run the body, vectorized over whole arrays, as a
  binary tree; results keep the accumulator type.

The modules mirror `xquant.dialects.stablehlo`, one op family each (`constant`,
`elementwise`, `quantize_ops`, `structural`, `dot_conv`, `reductions`,
`data_movement`), on shared pieces: `values` (storage arrays and element-type
conversions), `elementwise_kernels` (the kernel tables), `reduction_bodies`
(bodies run on whole arrays) and `kernels` (gather, dot_general, convolution,
windows). `xquant.interpreter.check` holds the check ops and
`custom_call @check.*`'s comparisons and recording.
"""
