"""convolution (upstream: `StablehloToLinalgConvolution.cpp`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    ComplexType,
    IndexType,
    IntegerType,
    TensorType,
    f64,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.numerics.values import element_type
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    Ops,
    build_generic,
    discardable_attributes,
    empty,
    parallel,
    reassociation,
)
from xquant.transforms.stablehlo_legalize_to_linalg.scalar_ops import (
    convert_tensor,
    emit_convert,
)
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    is_bool,
    is_float,
    signed_or_unsigned,
)
from xquant.transforms.utils.quant_emitters import scalar_constant
from xquant.transforms.utils.stablehlo_emitters import is_static, shape_of


def expand_dim(ops: Ops, value: SSAValue, dim: int, groups: int) -> SSAValue:
    """`tensor.expand_shape` of dimension `dim` into (groups, size / groups)."""
    source = value.type
    assert isa(source, TensorType[Attribute])
    shape = list(source.get_shape())
    rank = len(shape)
    expanded = [*shape[:dim], groups, shape[dim] // groups, *shape[dim + 1 :]]
    groups_list = [[d + (d > dim)] for d in range(rank)]
    groups_list[dim] = [dim, dim + 1]
    return ops.add(
        tensor.ExpandShapeOp(
            value,
            [],
            reassociation(groups_list),
            expanded,
            TensorType(source.get_element_type(), expanded),
        )
    )


class LowerConvolution(RewritePattern):
    """Pad / dilate the input, then one generic over (batch, [group], out feature, out spatial, window, in feature).

    - padding: `tensor.pad` with zero; lhs dilation: a strided `tensor.insert_slice`
      into a zero-filled tensor (padding becomes its offset); negative padding a
      `tensor.extract_slice` crop afterwards;
    - the input map reads `o * stride + k * rhs_dilation` (`K - 1 - k` on
      reversed window dims), the layouts folded into the maps;
    - feature_group_count / batch_group_count: the input feature (batch) dim,
      the kernel output feature dim and the result feature dim are expanded into
      (group, per group) so every map stays a plain affine map, and the result
      is collapsed back;
    - accumulation: integer operands into an integer result accumulate in the
      result type (wrapping, as the interpreter's int64 sum converted to it),
      into a float result in i64 and convert once; float operands accumulate in
      f64 and round once (the interpreter sums in f64 too, in another order).
    """

    @staticmethod
    def _is_matmul(op: shlo.ConvolutionOp) -> bool:
        """No spatial dims, no groups, `[b, f] x [i, o] -> [b, f]`: upstream's 0-d conv."""
        n = op.dimension_numbers
        return (
            not n.input_spatial
            and op.feature_group_count.value.data == 1
            and op.batch_group_count.value.data == 1
            and (n.input_batch_dimension.data, n.input_feature_dimension.data) == (0, 1)
            and (
                n.kernel_input_feature_dimension.data,
                n.kernel_output_feature_dimension.data,
            )
            == (0, 1)
            and (n.output_batch_dimension.data, n.output_feature_dimension.data)
            == (0, 1)
        )

    @staticmethod
    def _lower_matmul(op: shlo.ConvolutionOp, rewriter: PatternRewriter) -> None:
        """`linalg.matmul` into a zero-filled result, summing in the result type as upstream."""
        result_type = op.result.type
        assert isa(result_type, TensorType[Attribute])
        ops, hoist = Ops([]), Ops([])
        zero = scalar_constant(hoist, 0, result_type.get_element_type())
        filled = ops.add(
            linalg.FillOp([zero], [empty(ops, result_type)], [result_type])
        )
        result = ops.add(
            linalg.MatmulOp(
                [op.lhs, op.rhs], [filled], [result_type], discardable_attributes(op)
            )
        )
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.ConvolutionOp, rewriter: PatternRewriter
    ) -> None:
        types = (op.lhs.type, op.rhs.type, op.result.type)
        if any(
            is_quantized(t) or signed_or_unsigned(t) or not is_static(t) for t in types
        ):
            return
        if any(0 in shape_of(t) for t in types):
            return
        lhs_element, rhs_element, element = (element_type(t) for t in types)
        if any(isinstance(t, ComplexType) for t in (lhs_element, rhs_element, element)):
            return  # no complex lowering here (its zero is no FloatAttr): left as is
        if self._is_matmul(op) and not is_bool(element):
            self._lower_matmul(op, rewriter)
            return
        accumulator = self._accumulator(lhs_element, rhs_element, element)
        if accumulator is None:
            return
        groups, batch_groups = (
            op.feature_group_count.value.data,
            op.batch_group_count.value.data,
        )
        numbers = op.dimension_numbers
        lhs_shape, rhs_shape = shape_of(op.lhs.type), shape_of(op.rhs.type)
        result_type = op.result.type
        assert isa(result_type, TensorType)
        result_shape = list(result_type.get_shape())
        out_features = rhs_shape[numbers.kernel_output_feature_dimension.data]
        if groups > 1 and batch_groups > 1:
            return
        count = max(groups, batch_groups)
        if (
            out_features % count
            or lhs_shape[numbers.input_feature_dimension.data] % groups
            or lhs_shape[numbers.input_batch_dimension.data] % batch_groups
        ):
            return
        strides, padding, lhs_dilation, rhs_dilation, reversal = op.window()
        ops, hoist = Ops([]), Ops([])
        zeros: dict[Attribute, SSAValue] = {}
        lhs = self._pad_and_dilate(
            ops, hoist, zeros, op.lhs, numbers.input_spatial, padding, lhs_dilation
        )
        if lhs is None:
            ops.discard()
            hoist.discard()
            return
        rhs = self._reverse(ops, op.rhs, numbers.kernel_spatial, reversal)
        kernel_out = numbers.kernel_output_feature_dimension.data
        lhs_batch = numbers.input_batch_dimension.data
        lhs_feature = numbers.input_feature_dimension.data
        out_feature = numbers.output_feature_dimension.data
        if count > 1:
            rhs = expand_dim(ops, rhs, kernel_out, count)
            expanded = lhs_batch if batch_groups > 1 else lhs_feature
            lhs = expand_dim(ops, lhs, expanded, count)
        # loops: batch, [group], out feature (per group), out spatial..., window..., in feature
        spatial = len(numbers.input_spatial)
        grouped = 1 if count > 1 else 0
        batch_d = AffineExpr.dimension(0)
        group_d = AffineExpr.dimension(1)
        feature_d = AffineExpr.dimension(1 + grouped)
        out_d = [AffineExpr.dimension(2 + grouped + j) for j in range(spatial)]
        window_d = [
            AffineExpr.dimension(2 + grouped + spatial + j) for j in range(spatial)
        ]
        in_feature_d = AffineExpr.dimension(2 + grouped + 2 * spatial)
        loops = 3 + grouped + 2 * spatial
        n_parallel = 2 + grouped + spatial

        def operand_map(
            placed: Sequence[tuple[int, AffineExpr]],
            spatial_dims: Sequence[int],
            spatial_exprs: Sequence[AffineExpr],
            split: int,
        ) -> AffineMap:
            """The map of an operand of `spatial + 2` dims: `placed` (dim, expr) pairs and
            the spatial exprs at their dims, dim `split` split into (group, rest) when
            there are groups."""
            exprs: list[AffineExpr] = [AffineExpr.constant(0)] * (spatial + 2)
            for d, expr in placed:
                exprs[d] = expr
            for d, expr in zip(spatial_dims, spatial_exprs, strict=True):
                exprs[d] = expr
            if count > 1:
                exprs.insert(split, group_d)
            return AffineMap(loops, 0, tuple(exprs))

        lhs_map = operand_map(
            [(lhs_batch, batch_d), (lhs_feature, in_feature_d)],
            numbers.input_spatial,
            [
                out_d[j] * strides[j] + window_d[j] * rhs_dilation[j]
                for j in range(spatial)
            ],
            lhs_batch if batch_groups > 1 else lhs_feature,
        )
        rhs_map = operand_map(
            [
                (numbers.kernel_input_feature_dimension.data, in_feature_d),
                (kernel_out, feature_d),
            ],
            numbers.kernel_spatial,
            window_d,
            kernel_out,
        )
        out_map = operand_map(
            [(numbers.output_batch_dimension.data, batch_d), (out_feature, feature_d)],
            numbers.output_spatial,
            out_d,
            out_feature,
        )
        acc_shape = list(result_shape)
        if count > 1:
            acc_shape[out_feature : out_feature + 1] = [count, out_features // count]
        acc_type = TensorType(accumulator, acc_shape)
        zero = (
            zeros[accumulator]
            if accumulator in zeros
            else scalar_constant(hoist, 0, accumulator)
        )
        init = ops.add(linalg.FillOp([zero], [empty(ops, acc_type)], [acc_type]))
        iterators = [
            *parallel(n_parallel),
            *[IteratorTypeAttr(IteratorType.REDUCTION)] * (spatial + 1),
        ]

        def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
            a = emit_convert(body_ops, hoist, args[0], lhs_element, accumulator)
            b = emit_convert(body_ops, hoist, args[1], rhs_element, accumulator)
            if is_float(accumulator):
                product = body_ops.add(arith.MulfOp(a, b))
                return [body_ops.add(arith.AddfOp(args[2], product))]
            product = body_ops.add(arith.MuliOp(a, b))
            return [body_ops.add(arith.AddiOp(args[2], product))]

        (acc,) = build_generic(
            ops, [lhs, rhs], [lhs_map, rhs_map], [init], [out_map], iterators, body
        )
        if count > 1:
            groups_list = [[d + (d > out_feature)] for d in range(len(result_shape))]
            groups_list[out_feature] = [out_feature, out_feature + 1]
            acc = ops.add(
                tensor.CollapseShapeOp.create(
                    operands=[acc],
                    result_types=[TensorType(accumulator, result_shape)],
                    properties={"reassociation": reassociation(groups_list)},
                )
            )
        if accumulator != element:
            acc = convert_tensor(ops, acc, result_type)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [acc])

    @staticmethod
    def _accumulator(
        lhs: Attribute, rhs: Attribute, result: Attribute
    ) -> Attribute | None:
        """The accumulator type, or None where the interpreter's semantics are not mirrored."""
        integers = [isinstance(t, IntegerType) for t in (lhs, rhs, result)]
        if any(is_bool(t) for t in (lhs, rhs, result)):
            return None
        if all(integers):
            return result
        if integers[0] and integers[1]:
            return i64
        if not any(integers):
            return f64
        return None

    @staticmethod
    def _reverse(
        ops: Ops, value: SSAValue, spatial_dims: Sequence[int], reversal: Sequence[bool]
    ) -> SSAValue:
        """The kernel flipped along its reversed window dims (a copy reading `K - 1 - k`).

        A separate generic: in the convolution's own maps a window dim would then
        appear only inside sums, and linalg needs every loop dim as a plain result.
        """
        if not any(reversal):
            return value
        source = value.type
        assert isa(source, TensorType[Attribute])
        shape = list(source.get_shape())
        rank = len(shape)
        exprs = [AffineExpr.dimension(d) for d in range(rank)]
        for d, flip in zip(spatial_dims, reversal, strict=True):
            if flip:
                exprs[d] = AffineExpr.dimension(d) * -1 + (shape[d] - 1)
        (result,) = build_generic(
            ops,
            [value],
            [AffineMap(rank, 0, tuple(exprs))],
            [empty(ops, source)],
            [AffineMap.identity(rank)],
            parallel(rank),
            lambda args, _: [args[0]],
        )
        return result

    @staticmethod
    def _pad_and_dilate(
        ops: Ops,
        hoist: Ops,
        zeros: dict[Attribute, SSAValue],
        value: SSAValue,
        spatial_dims: Sequence[int],
        padding: Sequence[tuple[int, int]],
        dilation: Sequence[int],
    ) -> SSAValue | None:
        """The input with interior (lhs dilation) and edge padding of zeros; None if cropped to nothing."""
        source = value.type
        assert isa(source, TensorType[Attribute])
        element = source.get_element_type()
        shape = list(source.get_shape())
        low, high, step = [0] * len(shape), [0] * len(shape), [1] * len(shape)
        for d, (lo, hi), s in zip(spatial_dims, padding, dilation, strict=True):
            low[d], high[d], step[d] = lo, hi, s
        dilated = [(n - 1) * s + 1 for n, s in zip(shape, step, strict=True)]
        if any(n + lo + hi <= 0 for n, lo, hi in zip(dilated, low, high, strict=True)):
            return None
        positive_low = [max(lo, 0) for lo in low]
        positive_high = [max(hi, 0) for hi in high]
        padded_shape = [
            n + lo + hi
            for n, lo, hi in zip(dilated, positive_low, positive_high, strict=True)
        ]
        if all(s == 1 for s in step):
            if any(positive_low) or any(positive_high):
                zero = zeros[element] = scalar_constant(hoist, 0, element)
                block = Block(arg_types=[IndexType()] * len(shape))
                block.add_op(tensor.YieldOp(zero))
                value = ops.add(
                    tensor.PadOp(
                        value,
                        [],
                        [],
                        Region(block),
                        positive_low,
                        positive_high,
                        TensorType(element, padded_shape),
                    )
                )
        else:
            padded_type = TensorType(element, padded_shape)
            zero = zeros[element] = scalar_constant(hoist, 0, element)
            filled = ops.add(
                linalg.FillOp([zero], [empty(ops, padded_type)], [padded_type])
            )
            value = ops.add(
                tensor.InsertSliceOp.from_static_parameters(
                    value, filled, positive_low, shape, step
                )
            )
        if any(lo < 0 for lo in low) or any(hi < 0 for hi in high):
            sizes = [n + lo + hi for n, lo, hi in zip(dilated, low, high, strict=True)]
            value = ops.add(
                tensor.ExtractSliceOp.from_static_parameters(
                    value, [max(-lo, 0) for lo in low], sizes
                )
            )
        return value
