"""The license and the notebooks extra are declared as the docs say."""

from __future__ import annotations

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="needs Python 3.11+ (tomllib)")

ROOT = Path(__file__).resolve().parents[2]


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_license_is_apache_with_llvm_exception():
    assert _project()["license"] == "Apache-2.0 WITH LLVM-exception"
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "---- LLVM Exceptions to the Apache 2.0 License ----" in text


def test_dev_extra_brings_the_notebooks_extra():
    extras = _project()["optional-dependencies"]
    assert {r.split(">")[0].split("<")[0] for r in extras["notebooks"]} == {
        "marimo",
        "matplotlib",
    }
    assert "xquant[notebooks]" in extras["dev"]
