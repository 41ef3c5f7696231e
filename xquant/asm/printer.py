"""A printer that writes what `mlir-opt` (LLVM 22.1.8) writes.

xDSL's `Printer` keeps the SSA names of the input, prints every op with its
dialect prefix, writes affine maps inline and prints `i64` integers inside
arrays with their type. Upstream FileCheck tests expect MLIR's `AsmPrinter`
instead. `MLIRPrinter` reproduces its conventions:

- SSA names as MLIR's `SSANameState`: entry block arguments `%arg0..`, results
  `%0..` numbered per region (a nested region continues after the values of
  its parent region, sibling regions restart from the same point), the
  `OpAsmOpInterface` name hints (`%c0_i32`, `%true`, `%cst`, `%cast`,
  `%in`/`%out`, ...) made unique with one conflict counter (`%cst_0`), and
  multi-result ops as `%0:2 = ...` used as `%0#1`. In the generic form
  (`--mlir-print-op-generic`) hints are off and numbering never restarts, as
  MLIR's `shouldPrintUniqueSSAIDs` does there.
- Op names without the prefix of the enclosing default dialect
  (`OpAsmOpInterface::getDefaultDialect`: `module` at the top, `return` and
  `call` directly inside `func.func`).
- Affine maps (and sets) as `#map`, `#map1`, ... aliases defined before the
  top-level op, in order of first use (found by a first, discarded printing
  pass, as MLIR's `AliasInitializer` runs a dummy printer).
- Attribute dictionaries sorted by name, `i64`/`f64` elements of arrays
  without their type, MLIR's float spelling (APFloat's `toString`, upper-case
  hexadecimal for NaN and infinities), dense elements as a hexadecimal blob
  beyond a size threshold (`--mlir-print-elementsattrs-with-hex-if-larger`).
- Blocks other than the entry block with MLIR's predecessor comment
  (`^bb1(%2: i32):  // pred: ^bb0`).
- With `print_debuginfo`, locations as `loc(#locN)` aliases defined after
  the top-level op (`#loc = loc("f.mlir":1:1)`).

The class only overrides `Printer` hooks and calls `super()`, so it composes
with other `Printer` subclasses by multiple inheritance.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, ClassVar, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    AnyFloat,
    ArrayAttr,
    CallSiteLoc,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FloatData,
    FunctionType,
    FusedLoc,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NameLoc,
    NoneAttr,
    Signedness,
    UnknownLoc,
)
from xdsl.dialects.utils.format import print_func_op_like
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    OpResult,
    Region,
    SSAValue,
)
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.printer import Printer
from xdsl.utils.hints import isa

from xquant.compat.locations import FileLineColRange, is_location
from xquant.numerics.float_format import format_float, format_floats
from xquant.xdsl_internals import (
    block_name,
    name_tables,
    print_dense_element,
    print_dense_list,
)

__all__ = [
    "MLIRPrinter",
    "module_to_mlir",
    "print_module_mlir",
]


# ---------------------------------------------------------------------------------------
# Affine maps: a port of AsmPrinter's printAffineExpr


def _affine_expr(expr: AffineExpr, strong: bool) -> str:
    """`printAffineExprInternal`: parentheses only where binding needs them,
    `- x` for additions of negative products and constants."""
    if isinstance(expr, AffineDimExpr):
        return f"d{expr.position}"
    if isinstance(expr, AffineSymExpr):
        return f"s{expr.position}"
    if isinstance(expr, AffineConstantExpr):
        return str(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = expr.lhs, expr.rhs

    def wrap(text: str) -> str:
        return f"({text})" if strong else text

    if expr.kind != AffineBinaryOpKind.Add:
        if (
            expr.kind == AffineBinaryOpKind.Mul
            and isinstance(rhs, AffineConstantExpr)
            and rhs.value == -1
        ):
            return wrap("-" + _affine_expr(lhs, True))
        spelling = {
            AffineBinaryOpKind.Mul: " * ",
            AffineBinaryOpKind.FloorDiv: " floordiv ",
            AffineBinaryOpKind.CeilDiv: " ceildiv ",
            AffineBinaryOpKind.Mod: " mod ",
        }[expr.kind]
        return wrap(_affine_expr(lhs, True) + spelling + _affine_expr(rhs, True))
    if (
        isinstance(rhs, AffineBinaryOpExpr)
        and rhs.kind == AffineBinaryOpKind.Mul
        and isinstance(rhs.rhs, AffineConstantExpr)
    ):
        factor = rhs.rhs.value
        if factor == -1:
            nested_add = (
                isinstance(rhs.lhs, AffineBinaryOpExpr)
                and rhs.lhs.kind == AffineBinaryOpKind.Add
            )
            return wrap(
                _affine_expr(lhs, False) + " - " + _affine_expr(rhs.lhs, nested_add)
            )
        if factor < -1:
            return wrap(
                _affine_expr(lhs, False)
                + " - "
                + _affine_expr(rhs.lhs, True)
                + f" * {-factor}"
            )
    if isinstance(rhs, AffineConstantExpr) and rhs.value < 0:
        return wrap(_affine_expr(lhs, False) + f" - {-rhs.value}")
    return wrap(_affine_expr(lhs, False) + " + " + _affine_expr(rhs, False))


def affine_map_text(affine_map: AffineMap) -> str:
    """`(d0, d1)[s0] -> (d0 + s0, d1)` as MLIR prints it."""
    dims = ", ".join(f"d{i}" for i in range(affine_map.num_dims))
    symbols = ", ".join(f"s{i}" for i in range(affine_map.num_symbols))
    results = ", ".join(_affine_expr(e, False) for e in affine_map.results)
    head = f"({dims})" + (f"[{symbols}]" if affine_map.num_symbols else "")
    return f"{head} -> ({results})"


def _constraint_text(constraint: AffineConstraintExpr) -> str:
    """An `IntegerSet` constraint as MLIR prints it: `e >= 0` or `e == 0`.

    MLIR keeps only these two forms (its parser turns `a <= b` into
    `b - a >= 0`); xDSL keeps the kind, so `<=` is turned around here."""
    if constraint.kind == AffineConstraintKind.le:
        expr = constraint.rhs - constraint.lhs
    else:
        expr = constraint.lhs - constraint.rhs
    relation = " == 0" if constraint.kind == AffineConstraintKind.eq else " >= 0"
    return _affine_expr(expr, False) + relation


def _attribute_text(attr: Attribute) -> str | None:
    """The full spelling of an attribute MLIR aliases, or None for the others."""
    if isinstance(attr, AffineMapAttr):
        return f"affine_map<{affine_map_text(attr.data)}>"
    if isinstance(attr, AffineSetAttr):
        affine_set = attr.data
        dims = ", ".join(f"d{i}" for i in range(affine_set.num_dims))
        symbols = ", ".join(f"s{i}" for i in range(affine_set.num_symbols))
        head = f"({dims})" + (f"[{symbols}]" if affine_set.num_symbols else "")
        constraints = ", ".join(_constraint_text(c) for c in affine_set.constraints)
        return f"affine_set<{head} : ({constraints})>"
    return None


def _alias_prefix(attr: Attribute) -> str | None:
    """The builtin dialect's `OpAsmDialectInterface::getAlias` for attributes."""
    if isinstance(attr, AffineMapAttr):
        return "map"
    if isinstance(attr, AffineSetAttr):
        return "set"
    return None


# ---------------------------------------------------------------------------------------
# SSA names: a port of MLIR's SSANameState


def _sanitize(name: str) -> str:
    """MLIR's `sanitizeIdentifier`: a leading digit gets `_`, odd bytes become hex."""

    def valid(ch: str) -> bool:
        return (ch.isascii() and ch.isalnum()) or ch in "$._-"

    def copy() -> str:
        out: list[str] = []
        for ch in name:
            if valid(ch):
                out.append(ch)
            elif ch == " ":
                out.append("_")
            else:
                out.extend(f"{byte:X}" for byte in ch.encode())
        return "".join(out)

    if name[0].isdigit() or (not valid(name[0]) and name[0] != " "):
        return "_" + copy()
    if all(valid(ch) for ch in name):
        return name
    return copy()


def _signed(value: int, width: int) -> int:
    """An integer's two's complement reading at `width` bits (APInt's `<<` prints signed)."""
    if width <= 0:
        return value
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _value_of(op: Operation) -> Attribute | None:
    """The `value` property (or attribute) of a constant-like op."""
    value = op.properties.get("value")
    return op.attributes.get("value") if value is None else value


def _arith_constant_name(op: Operation) -> str:
    value = _value_of(op)
    if isa(value, IntegerAttr):
        value_type = value.type
        if isa(value_type, IntegerType):
            width = value_type.bitwidth
            if width == 1:
                return "true" if value.value.data else "false"
            number = value.value.data
            if value_type.signedness.data == Signedness.SIGNLESS:
                number = _signed(number, width)
            return f"c{number}_{_type_text(value_type)}"
        return f"c{value.value.data}"
    return "cst"


def _type_text(attr: Attribute) -> str:
    stream = io.StringIO()
    Printer(stream).print_attribute(attr)
    return stream.getvalue()


def _stablehlo_constant_name(op: Operation) -> str:
    value = _value_of(op)
    element = getattr(value, "type", None)
    element = getattr(element, "element_type", element)
    return "c" if isinstance(element, IntegerType) else "cst"


def _shape_const_size_name(op: Operation) -> str:
    value = _value_of(op)
    return f"c{value.value.data}" if isinstance(value, IntegerAttr) else "c"


def _fixed(name: str) -> Callable[[Operation], str]:
    return lambda op: name


@dataclass
class _Scope:
    """One level of MLIR's scoped table of used names (one per region)."""

    parent: _Scope | None
    names: set[str] = field(default_factory=set[str])

    def __contains__(self, name: str) -> bool:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return True
            scope = scope.parent
        return False


class SSANames:
    """The names MLIR gives to every value and block under a root op.

    `values` maps a value to its printed name without `%` (`arg0`, `3`,
    `c0_i32`, `2#1` for the second result of a multi-result op); `blocks`
    maps a block to its name without `^`; `result_counts` holds ops whose
    results print as `%0:2`.
    """

    def __init__(
        self,
        root: Operation,
        *,
        hints: bool,
        unique_ids: bool,
        result_names: Mapping[str, Callable[[Operation], str]],
        block_arg_names: Mapping[str, Callable[[Operation, Region], Sequence[str]]],
        result_group_names: Mapping[str, Sequence[str]] | None = None,
    ):
        self.values: dict[SSAValue, str] = {}
        self.blocks: dict[Block, str] = {}
        self.block_order: dict[Block, int] = {}
        self._hints = hints
        self._result_names = result_names
        self._result_group_names = result_group_names or {}
        self.named_results: set[Operation] = set()
        """Ops whose results are named one by one (`%head, %tail = ...`)."""
        self._block_arg_names = block_arg_names
        self._next_value = 0
        self._next_argument = 0
        self._next_conflict = 0
        top = _Scope(None)
        self._scope = top
        contexts: list[tuple[Region, int, int, int, _Scope]] = [
            (region, 0, 0, 0, top) for region in root.regions
        ]
        self._number_op(root)
        while contexts:
            region, value_id, argument_id, conflict_id, parent = contexts.pop()
            if not unique_ids:
                self._next_value = value_id
                self._next_argument = argument_id
                self._next_conflict = conflict_id
            self._scope = _Scope(parent)
            self._number_region(region)
            for op in _ops_of(region):
                for nested in op.regions:
                    contexts.append(
                        (
                            nested,
                            self._next_value,
                            self._next_argument,
                            self._next_conflict,
                            self._scope,
                        )
                    )

    def _unique(self, name: str) -> str:
        name = _sanitize(name)
        if name in self._scope:
            while True:
                probe = f"{name}_{self._next_conflict}"
                self._next_conflict += 1
                if probe not in self._scope:
                    name = probe
                    break
        self._scope.names.add(name)
        return name

    def _set_name(self, value: SSAValue, name: str) -> None:
        if name:
            self.values[value] = self._unique(name)
        else:
            self.values[value] = str(self._next_value)
            self._next_value += 1

    def _number_region(self, region: Region) -> None:
        parent = region.parent
        if self._hints and parent is not None:
            namer = self._block_arg_names.get(parent.name)
            if namer is not None:
                names = namer(parent, region)
                if region.blocks.first is not None:
                    for arg, name in zip(region.blocks.first.args, names, strict=False):
                        self._set_name(arg, name)
        for index, block in enumerate(region.blocks):
            self.blocks[block] = f"bb{index}"
            self.block_order[block] = index
            entry = index == 0
            for arg in block.args:
                if arg in self.values:
                    continue
                if entry:
                    self._set_name(arg, f"arg{self._next_argument}")
                    self._next_argument += 1
                else:
                    self._set_name(arg, "")
            for op in block.ops:
                self._number_op(op)

    def _number_op(self, op: Operation) -> None:
        if not op.results:
            return
        group = self._result_group_names.get(op.name) if self._hints else None
        if group is not None and len(group) == len(op.results):
            # `getAsmResultNames` naming every result: no `%0:2` grouping.
            for result, name in zip(op.results, group):
                self._set_name(result, name)
            self.named_results.add(op)
            return
        first = op.results[0]
        namer = self._result_names.get(op.name) if self._hints else None
        if namer is not None:
            self._set_name(first, namer(op))
        else:
            self._set_name(first, "")
        base = self.values[first]
        for index, result in enumerate(op.results[1:], start=1):
            self.values[result] = f"{base}#{index}"


def _ops_of(region: Region) -> Iterable[Operation]:
    for block in region.blocks:
        yield from block.ops


def _linalg_block_arg_names(op: Operation, region: Region) -> Sequence[str]:
    """LinalgOp's `getAsmBlockArgumentNames`: `in` for inputs, `out` for inits."""
    inputs = getattr(op, "inputs", ())
    outputs = getattr(op, "outputs", ())
    return ["in"] * len(inputs) + ["out"] * len(outputs)


def _linalg_init_block_arg_names(op: Operation, region: Region) -> Sequence[str]:
    """MapOp's and ReduceOp's `getAsmBlockArgumentNames`: `in` for inputs, `init` for inits."""
    return [n.replace("out", "init") for n in _linalg_block_arg_names(op, region)]


# ---------------------------------------------------------------------------------------
# Op formats where xDSL's printer differs from MLIR's


def _while_block_arg_names(op: Operation, region: Region) -> Sequence[str]:
    """`stablehlo.while`'s `getAsmBlockArgumentNames`: every loop-carried value is `%iterArg`."""
    block = region.blocks.first
    return ["iterArg"] * (len(block.args) if block is not None else 0)


def _print_affine_apply(printer: Printer, op: Operation) -> None:
    """`affine.apply #map(%d0)[%s0]`: xDSL puts a space before the dimensions."""
    map_attr = op.properties["map"]
    assert isinstance(map_attr, AffineMapAttr)
    dims = map_attr.data.num_dims
    printer.print_string(" ")
    printer.print_attribute(map_attr)
    with printer.in_parens():
        printer.print_list(op.operands[:dims], printer.print_operand)
    if len(op.operands) > dims:
        with printer.in_square_brackets():
            printer.print_list(op.operands[dims:], printer.print_operand)
    printer.print_op_attributes(op.attributes)


def _print_func(printer: Printer, op: Operation) -> None:
    """`func.func`: a declaration prints its argument attributes and no `-> ()`
    (xDSL prints its function type, dropping both)."""
    assert isinstance(op, func.FuncOp)
    if op.sym_visibility:
        printer.print_string(f" {op.sym_visibility.data}")
    reserved = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")
    if op.body.blocks:
        print_func_op_like(
            printer,
            op.sym_name,
            op.function_type,
            op.body,
            op.attributes,
            arg_attrs=op.arg_attrs,
            res_attrs=op.res_attrs,
            reserved_attr_names=reserved,
        )
        return
    printer.print_string(" ")
    printer.print_symbol_name(op.sym_name.data)
    _print_typed_list(printer, op.function_type.inputs.data, op.arg_attrs, parens=True)
    outputs = op.function_type.outputs.data
    if outputs:
        printer.print_string(" -> ")
        single = len(outputs) == 1 and not _has_attrs(op.res_attrs, 0)
        _print_typed_list(printer, outputs, op.res_attrs, parens=not single)
    printer.print_op_attributes(
        op.attributes, reserved_attr_names=reserved, print_keyword=True
    )


def _print_execute_region(printer: Printer, op: Operation) -> None:
    """`scf.execute_region -> i32 {...}`: MLIR's optional arrow type list (no
    parentheses around one type) and every terminator (xDSL drops `scf.yield`
    when there are no results)."""
    types = list(op.result_types)
    if types:
        printer.print_string(" -> ")
        single = len(types) == 1 and not isinstance(types[0], FunctionType)
        if not single:
            printer.print_string("(")
        printer.print_list(types, printer.print_attribute)
        if not single:
            printer.print_string(")")
    printer.print_string(" ")
    if "no_inline" in op.properties or "no_inline" in op.attributes:
        printer.print_string("no_inline ")
    printer.print_region(
        op.regions[0], print_entry_block_args=False, print_block_terminators=True
    )
    printer.print_op_attributes(op.attributes, reserved_attr_names=("no_inline",))


def _has_attrs(attrs: ArrayAttr[DictionaryAttr] | None, index: int) -> bool:
    return attrs is not None and bool(attrs.data[index].data)


def _print_typed_list(
    printer: Printer,
    types: Sequence[Attribute],
    attrs: ArrayAttr[DictionaryAttr] | None,
    *,
    parens: bool,
) -> None:
    """`(t0 {attrs}, t1)` as MLIR prints a declaration's inputs or results."""

    def print_one(index: int) -> None:
        printer.print_attribute(types[index])
        if _has_attrs(attrs, index):
            assert attrs is not None
            printer.print_string(" ")
            printer.print_attr_dict(attrs.data[index].data)

    if parens:
        printer.print_string("(")
    printer.print_list(range(len(types)), print_one)
    if parens:
        printer.print_string(")")


# ---------------------------------------------------------------------------------------
# The printer


@dataclass(eq=False, repr=False)
class MLIRPrinter(Printer):
    """A `Printer` whose output is byte-identical to `mlir-opt`'s.

    `hex_threshold` is `--mlir-print-elementsattrs-with-hex-if-larger`: a
    non-splat dense attribute with more elements prints as a hexadecimal blob
    (`-1` never). `print_generic_format` and `print_debuginfo` (inherited)
    are `--mlir-print-op-generic` and `--mlir-print-debuginfo`.

    Names, aliases and locations are computed for each top-level `print_op`
    call; nested calls from op printers reuse them.
    """

    hex_threshold: int = field(default=100, kw_only=True)

    # Op name -> name hint of its first result (MLIR's `getAsmResultNames`).
    result_name_hints: ClassVar[dict[str, Callable[[Operation], str]]] = {
        "arith.constant": _arith_constant_name,
        "stablehlo.constant": _stablehlo_constant_name,
        "shape.const_size": _shape_const_size_name,
        "linalg.map": _fixed("mapped"),
        "linalg.reduce": _fixed("reduced"),
        "tensor.cast": _fixed("cast"),
        "tensor.collapse_shape": _fixed("collapsed"),
        "tensor.concat": _fixed("concat"),
        "tensor.dim": _fixed("dim"),
        "tensor.expand_shape": _fixed("expanded"),
        "tensor.extract": _fixed("extracted"),
        "tensor.extract_slice": _fixed("extracted_slice"),
        "tensor.from_elements": _fixed("from_elements"),
        "tensor.generate": _fixed("generated"),
        "tensor.insert": _fixed("inserted"),
        "tensor.insert_slice": _fixed("inserted_slice"),
        "tensor.pad": _fixed("padded"),
        "tensor.rank": _fixed("rank"),
        "tensor.reshape": _fixed("reshape"),
        "tensor.splat": _fixed("splat"),
    }
    # Op name -> a name for each of its results, printed one by one.
    result_group_hints: ClassVar[dict[str, Sequence[str]]] = {
        "shape.split_at": ("head", "tail"),
        # StableHLO's multi-result ops: ODS names each result group (OpDefinitionsGen's
        # genOpAsmInterface), so MLIR prints `%grad_operand, %grad_scale, ...`.
        "stablehlo.batch_norm_grad": ("grad_operand", "grad_scale", "grad_offset"),
        "stablehlo.batch_norm_training": ("output", "batch_mean", "batch_var"),
        "stablehlo.rng_bit_generator": ("output_state", "output"),
    }
    # Op name -> names of its regions' entry block arguments (`getAsmBlockArgumentNames`).
    block_argument_hints: ClassVar[
        dict[str, Callable[[Operation, Region], Sequence[str]]]
    ] = {
        "linalg.generic": _linalg_block_arg_names,
        **dict.fromkeys(("linalg.map", "linalg.reduce"), _linalg_init_block_arg_names),
        "stablehlo.while": _while_block_arg_names,
    }
    # Op name -> the dialect whose prefix its regions' ops drop (`getDefaultDialect`).
    default_dialects: ClassVar[dict[str, str]] = {
        "builtin.module": "builtin",
        "func.func": "func",
    }

    # Op name -> its custom format where xDSL's differs from MLIR's (the text
    # after the op name).
    custom_printers: ClassVar[dict[str, Callable[[Printer, Operation], None]]] = {
        "affine.apply": _print_affine_apply,
        "func.func": _print_func,
        "scf.execute_region": _print_execute_region,
    }

    _names: SSANames | None = field(default=None, init=False)
    _aliases: dict[Attribute, str] = field(
        default_factory=dict[Attribute, str], init=False
    )
    _alias_uses: list[Attribute] | None = field(default=None, init=False)
    _dialect_stack: list[str] = field(default_factory=lambda: ["builtin"], init=False)
    _op_name_rewrite: tuple[str, str] | None = field(default=None, init=False)
    _pending_comment: str | None = field(default=None, init=False)
    _header_args_left: int = field(default=0, init=False)
    _defining: bool = field(default=False, init=False)
    # Location -> its alias number (`#loc`, `#loc1`, ...); while collecting,
    # the order of first visit.
    _locations: dict[Attribute, int] = field(
        default_factory=dict[Attribute, int], init=False
    )
    # Locations defined before the module (block arguments' and what they
    # nest); the others are defined after it.
    _inline_locations: dict[Attribute, None] = field(
        default_factory=dict[Attribute, None], init=False
    )
    # While collecting: each location's alias depth and nested locations.
    _location_depths: dict[Attribute, int] = field(
        default_factory=dict[Attribute, int], init=False
    )
    # The location of the argument `print_func_op_like` is printing.
    _argument_location: Attribute | None = field(default=None, init=False)

    # -- top level ---------------------------------------------------------------------

    def print_op(self, op: Operation) -> None:
        if self._names is not None:
            self._print_op_named(op)
            return
        self._names = SSANames(
            op,
            hints=not self.print_generic_format,
            unique_ids=self.print_generic_format,
            result_names=self.result_name_hints,
            block_arg_names=self.block_argument_hints,
            result_group_names=self.result_group_hints,
        )
        values, blocks = name_tables(self)
        values.update(self._names.values)
        blocks.update(self._names.blocks)
        try:
            if self._alias_uses is None:
                self._collect_aliases(op)
            self._print_alias_definitions()
            self._print_op_named(op)
            if self.print_debuginfo and self._alias_uses is None:
                self._print_location_definitions()
        finally:
            self._names = None

    def _collect_aliases(self, op: Operation) -> None:
        """Name the aliased attributes in order of first use, as MLIR's
        `AliasInitializer`: a first printing pass into a discarded stream."""
        if not self.print_debuginfo and not _has_aliasable(op):
            return
        # `replace` copies the configuration (and the subclass, whatever it is).
        dummy = dataclasses.replace(self, stream=io.StringIO())
        dummy._alias_uses = []
        dummy.print_op(op)
        counts: dict[str, int] = {}
        for attr in dummy._alias_uses:
            prefix = _alias_prefix(attr)
            if prefix is None:
                continue
            index = counts.get(prefix, 0)
            counts[prefix] = index + 1
            self._aliases[attr] = prefix + (str(index) if index else "")
        # MLIR's `AliasInitializer`: aliases sort by depth (a location
        # nesting aliased ones is one deeper than the deepest), then by first
        # visit; the numbers follow that order.
        visited = sorted(dummy._locations, key=dummy._location_depths.__getitem__)
        for index, location in enumerate(visited):
            self._locations[location] = index
        self._inline_locations.update(dummy._inline_locations)
        self._location_depths.update(dummy._location_depths)

    def _print_alias_definitions(self) -> None:
        if self._alias_uses is not None:
            return
        # Attributes sort by depth (a location nesting aliased ones comes
        # after them; other aliases nest none), then by alias name (stable:
        # first use within a name); block arguments' locations are among them.
        definitions: list[tuple[int, str, str, Attribute]] = [
            (1, _prefix_of(name), name, attr) for attr, name in self._aliases.items()
        ]
        definitions += [
            (
                self._location_depths[location],
                "loc",
                _loc_name(self._locations[location]),
                location,
            )
            for location in sorted(
                self._inline_locations, key=self._locations.__getitem__
            )
        ]
        for _, prefix, name, attr in sorted(definitions, key=lambda item: item[:2]):
            if prefix == "loc":
                self.print_string(f"#{name} = ", indent=0)
                self._print_location_literal(attr)
                self.print_string("\n", indent=0)
            else:
                self.print_string(f"#{name} = {_attribute_text(attr)}\n", indent=0)

    def _print_location_definitions(self) -> None:
        for location, index in self._locations.items():
            if location in self._inline_locations:
                continue
            self.print_string("\n", indent=0)
            self.print_string(f"#{_loc_name(index)} = ", indent=0)
            self._print_location_literal(location)

    # -- ops ---------------------------------------------------------------------------

    def _print_op_named(self, op: Operation) -> None:
        if self.print_debuginfo and self._alias_uses is not None:
            # MLIR visits an op's location before anything inside the op.
            self._visit_location(op.location, deferrable=True)
        short = op.name
        if not self.print_generic_format:
            default = self._dialect_stack[-1]
            if default and short.startswith(default + ".") and short.count(".") == 1:
                short = short[len(default) + 1 :]
            custom = self.custom_printers.get(op.name)
            if custom is not None:
                # What `Printer.print_op` does for a custom format, with
                # MLIR's format in place of the op's own `print`.
                self._print_results(op)
                self.print_string(short)
                custom(self, op)
                if self.print_debuginfo:
                    self.print_string(" ")
                    self.print_attribute(op.location)
                return
            if short != op.name:
                self._op_name_rewrite = (op.name, short)
        try:
            super().print_op(op)
        finally:
            self._op_name_rewrite = None

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        # The op name is printed by `Printer.print_op`; this is where a default
        # dialect's prefix can be dropped without copying that method.
        rewrite = self._op_name_rewrite
        if rewrite is not None and text == rewrite[0]:
            self._op_name_rewrite = None
            text = rewrite[1]
        elif (
            self._pending_comment is not None
            and text == ":"
            and self._header_args_left <= 0
        ):
            text += self._pending_comment
            self._pending_comment = None
        super().print_string(text, indent=indent)

    def _print_results(self, op: Operation) -> None:
        if not op.results:
            return
        if self._names is not None and op in self._names.named_results:
            self.print_list(op.results, self.print_ssa_value)
            self.print_string(" = ")
            return
        self._defining = True
        self.print_ssa_value(op.results[0])
        if len(op.results) > 1:
            self.print_string(f":{len(op.results)}")
        self.print_string(" = ")

    def print_ssa_value(self, value: SSAValue) -> str:
        # A use of the first result of a multi-result op is `%0#0`; its
        # definition is `%0:2`.
        defining, self._defining = self._defining, False
        name = super().print_ssa_value(value)
        if (
            not defining
            and isinstance(value, OpResult)
            and value.index == 0
            and len(value.op.results) > 1
            and (self._names is None or value.op not in self._names.named_results)
        ):
            self.print_string("#0")
            name += "#0"
        return name

    def print_region(
        self,
        region: Region,
        print_entry_block_args: bool = True,
        print_empty_block: bool = True,
        print_block_terminators: bool = True,
    ) -> None:
        parent = region.parent
        self._dialect_stack.append(
            self.default_dialects.get(parent.name, "") if parent is not None else ""
        )
        try:
            super().print_region(
                region,
                print_entry_block_args,
                print_empty_block,
                print_block_terminators,
            )
        finally:
            self._dialect_stack.pop()

    def print_block(
        self,
        block: Block,
        print_block_args: bool = True,
        print_block_terminator: bool = True,
    ) -> None:
        if print_block_args:
            # MLIR writes the predecessors after the header's colon. The header
            # is printed by `Printer.print_block` (not copied here, so other
            # subclasses' overrides still apply); `print_string` adds the comment
            # to the first ':' printed once every block argument is done.
            self._pending_comment = self._predecessor_comment(block)
            self._header_args_left = len(block.args)
        super().print_block(block, print_block_args, print_block_terminator)

    def print_block_argument(self, arg: BlockArgument, print_type: bool = True) -> None:
        self.print_ssa_value(arg)
        if print_type:
            self.print_string(": ")
            self.print_attribute(arg.type)
            if self.print_debuginfo:
                self.print_string(" ")
                self._print_argument_location(arg.location)
        elif self.print_debuginfo:
            # `print_func_op_like` prints the type, the attributes, then the
            # location through `print_attribute`.
            self._argument_location = arg.location
        if self._pending_comment is not None:
            self._header_args_left -= 1

    def _predecessor_comment(self, block: Block) -> str:
        """MLIR's `// pred: ^bb0` / `// 2 preds: ^bb0, ^bb1` / `// no predecessors`."""
        region = block.parent
        if region is None:
            return "  // block is not in a region!"
        predecessors = block.predecessors()
        if not predecessors:
            return "" if region.blocks.first is block else "  // no predecessors"
        if all(p is predecessors[0] for p in predecessors):
            return f"  // pred: ^{block_name(self, predecessors[0])}"
        order = self._names.block_order if self._names else {}
        ordered = sorted(predecessors, key=lambda b: order.get(b, 0))
        names = ", ".join(f"^{block_name(self, b)}" for b in ordered)
        return f"  // {len(ordered)} preds: {names}"

    def print_successors(self, successors: Sequence[Block]) -> None:
        # The generic form has no space before the successor list.
        if successors:
            with self.in_square_brackets():
                self.print_list(successors, self.print_block_name)

    # -- attributes --------------------------------------------------------------------

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, AffineMapAttr | AffineSetAttr):
            if self._alias_uses is not None:
                if attribute not in self._alias_uses:
                    self._alias_uses.append(attribute)
            elif attribute in self._aliases:
                self.print_string(f"#{self._aliases[attribute]}")
                return
            text = _attribute_text(attribute)
            assert text is not None
            self.print_string(text)
            return
        # isinstance and a cast, not `isa`: this runs for every attribute printed.
        if isinstance(attribute, ArrayAttr):
            array = cast(ArrayAttr[Attribute], attribute)
            with self.in_square_brackets():
                self.print_list(array.data, self._print_attribute_elided)
            return
        if isinstance(attribute, DenseIntOrFPElementsAttr):
            dense = cast(DenseIntOrFPElementsAttr, attribute)
            self._print_dense(dense)
            self.print_string(" : ")
            self.print_attribute(dense.type)
            return
        if is_location(attribute):
            if attribute is self._argument_location:
                self._argument_location = None
                self._print_argument_location(attribute)
            else:
                self._print_location(attribute)
            return
        super().print_attribute(attribute)

    def _print_attribute_elided(self, attribute: Attribute) -> None:
        """`AttrTypeElision::May` (array elements): i64 and f64 drop their type."""
        if not self._print_untyped(attribute):
            self.print_attribute(attribute)

    def _print_untyped(self, attribute: Attribute) -> bool:
        """Print an i64 integer or a (decimal) f64 float without its type; False
        for any other attribute (nothing printed)."""
        if isinstance(attribute, IntegerAttr):
            integer = cast(IntegerAttr, attribute)
            if integer.type == IntegerType(64):
                self.print_int(integer.value.data, integer.type)
                return True
        if isinstance(attribute, FloatAttr):
            real = cast(FloatAttr, attribute)
            if isinstance(real.type, Float64Type):
                text = format_float(real.value.data, real.type)
                if not text.startswith("0x"):
                    self.print_string(text)
                    return True
        return False

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        # MLIR's DictionaryAttr keeps its entries sorted by name.
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    def print_float(self, value: float, type: AnyFloat) -> None:
        self.print_string(format_float(value, type))

    def _print_dense(self, attr: DenseIntOrFPElementsAttr) -> None:
        """`dense<...>` without the type: splat, nested lists, or a hex blob.

        Rewritten from xDSL's `print_without_type` for the threshold, the
        blob layout (MLIR's raw data: i1 packed eight to a byte) and speed:
        the elements are read and formatted as whole numpy arrays."""
        count = len(attr)
        shape = attr.get_shape()
        self.print_string("dense<")
        if count == 0:
            pass
        elif _is_splat(attr, count):
            print_dense_element(attr, attr.get_values()[0], self)
        elif self.hex_threshold != -1 and count > self.hex_threshold:
            self.print_string(f'"0x{_raw_data(attr).hex().upper()}"')
        elif (texts := _element_texts(attr)) is not None:
            self.print_string(_nested_list(texts, shape))
        else:
            print_dense_list(attr, attr.get_values(), shape, self)
        self.print_string(">")

    # -- locations ---------------------------------------------------------------------

    def _print_location(self, location: Attribute) -> None:
        """An op's location: `loc(#locN)`, defined after the module."""
        if self._alias_uses is not None:
            self._visit_location(location, deferrable=True)
            return
        index = self._locations.get(location)
        if index is None:
            self._print_location_literal(location)
            return
        self.print_string(f"loc(#{_loc_name(index)})")

    def _print_argument_location(self, location: Attribute) -> None:
        """A block argument's location: MLIR prints it inline (what it nests
        as `#locN`), and defines its alias before the module all the same."""
        if self._alias_uses is not None:
            self._visit_location(location, deferrable=False)
            return
        self._print_location_literal(location)

    def _visit_location(self, location: Attribute, *, deferrable: bool) -> int:
        """Record `location` and what it nests (first visit first); its depth.

        A location that is not deferrable (a block argument's) and all it
        nests are defined before the module."""
        depth = self._location_depths.get(location)
        if depth is None:
            self._locations[location] = len(self._locations)
            self._location_depths[location] = 0
            nested = [
                self._visit_location(child, deferrable=deferrable)
                for child in _nested_locations(location)
            ]
            depth = 1 + max(nested, default=0)
            self._location_depths[location] = depth
        if not deferrable:
            self._mark_not_deferrable(location)
        return depth

    def _mark_not_deferrable(self, location: Attribute) -> None:
        if location in self._inline_locations:
            return
        self._inline_locations[location] = None
        for child in _nested_locations(location):
            self._mark_not_deferrable(child)

    def _print_location_literal(self, location: Attribute) -> None:
        """`loc(...)`, the locations it nests as `#locN`."""
        self.print_string("loc(")
        self._print_location_body(location)
        self.print_string(")")

    def _print_nested_location(self, location: Attribute) -> None:
        index = self._locations.get(location)
        if index is not None and self._alias_uses is None:
            self.print_string(f"#{_loc_name(index)}")
        else:
            self._print_location_body(location)

    def _print_location_body(self, location: Attribute) -> None:
        """MLIR's `printLocationInternal` (not pretty)."""
        if isinstance(location, UnknownLoc):
            self.print_string("unknown")
        elif isinstance(location, FileLineColLoc):
            self.print_string_literal(location.filename.data)
            self.print_string(f":{location.line.data}:{location.column.data}")
        elif isinstance(location, FileLineColRange):
            self.print_string_literal(location.filename.data)
            self.print_string(":" + location.range_text())
        elif isinstance(location, NameLoc):
            self.print_string_literal(location.desc.data)
            if not isinstance(location.location, NoneAttr | UnknownLoc):
                self.print_string("(")
                self._print_nested_location(location.location)
                self.print_string(")")
        elif isinstance(location, CallSiteLoc):
            self.print_string("callsite(")
            self._print_nested_location(location.callee)
            self.print_string(" at ")
            self._print_nested_location(location.caller)
            self.print_string(")")
        elif isinstance(location, FusedLoc):
            self.print_string("fused")
            if not isinstance(location.metadata, NoneAttr):
                self.print_string("<")
                self.print_attribute(location.metadata)
                self.print_string(">")
            with self.in_square_brackets():
                self.print_list(
                    _nested_locations(location), self._print_nested_location
                )
        else:
            super().print_attribute(location)


def _nested_locations(location: Attribute) -> Sequence[Attribute]:
    """The locations `location` prints inside itself, in printing order."""
    if isinstance(location, NameLoc):
        if isinstance(location.location, NoneAttr | UnknownLoc):
            return ()
        return (location.location,)
    if isinstance(location, CallSiteLoc):
        return (location.callee, location.caller)
    if isinstance(location, FusedLoc):
        return cast(ArrayAttr[Attribute], location.locations).data
    return ()


def _loc_name(index: int) -> str:
    return "loc" if index == 0 else f"loc{index}"


def _prefix_of(alias: str) -> str:
    return alias.rstrip("0123456789")


def _raw_data(attr: DenseIntOrFPElementsAttr) -> bytes:
    """MLIR's raw storage: little-endian elements, i1 as bits (lsb first), index as i64."""
    element = attr.get_element_type()
    if isinstance(element, IntegerType) and element.width.data == 1:
        bits = np.frombuffer(attr.data.data, np.dtype(element.format)) != 0
        return np.packbits(bits, bitorder="little").tobytes()
    if isinstance(element, IndexType):
        values = np.frombuffer(attr.data.data, np.dtype(element.format))
        return values.astype("<i8").tobytes()
    return attr.data.data


def _is_splat(attr: DenseIntOrFPElementsAttr, count: int) -> bool:
    """All elements have the same bits (xDSL's `is_splat` compares values, and NaN != NaN)."""
    data = attr.data.data
    size = len(data) // count
    return data[:size] * count == data


def _element_texts(attr: DenseIntOrFPElementsAttr) -> list[str] | None:
    """Each element as MLIR prints it in a dense list, or None for the element
    types left to xDSL's per-element printing (complex, and floats numpy does
    not hold natively)."""
    element = attr.get_element_type()
    if isinstance(element, IntegerType | IndexType):
        if isinstance(element, IntegerType) and element.bitwidth > 64:
            return None
        values = np.frombuffer(attr.data.data, np.dtype(element.format))
        if isinstance(element, IntegerType) and element.bitwidth == 1:
            return np.where(values != 0, "true", "false").tolist()
        return values.astype(str).tolist()
    if isinstance(element, Float16Type | Float32Type | Float64Type):
        values = np.frombuffer(attr.data.data, np.dtype(element.format))
        return format_floats(values, element)
    return None


def _nested_list(texts: list[str], shape: Sequence[int]) -> str:
    """`[[a, b], [c, d]]`: `texts` in brackets following `shape`, innermost first."""
    level = texts
    for axis in reversed(range(len(shape))):
        width = shape[axis]
        level = [
            "[" + ", ".join(level[g * width : (g + 1) * width]) + "]"
            for g in range(len(level) // width if width else 0)
        ]
    return level[0] if level else "[]"


_PLAIN_DATA: set[type] = {FloatData, IntAttr}


def _has_aliasable(op: Operation) -> bool:
    """Whether any attribute under `op` (op attributes, properties, types) is
    one MLIR aliases, so the alias pass can be skipped for most modules."""

    def visit(attr: Attribute) -> bool:
        if isinstance(attr, AffineMapAttr | AffineSetAttr):
            return True
        if isinstance(attr, ArrayAttr):  # not `isa`: this visits every attribute
            elements = cast(ArrayAttr[Attribute], attr).data
            if {type(a) for a in elements} <= _PLAIN_DATA:
                return False  # e.g. the scales of a quantized type: no recursion
            return any(visit(a) for a in elements)
        params: object = getattr(attr, "parameters", None)
        if isinstance(params, tuple):
            elements = cast(tuple[object, ...], params)
            return any(visit(p) for p in elements if isinstance(p, Attribute))
        data: object = getattr(attr, "data", None)
        if isinstance(data, Mapping):
            entries = cast(Mapping[object, object], data)
            return any(visit(a) for a in entries.values() if isinstance(a, Attribute))
        return False

    for nested in op.walk():
        for attr in (*nested.attributes.values(), *nested.properties.values()):
            if visit(attr):
                return True
        for result in nested.results:
            if visit(result.type):
                return True
    return False


# ---------------------------------------------------------------------------------------
# Entry points


def print_module_mlir(
    module: Operation,
    stream: IO[str],
    *,
    generic: bool = False,
    debuginfo: bool = False,
    hex_threshold: int = 100,
    dialects: Iterable[Dialect] = (),
) -> None:
    """Write `module` to `stream` as `mlir-opt` does, ending with a newline.

    `dialects` (the context's loaded dialects) resolve `dense_resource` blobs
    for the `{-# dialect_resources ... #-}` section after the module."""
    printer = MLIRPrinter(
        stream,
        print_generic_format=generic,
        print_debuginfo=debuginfo,
        hex_threshold=hex_threshold,
    )
    printer.print_op(module)
    printer.print_metadata(dialects)
    stream.write("\n")


def module_to_mlir(
    module: Operation,
    *,
    generic: bool = False,
    debuginfo: bool = False,
    hex_threshold: int = 100,
    dialects: Iterable[Dialect] = (),
) -> str:
    """`print_module_mlir` into a string."""
    stream = io.StringIO()
    print_module_mlir(
        module,
        stream,
        generic=generic,
        debuginfo=debuginfo,
        hex_threshold=hex_threshold,
        dialects=dialects,
    )
    return stream.getvalue()
