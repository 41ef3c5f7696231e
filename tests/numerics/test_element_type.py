"""`numerics.values.element_type` is MLIR's `getElementTypeOrSelf`."""

from __future__ import annotations

from xdsl.dialects.builtin import ComplexType, TensorType, UnrankedTensorType, f32
from xdsl.utils.type import get_element_type_or_self

from xquant.numerics.values import element_type


def test_shaped_types_give_their_element() -> None:
    assert element_type(TensorType(f32, [2])) == f32
    assert element_type(UnrankedTensorType(f32)) == f32
    assert element_type(f32) == f32


def test_complex_is_its_own_element() -> None:
    """MLIR keeps `complex<f32>`; xDSL's helper unwraps it (why ours is not xDSL's)."""
    c = ComplexType(f32)
    assert element_type(c) == c
    assert element_type(TensorType(c, [2])) == c
    assert get_element_type_or_self(c) == f32  # fails once xDSL agrees with MLIR
