"""`inline`: MLIR's inliner for `func.call`s of single-block `func.func`s.

As `mlir-opt -inline` (default pipeline `canonicalize`): every call whose
callee is a `func.func` defined in the module, outside the caller's recursion
cycle, with one block, and whose ops all come from dialects that can be
inlined (those with an inliner interface upstream, `quant` included) is
replaced by a copy of the callee's body. Callees are inlined into before their
callers, so a chain of calls flattens in one run. A private callee left
without uses is erased, and `canonicalize` runs on the result.

Left as calls, where upstream inlines: callees of several blocks (upstream
splits the caller's block and branches; this pass keeps the call rather than
emit `cf` it cannot fold). Left as calls, as upstream: recursive calls,
declarations, callees holding an op of a dialect without an inliner interface
(unregistered ops included).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr, UnregisteredOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xquant.transforms.canonicalize import CanonicalizePass

__all__ = ["INLINABLE_DIALECTS", "InlinePass"]

INLINABLE_DIALECTS = frozenset(
    {
        "arith",
        "chlo",
        "complex",
        "func",
        "linalg",
        "math",
        "mx_tensor",
        "quant",
        "scf",
        "shape",
        "stablehlo",
        "tensor",
        "tosa",
    }
)
"""Dialects whose ops may be inlined: those with a `DialectInlinerInterface`
upstream (quant's since LLVM 20), and xquant's own mx_tensor."""


def _symbols_used(attr: Attribute) -> Iterator[str]:
    if isinstance(attr, SymbolRefAttr):
        yield attr.root_reference.data
        return
    data = getattr(attr, "data", None)
    if isinstance(data, tuple | list):
        for item in data:  # pyright: ignore[reportUnknownVariableType]
            if isinstance(item, Attribute):
                yield from _symbols_used(item)
    elif isinstance(data, dict):
        for item in data.values():  # pyright: ignore[reportUnknownVariableType]
            if isinstance(item, Attribute):
                yield from _symbols_used(item)


def _uses(module: ModuleOp) -> set[str]:
    """Every symbol named by an attribute or property of an op in the module."""
    used: set[str] = set()
    for op in module.walk():
        for attr in (*op.attributes.values(), *op.properties.values()):
            used.update(_symbols_used(attr))
    return used


def _inlinable_body(callee: func.FuncOp) -> bool:
    if len(callee.body.blocks) != 1:
        return False
    for op in callee.body.walk():
        if isinstance(op, UnregisteredOp):
            return False
        if op.name.split(".", 1)[0] not in INLINABLE_DIALECTS:
            return False
    return isinstance(callee.body.block.last_op, func.ReturnOp)


def _call_graph(functions: dict[str, func.FuncOp]) -> dict[str, set[str]]:
    return {
        name: {
            op.callee.root_reference.data
            for op in fn.walk()
            if isinstance(op, func.CallOp)
            and op.callee.root_reference.data in functions
        }
        for name, fn in functions.items()
    }


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = list(graph[start])
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack.extend(graph[name])
    return seen


def _post_order(graph: dict[str, set[str]]) -> list[str]:
    """Callees before their callers (cycles in any order)."""
    order: list[str] = []
    done: set[str] = set()

    def visit(name: str, path: set[str]) -> None:
        if name in done or name in path:
            return
        path.add(name)
        for callee in sorted(graph[name]):
            visit(callee, path)
        path.discard(name)
        done.add(name)
        order.append(name)

    for name in graph:
        visit(name, set())
    return order


def _inline_call(call: func.CallOp, callee: func.FuncOp) -> None:
    body = callee.body.clone()
    block = body.block
    ret = block.last_op
    assert isinstance(ret, func.ReturnOp)
    results = list(ret.operands)
    ret.detach()
    ret.erase()
    Rewriter.inline_block(block, InsertPoint.before(call), call.arguments)
    for old, new in zip(call.results, results, strict=True):
        old.replace_all_uses_with(new)
    call.detach()
    call.erase()


@dataclass(frozen=True)
class InlinePass(ModulePass):
    """Inline calls to single-block functions (MLIR's `-inline`), then canonicalize."""

    name = "inline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = {
            fn.sym_name.data: fn for fn in op.ops if isinstance(fn, func.FuncOp)
        }
        graph = _call_graph(functions)
        inlined: set[str] = set()
        for name in _post_order(graph):
            calls = [c for c in functions[name].walk() if isinstance(c, func.CallOp)]
            for call in calls:
                target = call.callee.root_reference.data
                callee = functions.get(target)
                if (
                    callee is None
                    or name in _reachable(graph, target) | {target}
                    or not _inlinable_body(callee)
                ):
                    continue
                _inline_call(call, callee)
                inlined.add(target)
        used = _uses(op)
        for target in sorted(inlined - used):
            callee = functions[target]
            if (
                callee.sym_visibility is not None
                and callee.sym_visibility.data == "private"
            ):
                callee.detach()
                callee.erase()
        _canonicalize(ctx, op)


def _canonicalize(ctx: Context, op: ModuleOp) -> None:
    """The inliner's default pipeline: `canonicalize`, as MLIR's."""
    CanonicalizePass().apply(ctx, op)
