"""The `xdsl.universe` entry point: every xquant dialect and pass, loaded lazily.

After `pip install`, stock `xdsl-opt` finds these through the entry point in
pyproject.toml; imports happen only when a dialect or pass is first used.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe

from xquant.dialects import lexer_fix, linalg_extra, xdsl_fixes

lexer_fix.install()
linalg_extra.install()  # before xdsl_fixes, which patches every linalg named op
xdsl_fixes.install()


def _quant() -> Dialect:
    from xquant.dialects.quant import Quant

    return Quant


def _shape() -> Dialect:
    from xquant.dialects.shape import Shape

    return Shape


def _mx_tensor() -> Dialect:
    from xquant.dialects.mx_tensor import MxTensor

    return MxTensor


DIALECTS: dict[str, Callable[[], Dialect]] = {
    "quant": _quant,
    "shape": _shape,
    "mx_tensor": _mx_tensor,
}


def _lower_quant_ops() -> type[ModulePass]:
    from xquant.transforms.lower_quant_ops import LowerQuantOpsPass

    return LowerQuantOpsPass


def _strip_func_quant_types() -> type[ModulePass]:
    from xquant.transforms.strip_func_quant_types import StripFuncQuantTypesPass

    return StripFuncQuantTypesPass


def _normalize_quant_types() -> type[ModulePass]:
    from xquant.transforms.normalize_quant_types import NormalizeQuantTypesPass

    return NormalizeQuantTypesPass


def _lower_mx_tensor() -> type[ModulePass]:
    from xquant.transforms.lower_mx_tensor import LowerMxTensorPass

    return LowerMxTensorPass


def _mx_tensor_generalize() -> type[ModulePass]:
    from xquant.transforms.mx_tensor_generalize import MxTensorGeneralizePass

    return MxTensorGeneralizePass


PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "lower-quant-ops": _lower_quant_ops,
    "strip-func-quant-types": _strip_func_quant_types,
    "normalize-quant-types": _normalize_quant_types,
    "lower-mx-tensor": _lower_mx_tensor,
    "mx-tensor-generalize": _mx_tensor_generalize,
}

XQUANT_UNIVERSE = Universe(all_dialects=DIALECTS, all_passes=PASSES)


# Hexadecimal float elements in dense literals (StableHLO test data uses them).
from xquant.dialects import dense_literals  # noqa: E402

dense_literals.install()


def _stablehlo() -> Dialect:
    from xquant.dialects.stablehlo import StableHLO

    return StableHLO


def _check() -> Dialect:
    from xquant.dialects.check import Check

    return Check


# xDSL 0.74 defines neither `stablehlo` nor `check`, so there is no clash in the multiverse.
DIALECTS["stablehlo"] = _stablehlo
DIALECTS["check"] = _check


def _stablehlo_legalize_quant_to_math() -> type[ModulePass]:
    from xquant.transforms.stablehlo_legalize_quant_to_math import (
        StablehloLegalizeQuantToMathPass,
    )

    return StablehloLegalizeQuantToMathPass


PASSES["stablehlo-legalize-quant-to-math"] = _stablehlo_legalize_quant_to_math


def _stablehlo_legalize_to_linalg() -> type[ModulePass]:
    from xquant.transforms.stablehlo_legalize_to_linalg import (
        StablehloLegalizeToLinalgPass,
    )

    return StablehloLegalizeToLinalgPass


PASSES["stablehlo-legalize-to-linalg"] = _stablehlo_legalize_to_linalg


def _linalg_fuse_elementwise_ops() -> type[ModulePass]:
    from xquant.transforms.linalg_fuse_elementwise_ops import (
        LinalgFuseElementwiseOpsPass,
    )

    return LinalgFuseElementwiseOpsPass


# Upstream MLIR's pass name; xDSL 0.74 has no pass of that name.
PASSES["linalg-fuse-elementwise-ops"] = _linalg_fuse_elementwise_ops


def _stablehlo_legalize_qdq_to_quantized_op() -> type[ModulePass]:
    from xquant.transforms.stablehlo_legalize_qdq_to_quantized_op import (
        StablehloLegalizeQDQToQuantizedOpPass,
    )

    return StablehloLegalizeQDQToQuantizedOpPass


PASSES["stablehlo-legalize-qdq-to-quantized-op"] = (
    _stablehlo_legalize_qdq_to_quantized_op
)


def _stablehlo_legalize_quantized_op_to_qdq() -> type[ModulePass]:
    from xquant.transforms.stablehlo_legalize_quantized_op_to_qdq import (
        StablehloLegalizeQuantizedOpToQDQPass,
    )

    return StablehloLegalizeQuantizedOpToQDQPass


PASSES["stablehlo-legalize-quantized-op-to-qdq"] = (
    _stablehlo_legalize_quantized_op_to_qdq
)


def _stablehlo_quant_legalize_to_tosa_rescale() -> type[ModulePass]:
    from xquant.transforms.stablehlo_quant_legalize_to_tosa_rescale import (
        StablehloQuantLegalizeToTosaRescalePass,
    )

    return StablehloQuantLegalizeToTosaRescalePass


PASSES["stablehlo-quant-legalize-to-tosa-rescale"] = (
    _stablehlo_quant_legalize_to_tosa_rescale
)


def _tosa_rescale_legalize_to_stablehlo() -> type[ModulePass]:
    from xquant.transforms.tosa_rescale_legalize_to_stablehlo import (
        TosaRescaleLegalizeToStablehloPass,
    )

    return TosaRescaleLegalizeToStablehloPass


PASSES["tosa-rescale-legalize-to-stablehlo"] = _tosa_rescale_legalize_to_stablehlo
