"""Tensors known at compile time: graph.constant (dense, splat or resource-backed)
and graph.range (an arithmetic progression its attributes describe)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlc.graph.attributes import number
from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp, PatternKind, ShapeError, shape_check
from mlc.graph.types import NumericTensor, Tensor, computable
from mlc.ir import (
    Attribute,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    FloatAttr,
    FloatType,
    IntegerAttr,
    IntegerType,
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
                "`opaque` otherwise (passed to the fused function as a parameter)",
                "Lowers to loops: yes (a `loop.constant` buffer; one fused into a consumer's "
                "function, as a one-value stage of the kernel)"]


def typed_numbers(attrs: dict, names: tuple[str, ...]) -> dict:
    """The builder's spelling of `number` attributes that give an op's element type:
    plain Python numbers made attributes of `dtype` (popped from `attrs`; by default
    i64 when they are all ints, f32 otherwise)."""
    dtype = attrs.pop("dtype", None)
    plain = {n: attrs[n] for n in names if n in attrs and not isinstance(attrs[n], Attribute)}
    if dtype is None:
        dtype = i64 if all(isinstance(v, int) for v in plain.values()) else f32
    for n, v in plain.items():
        attrs[n] = FloatAttr.from_value(float(v), dtype) if isinstance(dtype, FloatType) \
            else IntegerAttr(int(v), dtype)
    return attrs


def number_type(attributes: dict[str, Attribute], names: tuple[str, ...]) -> Type:
    """The one type of the `number` attributes `names` (an element type graph tensors
    hold), or ShapeError."""
    numbers = [attributes[n] for n in names]
    element = numbers[0].type
    shape_check(all(v.type == element for v in numbers),
                " and ".join(", ".join(names).rsplit(", ", 1)) + " must have one type, got "
                + ", ".join(str(v.type) for v in numbers))
    shape_check(computable(element), f"{element} is not an element type of graph tensors: they "
                                     f"hold i1, 8/16/32/64-bit integers, index, f16, bf16, f32 or f64")
    return element


@graph.op
class RangeOp(GraphOp):
    """The numbers start, start + delta, start + 2·delta, ... up to but excluding
    `limit` (ONNX Range, numpy's arange).

    start, limit and delta are attributes of one type, the result's element type
    (`start = 0 : i64`); from the builder, `dtype` gives it (by default i64 for
    integers, f32 otherwise). There are max(ceil((limit - start) / delta), 0)
    elements; delta is non-zero. graph-fold-constant folds the op into a constant
    when that is not much larger than the op (`max-growth-elements`).

    Integers: exact.

    NaN: floats are computed in float64 as start + i·delta and rounded once, as ONNX's
    reference and numpy compute them; a NaN or infinite attribute is a verifier error.
    """

    name = "graph.range"
    start = number(doc="the first element")
    limit = number(doc="the bound, excluded")
    delta = number(doc="the step, non-zero")
    result = ResultDef(NumericTensor)
    # TVM's arange is opaque only because its bounds may be run-time values; these
    # are attributes, and out[i] depends on i alone.
    pattern = PatternKind.INJECTIVE
    assembly_format = "attr-dict `:` type($result)"

    @classmethod
    def normalize(cls, attrs: dict) -> dict:
        """The builder's spelling: plain numbers, and `dtype` for their type."""
        return typed_numbers(attrs, ("start", "limit", "delta"))

    @staticmethod
    def length(start: float, limit: float, delta: float) -> int:
        """How many elements the progression has (ints exactly, floats in float64)."""
        shape_check(delta != 0, "delta must be non-zero")
        if all(isinstance(v, int) for v in (start, limit, delta)):
            return max(-((start - limit) // delta), 0)  # ceil((limit - start) / delta)
        shape_check(all(math.isfinite(v) for v in (start, limit, delta)),
                    f"start, limit and delta must be finite, got {start}, {limit} and {delta}")
        return max(math.ceil((limit - start) / delta), 0)

    @classmethod
    def infer_result_types(cls, operand_types: list[Type], attributes: dict[str, Attribute]) -> list[Type]:
        try:
            element = number_type(attributes, ("start", "limit", "delta"))
            shape_check(element != i1, "cannot make a range of i1")
            values = cls.attribute_values(attributes)
            count = cls.length(values["start"], values["limit"], values["delta"])
        except ShapeError as exc:
            raise TypeInferenceError(cls.op_def.name, str(exc)) from None
        return [RankedTensorType((count,), element)]

    @classmethod
    def reference(cls, attrs, *inputs):
        start, limit, delta = attrs["start"], attrs["limit"], attrs["delta"]
        steps = np.arange(cls.length(start, limit, delta))
        if all(isinstance(v, int) for v in (start, limit, delta)):
            # Modulo 2^64, which the result type's low bits keep: each element lies
            # between start and limit, so it is exact even where i·delta wraps.
            wrap = np.uint64
            return wrap(start % 2**64) + steps.astype(wrap) * wrap(delta % 2**64)
        return float(start) + steps * float(delta)

    @classmethod
    def compute(cls, te, attrs):
        """TOPI's arange: start + i·delta, for integers in the element type (which
        wraps as the reference's 64-bit arithmetic does in its low bits), for floats in
        float64, rounded once."""
        result = attrs["result_types"][0]
        element = result.element_type
        work = element if isinstance(element, IntegerType) else f64
        start, delta = te.const(attrs["start"], work), te.const(attrs["delta"], work)
        return te.compute(result.shape, lambda i: te.cast(start + te.cast(i, work) * delta,
                                                          element), name="T_arange")


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
