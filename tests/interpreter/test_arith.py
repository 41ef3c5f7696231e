"""arith on the vectorized interpreter; golden values from Python ints / numpy, never from xquant."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xquant import parse_module
from xquant.interpreter import make_interpreter
from xquant.interpreter.runner import run

RNG = np.random.default_rng(1234)


def fn_text(body: str, arg_types: list[str], res_type: str) -> str:
    params = ", ".join(f"%{n}: {t}" for n, t in zip("abc", arg_types))
    return f"func.func @main({params}) -> {res_type} {{\n  {body}\n  func.return %r : {res_type}\n}}"


def run_op(body: str, arg_types: list[str], res_type: str, *args):
    return run(fn_text(body, arg_types, res_type), "main", *args)[0]


def run_elementwise(line: str, elems: list[str], out_elem: str, n: int, *arrays):
    """`line` (defining %r from %a, %b, ... as scalars) inside an all-parallel linalg.generic on tensor<n x .>."""
    names = "abc"[: len(elems)]
    ts = [f"tensor<{n}x{e}>" for e in elems]
    out_t = f"tensor<{n}x{out_elem}>"
    maps = ", ".join(["#id"] * (len(elems) + 1))
    params = ", ".join(f"%t{x}: {t}" for x, t in zip(names, ts))
    bb = ", ".join(f"%{x}: {e}" for x, e in zip(names, elems))
    text = f"""
    #id = affine_map<(d0) -> (d0)>
    func.func @main({params}) -> {out_t} {{
      %e = tensor.empty() : {out_t}
      %g = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel"]}}
          ins({", ".join("%t" + x for x in names)} : {", ".join(ts)}) outs(%e : {out_t}) {{
      ^bb0({bb}, %o: {out_elem}):
        {line}
        linalg.yield %r : {out_elem}
      }} -> {out_t}
      func.return %g : {out_t}
    }}
    """
    return run(text, "main", *arrays)[0]


def to_s(v: int, w: int) -> int:
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def to_u(v: int, w: int) -> int:
    return v & ((1 << w) - 1)


def holder(w: int) -> type:
    return {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[
        next(b for b in (8, 16, 32, 64) if w <= b)
    ]


def trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


INT_OPS = {
    "addi": lambda a, b, w: to_s(a + b, w),
    "subi": lambda a, b, w: to_s(a - b, w),
    "muli": lambda a, b, w: to_s(a * b, w),
    "divsi": lambda a, b, w: to_s(trunc_div(a, b), w),
    "remsi": lambda a, b, w: to_s(a - trunc_div(a, b) * b, w),
    "floordivsi": lambda a, b, w: to_s(a // b, w),
    "ceildivsi": lambda a, b, w: to_s(-((-a) // b), w),
    "divui": lambda a, b, w: to_s(to_u(a, w) // to_u(b, w), w),
    "remui": lambda a, b, w: to_s(to_u(a, w) % to_u(b, w), w),
    "ceildivui": lambda a, b, w: to_s(-((-to_u(a, w)) // to_u(b, w)), w),
    "andi": lambda a, b, w: to_s(a & b, w),
    "ori": lambda a, b, w: to_s(a | b, w),
    "xori": lambda a, b, w: to_s(a ^ b, w),
    "maxsi": lambda a, b, w: max(a, b),
    "minsi": lambda a, b, w: min(a, b),
    "maxui": lambda a, b, w: to_s(max(to_u(a, w), to_u(b, w)), w),
    "minui": lambda a, b, w: to_s(min(to_u(a, w), to_u(b, w)), w),
}
DIVISIONS = {"divsi", "remsi", "floordivsi", "ceildivsi", "divui", "remui", "ceildivui"}
WIDTHS = [3, 4, 8, 13, 16, 32, 64]


def int_operands(w: int, n: int, op: str) -> tuple[list[int], list[int]]:
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    a = [int(v) for v in RNG.integers(lo, hi, size=n, endpoint=True)]
    b = [int(v) for v in RNG.integers(lo, hi, size=n, endpoint=True)]
    a[:4] = [lo, hi, -1, 0][:4]
    b[:4] = [hi, lo, lo, -1][:4]
    if op in DIVISIONS:
        b = [v if v != 0 else 1 for v in b]
        if op in ("divsi", "floordivsi", "ceildivsi", "remsi"):
            b = [v if not (x == lo and v == -1) else 1 for x, v in zip(a, b)]
    return a, b


@pytest.mark.parametrize("w", WIDTHS)
@pytest.mark.parametrize("op", sorted(INT_OPS))
def test_int_binary(op: str, w: int) -> None:
    a, b = int_operands(w, 64, op)
    expected = np.array([INT_OPS[op](x, y, w) for x, y in zip(a, b)], dtype=holder(w))
    t = f"tensor<64xi{w}>"
    got = run_op(
        f"%r = arith.{op} %a, %b : {t}",
        [t, t],
        t,
        np.array(a, holder(w)),
        np.array(b, holder(w)),
    )
    assert got.dtype == holder(w)
    np.testing.assert_array_equal(got, expected)
    # scalars
    for x, y, e in list(zip(a, b, expected))[:6]:
        s = run_op(f"%r = arith.{op} %a, %b : i{w}", [f"i{w}", f"i{w}"], f"i{w}", x, y)
        assert int(s) == int(e), (x, y)


@pytest.mark.parametrize("w", [4, 8, 32])
@pytest.mark.parametrize("op", ["shli", "shrsi", "shrui"])
def test_shifts(op: str, w: int) -> None:
    a = [int(v) for v in RNG.integers(-(1 << (w - 1)), (1 << (w - 1)), size=32)]
    b = [int(v) for v in RNG.integers(0, w, size=32)]
    ref = {
        "shli": lambda x, s: to_s(x << s, w),
        "shrsi": lambda x, s: x >> s,
        "shrui": lambda x, s: to_s(to_u(x, w) >> s, w),
    }[op]
    t = f"tensor<32xi{w}>"
    got = run_op(
        f"%r = arith.{op} %a, %b : {t}",
        [t, t],
        t,
        np.array(a, holder(w)),
        np.array(b, holder(w)),
    )
    np.testing.assert_array_equal(got, [ref(x, s) for x, s in zip(a, b)])


CMPI = {
    "eq": lambda a, b, w: a == b,
    "ne": lambda a, b, w: a != b,
    "slt": lambda a, b, w: a < b,
    "sle": lambda a, b, w: a <= b,
    "sgt": lambda a, b, w: a > b,
    "sge": lambda a, b, w: a >= b,
    "ult": lambda a, b, w: to_u(a, w) < to_u(b, w),
    "ule": lambda a, b, w: to_u(a, w) <= to_u(b, w),
    "ugt": lambda a, b, w: to_u(a, w) > to_u(b, w),
    "uge": lambda a, b, w: to_u(a, w) >= to_u(b, w),
}


@pytest.mark.parametrize("w", [4, 8, 64])
@pytest.mark.parametrize("pred", sorted(CMPI))
def test_cmpi(pred: str, w: int) -> None:
    a, b = int_operands(w, 40, "addi")
    b[10:20] = a[10:20]
    # xDSL 0.74's cmpi only takes scalars: compare whole arrays inside a generic body
    got = run_elementwise(
        f"%r = arith.cmpi {pred}, %a, %b : i{w}",
        [f"i{w}", f"i{w}"],
        "i1",
        40,
        np.array(a, holder(w)),
        np.array(b, holder(w)),
    )
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, [CMPI[pred](x, y, w) for x, y in zip(a, b)])
    s = run_op(
        f"%r = arith.cmpi {pred}, %a, %b : i{w}", [f"i{w}", f"i{w}"], "i1", a[0], b[0]
    )
    assert bool(s) == CMPI[pred](a[0], b[0], w)


NAN = float("nan")
CMPF_A = [1.0, 1.0, 2.0, NAN, NAN, -0.0, 3.0]
CMPF_B = [1.0, 2.0, 1.0, 1.0, NAN, 0.0, NAN]
CMPF = {
    "false": lambda a, b: False,
    "oeq": lambda a, b: a == b,
    "ogt": lambda a, b: a > b,
    "oge": lambda a, b: a >= b,
    "olt": lambda a, b: a < b,
    "ole": lambda a, b: a <= b,
    "one": lambda a, b: a == a and b == b and a != b,
    "ord": lambda a, b: a == a and b == b,
    "ueq": lambda a, b: a != a or b != b or a == b,
    "ugt": lambda a, b: a != a or b != b or a > b,
    "uge": lambda a, b: a != a or b != b or a >= b,
    "ult": lambda a, b: a != a or b != b or a < b,
    "ule": lambda a, b: a != a or b != b or a <= b,
    "une": lambda a, b: a != a or b != b or a != b,
    "uno": lambda a, b: a != a or b != b,
    "true": lambda a, b: True,
}


@pytest.mark.parametrize("pred", sorted(CMPF))
@pytest.mark.parametrize("ftype", ["f32", "bf16"])
def test_cmpf(pred: str, ftype: str) -> None:
    dt = np.float32 if ftype == "f32" else ml_dtypes.bfloat16
    got = run_elementwise(
        f"%r = arith.cmpf {pred}, %a, %b : {ftype}",
        [ftype, ftype],
        "i1",
        7,
        np.array(CMPF_A, dt),
        np.array(CMPF_B, dt),
    )
    np.testing.assert_array_equal(
        got, [CMPF[pred](x, y) for x, y in zip(CMPF_A, CMPF_B)]
    )
    s = run_op(f"%r = arith.cmpf {pred}, %a, %b : f32", ["f32", "f32"], "i1", 3.0, NAN)
    assert bool(s) == CMPF[pred](3.0, NAN)


@pytest.mark.parametrize(
    ("op", "ref"),
    [
        ("addf", np.add),
        ("subf", np.subtract),
        ("mulf", np.multiply),
        ("divf", np.divide),
    ],
)
@pytest.mark.parametrize("ftype", ["f16", "f32", "f64"])
def test_float_binary(op: str, ref, ftype: str) -> None:
    dt = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[ftype]
    a = RNG.standard_normal(50).astype(dt)
    b = RNG.standard_normal(50).astype(dt)
    t = f"tensor<50x{ftype}>"
    got = run_op(f"%r = arith.{op} %a, %b : {t}", [t, t], t, a, b)
    assert got.dtype == dt
    np.testing.assert_array_equal(got, ref(a, b))
    s = run_op(
        f"%r = arith.{op} %a, %b : {ftype}",
        [ftype, ftype],
        ftype,
        float(a[0]),
        float(b[0]),
    )
    assert s == ref(a[:1], b[:1])[0]


def test_bf16_addf_rounds_once() -> None:
    a = np.array([1.0, 256.0, 3.0], ml_dtypes.bfloat16)
    b = np.array([2.0**-9, 1.0, 2.0**-7], ml_dtypes.bfloat16)
    t = "tensor<3xbf16>"
    got = run_op("%r = arith.addf %a, %b : tensor<3xbf16>", [t, t], t, a, b)
    # exact sums rounded to bf16 (8 significant bits), ties to even
    np.testing.assert_array_equal(got.astype(np.float64), [1.0, 256.0, 3.0])


def test_negf() -> None:
    a = np.array([1.0, -0.0, 0.0, np.inf], np.float32)
    got = run_op(
        "%r = arith.negf %a : tensor<4xf32>", ["tensor<4xf32>"], "tensor<4xf32>", a
    )
    np.testing.assert_array_equal(np.signbit(got), [True, False, True, True])


MAXMIN_A = [1.0, -0.0, 0.0, NAN, 2.0, -0.0]
MAXMIN_B = [2.0, 0.0, -0.0, 1.0, NAN, -0.0]


@pytest.mark.parametrize(
    ("op", "expected"),
    [
        ("maximumf", [2.0, 0.0, 0.0, NAN, NAN, -0.0]),
        ("minimumf", [1.0, -0.0, -0.0, NAN, NAN, -0.0]),
        ("maxnumf", [2.0, 0.0, 0.0, 1.0, 2.0, -0.0]),
        ("minnumf", [1.0, -0.0, -0.0, 1.0, 2.0, -0.0]),
    ],
)
def test_float_maxmin(op: str, expected: list[float]) -> None:
    t = "tensor<6xf32>"
    got = run_op(
        f"%r = arith.{op} %a, %b : {t}",
        [t, t],
        t,
        np.array(MAXMIN_A, np.float32),
        np.array(MAXMIN_B, np.float32),
    )
    e = np.array(expected, np.float32)
    np.testing.assert_array_equal(got, e)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(e))
    for x, y, r in zip(MAXMIN_A, MAXMIN_B, expected):
        s = run_op(f"%r = arith.{op} %a, %b : f32", ["f32", "f32"], "f32", x, y)
        assert (s != s and r != r) or (s == r and np.signbit(s) == np.signbit(r))


@pytest.mark.parametrize(
    ("op", "bound", "expected"),
    [
        ("maximumf", 0.0, [0.0, 0.0, 1.0]),
        ("maximumf", -0.0, [-0.0, 0.0, 1.0]),
        ("minimumf", -0.0, [-0.0, -0.0, -0.0]),
        ("minimumf", 0.0, [-0.0, 0.0, 0.0]),
        ("maximumf", -1.0, [-0.0, 0.0, 1.0]),
    ],
)
def test_float_maxmin_rank0_bound(op: str, bound: float, expected: list[float]) -> None:
    """A clamp bound is a rank-0 tensor broadcast over the body: zero ties still order -0 < +0."""
    text = f"""
    func.func @main(%x: tensor<3xf32>, %b: tensor<f32>) -> tensor<3xf32> {{
      %e = tensor.empty() : tensor<3xf32>
      %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>,
          affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}}
          ins(%x, %b : tensor<3xf32>, tensor<f32>) outs(%e : tensor<3xf32>) {{
      ^bb0(%a: f32, %c: f32, %o: f32):
        %m = arith.{op} %a, %c : f32
        linalg.yield %m : f32
      }} -> tensor<3xf32>
      func.return %r : tensor<3xf32>
    }}"""
    x = np.array([-0.0, 0.0, 1.0], np.float32)
    got = run(text, "main", x, np.array(bound, np.float32))[0]
    e = np.array(expected, np.float32)
    np.testing.assert_array_equal(got, e)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(e))


def test_select() -> None:
    c = np.array([True, False, True])
    a = np.array([1, 2, 3], np.int32)
    b = np.array([-1, -2, -3], np.int32)
    got = run_elementwise(
        "%r = arith.select %c, %a, %b : i32", ["i32", "i32", "i1"], "i32", 3, a, b, c
    )
    np.testing.assert_array_equal(got, [1, -2, 3])
    s = run_op(
        "%r = arith.select %c, %a, %b : i32", ["i32", "i32", "i1"], "i32", 5, 6, False
    )
    assert s == 6


def test_extf_truncf() -> None:
    x = np.array([1.0, 0.1, 1e-40, 3.4e38, -2.5], np.float32)
    got = run_elementwise("%r = arith.truncf %a : f32 to bf16", ["f32"], "bf16", 5, x)
    assert got.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(got, x.astype(ml_dtypes.bfloat16))
    back = run_elementwise("%r = arith.extf %a : bf16 to f32", ["bf16"], "f32", 5, got)
    np.testing.assert_array_equal(back, got.astype(np.float32))
    # f64 -> bf16 must round once: 1 + 2^-8 + 2^-30 is above the tie, so it rounds up
    y = np.array([1 + 2.0**-8 + 2.0**-30, 1 + 2.0**-8], np.float64)
    got = run_elementwise("%r = arith.truncf %a : f64 to bf16", ["f64"], "bf16", 2, y)
    np.testing.assert_array_equal(got.astype(np.float64), [1.0078125, 1.0])
    # f32 -> f8E4M3FN: ties to even and saturation to NaN past the largest finite
    z = np.array([1.0625, 1.1875, 448.0, 17.0], np.float32)
    got = run_elementwise(
        "%r = arith.truncf %a : f32 to f8E4M3FN", ["f32"], "f8E4M3FN", 4, z
    )
    np.testing.assert_array_equal(got.astype(np.float32), [1.0, 1.25, 448.0, 16.0])


def test_fptosi_fptoui() -> None:
    x = np.array([1.9, -1.9, 0.5, -0.5, 127.99, -128.5], np.float32)
    got = run_elementwise("%r = arith.fptosi %a : f32 to i8", ["f32"], "i8", 6, x)
    np.testing.assert_array_equal(got, [1, -1, 0, 0, 127, -128])
    got = run_elementwise(
        "%r = arith.fptosi %a : f32 to i4",
        ["f32"],
        "i4",
        6,
        np.array([7.9, -8.9, 3.2, -3.2, 0, 1], np.float32),
    )
    np.testing.assert_array_equal(got, [7, -8, 3, -3, 0, 1])
    got = run_elementwise(
        "%r = arith.fptoui %a : f32 to i8",
        ["f32"],
        "i8",
        3,
        np.array([200.7, 255.0, 3.5], np.float32),
    )
    np.testing.assert_array_equal(got, [200 - 256, -1, 3])
    got = run_elementwise(
        "%r = arith.fptoui %a : f32 to i4",
        ["f32"],
        "i4",
        2,
        np.array([15.5, 9.0], np.float32),
    )
    np.testing.assert_array_equal(got, [-1, -7])
    assert run_op("%r = arith.fptosi %a : f32 to i32", ["f32"], "i32", -7.99) == -7


def test_int_to_float() -> None:
    a = np.array([-1, 7, -8, 3], np.int8)
    got = run_elementwise("%r = arith.sitofp %a : i4 to f32", ["i4"], "f32", 4, a)
    np.testing.assert_array_equal(got, [-1.0, 7.0, -8.0, 3.0])
    got = run_elementwise("%r = arith.uitofp %a : i4 to f32", ["i4"], "f32", 4, a)
    np.testing.assert_array_equal(got, [15.0, 7.0, 8.0, 3.0])
    got = run_elementwise(
        "%r = arith.uitofp %a : i8 to f16",
        ["i8"],
        "f16",
        2,
        np.array([-1, -128], np.int8),
    )
    np.testing.assert_array_equal(got, [255.0, 128.0])
    # int -> bf16 rounds once (16777217 + 2^16 rounds up at bf16 precision... check a tie-breaking case)
    big = np.array(
        [(1 << 24) + (1 << 16) + 1], np.int32
    )  # just above the tie between 2^24 and 2^24 + 2^17
    got = run_elementwise("%r = arith.sitofp %a : i32 to bf16", ["i32"], "bf16", 1, big)
    assert float(got[0]) == float((1 << 24) + (1 << 17))


def test_ext_trunc_int() -> None:
    a = np.array([-1, 7, -8, 0], np.int8)
    got = run_elementwise("%r = arith.extsi %a : i4 to i8", ["i4"], "i8", 4, a)
    np.testing.assert_array_equal(got, [-1, 7, -8, 0])
    got = run_elementwise("%r = arith.extui %a : i4 to i8", ["i4"], "i8", 4, a)
    np.testing.assert_array_equal(got, [15, 7, 8, 0])
    got = run_elementwise(
        "%r = arith.extui %a : i8 to i32",
        ["i8"],
        "i32",
        2,
        np.array([-1, -128], np.int8),
    )
    np.testing.assert_array_equal(got, [255, 128])
    got = run_elementwise(
        "%r = arith.extui %a : i1 to i32", ["i1"], "i32", 2, np.array([True, False])
    )
    np.testing.assert_array_equal(got, [1, 0])
    got = run_elementwise(
        "%r = arith.extsi %a : i1 to i32", ["i1"], "i32", 2, np.array([True, False])
    )
    np.testing.assert_array_equal(got, [-1, 0])
    got = run_elementwise(
        "%r = arith.trunci %a : i32 to i4",
        ["i32"],
        "i4",
        4,
        np.array([9, 16, -9, 255], np.int32),
    )
    np.testing.assert_array_equal(got, [to_s(9, 4), 0, to_s(-9, 4), -1])
    got = run_elementwise(
        "%r = arith.trunci %a : i32 to i1", ["i32"], "i1", 2, np.array([3, 2], np.int32)
    )
    np.testing.assert_array_equal(got, [True, False])
    assert run_op(
        "%r = arith.index_cast %a : index to i8", ["index"], "i8", 300
    ) == to_s(300, 8)
    assert run_op("%r = arith.index_cast %a : i8 to index", ["i8"], "index", -5) == -5


def test_bitcast() -> None:
    x = np.array([1.0, -2.5, np.inf], np.float32)
    got = run_elementwise("%r = arith.bitcast %a : f32 to i32", ["f32"], "i32", 3, x)
    np.testing.assert_array_equal(got, x.view(np.int32))
    back = run_elementwise("%r = arith.bitcast %a : i32 to f32", ["i32"], "f32", 3, got)
    np.testing.assert_array_equal(back, x)
    h = np.array([1.5, -1.0], ml_dtypes.bfloat16)
    got = run_elementwise("%r = arith.bitcast %a : bf16 to i16", ["bf16"], "i16", 2, h)
    np.testing.assert_array_equal(got, h.view(np.int16))
    f8 = np.array([1.5, -448.0], ml_dtypes.float8_e4m3fn)
    got = run_elementwise(
        "%r = arith.bitcast %a : f8E4M3FN to i8", ["f8E4M3FN"], "i8", 2, f8
    )
    np.testing.assert_array_equal(got, f8.view(np.int8))


def test_constants_scalar_and_dense() -> None:
    text = """
    func.func @main() -> (tensor<2x3xf32>, tensor<4xi4>, tensor<3xbf16>, tensor<2x2xi8>, i16, f32, tensor<2xi1>) {
      %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.5, -6.0]]> : tensor<2x3xf32>
      %b = arith.constant dense<[7, -8, 15, 1]> : tensor<4xi4>
      %c = arith.constant dense<[1.5, 0.1, -2.0]> : tensor<3xbf16>
      %d = arith.constant dense<-3> : tensor<2x2xi8>
      %e = arith.constant 65535 : i16
      %f = arith.constant 0.1 : f32
      %g = arith.constant dense<[true, false]> : tensor<2xi1>
      func.return %a, %b, %c, %d, %e, %f, %g : tensor<2x3xf32>, tensor<4xi4>, tensor<3xbf16>, tensor<2x2xi8>, i16, f32, tensor<2xi1>
    }
    """
    a, b, c, d, e, f, g = run(text, "main")
    np.testing.assert_array_equal(a, [[1, 2, 3], [4, 5.5, -6]])
    assert a.dtype == np.float32
    np.testing.assert_array_equal(b, [7, -8, -1, 1])
    assert b.dtype == np.int8
    np.testing.assert_array_equal(
        c, np.array([1.5, 0.1, -2.0]).astype(np.float32).astype(ml_dtypes.bfloat16)
    )
    np.testing.assert_array_equal(d, np.full((2, 2), -3, np.int8))
    assert e == -1 and e.dtype == np.int16
    assert f == np.float32(0.1) and f.dtype == np.float32
    np.testing.assert_array_equal(g, [True, False])


def test_constant_is_cached_per_op() -> None:
    module = parse_module(
        """
        func.func @main() -> tensor<3xf32> {
          %a = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
          func.return %a : tensor<3xf32>
        }
        """
    )
    interp = make_interpreter(module)
    (first,) = interp.call_op("main", ())
    (second,) = interp.call_op("main", ())
    assert first is second
    assert not first.flags.writeable


def test_scalar_casts() -> None:
    assert run_op("%r = arith.extui %a : i4 to i8", ["i4"], "i8", -1) == 15
    assert run_op("%r = arith.extsi %a : i4 to i8", ["i4"], "i8", -1) == -1
    assert run_op("%r = arith.trunci %a : i32 to i4", ["i32"], "i4", 9) == -7
    assert run_op("%r = arith.uitofp %a : i8 to f32", ["i8"], "f32", -1) == 255.0
    assert run_op("%r = arith.sitofp %a : i8 to f32", ["i8"], "f32", -1) == -1.0
    assert run_op("%r = arith.fptoui %a : f32 to i8", ["f32"], "i8", 200.5) == -56
    r = run_op(
        "%r = arith.truncf %a : f32 to bf16", ["f32"], "bf16", 1.00390625
    )  # tie -> even (1.0)
    assert r.dtype == ml_dtypes.bfloat16 and float(r) == 1.0
    r = run_op("%r = arith.extf %a : f16 to f32", ["f16"], "f32", 0.1)
    assert r == np.float32(np.float16(0.1))


def test_fptosi_fptoui_out_of_range_saturate() -> None:
    # Poison in MLIR; the interpreter saturates (LLVM's fptosi.sat) and maps NaN to 0.
    x = np.array([1e10, -1e10, np.nan, np.inf, -np.inf, 130.0], np.float32)
    got = run_elementwise("%r = arith.fptosi %a : f32 to i8", ["f32"], "i8", 6, x)
    np.testing.assert_array_equal(got, [127, -128, 0, 127, -128, 127])
    got = run_elementwise("%r = arith.fptoui %a : f32 to i8", ["f32"], "i8", 6, x)
    np.testing.assert_array_equal(
        got, [-1, 0, 0, -1, 0, -126]
    )  # 255 and 130 as i8 bits
    got = run_elementwise("%r = arith.fptosi %a : f32 to i4", ["f32"], "i4", 6, x)
    np.testing.assert_array_equal(got, [7, -8, 0, 7, -8, 7])
    assert (
        run_op("%r = arith.fptosi %a : f64 to i64", ["f64"], "i64", 1e300) == 2**63 - 1
    )


def test_constant_cache_follows_a_rewritten_attribute() -> None:
    """Constant values are kept across runs while the op lives, never past a rewrite of it."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, i32

    module = parse_module(
        "func.func @main() -> tensor<2xi32> {\n"
        "  %c = arith.constant dense<[1, 2]> : tensor<2xi32>\n"
        "  func.return %c : tensor<2xi32>\n}"
    )
    np.testing.assert_array_equal(run(module, "main")[0], [1, 2])
    op = next(o for o in module.walk() if isinstance(o, arith.ConstantOp))
    op.value = DenseIntOrFPElementsAttr.from_list(TensorType(i32, [2]), [7, -8])
    np.testing.assert_array_equal(run(module, "main")[0], [7, -8])
