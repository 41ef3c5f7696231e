"""Each xDSL bug `xquant.compat` works around: still in pristine xDSL, and fixed once installed.

When a `test_bug_is_still_in_xdsl` case fails, the installed xDSL no longer has
that bug: check its release notes, and delete the module of `xquant.compat`
named in the test id (and its line in `install()`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.compat.reproducers import REPRODUCERS, Reproducer, lexer_growth, outcome
from xquant.compat import install
from xquant.compat.printer import XQuantPrinter

ROOT = Path(__file__).resolve().parents[2]
COMPAT = ROOT / "xquant" / "compat"


@pytest.fixture(scope="module")
def pristine() -> dict[str, str]:
    """Every reproducer's outcome in a Python process that never installs a fix."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.compat.reproducers"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize("reproducer", REPRODUCERS, ids=lambda r: r.key)
def test_bug_is_still_in_xdsl(reproducer: Reproducer, pristine: dict[str, str]) -> None:
    assert reproducer.buggy in pristine[reproducer.key], (
        f"xDSL no longer shows the bug that xquant/compat/{reproducer.fix}.py works around; "
        f"pristine xDSL gives:\n{pristine[reproducer.key]}"
    )


@pytest.mark.parametrize("reproducer", REPRODUCERS, ids=lambda r: r.key)
def test_fix_works(reproducer: Reproducer) -> None:
    install()
    result = outcome(reproducer.source, XQuantPrinter)
    assert reproducer.fixed in result, result


def test_lexer_bug_is_still_in_xdsl(pristine: dict[str, str]) -> None:
    growth = float(pristine["string_literal_lexer"])
    assert growth > 8, (
        "xDSL's string lexer no longer backtracks exponentially "
        f"(6 more characters cost x{growth:.1f}): xquant/compat/string_literal_lexer.py can go"
    )


def test_lexer_fix_is_linear() -> None:
    install()
    assert lexer_growth() < 4


def test_every_fix_is_tested() -> None:
    """A fix module needs a reproducer above, or its own `tests/compat/test_<module>.py`."""
    modules = {p.stem for p in COMPAT.glob("*.py") if p.stem != "__init__"}
    reproduced = {r.fix for r in REPRODUCERS} | {"string_literal_lexer"}
    own_tests = {
        p.stem.removeprefix("test_") for p in Path(__file__).parent.glob("test_*.py")
    }
    assert modules - reproduced - own_tests == set()
