"""Mutant MLIR programs for fuzzing the API and the command-line tools.

Seeds are the valid programs the repository ships (`examples/`, `filecheck/run/`,
the valid `filecheck/transforms/` and dialect round-trip files, split at
`// -----`). A mutation is a small textual edit that keeps most of the program
parseable: a number, a tensor dimension, an element type or an op name changed,
an SSA use swapped for another value, a line deleted, duplicated or swapped
with the next one.

A mutation is `(kind, where, what)`: `kind` indexes `KINDS`, `where` picks the
occurrence and `what` the replacement (both taken modulo the number of
choices), so a list of such triples is a plain value that hypothesis can draw
and shrink, and a test can replay.

Usage from another test (the CLI fuzzing, say):

    from tests.fuzz.mutants import SEEDS, mutate, relevant_pipelines
    text = mutate(SEEDS[3].text, [(0, 5, 2), (6, 1, 0)])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "KINDS",
    "PIPELINES",
    "SEEDS",
    "Mutation",
    "Seed",
    "load_seeds",
    "mutate",
    "relevant_pipelines",
]

ROOT = Path(__file__).resolve().parents[2]

Mutation = tuple[int, int, int]


@dataclass(frozen=True)
class Seed:
    """One valid program: where it came from and its text (comment lines removed)."""

    name: str
    text: str


# Files whose chunks are valid programs. The `*-invalid.mlir` files and the
# `invalid_*.mlir` dialect files are for the error paths, not seeds.
SEED_GLOBS = (
    "examples/*.mlir",
    "filecheck/run/*.mlir",
    "filecheck/transforms/*.mlir",
    "filecheck/dialects/*/ops.mlir",
    "filecheck/dialects/quant/example.mlir",
    "filecheck/dialects/linalg/*.mlir",
)

_SPLIT = re.compile(r"^// -----.*$", re.MULTILINE)
_COMMENT_LINE = re.compile(r"^\s*//.*\n?", re.MULTILINE)


def load_seeds(root: Path = ROOT, max_chars: int = 6000) -> list[Seed]:
    """Every seed chunk of at most `max_chars` characters that has an op in it."""
    seeds: list[Seed] = []
    for pattern in SEED_GLOBS:
        for path in sorted(root.glob(pattern)):
            if "invalid" in path.name:
                continue
            text = path.read_text(encoding="utf-8")
            for k, chunk in enumerate(_SPLIT.split(text)):
                body = _COMMENT_LINE.sub("", chunk).strip()
                if not body or len(body) > max_chars:
                    continue
                seeds.append(Seed(f"{path.relative_to(root)}#{k}", body + "\n"))
    return seeds


SEEDS: list[Seed] = load_seeds()

# (a dialect prefix the program must contain, the pipeline)
PIPELINES: tuple[tuple[str, str], ...] = (
    ("quant.", "lower-quant-ops"),  # toward-zero, upstream's lowering
    ("quant.", "lower-quant-ops{rounding=nearest-even}"),
    ("quant.", "normalize-quant-types"),
    ("quant.", "strip-func-quant-types"),
    ("mx_tensor.", "lower-mx-tensor"),
    ("mx_tensor.", "mx-tensor-generalize"),
    ("stablehlo.", "stablehlo-legalize-quant-to-math"),
    (
        "stablehlo.",
        "stablehlo-legalize-quant-to-math,stablehlo-legalize-to-linalg,linalg-fuse-elementwise-ops",
    ),
    ("stablehlo.", "stablehlo-legalize-quantized-op-to-qdq"),
    ("stablehlo.", "stablehlo-legalize-qdq-to-quantized-op"),
    ("stablehlo.", "stablehlo-quant-legalize-to-tosa-rescale"),
    ("tosa.", "tosa-rescale-legalize-to-stablehlo"),
    ("linalg.", "linalg-fuse-elementwise-ops"),
)


def relevant_pipelines(text: str) -> list[str]:
    """The pipelines worth running on a program: those of the dialects it uses."""
    return [pipeline for prefix, pipeline in PIPELINES if prefix in text]


# ---------------------------------------------------------------------------
# Mutation kinds. Each takes the text, `where` and `what`, and returns the new
# text (unchanged when there is nothing to mutate).

_NUMBER = re.compile(r"(?<![\w%#^@.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")
_DIM = re.compile(r"(?<=[<x])(\d+|\?)(?=x)")
_ELEMENT_TYPES = (
    "f16",
    "bf16",
    "f32",
    "f64",
    "i1",
    "i4",
    "i8",
    "i16",
    "i32",
    "i64",
    "ui8",
    "si8",
    "u8",
    "index",
    "f8E4M3FN",
    "f8E5M2",
    "f4E2M1FN",
    "f8E8M0FNU",
)
_ELEMENT_TYPE = re.compile(
    r"(?<![\w%@^#!.])(" + "|".join(_ELEMENT_TYPES) + r")(?![\w.])"
)
_SSA_USE = re.compile(r"(?<=[\s(,\[])%[\w.$-]+")
_OP_NAME = re.compile(
    r"\b(?:arith|math|tensor|linalg|quant|mx_tensor|stablehlo|tosa|scf|func)\.[a-z_]+\b"
)
_NUMBER_REPLACEMENTS = (
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "-8",
    "127",
    "128",
    "-129",
    "255",
    "256",
    "65536",
    "0.0",
    "-0.0",
    "0.5",
    "1.0e+38",
    "1.0e-45",
    "4294967296",
    "9223372036854775807",
)
_DIM_REPLACEMENTS = ("0", "1", "2", "3", "4", "5", "8", "32", "?")


def _replace_match(
    text: str, pattern: re.Pattern[str], where: int, make: Callable[[str], str]
) -> str:
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    m = matches[where % len(matches)]
    return text[: m.start()] + make(m.group(0)) + text[m.end() :]


def _change_number(text: str, where: int, what: int) -> str:
    def make(old: str) -> str:
        choices = [*_NUMBER_REPLACEMENTS]
        if re.fullmatch(r"-?\d+", old):
            n = int(old)
            choices += [str(n + 1), str(n - 1), str(2 * n), str(-n)]
        return choices[what % len(choices)]

    return _replace_match(text, _NUMBER, where, make)


def _change_dim(text: str, where: int, what: int) -> str:
    return _replace_match(
        text, _DIM, where, lambda _: _DIM_REPLACEMENTS[what % len(_DIM_REPLACEMENTS)]
    )


def _drop_or_add_dim(text: str, where: int, what: int) -> str:
    # `2x3xf32` -> `3xf32` (drop) or `2x2x3xf32` (repeat)
    matches = list(_DIM.finditer(text))
    if not matches:
        return text
    m = matches[where % len(matches)]
    end = m.end() + 1  # the `x`
    if what % 2 == 0:
        return text[: m.start()] + text[end:]
    return text[: m.start()] + text[m.start() : end] * 2 + text[end:]


def _change_element_type(text: str, where: int, what: int) -> str:
    return _replace_match(
        text,
        _ELEMENT_TYPE,
        where,
        lambda _: _ELEMENT_TYPES[what % len(_ELEMENT_TYPES)],
    )


def _change_every_element_type(text: str, where: int, what: int) -> str:
    """Every occurrence of one element type: keeps the program type-consistent
    more often than a single change."""
    found = sorted({m.group(0) for m in _ELEMENT_TYPE.finditer(text)})
    if not found:
        return text
    old = found[where % len(found)]
    new = _ELEMENT_TYPES[what % len(_ELEMENT_TYPES)]
    return re.sub(
        r"(?<![\w%@^#!.])" + re.escape(old) + r"(?![\w.])", lambda _: new, text
    )


def _swap_ssa_use(text: str, where: int, what: int) -> str:
    names = sorted({m.group(0) for m in _SSA_USE.finditer(text)})
    if not names:
        return text
    return _replace_match(text, _SSA_USE, where, lambda _: names[what % len(names)])


def _change_op_name(text: str, where: int, what: int) -> str:
    names = sorted({m.group(0) for seed in SEEDS for m in _OP_NAME.finditer(seed.text)})

    def make(old: str) -> str:
        dialect = old.split(".", 1)[0] + "."
        same = [n for n in names if n.startswith(dialect)] or [old]
        return same[what % len(same)]

    return _replace_match(text, _OP_NAME, where, make)


def _lines_edit(text: str, where: int, what: int) -> str:
    lines = text.splitlines(keepends=True)
    if not lines:
        return text
    i = where % len(lines)
    action = what % 3
    if action == 0:
        del lines[i]
    elif action == 1:
        lines.insert(i, lines[i])
    elif i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return "".join(lines)


def _swap_tokens(text: str, where: int, what: int) -> str:
    """Two words of the program trade places (keywords, attribute names, types)."""
    words = list(re.finditer(r"[A-Za-z_][\w.]*", text))
    if len(words) < 2:
        return text
    a, b = sorted(
        (words[where % len(words)], words[what % len(words)]), key=lambda m: m.start()
    )
    if a.start() == b.start():
        return text
    return (
        text[: a.start()]
        + b.group(0)
        + text[a.end() : b.start()]
        + a.group(0)
        + text[b.end() :]
    )


KINDS: tuple[Callable[[str, int, int], str], ...] = (
    _change_number,
    _change_dim,
    _drop_or_add_dim,
    _change_element_type,
    _change_every_element_type,
    _swap_ssa_use,
    _change_op_name,
    _lines_edit,
    _swap_tokens,
)


def mutate(text: str, mutations: Sequence[Mutation]) -> str:
    """`text` with each `(kind, where, what)` mutation applied in turn."""
    for kind, where, what in mutations:
        text = KINDS[kind % len(KINDS)](text, where, what)
    return text
