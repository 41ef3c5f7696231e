"""The LLVM-main oracle: IREE's `iree-opt` (IREE 3.13 = LLVM 24 git), with the quant dialect built in.

It comes from the optional `iree` extra. `XQUANT_IREE_OPT` overrides the
location (`none` pretends it is absent). Tests using it skip, saying why,
when it is not installed or does not report LLVM 24.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

__all__ = ["NOT_INSTALLED", "find_iree_opt", "require_iree_opt", "run_iree_opt"]

NOT_INSTALLED = "iree-opt (LLVM main) not installed (pip install -e '.[iree]')"
_TIMEOUT_SECONDS = 60


@functools.cache
def find_iree_opt() -> str | None:
    override = os.environ.get("XQUANT_IREE_OPT")
    if override == "none":
        return None
    candidate = override or shutil.which("iree-opt")
    if not candidate:
        return None
    try:
        done = subprocess.run(
            [candidate, "--version"], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return candidate if "LLVM version 24" in done.stdout else None


def run_iree_opt(text: str, *flags: str) -> subprocess.CompletedProcess[str]:
    """Run iree-opt on `text` (stdin); a crash shows as a negative return code."""
    command = find_iree_opt()
    if command is None:
        raise FileNotFoundError(NOT_INSTALLED)
    env = dict(os.environ)
    env.setdefault("LLVM_DISABLE_CRASH_REPORT", "1")
    env.setdefault("LLVM_DISABLE_SYMBOLIZATION", "1")
    return subprocess.run(
        [command, *flags, "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=_TIMEOUT_SECONDS,
        env=env,
    )


def require_iree_opt() -> str:
    import pytest

    command = find_iree_opt()
    if command is None:
        pytest.skip(NOT_INSTALLED)
    return command
