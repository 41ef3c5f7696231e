"""docs/architecture.md's package tree names every folder and top-level module of
`xquant/`, and nothing that is not there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "xquant"


def tree_entries(text: str) -> set[str]:
    """The folders (`a/b/`) and top-level modules (`x.py`) the tree block lists, by
    indentation (two spaces a level)."""
    start = text.index("```\nxquant/\n")
    block = text[start + 4 : text.index("```", start + 4)].splitlines()
    entries: set[str] = set()
    stack: list[str] = []
    for line in block:
        match = re.match(r"^( *)(\S+?/|\w+\.py)(\s|$)", line)
        if match is None:
            continue
        depth = len(match.group(1)) // 2
        name = match.group(2)
        del stack[depth:]
        if name.endswith("/"):
            stack.append(name.rstrip("/"))
            entries.add("/".join(stack) + "/")
        elif depth == 1:
            entries.add(f"xquant/{name}")
    return entries


def actual_entries() -> set[str]:
    folders = {
        str(p.relative_to(ROOT)) + "/"
        for p in PACKAGE.rglob("*")
        if p.is_dir() and p.name != "__pycache__" and (p / "__init__.py").exists()
    }
    modules = {f"xquant/{p.name}" for p in PACKAGE.glob("*.py")}
    return folders | {"xquant/"} | modules


def test_tree_matches_the_package() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text()
    assert tree_entries(text) == actual_entries()


def test_the_tree_reader_can_fail() -> None:
    text = "```\nxquant/\n  a.py   one\n  b/     two\n    c/   three\n```\n"
    assert tree_entries(text) == {"xquant/", "xquant/a.py", "xquant/b/", "xquant/b/c/"}
