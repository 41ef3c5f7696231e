"""Fetch the pinned upstream test files the test suite reads, when ../shared is absent.

Several test groups run upstream's own files: LLVM's `mlir/test/Dialect/Quant/`
tests, StableHLO's pass tests and its quantized conformance modules. They are not
in this repository (licences, size); the tests read them from `../shared`
(next to the repository), and skip when it is absent. This script downloads the
same files, at the commits recorded in `../shared/*/README.md`, into a cache
directory laid out like `../shared`:

    python tests/fetch_upstream_tests.py            # into the cache (below)
    python tests/fetch_upstream_tests.py --dest DIR
    python tests/fetch_upstream_tests.py --list     # what it would fetch, and from where
    python tests/fetch_upstream_tests.py --from-git DIR   # offline, from a git clone

The files, their upstream paths, commits and SHA-256 hashes are in
`tests/upstream_files.json`, written once from a `../shared` that has them
(`--write-manifest ../shared`); every download is checked against its hash.

The manifest also lists StableHLO pass-test files that `../shared` does not
have (`EXTRA_FOLDER`: the other files of the same upstream directories, at
the same commit). They are only ever in the cache; the tests run them
whenever the cache has them, even when `../shared` exists (`extra_dir()`).

`--from-git DIR` takes the files from a local clone (or bare mirror) of
their repository instead of the network: every manifest file whose commit
DIR has is read with `git show COMMIT:PATH` and checked against its hash;
files of other repositories are left alone.

Where the tests look (`shared_dir()`): `$XQUANT_UPSTREAM_FILES` if set, else
`../shared` if it exists, else the cache `$XDG_CACHE_HOME/xquant/upstream-tests`
(`~/.cache/...`) if it exists, else `../shared` (absent: the tests skip, naming
this script).

Only the standard library is used (urllib), so it runs before any install.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
MANIFEST = Path(__file__).resolve().with_name("upstream_files.json")
SCRIPT = "python tests/fetch_upstream_tests.py"
RAW_URL = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"

LLVM = "llvm/llvm-project"
STABLEHLO = "openxla/stablehlo"
LLVM_QUANT_TESTS = "mlir/test/Dialect/Quant/"
# ops.mlir's commit was not recorded ("the sub-channel version", newer than
# 08db098808af1f780563cadd72ba57bf7c73135b); LLVM 22.1.8's release tag has it,
# and the hash check says whether that is the same file.
UNRECORDED_LLVM_REF = "llvmorg-22.1.8"

SHA = re.compile(r"\b[0-9a-f]{40}\b")

# StableHLO pass tests of the directories ../shared/stablehlo-pass-tests copies
# from, at its commit, that ../shared does not have: (local name under
# EXTRA_FOLDER, upstream path).
EXTRA_FOLDER = "stablehlo-pass-tests-extra"
STABLEHLO_PASS_COMMIT = "3c9301c116f97fbaf696959a0ede32712aec587b"
_LINALG = "stablehlo/conversions/linalg/tests/"
_TOSA = "stablehlo/conversions/tosa/tests/"
_TRANSFORMS = "stablehlo/tests/transforms/"
EXTRA_FILES = (
    *(
        (f"linalg/{name}", _LINALG + name)
        for name in (
            "convolution.mlir",
            "dot-product.mlir",
            "gather.mlir",
            "miscellaneous.mlir",
            "random.mlir",
            "sparse.mlir",
        )
    ),
    *(
        (f"tosa/{name}", _TOSA + name)
        for name in (
            "binary.mlir",
            "legalize_tosa_rescale_to_stablehlo.mlir",
            "nullary.mlir",
            "rescale_interpreter.mlir",
            "ternary.mlir",
            "unary.mlir",
        )
    ),
    (
        "transforms/stablehlo_legalize_qdq_to_quantized_op.mlir",
        _TRANSFORMS + "stablehlo_legalize_qdq_to_quantized_op.mlir",
    ),
)


@dataclass(frozen=True)
class UpstreamFile:
    """One file of ../shared and where it comes from."""

    local: str
    """Path relative to the shared directory (`mlir-quant-tests/ops.mlir`)."""
    repo: str
    commit: str
    """A commit SHA, or a tag where the commit was not recorded."""
    path: str
    """Path inside the upstream repository."""
    sha256: str = ""
    module_with: str = ""
    """If set, keep only the `// -----` chunk containing this text (and the RUN lines)."""

    @property
    def url(self) -> str:
        return RAW_URL.format(repo=self.repo, commit=self.commit, path=self.path)


# ---------------------------------------------------------------------------------------
# Where the tests read the files


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "xquant" / "upstream-tests"


def shared_dir() -> Path:
    """The directory the tests read upstream files from (see the module docstring)."""
    override = os.environ.get("XQUANT_UPSTREAM_FILES")
    if override:
        return Path(override).resolve()
    shared = (REPO_ROOT / ".." / "shared").resolve()
    if shared.is_dir():
        return shared
    cache = default_cache()
    return cache if cache.is_dir() else shared


SHARED_DIR = shared_dir()


def extra_dir() -> Path:
    """Where the extra StableHLO pass tests are: under `shared_dir()` if it has them,
    else in the cache (also when ../shared exists); absent if neither has them."""
    candidates = [shared_dir() / EXTRA_FOLDER]
    if not os.environ.get("XQUANT_UPSTREAM_FILES"):
        candidates.append(default_cache() / EXTRA_FOLDER)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[-1]


def absent_reason(what: str) -> str:
    """A skip reason that says where the files come from."""
    return (
        f"{what} not found in {SHARED_DIR}: `{SCRIPT}` fetches the pinned upstream "
        "test files (docs/testing.md)"
    )


# ---------------------------------------------------------------------------------------
# The manifest, from ../shared's READMEs


def _table_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not set(line) <= set("|-: "):
            rows.append(
                [c.strip().strip("`").strip() for c in line.strip("|").split("|")]
            )
    return rows


def _first_sha(text: str) -> str:
    found = SHA.search(text)
    if not found:
        raise ValueError("no 40-hex commit in the README")
    return found.group(0)


def parse_mlir_quant_readme(text: str, folder: str) -> list[UpstreamFile]:
    """`| file | commit | ... |` rows of LLVM quant tests (mlir-quant-tests, upstream-main-quant)."""
    files = []
    for cells in _table_rows(text):
        name = cells[0]
        if not name.endswith(".mlir"):
            continue
        commit = SHA.search(cells[1])
        exact = commit and not re.search(r"not recorded", cells[1])
        files.append(
            UpstreamFile(
                f"{folder}/{name}",
                LLVM,
                commit.group(0) if exact and commit else UNRECORDED_LLVM_REF,
                LLVM_QUANT_TESTS + name,
            )
        )
    return files


def parse_stablehlo_pass_readme(text: str, folder: str) -> list[UpstreamFile]:
    """`| file | upstream directory | pass |` rows, one commit for all."""
    commit = _first_sha(text)
    files = []
    for cells in _table_rows(text):
        name, where = cells[0], cells[1]
        if not name.endswith(".mlir"):
            continue
        path = where.rstrip("/") + "/" + name.rsplit("/", 1)[-1]
        files.append(UpstreamFile(f"{folder}/{name}", STABLEHLO, commit, path))
    return files


def parse_stablehlo_quantized(
    text: str, folder: str, names: list[str]
) -> list[UpstreamFile]:
    """The conformance modules: `*_qi8*.mlir` from stablehlo/testdata/quantized/ (the
    module using `!quant.uniform` kept), and interpret_quantized_ops.mlir."""
    commit = _first_sha(text)
    files = []
    for name in sorted(names):
        if name == "interpret_quantized_ops.mlir":
            path = "stablehlo/tests/interpret/quantized_ops.mlir"
            files.append(UpstreamFile(f"{folder}/{name}", STABLEHLO, commit, path))
        elif name.endswith(".mlir"):
            path = "stablehlo/testdata/quantized/" + name
            files.append(
                UpstreamFile(
                    f"{folder}/{name}",
                    STABLEHLO,
                    commit,
                    path,
                    module_with="!quant.uniform",
                )
            )
    return files


def manifest_from_shared(shared: Path) -> list[UpstreamFile]:
    """Every upstream file of `shared`, with its source and hash."""
    files: list[UpstreamFile] = []
    for folder in ("mlir-quant-tests", "upstream-main-quant"):
        readme = shared / folder / "README.md"
        if readme.is_file():
            files += parse_mlir_quant_readme(readme.read_text(), folder)
    readme = shared / "stablehlo-pass-tests" / "README.md"
    if readme.is_file():
        files += parse_stablehlo_pass_readme(readme.read_text(), "stablehlo-pass-tests")
    readme = shared / "stablehlo-quantized" / "README.md"
    if readme.is_file():
        names = [p.name for p in (shared / "stablehlo-quantized").glob("*.mlir")]
        files += parse_stablehlo_quantized(
            readme.read_text(), "stablehlo-quantized", names
        )
    hashed = []
    for f in files:
        local = shared / f.local
        digest = (
            hashlib.sha256(local.read_bytes()).hexdigest() if local.is_file() else ""
        )
        hashed.append(UpstreamFile(**{**asdict(f), "sha256": digest}))
    return hashed


def extra_entries(sha256: dict[str, str]) -> list[UpstreamFile]:
    """The manifest rows of `EXTRA_FILES`, with the given hashes (by local path)."""
    return [
        UpstreamFile(
            f"{EXTRA_FOLDER}/{local}",
            STABLEHLO,
            STABLEHLO_PASS_COMMIT,
            path,
            sha256.get(f"{EXTRA_FOLDER}/{local}", ""),
        )
        for local, path in EXTRA_FILES
    ]


def hash_from_git(files: list[UpstreamFile], git_dir: Path) -> list[UpstreamFile]:
    """`files` with the SHA-256 of each one as `git_dir` has it at its commit."""
    return [
        UpstreamFile(
            **{**asdict(f), "sha256": hashlib.sha256(git_show(git_dir, f)).hexdigest()}
        )
        for f in files
    ]


def load_manifest(path: Path = MANIFEST) -> list[UpstreamFile]:
    return [UpstreamFile(**entry) for entry in json.loads(path.read_text())]


def write_manifest(files: list[UpstreamFile], path: Path = MANIFEST) -> None:
    path.write_text(json.dumps([asdict(f) for f in files], indent=1) + "\n")


# ---------------------------------------------------------------------------------------
# Fetching


def keep_module(text: str, marker: str) -> str:
    """The leading `//` lines (RUN) plus the one `// -----` chunk containing `marker`;
    the whole text when it has no separator or not exactly one such chunk."""
    chunks = re.split(r"^// -----[ \t]*\n?", text, flags=re.M)
    wanted = [c for c in chunks if marker in c]
    if len(chunks) == 1 or len(wanted) != 1:
        return text
    if wanted[0] is chunks[0]:
        return chunks[0]
    header = "".join(
        line for line in chunks[0].splitlines(keepends=True) if line.startswith("//")
    )
    return header + "\n" + wanted[0].lstrip("\n")


def _bare_modules(text: str, marker: str) -> list[str]:
    """The `// -----` chunks containing `marker`, stripped, with one final newline."""
    chunks = re.split(r"^// -----[ \t]*\n?", text, flags=re.M)
    return [c.strip() + "\n" for c in chunks if marker in c]


def _download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()


def git_show(git_dir: Path, f: UpstreamFile) -> bytes:
    """`f` as the git repository `git_dir` (clone or bare) has it at `f.commit`."""
    result = subprocess.run(
        ["git", "-C", str(git_dir), "show", f"{f.commit}:{f.path}"],
        capture_output=True,
        check=False,
    )
    if result.returncode != 0:
        raise OSError(result.stderr.decode(errors="replace").strip())
    return result.stdout


def has_commit(git_dir: Path, commit: str) -> bool:
    """Whether the git repository `git_dir` has `commit` (a SHA or a tag)."""
    result = subprocess.run(
        ["git", "-C", str(git_dir), "cat-file", "-e", f"{commit}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    return result.returncode == 0


def from_git(files: list[UpstreamFile], git_dir: Path) -> list[UpstreamFile]:
    """The files `git_dir` can provide: those whose commit it has."""
    commits = {f.commit for f in files}
    present = {c for c in commits if has_commit(git_dir, c)}
    return [f for f in files if f.commit in present]


def fetch(
    files: list[UpstreamFile],
    dest: Path,
    download=_download,
    git_dir: Path | None = None,
) -> list[str]:
    """Fetch every file into `dest` (from `git_dir` if given, else downloaded);
    the problems, one line each (empty: all good)."""
    problems: list[str] = []
    fetched = failed = 0
    for f in files:
        if failed >= 3 and not fetched and git_dir is None:
            problems.append("giving up: the first downloads all failed (no network?)")
            break
        target = dest / f.local
        if (
            target.is_file()
            and hashlib.sha256(target.read_bytes()).hexdigest() == f.sha256
        ):
            continue
        try:
            data = download(f.url) if git_dir is None else git_show(git_dir, f)
        except (urllib.error.URLError, OSError) as err:
            where = f.url if git_dir is None else f"{git_dir} {f.commit}:{f.path}"
            problems.append(f"{f.local}: cannot read {where}: {err}")
            failed += 1
            continue
        fetched += 1
        if f.module_with and hashlib.sha256(data).hexdigest() != f.sha256:
            # ../shared keeps the chunk with the RUN lines, or the bare chunk.
            text = data.decode()
            forms = [keep_module(text, f.module_with).encode()]
            forms += [c.encode() for c in _bare_modules(text, f.module_with)]
            data = next(
                (d for d in forms if hashlib.sha256(d).hexdigest() == f.sha256),
                forms[0],
            )
        digest = hashlib.sha256(data).hexdigest()
        if f.sha256 and digest != f.sha256:
            problems.append(
                f"{f.local}: {f.url} has sha256 {digest}, the recorded file {f.sha256}; "
                "not written"
            )
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", type=Path, default=None, help="default: the cache")
    parser.add_argument("--list", action="store_true", help="print the files and URLs")
    parser.add_argument(
        "--write-manifest",
        type=Path,
        metavar="SHARED",
        help="(maintainers) record SHARED's files, READMEs and hashes in the manifest",
    )
    parser.add_argument(
        "--from-git",
        type=Path,
        metavar="DIR",
        help="offline: read the files from a local git clone or bare repository "
        "(every file whose pinned commit DIR has; hashes checked)",
    )
    parser.add_argument(
        "--hash-extra-from-git",
        type=Path,
        metavar="DIR",
        help="(maintainers, with --write-manifest) hash the extra files from DIR",
    )
    args = parser.parse_args(argv)
    if args.write_manifest:
        known = (
            {f.local: f.sha256 for f in load_manifest()} if MANIFEST.exists() else {}
        )
        extras = extra_entries(known)
        if args.hash_extra_from_git:
            extras = hash_from_git(extras, args.hash_extra_from_git)
        files = manifest_from_shared(args.write_manifest) + extras
        write_manifest(files)
        print(f"{len(files)} files recorded in {MANIFEST}")
        return 0
    files = load_manifest()
    if args.list:
        for f in files:
            print(f"{f.local}  <-  {f.url}")
        return 0
    dest = args.dest or Path(os.environ.get("XQUANT_UPSTREAM_FILES") or default_cache())
    if args.from_git is not None:
        if not has_commit(args.from_git, "HEAD"):
            print(f"error: {args.from_git} is not a git repository", file=sys.stderr)
            return 1
        wanted = from_git(files, args.from_git)
        if not wanted:
            print(
                f"error: {args.from_git} has none of the pinned commits "
                f"({', '.join(sorted({f.commit for f in files}))})",
                file=sys.stderr,
            )
            return 1
        print(
            f"{len(files) - len(wanted)} files of other commits or repositories left alone"
        )
        files = wanted
    problems = fetch(files, dest, git_dir=args.from_git)
    for line in problems:
        print(f"error: {line}", file=sys.stderr)
    present = sum((dest / f.local).is_file() for f in files)
    print(f"{present} of {len(files)} files in {dest}")
    if (
        not problems
        and dest != default_cache()
        and not os.environ.get("XQUANT_UPSTREAM_FILES")
    ):
        print(f"the tests read them with XQUANT_UPSTREAM_FILES={dest}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
