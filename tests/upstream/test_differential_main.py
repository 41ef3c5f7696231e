"""Differential test against LLVM main: IREE 3.13's `iree-opt` (LLVM 24 git) vs xquant.

On generated float-storage, `!quant.quantile` and signed/unsigned storage
types, and on the corpus cases that touch them (`corpus.deviation_features`
"e"/"f"), both tools must make the same accept / reject decision, print the
same `!quant.*` texts, and reject with the same message. Where main did not
change anything, `test_differential.py` keeps checking mlir-opt 22.1.8.

The corpus cases with deliberate differences (`test_differential.py`'s
DELIBERATE_DIFFERENCES "a"-"d") only must not crash. Upstream main crashes (segmentation fault in `parseUniformType`) on float or
quantile storage inside a sub-channel type; xquant accepts those (README:
beyond upstream), so on `CRASH_CASES` we only require not to crash.

Skips, saying why, without the `iree` extra. Run as a script for a summary.
"""

from __future__ import annotations

import bisect
import itertools
import re
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import pytest

from tests.upstream import corpus, iree_opt
from tests.upstream.test_differential import Outcome, run_ours

FLOATS = {"f8E4M3FN": 448, "f8E5M2": 57344, "f4E2M1FN": 6}
REJECTED_STORAGE = [
    "f16",
    "bf16",
    "f32",
    "f64",
    "tf32",
    "f8E4M3",
    "f8E4M3FNUZ",
    "f8E5M2FNUZ",
    "f8E8M0FNU",
    "f6E2M3FN",
    "f8E4M3B11FNUZ",
    "index",
    "tensor<2xi8>",
    "!quant.uniform<i8:f32, 1.0>",
    "vector<2xf8E4M3FN>",
]
NF4 = (
    "-1.0,-0.6961928009986877,-0.5250730514526367,-0.39491748809814453,"
    "-0.28444138169288635,-0.18477343022823334,-0.09105003625154495,0.0,"
    "0.07958029955625534,0.16093020141124725,0.24611230194568634,"
    "0.33791524171829224,0.44070982933044434,0.5626170039176941,"
    "0.7229568362236023,1.0"
)
LUT4 = "-0.0667, 0.1, 0.2, 0.3"


def float_storage_types() -> list[str]:
    types: list[str] = []
    for name, largest in FLOATS.items():
        types += [
            f"!quant.uniform<{name}:f32, 0.5>",
            f"!quant.uniform<{name}:f16, 0.99872:127>",
            f"!quant.uniform<{name}<-{largest}:{largest}>:f32, 2.0e+2>",
            f"!quant.uniform<{name}<-3:{largest}>:f32, 1.0:-2>",
            f"!quant.uniform<{name}<-{largest + 1}:1>:f32, 1.0>",
            f"!quant.uniform<{name}<0:{largest + 1}>:f32, 1.0>",
            f"!quant.uniform<{name}<2:2>:f32, 1.0>",
            f"!quant.uniform<{name}<3:-3>:bf16, 1.0>",
            f"!quant.uniform<{name}:f32:1, {{0.5,0.25:3}}>",
            f"!quant.uniform<{name}:{name}, 0.5>",
            f"!quant.any<{name}:f32>",
            f"!quant.any<{name}<-1:1>>",
        ]
    types += [f"!quant.uniform<{s}:f32, 0.5>" for s in REJECTED_STORAGE]
    return types


def quantile_types() -> list[str]:
    q = "!quant.quantile"
    return [
        f"{q}<ui4:f16, {{{NF4}}}>",
        f"{q}<ui2:f32, {{{LUT4}}}>",
        f"{q}<ui2:bf16, {{{LUT4}}}, <0:3>>",
        f"{q}<si2:f64, {{{LUT4}}}, <-2:1>>",
        f"{q}<i2:i8, {{{LUT4}}}>",
        f"{q}<ui1:f16, {{1.0e-300, 123456789.0}}>",
        f"{q}<ui1:f16, {{0x3FF0000000000000, 2.5e-8}}>",
        f"{q}<ui1:f16 , {{ 1.0 , 2.0 }} , < 0 : 1 > >",
        f"{q}<f8E4M3FN:f32, {{-1.0,0.0,1.0}}, <-1:1>>",
        f"{q}<f4E2M1FN:f16, {{-1.0,0.0,1.0}}, <-6:6>>",
        f"{q}<f16:f16, {{1.0, 2.0}}>",
        f"{q}<i33:f16, {{1.0, 2.0}}>",
        f"{q}<ui1:f16, {{1.0, 2.0, 3.0}}, <-1:1>>",
        f"{q}<index:f16, {{1.0, 2.0}}>",
        f"{q}<ui1:vector<2xf16>, {{1.0, 2.0}}>",
        f"{q}<ui4:f16, {{}}>",
        f"{q}<ui1:f16, {{1.0, 2.0}}, <1:0>>",
        f"{q}<ui1:f16, {{0x7FF0000000000000, 2.0}}>",
        f"{q}<ui1:f16, {{0x7FF8000000000000, 2.0}}>",
        f"{q}<ui4:f16, {{-1.0,0.0,1.0}}>",
        f"{q}<u2:f16, {{{LUT4}}}>",
        f"{q}<ui1:f16>",
        f"{q}<ui1, {{1.0,2.0}}>",
        f"{q}<ui1:f16, {{1.0,2.0,}}>",
        f"{q}<ui1:f16, {{1.0 2.0}}>",
        f"{q}<ui1:f16, {{1.0,2.0}}, <0:1>, 3>",
        f"!quant.uniform<{q}<ui4:f16, {{{NF4}}}>:f32, 0.5>",
        f"!quant.uniform<{q}<ui4:f16, {{{NF4}}}><1:15>:f32, 0.5:3>",
        f"!quant.uniform<{q}<ui4:f16, {{{NF4}}}>:f32:1, {{0.5,0.25:3}}>",
        f"!quant.uniform<{q}<si2:f16, {{{LUT4}}}, <-2:1>><-2:1>:f32, 0.5>",
        f"!quant.uniform<{q}<si2:f16, {{{LUT4}}}><-2:0>:bf16, 0.5>",
        f"!quant.uniform<{q}<ui2:f32, {{-1.0,0.0,1.0}}, <0:2>><0:3>:f32, 0.5>",
        f"!quant.uniform<{q}<f16:f16, {{1.0, 2.0}}, <0:1>><0:0>:f32, 0.5>",
        f"!quant.uniform<{q}<i33:f16, {{1.0, 2.0}}, <0:1>>:f32, 0.5>",
        f"!quant.any<{q}<ui2:f32, {{{LUT4}}}>:f32>",
    ]


def signedness_types() -> list[str]:
    types: list[str] = []
    for prefix, width in itertools.product(["i", "u", "si", "ui"], [1, 4, 8, 16, 32]):
        signed = prefix in ("i", "si")
        low, high = (
            (-(1 << (width - 1)), (1 << (width - 1)) - 1)
            if signed
            else (0, (1 << width) - 1)
        )
        types.append(f"!quant.uniform<{prefix}{width}:f32, 0.5:1>")
        types.append(
            f"!quant.uniform<{prefix}{width}<{low}:{high}>:f32:0, {{0.5,2.0}}>"
        )
        if high - low > 1:
            types.append(f"!quant.any<{prefix}{width}<{low + 1}:{high}>:f16>")
        types.append(f"!quant.uniform<{prefix}{width}<{low - 1}:{high}>:f32, 1.0>")
    types += [f"!quant.uniform<{p}33:f32, 0.5>" for p in ("i", "u", "si", "ui")]
    return types


CRASH_CASES = [
    f"!quant.uniform<!quant.quantile<ui4:f16, {{{NF4}}}>:f32:{{0:2}}, {{{{0.5}}}}>",
    "!quant.uniform<f8E4M3FN:f32:{0:2}, {{0.5},{0.25:1}}>",
]


def _case(qtype: str) -> str:
    return f"func.func private @f() -> {qtype}\n"


@cache
def cases() -> dict[str, str]:
    generated = {
        **{f"float-{i}": t for i, t in enumerate(float_storage_types())},
        **{f"quantile-{i}": t for i, t in enumerate(quantile_types())},
        **{f"signedness-{i}": t for i, t in enumerate(signedness_types())},
    }
    found = {name: _case(t) for name, t in generated.items()}
    for case in corpus.all_cases():
        if corpus.deviation_features(case.text) & {"e", "f"}:
            found[f"corpus-{case.name}"] = case.text
    return found


def _message(line: str) -> str:
    return line.split("error:", 1)[1].strip() if "error:" in line else line.strip()


def run_upstream(text: str) -> Outcome:
    done = iree_opt.run_iree_opt(text, "--allow-unregistered-dialect")
    if done.returncode < 0 or "Stack dump" in done.stderr:
        return Outcome("crash", message=f"signal {-done.returncode}")
    if done.returncode == 0:
        return Outcome("accept", corpus.quant_type_texts(done.stdout))
    first = next((ln for ln in done.stderr.splitlines() if "error:" in ln), "")
    return Outcome("reject", message=_message(first))


def _run_batch(texts: list[str]) -> list[Outcome] | None:
    """All `texts` through one `iree-opt -split-input-file`; None if it crashed."""
    separator = "\n// -----\n"
    starts, line = [], 1
    for text in texts:
        starts.append(line)
        line += text.count("\n") + separator.count("\n")
    done = iree_opt.run_iree_opt(
        separator.join(texts), "--allow-unregistered-dialect", "--split-input-file"
    )
    if done.returncode < 0 or "Stack dump" in done.stderr:
        return None
    errors: dict[int, str] = {}
    for err in done.stderr.splitlines():
        found = re.match(r"<stdin>:(\d+):\d+: error: (.*)", err)
        if found is None:
            continue
        index = bisect.bisect_right(starts, int(found.group(1))) - 1
        errors.setdefault(index, found.group(2).strip())
    chunks = done.stdout.split("// -----")
    if len(chunks) != len(texts):
        return None
    return [
        Outcome("reject", message=errors[i])
        if i in errors
        else Outcome("accept", corpus.quant_type_texts(chunk))
        for i, chunk in enumerate(chunks)
    ]


@cache
def results() -> dict[str, tuple[Outcome, Outcome]]:
    found = cases()
    texts = list(found.values())
    upstream = _run_batch(texts)
    if upstream is None:  # one case crashed: run them one by one
        with ThreadPoolExecutor(max_workers=2) as pool:
            upstream = list(pool.map(run_upstream, texts))
    return {
        name: (up, run_ours(text))
        for (name, text), up in zip(found.items(), upstream, strict=True)
    }


def test_case_counts() -> None:
    names = list(cases())
    assert sum(n.startswith("float-") for n in names) >= 32
    assert sum(n.startswith("quantile-") for n in names) >= 14
    assert sum(n.startswith("signedness-") for n in names) >= 20


@pytest.mark.parametrize("name", list(cases()))
def test_agrees_with_llvm_main(name: str) -> None:
    iree_opt.require_iree_opt()
    upstream, ours = results()[name]
    text = cases()[name]
    assert ours.status != "crash", ours.message
    if corpus.deviation_features(text) & set("abcd"):
        return  # deliberate differences, see test_differential.py
    assert upstream.status != "crash", f"iree-opt crashed on {text}"
    assert ours.status == upstream.status, (text, upstream, ours)
    if upstream.status == "accept":
        assert ours.types == upstream.types
    elif not name.startswith("corpus-"):
        # The generated cases are types alone: the message is the quant
        # dialect's (corpus op cases may fail in func.return, worded by xDSL).
        assert _message(ours.message) == upstream.message


@pytest.mark.parametrize("qtype", CRASH_CASES)
def test_beyond_upstream_sub_channel(qtype: str) -> None:
    iree_opt.require_iree_opt()
    assert run_upstream(_case(qtype)).status == "crash"  # still a crash upstream
    ours = run_ours(_case(qtype))
    assert ours.status == "accept", ours


if __name__ == "__main__":
    agree = 0
    for case_name, (up, us) in results().items():
        same = up.status == us.status and (
            up.types == us.types
            if up.status == "accept"
            else up.message == _message(us.message)
        )
        agree += same
        if not same:
            print(
                f"{case_name}: {cases()[case_name].strip()}\n  main: {up}\n  ours: {us}"
            )
    print(f"{agree}/{len(results())} agree")
