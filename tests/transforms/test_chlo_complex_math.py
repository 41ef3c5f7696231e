"""Complex `asin`, `asinh`, `acosh`, `atanh` expanded by chlo-legalize-to-stablehlo
as upstream's generated patterns (xquant/transforms/utils/chlo_complex_math.py).

The interpreter has no complex element types, so it cannot run the expansion;
this test evaluates the expanded IR op by op with numpy (complex128 for the
complex values, float64 for their parts) and compares with numpy's own
arcsin/arcsinh/arccosh/arctanh (an independent implementation). upstream's
FileCheck cases for the op order are in chlo_legalize_to_stablehlo.mlir
(tests/upstream_suites).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import SSAValue

import xquant
from xquant.dialects.stablehlo.attributes import ComparisonDirectionAttr

Array = np.ndarray[Any, Any]

_OPS: dict[str, Callable[..., Array]] = {
    "stablehlo.real": np.real,
    "stablehlo.imag": np.imag,
    "stablehlo.complex": lambda re, im: re + 0j + im * 1j,
    "stablehlo.abs": np.abs,
    "stablehlo.negate": np.negative,
    "stablehlo.sqrt": np.sqrt,
    "stablehlo.log": np.log,
    "stablehlo.log_plus_one": np.log1p,
    "stablehlo.not": np.logical_not,
    "stablehlo.add": np.add,
    "stablehlo.subtract": np.subtract,
    "stablehlo.multiply": np.multiply,
    "stablehlo.divide": np.divide,
    "stablehlo.maximum": np.maximum,
    "stablehlo.minimum": np.minimum,
    "stablehlo.atan2": np.arctan2,
    "stablehlo.and": np.logical_and,
    "stablehlo.or": np.logical_or,
    "stablehlo.select": np.where,
}
_COMPARE: dict[str, Callable[..., Array]] = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "LT": np.less,
    "LE": np.less_equal,
    "GT": np.greater,
    "GE": np.greater_equal,
}

CASES = [
    ("asin", np.arcsin),
    ("asinh", np.arcsinh),
    ("acosh", np.arccosh),
    ("atanh", np.arctanh),
]
X = np.array(
    [
        *(0.3 + 0.2j, -2 + 1j, 5 - 3j, 1e-9 + 1e-9j, 0.99 + 0j, -0.5 - 0.5j),
        *(1e10 + 1e10j, 3 + 0.5j, -1e-300 + 2j, 0.5 - 1e200j, 1 + 0j, -1 + 1e-20j),
    ]
)


def _evaluate(module: Any, x: Array) -> Array:
    (function,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    values: dict[SSAValue, Array] = {function.body.block.args[0]: x}
    for op in function.body.block.ops:
        if isinstance(op, func.ReturnOp):
            return values[op.operands[0]]
        args = [values[v] for v in op.operands]
        if op.name == "stablehlo.constant":
            value = op.properties["value"]
            assert isinstance(value, DenseIntOrFPElementsAttr)
            values[op.results[0]] = np.array(value.get_values(), np.float64)[0]
        elif op.name == "stablehlo.compare":
            direction = op.properties["comparison_direction"]
            assert isinstance(direction, ComparisonDirectionAttr)
            values[op.results[0]] = _COMPARE[direction.data.value](*args)
        else:
            values[op.results[0]] = _OPS[op.name](*args)
    raise AssertionError("no return")


@pytest.mark.parametrize(("name", "reference"), CASES)
def test_complex_expansion_matches_numpy(
    name: str, reference: Callable[[Array], Array]
) -> None:
    text = f"""func.func @main(%x: tensor<{X.size}xcomplex<f64>>) -> tensor<{X.size}xcomplex<f64>> {{
  %0 = "chlo.{name}"(%x) : (tensor<{X.size}xcomplex<f64>>) -> tensor<{X.size}xcomplex<f64>>
  func.return %0 : tensor<{X.size}xcomplex<f64>>
}}"""
    module = xquant.parse_module(text)
    xquant.apply_passes(module, "chlo-legalize-to-stablehlo")
    names = [op.name for op in module.walk()]
    assert not any(n.startswith("chlo.") for n in names)
    assert len(names) > 60  # upstream's full expansion, not a shortcut
    with np.errstate(all="ignore"):
        got = _evaluate(module, X)
        want = reference(X)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=0)
