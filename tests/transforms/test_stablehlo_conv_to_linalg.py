"""`stablehlo-legalize-to-linalg` on `stablehlo.convolution`.

Each convolution program runs in the interpreter before and after the pass and
the results must be bit-identical (floats sum in the result type, in the loop
nest's order, on both sides). The named cases are also checked against golden
values from a plain scalar loop over the spec's formula, written here
independently of the interpreter. Where `mlir-opt` is installed
the lowered text must parse and verify upstream (`--verify-each`).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import xquant
from tests.upstream import mlir_opt

PASS = "stablehlo-legalize-to-linalg"


@dataclass
class Conv:
    """A convolution: canonical sizes plus where each dim sits in each operand's layout.

    Layouts are lists of labels: `b`/`f` (input, output), `i`/`o` (kernel) and
    spatial indices 0, 1, ...
    """

    batch: int
    features: int
    out_features: int
    spatial: list[int]
    window: list[int]
    lhs_type: str = "i32"
    rhs_type: str = "i32"
    result_type: str = "i32"
    strides: list[int] | None = None
    padding: list[tuple[int, int]] | None = None
    lhs_dilation: list[int] | None = None
    rhs_dilation: list[int] | None = None
    reversal: list[bool] | None = None
    groups: int = 1
    batch_groups: int = 1
    input_layout: list[Any] = field(default_factory=list[Any])
    kernel_layout: list[Any] = field(default_factory=list[Any])
    output_layout: list[Any] = field(default_factory=list[Any])

    def __post_init__(self) -> None:
        n = len(self.spatial)
        self.strides = self.strides or [1] * n
        self.padding = self.padding or [(0, 0)] * n
        self.lhs_dilation = self.lhs_dilation or [1] * n
        self.rhs_dilation = self.rhs_dilation or [1] * n
        self.reversal = self.reversal or [False] * n
        self.input_layout = self.input_layout or ["b", *range(n), "f"]
        self.kernel_layout = self.kernel_layout or [*range(n), "i", "o"]
        self.output_layout = self.output_layout or ["b", *range(n), "f"]

    # canonical shapes: lhs (N, F, spatial), rhs (O, F / groups, window), result (N / B, O, out)
    def out_spatial(self) -> list[int]:
        assert self.padding is not None and self.lhs_dilation is not None
        assert self.rhs_dilation is not None and self.strides is not None
        sizes: list[int] = []
        for j, n in enumerate(self.spatial):
            padded = (n - 1) * self.lhs_dilation[j] + 1 + sum(self.padding[j])
            window = (self.window[j] - 1) * self.rhs_dilation[j] + 1
            sizes.append(
                0 if padded < window else (padded - window) // self.strides[j] + 1
            )
        return sizes

    def _shape(self, layout: list[Any], sizes: dict[Any, int]) -> list[int]:
        return [sizes[label] for label in layout]

    def lhs_shape(self) -> list[int]:
        sizes: dict[Any, int] = {"b": self.batch, "f": self.features}
        sizes.update(enumerate(self.spatial))
        return self._shape(self.input_layout, sizes)

    def rhs_shape(self) -> list[int]:
        sizes: dict[Any, int] = {
            "i": self.features // self.groups,
            "o": self.out_features,
        }
        sizes.update(enumerate(self.window))
        return self._shape(self.kernel_layout, sizes)

    def result_shape(self) -> list[int]:
        sizes: dict[Any, int] = {
            "b": self.batch // self.batch_groups,
            "f": self.out_features,
        }
        sizes.update(enumerate(self.out_spatial()))
        return self._shape(self.output_layout, sizes)

    def text(self) -> str:
        def tensor(shape: list[int], element: str) -> str:
            return f"tensor<{'x'.join(map(str, shape))}x{element}>"

        def layout(labels: list[Any]) -> str:
            return "[" + ", ".join(str(x) for x in labels) + "]"

        assert self.padding is not None and self.lhs_dilation is not None
        assert self.rhs_dilation is not None
        assert self.strides is not None and self.reversal is not None
        lhs = tensor(self.lhs_shape(), self.lhs_type)
        rhs = tensor(self.rhs_shape(), self.rhs_type)
        out = tensor(self.result_shape(), self.result_type)
        pad = ", ".join(f"[{lo}, {hi}]" for lo, hi in self.padding)
        reverse = ", ".join("true" if r else "false" for r in self.reversal)
        window = (
            f"stride = {self.strides}, pad = [{pad}], lhs_dilate = {self.lhs_dilation}, "
            f"rhs_dilate = {self.rhs_dilation}, reverse = [{reverse}]"
        )
        return f"""func.func @main(%lhs: {lhs}, %rhs: {rhs}) -> {out} {{
  %0 = stablehlo.convolution(%lhs, %rhs) dim_numbers = {layout(self.input_layout)}x{layout(self.kernel_layout)}->{layout(self.output_layout)}, window = {{{window}}} {{batch_group_count = {self.batch_groups} : i64, feature_group_count = {self.groups} : i64}} : ({lhs}, {rhs}) -> {out}
  func.return %0 : {out}
}}"""

    def arguments(self, seed: int) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(seed)
        return (
            _random(rng, self.lhs_shape(), self.lhs_type),
            _random(rng, self.rhs_shape(), self.rhs_type),
        )


DTYPES: dict[str, Any] = {
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "f32": np.float32,
    "f64": np.float64,
}


def _random(rng: np.random.Generator, shape: list[int], element: str) -> np.ndarray:
    dtype = DTYPES[element]
    if element.startswith("i"):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)
    return rng.standard_normal(shape).astype(dtype)


def reference(case: Conv, lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """The spec's convolution as a plain loop: integers summed exactly in Python ints,
    floats in the result type, one rounded multiply and add per (window position,
    input feature) in that order (the loop nest's, as MLIR's named convolutions)."""
    dtype = DTYPES[case.result_type]
    in_result_type = not case.lhs_type.startswith("i")
    assert case.padding is not None and case.lhs_dilation is not None
    assert case.rhs_dilation is not None
    assert case.strides is not None and case.reversal is not None
    n = len(case.spatial)
    canonical_in = ["b", "f", *range(n)]
    x = np.transpose(lhs, [case.input_layout.index(d) for d in canonical_in])
    w = np.transpose(rhs, [case.kernel_layout.index(d) for d in ["o", "i", *range(n)]])
    out_spatial = case.out_spatial()
    out_batch = case.batch // case.batch_groups
    per_group_in = case.features // case.groups
    result = np.zeros([out_batch, case.out_features, *out_spatial], dtype=object)
    for index in itertools.product(
        range(out_batch), range(case.out_features), *(range(s) for s in out_spatial)
    ):
        b, o, position = index[0], index[1], index[2:]
        batch, feature_base = b, 0
        if case.groups > 1:
            feature_base = o // (case.out_features // case.groups) * per_group_in
        if case.batch_groups > 1:
            group = o // (case.out_features // case.batch_groups)
            batch = group * out_batch + b
        total: Any = dtype(0) if in_result_type else 0
        for k in itertools.product(*(range(s) for s in case.window)):
            for i in range(per_group_in):
                source: list[int] = []
                for j in range(n):
                    q = (
                        position[j] * case.strides[j]
                        + k[j] * case.rhs_dilation[j]
                        - case.padding[j][0]
                    )
                    if (
                        q % case.lhs_dilation[j]
                        or not 0 <= q // case.lhs_dilation[j] < case.spatial[j]
                    ):
                        break
                    source.append(q // case.lhs_dilation[j])
                else:
                    tap = tuple(
                        case.window[j] - 1 - k[j] if case.reversal[j] else k[j]
                        for j in range(n)
                    )
                    left = x[(batch, feature_base + i, *source)]
                    right = w[(o, i, *tap)]
                    if in_result_type:
                        total = dtype(total + dtype(dtype(left) * dtype(right)))
                    else:
                        total += int(left) * int(right)
        result[index] = total
    order = [["b", "f", *range(n)].index(d) for d in case.output_layout]
    result = np.transpose(result, order)
    if case.result_type.startswith("i"):
        bits = np.dtype(dtype).itemsize * 8
        wrapped = [
            (int(v) + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))
            for v in result.reshape(-1)
        ]
        return np.array(wrapped, dtype=dtype).reshape(result.shape)
    if case.lhs_type.startswith("i"):
        # integer sums wrap in 64 bits before the conversion (the interpreter's int64 sum)
        wrapped = [(int(v) + 2**63) % 2**64 - 2**63 for v in result.reshape(-1)]
        result = np.array(wrapped, dtype=np.int64).reshape(result.shape)
    return result.astype(np.float64).astype(dtype)


NAMED: dict[str, Conv] = {
    "nhwc_padding_strides": Conv(
        1, 3, 4, [6, 5], [3, 2], strides=[2, 1], padding=[(1, 1), (0, 1)]
    ),
    "i8_i8_to_i32": Conv(
        2, 3, 2, [5, 5], [3, 3], "i8", "i8", "i32", padding=[(1, 1), (1, 1)]
    ),
    "rhs_dilation": Conv(1, 2, 3, [9, 7], [3, 2], rhs_dilation=[2, 3]),
    "lhs_dilation": Conv(
        1, 2, 2, [4, 3], [3, 3], lhs_dilation=[2, 3], padding=[(2, 2), (1, 0)]
    ),
    "lhs_dilation_strides": Conv(
        2, 1, 2, [5], [3], strides=[2], lhs_dilation=[2], padding=[(1, 2)]
    ),
    "negative_padding": Conv(1, 2, 2, [7, 6], [2, 2], padding=[(-1, 0), (1, -2)]),
    "window_reversal": Conv(1, 2, 2, [5, 5], [3, 2], reversal=[True, False]),
    "feature_groups": Conv(2, 6, 9, [5, 4], [2, 2], groups=3),
    "depthwise": Conv(1, 4, 8, [6, 6], [3, 3], groups=4, padding=[(1, 1), (1, 1)]),
    "batch_groups": Conv(4, 3, 6, [5, 4], [2, 3], batch_groups=2),
    "nchw_oihw": Conv(
        2,
        3,
        4,
        [5, 6],
        [3, 2],
        strides=[1, 2],
        padding=[(1, 0), (0, 1)],
        input_layout=["b", "f", 0, 1],
        kernel_layout=["o", "i", 0, 1],
        output_layout=["b", "f", 0, 1],
    ),
    "odd_layouts": Conv(
        2,
        2,
        4,
        [4, 5],
        [2, 2],
        groups=2,
        input_layout=[1, "f", "b", 0],
        kernel_layout=["i", 1, "o", 0],
        output_layout=["f", 0, "b", 1],
    ),
    "conv1d": Conv(3, 2, 5, [10], [3], padding=[(0, 2)], rhs_dilation=[2]),
    "conv3d": Conv(1, 2, 2, [4, 3, 3], [2, 2, 2], padding=[(1, 0), (0, 0), (0, 1)]),
    "i8_to_i8_wraps": Conv(1, 4, 2, [4, 4], [3, 3], "i8", "i8", "i8"),
    "i16_i16_to_i32": Conv(1, 4, 2, [4, 4], [3, 3], "i16", "i16", "i32"),
    "i64": Conv(1, 2, 2, [4, 4], [2, 2], "i64", "i64", "i64"),
    "i32_to_f32": Conv(1, 2, 2, [4, 4], [2, 2], "i32", "i32", "f32"),
    "f32": Conv(1, 3, 4, [6, 6], [3, 3], "f32", "f32", "f32", padding=[(1, 1), (1, 1)]),
    "f32_groups_dilations": Conv(
        2,
        4,
        4,
        [7, 6],
        [2, 3],
        "f32",
        "f32",
        "f32",
        groups=2,
        lhs_dilation=[1, 2],
        rhs_dilation=[2, 1],
        reversal=[False, True],
        strides=[2, 1],
    ),
    "f64": Conv(1, 3, 2, [5, 5], [2, 2], "f64", "f64", "f64"),
    "f16_to_f32": Conv(1, 3, 2, [5, 5], [2, 2], "f16", "f16", "f32"),
    "bf16": Conv(1, 3, 2, [5, 5], [2, 2], "bf16", "bf16", "bf16"),
    # each named form upstream's patterns pick (NAMED_FORMS), in floats
    "matmul_f32": Conv(3, 5, 4, [], [], "f32", "f32", "f32"),
    "conv1d_f32": Conv(2, 3, 4, [9], [3], "f32", "f32", "f32", strides=[2]),
    "conv2d_f32_lhs_dilation": Conv(
        1, 2, 3, [4, 5], [3, 2], "f32", "f32", "f32", lhs_dilation=[2, 1]
    ),
    "conv3d_f32": Conv(
        1, 2, 3, [4, 3, 4], [2, 2, 2], "f32", "f32", "f32", padding=[(1, 0)] * 3
    ),
    "depthwise_1d_f32": Conv(
        2, 3, 6, [8], [3], "f32", "f32", "f32", groups=3, padding=[(1, 1)]
    ),
    "depthwise_1d_m1_f32": Conv(1, 3, 3, [8], [2], "f32", "f32", "f32", groups=3),
    "depthwise_2d_f32": Conv(
        1, 4, 8, [6, 5], [3, 2], "f32", "f32", "f32", groups=4, strides=[2, 1]
    ),
    "depthwise_2d_m1_f16": Conv(
        2, 3, 3, [5, 5], [2, 2], "f16", "f16", "f16", groups=3, rhs_dilation=[2, 1]
    ),
    "depthwise_3d_f32": Conv(
        1, 2, 6, [4, 3, 5], [2, 2, 2], "f32", "f32", "f32", groups=2, strides=[2, 1, 3]
    ),
    "depthwise_3d_m1_bf16": Conv(
        1, 2, 2, [4, 3, 3], [2, 1, 2], "bf16", "bf16", "bf16", groups=2
    ),
    "depthwise_reversal_f32": Conv(
        1, 2, 2, [5, 5], [3, 2], "f32", "f32", "f32", groups=2, reversal=[True, False]
    ),
}

NAMED_FORMS: dict[str, list[str]] = {
    "matmul_f32": ["linalg.matmul"],
    "conv1d_f32": ["linalg.conv_1d_nwc_wcf"],
    "f32": ["linalg.conv_2d_nhwc_hwcf"],
    "conv2d_f32_lhs_dilation": ["tensor.insert_slice", "linalg.conv_2d_nhwc_hwcf"],
    "conv3d_f32": ["tensor.pad", "linalg.conv_3d_ndhwc_dhwcf"],
    "depthwise_1d_f32": ["linalg.depthwise_conv_1d_nwc_wcm"],
    "depthwise_1d_m1_f32": ["linalg.depthwise_conv_1d_nwc_wc"],
    "depthwise_2d_f32": ["tensor.expand_shape", "linalg.depthwise_conv_2d_nhwc_hwcm"],
    "depthwise": ["linalg.depthwise_conv_2d_nhwc_hwcm"],
    "depthwise_2d_m1_f16": ["linalg.depthwise_conv_2d_nhwc_hwc"],
    "depthwise_3d_f32": ["linalg.depthwise_conv_3d_ndhwc_dhwcm"],
    "depthwise_3d_m1_bf16": ["linalg.depthwise_conv_3d_ndhwc_dhwc"],
    "depthwise_reversal_f32": ["linalg.generic", "linalg.depthwise_conv_2d_nhwc_hwc"],
    "nchw_oihw": ["linalg.generic"],
}
"""The ops the lowering of a case must contain (upstream's choice of form)."""


def _random_case(seed: int) -> Conv:
    rnd = random.Random(seed)
    n = rnd.choice([1, 2, 2, 3])
    types = rnd.choice(
        [
            ("i8", "i8", "i32"),
            ("i32", "i32", "i32"),
            ("i16", "i16", "i16"),
            ("f32", "f32", "f32"),
            ("i8", "i8", "i8"),
        ]
    )
    groups = batch_groups = 1
    if rnd.random() < 0.3:
        groups = rnd.choice([2, 3])
    elif rnd.random() < 0.3:
        batch_groups = 2
    while True:
        spatial = [rnd.randint(1, 6) for _ in range(n)]
        window = [rnd.randint(1, 3) for _ in range(n)]
        case = Conv(
            batch=rnd.randint(1, 2) * batch_groups,
            features=rnd.randint(1, 3) * groups,
            out_features=rnd.randint(1, 3) * groups * batch_groups,
            spatial=spatial,
            window=window,
            lhs_type=types[0],
            rhs_type=types[1],
            result_type=types[2],
            strides=[rnd.randint(1, 3) for _ in range(n)],
            padding=[(rnd.randint(-1, 2), rnd.randint(-1, 2)) for _ in range(n)],
            lhs_dilation=[rnd.randint(1, 2) for _ in range(n)],
            rhs_dilation=[rnd.randint(1, 2) for _ in range(n)],
            reversal=[rnd.random() < 0.3 for _ in range(n)],
            groups=groups,
            batch_groups=batch_groups,
            input_layout=rnd.sample(["b", "f", *range(n)], n + 2),
            kernel_layout=rnd.sample(["i", "o", *range(n)], n + 2),
            output_layout=rnd.sample(["b", "f", *range(n)], n + 2),
        )
        if all(s > 0 for s in case.out_spatial()):
            return case


CASES: dict[str, Conv] = {
    **NAMED,
    **{f"random_{seed}": _random_case(seed) for seed in range(40)},
}


def _lowered(case: Conv) -> ModuleOp:
    return xquant.apply_passes(xquant.parse_module(case.text()), PASS)


def _assert_close(got: np.ndarray, want: np.ndarray, result_type: str) -> None:
    """Bit for bit: integers wrap alike, floats sum in the same type and order."""
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    np.testing.assert_array_equal(got, want, err_msg=result_type)


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowered_matches_interpreter(name: str) -> None:
    case = CASES[name]
    lowered = _lowered(case)
    assert not any(op.name.startswith("stablehlo.") for op in lowered.walk())
    args = case.arguments(seed=len(name))
    (want,) = xquant.run(xquant.parse_module(case.text()), "main", *args)
    (got,) = xquant.run(lowered, "main", *args)
    _assert_close(np.asarray(got), np.asarray(want), case.result_type)


@pytest.mark.parametrize("name", sorted(NAMED_FORMS))
def test_named_forms(name: str) -> None:
    """Canonical layouts lower to upstream's named ops, others to a generic."""
    names = [op.name for op in _lowered(NAMED[name]).walk()]
    for expected in NAMED_FORMS[name]:
        assert expected in names, (expected, names)
    named = [n for n in names if "conv" in n or n == "linalg.matmul"]
    assert len(named) == (0 if name == "nchw_oihw" else 1), names


@pytest.mark.parametrize("name", sorted(NAMED))
def test_spec_loop_golden(name: str) -> None:
    """The interpreter, before and after lowering, against a plain loop over the spec formula."""
    case = NAMED[name]
    args = case.arguments(seed=7)
    golden = reference(case, *args)
    for module in (xquant.parse_module(case.text()), _lowered(case)):
        (got,) = xquant.run(module, "main", *args)
        _assert_close(np.asarray(got), golden, case.result_type)


def test_small_golden_values() -> None:
    """Hand-checkable numbers: a 1-D i8 conv with padding, stride and lhs dilation into i32."""
    case = Conv(
        1,
        1,
        1,
        [3],
        [2],
        "i8",
        "i8",
        "i32",
        strides=[1],
        padding=[(1, 1)],
        lhs_dilation=[2],
        input_layout=["b", "f", 0],
        kernel_layout=["o", "i", 0],
        output_layout=["b", "f", 0],
    )
    lhs = np.array([[[100, -2, 3]]], np.int8)
    rhs = np.array([[[127, 10]]], np.int8)
    # dilated + padded input: [0, 100, 0, -2, 0, 3, 0]; window [127, 10]
    want = np.array([[[1000, 12700, -20, -254, 30, 381]]], np.int32)
    np.testing.assert_array_equal(reference(case, lhs, rhs), want)
    for module in (xquant.parse_module(case.text()), _lowered(case)):
        (got,) = xquant.run(module, "main", lhs, rhs)
        np.testing.assert_array_equal(got, want)


def test_integer_overflow_wraps_like_the_interpreter() -> None:
    """i32 products that overflow: the lowered i32 accumulation wraps exactly as the
    interpreter's int64 sum converted to i32 does."""
    case = Conv(
        1,
        2,
        1,
        [2],
        [2],
        input_layout=["b", "f", 0],
        kernel_layout=["o", "i", 0],
        output_layout=["b", "f", 0],
    )
    lhs = np.full((1, 2, 2), 2**31 - 1, np.int32)
    rhs = np.full((1, 2, 2), 2**31 - 1, np.int32)
    golden = reference(case, lhs, rhs)
    for module in (xquant.parse_module(case.text()), _lowered(case)):
        (got,) = xquant.run(module, "main", lhs, rhs)
        np.testing.assert_array_equal(got, golden)


UNCHANGED = {
    "quantized": """func.func @main(%a: tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>>, %k: tensor<2x2x1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x3x3x1x!quant.uniform<i32:f32, 0.25>> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x3x3x1x!quant.uniform<i32:f32, 0.25>>
  func.return %0 : tensor<1x3x3x1x!quant.uniform<i32:f32, 0.25>>
}""",
    "bool": """func.func @main(%a: tensor<1x4x4x1xi1>, %k: tensor<2x2x1x1xi1>) -> tensor<1x3x3x1xi1> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi1>, tensor<2x2x1x1xi1>) -> tensor<1x3x3x1xi1>
  func.return %0 : tensor<1x3x3x1xi1>
}""",
    "float_to_int": """func.func @main(%a: tensor<1x4x4x1xf32>, %k: tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xi32> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xi32>
  func.return %0 : tensor<1x3x3x1xi32>
}""",
}


@pytest.mark.parametrize("name", sorted(UNCHANGED))
def test_unsupported_convolutions_stay(name: str) -> None:
    lowered = xquant.apply_passes(xquant.parse_module(UNCHANGED[name]), PASS)
    assert any(op.name == "stablehlo.convolution" for op in lowered.walk())


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowered_text_verifies_upstream(name: str) -> None:
    mlir_opt.assert_verifies_upstream(str(_lowered(CASES[name])))


def test_dynamic_batch_and_features_lower_to_the_named_op() -> None:
    """Dynamic batch / feature sizes (upstream's conv_1d_nwc case): `tensor.dim` sizes
    and linalg.conv_1d_nwc_wcf, bit-identical to the interpreter."""
    text = """func.func @main(%a: tensor<?x8x?xf32>, %k: tensor<2x?x?xf32>) -> tensor<?x7x?xf32> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x8x?xf32>, tensor<2x?x?xf32>) -> tensor<?x7x?xf32>
  func.return %0 : tensor<?x7x?xf32>
}"""
    lowered = xquant.apply_passes(xquant.parse_module(text), PASS)
    names = [op.name for op in lowered.walk()]
    assert "linalg.conv_1d_nwc_wcf" in names and names.count("tensor.dim") == 2
    rng = np.random.default_rng(3)
    lhs = rng.standard_normal((3, 8, 5)).astype(np.float32)
    rhs = rng.standard_normal((2, 5, 4)).astype(np.float32)
    (want,) = xquant.run(xquant.parse_module(text), "main", lhs, rhs)
    (got,) = xquant.run(lowered, "main", lhs, rhs)
    assert np.asarray(got).shape == (3, 7, 4)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
