"""The `arith` dialect: integer and floating-point arithmetic on scalars, vectors and
tensors, with MLIR's op names, syntax and folders.

This module declares the dialect, its attributes and its arithmetic, comparison and
select ops; the casts are in `casts.py`, the canonicalization patterns in
`canonicalization.py` (the package imports them all).
"""

from __future__ import annotations

import enum
import math
from typing import Annotated

from mlc.ir.core.attributes import (
    Attribute,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DialectAttribute,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Location,
    RankedTensorType,
    Type,
    UnrankedTensorType,
    VectorType,
    bits_to_float,
    i1,
    i32,
)
from mlc.ir.core.dialect_registry import Dialect
from mlc.ir.core.ir import Operation
from mlc.ir.dialects.arith.constants import (
    as_signed,
    constant_elements,
    constant_scalars,
    constant_value_of,
    dense_of,
    element_type_of,
    float_order_key,
    fold_binary,
    fold_float_binary,
    fold_int_binary,
    int_width,
    is_float_value,
    is_int_value,
    is_nan,
    is_signaling_nan,
    make_constant,
    quieted,
    to_unsigned,
    with_element_type,
)
from mlc.ir.dialects.ub.ops import PoisonAttr, is_poison, poison_of, ub
from mlc.ir.interfaces.infer_type import InferType, TypeInferenceError
from mlc.ir.interfaces.side_effects import (
    ConditionallySpeculatable,
    Speculatability,
    division_speculatability,
)
from mlc.ir.opdef.constraints import (
    BoolLike,
    FloatLike,
    IntEnum,
    SignlessIntegerLike,
    TypedAttr,
    UnitAttrConstraint,
)
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.directive import Directive
from mlc.ir.opdef.spelling import BitEnumSpelling
from mlc.ir.opdef.traits import (
    AllTypesMatch,
    Commutative,
    ConstantLike,
    ElementwiseMappable,
    NoMemoryEffect,
    OpPredicate,
    Pure,
    SameOperandsAndResultType,
    SameTypeOperands,
)


class ArithDialect(Dialect):
    def materialize_constant(self, value: Attribute, type_: Type, loc: Location) -> Operation | None:
        if isinstance(value, (IntegerAttr, FloatAttr, DenseElementsAttr)) and value.type == type_:
            return ConstantOp.build(value=value, loc=loc)
        if isinstance(value, PoisonAttr):  # what folders give for an op on poison
            return ub.materialize_constant(value, type_, loc)
        return None


arith = ArithDialect("arith", "Integer and floating-point arithmetic.",
                     semantics="mlc.ir.dialects.arith.semantics")


class ArithConstantsDialect(Dialect):
    """A dialect whose folders' constants are materialised as arith's (and ub's
    poison), as MLIR's math, vector and memref dialects do."""

    def materialize_constant(self, value: Attribute, type_: Type, loc: Location) -> Operation | None:
        return arith.materialize_constant(value, type_, loc)


# ------------------------------------------------------------------ attributes

class FastMath(enum.Flag):
    """The IEEE-754 guarantees a float op may relax (MLIR's arith::FastMathFlags)."""

    reassoc = enum.auto()
    nnan = enum.auto()
    ninf = enum.auto()
    nsz = enum.auto()
    arcp = enum.auto()
    contract = enum.auto()
    afn = enum.auto()


@arith.attribute
class FastMathFlags(DialectAttribute):
    """`#arith.fastmath<...>`: which IEEE-754 guarantees a float op may relax
    (`none`, `fast` for all, or a comma-separated list)."""

    name = "arith.fastmath"
    flags: Annotated[FastMath, BitEnumSpelling(FastMath, ",", all_name="fast")] = FastMath(0)
    assembly_format = "`<` $flags `>`"


FASTMATH_NONE = FastMathFlags()


class Overflow(enum.Flag):
    """Which integer wrap-around is undefined behaviour (signed, unsigned)."""

    nsw = enum.auto()
    nuw = enum.auto()


@arith.attribute
class IntegerOverflowFlags(DialectAttribute):
    """`#arith.overflow<nsw, nuw>`: signed/unsigned wrap is undefined behaviour."""

    name = "arith.overflow"
    flags: Annotated[Overflow, BitEnumSpelling(Overflow, ", ")] = Overflow(0)
    assembly_format = "`<` $flags `>`"


OVERFLOW_NONE = IntegerOverflowFlags()

CmpIPredicate = IntEnum("CmpIPredicate", ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule",
                                          "ugt", "uge"))
CmpFPredicate = IntEnum("CmpFPredicate", ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                          "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"))
# MLIR's Arith_RoundingModeAttr: an i32 enum, spelled as the bare keyword.
RoundingMode = IntEnum("RoundingMode", ("to_nearest_even", "downward", "upward", "toward_zero",
                                        "to_nearest_away"), i32, "Floating point rounding mode")


# ------------------------------------------------------------------ ops



class IntegerExtension:
    """Marks the casts that extend a signless integer (extsi, extui, in `casts.py`):
    the folders that look through an extension check for this class."""

@arith.op
class ConstantOp(Op):
    """A constant of integer, float, index, vector or tensor type."""

    name = "arith.constant"
    value = AttrDef(TypedAttr)
    result = ResultDef()
    traits = (Pure, ConstantLike, AllTypesMatch(("value", "result")), InferType())
    assembly_format = "attr-dict $value"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        value = attributes.get("value")
        if value is None or getattr(value, "type", None) is None:
            raise TypeInferenceError(cls.op_def.name, "needs a typed value")
        return [value.type]

    def verify_custom(self) -> None:
        type_ = self.result.type
        if isinstance(type_, IntegerType) and type_.signedness != "signless":
            raise VerificationError("integer return type must be signless")
        value = self.value
        if not isinstance(value, (IntegerAttr, FloatAttr, DenseElementsAttr,
                                  DenseResourceElementsAttr)):
            raise VerificationError("value must be an integer, float, or elements attribute")
        # MLIR's words, misspelling included (its lowerings only handle splats).
        if isinstance(type_, VectorType) and any(type_.scalable) and not (
                isinstance(value, DenseElementsAttr) and value.is_splat()):
            raise VerificationError("intializing scalable vectors with elements attribute is "
                                    "not supported unless it's a vector splat")

    def fold(self, operands):
        return self.value

    def asm_result_name(self) -> str:
        """MLIR's names: `%true`/`%false`, `%c42` for an index, `%c0_i32` for another
        integer, `%cst` for the rest."""
        value = self.value
        if isinstance(value, IntegerAttr):
            type_ = value.type
            if type_ == i1:
                return "true" if value.value else "false"
            return f"c{value.value}" if isinstance(type_, IndexType) else f"c{value.value}_{type_}"
        return "cst"


class _FloatBinaryOp(Op):
    lhs = OperandDef(FloatLike)
    rhs = OperandDef(FloatLike)
    result = ResultDef(FloatLike)
    fastmath = AttrDef(FastMathFlags, default=FASTMATH_NONE)
    traits = (Pure, SameOperandsAndResultType, ElementwiseMappable)
    assembly_format = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"


class _IntArithmeticOp(Op):
    lhs = OperandDef(SignlessIntegerLike)
    rhs = OperandDef(SignlessIntegerLike)
    result = ResultDef(SignlessIntegerLike)
    traits = (SameOperandsAndResultType, ElementwiseMappable)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"


class _IntBinaryOp(_IntArithmeticOp):
    traits = (Pure,)


class _IntDivisionOp(_IntArithmeticOp):
    """A division or remainder, which traps for some divisors: it may not be
    speculated (hoisted out of a loop, say) unless its divisor is known not to trap."""

    traits = (NoMemoryEffect, ConditionallySpeculatable())
    signed = False

    def speculatability(self) -> Speculatability:
        return division_speculatability(self.rhs, self.signed)


# `exact`: the result is poison unless the division (or right shift) drops no nonzero
# bits. Folders may ignore it: a poison result may become any value.
_EXACT_FORMAT = "$lhs `,` $rhs (`exact` $isExact^)? attr-dict `:` type($result)"


class _IntExactDivisionOp(_IntDivisionOp):
    isExact = AttrDef(UnitAttrConstraint, optional=True)  # noqa: N815 - MLIR's name
    assembly_format = _EXACT_FORMAT


class _IntExactShiftOp(_IntBinaryOp):
    isExact = AttrDef(UnitAttrConstraint, optional=True)  # noqa: N815 - MLIR's name
    assembly_format = _EXACT_FORMAT


class _IntOverflowBinaryOp(_IntBinaryOp):
    overflowFlags = AttrDef(IntegerOverflowFlags, default=OVERFLOW_NONE)  # noqa: N815 - MLIR's name
    assembly_format = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)"


# ------------------------------------------------------------------ float arithmetic


@arith.op
class AddFOp(_FloatBinaryOp):
    """Floating-point addition."""

    name = "arith.addf"
    traits = (Commutative,)

    def fold(self, operands):
        if is_float_value(operands[1], -0.0):  # x + (-0.0) is x, even for x = -0.0
            return self.lhs
        return fold_float_binary(operands, lambda a, b: a + b)


@arith.op
class SubFOp(_FloatBinaryOp):
    """Floating-point subtraction."""

    name = "arith.subf"

    def fold(self, operands):
        if is_float_value(operands[1], 0.0):  # x - (+0.0) is x
            return self.lhs
        return fold_float_binary(operands, lambda a, b: a - b)


@arith.op
class MulFOp(_FloatBinaryOp):
    """Floating-point multiplication."""

    name = "arith.mulf"
    traits = (Commutative,)

    def fold(self, operands):
        if is_float_value(operands[1], 1.0):
            return self.lhs
        # x * (+-0.0) is that zero when NaN operands and the sign of zero may be ignored.
        fastmath = self.fastmath.flags
        if FastMath.nnan in fastmath and FastMath.nsz in fastmath and \
                (is_float_value(operands[1], 0.0) or is_float_value(operands[1], -0.0)):
            return self.rhs
        return fold_float_binary(operands, lambda a, b: a * b)


def _ieee_div(a: float, b: float) -> float:
    if b == 0.0:
        if math.isnan(a) or a == 0.0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


@arith.op
class DivFOp(_FloatBinaryOp):
    """Floating-point division."""

    name = "arith.divf"

    def fold(self, operands):
        if is_float_value(operands[1], 1.0):
            return self.lhs
        return fold_float_binary(operands, _ieee_div)


@arith.op
class RemFOp(_FloatBinaryOp):
    """Floating-point remainder (C's fmod)."""

    name = "arith.remf"

    def fold(self, operands):
        return fold_float_binary(operands, math.fmod)


def _extremum(element: Type, greater: bool, propagate_nan: bool):
    """LLVM's APFloat maximum/minimum (`propagate_nan`: a NaN operand, quieted, is the
    result) or maxnum/minnum (a quiet NaN operand gives the other one; a signaling NaN
    gives itself quieted), on bit patterns; -0.0 orders below +0.0 in all four."""

    def pick(a: int, b: int) -> int:
        nan_a = math.isnan(bits_to_float(a, element))
        nan_b = math.isnan(bits_to_float(b, element))
        if propagate_nan:
            if nan_a or nan_b:
                return quieted(a if nan_a else b, element)
        else:
            for bits in (a, b):
                if is_signaling_nan(bits, element):
                    return quieted(bits, element)
            if nan_a:
                return b
            if nan_b:
                return a
        key_a, key_b = float_order_key(a, element), float_order_key(b, element)
        if key_a == key_b == 0 and a != b:  # +0.0 and -0.0: the sign bit decides
            negative = a if a > b else b
            positive = b if negative == a else a
            return positive if greater else negative
        if greater:
            return b if key_a < key_b else a
        return b if key_b < key_a else a

    return pick


class _FloatExtremumOp(_FloatBinaryOp):
    """maximumf/minimumf/maxnumf/minnumf: which extreme, and what a NaN does."""

    traits = (Commutative,)
    greater = True
    propagates_nan = True

    def fold(self, operands):
        if self.lhs is self.rhs:
            return self.rhs
        if self.propagates_nan:
            # The identity: -inf for maximumf, +inf for minimumf.
            if is_float_value(operands[1], -math.inf if self.greater else math.inf):
                return self.lhs
        elif is_nan(operands[1]):
            return self.lhs
        poison = poison_of(operands)
        if poison is not None:
            return poison
        element = element_type_of(self.result.type)
        return fold_binary(operands, _extremum(element, self.greater, self.propagates_nan))


@arith.op
class MaximumFOp(_FloatExtremumOp):
    """IEEE-754 2019 maximum: NaN if either operand is NaN, and -0.0 < +0.0."""

    name = "arith.maximumf"


@arith.op
class MinimumFOp(_FloatExtremumOp):
    """IEEE-754 2019 minimum: NaN if either operand is NaN, and -0.0 < +0.0."""

    name = "arith.minimumf"
    greater = False


@arith.op
class MaxNumFOp(_FloatExtremumOp):
    """Maximum ignoring NaN: a NaN operand gives the other operand (a NaN only if both
    are); -0.0 < +0.0.

    As IEEE-754 2008's maxNum, which LLVM's constant folder follows: a signaling NaN
    operand gives a quiet NaN."""

    name = "arith.maxnumf"
    propagates_nan = False


@arith.op
class MinNumFOp(_FloatExtremumOp):
    """Minimum ignoring NaN: a NaN operand gives the other operand (a NaN only if both
    are); -0.0 < +0.0.

    As IEEE-754 2008's minNum, which LLVM's constant folder follows: a signaling NaN
    operand gives a quiet NaN."""

    name = "arith.minnumf"
    greater = False
    propagates_nan = False


@arith.op
class NegFOp(Op):
    """Floating-point negation."""

    name = "arith.negf"
    operand = OperandDef(FloatLike)
    result = ResultDef(FloatLike)
    fastmath = AttrDef(FastMathFlags, default=FASTMATH_NONE)
    traits = (Pure, SameOperandsAndResultType, ElementwiseMappable)
    assembly_format = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"

    def fold(self, operands):
        source = self.operand.defining_op
        if isinstance(source, NegFOp):
            return source.operand
        if is_poison(operands[0]):
            return operands[0]
        scalars = constant_scalars(operands[0])
        if scalars is None:
            return None
        type_, bits = scalars
        element = element_type_of(type_)
        return make_constant(type_, bits ^ (1 << (element.width - 1)))


# ------------------------------------------------------------------ integer arithmetic


@arith.op
class AddIOp(_IntOverflowBinaryOp):
    """Integer addition, wrapping around."""

    name = "arith.addi"
    traits = (Commutative,)

    def fold(self, operands):
        if is_int_value(operands[1], 0):
            return self.lhs
        # (a - b) + b -> a, and b + (a - b) -> a
        for sub, other in ((self.lhs, self.rhs), (self.rhs, self.lhs)):
            source = sub.defining_op
            if isinstance(source, SubIOp) and source.rhs is other:
                return source.lhs
        return fold_int_binary(operands, lambda a, b, t: a + b)


@arith.op
class SubIOp(_IntOverflowBinaryOp):
    """Integer subtraction, wrapping around."""

    name = "arith.subi"

    def fold(self, operands):
        if self.lhs is self.rhs:
            return make_constant(self.result.type, 0)
        if is_int_value(operands[1], 0):
            return self.lhs
        # (a + b) - b -> a, and (a + b) - a -> b
        source = self.lhs.defining_op
        if isinstance(source, AddIOp):
            if source.rhs is self.rhs:
                return source.lhs
            if source.lhs is self.rhs:
                return source.rhs
        return fold_int_binary(operands, lambda a, b, t: a - b)


@arith.op
class MulIOp(_IntOverflowBinaryOp):
    """Integer multiplication, wrapping around."""

    name = "arith.muli"
    traits = (Commutative,)

    def fold(self, operands):
        if is_int_value(operands[1], 0):
            return operands[1]
        if is_int_value(operands[1], 1):
            return self.lhs
        return fold_int_binary(operands, lambda a, b, t: a * b)


def _div_signed(a: int, b: int, t) -> int | None:
    a, b = as_signed(a, t), as_signed(b, t)
    if b == 0:
        return None
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _rem_signed(a: int, b: int, t) -> int | None:
    a, b = as_signed(a, t), as_signed(b, t)
    if b == 0:
        return None
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def _div_unsigned(a: int, b: int, t) -> int | None:
    b = to_unsigned(b, t)
    return None if b == 0 else to_unsigned(a, t) // b


def _rem_unsigned(a: int, b: int, t) -> int | None:
    b = to_unsigned(b, t)
    return None if b == 0 else to_unsigned(a, t) % b


def _signed_min(t) -> int:
    return -(1 << (int_width(t) - 1))


def _overflows_signed_division(operands) -> bool:
    lhs, rhs = (constant_scalars(a) for a in operands)
    if lhs is None or rhs is None:
        return False
    return as_signed(lhs[1], lhs[0]) == _signed_min(lhs[0]) and as_signed(rhs[1], rhs[0]) == -1


def _ceil_div_signed(a: int, b: int, t) -> int | None:
    """Signed division rounding up, as MLIR folds it: refused for a zero divisor, and
    whenever its two's-complement steps would negate the minimum value (MIN / -1
    overflows; MLIR's folder also leaves every other division of or by MIN alone)."""
    a, b = as_signed(a, t), as_signed(b, t)
    if b == 0:
        return None
    if a == 0:
        return 0
    if _signed_min(t) in (a, b):
        return None
    return -(-a // b)


def _ceil_div_unsigned(a: int, b: int, t) -> int | None:
    a, b = to_unsigned(a, t), to_unsigned(b, t)
    if b == 0:
        return None
    return -(-a // b)


def _floor_div_signed(a: int, b: int, t) -> int | None:
    a, b = as_signed(a, t), as_signed(b, t)
    if b == 0 or (a == _signed_min(t) and b == -1):
        return None
    return a // b


def _quotient_of_product(lhs, rhs, required: Overflow):
    """`(a * b) / b` is `a` when the product cannot have wrapped: the muli carries the
    flag (`nuw` for an unsigned division, `nsw` for a signed one)."""
    product = lhs.defining_op
    if not isinstance(product, MulIOp) or required not in product.overflowFlags.flags:
        return None
    if product.lhs is rhs:
        return product.rhs
    if product.rhs is rhs:
        return product.lhs
    return None


@arith.op
class DivSIOp(_IntExactDivisionOp):
    """Signed integer division, rounding toward zero.

    Division by zero and the overflowing `MIN / -1` are undefined behaviour; with
    `exact`, so is a nonzero remainder (the result is poison)."""

    name = "arith.divsi"
    signed = True

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return self.lhs
        quotient = _quotient_of_product(self.lhs, self.rhs, Overflow.nsw)
        if quotient is not None:
            return quotient
        if _overflows_signed_division(operands):
            return None
        return fold_int_binary(operands, _div_signed)


@arith.op
class DivUIOp(_IntExactDivisionOp):
    """Unsigned integer division.

    Division by zero is undefined behaviour; with `exact`, so is a nonzero remainder
    (the result is poison)."""

    name = "arith.divui"

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return self.lhs
        quotient = _quotient_of_product(self.lhs, self.rhs, Overflow.nuw)
        if quotient is not None:
            return quotient
        return fold_int_binary(operands, _div_unsigned)


@arith.op
class CeilDivSIOp(_IntDivisionOp):
    """Signed integer division, rounding toward positive infinity (`7 / -2 = -3`).

    Division by zero and the overflowing `MIN / -1` are undefined behaviour."""

    name = "arith.ceildivsi"
    signed = True

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return self.lhs
        return fold_int_binary(operands, _ceil_div_signed)


@arith.op
class CeilDivUIOp(_IntDivisionOp):
    """Unsigned integer division, rounding toward positive infinity.

    Division by zero is undefined behaviour."""

    name = "arith.ceildivui"

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return self.lhs
        return fold_int_binary(operands, _ceil_div_unsigned)


@arith.op
class FloorDivSIOp(_IntDivisionOp):
    """Signed integer division, rounding toward negative infinity (`5 / -2 = -3`).

    Division by zero and the overflowing `MIN / -1` are undefined behaviour (MLIR 22
    nevertheless declares the op pure and hoists it: mlc does not)."""

    name = "arith.floordivsi"
    signed = True

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return self.lhs
        return fold_int_binary(operands, _floor_div_signed)


@arith.op
class RemSIOp(_IntDivisionOp):
    """Signed integer remainder; its sign is the dividend's. By zero, and `MIN % -1`,
    it is undefined behaviour (MLIR 22 declares the op pure and hoists it: mlc does not)."""

    name = "arith.remsi"
    signed = True

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return make_constant(self.result.type, 0)
        return fold_int_binary(operands, _rem_signed)


@arith.op
class RemUIOp(_IntDivisionOp):
    """Unsigned integer remainder; by zero it is undefined behaviour (MLIR 22 declares
    the op pure and hoists it: mlc does not)."""

    name = "arith.remui"

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return make_constant(self.result.type, 0)
        return fold_int_binary(operands, _rem_unsigned)


@arith.op
class AndIOp(_IntBinaryOp):
    """Bitwise and."""

    name = "arith.andi"
    traits = (Commutative,)

    def fold(self, operands):
        if self.lhs is self.rhs:
            return self.lhs
        if is_int_value(operands[1], 0):
            return operands[1]
        if is_int_value(operands[1], -1):
            return self.lhs
        for inner, other in ((self.lhs, self.rhs), (self.rhs, self.lhs)):
            source = inner.defining_op
            # x & ~x -> 0, whichever side of the xori x is on
            if isinstance(source, XOrIOp) and source.lhs is other and \
                    is_int_value(constant_value_of(source.rhs), -1):
                return make_constant(self.result.type, 0)
            # a & (a & b) -> a & b
            if isinstance(source, AndIOp) and other in (source.lhs, source.rhs):
                return inner
        return fold_int_binary(operands, lambda a, b, t: a & b)


@arith.op
class OrIOp(_IntBinaryOp):
    """Bitwise or."""

    name = "arith.ori"
    traits = (Commutative,)

    def fold(self, operands):
        if self.lhs is self.rhs:
            return self.lhs
        if is_int_value(operands[1], 0):
            return self.lhs
        if is_int_value(operands[1], -1):
            return operands[1]
        # x | ~x is all ones, whichever side of the xori x is on
        for inner, other in ((self.lhs, self.rhs), (self.rhs, self.lhs)):
            source = inner.defining_op
            if isinstance(source, XOrIOp) and other in (source.lhs, source.rhs):
                mask = source.rhs if source.lhs is other else source.lhs
                if is_int_value(constant_value_of(mask), -1):
                    return make_constant(self.result.type, -1)
        return fold_int_binary(operands, lambda a, b, t: a | b)


@arith.op
class XOrIOp(_IntBinaryOp):
    """Bitwise exclusive or."""

    name = "arith.xori"
    traits = (Commutative,)

    def fold(self, operands):
        if self.lhs is self.rhs:
            return make_constant(self.result.type, 0)
        if is_int_value(operands[1], 0):
            return self.lhs
        # x ^ a ^ a is x, whichever side of either xori `a` is on.
        for inner, other in ((self.lhs, self.rhs), (self.rhs, self.lhs)):
            source = inner.defining_op
            if isinstance(source, XOrIOp):
                if source.rhs is other:
                    return source.lhs
                if source.lhs is other:
                    return source.rhs
        return fold_int_binary(operands, lambda a, b, t: a ^ b)


def _fold_shift(op: Op, operands, direction: str):
    """A shift by the rhs read as unsigned: by zero it is the lhs; by the bit width or
    more the result is poison, which is not folded (nor is a shift of poison, as in
    MLIR)."""
    if is_int_value(operands[1], 0):
        return op.lhs
    if poison_of(operands) is not None:
        return None

    def shifted(a: int, b: int, t) -> int | None:
        amount = to_unsigned(b, t)
        if amount >= int_width(t):
            return None
        if direction == "left":
            return a << amount
        if direction == "right, zeros":
            return to_unsigned(a, t) >> amount
        return as_signed(a, t) >> amount

    return fold_int_binary(operands, shifted)


@arith.op
class ShLIOp(_IntOverflowBinaryOp):
    """Left shift, filling with zeros; the rhs is read as unsigned.

    Shifting by the bit width or more gives poison, as does a shift that changes the
    value read as signed (`nsw`) or drops a one bit (`nuw`)."""

    name = "arith.shli"

    def fold(self, operands):
        return _fold_shift(self, operands, "left")


@arith.op
class ShRUIOp(_IntExactShiftOp):
    """Logical right shift, filling with zeros; both operands are read as unsigned.

    Shifting by the bit width or more gives poison, as does shifting out a one bit
    under `exact`."""

    name = "arith.shrui"

    def fold(self, operands):
        return _fold_shift(self, operands, "right, zeros")


@arith.op
class ShRSIOp(_IntExactShiftOp):
    """Arithmetic right shift, filling with copies of the sign bit; the rhs is read as
    unsigned.

    Shifting by the bit width or more gives poison, as does shifting out a one bit
    under `exact`."""

    name = "arith.shrsi"

    def fold(self, operands):
        return _fold_shift(self, operands, "right, sign")


class _IntExtremumOp(_IntBinaryOp):
    """maxsi/maxui/minsi/minui: which extreme, in which reading of the bits."""

    traits = (Commutative,)
    signed = True
    greater = True

    def fold(self, operands):
        if self.lhs is self.rhs:
            return self.rhs
        read = as_signed if self.signed else to_unsigned
        scalars = constant_scalars(operands[1])
        if scalars is not None:
            type_, value = scalars
            width = int_width(type_)
            low, high = ((-(1 << (width - 1)), (1 << (width - 1)) - 1) if self.signed
                         else (0, (1 << width) - 1))
            absorbing, identity = (high, low) if self.greater else (low, high)
            if read(value, type_) == absorbing:
                return self.rhs
            if read(value, type_) == identity:
                return self.lhs
        pick = max if self.greater else min
        return fold_int_binary(operands, lambda a, b, t: pick(read(a, t), read(b, t)))


@arith.op
class MaxSIOp(_IntExtremumOp):
    """Signed integer maximum."""

    name = "arith.maxsi"


@arith.op
class MaxUIOp(_IntExtremumOp):
    """Unsigned integer maximum."""

    name = "arith.maxui"
    signed = False


@arith.op
class MinSIOp(_IntExtremumOp):
    """Signed integer minimum."""

    name = "arith.minsi"
    greater = False


@arith.op
class MinUIOp(_IntExtremumOp):
    """Unsigned integer minimum."""

    name = "arith.minui"
    signed = False
    greater = False


# ------------------------------------------------------------------ extended arithmetic


@arith.op
class AddUIExtendedOp(Op):
    """Integer addition with its unsigned carry: the wrapped sum, and whether the sum
    of the operands read as unsigned overflowed (`i1`, or a shaped `i1`)."""

    name = "arith.addui_extended"
    lhs = OperandDef(SignlessIntegerLike)
    rhs = OperandDef(SignlessIntegerLike)
    sum = ResultDef(SignlessIntegerLike)
    overflow = ResultDef(BoolLike)
    traits = (Pure, Commutative, AllTypesMatch(("lhs", "rhs", "sum")), ElementwiseMappable)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)"

    def fold(self, operands):
        if poison_of(operands) is not None:
            return None  # (mlir-opt-22 crashes here)
        overflow_type = self.overflow.type
        if is_int_value(operands[1], 0):
            no_carry = make_constant(overflow_type, 0)
            return None if no_carry is None else [self.lhs, no_carry]

        def wrapped_sum(a: int, b: int, t) -> int:
            return a + b

        def carry(a: int, b: int) -> int:
            type_ = self.lhs.type
            return int(to_unsigned(a + b, type_) < to_unsigned(a, type_))

        total = fold_int_binary(operands, wrapped_sum)
        if total is None:
            return None
        return [total, fold_binary(operands, carry, overflow_type)]


class _MulExtendedOp(Op):
    """mulsi_extended/mului_extended: the low and high halves of the double-width
    product of the operands read as signed or unsigned."""

    lhs = OperandDef(SignlessIntegerLike)
    rhs = OperandDef(SignlessIntegerLike)
    low = ResultDef(SignlessIntegerLike)
    high = ResultDef(SignlessIntegerLike)
    traits = (Pure, Commutative, AllTypesMatch(("lhs", "rhs", "low", "high")),
              ElementwiseMappable)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs)"
    signed = True

    def fold(self, operands):
        if is_int_value(operands[1], 0):
            return [operands[1], operands[1]]
        if not self.signed and is_int_value(operands[1], 1):
            zero = make_constant(self.lhs.type, 0)
            return None if zero is None else [self.lhs, zero]
        read = as_signed if self.signed else to_unsigned
        low = fold_int_binary(operands, lambda a, b, t: a * b)
        if low is None:
            return None
        high = fold_int_binary(
            operands, lambda a, b, t: (read(a, t) * read(b, t)) >> int_width(t))
        return [low, high]


@arith.op
class MulSIExtendedOp(_MulExtendedOp):
    """Signed multiplication giving both halves of the double-width product; the low
    half is `arith.muli`'s result."""

    name = "arith.mulsi_extended"


@arith.op
class MulUIExtendedOp(_MulExtendedOp):
    """Unsigned multiplication giving both halves of the double-width product; the low
    half is `arith.muli`'s result."""

    name = "arith.mului_extended"
    signed = False


# ------------------------------------------------------------------ comparisons and select


def bool_like_of(type_: Type) -> Type:
    """`i1`, or the vector or tensor of `i1` of `type_`'s shape."""
    return with_element_type(type_, i1)


# A comparison's result: i1, or of i1 elements in the operands' shape (MLIR's
# TypesMatchWith on its comparisons).
RESULT_IS_BOOL_OF_OPERANDS = OpPredicate(
    "result type has i1 element type and same shape as operands",
    lambda op: op.result.type == bool_like_of(op.lhs.type))

_SWAPPED_CMPI = {"eq": "eq", "ne": "ne", "slt": "sgt", "sgt": "slt", "sle": "sge", "sge": "sle",
                 "ult": "ugt", "ugt": "ult", "ule": "uge", "uge": "ule"}
_SIGNED_CMP = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "slt": lambda a, b: a < b,
               "sle": lambda a, b: a <= b, "sgt": lambda a, b: a > b, "sge": lambda a, b: a >= b}
_UNSIGNED_CMP = {"ult": lambda a, b: a < b, "ule": lambda a, b: a <= b,
                 "ugt": lambda a, b: a > b, "uge": lambda a, b: a >= b}


@arith.op
class CmpIOp(Op):
    """Integer comparison; the result is `i1` (or a shaped `i1` for shaped operands)."""

    name = "arith.cmpi"
    predicate = AttrDef(CmpIPredicate)
    lhs = OperandDef(SignlessIntegerLike)
    rhs = OperandDef(SignlessIntegerLike)
    result = ResultDef(BoolLike)
    traits = (Pure, SameTypeOperands, RESULT_IS_BOOL_OF_OPERANDS, InferType(), ElementwiseMappable)
    assembly_format = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [bool_like_of(operand_types[0])]

    def fold(self, operands):
        predicate = CmpIPredicate.keyword(self.predicate)
        if self.lhs is self.rhs:
            value = predicate in ("eq", "sle", "sge", "ule", "uge")
            return make_constant(self.result.type, int(value))
        if operands[0] is not None and operands[1] is None:
            # A constant goes to the right, the predicate mirrored: c < x is x > c.
            self.predicate = CmpIPredicate.attr(_SWAPPED_CMPI[predicate])
            lhs, rhs = self.lhs, self.rhs
            self.set_operand(0, rhs)
            self.set_operand(1, lhs)
            return self.result  # folded in place
        if element_type_of(self.lhs.type) == i1:
            # On i1: x != false and x == true are x.
            if (predicate == "ne" and is_int_value(operands[1], 0)) or \
                    (predicate == "eq" and is_int_value(operands[1], 1)):
                return self.lhs
        if predicate == "ne" and is_int_value(operands[1], 0):
            # ext(b) != 0 is b, for an extension of an i1 b.
            source = self.lhs.defining_op
            if isinstance(source, IntegerExtension) and \
                    element_type_of(source.operand(0).type) == i1:
                return source.operand(0)
        type_ = self.lhs.type
        if predicate in _SIGNED_CMP:
            compare, read = _SIGNED_CMP[predicate], as_signed
        else:
            compare, read = _UNSIGNED_CMP[predicate], to_unsigned
        return fold_binary(operands, lambda a, b: int(compare(read(a, type_), read(b, type_))),
                           self.result.type)


def _cmpf(predicate: str, a: float, b: float) -> bool:
    unordered = math.isnan(a) or math.isnan(b)
    if predicate == "false":
        return False
    if predicate == "true":
        return True
    if predicate == "ord":
        return not unordered
    if predicate == "uno":
        return unordered
    relation = predicate[1:]
    compare = {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b,
               "ne": a != b}[relation]
    if predicate[0] == "o":
        return not unordered and compare
    return unordered or compare


@arith.op
class CmpFOp(Op):
    """Floating-point comparison, ordered (`o...`) or unordered (`u...`)."""

    name = "arith.cmpf"
    predicate = AttrDef(CmpFPredicate)
    lhs = OperandDef(FloatLike)
    rhs = OperandDef(FloatLike)
    result = ResultDef(BoolLike)
    fastmath = AttrDef(FastMathFlags, default=FASTMATH_NONE)
    traits = (Pure, SameTypeOperands, RESULT_IS_BOOL_OF_OPERANDS, InferType(), ElementwiseMappable)
    assembly_format = ("$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict "
                       "`:` type($lhs)")

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [bool_like_of(operand_types[0])]

    def fold(self, operands):
        predicate = CmpFPredicate.keyword(self.predicate)
        if is_nan(operands[0]) or is_nan(operands[1]):
            # Against NaN every element compares unordered, whatever the other operand.
            return make_constant(self.result.type, int(_cmpf(predicate, math.nan, math.nan)))
        element = element_type_of(self.lhs.type)
        return fold_binary(
            operands,
            lambda a, b: int(_cmpf(predicate, bits_to_float(a, element), bits_to_float(b, element))),
            self.result.type)


def _condition_fits(op: Operation) -> bool:
    """A select's condition is i1, or has the result's shape (any encoding)."""
    condition = op.condition.type
    shape = getattr(op.result.type, "shape", None)
    return condition == i1 or (shape is not None and getattr(condition, "shape", None) == shape)


@arith.op
class SelectOp(Op):
    """`condition ? true_value : false_value`, elementwise for a shaped condition."""

    name = "arith.select"
    condition = OperandDef(BoolLike)
    true_value = OperandDef()
    false_value = OperandDef()
    result = ResultDef()
    traits = (Pure, AllTypesMatch(("true_value", "false_value", "result")),
              OpPredicate("condition is signless i1 or has matching shape", _condition_fits),
              InferType(), ElementwiseMappable)
    assembly_format = ("$condition `,` $true_value `,` $false_value attr-dict `:` "
                       "custom<SelectTypes>(type($condition), type($result))")

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [operand_types[1]]

    def verify_custom(self) -> None:
        condition, result = self.condition.type, self.result.type
        if condition == i1:
            return
        if not isinstance(result, (VectorType, RankedTensorType, UnrankedTensorType)):
            raise VerificationError(f"expected condition to be a signless i1, but got "
                                    f"'{condition}'")
        if condition != bool_like_of(result):
            raise VerificationError(f"expected condition type to have the same shape as the "
                                    f"result type, expected '{bool_like_of(result)}', but got "
                                    f"'{condition}'")

    def fold(self, operands):
        if self.true_value is self.false_value:
            return self.true_value
        if is_int_value(operands[0], 1):
            return self.true_value
        if is_int_value(operands[0], 0):
            return self.false_value
        if self.result.type == i1 and is_int_value(operands[1], 1) and \
                is_int_value(operands[2], 0):
            return self.condition  # select(c, true, false) is c
        # select(a == b, a, b) is b, and select(a != b, a, b) is a (either way round).
        compare = self.condition.defining_op
        if isinstance(compare, CmpIOp):
            predicate = CmpIPredicate.keyword(compare.predicate)
            values = {self.true_value, self.false_value}
            if predicate in ("eq", "ne") and self.true_value is not self.false_value and \
                    {compare.lhs, compare.rhs} == values:
                return self.true_value if predicate == "ne" else self.false_value
        # Poison may be any value: the other one.
        if is_poison(operands[1]):
            return self.false_value
        if is_poison(operands[2]):
            return self.true_value
        return _select_elements(operands)


def _select_elements(operands) -> Attribute | None:
    """Elementwise select of dense constants under a dense constant condition."""
    condition = constant_elements(operands[0])
    if condition is None:
        return None
    count = len(condition[1])
    sides = []
    for attr in operands[1:]:
        elements = constant_elements(attr)
        if elements is None:  # a splat side: its one value, everywhere
            scalars = constant_scalars(attr)
            if scalars is None or not isinstance(attr, DenseElementsAttr):
                return None
            elements = (scalars[0], [scalars[1]] * count)
        sides.append(elements)
    if sides[0][0] != sides[1][0]:
        return None
    picked = [t if c else f for c, t, f in zip(condition[1], sides[0][1], sides[1][1])]
    return dense_of(picked, sides[0][0])


class SelectTypes(Directive):
    """`: type` when the condition is `i1`, else `: condition_type, type`."""

    name = "SelectTypes"

    def parse(self, p):
        first = p.parse_type()
        if p.parse_optional_comma():
            return first, p.parse_type()
        return i1, first

    def print(self, w, op, condition_type, result_type) -> None:
        if condition_type != i1:
            w.type(condition_type)
            w.write(", ")
        w.type(result_type)


arith.directive(SelectTypes())
