"""The differential corpus: `!quant.*` inputs fed to both upstream mlir-opt and xquant.

Every case is a whole module body. Types appear in `func.func private @f() -> T`
declarations; ops appear in a `func.func` body (`quant.qcast` / `dcast` /
`scast` from the argument, returned). Hand-written cases cover the reference
notes' acceptance list (valid and invalid types, op verifiers); generated cases
draw random storage widths, bounds, expressed types, scales, zero points,
axes, block sizes, scale tensors and tensor shapes, valid and invalid.

`deviation_features(text)` names the deliberate differences from upstream a
case touches (see `DELIBERATE_DIFFERENCES` in test_differential.py).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

__all__ = [
    "Case",
    "all_cases",
    "decl",
    "deviation_features",
    "generated_cases",
    "hand_written_cases",
    "op",
    "quant_type_texts",
]


@dataclass(frozen=True)
class Case:
    name: str
    text: str


def decl(qtype: str) -> str:
    return f"func.func private @f() -> {qtype}"


def op(name: str, source: str, result: str) -> str:
    return (
        f"func.func @g(%x: {source}) -> {result} {{\n"
        f"  %0 = quant.{name} %x : {source} to {result}\n"
        f"  return %0 : {result}\n"
        "}"
    )


# ----- scanning quant types out of text -----


def quant_type_texts(text: str) -> list[str]:
    """Every `!quant.<name><...>` occurrence, in order, with balanced `<...>`."""
    found: list[str] = []
    i = 0
    while True:
        start = text.find("!quant.", i)
        if start < 0:
            return found
        j = start + len("!quant.")
        while j < len(text) and (text[j].isalnum() or text[j] == "_"):
            j += 1
        if j < len(text) and text[j] == "<":
            depth = 0
            while j < len(text):
                if text[j] == "<":
                    depth += 1
                elif text[j] == ">":
                    depth -= 1
                    if depth == 0:
                        j += 1
                        break
                j += 1
        found.append(text[start:j])
        i = j


_STORAGE = re.compile(r"!quant\.uniform<(si|ui|i|u)(\d+)")


def _sub_channel_zero_points(qtype: str) -> tuple[bool, int, list[int]] | None:
    """(signed, width, zero points) of a sub-channel `!quant.uniform` text, else None."""
    match = _STORAGE.match(qtype)
    if match is None:
        return None
    signed, width = match.group(1) in ("i", "si"), int(match.group(2))
    rest = qtype[match.end() :]
    if rest.startswith("<"):  # storage bounds
        rest = rest[rest.index(">") + 1 :]
    # `:EXPR:{` marks a sub-channel type.
    sub = re.match(r":[A-Za-z0-9]+:\{", rest)
    if sub is None:
        return None
    close = rest.find("}", sub.end())
    if close < 0:
        return None
    tensor = rest[close + 1 :]
    return signed, width, [int(z) for z in re.findall(r":\s*(-?\d+)", tensor)]


_MAIN_STORAGE = re.compile(r"!quant\.quantile|!quant\.(uniform|any)<f")
_BUILTIN_STORAGE = re.compile(r"!quant\.(uniform|any)<(si|ui)\d")


def as_llvm_22(printed: str) -> str:
    """A type text as mlir-opt 22.1.8 prints it: `siN`/`uiN` storage as `iN`/`uN`."""
    return re.sub(
        r"(!quant\.(?:uniform|any)<)(s|u)i(\d)",
        lambda m: m.group(1) + ("i" if m.group(2) == "s" else "u") + m.group(3),
        printed,
    )


def deviation_features(text: str) -> set[str]:
    """Which deliberate differences from upstream `text` touches:

    - "a": a sub-channel type on an unranked tensor, in a quant op;
    - "b": a negative sub-channel zero point inside the storage range;
    - "c": a sub-channel zero point outside the storage type's range;
    - "d": an unsigned sub-channel zero point above the signed maximum;
    - "e": a `siN`/`uiN` storage type, which LLVM main prints as written
      (mlir-opt 22.1.8: `iN`/`uN`);
    - "f": LLVM main's float storage or `!quant.quantile` (22.1.8 rejects them).
    """
    features: set[str] = set()
    if _BUILTIN_STORAGE.search(text) is not None:
        features.add("e")
    if _MAIN_STORAGE.search(text) is not None:
        features.add("f")
    has_op = re.search(r"quant\.(qcast|dcast|scast)", text) is not None
    for qtype in quant_type_texts(text):
        parsed = _sub_channel_zero_points(qtype)
        if parsed is None:
            continue
        signed, width, zero_points = parsed
        if has_op and f"tensor<*x{qtype}" in text:
            features.add("a")
        if not 1 <= width <= 32:
            continue
        low, high = (
            (-(1 << (width - 1)), (1 << (width - 1)) - 1)
            if signed
            else (0, (1 << width) - 1)
        )
        for zp in zero_points:
            if not low <= zp <= high:
                features.add("c")
            elif zp < 0:
                features.add("b")
            elif not signed and zp > (1 << (width - 1)) - 1:
                features.add("d")
    return features


# ----- hand-written cases -----

_SC = "!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:10,3.0:20},{4.0:30,5.0:40}}>"
_PA = "!quant.uniform<i8:f32:2, {1.0,2.0,3.0}>"
_Q = "!quant.uniform<i8:f32, 1.0>"

VALID_TYPES = [
    "!quant.uniform<i8:f32, 2.0>",
    "!quant.uniform<u8:f32, 0.5:7>",
    "!quant.uniform<i8<-127:127>:f32, 1.0>",
    "!quant.uniform<i8<-128:127>:f32, 1.5:-3>",
    "!quant.uniform<ui8:f32, 1.0>",
    "!quant.uniform<si8:f32, 1.0>",
    "!quant.uniform<i16:bf16, 1.5>",
    "!quant.uniform<i32:f64, 1.0e-300>",
    "!quant.uniform<i1:f32, 1.0>",
    "!quant.uniform<u1:f32, 1.0>",
    "!quant.uniform<i8:f32, 1.0e-3:0>",
    "!quant.uniform<i8:f32, 1.0:1000>",
    "!quant.uniform<u8:f32, 1.0:-5>",
    "!quant.uniform<i8:f32, 2.0:128>",
    "!quant.uniform<i8<-8:7>:f32, 0.99872:127>",
    "!quant.uniform<u8:f32:1, {2.0e+2:-120,0.99872:127}>",
    "!quant.uniform<i8:f32:0, {1.0, 2.0:3}>",
    "!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:10, 3.0:20}, {4.0:30, 5.0:40}}>",
    "!quant.uniform<u8:f32:{0:1, 1:2}, {{2.0:120,3.0:127}, {4.0,5.0}}>",
    "!quant.uniform<i8:f32:{}, {{2.0}}>",
    "!quant.uniform<i8:f32:{0:1}, {2.0, 3.0}>",
    "!quant.uniform<i8:f32:{1:2, 0:1}, {{1.0, 2.0}}>",
    "!quant.uniform<i8:f32:{0:1,0:2}, {{1.0}}>",
    "!quant.uniform<i8:f16:{0:1}, {0.1, 0.7, 3.0e-3}>",
    "!quant.uniform<i8:bf16:{0:1}, {0.1, 0.7}>",
    "!quant.any<i8<-8:7>:f32>",
    "!quant.any<i8<-8:7>>",
    "!quant.any<u8<1:200>:f16>",
    "!quant.any<i8>",
    "!quant.calibrated<f32<-1.0:1.0>>",
    "!quant.calibrated<f32<-0.998:1.2321>>",
    "!quant.calibrated<f16<-0.7:0.7>>",
    "!quant.uniform<u8:f32, 0x41646ABBA0000000:128>",
    "tensor<2x?x4x!quant.uniform<i8:f32, 1.0>>",
    "!quant.uniform<i8:tf32, 1.0>",
    "!quant.uniform<i8:f32, 0.7>",
    "!quant.uniform<i8:f32, 0.998>",
    "!quant.uniform<i8:f32, 123456789.0>",
    "!quant.uniform<i8:f32, 1.2345678e-5>",
    "!quant.uniform<i8:f32, 1.401298464324817e-45>",
    "!quant.uniform<i8:f32, 3.4028234663852886e+38>",
    "!quant.uniform<i8:f16, 65504.0>",
    "!quant.uniform<i8:f16, 5.960464477539063e-08>",
    "!quant.uniform<i32:f32, 1.0:-2147483648>",
    "!quant.uniform<i8:f32, 1.0:9223372036854775807>",
    "!quant.uniform<u32<0:4294967295>:f32, 1.0>",
    "!quant.uniform<i32<-2147483648:2147483647>:f32, 1.0>",
    "!quant.uniform<i4<-8:7>:f32, 1.0>",
    "!quant.uniform<u4<0:14>:f32, 1.0>",
    "!quant<uniform<i8:f32, 1.0>>",
    "!quant.uniform<i8:f8E4M3FN, 1.0>",
    "!quant.uniform<i8:f8E5M2:{0:1}, {0.5, 1.5}>",
    "!quant.uniform<i8:f32:{0:1}, {{2.0:-128}, {3.0:127}}>",
    "!quant.uniform<u8:f32:{0:1}, {{2.0:255}, {3.0:0}}>",
    "tensor<*x!quant.uniform<i8:f32:{0:1}, {{2.0}}>>",
    "tensor<2x3x!quant.uniform<i8:f32:{0:1}, {{1.0}, {2.0}}>>",
    "tensor<*x!quant.uniform<i8:f32:0, {2.0}>>",
    "tensor<3x!quant.calibrated<f32<-1.0:1.0>>>",
    "!quant.calibrated<f80<-1.0:1.0>>",
    "!quant.calibrated<f64<-1.0e300:0x7FEFFFFFFFFFFFFF>>",
]

INVALID_TYPES = [
    "!quant.foobar",
    "!quant.uniform<int8:f32, 1.0>",
    "!quant.uniform<i33:f32, 1.0>",
    "!quant.uniform<u0:f32, 1.0>",
    "!quant.uniform<i0:f32, 1.0>",
    "!quant.uniform<ux:f32, 1.0>",
    "!quant.uniform<i4<-9:1>:f32, 1.0>",
    "!quant.uniform<i4<-1:9>:f32, 1.0>",
    "!quant.uniform<u8<-1:3>:f32, 1.0>",
    "!quant.uniform<u8<0:256>:f32, 1.0>",
    "!quant.uniform<i8<3:3>:f32, 1.0>",
    "!quant.uniform<i8<2:1>:f32, 1.0>",
    "!quant.uniform<i8<16>:f32, 1.0>",
    "!quant.uniform<i8<-4:3>:f32 0.99872>",
    "!quant.uniform<i8:f32, 0.99872:127 23>",
    "!quant.uniform<i8:f32, 0.1abc>",
    "!quant.uniform<i8:f32, 0.0>",
    "!quant.uniform<i8:f32, -2.0>",
    "!quant.uniform<i8:f32, 1.0e39>",
    "!quant.uniform<i8:f16, 7.0e4>",
    "!quant.uniform<i8:f16, 5.8e-8>",
    "!quant.uniform<i8:f16:0, {1.0, 1.0e-9}>",
    "!quant.uniform<i8:f32, 2>",
    "!quant.uniform<i8:f32, abc>",
    "!quant.uniform<i8:f32, inf>",
    "!quant.uniform<i8:i32, 1.0>",
    "!quant.uniform<i8:f33, 1.0>",
    "!quant.uniform<i8:f32:-1, {1.0}>",
    "!quant.uniform<i8:f32:1, 2.0>",
    "!quant.uniform<i8:f32:{}, 2.0>",
    "!quant.uniform<i8:f32:0, {}>",
    "!quant.uniform<i8:f32:{0:0}, {{1.0}}>",
    "!quant.uniform<i8:f32:{0:-1}, {{1.0}}>",
    "!quant.uniform<i8:f32:{-1:1}, {{1.0}}>",
    "!quant.uniform<i8:f32:{0}, {{1.0}}>",
    "!quant.uniform<i8:f32:{:1}, {{1.0}}>",
    "!quant.uniform<i8:f32:{0:1, 1:2}, {{1.0, 2.0}, {3.0}}>",
    "!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0,3.0}, 4.0}>",
    "!quant.uniform<i8:f32:{0:1}, {1.0, 2.0}:1>",
    "!quant.uniform<i8:f32:{0:1}, {{1.0:abc}}>",
    "!quant.uniform<i8:f32, {1.0}>",
    "!quant.uniform<i8:f32:, {1.0}>",
    "!quant.calibrated<f32<2.0:1.0>>",
    "!quant.calibrated<f32<1.0:1.0>>",
    "!quant.calibrated<f32<-0.5>>",
    "!quant.calibrated<i8<-4:3>>",
    "!quant.calibrated<f32>",
    "!quant.any<i8:i8>",
    "!quant.any<i8 f32>",
    "!quant.any<f32>",
    "!quant.uniform<i8:f32, 1.0:>",
    "!quant.uniform<i8:f32, 0.1:abc>",
    "!quant.uniform<i8:f32:,{1.0}>",
    "!quant.uniform<f8E5M2:f32, 1.0>",
    "!quant.uniform<i8:f32, 1.0",
    "!quant<uniform<i8:f32, 1.0>",
    "!quant.uniform<i1024:f32, 1.0>",
    "!quant.uniform<i8:f32, -0x3FF0000000000000>",
    "vector<4x!quant.uniform<i8:f32, 1.0>>",
    "memref<4x!quant.uniform<i8:f32, 1.0>>",
]

OP_CASES = [
    # valid
    op("qcast", "f32", _Q),
    op("dcast", _Q, "f32"),
    op("scast", "i8", _Q),
    op("scast", _Q, "i8"),
    op("dcast", f"tensor<*x{_PA}>", "tensor<*xf32>"),
    op("qcast", "tensor<?x?x?xf32>", f"tensor<?x?x?x{_PA}>"),
    op("qcast", "tensor<2x3x3xf32>", f"tensor<2x3x3x{_PA}>"),
    op("scast", "tensor<2x4xi8>", f"tensor<2x4x{_SC}>"),
    op("qcast", "tensor<2x4xf32>", f"tensor<2x4x{_SC}>"),
    op("qcast", "tensor<?x?xf32>", f"tensor<?x?x{_SC}>"),
    op("qcast", "f32", "!quant.any<i8:f32>"),
    op("dcast", "!quant.any<i8:f32>", "f32"),
    op("qcast", "f32", "!quant.calibrated<f32<-1.0:1.0>>"),
    op("scast", "tensor<*xi8>", "tensor<*x!quant.uniform<u8:f32, 2.0:128>>"),
    op("qcast", "tensor<f32>", "tensor<!quant.uniform<i8:f32, 1.0>>"),
    op("dcast", "tensor<2x!quant.uniform<u8:f16, 0.5>>", "tensor<2xf16>"),
    # invalid
    op("dcast", "f32", "f32"),
    op("qcast", "i8", _Q),
    op("qcast", "f32", "f32"),
    op("dcast", _Q, "i8"),
    op("qcast", "tensor<2xf32>", f"tensor<3x{_Q}>"),
    op("qcast", "tensor<2xf32>", _Q),
    op("qcast", "tensor<*xf32>", f"tensor<2x{_Q}>"),
    op("qcast", "tensor<2x3xf32>", f"tensor<?x3x{_Q}>"),
    op("qcast", "f64", _Q),
    op("scast", "i32", _Q),
    op("scast", "i8", "i8"),
    op("scast", _Q, _Q),
    op("scast", "ui8", "!quant.uniform<u8:f32, 1.0>"),
    op("scast", "si8", _Q),
    op("qcast", "f32", "!quant.uniform<i8:f32:0, {1.0}>"),
    op("qcast", "tensor<2x3xf32>", "tensor<2x3x!quant.uniform<i8:f32:2, {1.0,2.0}>>"),
    op("dcast", f"tensor<2x3x4x{_PA}>", "tensor<2x3x4xf32>"),
    op("scast", "tensor<2x3x4xi8>", f"tensor<2x3x4x{_PA}>"),
    op("qcast", "f32", _SC),
    op("qcast", "tensor<2x5xf32>", f"tensor<2x5x{_SC}>"),
    op("qcast", "tensor<0x4xf32>", f"tensor<0x4x{_SC}>"),
    op("qcast", "tensor<2x4x1xf32>", f"tensor<2x4x1x{_SC}>"),
    op("qcast", "tensor<4x4xf32>", f"tensor<4x4x{_SC}>"),
    op(
        "qcast",
        "tensor<2x4xf32>",
        "tensor<2x4x!quant.uniform<i8:f32:{0:1, 3:2}, {{2.0,3.0},{4.0,5.0}}>>",
    ),
    op("qcast", "f32", "!quant.any<i8>"),
    op("qcast", "vector<2xf32>", f"vector<2x{_Q}>"),
    op("dcast", "!quant.calibrated<f32<-1.0:1.0>>", "f16"),
    """func.func @h(%a: !quant.uniform<ui8:f32, 1.0>) -> !quant.uniform<u8:f32, 1.0> {
  return %a : !quant.uniform<ui8:f32, 1.0>
}""",
    """func.func @h(%a: !quant.uniform<si8:f32, 1.0>) -> !quant.uniform<i8:f32, 1.0> {
  return %a : !quant.uniform<si8:f32, 1.0>
}""",
    """func.func @h(%a: !quant.uniform<u8:f32, 1.0>) -> !quant.uniform<u8:f32, 1.0> {
  return %a : !quant.uniform<u8<0:255>:f32, 1.0:0>
}""",
    # deliberate differences from upstream
    op("qcast", "tensor<*xf32>", f"tensor<*x{_SC}>"),  # (a)
    op(
        "dcast", "tensor<*x!quant.uniform<i8:f32:{0:1}, {{2.0}}>>", "tensor<*xf32>"
    ),  # (a)
    decl("!quant.uniform<i8:f32:{0:1}, {{2.0:-1}, {3.0:1}}>"),  # (b)
    decl("!quant.uniform<i4:f16:{0:1}, {{2.0:-8}, {3.0:7}}>"),  # (b)
    decl("!quant.uniform<i8:f32:{0:1}, {{2.0:128}}>"),  # (c) upstream wraps to -128
    decl("!quant.uniform<i8:f32:{0:1}, {{2.0:300}}>"),  # (c) upstream asserts
    decl("!quant.uniform<u8:f32:{0:1}, {{2.0:-1}}>"),  # (c) upstream asserts
    decl("!quant.uniform<u8:f32:{0:1}, {{2.0:256}}>"),  # (c)
    decl("!quant.uniform<u8:f32:{0:1}, {{2.0:200}}>"),  # (d) upstream prints -56
    decl("!quant.uniform<u4:f32:{0:1}, {{2.0:15}, {1.0:8}}>"),  # (d)
]

# Upstream mlir-opt 22.1.8 (an assertions build) aborts on some of these; kept so
# that we are seen to handle them cleanly (accept or reject, never crash).
UPSTREAM_CRASHES = [
    decl(
        "!quant.uniform<i8:f80, 1.0>"
    ),  # upstream: convertToDouble assertion on f80 semantics
    decl("!quant.uniform<i8:f128:{0:1}, {1.0}>"),
]


def hand_written_cases() -> list[Case]:
    cases: list[Case] = []
    for i, t in enumerate(VALID_TYPES):
        cases.append(Case(f"valid-type-{i}", decl(t)))
    for i, t in enumerate(INVALID_TYPES):
        cases.append(Case(f"invalid-type-{i}", decl(t)))
    for i, text in enumerate(OP_CASES):
        cases.append(Case(f"op-{i}", text))
    for i, text in enumerate(UPSTREAM_CRASHES):
        cases.append(Case(f"upstream-crash-{i}", text))
    return cases


# ----- generated cases -----

_EXPRESSED = ["f32", "f32", "f16", "bf16", "f64", "tf32", "f8E4M3FN", "f8E5M2"]
_NICE_SCALES = [
    "1.0",
    "2.0",
    "0.5",
    "0.25",
    "1.5",
    "3.0",
    "200.0",
    "0.1",
    "0.99872",
    "1.0e-3",
    "2.0e-2",
]
_HARD_SCALES = [
    "0.7",
    "0.998",
    "0.999",
    "0.123456789",
    "1.2345678e-5",
    "123456.7",
    "123456789.0",
    "1.1",
    "1.0e-7",
    "6.5e4",
]
_BAD_SCALES = ["0.0", "-1.0", "2", "1.0e39", "abc", "0x7FF0000000000000"]


class _Gen:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def storage(self, valid: bool = True) -> tuple[str, bool, int, int, int]:
        """(text, signed, width, low, high)."""
        rng = self.rng
        width = rng.choice([1, 2, 4, 4, 7, 8, 8, 8, 8, 12, 16, 16, 24, 31, 32])
        if not valid:
            width = rng.choice([0, 33, 64])
        prefix = rng.choice(["i", "i", "u", "u", "si", "ui"])
        signed = prefix in ("i", "si")
        if 1 <= width <= 32:
            low, high = (
                (-(1 << (width - 1)), (1 << (width - 1)) - 1)
                if signed
                else (0, (1 << width) - 1)
            )
        else:
            low, high = 0, 0
        text = f"{prefix}{width}"
        if valid and width > 1 and self.chance(0.3):
            a = rng.randint(low, high - 1)
            b = rng.randint(a + 1, high)
            text += f"<{a}:{b}>"
            low, high = a, b
        elif self.chance(0.05) and width >= 2:
            text += rng.choice(
                [
                    f"<{low - 1}:{high}>",
                    f"<{low}:{high + 1}>",
                    f"<{high}:{low}>",
                    "<1:1>",
                ]
            )
        return text, signed, width, low, high

    def scale(self, bad: float = 0.03) -> str:
        rng = self.rng
        if self.chance(bad):
            return rng.choice(_BAD_SCALES)
        kind = rng.randrange(4)
        if kind == 0:
            return rng.choice(_NICE_SCALES)
        if kind == 1:
            return rng.choice(_HARD_SCALES)
        if kind == 2:
            return f"{rng.randint(1, 99999)}.{rng.randint(0, 999)}e{rng.randint(-8, 3)}"
        return repr(rng.uniform(0.001, 10.0))

    def zero_point(self, low: int, high: int) -> int:
        if self.chance(0.5):
            return 0
        a, b = max(low, -1000), min(high, 1000)
        return self.rng.randint(a, b) if a <= b else low

    def param(self, low: int, high: int, sub_channel: bool) -> str:
        s = self.scale()
        zp = self.zero_point(low, high)
        if sub_channel and self.chance(0.08):
            zp = self.rng.choice([-1, high + 1, -5])
        return f"{s}:{zp}" if zp or self.chance(0.1) else s

    def per_layer(self) -> str:
        st, _, _, low, high = self.storage(valid=not self.chance(0.04))
        e = self.rng.choice(_EXPRESSED)
        return f"!quant.uniform<{st}:{e}, {self.param(low, high, False)}>"

    def per_axis(self) -> tuple[str, int, int]:
        st, _, _, low, high = self.storage()
        e = self.rng.choice(_EXPRESSED)
        axis = self.rng.choice([0, 0, 1, 1, 2, 3]) if not self.chance(0.04) else -1
        n = self.rng.randint(1, 4)
        sep = self.rng.choice([",", ", "])
        params = sep.join(self.param(low, high, False) for _ in range(n))
        return f"!quant.uniform<{st}:{e}:{axis}, {{{params}}}>", axis, n

    def sub_channel(self) -> tuple[str, list[int], dict[int, int]]:
        """(text, scales shape, {axis: block})."""
        rng = self.rng
        st, _, width, _, _ = self.storage()
        # Zero points the two tools agree on: 0 .. signed max (see deviation_features).
        low, high = 0, (1 << (width - 1)) - 1
        e = rng.choice(_EXPRESSED)
        rank = rng.randint(1, 3)
        shape = [rng.randint(1, 3) for _ in range(rank)]
        blocks: dict[int, int] = {}
        for axis in range(rank):
            if self.chance(0.7):
                blocks[axis] = rng.choice([1, 1, 2, 3, 4])
            elif self.chance(0.8):
                shape[axis] = 1  # an unlisted axis is one block: one scale
        if self.chance(0.04):
            blocks[rng.randint(0, rank)] = rng.choice([0, -1])
        items = list(blocks.items())
        rng.shuffle(items)
        info = ", ".join(f"{a}:{b}" for a, b in items)

        def nest(dims: list[int]) -> str:
            if not dims:
                return self.param(low, high, True)
            return "{" + ", ".join(nest(dims[1:]) for _ in range(dims[0])) + "}"

        tensor = nest(shape)
        if self.chance(0.04):  # ragged
            tensor = (
                tensor.replace("}, {", "}, {0.5, ", 1) if rank > 1 else "{{1.0}, 2.0}"
            )
        return f"!quant.uniform<{st}:{e}:{{{info}}}, {tensor}>", shape, blocks

    def any_type(self) -> str:
        st, *_ = self.storage(valid=not self.chance(0.05))
        return (
            f"!quant.any<{st}:{self.rng.choice(_EXPRESSED)}>"
            if self.chance(0.7)
            else f"!quant.any<{st}>"
        )

    def calibrated(self) -> str:
        lo = self.rng.choice(["-1.0", "-0.998", "0.0", "-123.25", "0.7", "-3.0e-5"])
        hi = self.rng.choice(["1.0", "1.2321", "0.5", "6.0e2", "0.7", "-2.0"])
        return f"!quant.calibrated<{self.rng.choice(_EXPRESSED)}<{lo}:{hi}>>"

    def container(self, qtype: str) -> str:
        kind = self.rng.randrange(5)
        if kind == 0:
            return qtype
        if kind == 1:
            return f"tensor<2x3x{qtype}>"
        if kind == 2:
            return f"tensor<?x{qtype}>"
        if kind == 3:
            return f"tensor<*x{qtype}>"
        return f"tensor<4x{qtype}>"


def _expressed_of(qtype: str) -> str:
    if qtype.startswith("!quant.calibrated<"):
        return qtype[len("!quant.calibrated<") :].split("<", 1)[0]
    m = re.match(r"!quant\.\w+<[a-z]+\d+(?:<-?\d+:-?\d+>)?:([A-Za-z0-9]+)", qtype)
    return m.group(1) if m else "f32"


def _storage_int_of(qtype: str) -> str:
    m = re.match(r"!quant\.\w+<(?:si|ui|i|u)(\d+)", qtype)
    return f"i{m.group(1)}" if m else "i8"


def _shaped(shape: list[str], element: str) -> str:
    return (
        f"tensor<{'x'.join([*shape, element])}>"
        if shape != ["*"]
        else f"tensor<*x{element}>"
    )


def generated_cases(seed: int = 1234, types: int = 160, ops: int = 160) -> list[Case]:
    gen = _Gen(seed)
    rng = gen.rng
    cases: list[Case] = []
    makers = [
        gen.per_layer,
        lambda: gen.per_axis()[0],
        lambda: gen.sub_channel()[0],
        gen.any_type,
        gen.calibrated,
    ]
    weights = [4, 3, 4, 1, 1]
    for i in range(types):
        qtype = rng.choices(makers, weights)[0]()
        cases.append(Case(f"gen-type-{i}", decl(gen.container(qtype))))
    for i in range(ops):
        kind = rng.choice(["per_layer", "per_axis", "sub_channel", "sub_channel"])
        if kind == "per_layer":
            qtype = gen.per_layer()
            rank = rng.randint(0, 3)
            dims = [str(rng.choice([1, 2, 3, "?"])) for _ in range(rank)]
            shape = dims if rank or gen.chance(0.5) else ["*"]
        elif kind == "per_axis":
            qtype, axis, n = gen.per_axis()
            rank = max(axis + 1, 1) if not gen.chance(0.15) else rng.randint(0, 2)
            dims = [str(rng.choice([2, 3])) for _ in range(rank)]
            if 0 <= axis < rank:
                dims[axis] = rng.choice([str(n), str(n), "?", str(n + 1)])
            shape = dims if not gen.chance(0.1) else ["*"]
        else:
            qtype, scales_shape, blocks = gen.sub_channel()
            dims = []
            for axis, count in enumerate(scales_shape):
                block = blocks.get(axis)
                if block is None:  # unlisted axis: the block is the whole dimension
                    size = rng.choice([1, 2, 3, 5])
                elif block > 0:
                    size = count * block
                else:
                    size = count
                dims.append(str(size))
            mutate = rng.random()
            if mutate < 0.12 and dims:
                dims[rng.randrange(len(dims))] = "?"
            elif mutate < 0.2 and dims:
                j = rng.randrange(len(dims))
                dims[j] = str(int(dims[j]) + 1)
            elif mutate < 0.25:
                dims.append("2")
            elif mutate < 0.28:
                dims = ["*"]
            elif mutate < 0.3 and dims:
                dims[0] = "0"
            shape = dims
        op_name = rng.choice(["qcast", "dcast", "scast"])
        quantized = _shaped(shape, qtype) if shape else qtype
        if op_name == "scast":
            other_element = _storage_int_of(qtype)
        else:
            other_element = _expressed_of(qtype)
        if gen.chance(0.05):
            other_element = rng.choice(["f64", "i32", "f16"])
        other = _shaped(shape, other_element) if shape else other_element
        if gen.chance(0.04):
            other = _shaped(["5"], other_element)
        if op_name == "qcast" or (op_name == "scast" and gen.chance(0.5)):
            text = op(op_name, other, quantized)
        else:
            text = op(op_name, quantized, other)
        cases.append(Case(f"gen-op-{i}", text))
    return cases


def all_cases() -> list[Case]:
    return hand_written_cases() + generated_cases()
