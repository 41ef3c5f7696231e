"""tests/fetch_upstream_tests.py, offline: README parsing, URLs, extraction, hash checks.

The download itself needs github.com (not reachable where this was written);
`fetch` is tested with a fake downloader, and `--from-git` with a git
repository made here."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from tests import fetch_upstream_tests as fut

REAL_SHARED = (fut.REPO_ROOT / ".." / "shared").resolve()

LLVM_README = """\
| File | Upstream commit | Cases (`// -----` chunks) |
|---|---|---|
| `ops.mlir` | the sub-channel version; exact commit not recorded (newer than `08db098808af1f780563cadd72ba57bf7c73135b`) | 20 |
| `lower-quant-ops.mlir` | `2bb59dcf44f9e1646a0ff94fee88037bade86922` | 19 |
"""

PASS_README = """\
Test files copied verbatim from openxla/stablehlo at commit `3c9301c116f97fbaf696959a0ede32712aec587b`

| File | Upstream path | Pass |
|---|---|---|
| `stablehlo_legalize_quant_to_int.mlir` | `stablehlo/tests/transforms/` | `stablehlo-legalize-quant-to-math` |
| `linalg/reduce.mlir` | `stablehlo/conversions/linalg/tests/` | `stablehlo-legalize-to-linalg` |
"""


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_llvm_readme_rows_give_commits_and_urls() -> None:
    ops, lower = fut.parse_mlir_quant_readme(LLVM_README, "mlir-quant-tests")
    assert lower.local == "mlir-quant-tests/lower-quant-ops.mlir"
    assert lower.url == (
        "https://raw.githubusercontent.com/llvm/llvm-project/"
        "2bb59dcf44f9e1646a0ff94fee88037bade86922/mlir/test/Dialect/Quant/lower-quant-ops.mlir"
    )
    # "not recorded": the release tag, not the older commit quoted in the note
    assert ops.commit == fut.UNRECORDED_LLVM_REF


def test_stablehlo_readme_rows_take_the_one_commit_and_the_directory() -> None:
    quant_to_int, reduce = fut.parse_stablehlo_pass_readme(
        PASS_README, "stablehlo-pass-tests"
    )
    assert quant_to_int.commit == "3c9301c116f97fbaf696959a0ede32712aec587b"
    assert reduce.local == "stablehlo-pass-tests/linalg/reduce.mlir"
    assert reduce.path == "stablehlo/conversions/linalg/tests/reduce.mlir"
    with pytest.raises(ValueError, match="no 40-hex commit"):
        fut.parse_stablehlo_pass_readme("| `a.mlir` | `x/` | p |", "d")


def test_conformance_files_map_to_testdata_quantized() -> None:
    files = fut.parse_stablehlo_quantized(
        "commit 3c9301c116f97fbaf696959a0ede32712aec587b",
        "stablehlo-quantized",
        ["floor_qi8.mlir", "interpret_quantized_ops.mlir"],
    )
    by_name = {f.local.rsplit("/", 1)[1]: f for f in files}
    assert (
        by_name["floor_qi8.mlir"].path == "stablehlo/testdata/quantized/floor_qi8.mlir"
    )
    assert by_name["floor_qi8.mlir"].module_with == "!quant.uniform"
    assert (
        by_name["interpret_quantized_ops.mlir"].path
        == "stablehlo/tests/interpret/quantized_ops.mlir"
    )


def test_keep_module_keeps_the_run_line_and_the_quantized_chunk() -> None:
    text = (
        "// RUN: stablehlo-translate --interpret -split-input-file %s\n\n"
        "module { func.func @f() { return } }\n"
        "// -----\n"
        "module { %0 = x : tensor<2x!quant.uniform<i8:f32, 1.0>> }\n"
    )
    assert fut.keep_module(text, "!quant.uniform") == (
        "// RUN: stablehlo-translate --interpret -split-input-file %s\n\n"
        "module { %0 = x : tensor<2x!quant.uniform<i8:f32, 1.0>> }\n"
    )
    assert fut.keep_module("no separators\n", "!quant.uniform") == "no separators\n"


def test_fetch_checks_hashes(tmp_path: Path) -> None:
    good, extracted_from = (
        b"// RUN: x\nmodule {}\n",
        (b"// RUN: x\n// -----\nmodule { !quant.uniform }\n"),
    )
    kept = b"// RUN: x\n\nmodule { !quant.uniform }\n"
    files = [
        fut.UpstreamFile("a/good.mlir", "o/r", "c" * 40, "p/good.mlir", _sha(good)),
        fut.UpstreamFile(
            "a/kept.mlir", "o/r", "c" * 40, "p/kept.mlir", _sha(kept), "!quant.uniform"
        ),
        fut.UpstreamFile("a/bad.mlir", "o/r", "c" * 40, "p/bad.mlir", _sha(b"other")),
    ]
    served = {
        files[0].url: good,
        files[1].url: extracted_from,
        files[2].url: b"changed upstream",
    }
    problems = fut.fetch(files, tmp_path, download=served.__getitem__)
    assert (tmp_path / "a/good.mlir").read_bytes() == good
    assert (tmp_path / "a/kept.mlir").read_bytes() == kept
    assert not (tmp_path / "a/bad.mlir").exists()
    assert len(problems) == 1 and problems[0].startswith("a/bad.mlir: ")


def test_shared_dir_prefers_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XQUANT_UPSTREAM_FILES", str(tmp_path))
    assert fut.shared_dir() == tmp_path.resolve()
    monkeypatch.delenv("XQUANT_UPSTREAM_FILES")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert fut.default_cache() == tmp_path / "xquant" / "upstream-tests"
    assert "tests/fetch_upstream_tests.py" in fut.absent_reason("x")


def test_manifest_is_complete_and_pinned() -> None:
    files = fut.load_manifest()
    assert len(files) == 86 + len(fut.EXTRA_FILES)
    assert all(len(f.sha256) == 64 for f in files)
    assert all(
        fut.SHA.fullmatch(f.commit) or f.commit == fut.UNRECORDED_LLVM_REF
        for f in files
    )
    assert len({f.local for f in files}) == len(files)


@pytest.mark.skipif(not REAL_SHARED.is_dir(), reason="needs ../shared itself")
def test_manifest_matches_the_shared_readmes_and_files() -> None:
    """The checked-in manifest is what ../shared's READMEs and files say today."""
    shared = fut.manifest_from_shared(REAL_SHARED)
    assert shared == fut.load_manifest()[: len(shared)]


def test_extra_files_are_the_other_pass_tests_at_the_pinned_commit() -> None:
    """The extra StableHLO pass tests: in the manifest with hashes, at ../shared's
    StableHLO commit, under EXTRA_FOLDER, none of them a file ../shared has."""
    extras = [
        f for f in fut.load_manifest() if f.local.startswith(fut.EXTRA_FOLDER + "/")
    ]
    assert [f.local for f in extras] == [
        f"{fut.EXTRA_FOLDER}/{local}" for local, _ in fut.EXTRA_FILES
    ]
    assert all(f.commit == fut.STABLEHLO_PASS_COMMIT for f in extras)
    assert all(len(f.sha256) == 64 for f in extras)
    shared_paths = {
        f.path
        for f in fut.load_manifest()
        if f.local.startswith("stablehlo-pass-tests/")
    }
    assert not shared_paths & {f.path for f in extras}
    pass_commits = {
        f.commit
        for f in fut.load_manifest()
        if f.local.startswith("stablehlo-pass-tests/")
    }
    assert pass_commits == {fut.STABLEHLO_PASS_COMMIT}


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
def test_from_git_reads_the_pinned_commit_and_checks_hashes(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "p").mkdir(parents=True)
    _git(repo, "init", "-q")
    good = b"// RUN: x\nmodule {}\n"
    (repo / "p/good.mlir").write_bytes(good)
    (repo / "p/bad.mlir").write_bytes(b"changed upstream")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "pinned")
    commit = _git(repo, "rev-parse", "HEAD")
    (repo / "p/good.mlir").write_bytes(b"a later version")
    _git(repo, "commit", "-qam", "later")
    files = [
        fut.UpstreamFile("a/good.mlir", "o/r", commit, "p/good.mlir", _sha(good)),
        fut.UpstreamFile("a/bad.mlir", "o/r", commit, "p/bad.mlir", _sha(b"other")),
        fut.UpstreamFile("a/other.mlir", "o/x", "d" * 40, "p/good.mlir", _sha(good)),
    ]
    wanted = fut.from_git(files, repo)
    assert [f.local for f in wanted] == ["a/good.mlir", "a/bad.mlir"]
    dest = tmp_path / "dest"
    problems = fut.fetch(wanted, dest, git_dir=repo)
    assert (dest / "a/good.mlir").read_bytes() == good  # the pinned commit's file
    assert not (dest / "a/bad.mlir").exists()
    assert len(problems) == 1 and problems[0].startswith("a/bad.mlir: ")
    # The command line: a directory that is not a repository is an error.
    assert fut.main(["--from-git", str(tmp_path / "dest"), "--dest", str(dest)]) == 1


def test_extra_dir_is_read_beside_shared(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The extra files come from the cache even when ../shared is what the tests read."""
    monkeypatch.delenv("XQUANT_UPSTREAM_FILES", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cached = fut.default_cache() / fut.EXTRA_FOLDER
    beside = fut.shared_dir() / fut.EXTRA_FOLDER
    # Absent everywhere: the cache's path (the tests skip, naming the script).
    assert fut.extra_dir() == (beside if beside.is_dir() else cached)
    cached.mkdir(parents=True)
    assert fut.extra_dir() == (beside if beside.is_dir() else cached)
    monkeypatch.setenv("XQUANT_UPSTREAM_FILES", str(tmp_path / "elsewhere"))
    assert fut.extra_dir() == (tmp_path / "elsewhere").resolve() / fut.EXTRA_FOLDER
