"""The `llvm` dialect's intrinsics mlc uses (`llvm.intr.*`, each a call of LLVM's
`llvm.*` intrinsic of that name), as MLIR 22 declares them. Most print as a call,

    %y = llvm.intr.fma(%a, %b, %c) : (f32, f32, f32) -> f32

but some have no custom form in MLIR and print generically only:
`llvm.intr.abs`, `ctlz` and `cttz` (their flag is an attribute),
the integer `vector.reduce.*` and `vector.reduce.fadd`/`fmul`.
"""

from __future__ import annotations

from mlc.ir.core.attributes import i1, i32
from mlc.ir.interfaces.side_effects import MemoryEffects, Read, Write
from mlc.ir.opdef.constraints import IntAttrOf, UnitAttrConstraint
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef
from mlc.ir.opdef.traits import Pure, SameOperandsAndResultType, TypesMatchWith
from mlc.llvm.dialect.constraints import (
    AnyVector,
    BoolVector,
    FloatOrFloatVector,
    FloatVector,
    IntOrIntVector,
    IntVector,
    LLVMType,
    Pointer,
    SignlessInteger,
)
from mlc.llvm.dialect.types import LLVM_FASTMATH_NONE, LLVMFastMathFlags, llvm

_CALL_FORMAT = "`(` operands `)` attr-dict `:` functional-type(operands, results)"
_FASTMATH_DOC = "the IEEE-754 guarantees the intrinsic may relax"


def _fastmath() -> AttrDef:
    return AttrDef(LLVMFastMathFlags, default=LLVM_FASTMATH_NONE, doc=_FASTMATH_DOC)


def _declare(base: type, intrinsic: str, doc: str) -> type[Op]:
    """Declare `llvm.intr.<intrinsic>` on `base` (its operands, format and traits), as
    this module's `<Intrinsic>Op` (`SmaxOp`, `VectorReduceFaddOp`)."""
    class_name = "".join(part.capitalize() for part in intrinsic.split(".")) + "Op"
    cls = type(class_name, (base,), {"name": f"llvm.intr.{intrinsic}", "__doc__": doc,
                                     "__module__": __name__})
    globals()[class_name] = cls
    return llvm.op(cls)


class _UnaryFloat(Op):
    input = OperandDef(FloatOrFloatVector, doc="`in` in MLIR")
    res = ResultDef(FloatOrFloatVector)
    fastmathFlags = _fastmath()  # noqa: N815 - MLIR's name
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = _CALL_FORMAT


class _BinaryFloat(Op):
    a = OperandDef(FloatOrFloatVector)
    b = OperandDef(FloatOrFloatVector)
    res = ResultDef(FloatOrFloatVector)
    fastmathFlags = _fastmath()  # noqa: N815 - MLIR's name
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = _CALL_FORMAT


class _TernaryFloat(_BinaryFloat):
    c = OperandDef(FloatOrFloatVector)
    res = ResultDef(FloatOrFloatVector)


class _UnaryInt(Op):
    input = OperandDef(IntOrIntVector)
    res = ResultDef(IntOrIntVector)
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = _CALL_FORMAT


class _BinaryInt(Op):
    a = OperandDef(IntOrIntVector)
    b = OperandDef(IntOrIntVector)
    res = ResultDef(IntOrIntVector)
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = _CALL_FORMAT


class _CountZeros(Op):
    input = OperandDef(IntOrIntVector)
    is_zero_poison = AttrDef(IntAttrOf(i1), doc="a zero operand gives poison")
    res = ResultDef(IntOrIntVector)
    traits = (Pure, SameOperandsAndResultType)


# MLIR's operands are named `in`, a Python keyword: `input` here, the same operand.
_UNARY_FLOAT = {
    "exp": "e to the power of the operand.", "exp2": "2 to the power of the operand.",
    "exp10": "10 to the power of the operand.", "log": "Natural logarithm.",
    "log2": "Base-2 logarithm.", "log10": "Base-10 logarithm.", "sqrt": "Square root.",
    "sin": "Sine (radians).", "cos": "Cosine (radians).", "tan": "Tangent (radians).",
    "asin": "Arc sine.", "acos": "Arc cosine.", "atan": "Arc tangent.",
    "sinh": "Hyperbolic sine.", "cosh": "Hyperbolic cosine.", "tanh": "Hyperbolic tangent.",
    "fabs": "Absolute value.", "floor": "Rounding down to an integral value.",
    "ceil": "Rounding up to an integral value.",
    "round": "Rounding to the nearest integral value, halfway cases away from zero.",
    "roundeven": "Rounding to the nearest integral value, halfway cases to even.",
    "trunc": "Rounding toward zero to an integral value.",
    "rint": "Rounding to an integral value in the current rounding mode (may raise inexact).",
    "nearbyint": "Rounding to an integral value in the current rounding mode.",
}
_BINARY_FLOAT = {
    "pow": "The first operand to the power of the second.",
    "maxnum": "Maximum ignoring a quiet NaN (IEEE-754 2008 maxNum).",
    "minnum": "Minimum ignoring a quiet NaN (IEEE-754 2008 minNum).",
    "maximum": "Maximum propagating NaN, -0.0 < +0.0 (IEEE-754 2019 maximum).",
    "minimum": "Minimum propagating NaN, -0.0 < +0.0 (IEEE-754 2019 minimum).",
    "copysign": "The first operand's magnitude with the second's sign.",
}
_TERNARY_FLOAT = {
    "fma": "a * b + c, rounded once.",
    "fmuladd": "a * b + c, fused or not as is faster.",
}
_BINARY_INT = {
    "smax": "Signed maximum.", "smin": "Signed minimum.",
    "umax": "Unsigned maximum.", "umin": "Unsigned minimum.",
}
_UNARY_INT = {
    "ctpop": "The number of set bits.", "bitreverse": "The bits in reverse order.",
    "bswap": "The bytes in reverse order.",
}

# The intrinsics named after their result type alone (`llvm.smax.i32`).
ELEMENTWISE_INTRINSICS = tuple(
    _declare(_base, _intrinsic, _doc)
    for _table, _base in ((_UNARY_FLOAT, _UnaryFloat), (_BINARY_FLOAT, _BinaryFloat),
                          (_TERNARY_FLOAT, _TernaryFloat), (_BINARY_INT, _BinaryInt),
                          (_UNARY_INT, _UnaryInt))
    for _intrinsic, _doc in _table.items())

CountLeadingZerosOp = _declare(_CountZeros, "ctlz", "The number of leading zero bits.")
CountTrailingZerosOp = _declare(_CountZeros, "cttz", "The number of trailing zero bits.")


@llvm.op
class PowIOp(Op):
    """A float to the power of an integer."""

    name = "llvm.intr.powi"
    val = OperandDef(FloatOrFloatVector)
    power = OperandDef(SignlessInteger)
    res = ResultDef(FloatOrFloatVector)
    fastmathFlags = _fastmath()  # noqa: N815 - MLIR's name
    traits = (Pure, TypesMatchWith("res", "val", lambda t: t, "res and val have the same type"))
    assembly_format = _CALL_FORMAT


@llvm.op
class AbsOp(Op):
    """Integer absolute value; the minimum value gives itself, or poison with
    `is_int_min_poison`."""

    name = "llvm.intr.abs"
    input = OperandDef(IntOrIntVector)
    is_int_min_poison = AttrDef(IntAttrOf(i1), doc="the minimum value gives poison")
    res = ResultDef(IntOrIntVector)
    traits = (Pure, SameOperandsAndResultType)


# ------------------------------------------------------------------ vector reductions


class _IntReduction(Op):
    input = OperandDef(IntVector)
    res = ResultDef(SignlessInteger)
    traits = (Pure,)


class _FloatReduction(Op):
    input = OperandDef(FloatVector)
    res = ResultDef(LLVMType)
    fastmathFlags = _fastmath()  # noqa: N815 - MLIR's name
    traits = (Pure,)
    assembly_format = _CALL_FORMAT


class _FloatAccumulatingReduction(Op):
    start_value = OperandDef(LLVMType)
    input = OperandDef(FloatVector)
    res = ResultDef(LLVMType)
    fastmathFlags = _fastmath()  # noqa: N815 - MLIR's name
    traits = (Pure,)


# The reductions, named after their vector operand's type (`llvm.vector.reduce.add.v8i32`).
VECTOR_REDUCTIONS = (
    *(_declare(_IntReduction, f"vector.reduce.{_kind}", f"The {_doc} of a vector's elements.")
      for _kind, _doc in (("add", "sum"), ("mul", "product"), ("and", "bitwise and"),
                          ("or", "bitwise or"), ("xor", "bitwise exclusive or"),
                          ("smax", "signed maximum"), ("smin", "signed minimum"),
                          ("umax", "unsigned maximum"), ("umin", "unsigned minimum"))),
    *(_declare(_FloatReduction, f"vector.reduce.{_kind}", f"The {_doc} of a vector's elements.")
      for _kind, _doc in (("fmax", "maximum ignoring NaN (maxnum)"),
                          ("fmin", "minimum ignoring NaN (minnum)"),
                          ("fmaximum", "maximum propagating NaN"),
                          ("fminimum", "minimum propagating NaN"))),
    *(_declare(_FloatAccumulatingReduction, f"vector.reduce.{_kind}",
               f"The {_doc} of `start_value` and a vector's elements, in order unless "
               "`reassoc` allows any.")
      for _kind, _doc in (("fadd", "sum"), ("fmul", "product"))),
)


# ------------------------------------------------------------------ masked memory


@llvm.op
class MaskedLoadOp(Op):
    """Loads the vector elements whose mask bit is set; the others are `pass_thru`'s
    (poison without it)."""

    name = "llvm.intr.masked.load"
    data = OperandDef(Pointer)
    mask = OperandDef(BoolVector)
    pass_thru = OperandDef(AnyVector, optional=True)
    alignment = AttrDef(IntAttrOf(i32))
    nontemporal = AttrDef(UnitAttrConstraint, optional=True)
    res = ResultDef(AnyVector)
    traits = (MemoryEffects(Read("data")),)
    assembly_format = "operands attr-dict `:` functional-type(operands, results)"


@llvm.op
class MaskedStoreOp(Op):
    """Stores the vector elements whose mask bit is set."""

    name = "llvm.intr.masked.store"
    value = OperandDef(AnyVector)
    data = OperandDef(Pointer)
    mask = OperandDef(BoolVector)
    alignment = AttrDef(IntAttrOf(i32))
    traits = (MemoryEffects(Write("data")),)
    assembly_format = ("$value `,` $data `,` $mask attr-dict `:` type($value) `,` type($mask) "
                       "`into` type($data)")
