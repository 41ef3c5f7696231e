"""Runnable code blocks in README.md and docs/*.md, checked against the output they show.

The convention (docs/testing.md, "Runnable documentation"):

    ```sh {run}                       the block runs in bash -e at the repo root
    ```python {run}                   the block runs with this Python at the repo root
    ```mlir {run="xquant-opt -p X"}   the block is the stdin of that command
    ```text {output}                  right after one of those (blank lines
                                      between allowed): what it prints, stdout
                                      then stderr, compared line by line
                                      (trailing spaces and blank lines at the
                                      ends ignored)

`exit=N` in the braces expects that exit status instead of 0 (`{run exit=1}`).
A runnable block without an output block must just succeed. So a shown number
that the code no longer prints fails this test.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^```(?P<lang>[\w+-]*)\s*(?:\{(?P<attrs>.*)\})?\s*$")


@dataclass
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    lang: str
    attrs: dict[str, str]
    text: str
    output: str | None = None

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def parse_attrs(text: str | None) -> dict[str, str]:
    """`run="xquant-opt -p x" exit=1` -> {"run": "xquant-opt -p x", "exit": "1"}."""
    attrs: dict[str, str] = {}
    for token in shlex.split(text or ""):
        key, _, value = token.partition("=")
        attrs[key] = value
    return attrs


def fenced_blocks(path: Path) -> list[Block]:
    """Every top-level fenced block of a markdown file, in order."""
    lines = path.read_text().splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start = i
        i += 1
        body: list[str] = []
        while i < len(lines) and lines[i].rstrip() != "```":
            body.append(lines[i])
            i += 1
        i += 1  # the closing fence
        blocks.append(
            Block(
                path,
                start + 1,
                m["lang"],
                parse_attrs(m["attrs"]),
                "\n".join(body) + "\n",
            )
        )
    return blocks


def runnable_blocks(path: Path) -> list[Block]:
    """The `{run}` blocks of a file, each with its `{output}` block if one follows."""
    blocks = fenced_blocks(path)
    lines = path.read_text().splitlines()
    result: list[Block] = []
    for k, block in enumerate(blocks):
        if "run" not in block.attrs:
            continue
        if k + 1 < len(blocks) and "output" in blocks[k + 1].attrs:
            nxt = blocks[k + 1]
            end = block.line + block.text.count("\n")  # index of the closing fence
            between = lines[end + 1 : nxt.line - 1]
            if all(not line.strip() for line in between):
                block.output = nxt.text
        result.append(block)
    return result


ALL = [b for path in DOCS for b in runnable_blocks(path)]


def _normalize(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def run_block(block: Block) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "MPLBACKEND": "Agg",
    }
    command = block.attrs["run"]
    if command:  # the block is the command's stdin
        argv = ["bash", "-o", "pipefail", "-c", command]
        stdin = block.text
    elif block.lang == "python":
        argv, stdin = [sys.executable, "-"], block.text
    elif block.lang in ("sh", "bash", "console", "shell"):
        argv, stdin = ["bash", "-e", "-o", "pipefail", "-s"], block.text
    else:
        pytest.fail(f'{block.id}: a `{block.lang} {{run}}` block needs run="command"')
    return subprocess.run(
        argv,
        input=stdin,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_convention_is_used():
    """README's snippet and the docs pages have runnable blocks (the test is not vacuous)."""
    assert any(b.path.name == "README.md" and b.lang == "python" for b in ALL)
    assert any(b.output is not None for b in ALL)


def test_every_output_block_follows_a_runnable_block():
    """An `{output}` block that no runnable block owns would never be checked."""
    for path in DOCS:
        outputs = [b for b in fenced_blocks(path) if "output" in b.attrs]
        runnable = runnable_blocks(path)
        assert len(outputs) == sum(b.output is not None for b in runnable), (
            f"{path.name}: an ```text {{output}} block is not right after a {{run}} block"
        )


@pytest.mark.parametrize("block", ALL, ids=lambda b: b.id)
def test_doc_block(block: Block):
    proc = run_block(block)
    expected_exit = int(block.attrs.get("exit", "0") or 0)
    shown = proc.stdout + proc.stderr
    assert proc.returncode == expected_exit, (
        f"{block.id}: exit {proc.returncode}, expected {expected_exit}\n{shown}"
    )
    if block.output is not None:
        assert _normalize(shown) == _normalize(block.output), (
            f"{block.id}: the output shown in the doc differs from what the block prints.\n"
            f"--- shown in the doc\n{block.output}\n--- printed\n{shown}"
        )
