"""Runs the lit/FileCheck suite in `filecheck/` as part of pytest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

FILECHECK_DIR = Path(__file__).resolve().parent.parent / "filecheck"


def test_lit_suite() -> None:
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    lit = shutil.which("lit", path=env["PATH"])
    assert lit is not None, "lit is a dev dependency: pip install -e '.[dev]'"
    result = subprocess.run(
        [lit, "-q", "-j2", str(FILECHECK_DIR)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
