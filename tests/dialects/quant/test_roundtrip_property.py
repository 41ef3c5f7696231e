"""Printing then parsing any valid quantized type gives the same type (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import bf16, f16, f32, f64
from xdsl.ir import Attribute

import xquant
from xquant.dialects.quant import (
    AnyQuantizedType,
    CalibratedQuantizedType,
    UniformQuantizedType,
)
from xquant.dialects.quant.float_semantics import scale_range
from xquant.dialects.quant.types import default_storage_range

EXPRESSED = [f16, bf16, f32, f64]


@st.composite
def storage(draw: st.DrawFn) -> tuple[int, bool, int, int]:
    width = draw(st.integers(1, 32))
    signed = draw(st.booleans())
    low, high = default_storage_range(width, signed)
    lo = draw(st.integers(low, high - 1))
    hi = draw(st.integers(lo + 1, high))
    return width, signed, lo, hi


@st.composite
def scale(draw: st.DrawFn, expressed: Attribute) -> float:
    low, high = scale_range(expressed)
    exponent = draw(st.floats(np.log2(low) + 1, np.log2(high) - 1))
    return float(2.0**exponent * draw(st.floats(1.0, 1.9)))


@st.composite
def uniform_types(draw: st.DrawFn) -> Attribute:
    width, signed, lo, hi = draw(storage())
    expressed = draw(st.sampled_from(EXPRESSED))
    kind = draw(st.sampled_from(["per_layer", "per_axis", "sub_channel"]))
    zp_any = st.integers(-(2**40), 2**40)
    if kind == "per_layer":
        return UniformQuantizedType.per_layer(
            width, signed, expressed, draw(scale(expressed)), draw(zp_any), lo, hi
        )
    if kind == "per_axis":
        n = draw(st.integers(1, 5))
        scales = [draw(scale(expressed)) for _ in range(n)]
        zps = [draw(zp_any) for _ in range(n)]
        return UniformQuantizedType.per_axis(
            width, signed, expressed, draw(st.integers(0, 5)), scales, zps, lo, hi
        )
    shape = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    size = int(np.prod(shape))
    scales = np.array([draw(scale(expressed)) for _ in range(size)]).reshape(shape)
    low, high = default_storage_range(width, signed)
    zps = np.array([draw(st.integers(low, high)) for _ in range(size)]).reshape(shape)
    axes = draw(st.lists(st.integers(0, 4), max_size=3, unique=True))
    info = [(axis, draw(st.integers(1, 64))) for axis in axes]
    return UniformQuantizedType.sub_channel(
        width, signed, expressed, info, scales, zps, lo, hi
    )


@st.composite
def other_types(draw: st.DrawFn) -> Attribute:
    width, signed, lo, hi = draw(storage())
    if draw(st.booleans()):
        expressed = draw(st.sampled_from([None, *EXPRESSED]))
        return AnyQuantizedType.get(width, signed, expressed, lo, hi)
    low = draw(st.floats(-1e30, 1e30))
    high = draw(st.floats(-1e30, 1e30).filter(lambda v: v > low))
    return CalibratedQuantizedType.get(draw(st.sampled_from(EXPRESSED)), low, high)


@settings(max_examples=300, deadline=None)
@given(st.one_of(uniform_types(), other_types()))
def test_print_parse_roundtrip(qtype: Attribute) -> None:
    text = f"func.func private @f() -> {qtype}"
    module = xquant.parse_module(text)
    parsed = next(iter(module.ops)).function_type.outputs.data[0]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    assert parsed == qtype
    assert str(parsed) == str(qtype)
