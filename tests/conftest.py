"""Repo-wide pytest hooks.

`pytest_terminal_summary` ends the run with one line per group of skipped tests
(a group is the folder under `tests/`), saying what the group needs to run, e.g.

    skipped tests/upstream: 37 (set XQUANT_MLIR_OPT or pip install -e '.[upstream]')

so a green run that skipped the upstream oracle or the notebooks says so.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

# What each group needs, when its skips are for a missing tool or data set.
# Groups not listed here show their most common skip reasons instead.
NEEDS = {
    "tests/upstream": "set XQUANT_MLIR_OPT or pip install -e '.[upstream]'",
    "tests/upstream_suites": "pip install -e '.[upstream]' and the upstream test trees in ../shared "
    "(python tests/fetch_upstream_tests.py fetches them)",
    "tests/conformance": "StableHLO's quantized conformance modules in ../shared/stablehlo-quantized "
    "(python tests/fetch_upstream_tests.py fetches them)",
}


def _group(nodeid: str) -> str:
    """`tests/<folder>` of a node id (node ids are relative to the repo root)."""
    parts = nodeid.split("::")[0].split("/")
    if len(parts) > 2 and parts[0] == "tests":
        return f"tests/{parts[1]}"
    return "tests"


def _reason(report: Any) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def skip_summary(reports: list[Any]) -> list[str]:
    """One line per group of skipped `reports` (pytest TestReports)."""
    by_group: dict[str, Counter[str]] = defaultdict(Counter)
    for report in reports:
        by_group[_group(report.nodeid)][_reason(report)] += 1
    lines = []
    for group in sorted(by_group):
        reasons = by_group[group]
        total = sum(reasons.values())
        if group in NEEDS:
            what = NEEDS[group]
        else:
            top = [
                f"{r} ({n})" if len(reasons) > 1 else r
                for r, n in reasons.most_common(2)
            ]
            what = "; ".join(top) + ("; ..." if len(reasons) > 2 else "")
            if "mlir-opt" in what and "XQUANT_MLIR_OPT" not in what:
                what += f": {NEEDS['tests/upstream']}"
        lines.append(f"skipped {group}: {total} ({what})")
    return lines


def pytest_terminal_summary(terminalreporter: Any) -> None:
    reports = terminalreporter.stats.get("skipped", [])
    if not reports:
        return
    terminalreporter.section("what the skipped tests need", sep="-")
    for line in skip_summary(reports):
        terminalreporter.write_line(line)
