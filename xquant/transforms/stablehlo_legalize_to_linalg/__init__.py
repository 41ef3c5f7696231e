"""`stablehlo-legalize-to-linalg`: the StableHLO subset on integers and floats to linalg/arith/math/tensor.

Run after `stablehlo-legalize-quant-to-math`, a quantized program becomes
upstream-valid linalg that the interpreter runs with the same numbers:

- element-wise ops, clamp, compare, select, convert, bitcast_convert,
  is_finite, complex, reduce_precision: one all-parallel `linalg.generic`
  (`linalg.map` under `enable-primitive-ops`) whose body is the scalar
  arith/math/complex op (rank-0 operands such as clamp bounds are extracted
  or broadcast through an empty map); complex element types use the
  `complex` dialect, unsigned ones are cast to signless tensors
  (`unrealized_conversion_cast`) and use unsigned arith ops; dynamic sizes
  come from `tensor.dim`;
- constant: `arith.constant`; broadcast_in_dim: a generic whose input map
  drops (or pins to 0) the broadcast dimensions; transpose:
  `linalg.transpose`; reshape: one `tensor.collapse_shape` or `tensor.expand_shape` where a single one does it (upstream's reassociation; rank 0 with `[]`), else collapse to 1-D and expand; transpose of dynamic shapes sizes its `tensor.empty` with `tensor.dim`;
  concatenate: `tensor.concat`; slice: `tensor.extract_slice`;
- dot, dot_general: as upstream, `linalg.matmul`/`matvec`/`vecmat`/`dot` for
  a simple dot, `linalg.batch_matmul` for `[b,m,k] x [b,k,n]`, otherwise one
  `linalg.generic` over (batch, lhs free, rhs free, contracting) with
  reduction iterators; the sum is in the result's element type (i8 x i8 ->
  i32 accumulates in i32; f32 in f32, in loop order, where the interpreter's
  `stablehlo.dot_general` rounds an f64 sum once); dot_general with an
  `algorithm` is left as it is;
- reduce: the init value broadcast to the result, then a `linalg.generic` with
  reduction iterators whose body is the reducer's scalar ops (so a wide
  accumulator stays wide); reduce_window: `tensor.pad` with the init value,
  then a generic over (output, window) dims with `d * stride + w * dilation`
  maps and a window-shaped operand, or (f32 NHWC/NDHWC windows reduced by
  one add/max/min, as upstream) `linalg.pooling_n[d]hwc_{sum,max,min}`;
  einsum: one generic over its labels;
- convolution: the input padded (`tensor.pad`) or dilated (a strided
  `tensor.insert_slice` into zeros), the kernel flipped by a copy generic
  where the window is reversed, then one generic over (batch, [group], output
  feature, output spatial, window, input feature) with `o * stride + k *
  dilation` input maps; feature/batch groups expand the grouped dims with
  `tensor.expand_shape` so the maps stay affine. Integer results accumulate in
  the result type (float results from integers in i64), floats in f64;
- gather: one all-parallel generic over the result with no inputs (as
  upstream): `linalg.index` gives the result position, each start index is
  a `tensor.extract` from the indices, `arith.index_cast` and clamped to
  `[0, operand_dim - slice_size]`, batching and offset dims add result dims,
  and the element is a `tensor.extract` of the operand;
- iota: a generic with no inputs yielding `linalg.index` cast to the
  element's width (then `sitofp`, or `complex.create` with a zero imaginary
  part); reverse: a copy generic reading `n - 1 - d`; pad: `tensor.pad`, or
  with interior padding `linalg.fill` + a strided `tensor.insert_slice`,
  negative edges cropped by `tensor.extract_slice`; dynamic_slice,
  dynamic_update_slice: `tensor.extract_slice`/`insert_slice` at start
  indices clamped to `[0, dim - size]` (unsigned starts: one `arith.minui`,
  where upstream's signed clamp sends a ui64 start >= 2^63 to 0); map: a
  generic (`linalg.map` under `enable-primitive-ops`) whose body is the
  computation's scalar ops.

Semantics kept from StableHLO (and the interpreter): float -> integer convert
truncates, saturates and maps NaN to 0 (select + clamp before `fptosi`;
i32 goes through f64 so its bounds are exact); compare uses ordered
predicates except NE. Constants are created before the generics (never in
bodies). select_and_scatter: upstream's two generics and collapse, with the
spec's tie rule (the first of equal elements), padding and overlapping windows
(`select_and_scatter.py`). Ops outside the subset (
custom_call, integer power, base dilations, i1 or float -> integer
convolutions; dynamic shapes for iota, pad, dynamic_update_slice and a
reversed dim; an iota whose index cast would wrap for float or i1 results)
are left as they are. Under `enable-primitive-ops` iota stays a generic:
xDSL's `linalg.index` may only sit in a `linalg.generic`.
"""

from xquant.transforms.stablehlo_legalize_to_linalg.pass_ import (
    StablehloLegalizeToLinalgPass,
)
from xquant.transforms.stablehlo_legalize_to_linalg.scalar_ops import emit_scalar

__all__ = ["StablehloLegalizeToLinalgPass", "emit_scalar"]
