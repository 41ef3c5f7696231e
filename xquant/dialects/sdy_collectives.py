"""Shardy's collectives: explicit communication in a globally-shaped program.

    %1 = sdy.all_gather [{"b"}, {}] %0 out_sharding=<@mesh, [{"a"}, {}]> : T
    %2 = sdy.all_slice [{}, {"c"}] %1 out_sharding=<@mesh, [{"a"}, {"c"}]> : T
    %3 = sdy.all_to_all [{"a"}: 0->1] %2 out_sharding=<@mesh, [{}, {"c", "a"}]> : T
    %4 = sdy.collective_permute %3 out_sharding=<@mesh, [{}, {"a", "c"}]> : T
    %5 = sdy.all_reduce max {"b"} %4 out_sharding=<@mesh, [{}, {"a", "c"}]> : T
    %6 = sdy.reduce_scatter [{}, {"b"}] %5 out_sharding=<...> : T

Each takes the sharding of its operand (from the op defining it, Shardy's
`getSharding`) to `out_sharding`; types are the global ones. Syntax and
messages as Shardy's ops.td, attrs.td and verifiers.cc. Every collective keeps
the global value (its operand and result have the same, global type; an
"unreduced" tensor's value is the reduction of its per-device parts), so a
program run on one device, which holds the global values, computes it as the
identity.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    IntAttr,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Operation,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    param_def,
    prop_def,
    result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xdsl.utils.str_enum import StrEnum

from xquant.dialects.sdy import (
    AxisRefAttr,
    DimensionShardingAttr,
    MeshAttr,
    TensorShardingAttr,
    axis_bounds,
    can_merge,
    op_errors,
    parse_axis_ref,
    parse_tensor_sharding,
    sorted_wrt_mesh,
    value_sharding,
    verify_axis_list,
    verify_sharding,
    verify_unreduced_transition,
)

__all__ = [
    "AllGatherOp",
    "AllReduceOp",
    "AllSliceOp",
    "AllToAllOp",
    "AllToAllParamAttr",
    "AllToAllParamListAttr",
    "AxisRefListAttr",
    "CollectiveOp",
    "CollectivePermuteOp",
    "ListOfAxisRefListsAttr",
    "ReduceScatterOp",
    "ReductionKind",
    "ReductionOpAttr",
    "ReplicatedToUnreducedOp",
    "ShardedToUnreducedOp",
    "value_sharding",
]


# ----- attributes ------------------------------------------------------------------


def _print_axes(printer: Printer, axes: Sequence[AxisRefAttr]) -> None:
    printer.print_string("{")
    printer.print_list(axes, lambda axis: axis.print_bare(printer))
    printer.print_string("}")


def _parse_axes(parser: AttrParser) -> list[AxisRefAttr]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.BRACES, lambda: parse_axis_ref(parser)
    )


@irdl_attr_definition
class AxisRefListAttr(ParametrizedAttribute):
    """`{"x", "y":(1)2}`: a list of axis refs."""

    name = "sdy.axis_ref_list"

    axes: ArrayAttr[AxisRefAttr] = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (ArrayAttr(_parse_axes(parser)),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_axes(printer, self.axes.data)


def _parse_axis_ref_list(parser: AttrParser) -> AxisRefListAttr:
    return AxisRefListAttr(ArrayAttr(_parse_axes(parser)))


@irdl_attr_definition
class ListOfAxisRefListsAttr(ParametrizedAttribute):
    """`[{"x"}, {}]`: one axis list per dimension."""

    name = "sdy.list_of_axis_ref_lists"

    lists: ArrayAttr[AxisRefListAttr] = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (_parse_list_of_lists(parser).lists,)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_bare(printer)

    def print_bare(self, printer: Printer) -> None:
        printer.print_string("[")
        printer.print_list(self.lists.data, lambda a: _print_axes(printer, a.axes.data))
        printer.print_string("]")


def _parse_list_of_lists(parser: AttrParser) -> ListOfAxisRefListsAttr:
    lists = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: _parse_axis_ref_list(parser)
    )
    return ListOfAxisRefListsAttr(ArrayAttr(lists))


@irdl_attr_definition
class AllToAllParamAttr(ParametrizedAttribute):
    """`{"x"}: 0->1`: move axes from a source to a target dimension."""

    name = "sdy.all_to_all_param"

    axes: ArrayAttr[AxisRefAttr] = param_def()
    src_dim: IntAttr = param_def()
    tgt_dim: IntAttr = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return _parse_all_to_all_param(parser).parameters

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_bare(printer)

    def print_bare(self, printer: Printer) -> None:
        _print_axes(printer, self.axes.data)
        printer.print_string(f": {self.src_dim.data}->{self.tgt_dim.data}")


def _parse_all_to_all_param(parser: AttrParser) -> AllToAllParamAttr:
    axes = _parse_axes(parser)
    parser.parse_punctuation(":")
    src = parser.parse_integer(allow_boolean=False)
    parser.parse_punctuation("->")
    tgt = parser.parse_integer(allow_boolean=False)
    return AllToAllParamAttr(ArrayAttr(axes), IntAttr(src), IntAttr(tgt))


@irdl_attr_definition
class AllToAllParamListAttr(ParametrizedAttribute):
    """`[{"x"}: 0->1, {"y"}: 2->3]`."""

    name = "sdy.all_to_all_param_list"

    params: ArrayAttr[AllToAllParamAttr] = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (_parse_param_list(parser).params,)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_bare(printer)

    def print_bare(self, printer: Printer) -> None:
        printer.print_string("[")
        printer.print_list(self.params.data, lambda p: p.print_bare(printer))
        printer.print_string("]")


def _parse_param_list(parser: AttrParser) -> AllToAllParamListAttr:
    params = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: _parse_all_to_all_param(parser)
    )
    return AllToAllParamListAttr(ArrayAttr(params))


class ReductionKind(StrEnum):
    SUM = "sum"
    MAX = "max"
    MIN = "min"


@irdl_attr_definition
class ReductionOpAttr(EnumAttribute[ReductionKind], SpacedOpaqueSyntaxAttribute):
    """`#sdy<reduction_op max>`."""

    name = "sdy.reduction_op"


# ----- axis arithmetic (Shardy's AxisRefAttr methods) ------------------------------


def _axis(name: str, pre: int, size: int, mesh: MeshAttr) -> AxisRefAttr:
    if pre == 1 and size == mesh.axis_sizes.get(name):
        return AxisRefAttr(StringAttr(name), NoneAttr(), NoneAttr())
    return AxisRefAttr(StringAttr(name), IntAttr(pre), IntAttr(size))


def _is_sub_axis(axis: AxisRefAttr) -> bool:
    return isinstance(axis.pre_size, IntAttr)


def _overlaps(a: AxisRefAttr, b: AxisRefAttr, mesh: MeshAttr) -> bool:
    if a.axis_name != b.axis_name:
        return False
    if not _is_sub_axis(a) or not _is_sub_axis(b):
        return True
    (a0, a1), (b0, b1) = axis_bounds(a, mesh), axis_bounds(b, mesh)
    return a0 < b1 and b0 < a1


def _suffix_of(a: AxisRefAttr, b: AxisRefAttr, mesh: MeshAttr) -> bool:
    """`a` is a suffix of `b` (contained in it, ending where it ends)."""
    if a.axis_name != b.axis_name:
        return False
    (a0, a1), (b0, b1) = axis_bounds(a, mesh), axis_bounds(b, mesh)
    return a1 == b1 and a0 >= b0 and a0 % b0 == 0


def _add_or_merge(axes: list[AxisRefAttr], axis: AxisRefAttr, mesh: MeshAttr) -> None:
    if axes and can_merge(axes[-1], axis, mesh):
        pre, _ = axis_bounds(axes[-1], mesh)
        _, end = axis_bounds(axis, mesh)
        axes[-1] = _axis(axis.axis_name.data, pre, end // pre, mesh)
    else:
        axes.append(axis)


def _axes_text(axes: Sequence[AxisRefAttr]) -> str:
    return "[" + ", ".join(axis.text() for axis in axes) + "]"


# ----- the sharding of a value (Shardy's getSharding) ------------------------------


def _equivalent(a: TensorShardingAttr, b: TensorShardingAttr) -> bool:
    """Shardy's `isEquivalent(..., ignoreUnreducedAxes=true)`."""

    def replicated(s: TensorShardingAttr) -> bool:
        return all(not d.axes.data for d in s.dim_shardings.data)

    if replicated(a):
        return replicated(b)
    return a.mesh_or_ref == b.mesh_or_ref and [
        d.axes for d in a.dim_shardings.data
    ] == [d.axes for d in b.dim_shardings.data]


def _replicated_like(sharding: TensorShardingAttr, rank: int) -> TensorShardingAttr:
    """Shardy's `getOrCreateSharding`: fully replicated on the same mesh."""
    closed = DimensionShardingAttr(ArrayAttr(()), BoolAttr.from_bool(True), NoneAttr())
    return TensorShardingAttr(
        sharding.mesh_or_ref,
        ArrayAttr([closed] * rank),
        ArrayAttr(()),
        ArrayAttr(()),
        StringAttr("sum"),
    )


# ----- ops -------------------------------------------------------------------------


class CollectiveOp(IRDLOperation):
    """`[axes] %x out_sharding=<...> : T`; result and operand types are equal."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    tensor = operand_def(T)
    out_sharding = prop_def(TensorShardingAttr)
    result = result_def(T)

    ALLOW_MISSING_INPUT_SHARDING: ClassVar[bool] = False
    ALLOW_DIFFERENT_MESHES: ClassVar[bool] = False

    # -- assembly: `<prefix> %x out_sharding=<...> attr-dict : T` --

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        return {}

    def print_prefix(self, printer: Printer) -> None:
        return None

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        properties = cls.parse_prefix(parser)
        operand = parser.parse_unresolved_operand()
        parser.parse_keyword("out_sharding")
        parser.parse_punctuation("=")
        properties["out_sharding"] = parse_tensor_sharding(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        typ = parser.parse_type()
        (value,) = parser.resolve_operands([operand], [typ], parser.pos)
        return cls.create(
            operands=[value],
            result_types=[typ],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.print_prefix(printer)
        printer.print_operand(self.tensor)
        printer.print_string(" out_sharding=")
        self.out_sharding.print_parameters(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    # -- semantics --

    def mesh(self) -> MeshAttr | None:
        return self.out_sharding.mesh(self)

    def collective_axes(self) -> list[AxisRefAttr]:
        """The mesh axes this collective communicates over."""
        raise NotImplementedError

    def operand_sharding(self) -> TensorShardingAttr:
        sharding = value_sharding(self.tensor)
        if sharding is None:
            return _replicated_like(self.out_sharding, self.out_sharding.rank)
        return sharding

    @op_errors
    def verify_(self) -> None:
        """Shardy's `verifyCollectiveOp`, then the op's own checks."""
        operand = value_sharding(self.tensor)
        if operand is None and not self.ALLOW_MISSING_INPUT_SHARDING:
            raise VerifyException("collective on operand without sharding")
        verify_sharding(self.out_sharding, self.result.type, self)
        mesh = self.mesh()
        assert mesh is not None
        if operand is not None and not self.ALLOW_DIFFERENT_MESHES:
            operand_mesh = operand.mesh(self)
            if operand_mesh is not None and operand_mesh != mesh:
                raise VerifyException("result mesh does not match operand mesh")
        if operand is not None and operand.rank != self.out_sharding.rank:
            raise VerifyException(
                f"result sharding has rank {self.out_sharding.rank} but operand "
                f"sharding has rank {operand.rank}"
            )
        self.verify_collective(mesh)

    def verify_collective(self, mesh: MeshAttr) -> None:
        return None


class _AxesPerDimOp(CollectiveOp):
    """A collective with one axis list per dimension (`[{"x"}, {}]`)."""

    PROPERTY: ClassVar[str]

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        return {cls.PROPERTY: _parse_list_of_lists(parser)}

    def print_prefix(self, printer: Printer) -> None:
        self.axes_per_dim().print_bare(printer)
        printer.print_string(" ")

    def axes_per_dim(self) -> ListOfAxisRefListsAttr:
        value = self.properties[self.PROPERTY]
        assert isinstance(value, ListOfAxisRefListsAttr)
        return value

    def collective_axes(self) -> list[AxisRefAttr]:
        return [axis for dim in self.axes_per_dim().lists for axis in dim.axes]

    def expected_dim(
        self,
        operand: DimensionShardingAttr,
        axes: Sequence[AxisRefAttr],
        dim: int,
        mesh: MeshAttr,
    ) -> list[AxisRefAttr]:
        raise NotImplementedError

    def verify_collective(self, mesh: MeshAttr) -> None:
        """Shardy's `verifyCollectiveWithAxesPerDim`."""
        seen: set[str] = set()
        lists = self.axes_per_dim().lists.data
        for axes in lists:
            verify_axis_list(axes.axes.data, mesh, seen)
        result_dims = self.out_sharding.dim_shardings.data
        if len(result_dims) != len(lists):
            raise VerifyException(
                f"result sharding has rank {len(result_dims)} but collective axes "
                f"has rank {len(lists)}"
            )
        operand_dims = self.operand_sharding().dim_shardings.data
        for dim, (operand_dim, axes) in enumerate(
            zip(operand_dims, lists, strict=True)
        ):
            expected = self.expected_dim(operand_dim, axes.axes.data, dim, mesh)
            if expected != list(result_dims[dim].axes.data):
                raise VerifyException(
                    "result sharding doesn't match expected sharding "
                    f"{_axes_text(expected)} on dimension {dim}"
                )


def _gather_along_dim(
    operand: DimensionShardingAttr,
    axes: Sequence[AxisRefAttr],
    dim: int,
    mesh: MeshAttr,
    kind: str,
) -> list[AxisRefAttr]:
    """Shardy's `gatherAxesAlongDim`: remove `axes` from the end of the dim."""
    expected = list(operand.axes.data)
    for axis in reversed(axes):
        if not expected or not _suffix_of(axis, expected[-1], mesh):
            raise VerifyException(
                f"can't apply {kind} axis {axis.text()} to operand sharding on "
                f"dimension {dim}"
            )
        last = expected.pop()
        (last_pre, _), (axis_pre, _) = axis_bounds(last, mesh), axis_bounds(axis, mesh)
        if last_pre < axis_pre:
            expected.append(
                _axis(last.axis_name.data, last_pre, axis_pre // last_pre, mesh)
            )
    return expected


def _slice_along_dim(
    operand: DimensionShardingAttr, axes: Sequence[AxisRefAttr], mesh: MeshAttr
) -> list[AxisRefAttr]:
    """Shardy's `sliceAxesAlongDim`: append `axes` to the dim (merging)."""
    expected = list(operand.axes.data)
    for axis in axes:
        _add_or_merge(expected, axis, mesh)
    return expected


@irdl_op_definition
class AllGatherOp(_AxesPerDimOp):
    """Gathers a tensor along the axes of each dimension."""

    name = "sdy.all_gather"
    PROPERTY: ClassVar[str] = "gathering_axes"

    gathering_axes = prop_def(ListOfAxisRefListsAttr)

    def expected_dim(
        self,
        operand: DimensionShardingAttr,
        axes: Sequence[AxisRefAttr],
        dim: int,
        mesh: MeshAttr,
    ) -> list[AxisRefAttr]:
        return _gather_along_dim(operand, axes, dim, mesh, "gathering")


@irdl_op_definition
class AllSliceOp(_AxesPerDimOp):
    """Slices a tensor along the axes of each dimension."""

    name = "sdy.all_slice"
    PROPERTY: ClassVar[str] = "slicing_axes"
    ALLOW_MISSING_INPUT_SHARDING: ClassVar[bool] = True

    slicing_axes = prop_def(ListOfAxisRefListsAttr)

    def expected_dim(
        self,
        operand: DimensionShardingAttr,
        axes: Sequence[AxisRefAttr],
        dim: int,
        mesh: MeshAttr,
    ) -> list[AxisRefAttr]:
        return _slice_along_dim(operand, axes, mesh)


def _parse_reduction(parser: Parser) -> ReductionOpAttr | None:
    for kind in ReductionKind:
        if parser.parse_optional_keyword(kind.value) is not None:
            return ReductionOpAttr(kind)
    return None


def _reduction(op: Operation) -> ReductionKind:
    value = op.properties.get("reduction_op")
    return value.data if isinstance(value, ReductionOpAttr) else ReductionKind.SUM


def _print_reduction(printer: Printer, op: Operation) -> None:
    kind = _reduction(op)
    if kind is not ReductionKind.SUM:
        printer.print_string(f"{kind.value} ")


@irdl_op_definition
class ReduceScatterOp(_AxesPerDimOp):
    """Reduces over the axes of each dimension and scatters along them."""

    name = "sdy.reduce_scatter"
    PROPERTY: ClassVar[str] = "reduce_scatter_axes"
    ALLOW_MISSING_INPUT_SHARDING: ClassVar[bool] = True

    reduce_scatter_axes = prop_def(ListOfAxisRefListsAttr)
    reduction_op = prop_def(
        ReductionOpAttr, default_value=ReductionOpAttr(ReductionKind.SUM)
    )

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        reduction = _parse_reduction(parser)
        properties = super().parse_prefix(parser)
        if reduction is not None:
            properties["reduction_op"] = reduction
        return properties

    def print_prefix(self, printer: Printer) -> None:
        _print_reduction(printer, self)
        super().print_prefix(printer)

    def verify_collective(self, mesh: MeshAttr) -> None:
        verify_unreduced_transition(
            self,
            value_sharding(self.tensor),
            self.out_sharding,
            None,
            _reduction(self).value,
        )
        super().verify_collective(mesh)

    def expected_dim(
        self,
        operand: DimensionShardingAttr,
        axes: Sequence[AxisRefAttr],
        dim: int,
        mesh: MeshAttr,
    ) -> list[AxisRefAttr]:
        return _slice_along_dim(operand, axes, mesh)


@irdl_op_definition
class AllReduceOp(CollectiveOp):
    """Reduces a tensor over mesh axes (`sum`, `max` or `min`)."""

    name = "sdy.all_reduce"
    ALLOW_MISSING_INPUT_SHARDING: ClassVar[bool] = True

    reduction_axes = prop_def(AxisRefListAttr)
    reduction_op = prop_def(
        ReductionOpAttr, default_value=ReductionOpAttr(ReductionKind.SUM)
    )

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        reduction = _parse_reduction(parser)
        properties: dict[str, Attribute] = {
            "reduction_axes": _parse_axis_ref_list(parser)
        }
        if reduction is not None:
            properties["reduction_op"] = reduction
        return properties

    def print_prefix(self, printer: Printer) -> None:
        _print_reduction(printer, self)
        _print_axes(printer, self.reduction_axes.axes.data)
        printer.print_string(" ")

    def collective_axes(self) -> list[AxisRefAttr]:
        return list(self.reduction_axes.axes.data)

    def verify_collective(self, mesh: MeshAttr) -> None:
        operand = self.operand_sharding()
        result = self.out_sharding
        if not _equivalent(operand, result):
            raise VerifyException("operand and result shardings are not equivalent")
        axes = self.reduction_axes.axes.data
        if not sorted_wrt_mesh(axes, mesh):
            raise VerifyException("reduction axes are not ordered w.r.t. mesh")
        verify_axis_list(axes, mesh, set())
        used = [a for d in operand.dim_shardings.data for a in d.axes.data]
        used += list(operand.replicated_axes.data)
        for axis in axes:
            if any(_overlaps(axis, other, mesh) for other in used):
                raise VerifyException(
                    f"reduction axis {axis.text()} overlaps with operand dimension "
                    "sharding or replicated axes"
                )
            if any(_overlaps(axis, u, mesh) for u in result.unreduced_axes.data):
                raise VerifyException(
                    f"reduction axis {axis.text()} overlaps with result unreduced axes"
                )
        verify_unreduced_transition(
            self, value_sharding(self.tensor), result, None, _reduction(self).value
        )


@irdl_op_definition
class AllToAllOp(CollectiveOp):
    """Moves axes from source to target dimensions (all-gather + all-slice)."""

    name = "sdy.all_to_all"

    params = prop_def(AllToAllParamListAttr)

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        return {"params": _parse_param_list(parser)}

    def print_prefix(self, printer: Printer) -> None:
        self.params.print_bare(printer)
        printer.print_string(" ")

    def collective_axes(self) -> list[AxisRefAttr]:
        return [axis for param in self.params.params for axis in param.axes]

    def verify_collective(self, mesh: MeshAttr) -> None:
        params = self.params.params.data
        if not params:
            raise VerifyException("parameter list is empty")
        typ = self.result.type
        rank = len(typ.get_shape()) if isa(typ, TensorType) else 0
        seen_dims: set[int] = set()
        seen_axes: set[str] = set()
        previous = -1
        for param in params:
            verify_axis_list(param.axes.data, mesh, seen_axes)
            src, tgt = param.src_dim.data, param.tgt_dim.data
            for dim, kind in ((src, "source"), (tgt, "target")):
                if not 0 <= dim < rank:
                    raise VerifyException(
                        f"{kind} dimension {dim} is out of range [0, {rank})"
                    )
            for dim in (src, tgt):
                if dim in seen_dims:
                    raise VerifyException(
                        "overlapping source/target dimensions in all-to-all params: "
                        f"{dim}"
                    )
                seen_dims.add(dim)
            if previous >= src:
                raise VerifyException(
                    "source dimensions are not sorted in ascending order: "
                    f"{src} appears after {previous}"
                )
            previous = src
        operand = self.operand_sharding().dim_shardings.data
        result = self.out_sharding.dim_shardings.data

        def check(dim: int, expected: list[AxisRefAttr]) -> None:
            if expected != list(result[dim].axes.data):
                raise VerifyException(
                    "result sharding doesn't match expected sharding "
                    f"{_axes_text(expected)} on dimension {dim}"
                )

        for param in params:
            src, tgt = param.src_dim.data, param.tgt_dim.data
            axes = param.axes.data
            check(src, _gather_along_dim(operand[src], axes, src, mesh, "all-to-all"))
            check(tgt, _slice_along_dim(operand[tgt], axes, mesh))
        for dim, operand_dim in enumerate(operand):
            if dim not in seen_dims:
                check(dim, list(operand_dim.axes.data))


@irdl_op_definition
class CollectivePermuteOp(CollectiveOp):
    """Reorders or replaces the axes sharding each dimension."""

    name = "sdy.collective_permute"
    ALLOW_DIFFERENT_MESHES: ClassVar[bool] = True

    def collective_axes(self) -> list[AxisRefAttr]:
        """The axes of dimensions whose sharding changes."""
        operand = self.operand_sharding().dim_shardings.data
        axes: list[AxisRefAttr] = []
        for dim, result_dim in enumerate(self.out_sharding.dim_shardings.data):
            before = operand[dim].axes.data if dim < len(operand) else ()
            if result_dim.axes.data != before:
                axes += [*before, *result_dim.axes.data]
        return axes

    def verify_collective(self, mesh: MeshAttr) -> None:
        operand = self.operand_sharding()
        operand_mesh = operand.mesh(self) or mesh
        if operand_mesh.axes != mesh.axes:
            raise VerifyException("result mesh has different axes than operand mesh")
        if (
            operand.mesh_or_ref != self.out_sharding.mesh_or_ref
            and operand_mesh.device_ids == mesh.device_ids
        ):
            raise VerifyException(
                "result mesh name is different but same device ids as operand"
            )
        for dim, (before, after) in enumerate(
            zip(
                operand.dim_shardings.data,
                self.out_sharding.dim_shardings.data,
                strict=True,
            )
        ):
            if before.axes == after.axes:
                continue
            size_in = math.prod(a.sharded_size(mesh) for a in before.axes.data)
            size_out = math.prod(a.sharded_size(mesh) for a in after.axes.data)
            if size_in != size_out:
                raise VerifyException(
                    "sharded size of result doesn't match operand on dimension "
                    f"{dim}: {size_out} != {size_in}"
                )


def _sort_and_merge(axes: list[AxisRefAttr], mesh: MeshAttr) -> list[AxisRefAttr]:
    """Shardy's `sortAndMergeAxes`: sorted w.r.t. the mesh, sub-axes merged."""
    order = {axis.axis_name.data: i for i, axis in enumerate(mesh.axes.data)}
    ordered = sorted(
        axes, key=lambda a: (order.get(a.axis_name.data, -1), axis_bounds(a, mesh))
    )
    merged: list[AxisRefAttr] = []
    for axis in ordered:
        _add_or_merge(merged, axis, mesh)
    return merged


@irdl_op_definition
class ShardedToUnreducedOp(_AxesPerDimOp):
    """Makes sharded axes unreduced (each device keeps its partial value)."""

    name = "sdy.sharded_to_unreduced"
    PROPERTY: ClassVar[str] = "axes"

    axes = prop_def(ListOfAxisRefListsAttr)

    def expected_dim(
        self,
        operand: DimensionShardingAttr,
        axes: Sequence[AxisRefAttr],
        dim: int,
        mesh: MeshAttr,
    ) -> list[AxisRefAttr]:
        return _gather_along_dim(operand, axes, dim, mesh, "shard-to-unreduce")

    def verify_collective(self, mesh: MeshAttr) -> None:
        if self.out_sharding.reduction.data != "sum":
            raise VerifyException("out_sharding reduction_op must be SUM")
        super().verify_collective(mesh)
        expected = list(self.operand_sharding().unreduced_axes.data)
        expected += self.collective_axes()
        if _sort_and_merge(expected, mesh) != list(
            self.out_sharding.unreduced_axes.data
        ):
            raise VerifyException(
                "out_unreduced_axes should be in_unreduced_axes + "
                "sharded_to_unreduced_axes"
            )


@irdl_op_definition
class ReplicatedToUnreducedOp(CollectiveOp):
    """Makes replicated axes unreduced."""

    name = "sdy.replicated_to_unreduced"

    axes = prop_def(AxisRefListAttr)

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        return {"axes": _parse_axis_ref_list(parser)}

    def print_prefix(self, printer: Printer) -> None:
        _print_axes(printer, self.axes.axes.data)
        printer.print_string(" ")

    def collective_axes(self) -> list[AxisRefAttr]:
        return list(self.axes.axes.data)

    def verify_collective(self, mesh: MeshAttr) -> None:
        operand = self.operand_sharding()
        result = self.out_sharding
        if result.reduction.data != "sum":
            raise VerifyException("out_sharding reduction_op must be SUM")
        if operand.dim_shardings != result.dim_shardings:
            raise VerifyException(
                "input and output must share the same dimension shardings"
            )
        axes = list(self.axes.axes.data)
        if not axes:
            raise VerifyException("r2u axes must not be empty")
        if not sorted_wrt_mesh(axes, mesh):
            raise VerifyException("r2u axes are not ordered w.r.t. mesh")
        verify_axis_list(axes, mesh, set())
        dims = [a for d in operand.dim_shardings.data for a in d.axes.data]
        for axis in axes:
            if any(_overlaps(axis, other, mesh) for other in dims):
                raise VerifyException(
                    f"r2u axis {axis.text()} overlaps with operand dimension sharding"
                )
            if any(_overlaps(axis, u, mesh) for u in operand.unreduced_axes.data):
                raise VerifyException(
                    f"r2u axis {axis.text()} overlaps with operand unreduced axes"
                )
        expected = _sort_and_merge([*operand.unreduced_axes.data, *axes], mesh)
        if expected != list(result.unreduced_axes.data):
            raise VerifyException(
                "out_unreduced_axes should be in_unreduced_axes + r2u_axes"
            )
