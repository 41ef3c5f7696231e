"""Fill in (or refresh) the ```text {output} blocks of runnable doc blocks.

    python tests/docs/update_doc_outputs.py docs/passes.md [more.md ...]

Writes what each `{run}` block prints into the `{output}` block right after it
(adding one if missing and `--add` is given). Use it when you write a page or
when a change of output is intended; then read the diff: the test
(`tests/docs/test_doc_blocks.py`) exists so that an unintended change fails.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.docs.test_doc_blocks import ROOT, run_block, runnable_blocks


def update(path: Path, add: bool) -> int:
    lines = path.read_text().splitlines()
    blocks = runnable_blocks(path)
    changed = 0
    # Edit from the bottom so earlier line numbers stay valid.
    for block in reversed(blocks):
        proc = run_block(block)
        shown = (proc.stdout + proc.stderr).strip("\n").splitlines()
        shown = [line.rstrip() for line in shown]
        close = block.line - 1 + block.text.count("\n") + 1  # closing fence index
        if block.output is None:
            if not add:
                continue
            lines[close + 1 : close + 1] = ["", "```text {output}", *shown, "```"]
            changed += 1
            continue
        j = close + 1
        while not lines[j].startswith("```"):
            j += 1
        k = j + 1
        while lines[k].rstrip() != "```":
            k += 1
        if lines[j + 1 : k] != shown:
            lines[j + 1 : k] = shown
            changed += 1
        if proc.returncode != int(block.attrs.get("exit", "0") or 0):
            print(f"{block.id}: exit status {proc.returncode}", file=sys.stderr)
    path.write_text("\n".join(lines) + "\n")
    return changed


def main() -> None:
    add = "--add" in sys.argv
    for name in (a for a in sys.argv[1:] if a != "--add"):
        path = (Path.cwd() / name).resolve()
        print(f"{path.relative_to(ROOT)}: {update(path, add)} output block(s) written")


if __name__ == "__main__":
    main()
