"""docs/passes.md has a section for every pass xquant registers."""

from __future__ import annotations

import re
from pathlib import Path

from xquant.universe import PASSES

PASSES_MD = Path(__file__).resolve().parents[2] / "docs" / "passes.md"


def test_every_pass_has_a_section():
    sections = set(re.findall(r"^## (\S+)$", PASSES_MD.read_text(), re.M))
    missing = sorted(set(PASSES) - sections)
    assert not missing, f"docs/passes.md has no '## <name>' section for {missing}"


def test_every_section_is_a_pass():
    text = PASSES_MD.read_text()
    sections = re.findall(r"^## ([a-z0-9-]+)$", text, re.M)
    assert sections, "no pass sections found"
    unknown = sorted(set(sections) - set(PASSES))
    assert not unknown, f"docs/passes.md documents passes that do not exist: {unknown}"
