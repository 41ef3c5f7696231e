"""`linalg.matvec`, `linalg.vecmat`, `linalg.dot` (xquant's, `xquant.dialects.upstream.linalg`): parse, run, round-trip.

Expected values are numpy loops over the contraction dim in order, in the
output's element type, as MLIR's OpDSL definitions read
(`C += cast(A) * cast(B)`).
"""

from __future__ import annotations

import numpy as np
import pytest

import xquant
from tests.upstream.mlir_opt import assert_verifies_upstream
from xquant.asm.printer import module_to_mlir
from xquant.interpreter.runner import run

RNG = np.random.default_rng(9)


def named(op: str, ins: list[str], out: str) -> str:
    params = ", ".join(f"%a{k}: {t}" for k, t in enumerate(ins)) + f", %o: {out}"
    names = ", ".join(f"%a{k}" for k in range(len(ins)))
    return f"""
    func.func @main({params}) -> {out} {{
      %r = linalg.{op} ins({names} : {", ".join(ins)}) outs(%o : {out}) -> {out}
      func.return %r : {out}
    }}
    """


def loop(init: np.ndarray, terms, dt) -> np.ndarray:
    acc = np.array(init, copy=True)
    with np.errstate(over="ignore"):
        for term in terms:
            acc = (acc + term).astype(dt)
    return acc


@pytest.mark.parametrize("elem", ["f32", "i32"])
def test_matvec_vecmat_dot_loop_order(elem: str) -> None:
    dt = {"f32": np.float32, "i32": np.int32}[elem]
    a = (RNG.standard_normal((4, 9)) * 30).astype(dt)
    x = (RNG.standard_normal(9) * 30).astype(dt)
    y = (RNG.standard_normal(4) * 30).astype(dt)
    s = np.array(3, dt)
    (got,) = run(
        named(
            "matvec", [f"tensor<4x9x{elem}>", f"tensor<9x{elem}>"], f"tensor<4x{elem}>"
        ),
        "main",
        a,
        x,
        y,
    )
    np.testing.assert_array_equal(got, loop(y, (a[:, k] * x[k] for k in range(9)), dt))
    (got,) = run(
        named(
            "vecmat", [f"tensor<9x{elem}>", f"tensor<9x4x{elem}>"], f"tensor<4x{elem}>"
        ),
        "main",
        x,
        a.T.copy(),
        y,
    )
    np.testing.assert_array_equal(got, loop(y, (x[k] * a[:, k] for k in range(9)), dt))
    (got,) = run(
        named("dot", [f"tensor<9x{elem}>", f"tensor<9x{elem}>"], f"tensor<{elem}>"),
        "main",
        x,
        x,
        s,
    )
    np.testing.assert_array_equal(got, loop(s, (x[k] * x[k] for k in range(9)), dt))


def test_dot_i8_into_i32_sign_extends_and_wraps() -> None:
    x = RNG.integers(-128, 128, 300).astype(np.int8)
    init = np.array(2**31 - 5, np.int32)
    (got,) = run(
        named("dot", ["tensor<300xi8>", "tensor<300xi8>"], "tensor<i32>"),
        "main",
        x,
        x,
        init,
    )
    exact = int(init) + int(np.sum(x.astype(np.int64) ** 2))
    assert int(got) == (exact + 2**31) % 2**32 - 2**31


def test_printed_form_is_mlir_opt_valid() -> None:
    text = named("matvec", ["tensor<2x?xf32>", "tensor<?xf32>"], "tensor<2xf32>")
    text += named(
        "vecmat", ["tensor<3xi8>", "tensor<3x?xi8>"], "tensor<?xi32>"
    ).replace("@main", "@m2")
    text += named("dot", ["tensor<?xf32>", "tensor<?xf32>"], "tensor<f32>").replace(
        "@main", "@m3"
    )
    out = module_to_mlir(xquant.parse_module(text))
    for op in ("linalg.matvec", "linalg.vecmat", "linalg.dot"):
        assert f"{op} ins(" in out
    assert_verifies_upstream(out)
