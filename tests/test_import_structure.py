"""The package's import graph: no cycles, nothing depends on the CLI package,
imports point down the layers, and xquant modules are imported at module level
except where start-up time needs them lazy.

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


def _targets(
    node: ast.Import | ast.ImportFrom, package: str, modules: dict[str, Path]
) -> set[str]:
    """The modules one import statement names (`package`: the importer's package)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    base = node.module or ""
    if node.level:
        parts = package.split(".")
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join([*parts, base] if base else parts)
    targets: set[str] = set()
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        targets.add(sub if sub in modules else base)
    return targets


def _package(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text())
    hidden = _type_checking_nodes(tree)
    targets: set[str] = set()
    for node in ast.walk(tree):
        if node not in hidden and isinstance(node, ast.Import | ast.ImportFrom):
            targets |= _targets(node, _package(name, path), modules)
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
# `xquant.context` (make_context) needs only compat, and the interpreter's
# runner and the backends use it. The API (`xquant`), `xquant.universe` and
# `xquant.tools` sit above all of these and nothing in them is imported back.
LAYERS = (
    ("xquant.xdsl_internals",),
    ("xquant.numerics",),
    ("xquant.dialects",),
    ("xquant.compat", "xquant.context"),
    ("xquant.asm",),
    ("xquant.transforms",),
    ("xquant.interpreter",),
    ("xquant.backends",),
)

# Upward imports allowed for now, as (importer, imported) module pairs. Empty:
# a shared helper lives in the lowest layer of its users. A new upward
# import fails the test; move the helper down instead of listing it here.
KNOWN_UPWARD: set[tuple[str, str]] = set()


def _layer(name: str) -> int | None:
    for index, prefixes in enumerate(LAYERS):
        if any(name == p or name.startswith(p + ".") for p in prefixes):
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


# Modules that import xquant modules inside functions, on purpose, and why.
# Anything else imports them at module level: a function-local import that
# hides a cycle or an upward import hides a design problem.
LAZY_IMPORTS = {
    "xquant": "`import xquant` stays ~10 ms (the API's modules take ~600 ms), and "
    "xdsl-opt imports the package at every start through the entry point",
    "xquant.universe": "the xdsl.universe entry point: xdsl-opt imports it at every "
    "start; each dialect or pass is loaded when first used",
}


def _local_imports(name: str, path: Path, modules: dict[str, Path]) -> list[str]:
    """`line: module` for each xquant module imported inside a function of `path`."""
    tree = ast.parse(path.read_text())
    hidden = _type_checking_nodes(tree)
    found: list[str] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if node in hidden or not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in sorted(_targets(node, _package(name, path), modules)):
                if target == "xquant" or target.startswith("xquant."):
                    found.append(f"{node.lineno}: {target}")
    return found


def _function_local_imports(modules: dict[str, Path]) -> dict[str, list[str]]:
    found = {
        name: _local_imports(name, path, modules)
        for name, path in sorted(modules.items())
        if name not in LAZY_IMPORTS
    }
    return {name: lines for name, lines in found.items() if lines}


def test_xquant_modules_are_imported_at_module_level() -> None:
    assert _function_local_imports(_modules()) == {}


def test_the_lazy_imports_are_still_lazy() -> None:
    modules = _modules()
    for name in LAZY_IMPORTS:
        assert _local_imports(name, modules[name], modules), (
            f"{name} has no function-local import left: remove it from LAZY_IMPORTS"
        )


def test_the_local_import_finder_can_fail(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text(
        "from xquant.numerics import dtypes\n"
        "def f():\n"
        "    from . import values\n"
        "    import numpy\n"
        "    return values\n"
    )
    modules = {"xquant.numerics.example": source, "xquant.numerics.values": source}
    assert _local_imports("xquant.numerics.example", source, modules) == [
        "3: xquant.numerics.values"
    ]


# --- what a module may contain


def _defines_pass(tree: ast.Module) -> bool:
    """A module defines a pass: a class deriving from `ModulePass` with a `name`."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(
            ast.unparse(base).endswith("ModulePass") for base in node.bases
        ):
            return True
    return False


def test_transforms_holds_only_passes() -> None:
    """Each module directly in `xquant/transforms/` (or the package of one pass)
    defines a pass; helpers live in `xquant/transforms/utils/` or in the pass's
    own package."""
    folder = PACKAGE / "transforms"
    not_passes = [
        path.name
        for path in sorted(folder.glob("*.py"))
        if path.name != "__init__.py" and not _defines_pass(ast.parse(path.read_text()))
    ]
    packages = [
        path.parent.name
        for path in sorted(folder.glob("*/__init__.py"))
        if path.parent.name != "utils"
        and not any(
            _defines_pass(ast.parse(module.read_text()))
            for module in path.parent.glob("*.py")
        )
    ]
    assert not_passes == [] and packages == []


def _private_names_defined(paths: list[Path]) -> set[str]:
    """Every `_name` that xquant itself defines (functions, classes, attributes, variables)."""
    names: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return {name for name in names if name.startswith("_")}


def _private_uses(path: Path, own: set[str]) -> list[str]:
    """`line: expression` for each use of a private name that xquant does not define
    (so xDSL's), and each `eval`/`exec`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and node.attr not in own
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "xdsl"
        ):
            found += [
                f"{node.lineno}: import {alias.name}"
                for alias in node.names
                if alias.name.startswith("_")
            ]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("eval", "exec")
        ):
            found.append(f"{node.lineno}: {node.func.id}")
    return found


# Modules still reaching into xDSL's privates directly, and why. Empty is the goal.
KNOWN_PRIVATE_USERS: dict[str, str] = {}


def test_only_compat_touches_xdsl_internals() -> None:
    """Outside `xquant/compat/` and `xquant/xdsl_internals.py`, no private xDSL name
    (an `_x` that xquant does not define itself), and no `eval`/`exec`."""
    paths = sorted(PACKAGE.rglob("*.py"))
    own = _private_names_defined(paths)
    found = {
        str(path.relative_to(PACKAGE.parent)): uses
        for path in paths
        if "compat" not in path.relative_to(PACKAGE).parts[:1]
        and path.name != "xdsl_internals.py"
        and (uses := _private_uses(path, own))
    }
    assert {k: v for k, v in found.items() if k not in KNOWN_PRIVATE_USERS} == {}
    assert set(KNOWN_PRIVATE_USERS) - set(found) == set(), "fixed: remove it"


def test_the_private_use_finder_can_fail(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text(
        "from xdsl.irdl import _hidden\n"
        "def f(parser, interpreter):\n"
        "    parser._current_token\n"
        "    interpreter._own\n"
        "    return eval('1')\n"
    )
    assert _private_uses(source, {"_own"}) == [
        "1: import _hidden",
        "3: parser._current_token",
        "5: eval",
    ]


def test_the_pass_finder_can_fail() -> None:
    assert _defines_pass(ast.parse("class P(ModulePass):\n    name = 'p'\n"))
    assert not _defines_pass(ast.parse("def helper():\n    pass\n"))
