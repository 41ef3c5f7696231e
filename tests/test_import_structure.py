"""The package's import graph: no cycles, and nothing depends on the CLI package.

Edges are read from the source (module-level and function-local imports,
not those under `if TYPE_CHECKING:`). `from pkg import sub` is an edge to the
module `pkg.sub` when that is a module, and a module's import of its own
ancestor packages is not an edge (Python imports them first anyway).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "xquant"


def _modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


def _type_checking_nodes(tree: ast.Module) -> set[ast.AST]:
    hidden: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                hidden.update(ast.walk(child))
    return hidden


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text())
    hidden = _type_checking_nodes(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if node in hidden:
            continue
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in modules else base)
    return {
        t
        for t in targets
        if t in modules and not (name == t or name.startswith(t + "."))
    }


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    assert _cycles(_graph()) == []


def test_the_library_does_not_import_the_tools() -> None:
    offenders = {
        name: sorted(t for t in targets if t.startswith("xquant.tools"))
        for name, targets in _graph().items()
        if not name.startswith("xquant.tools")
    }
    assert {n: t for n, t in offenders.items() if t} == {}


# Bottom to top; a module may import its own layer and those below it.
LAYERS = (
    "xquant.numerics",
    "xquant.dialects",
    "xquant.compat",
    "xquant.asm",
    "xquant.transforms",
    "xquant.interpreter",
    "xquant.backends",
)

# Upward imports allowed for now, as (importer, imported) module pairs. Empty:
# a shared helper lives in the lowest layer of its users. A new upward
# import fails the test; move the helper down instead of listing it here.
KNOWN_UPWARD: set[tuple[str, str]] = set()


def _layer(name: str) -> int | None:
    for index, prefix in enumerate(LAYERS):
        if name == prefix or name.startswith(prefix + "."):
            return index
    return None


def test_imports_point_down_the_layers() -> None:
    upward: set[tuple[str, str]] = set()
    for name, targets in _graph().items():
        low = _layer(name)
        for target in targets:
            high = _layer(target)
            if low is not None and high is not None and high > low:
                upward.add((name, target))
    assert upward - KNOWN_UPWARD == set()
    assert KNOWN_UPWARD - upward == set(), "fixed: remove it from KNOWN_UPWARD"


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ],
)
def test_the_cycle_finder_can_fail(
    graph: dict[str, set[str]], expected: list[list[str]]
) -> None:
    assert _cycles(graph) == expected
