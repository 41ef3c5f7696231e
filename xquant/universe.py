"""The `xdsl.universe` entry point: every xquant dialect and pass, loaded lazily.

After `pip install`, stock `xdsl-opt` finds these through the entry point in
pyproject.toml. Importing this module changes nothing in xDSL: each factory
installs xquant's fixes to xDSL (`xquant.compat.install`), and makes xDSL's
printer sort attribute dictionaries as MLIR does, when `xdsl-opt` first loads
one of xquant's dialects or passes; IR that uses none of them is handled
exactly as without xquant.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe

_Loaded = TypeVar("_Loaded")


def _with_fixes(factory: Callable[[], _Loaded]) -> Callable[[], _Loaded]:
    """`factory`, installing xquant's fixes to xDSL before it loads anything."""

    @wraps(factory)
    def load() -> _Loaded:
        # Lazy, as every import of an xquant module here: xdsl-opt imports this
        # entry point at every start, and must not load xquant until it is used.
        from xquant.compat import install
        from xquant.compat.printer import sort_attr_dicts_in_xdsl_printer

        install()
        # Stock xdsl-opt prints with xDSL's own Printer: sort as MLIR (and xquant-opt) do.
        sort_attr_dicts_in_xdsl_printer()
        return factory()

    return load


# The factories import their module when xDSL first asks for the dialect
# (lazy, see `_with_fixes`).


def _quant() -> Dialect:
    from xquant.dialects.quant import Quant

    return Quant


def _shape() -> Dialect:
    from xquant.dialects.shape import Shape

    return Shape


def _mx_tensor() -> Dialect:
    from xquant.dialects.mx_tensor import MxTensor

    return MxTensor


def _stablehlo() -> Dialect:
    from xquant.dialects.stablehlo import StableHLO

    return StableHLO


def _chlo() -> Dialect:
    from xquant.dialects.chlo import Chlo

    return Chlo


def _check() -> Dialect:
    from xquant.dialects.check import Check

    return Check


def _sdy() -> Dialect:
    from xquant.dialects.sdy_dialect import Sdy

    return Sdy


# xDSL 0.74 defines none of these names, so there is no clash in the multiverse.
DIALECTS: dict[str, Callable[[], Dialect]] = {
    "quant": _with_fixes(_quant),
    "shape": _with_fixes(_shape),
    "mx_tensor": _with_fixes(_mx_tensor),
    "stablehlo": _with_fixes(_stablehlo),
    "check": _with_fixes(_check),
    "chlo": _with_fixes(_chlo),
    "sdy": _with_fixes(_sdy),
}


# The factories import their pass when xDSL first asks for it (lazy, see
# `_with_fixes`).


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


def _stablehlo_legalize_quant_to_math() -> type[ModulePass]:
    from xquant.transforms.stablehlo_legalize_quant_to_math import (
        StablehloLegalizeQuantToMathPass,
    )

    return StablehloLegalizeQuantToMathPass


def _stablehlo_legalize_composite_to_call() -> type[ModulePass]:
    from xquant.transforms.stablehlo_legalize_composite_to_call import (
        StablehloLegalizeCompositeToCallPass,
    )

    return StablehloLegalizeCompositeToCallPass


def _stablehlo_legalize_control_flow() -> type[ModulePass]:
    from xquant.transforms.stablehlo_legalize_control_flow import (
        StablehloLegalizeControlFlowPass,
    )

    return StablehloLegalizeControlFlowPass


def _chlo_legalize_to_stablehlo() -> type[ModulePass]:
    from xquant.transforms.chlo_legalize_to_stablehlo import ChloLegalizeToStablehloPass

    return ChloLegalizeToStablehloPass


def _stablehlo_legalize_to_linalg() -> type[ModulePass]:
    from xquant.transforms.stablehlo_legalize_to_linalg import (
        StablehloLegalizeToLinalgPass,
    )

    return StablehloLegalizeToLinalgPass


def _linalg_fuse_elementwise_ops() -> type[ModulePass]:
    from xquant.transforms.linalg_fuse_elementwise_ops import (
        LinalgFuseElementwiseOpsPass,
    )

    return LinalgFuseElementwiseOpsPass


def _stablehlo_legalize_qdq_to_quantized_op() -> type[ModulePass]:
    from xquant.transforms.stablehlo_legalize_qdq_to_quantized_op import (
        StablehloLegalizeQDQToQuantizedOpPass,
    )

    return StablehloLegalizeQDQToQuantizedOpPass


def _stablehlo_legalize_quantized_op_to_qdq() -> type[ModulePass]:
    from xquant.transforms.stablehlo_legalize_quantized_op_to_qdq import (
        StablehloLegalizeQuantizedOpToQDQPass,
    )

    return StablehloLegalizeQuantizedOpToQDQPass


def _stablehlo_quant_legalize_to_tosa_rescale() -> type[ModulePass]:
    from xquant.transforms.stablehlo_quant_legalize_to_tosa_rescale import (
        StablehloQuantLegalizeToTosaRescalePass,
    )

    return StablehloQuantLegalizeToTosaRescalePass


def _tosa_rescale_legalize_to_stablehlo() -> type[ModulePass]:
    from xquant.transforms.tosa_rescale_legalize_to_stablehlo import (
        TosaRescaleLegalizeToStablehloPass,
    )

    return TosaRescaleLegalizeToStablehloPass


def _odml_legalize_qdq_custom_call() -> type[ModulePass]:
    from xquant.transforms.odml_legalize_qdq_custom_call import (
        OdmlLegalizeQDQCustomCallPass,
    )

    return OdmlLegalizeQDQCustomCallPass


def _scf_parallel_to_for() -> type[ModulePass]:
    from xquant.transforms.scf_parallel_to_for import ScfParallelToForPass

    return ScfParallelToForPass


def _inline() -> type[ModulePass]:
    from xquant.transforms.inline import InlinePass

    return InlinePass


def _linalg_convert_to_dps() -> type[ModulePass]:
    from xquant.transforms.linalg_convert_to_dps import LinalgConvertToDPSPass

    return LinalgConvertToDPSPass


def _linalg_specialize_generic_ops() -> type[ModulePass]:
    from xquant.transforms.linalg_specialize_generic_ops import (
        LinalgSpecializeGenericOpsPass,
    )

    return LinalgSpecializeGenericOpsPass


def _widen_boundary_types() -> type[ModulePass]:
    from xquant.transforms.widen_boundary_types import WidenBoundaryTypesPass

    return WidenBoundaryTypesPass


def _sdy_drop_shardings() -> type[ModulePass]:
    from xquant.transforms.sdy_drop_shardings import SdyDropShardingsPass

    return SdyDropShardingsPass


# xDSL 0.74 has none of these names (`linalg-fuse-elementwise-ops` and `inline` are
# upstream MLIR's).
PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "lower-quant-ops": _with_fixes(_lower_quant_ops),
    "strip-func-quant-types": _with_fixes(_strip_func_quant_types),
    "normalize-quant-types": _with_fixes(_normalize_quant_types),
    "lower-mx-tensor": _with_fixes(_lower_mx_tensor),
    "mx-tensor-generalize": _with_fixes(_mx_tensor_generalize),
    "stablehlo-legalize-quant-to-math": _with_fixes(_stablehlo_legalize_quant_to_math),
    "chlo-legalize-to-stablehlo": _with_fixes(_chlo_legalize_to_stablehlo),
    "stablehlo-legalize-control-flow": _with_fixes(_stablehlo_legalize_control_flow),
    "stablehlo-legalize-composite-to-call": _with_fixes(
        _stablehlo_legalize_composite_to_call
    ),
    "stablehlo-legalize-to-linalg": _with_fixes(_stablehlo_legalize_to_linalg),
    "linalg-fuse-elementwise-ops": _with_fixes(_linalg_fuse_elementwise_ops),
    "linalg-convert-to-dps": _with_fixes(_linalg_convert_to_dps),
    "linalg-specialize-generic-ops": _with_fixes(_linalg_specialize_generic_ops),
    "stablehlo-legalize-qdq-to-quantized-op": _with_fixes(
        _stablehlo_legalize_qdq_to_quantized_op
    ),
    "stablehlo-legalize-quantized-op-to-qdq": _with_fixes(
        _stablehlo_legalize_quantized_op_to_qdq
    ),
    "stablehlo-quant-legalize-to-tosa-rescale": _with_fixes(
        _stablehlo_quant_legalize_to_tosa_rescale
    ),
    "tosa-rescale-legalize-to-stablehlo": _with_fixes(
        _tosa_rescale_legalize_to_stablehlo
    ),
    "widen-boundary-types": _with_fixes(_widen_boundary_types),
    "odml-legalize-qdq-custom-call": _with_fixes(_odml_legalize_qdq_custom_call),
    "scf-parallel-to-for": _with_fixes(_scf_parallel_to_for),
    "inline": _with_fixes(_inline),
    "sdy-drop-shardings": _with_fixes(_sdy_drop_shardings),
}

XQUANT_UNIVERSE = Universe(all_dialects=DIALECTS, all_passes=PASSES)
