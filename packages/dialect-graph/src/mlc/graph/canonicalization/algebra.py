"""Algebraic simplifications of graph ops: identities of arithmetic (x*1, x+0, x-0,
x/1, -(-x)), chains of reshapes and transposes, identity and round-trip casts.

Every pattern here only removes work: its result is an operand of the root, or one
op replacing two. An identity fires only when the root's result type equals the
operand it returns, so `x + zeros` that broadcasts `x` up to a larger shape stays.

Floating-point notes. x*1, x/1 and x-0 are exact. x + 0 differs from x only when x
is -0.0 (the sum is +0.0); like TVM's SimplifyExpr and fast-math's "no signed zeros",
we treat the two zeros as equal at the graph level and fold it.
"""

from __future__ import annotations

import numpy as np

from mlc.graph.dialect import graph
from mlc.graph.ops.constant import constant_array
from mlc.graph.ops.elementwise import AddOp, CastOp, DivideOp, MultiplyOp, NegOp, SubtractOp
from mlc.graph.ops.transform import ExpandDimsOp, FlattenOp, ReshapeOp, SqueezeOp, TransposeOp
from mlc.ir import (
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    FloatType,
    IntegerType,
    Operation,
    Value,
    element_dtype,
    i64,
)
from mlc.ir.rewrite import Check, Const, Dag, DagPattern, Native, V


def _splat_of(attr: Attribute, value: float) -> bool:
    """Whether every element of a constant equals `value` (False for an empty or
    unreadable one)."""
    try:
        array = constant_array(attr)
    except ValueError:
        return False
    element = getattr(attr.type, "element_type", None)
    if isinstance(element, FloatType) and element.name not in ("f16", "f32", "f64"):
        return False  # stored as raw bits (bf16): not comparable as numbers
    splat = attr.splat_element() if isinstance(attr, DenseElementsAttr) else None
    if splat is not None:  # one comparison, however large the shape
        return bool(splat == value)
    return array.size > 0 and bool(np.all(array == value))


def is_splat_one(attr: Attribute) -> bool:
    """Every element of the constant is one."""
    return _splat_of(attr, 1)


def is_splat_zero(attr: Attribute) -> bool:
    """Every element of the constant is zero (either sign)."""
    return _splat_of(attr, 0)  # -0.0 == 0 too


def result_has_type_of(op: Operation, value: Value) -> bool:
    """`op`'s result has `value`'s type (so one can replace the other)."""
    return op.results[0].type == value.type


def permutation(op: Operation) -> tuple[int, ...]:
    """The normalized permutation of a graph.transpose (its empty default reverses)."""
    return TransposeOp.permutation(op.operand(0).type.rank, op.values["axes"])


def is_identity_transpose(op: Operation) -> bool:
    """The transpose keeps every axis in place."""
    return permutation(op) == tuple(range(op.operand(0).type.rank))


def composed_permutation(inner: Operation, outer: Operation) -> Attribute:
    """The axes of one transpose doing `inner` then `outer`."""
    # outer(inner(x))[i] reads inner's axis outer[i], which reads x's axis inner[outer[i]].
    first, second = permutation(inner), permutation(outer)
    return DenseArrayAttr(i64, tuple(first[a] for a in second))


def result_shape(op: Operation) -> Attribute:
    """The shape of `op`'s result, as a reshape's `shape` attribute."""
    return DenseArrayAttr(i64, tuple(op.results[0].type.shape))


def has_zero_extent(op: Operation) -> Attribute:
    """A reshape's `allowzero` for `result_shape(op)`: set when an extent is 0, which
    would otherwise copy the operand's extent."""
    return BoolAttr(0 in op.results[0].type.shape)


def _storage(element) -> np.dtype | None:
    """The numpy dtype whose values are exactly the element type's, or None."""
    if isinstance(element, FloatType):
        return element_dtype(element) if element.name in ("f16", "f32", "f64") else None
    if isinstance(element, IntegerType) and element.width in (1, 8, 16, 32, 64):
        return element_dtype(element)
    return None


def cast_is_lossless(cast: Operation) -> bool:
    """The cast's result type holds every value of its operand's (f16 -> f32,
    i8 -> i32, i32 -> f64, i1 -> anything...), so casting back restores the operand."""
    source = _storage(cast.operand(0).type.element_type)
    target = _storage(cast.results[0].type.element_type)
    if source is None or target is None or not np.can_cast(source, target, "safe"):
        return False
    if source.kind in "iu" and target.kind == "f":
        # numpy calls int64 -> float64 safe, but 2^53 + 1 does not come back: the
        # integer's magnitude bits must fit the float's significand.
        return source.itemsize * 8 - (source.kind == "i") <= np.finfo(target).nmant + 1
    return True


# ---------------------------------------------------------------------- arithmetic


def _identity(name: str, op: type, source_operands, constant_check, doc: str) -> DagPattern:
    return DagPattern(name, Dag(op, *source_operands, bind="root"), V("x"),
                      [Check(constant_check, "c"), Check(result_has_type_of, "root", "x")],
                      doc=doc)


ARITHMETIC = [
    _identity("MultiplyByOne", MultiplyOp, (V("x"), Const("c")), is_splat_one,
              "multiply(x, 1) -> x, when the ones do not broadcast x to a larger shape"),
    _identity("OneMultiply", MultiplyOp, (Const("c"), V("x")), is_splat_one,
              "multiply(1, x) -> x, when the ones do not broadcast x to a larger shape"),
    _identity("AddZero", AddOp, (V("x"), Const("c")), is_splat_zero,
              "add(x, 0) -> x, when the zeros do not broadcast x (signed zeros not kept)"),
    _identity("ZeroAdd", AddOp, (Const("c"), V("x")), is_splat_zero,
              "add(0, x) -> x, when the zeros do not broadcast x (signed zeros not kept)"),
    _identity("SubtractZero", SubtractOp, (V("x"), Const("c")), is_splat_zero,
              "subtract(x, 0) -> x, when the zeros do not broadcast x (signed zeros not kept)"),
    _identity("DivideByOne", DivideOp, (V("x"), Const("c")), is_splat_one,
              "divide(x, 1) -> x, when the ones do not broadcast x to a larger shape"),
    DagPattern("NegOfNeg", Dag(NegOp, Dag(NegOp, V("x"))), V("x"),
               doc="neg(neg(x)) -> x"),
]

# ---------------------------------------------------------------------- reshapes

# Ops that only change the shape, keeping the elements in row-major order: any chain
# of them is one reshape to the last shape, and one to its operand's shape is a no-op.
RESHAPE_LIKE = {ReshapeOp: "Reshape", FlattenOp: "Flatten", SqueezeOp: "Squeeze",
                ExpandDimsOp: "ExpandDims"}

RESHAPES = [
    DagPattern(f"{short}Identity", Dag(op, V("x"), bind="root"), V("x"),
               [Check(result_has_type_of, "root", "x")],
               doc=f"{op.op_def.short_name}(x) -> x, when the shape does not change")
    for op, short in RESHAPE_LIKE.items()
] + [
    DagPattern(f"ReshapeOf{short}", Dag(ReshapeOp, Dag(op, V("x")), bind="root"),
               Dag(ReshapeOp, V("x"), shape=Native(result_shape, "root"),
                   allowzero=Native(has_zero_extent, "root")),
               doc=f"reshape({op.op_def.short_name}(x)) -> reshape(x): one reshape to the last shape")
    for op, short in RESHAPE_LIKE.items()
] + [
    DagPattern("SqueezeOfExpandDims",
               Dag(SqueezeOp, Dag(ExpandDimsOp, V("x")), bind="root"), V("x"),
               [Check(result_has_type_of, "root", "x")],
               doc="squeeze(expand_dims(x)) -> x, when the squeeze removes the inserted axes"),
    DagPattern("ExpandDimsOfSqueeze",
               Dag(ExpandDimsOp, Dag(SqueezeOp, V("x")), bind="root"), V("x"),
               [Check(result_has_type_of, "root", "x")],
               doc="expand_dims(squeeze(x)) -> x, when the axes come back where they were"),
]

# ---------------------------------------------------------------------- transposes and casts

TRANSPOSES = [
    DagPattern("TransposeOfTranspose",
               Dag(TransposeOp, Dag(TransposeOp, V("x"), bind="inner"), bind="outer"),
               Dag(TransposeOp, V("x"),
                   axes=Native(composed_permutation, "inner", "outer")),
               doc="transpose(transpose(x, p), q) -> transpose(x, p[q])"),
    DagPattern("TransposeIdentity", Dag(TransposeOp, V("x"), bind="root"), V("x"),
               [Check(is_identity_transpose, "root")],
               doc="transpose(x, (0, 1, ..., n-1)) -> x"),
]

CASTS = [
    DagPattern("CastIdentity", Dag(CastOp, V("x"), bind="root"), V("x"),
               [Check(result_has_type_of, "root", "x")],
               doc="cast(x) to x's own type -> x"),
    DagPattern("CastRoundTrip",
               Dag(CastOp, Dag(CastOp, V("x"), bind="inner"), bind="root"), V("x"),
               [Check(result_has_type_of, "root", "x"), Check(cast_is_lossless, "inner")],
               doc="cast(cast(x, A), type of x) -> x, when A holds every value of x's type "
                   "(the other way round rounds or truncates)"),
]

PATTERNS: list = [*ARITHMETIC, *RESHAPES, *TRANSPOSES, *CASTS]

graph.add_canonicalization_patterns(PATTERNS)
