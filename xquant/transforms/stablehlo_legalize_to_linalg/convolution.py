"""convolution (upstream: `StablehloToLinalgConvolution.cpp`)."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import cast

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ComplexType,
    DenseIntElementsAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.attributes import ConvDimensionNumbersAttr
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.dialects.upstream import linalg as upstream_linalg
from xquant.numerics.values import element_type
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    Ops,
    build_generic,
    discardable_attributes,
    empty,
    index_constant,
    parallel,
    reassociation,
)
from xquant.transforms.stablehlo_legalize_to_linalg.scalar_ops import (
    complex_constant,
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


def _canonical(numbers: ConvDimensionNumbersAttr) -> bool:
    """Upstream's `hasCanonicalDimensionNumbers`: `[b, 0.., f] x [0.., i, o] -> [b, 0.., f]`."""
    spatial = len(numbers.input_spatial)
    return (
        numbers.input_batch_dimension.data == 0
        and numbers.input_feature_dimension.data == spatial + 1
        and numbers.kernel_input_feature_dimension.data == spatial
        and numbers.kernel_output_feature_dimension.data == spatial + 1
        and numbers.output_batch_dimension.data == 0
        and numbers.output_feature_dimension.data == spatial + 1
        and list(numbers.input_spatial) == list(range(1, spatial + 1))
        and list(numbers.kernel_spatial) == list(range(spatial))
        and list(numbers.output_spatial) == list(range(1, spatial + 1))
    )


def _i64_vector(values: Sequence[int]) -> DenseIntElementsAttr:
    """`dense<[...]> : tensor<Nxi64>`, a named convolution's strides or dilations."""
    vector = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(values)]), values)
    return cast(DenseIntElementsAttr, vector)


def _zero(hoist: Ops, element: Attribute) -> SSAValue:
    """Upstream's zero of `element`: `complex.constant` for complex, else `arith.constant`."""
    if isa(element, ComplexType):
        return complex_constant(hoist, 0j, element)
    return scalar_constant(hoist, 0, element)


def _reshape_through_1d(ops: Ops, value: SSAValue, shape: Sequence[int]) -> SSAValue:
    """A static reshape as upstream's `stablehlo.reshape` lowering writes it: collapse to
    1-D, then expand to `shape`."""
    source = value.type
    assert isa(source, TensorType[Attribute])
    element = source.get_element_type()
    every = [list(range(len(source.get_shape())))]
    flat = ops.add(
        tensor.CollapseShapeOp.create(
            operands=[value],
            result_types=[TensorType(element, [prod(source.get_shape())])],
            properties={"reassociation": reassociation(every)},
        )
    )
    return ops.add(
        tensor.ExpandShapeOp(
            flat,
            [],
            reassociation([list(range(len(shape)))]),
            shape,
            TensorType(element, shape),
        )
    )


def _cached_zero(
    hoist: Ops, zeros: dict[Attribute, SSAValue], element: Attribute
) -> SSAValue:
    """The zero of `element` in `zeros`, built (in `hoist`) on first use."""
    if element not in zeros:
        zeros[element] = _zero(hoist, element)
    return zeros[element]


class LowerConvolution(RewritePattern):
    """convolution as upstream's `StablehloToLinalgConvolution.cpp`.

    - canonical dimension numbers (`[b, 0.., f] x [0.., i, o] -> [b, 0.., f]`), no
      groups: `linalg.matmul` (no spatial dims) or `linalg.conv_{1,2,3}d_n[d]hwc_[d]hwcf`
      into a zero-filled result (dynamic batch and output feature sizes by
      `tensor.dim`), the input padded first;
    - canonical, `feature_group_count` = input features (depthwise), 1-3 spatial
      dims: `linalg.depthwise_conv_*d_n[d]hwc_[d]hwc` with the filter's last two
      dims collapsed, or, with a channel multiplier, `..._[d]hwcm` on the filter
      reshaped to `[.., groups, multiplier]` (a collapse to 1-D and an expand, as
      upstream's reshape lowering) and the result's last two dims collapsed;
    - anything else: one `linalg.generic` over (batch, [group], out feature, out
      spatial, window, in feature); groups expand the input feature (batch) dim,
      the kernel's and the result's feature dims into (group, per group), and the
      result is collapsed back.

    Padding is a `tensor.pad` with zero; lhs dilation a strided `tensor.insert_slice`
    into a zero-filled tensor (upstream's `stablehlo.pad` with interior padding,
    lowered); negative padding a `tensor.extract_slice`; window reversal a copy
    reading `K - 1 - k` (upstream's `stablehlo.reverse`, lowered; upstream's
    depthwise pattern drops the reversal, here it is applied).

    Float and integer convolutions sum in the result type, operands cast to it,
    in the loops' order (window dims, then the input feature), as the named ops'
    definitions do; the interpreter sums in that order too. Integer operands
    into a float result sum in i64 and convert once. Complex convolutions are
    lowered to the named ops only; mixed, bool, unsigned and quantized ones are
    left as they are.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.ConvolutionOp, rewriter: PatternRewriter
    ) -> None:
        types = (op.lhs.type, op.rhs.type, op.result.type)
        if any(is_quantized(t) or signed_or_unsigned(t) for t in types):
            return
        lhs_element, rhs_element, element = (element_type(t) for t in types)
        is_complex = [
            isinstance(t, ComplexType) for t in (lhs_element, rhs_element, element)
        ]
        if any(is_complex) and not (
            all(is_complex) and lhs_element == rhs_element == element
        ):
            return
        accumulator = (
            element
            if all(is_complex)
            else self._accumulator(lhs_element, rhs_element, element)
        )
        if accumulator is None:
            return
        result_type = op.result.type
        assert isa(result_type, TensorType[Attribute])
        if is_static(result_type) and 0 in shape_of(result_type):
            rewriter.replace(
                op, [empty_op := tensor.EmptyOp([], result_type)], [empty_op.tensor]
            )
            return
        if accumulator == element:
            for lower in (self._normal, self._depthwise):
                lowered = lower(op)
                if lowered is not None:
                    ops, result = lowered
                    rewriter.replace(op, ops, [result])
                    return
        if all(is_complex) or not all(is_static(t) for t in types):
            return
        if any(0 in shape_of(t) for t in types):
            return
        self._general(op, accumulator, rewriter)

    @staticmethod
    def _normal(op: shlo.ConvolutionOp) -> tuple[list[Operation], SSAValue] | None:
        """Upstream's `NormalConvolutionOpConversion`."""
        numbers = op.dimension_numbers
        if not _canonical(numbers):
            return None
        if (
            op.feature_group_count.value.data != 1
            or op.batch_group_count.value.data != 1
        ):
            return None
        result_type = op.result.type
        assert isa(result_type, TensorType[Attribute])
        shape = list(result_type.get_shape())
        rank = len(shape)
        if rank > 5 or any(d == DYNAMIC_INDEX for d in shape[1:-1]):
            return None
        strides, padding, lhs_dilation, rhs_dilation, reversal = op.window()
        ops, hoist = Ops([]), Ops([])
        filter_ = LowerConvolution._reverse(
            ops, op.rhs, numbers.kernel_spatial, reversal
        )
        if filter_ is None:
            return None
        sizes: list[SSAValue] = []
        if shape[0] == DYNAMIC_INDEX:
            sizes.append(ops.add(tensor.DimOp(op.lhs, index_constant(ops, 0))))
        if shape[-1] == DYNAMIC_INDEX:
            sizes.append(ops.add(tensor.DimOp(filter_, index_constant(ops, rank - 1))))
        element = result_type.get_element_type()
        zeros: dict[Attribute, SSAValue] = {}
        zero = _cached_zero(hoist, zeros, element)
        init = ops.add(tensor.EmptyOp(sizes, result_type))
        filled = ops.add(linalg.FillOp([zero], [init], [result_type]))
        lhs = LowerConvolution._pad_and_dilate(
            ops, hoist, zeros, op.lhs, numbers.input_spatial, padding, lhs_dilation
        )
        if lhs is None:
            return None
        attributes = discardable_attributes(op)
        if rank == 2:
            conv: Operation = linalg.MatmulOp(
                [lhs, filter_], [filled], [result_type], attributes
            )
        else:
            conv = upstream_linalg.CHANNEL_LAST_CONV[(rank - 2, "f")](
                [lhs, filter_],
                [filled],
                [result_type],
                attributes,
                strides=_i64_vector(strides),
                dilations=_i64_vector(rhs_dilation),
            )
        result = ops.add(conv)
        return [*hoist.ops, *ops.ops], result

    @staticmethod
    def _depthwise(op: shlo.ConvolutionOp) -> tuple[list[Operation], SSAValue] | None:
        """Upstream's `DepthwiseConvolutionOpConversion`."""
        numbers = op.dimension_numbers
        groups = op.feature_group_count.value.data
        spatial = len(numbers.input_spatial)
        if op.batch_group_count.value.data != 1 or groups == 1 or not 1 <= spatial <= 3:
            return None
        lhs_shape, filter_shape = shape_of(op.lhs.type), shape_of(op.rhs.type)
        if lhs_shape[numbers.input_feature_dimension.data] != groups:
            return None
        if not _canonical(numbers):
            return None
        result_type = op.result.type
        assert isa(result_type, TensorType[Attribute])
        if not is_static(result_type) or not is_static(op.rhs.type):
            return None
        element = result_type.get_element_type()
        strides, padding, lhs_dilation, rhs_dilation, reversal = op.window()
        ops, hoist = Ops([]), Ops([])
        zeros: dict[Attribute, SSAValue] = {}
        zero = _cached_zero(hoist, zeros, element)
        lhs = LowerConvolution._pad_and_dilate(
            ops, hoist, zeros, op.lhs, numbers.input_spatial, padding, lhs_dilation
        )
        filter_ = LowerConvolution._reverse(
            ops, op.rhs, numbers.kernel_spatial, reversal
        )
        if lhs is None or filter_ is None:
            return None
        filter_element = element_type(op.rhs.type)
        attributes = discardable_attributes(op)
        windows = {
            "strides": _i64_vector(strides),
            "dilations": _i64_vector(rhs_dilation),
        }
        kernel_in, kernel_out = filter_shape[spatial], filter_shape[spatial + 1]
        shape = list(result_type.get_shape())
        if kernel_in * kernel_out != groups:
            # a channel multiplier: [.., 1, groups * m] -> [.., groups, m]
            reshaped = list(filter_shape)
            if kernel_in == 1:
                reshaped[spatial], reshaped[spatial + 1] = groups, kernel_out // groups
                filter_ = _reshape_through_1d(ops, filter_, reshaped)
            multiplier = reshaped[-1]
            out_shape = [*shape[:-1], shape[-1] // multiplier, multiplier]
            out_type = TensorType(element, out_shape)
            init = ops.add(tensor.EmptyOp([], out_type))
            filled = ops.add(linalg.FillOp([zero], [init], [out_type]))
            conv = ops.add(
                upstream_linalg.CHANNEL_LAST_CONV[(spatial, "m")](
                    [lhs, filter_], [filled], [out_type], attributes, **windows
                )
            )
            groups_list = [[d] for d in range(len(out_shape) - 1)]
            groups_list[-1].append(len(out_shape) - 1)
            result = ops.add(
                tensor.CollapseShapeOp.create(
                    operands=[conv],
                    result_types=[result_type],
                    properties={"reassociation": reassociation(groups_list)},
                )
            )
            return [*hoist.ops, *ops.ops], result
        init = ops.add(tensor.EmptyOp([], result_type))
        filled = ops.add(linalg.FillOp([zero], [init], [result_type]))
        collapsed_shape = [*filter_shape[:spatial], groups]
        groups_list = [[d] for d in range(spatial + 1)]
        groups_list[-1].append(spatial + 1)
        collapsed = ops.add(
            tensor.CollapseShapeOp.create(
                operands=[filter_],
                result_types=[TensorType(filter_element, collapsed_shape)],
                properties={"reassociation": reassociation(groups_list)},
            )
        )
        result = ops.add(
            upstream_linalg.CHANNEL_LAST_CONV[(spatial, "")](
                [lhs, collapsed], [filled], [result_type], attributes, **windows
            )
        )
        return [*hoist.ops, *ops.ops], result

    def _general(
        self, op: shlo.ConvolutionOp, accumulator: Attribute, rewriter: PatternRewriter
    ) -> None:
        """Upstream's `ConvolutionOpGeneralConversion`: one generic."""
        lhs_element, rhs_element, element = (
            element_type(t) for t in (op.lhs.type, op.rhs.type, op.result.type)
        )
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
        assert rhs is not None  # a static kernel
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
        zero = _cached_zero(hoist, zeros, accumulator)
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
        """The type the sum is in (the result's, as upstream; i64 for integer operands
        into a float result), or None where the interpreter's semantics are not mirrored."""
        integers = [isinstance(t, IntegerType) for t in (lhs, rhs, result)]
        if any(is_bool(t) for t in (lhs, rhs, result)):
            return None
        if all(integers):
            return result
        if integers[0] and integers[1]:
            return i64
        if not any(integers):
            return result
        return None

    @staticmethod
    def _reverse(
        ops: Ops, value: SSAValue, spatial_dims: Sequence[int], reversal: Sequence[bool]
    ) -> SSAValue | None:
        """The kernel flipped along its reversed window dims (a copy reading `K - 1 - k`);
        None for a dynamic kernel.

        A separate generic: in the convolution's own maps a window dim would then
        appear only inside sums, and linalg needs every loop dim as a plain result.
        """
        if not any(reversal):
            return value
        source = value.type
        assert isa(source, TensorType[Attribute])
        if not is_static(source):
            return None
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
        """The input with interior (lhs dilation) and edge padding of zeros; None if cropped
        to nothing, or padded with a dynamic shape."""
        if all(p == (0, 0) for p in padding) and all(d == 1 for d in dilation):
            return value
        source = value.type
        assert isa(source, TensorType[Attribute])
        if not is_static(source):
            return None
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
                zero = _cached_zero(hoist, zeros, element)
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
            zero = _cached_zero(hoist, zeros, element)
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
