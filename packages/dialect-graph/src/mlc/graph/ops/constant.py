"""graph.constant: a tensor known at compile time (dense, splat or resource-backed)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp, PatternKind
from mlc.graph.types import Tensor
from mlc.ir import (
    Attribute,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    RankedTensorType,
    Type,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from mlc.ir.interfaces.infer_type import TypeInferenceError
from mlc.ir.opdef import AttrDef, ConstantLike, ElementsAttrConstraint, ResultDef

_INLINED = frozenset({i32, i64, f32, f64, i1})


@graph.op
class ConstantOp(GraphOp):
    """A constant tensor.

    The value is a `dense<...>` literal (a splat stores one element), or a
    `dense_resource<handle>` whose bytes live in the file's `dialect_resources` section,
    which is how large weights travel without being spelled out as text.

    Integers and NaN: the elements as written.
    """

    name = "graph.constant"
    value = AttrDef(ElementsAttrConstraint, doc="the elements")
    result = ResultDef(Tensor)
    traits = (ConstantLike,)
    assembly_format = "attr-dict $value"

    @classmethod
    def infer_result_types(cls, operand_types: list[Type], attributes: dict[str, Attribute]) -> list[Type]:
        value_type = attributes["value"].type
        if not isinstance(value_type, RankedTensorType):
            raise TypeInferenceError(cls.op_def.name, f"value must be a ranked tensor, got "
                                     f"{value_type}")
        return [value_type]

    @classmethod
    def pattern_of(cls, op) -> PatternKind:
        # TVM fuses scalar constants into their consumers (those of the element types
        # its code generator inlines: i32, i64, f32, f64, bool) and keeps the others
        # as parameters of the fused function.
        type_ = op.result.type
        return PatternKind.ELEMWISE if type_.shape == () and type_.element_type in _INLINED \
            else PatternKind.OPAQUE

    def evaluate(self, inputs) -> list:
        return [constant_array(self.value)]

    def fold(self, operands: list[Attribute | None]) -> list[Attribute] | None:
        return [self.value]

    @classmethod
    def doc_facts(cls) -> list[str]:
        return ["Fusion pattern: `elemwise` for a rank-0 constant (fused into its consumer), "
                "`opaque` otherwise (passed to the fused function as a parameter)"]


def constant_array(attr: Any) -> np.ndarray:
    """The elements of a dense or resource-backed attribute, as a read-only numpy
    array (no copy); raises ValueError when a resource's blob is missing."""
    if isinstance(attr, DenseElementsAttr):
        return attr.array
    if isinstance(attr, DenseResourceElementsAttr):
        array = attr.array()
        if array is None:
            raise ValueError(f"the blob of dense_resource<{attr.handle}> is not available")
        return array
    raise ValueError(f"not an elements attribute: {attr}")


# A pass that computes a new tensor from every element of a constant (scaling a
# weight) expands a splat. A splat larger than this is left to run time instead: its
# text is one element, its computed form would be all of them.
MAX_SPLAT_EXPANSION = 1 << 16


def stored_elements(attr: Any) -> int:
    """How many elements a constant's attribute holds: one for a splat, whatever its
    shape, else all of them."""
    if isinstance(attr, DenseElementsAttr) and attr.is_splat():
        return 1
    return int(np.prod(attr.type.shape))


def value_array(value) -> np.ndarray | None:
    """The elements of `value` when a graph.constant defines it and they are
    available (a resource's blob may be missing), else None. A splat is a zero-stride
    view: reshaping and transposing it keep it one; computing with it does not."""
    producer = value.defining_op
    if not isinstance(producer, ConstantOp):
        return None
    try:
        return constant_array(producer.value)
    except ValueError:
        return None


def computable_array(value) -> np.ndarray | None:
    """`value_array`, or None for a splat of more than MAX_SPLAT_EXPANSION elements:
    for passes that compute a tensor of the same size from the elements."""
    array = value_array(value)
    if array is not None and array.size > MAX_SPLAT_EXPANSION \
            and stored_elements(value.defining_op.value) == 1:
        return None
    return array
