"""Tensor constraints of graph ops and the element types their semantics compute in."""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir import FloatType, IndexType, IntegerType, RankedTensorType, Type, f32, i1
from mlc.ir.opdef import TypeMatches

# ------------------------------------------------------------------ types

_FLOATS = frozenset({"f16", "bf16", "f32", "f64"})


def computable(element: Type) -> bool:
    """Whether graph ops compute on `element`: i1, 8/16/32/64-bit integers, index, f16,
    bf16, f32, f64. (Narrower integers and the small float formats would need their own
    wrapping and rounding rules; the reference does not have them.)"""
    if isinstance(element, IntegerType):
        return element.width in (8, 16, 32, 64) or (element.width == 1
                                                    and element.signedness == "signless")
    if isinstance(element, FloatType):
        return element.name in _FLOATS
    return isinstance(element, IndexType)


def _tensor_of(kind, description: str) -> TypeMatches:
    return TypeMatches(lambda t: isinstance(t, RankedTensorType) and computable(t.element_type)
                       and kind(t.element_type), description)


Tensor = _tensor_of(lambda e: True,
                    "ranked tensor of i1, 8-64-bit integers, index, f16, bf16, f32 or f64")
NumericTensor = _tensor_of(lambda e: e != i1,
                           "ranked tensor of 8-64-bit integers, index, f16, bf16, f32 or f64")
IntegerTensor = _tensor_of(lambda e: e != i1 and not isinstance(e, FloatType),
                           "ranked tensor of 8-64-bit integers or index")
FloatTensor = _tensor_of(lambda e: isinstance(e, FloatType),
                         "ranked tensor of f16, bf16, f32 or f64")
BoolTensor = _tensor_of(lambda e: e == i1, "ranked tensor of i1")


def tensor(shape: Sequence[int], element: Type = f32) -> RankedTensorType:
    """`tensor<shape x element>`."""
    return RankedTensorType(tuple(int(d) for d in shape), element)


