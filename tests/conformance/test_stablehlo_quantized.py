"""StableHLO's own quantized test modules, run through `xquant-run`: every check must pass.

The modules live outside the repository, in `../shared/stablehlo-quantized`
(see its README); the suite skips when that folder is absent. Each file is
run as upstream runs it (`--split-input-file`), in process, and must report
at least one check and no failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fetch_upstream_tests import SHARED_DIR, absent_reason
from xquant.tools.xquant_run import main

CONFORMANCE_DIR = SHARED_DIR / "stablehlo-quantized"
MODULES = sorted(CONFORMANCE_DIR.glob("*.mlir")) if CONFORMANCE_DIR.is_dir() else []


@pytest.mark.skipif(not MODULES, reason=absent_reason("stablehlo-quantized/"))
@pytest.mark.parametrize("path", MODULES, ids=[p.name[:80] for p in MODULES])
def test_module_checks_pass(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main([str(path), "--split-input-file", "--checks-only"])
    out = capsys.readouterr()
    reports = [line for line in out.out.splitlines() if line.startswith("@")]
    assert rc == 0, out.err
    assert reports, "no check ran"
    assert all(line.endswith(": passed") for line in reports), out.out


def test_suite_is_complete() -> None:
    if not MODULES:
        pytest.skip(absent_reason("stablehlo-quantized/"))
    assert len([p for p in MODULES if "_qi8" in p.name]) == 68
