"""A subset of Shardy's `sdy` dialect: the sharding annotations JAX prints.

    sdy.mesh @mesh = <["x"=2, "y"=4]>                          a named mesh
    sdy.mesh @ids = <["a"=2], device_ids=[1, 0]>               explicit device order
    func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x", ?}, {}p1], replicated={"y"}> : tensor<8x8xf32>
    %2 = sdy.reshard %1 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {}]>]>}

The syntax and messages are Shardy's (shardy/dialect/sdy/ir: attrs.td,
ops.td, parsers.cc, printers.cc, verifiers.cc). A sharding says how a tensor
is laid out over devices, never what it holds: on one device a
`sharding_constraint` and a `reshard` are the identity and a mesh is a symbol.
`sdy.manual_computation` (per-device code with explicit collectives, JAX's
`shard_map`) runs on one device only when its manual axes span one device.

    %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>]
           out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%b: tensor<2xf32>) {
      sdy.return %b : tensor<2xf32>
    } : (tensor<4xf32>) -> tensor<2xf32>
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import wraps
from typing import ClassVar, Self, TypeVar

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    IntAttr,
    ModuleOp,
    NoneAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
    TupleType,
    UnrankedTensorType,
)
from xdsl.ir import (
    Attribute,
    BlockArgument,
    Operation,
    OpResult,
    ParametrizedAttribute,
    SSAValue,
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
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    RecursiveMemoryEffect,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xquant.xdsl_internals import consume_token, current_token

__all__ = [
    "AxisRefAttr",
    "DimensionShardingAttr",
    "ManualAxesAttr",
    "ManualComputationOp",
    "MeshAttr",
    "MeshAxisAttr",
    "MeshOp",
    "ReshardOp",
    "ReturnOp",
    "ShardingConstraintOp",
    "TensorShardingAttr",
    "TensorShardingPerValueAttr",
    "axis_bounds",
    "can_merge",
    "op_errors",
    "parse_axis_ref",
    "parse_tensor_sharding",
    "sorted_wrt_mesh",
    "value_sharding",
    "verify_axis_list",
    "verify_sharding",
    "verify_sharding_per_value",
    "verify_unreduced_transition",
]


def _print_quoted(printer: Printer, name: str) -> None:
    printer.print_string_literal(name)


# ----- attributes ------------------------------------------------------------------


@irdl_attr_definition
class MeshAxisAttr(ParametrizedAttribute):
    """`"x"=2`: a named mesh axis and its size."""

    name = "sdy.mesh_axis"

    axis_name: StringAttr = param_def()
    size: IntAttr = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return _parse_mesh_axis(parser)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_bare(printer)

    def print_bare(self, printer: Printer) -> None:
        _print_quoted(printer, self.axis_name.data)
        printer.print_string(f"={self.size.data}")


def _parse_mesh_axis(parser: AttrParser) -> tuple[StringAttr, IntAttr]:
    name = parser.parse_str_literal()
    parser.parse_punctuation("=")
    return StringAttr(name), IntAttr(parser.parse_integer(allow_boolean=False))


@irdl_attr_definition
class MeshAttr(ParametrizedAttribute):
    """`<["x"=2, "y"=4]>`, `<[], device_ids=[3]>` (a maximal mesh).

    An explicit device list equal to `iota(product(sizes))` is dropped, as
    Shardy's builder drops it.
    """

    name = "sdy.mesh"

    axes: ArrayAttr[MeshAxisAttr] = param_def()
    device_ids: ArrayAttr[IntAttr] = param_def()

    @staticmethod
    def get(
        axes: Sequence[tuple[str, int]], device_ids: Sequence[int] = ()
    ) -> MeshAttr:
        axis_attrs = [MeshAxisAttr(StringAttr(n), IntAttr(s)) for n, s in axes]
        total = math.prod(size for _, size in axes)
        if axes and len(device_ids) == total and list(device_ids) == list(range(total)):
            device_ids = ()
        return MeshAttr(
            ArrayAttr(axis_attrs), ArrayAttr([IntAttr(d) for d in device_ids])
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        mesh = parse_mesh_body(parser)
        return mesh.axes, mesh.device_ids

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<[")
        printer.print_list(self.axes.data, lambda axis: axis.print_bare(printer))
        printer.print_string("]")
        if self.device_ids.data:
            printer.print_string(", device_ids=[")
            printer.print_list(
                self.device_ids.data, lambda d: printer.print_string(str(d.data))
            )
            printer.print_string("]")
        printer.print_string(">")

    @property
    def axis_sizes(self) -> dict[str, int]:
        return {axis.axis_name.data: axis.size.data for axis in self.axes.data}

    @property
    def total_size(self) -> int:
        return math.prod(self.axis_sizes.values())

    def verify_mesh(self) -> None:
        """Shardy's `MeshAttr::verify` and `MeshAxisAttr::verify`, run by the ops
        that hold a mesh (so that the error points at the op)."""
        for axis in self.axes.data:
            if axis.size.data <= 0:
                raise VerifyException(
                    f"axis size must be at least 1, got: {axis.size.data}"
                )
        ids = [d.data for d in self.device_ids.data]
        for device in ids:
            if device < 0:
                raise VerifyException(f"device id must be non-negative, got: {device}")
        if not self.axes.data:
            if len(ids) > 1:
                raise VerifyException(
                    "axes is empty and device_ids has more than one element"
                )
            return
        seen: set[str] = set()
        for axis in self.axes.data:
            if axis.axis_name.data in seen:
                raise VerifyException(f'duplicate axis name: "{axis.axis_name.data}"')
            seen.add(axis.axis_name.data)
        if ids and self.total_size != len(ids):
            raise VerifyException(
                "total product of axis sizes must match total number of device "
                f"ids, got: {self.total_size} != {len(ids)}"
            )
        if ids and sorted(ids) != list(range(len(ids))):
            raise VerifyException(
                "sorted device ids must be iota(product(axes)), got: "
                + ", ".join(str(d) for d in sorted(ids))
            )


def parse_mesh_body(parser: AttrParser) -> MeshAttr:
    """`<[axes], device_ids=[...]>`, as Shardy's declarative format."""
    parser.parse_punctuation("<")
    axes = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: _parse_mesh_axis(parser)
    )
    device_ids: list[int] = []
    if parser.parse_optional_punctuation(",") is not None:
        parser.parse_keyword("device_ids")
        parser.parse_punctuation("=")
        device_ids = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
    parser.parse_punctuation(">")
    return MeshAttr.get([(n.data, s.data) for n, s in axes], device_ids)


@irdl_attr_definition
class AxisRefAttr(ParametrizedAttribute):
    """`"x"` or a sub-axis `"x":(pre_size)size`."""

    name = "sdy.axis_ref"

    axis_name: StringAttr = param_def()
    pre_size: IntAttr | NoneAttr = param_def()
    size: IntAttr | NoneAttr = param_def()

    def print_bare(self, printer: Printer) -> None:
        _print_quoted(printer, self.axis_name.data)
        if isinstance(self.pre_size, IntAttr) and isinstance(self.size, IntAttr):
            printer.print_string(f":({self.pre_size.data}){self.size.data}")

    def text(self) -> str:
        """Shardy's `toString`: `"x"` or `"x":(1)2`."""
        if isinstance(self.pre_size, IntAttr) and isinstance(self.size, IntAttr):
            return f'"{self.axis_name.data}":({self.pre_size.data}){self.size.data}'
        return f'"{self.axis_name.data}"'

    def sharded_size(self, mesh: MeshAttr) -> int:
        if isinstance(self.size, IntAttr):
            return self.size.data
        return mesh.axis_sizes[self.axis_name.data]


def _parse_axis_ref(parser: AttrParser) -> AxisRefAttr:
    name = StringAttr(parser.parse_str_literal())
    if parser.parse_optional_punctuation(":") is None:
        return AxisRefAttr(name, NoneAttr(), NoneAttr())
    parser.parse_punctuation("(")
    pre_size = parser.parse_integer(allow_boolean=False)
    parser.parse_punctuation(")")
    size = parser.parse_integer(allow_boolean=False)
    return AxisRefAttr(name, IntAttr(pre_size), IntAttr(size))


parse_axis_ref = _parse_axis_ref


def _parse_axis_list(parser: AttrParser) -> list[AxisRefAttr]:
    """`{"a", "b":(1)2}`."""
    return parser.parse_comma_separated_list(
        parser.Delimiter.BRACES, lambda: _parse_axis_ref(parser)
    )


def _print_axis_list(printer: Printer, axes: Sequence[AxisRefAttr]) -> None:
    printer.print_string("{")
    printer.print_list(axes, lambda axis: axis.print_bare(printer))
    printer.print_string("}")


@irdl_attr_definition
class DimensionShardingAttr(ParametrizedAttribute):
    """`{"a", "b"}` (closed), `{"a", ?}` (open), with an optional priority `p0`."""

    name = "sdy.dimension_sharding"

    axes: ArrayAttr[AxisRefAttr] = param_def()
    is_closed: BoolAttr = param_def()
    priority: IntAttr | NoneAttr = param_def()

    def print_bare(self, printer: Printer) -> None:
        printer.print_string("{")
        printer.print_list(self.axes.data, lambda axis: axis.print_bare(printer))
        if not self.is_closed.value.data:
            printer.print_string(", ?" if self.axes.data else "?")
        printer.print_string("}")
        if isinstance(self.priority, IntAttr):
            printer.print_string(f"p{self.priority.data}")


def _parse_dimension_sharding(parser: AttrParser) -> DimensionShardingAttr:
    """Shardy's `DimensionShardingAttr::parse`."""
    parser.parse_punctuation("{")
    axes: list[AxisRefAttr] = []
    closed = True
    while parser.parse_optional_punctuation("}") is None:
        if axes:
            parser.parse_punctuation(",")
        if parser.parse_optional_punctuation("?") is not None:
            closed = False
            parser.parse_punctuation("}")
            break
        axes.append(_parse_axis_ref(parser))
    priority: IntAttr | NoneAttr = NoneAttr()
    token = current_token(parser)
    if token.kind is MLIRTokenKind.BARE_IDENT:
        text = token.text
        consume_token(parser)
        digits = text[1:]
        if len(text) < 2 or text[0] != "p" or not digits.isdigit():
            parser.raise_error(
                f"expecting priority in format 'p<number>', got: {text}", token.span
            )
        if digits.startswith("0") and len(digits) > 1:
            parser.raise_error(
                f"priorities with leading zeros are not allowed, got: {text}",
                token.span,
            )
        priority = IntAttr(int(digits))
    return DimensionShardingAttr(ArrayAttr(axes), BoolAttr.from_bool(closed), priority)


@irdl_attr_definition
class TensorShardingAttr(ParametrizedAttribute):
    """`<@mesh, [{"x"}, {}], replicated={"y"}, unreduced={"z"}>`.

    The mesh is a symbol (`@mesh`, an `sdy.mesh` op) or inlined
    (`mesh<["x"=2]>`); `reduction` is `sum` (printed as nothing), `max` or
    `min`.
    """

    name = "sdy.sharding"

    mesh_or_ref: SymbolRefAttr | MeshAttr = param_def()
    dim_shardings: ArrayAttr[DimensionShardingAttr] = param_def()
    replicated_axes: ArrayAttr[AxisRefAttr] = param_def()
    unreduced_axes: ArrayAttr[AxisRefAttr] = param_def()
    reduction: StringAttr = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        sharding = parse_tensor_sharding(parser)
        return sharding.parameters

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        if isinstance(self.mesh_or_ref, MeshAttr):
            printer.print_string("mesh")
            self.mesh_or_ref.print_parameters(printer)
        else:
            printer.print_attribute(self.mesh_or_ref)
        printer.print_string(", [")
        printer.print_list(self.dim_shardings.data, lambda dim: dim.print_bare(printer))
        printer.print_string("]")
        if self.replicated_axes.data:
            printer.print_string(", replicated=")
            _print_axis_list(printer, self.replicated_axes.data)
        if self.unreduced_axes.data:
            printer.print_string(", unreduced=")
            if self.reduction.data != "sum":
                printer.print_string(self.reduction.data)
            _print_axis_list(printer, self.unreduced_axes.data)
        printer.print_string(">")

    @property
    def rank(self) -> int:
        return len(self.dim_shardings.data)

    def mesh(self, op: Operation) -> MeshAttr | None:
        """The inlined mesh, or the one the nearest symbol table names."""
        if isinstance(self.mesh_or_ref, MeshAttr):
            return self.mesh_or_ref
        mesh_op = SymbolTable.lookup_symbol(op, self.mesh_or_ref)
        return mesh_op.mesh if isinstance(mesh_op, MeshOp) else None


def parse_tensor_sharding(parser: AttrParser) -> TensorShardingAttr:
    """`<mesh-or-ref, [dims], replicated={...}, unreduced={...}>`."""
    parser.parse_punctuation("<")
    mesh_or_ref: SymbolRefAttr | MeshAttr
    if parser.parse_optional_keyword("mesh") is not None:
        mesh_or_ref = parse_mesh_body(parser)
    else:
        token = current_token(parser)
        if token.kind is not MLIRTokenKind.AT_IDENT:
            parser.raise_error("expecting MeshAttr or FlatSymbolRefAttr")
        mesh_or_ref = SymbolRefAttr(parser.parse_symbol_name())
    parser.parse_punctuation(",")
    dims = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: _parse_dimension_sharding(parser)
    )
    replicated: list[AxisRefAttr] = []
    unreduced: list[AxisRefAttr] = []
    reduction = "sum"
    while parser.parse_optional_punctuation(",") is not None:
        if not replicated and parser.parse_optional_keyword("replicated") is not None:
            parser.parse_punctuation("=")
            replicated = _parse_axis_list(parser)
        elif not unreduced and parser.parse_optional_keyword("unreduced") is not None:
            # `unreduced{...}`, `unreduced={...}`, `unreduced=max{...}` (parsers.cc).
            if parser.parse_optional_punctuation("=") is not None:
                for op in ("sum", "max", "min"):
                    if parser.parse_optional_keyword(op) is not None:
                        reduction = op
                        break
            unreduced = _parse_axis_list(parser)
        else:
            parser.raise_error(
                "failed to parse Sdy_TensorSharding, expected valid named axis "
                "list after comma"
            )
    parser.parse_punctuation(">")
    return TensorShardingAttr(
        mesh_or_ref,
        ArrayAttr(dims),
        ArrayAttr(replicated),
        ArrayAttr(unreduced),
        StringAttr(reduction),
    )


@irdl_attr_definition
class TensorShardingPerValueAttr(ParametrizedAttribute):
    """`<[<@mesh, [...]>, ...]>`: one sharding per result (or operand) of an op."""

    name = "sdy.sharding_per_value"

    shardings: ArrayAttr[TensorShardingAttr] = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        shardings = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parse_tensor_sharding(parser)
        )
        parser.parse_punctuation(">")
        return (ArrayAttr(shardings),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<[")
        printer.print_list(
            self.shardings.data, lambda sharding: sharding.print_parameters(printer)
        )
        printer.print_string("]>")


@irdl_attr_definition
class ManualAxesAttr(ParametrizedAttribute):
    """`{"x", "y"}`: the mesh axes a `manual_computation` body is local to."""

    name = "sdy.manual_axes"

    axes: ArrayAttr[StringAttr] = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return (ArrayAttr(parse_manual_axes(parser)),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("{")
        printer.print_list(self.axes.data, lambda a: _print_quoted(printer, a.data))
        printer.print_string("}")


def parse_manual_axes(parser: AttrParser) -> list[StringAttr]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.BRACES, lambda: StringAttr(parser.parse_str_literal())
    )


# ----- verification (verifiers.cc) -------------------------------------------------
_OpT = TypeVar("_OpT", bound=Operation)


def op_errors(verify: Callable[[_OpT], None]) -> Callable[[_OpT], None]:
    """`verify_` with its messages as MLIR's `emitOpError` words them:
    `'sdy.all_gather' op ...`."""

    @wraps(verify)
    def wrapped(self: _OpT) -> None:
        try:
            verify(self)
        except VerifyException as err:
            text = str(err)
            if text.startswith("'"):
                raise
            raise VerifyException(f"'{self.name}' op {text}") from err

    return wrapped


def verify_sharding(
    sharding: TensorShardingAttr,
    value_type: Attribute,
    op: Operation,
    allow_token: bool = False,
) -> None:
    """Shardy's `verifyTensorShardingAttr`, for a ranked tensor type (or, with
    `allow_token`, any non-shaped type, which takes a rank-0 sharding)."""
    mesh = sharding.mesh(op)
    if isinstance(sharding.mesh_or_ref, MeshAttr):
        sharding.mesh_or_ref.verify_mesh()
    if mesh is None:
        assert isinstance(sharding.mesh_or_ref, SymbolRefAttr)
        raise VerifyException(
            f"unknown mesh: @{sharding.mesh_or_ref.root_reference.data}"
        )
    bare = (
        sharding.rank == 0
        and not sharding.replicated_axes.data
        and not sharding.unreduced_axes.data
    )
    if not mesh.axes.data:  # a maximal mesh: run on one device
        if not bare:
            raise VerifyException(
                "a maximal sharding can only have a sharding with rank 0 and no "
                "replicated or unreduced axes."
            )
        return
    if isinstance(value_type, TupleType):
        if len(value_type.types.data) != 1:
            raise VerifyException(
                f"ops can only have a sharding for a tuple of size 1: {value_type}"
            )
        value_type = value_type.types.data[0]
    if (
        allow_token
        and not isa(value_type, TensorType)
        and not isinstance(value_type, UnrankedTensorType)
    ):
        if not bare:
            raise VerifyException(
                "non-shaped tensors can only have a sharding with rank 0 and no "
                f"replicated or unreduced axes. type: {value_type}, sharding: "
                f"{sharding}"
            )
        return
    if not isa(value_type, TensorType):
        raise VerifyException(
            f"only ranked tensors can have a sharding. type: {value_type}"
        )
    shape = value_type.get_shape()
    if sharding.rank != len(shape):
        raise VerifyException(
            f"sharding doesn't match tensor rank: {sharding.rank} != {len(shape)}"
        )
    seen: set[str] = set()
    sub_axes: dict[str, list[AxisRefAttr]] = {}
    for dim, dim_sharding in enumerate(sharding.dim_shardings.data):
        if isinstance(dim_sharding.priority, IntAttr):
            if not dim_sharding.axes.data and dim_sharding.is_closed.value.data:
                raise VerifyException(
                    f"dim {dim} is empty and closed but has a priority"
                )
        verify_axis_list(dim_sharding.axes.data, mesh, seen, sub_axes)
    # Shardy verifies with `checkDivisibility=false`: a sharded dimension may
    # be padded, so only the rank is checked against the shape.
    for kind, axes in (
        ("replicated", sharding.replicated_axes.data),
        ("unreduced", sharding.unreduced_axes.data),
    ):
        if not sorted_wrt_mesh(axes, mesh):
            raise VerifyException(f"{kind} axes are not ordered w.r.t. mesh")
        verify_axis_list(axes, mesh, seen, sub_axes)
    for name, subs in sub_axes.items():
        _verify_sub_axes(name, subs, mesh, seen)


def verify_sharding_per_value(
    shardings: TensorShardingPerValueAttr,
    types: Sequence[Attribute],
    op: Operation,
    prefix: str,
) -> None:
    """Shardy's `verifyTensorShardingPerValueAttr`, messages after `prefix`."""
    values = shardings.shardings.data
    if not types and len(values) == 1:
        first = values[0]
        mesh = first.mesh(op)
        replicated = all(not d.axes.data for d in first.dim_shardings.data)
        if (mesh is not None and not mesh.axes.data) or replicated:
            if first.rank or first.replicated_axes.data or first.unreduced_axes.data:
                raise VerifyException(
                    f"{prefix}0 - a maximal sharding can only have a sharding with "
                    "rank 0 and no replicated or unreduced axes."
                )
            return
    if len(values) != len(types):
        raise VerifyException(
            f"{prefix}shardings don't match number of values: {len(values)} "
            f"shardings vs {len(types)} values"
        )
    for index, (sharding, typ) in enumerate(zip(values, types, strict=True)):
        where = "- " if len(types) == 1 else f"{index} - "
        try:
            verify_sharding(sharding, typ, op, allow_token=True)
        except VerifyException as err:
            raise VerifyException(f"{prefix}{where}{err}") from err


def axis_bounds(axis: AxisRefAttr, mesh: MeshAttr) -> tuple[int, int]:
    """(pre-size, next pre-size) of an axis ref; a full axis is (1, size)."""
    if isinstance(axis.pre_size, IntAttr) and isinstance(axis.size, IntAttr):
        return axis.pre_size.data, axis.pre_size.data * axis.size.data
    return 1, mesh.axis_sizes.get(axis.axis_name.data, 1)


def can_merge(a: AxisRefAttr, b: AxisRefAttr, mesh: MeshAttr) -> bool:
    """Shardy's `AxisRefAttr::canMerge`: consecutive sub-axes of one axis."""
    return (
        a.axis_name == b.axis_name
        and isinstance(a.pre_size, IntAttr)
        and isinstance(b.pre_size, IntAttr)
        and axis_bounds(a, mesh)[1] == axis_bounds(b, mesh)[0]
    )


def sorted_wrt_mesh(axes: Sequence[AxisRefAttr], mesh: MeshAttr) -> bool:
    """Shardy's `getMeshComparator` order: mesh axis order, then sub-axes."""
    order = {axis.axis_name.data: i for i, axis in enumerate(mesh.axes.data)}

    def key(a: AxisRefAttr) -> tuple[int, int, int]:
        pre, end = axis_bounds(a, mesh)
        return (order.get(a.axis_name.data, -1), pre, end)

    keys = [key(a) for a in axes]
    return keys == sorted(keys)


def verify_axis_list(
    axes: Sequence[AxisRefAttr],
    mesh: MeshAttr,
    seen: set[str],
    sub_axes: dict[str, list[AxisRefAttr]] | None = None,
) -> None:
    """Shardy's `verifyAxisRefList`."""
    sizes = mesh.axis_sizes
    previous: AxisRefAttr | None = None
    for axis in axes:
        if axis.axis_name.data not in sizes:
            raise VerifyException(f'unknown axis name: "{axis.axis_name.data}"')
        if axis.text() in seen:
            raise VerifyException(f"duplicate axis ref: {axis.text()}")
        seen.add(axis.text())
        if not isinstance(axis.pre_size, IntAttr):
            previous = axis
            continue
        if sub_axes is not None:
            sub_axes.setdefault(axis.axis_name.data, []).append(axis)
        if previous is not None and can_merge(previous, axis, mesh):
            raise VerifyException(
                "two consecutive sub-axes can be merged: "
                f"{previous.text()}, {axis.text()}"
            )
        previous = axis


def _verify_sub_axes(
    name: str, subs: list[AxisRefAttr], mesh: MeshAttr, seen: set[str]
) -> None:
    """Shardy's `verifySubAxes`."""
    if subs and f'"{name}"' in seen:
        raise VerifyException(
            f'both sub-axis and full-axis are used for axis name: "{name}"'
        )
    full = mesh.axis_sizes[name]
    previous: AxisRefAttr | None = None
    for axis in sorted(subs, key=lambda a: axis_bounds(a, mesh)):
        pre, end = axis_bounds(axis, mesh)
        assert isinstance(axis.size, IntAttr)
        size = axis.size.data
        if pre < 1:
            raise VerifyException(
                f"sub-axis pre-size must be at least 1: {axis.text()}"
            )
        if size <= 1:
            raise VerifyException(
                f"sub-axis sizes must be greater than 1: {axis.text()}"
            )
        if full % end:
            raise VerifyException(
                f"sub-axis next pre-size {end} doesn't divide the size of the full "
                f"axis {full}: {axis.text()}"
            )
        if size == full:
            raise VerifyException(
                f"sub-axis size is equal to the full axis size: {axis.text()}"
            )
        if previous is not None and axis_bounds(previous, mesh)[1] > pre:
            raise VerifyException(
                f"overlapping sub-axes: {previous.text()}, {axis.text()}"
            )
        previous = axis


def value_sharding(value: SSAValue) -> TensorShardingAttr | None:
    """Shardy's `getSharding`: the sharding `value` has (its function argument's
    `sdy.sharding`, the sharding of the sdy op defining it, or its op's
    `sdy.sharding` per value)."""
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        if isinstance(owner, func.FuncOp) and owner.arg_attrs is not None:
            sharding = owner.arg_attrs.data[value.index].data.get("sdy.sharding")
            if isinstance(sharding, TensorShardingAttr):
                return sharding
        return None
    assert isinstance(value, OpResult)
    op = value.op
    if op.name.startswith("sdy."):
        # sharding_constraint, reshard, data_flow_edge; a collective's out_sharding.
        for name in ("sharding", "out_sharding"):
            sharding = op.properties.get(name)
            if isinstance(sharding, TensorShardingAttr):
                return sharding
        if op.name != "sdy.named_computation":
            return None
    per_value = op.attributes.get("sdy.sharding")
    if isinstance(per_value, TensorShardingPerValueAttr):
        shardings = per_value.shardings.data
        if value.index < len(shardings):
            return shardings[value.index]
    return None


def _bypassing_barriers(value: SSAValue) -> TensorShardingAttr | None:
    while isinstance(value, OpResult) and value.op.name == "sdy.propagation_barrier":
        value = value.op.operands[0]
    return value_sharding(value)


def _axis_diff(
    axes: Sequence[AxisRefAttr], other: Sequence[AxisRefAttr], mesh: MeshAttr
) -> list[AxisRefAttr]:
    """Shardy's `getAxisSetDiff`: the parts of `axes` no axis of `other` covers."""
    result: list[AxisRefAttr] = []
    for axis in axes:
        name = axis.axis_name.data
        parts = [axis_bounds(axis, mesh)]
        for b in other:
            if b.axis_name.data != name:
                continue
            b0, b1 = axis_bounds(b, mesh)
            kept: list[tuple[int, int]] = []
            for s0, s1 in parts:
                if s1 <= b0 or b1 <= s0:
                    kept.append((s0, s1))
                    continue
                if s0 < b0:
                    kept.append((s0, b0))
                if b1 < s1:
                    kept.append((b1, s1))
            parts = kept
        for s0, s1 in parts:
            if s0 == 1 and s1 == mesh.axis_sizes.get(name):
                result.append(AxisRefAttr(StringAttr(name), NoneAttr(), NoneAttr()))
            else:
                result.append(
                    AxisRefAttr(StringAttr(name), IntAttr(s0), IntAttr(s1 // s0))
                )
    return result


def _overlap(a: AxisRefAttr, b: AxisRefAttr, mesh: MeshAttr) -> bool:
    if a.axis_name != b.axis_name:
        return False
    (a0, a1), (b0, b1) = axis_bounds(a, mesh), axis_bounds(b, mesh)
    return a0 < b1 and b0 < a1


def verify_unreduced_transition(
    op: Operation,
    operand: TensorShardingAttr | None,
    result: TensorShardingAttr,
    introduced_op: str | None,
    removed_op: str | None,
) -> None:
    """Shardy's `verifyUnreducedAxesTransition` for one operand and result:
    `introduced_op`/`removed_op` is the reduction a new/dropped unreduced axis
    must have (None: no axis may be added/dropped)."""
    if operand is None:
        return
    mesh, operand_mesh = result.mesh(op), operand.mesh(op)
    if mesh is None or (operand_mesh is not None and operand_mesh != mesh):
        return
    before, after = operand.unreduced_axes.data, result.unreduced_axes.data
    introduced = _axis_diff(after, before, mesh)
    removed = _axis_diff(before, after, mesh)

    def check(
        sharding: TensorShardingAttr, diff: list[AxisRefAttr], expected: str, verb: str
    ) -> None:
        if any(
            _overlap(a, d, mesh) for a in sharding.unreduced_axes.data for d in diff
        ):
            if sharding.reduction.data != expected:
                raise VerifyException(
                    f"cannot {verb} '{sharding.reduction.data}' unreduced axes. "
                    f"Expected '{expected}'."
                )

    if introduced:
        if introduced_op is None:
            raise VerifyException(
                f"cannot add new unreduced axis '{introduced[0].axis_name.data}'."
            )
        check(result, introduced, introduced_op, "introduce")
    if removed:
        if removed_op is None:
            raise VerifyException(
                f"dropped unreduced axis '{removed[0].axis_name.data}' without a "
                "blessed operation (e.g., sdy.reshard). This is an invalid transition "
                "from unreduced to reduced."
            )
        check(operand, removed, removed_op, "reduce")
    if any(_overlap(a, b, mesh) for a in after for b in before):
        if operand.reduction.data != result.reduction.data:
            raise VerifyException(
                "cannot change the reduction operator of kept unreduced axes from "
                f"{operand.reduction.data} to {result.reduction.data}."
            )


def _verify_manual_values(
    op: Operation,
    kind: str,
    shardings: TensorShardingPerValueAttr,
    outer: Sequence[Attribute],
    inner: Sequence[Attribute],
    manual: set[str],
) -> None:
    """Shardy's `verifyManualComputationValue`."""
    if not outer and not inner and not shardings.shardings.data:
        return
    verify_sharding_per_value(shardings, outer, op, f"{kind} ")
    if len(outer) != len(inner):
        raise VerifyException(
            f"number of op {kind}s and region {kind}s must match. Op has "
            f"{len(outer)} op {kind}s and {len(inner)} region {kind}s"
        )
    for index, (global_type, local_type, sharding) in enumerate(
        zip(outer, inner, shardings.shardings.data, strict=True)
    ):
        for dim, dim_sharding in enumerate(sharding.dim_shardings.data):
            axes = dim_sharding.axes.data
            free = [i for i, a in enumerate(axes) if a.axis_name.data not in manual]
            late = [
                i
                for i in range(len(axes))
                if free and i > free[0] and axes[i].axis_name.data in manual
            ]
            if late:
                raise VerifyException(
                    f"{kind} sharding at index {index} must have all manual axes "
                    f"come before free axes in its dimension sharding at index "
                    f"{dim}. Saw manual axis {axes[late[0]].text()} after free axis "
                    f"{axes[late[0] - 1].text()}"
                )
        if not isa(global_type, TensorType):
            continue
        mesh = sharding.mesh(op)
        assert mesh is not None
        local: list[int] = []
        for size, dim_sharding in zip(
            global_type.get_shape(), sharding.dim_shardings.data, strict=True
        ):
            if size < 0:
                local.append(size)
                continue
            manual_size = math.prod(
                a.sharded_size(mesh)
                for a in dim_sharding.axes.data
                if a.axis_name.data in manual
            )
            if size % manual_size:
                raise VerifyException(
                    f"{kind} dimension size {size} is not divisible by the manual "
                    f"axes size {manual_size}"
                )
            local.append(size // manual_size)
        expected = TensorType(global_type.get_element_type(), local)
        if expected != local_type:
            raise VerifyException(
                f"{kind} shape, corresponding sharding, and region {kind} shape at "
                f"index {index} must match. Expected local shape '{expected}', "
                f"actual local shape '{local_type}'"
            )


# ----- ops -------------------------------------------------------------------------


@irdl_op_definition
class MeshOp(IRDLOperation):
    """`sdy.mesh @name = <["x"=2]>`: a named mesh, a symbol of the module."""

    name = "sdy.mesh"

    sym_name = prop_def(SymbolNameConstraint())
    mesh = prop_def(MeshAttr)

    traits = traits_def(SymbolOpInterface(), HasParent(ModuleOp))

    assembly_format = "$sym_name `=` $mesh attr-dict"

    def verify_(self) -> None:
        # MLIR checks the mesh while it parses the op: "custom op 'sdy.mesh' ...".
        try:
            self.mesh.verify_mesh()
        except VerifyException as err:
            raise VerifyException(f"custom op 'sdy.mesh' {err}") from err


class _ShardingOp(IRDLOperation):
    """`$input $sharding attr-dict : type($result)`; the identity on one device."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    input = operand_def(T)
    sharding = prop_def(TensorShardingAttr)
    result = result_def(T)

    assembly_format = "$input $sharding attr-dict `:` type($result)"

    @op_errors
    def verify_(self) -> None:
        verify_sharding(self.sharding, self.result.type, self, allow_token=True)
        source = _bypassing_barriers(self.input)
        if source is not None:
            verify_unreduced_transition(
                self, source, self.sharding, "sum", source.reduction.data
            )


@irdl_op_definition
class ShardingConstraintOp(_ShardingOp):
    """Constrains a tensor to a sharding (the identity on one device)."""

    name = "sdy.sharding_constraint"


@irdl_op_definition
class ReshardOp(_ShardingOp):
    """Reshards a tensor to another sharding (the identity on one device)."""

    name = "sdy.reshard"


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`sdy.return %a : T`: ends the body of Shardy's region ops."""

    name = "sdy.return"

    values = var_operand_def()

    traits = traits_def(IsTerminator())

    assembly_format = "attr-dict ($values^ `:` type($values))?"


@irdl_op_definition
class ManualComputationOp(IRDLOperation):
    """Per-device code over `manual_axes`, with explicit collectives (`shard_map`)."""

    name = "sdy.manual_computation"

    tensors = var_operand_def()
    in_shardings = prop_def(TensorShardingPerValueAttr)
    out_shardings = prop_def(TensorShardingPerValueAttr)
    manual_axes = prop_def(ManualAxesAttr)
    outputs = var_result_def()
    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        shardings: list[TensorShardingPerValueAttr] = []
        for keyword in ("in_shardings", "out_shardings"):
            parser.parse_keyword(keyword)
            parser.parse_punctuation("=")
            values = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parse_tensor_sharding(parser)
            )
            shardings.append(TensorShardingPerValueAttr(ArrayAttr(values)))
        parser.parse_keyword("manual_axes")
        parser.parse_punctuation("=")
        manual_axes = ManualAxesAttr(ArrayAttr(parse_manual_axes(parser)))

        def parse_argument() -> Parser.Argument:
            argument = parser.parse_argument()
            argument.location = parser.parse_optional_location()
            return argument

        arguments = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parse_argument
        )
        body = parser.parse_region(arguments)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        function_type = parser.parse_function_type()
        operand_values = parser.resolve_operands(
            operands, function_type.inputs.data, pos
        )
        return cls.create(
            operands=operand_values,
            result_types=function_type.outputs.data,
            properties={
                "in_shardings": shardings[0],
                "out_shardings": shardings[1],
                "manual_axes": manual_axes,
            },
            attributes=attributes,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.tensors, printer.print_operand)
        printer.print_string(")")
        for keyword, value in (
            ("in_shardings", self.in_shardings),
            ("out_shardings", self.out_shardings),
        ):
            printer.print_string(f" {keyword}=[")
            printer.print_list(
                value.shardings.data, lambda item: item.print_parameters(printer)
            )
            printer.print_string("]")
        printer.print_string(" manual_axes=")
        self.manual_axes.print_parameters(printer)
        printer.print_string(" (")
        printer.print_list(self.body.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(
            self.body, print_entry_block_args=False, print_block_terminators=True
        )
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(self.tensors.types, self.outputs.types)

    def manual_size(self) -> int:
        """How many devices the manual axes span (1 runs on one device)."""
        mesh = self.mesh()
        if mesh is None:
            return 1
        sizes = mesh.axis_sizes
        return math.prod(sizes.get(axis.data, 1) for axis in self.manual_axes.axes.data)

    def mesh(self) -> MeshAttr | None:
        for sharding in (*self.in_shardings.shardings, *self.out_shardings.shardings):
            return sharding.mesh(self)
        return None

    @op_errors
    def verify_(self) -> None:
        manual = {axis.data for axis in self.manual_axes.axes}
        terminator = self.body.block.last_op
        returned = () if terminator is None else tuple(terminator.operand_types)
        for kind, shardings, outer, inner in (
            (
                "operand",
                self.in_shardings,
                self.tensors.types,
                self.body.block.arg_types,
            ),
            ("result", self.out_shardings, self.outputs.types, returned),
        ):
            _verify_manual_values(self, kind, shardings, outer, inner, manual)
        shardings = (*self.in_shardings.shardings, *self.out_shardings.shardings)
        if not shardings:
            return
        meshes = {sharding.mesh(self) for sharding in shardings}
        meshes.discard(MeshAttr.get([]))
        if len(meshes) > 1 and self.manual_axes.axes.data:
            raise VerifyException(
                "all in and out shardings must be bound to the same mesh or an "
                "empty mesh."
            )
        mesh = next(iter(meshes), None)
        for axis in self.manual_axes.axes:
            if mesh is not None and axis.data not in mesh.axis_sizes:
                raise VerifyException(f'unknown manual axis: "{axis.data}"')
