"""The `arith` dialect: integer and floating-point arithmetic on scalars, vectors and
tensors, with MLIR's op names, syntax and folders."""

from __future__ import annotations

import enum
import math
from typing import Annotated

from mlc.ir.core.attributes import (
    Attribute,
    DenseElementsAttr,
    DialectAttribute,
    FloatAttr,
    FloatType,
    IndexType,
    IntegerAttr,
    IntegerType,
    Location,
    RankedTensorType,
    Type,
    VectorType,
    bits_to_float,
    extend_float_bits,
    float_to_bits,
    i1,
)
from mlc.ir.core.ir import Operation
from mlc.ir.dialect import Dialect
from mlc.ir.dialects.arith_constants import (
    as_signed,
    constant_scalars,
    constant_value_of,
    element_type_of,
    fold_binary,
    fold_float_binary,
    fold_int_binary,
    int_to_float_bits,
    is_float_value,
    is_int_value,
    is_nan,
    make_constant,
    to_unsigned,
    wrap_int,
)
from mlc.ir.interfaces.cast import NARROWER, WIDER, Cast, CastRule
from mlc.ir.interfaces.infer_type import InferType, TypeInferenceError
from mlc.ir.interfaces.side_effects import ConditionallySpeculatable, Speculatability
from mlc.ir.opdef.constraints import (
    AnyFloat,
    AnySignlessInteger,
    BoolLike,
    FloatLike,
    Index,
    IntEnum,
    SignlessIntegerLike,
    TypedAttr,
    TypeMatches,
)
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.directive import Directive
from mlc.ir.opdef.spelling import BitEnumSpelling
from mlc.ir.opdef.traits import (
    AllTypesMatch,
    Commutative,
    ConstantLike,
    NoMemoryEffect,
    Pure,
    SameOperandsAndResultType,
)


class ArithDialect(Dialect):
    def materialize_constant(self, value: Attribute, type_: Type, loc: Location) -> Operation | None:
        if isinstance(value, (IntegerAttr, FloatAttr, DenseElementsAttr)) and value.type == type_:
            return ConstantOp.build(value=value, loc=loc)
        return None


arith = ArithDialect("arith", "Integer and floating-point arithmetic.")


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


# ------------------------------------------------------------------ ops


@arith.op
class ConstantOp(Op):
    """A constant of integer, float, index, vector or tensor type."""

    name = "arith.constant"
    value = AttrDef(TypedAttr)
    result = ResultDef()
    traits = (Pure, ConstantLike, InferType())
    assembly_format = "attr-dict $value"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        value = attributes.get("value")
        if value is None or not hasattr(value, "type"):
            raise TypeInferenceError(cls.op_def.name, "needs a typed value")
        return [value.type]

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
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"


class _IntArithmeticOp(Op):
    lhs = OperandDef(SignlessIntegerLike)
    rhs = OperandDef(SignlessIntegerLike)
    result = ResultDef(SignlessIntegerLike)
    traits = (SameOperandsAndResultType,)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"


class _IntBinaryOp(_IntArithmeticOp):
    traits = (Pure,)


class _IntDivisionOp(_IntArithmeticOp):
    """A division, which traps for some divisors: it may not be speculated (hoisted
    out of a loop, say) unless the divisor is a constant that cannot trap."""

    traits = (NoMemoryEffect, ConditionallySpeculatable())
    signed = False

    def speculatability(self) -> Speculatability:
        scalars = constant_scalars(constant_value_of(self.rhs))
        if scalars is None:
            return Speculatability.NOT_SPECULATABLE
        divisor = wrap_int(scalars[1], scalars[0])
        # Zero traps; so does -1 in a signed division (of the minimum value).
        if divisor == 0 or (self.signed and divisor == wrap_int(-1, scalars[0])):
            return Speculatability.NOT_SPECULATABLE
        return Speculatability.SPECULATABLE


class _IntOverflowBinaryOp(_IntBinaryOp):
    overflowFlags = AttrDef(IntegerOverflowFlags, default=OVERFLOW_NONE)  # noqa: N815 - MLIR's name
    assembly_format = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)"


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


def _maximum(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b == 0.0:
        return a if math.copysign(1.0, a) > 0 else b
    return max(a, b)


def _minimum(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b == 0.0:
        return a if math.copysign(1.0, a) < 0 else b
    return min(a, b)


@arith.op
class MaximumFOp(_FloatBinaryOp):
    """IEEE-754 maximum: NaN if either operand is NaN, and -0.0 < +0.0."""

    name = "arith.maximumf"
    traits = (Commutative,)

    def fold(self, operands):
        if self.lhs is self.rhs:
            return self.lhs
        if is_float_value(operands[1], -math.inf):
            return self.lhs
        return fold_float_binary(operands, _maximum)


@arith.op
class MinimumFOp(_FloatBinaryOp):
    """IEEE-754 minimum: NaN if either operand is NaN, and -0.0 < +0.0."""

    name = "arith.minimumf"
    traits = (Commutative,)

    def fold(self, operands):
        if self.lhs is self.rhs:
            return self.lhs
        if is_float_value(operands[1], math.inf):
            return self.lhs
        return fold_float_binary(operands, _minimum)


@arith.op
class NegFOp(Op):
    """Floating-point negation."""

    name = "arith.negf"
    operand = OperandDef(FloatLike)
    result = ResultDef(FloatLike)
    fastmath = AttrDef(FastMathFlags, default=FASTMATH_NONE)
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"

    def fold(self, operands):
        source = self.operand.defining_op
        if isinstance(source, NegFOp):
            return source.operand
        scalars = constant_scalars(operands[0])
        if scalars is None:
            return None
        type_, bits = scalars
        element = element_type_of(type_)
        return make_constant(type_, bits ^ (1 << (element.width - 1)))


@arith.op
class AddIOp(_IntOverflowBinaryOp):
    """Integer addition, wrapping around."""

    name = "arith.addi"
    traits = (Commutative,)

    def fold(self, operands):
        if is_int_value(operands[1], 0):
            return self.lhs
        # (a - b) + b -> a
        source = self.lhs.defining_op
        if isinstance(source, SubIOp) and source.rhs is self.rhs:
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


def _overflows_signed_division(operands) -> bool:
    lhs, rhs = (constant_scalars(a) for a in operands)
    if lhs is None or rhs is None:
        return False
    element = element_type_of(lhs[0])
    width = 64 if isinstance(element, IndexType) else element.width
    return wrap_int(lhs[1], lhs[0]) == -(1 << (width - 1)) and wrap_int(rhs[1], rhs[0]) == -1


@arith.op
class DivSIOp(_IntDivisionOp):
    """Signed integer division, rounding toward zero."""

    name = "arith.divsi"
    signed = True

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return self.lhs
        if _overflows_signed_division(operands):
            return None
        return fold_int_binary(operands, _div_signed)


@arith.op
class DivUIOp(_IntDivisionOp):
    """Unsigned integer division."""

    name = "arith.divui"

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return self.lhs
        return fold_int_binary(operands, _div_unsigned)


@arith.op
class RemSIOp(_IntBinaryOp):
    """Signed integer remainder; its sign is the dividend's."""

    name = "arith.remsi"

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return make_constant(self.result.type, 0)
        return fold_int_binary(operands, _rem_signed)


@arith.op
class RemUIOp(_IntBinaryOp):
    """Unsigned integer remainder."""

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


def _bool_like_of(type_: Type) -> Type:
    if isinstance(type_, RankedTensorType):
        return RankedTensorType(type_.shape, i1, type_.encoding)
    if isinstance(type_, VectorType):
        return VectorType(type_.shape, i1)
    return i1


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
    traits = (Pure, AllTypesMatch(("lhs", "rhs")), InferType())
    assembly_format = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [_bool_like_of(operand_types[0])]

    def fold(self, operands):
        predicate = CmpIPredicate.keyword(self.predicate)
        if self.lhs is self.rhs:
            value = predicate in ("eq", "sle", "sge", "ule", "uge")
            return make_constant(self.result.type, int(value))
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
    traits = (Pure, AllTypesMatch(("lhs", "rhs")), InferType())
    assembly_format = ("$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict "
                       "`:` type($lhs)")

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [_bool_like_of(operand_types[0])]

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


@arith.op
class SelectOp(Op):
    """`condition ? true_value : false_value`, elementwise for a shaped condition."""

    name = "arith.select"
    condition = OperandDef(BoolLike)
    true_value = OperandDef()
    false_value = OperandDef()
    result = ResultDef()
    traits = (Pure, InferType(), AllTypesMatch(("true_value", "false_value", "result")))
    assembly_format = ("$condition `,` $true_value `,` $false_value attr-dict `:` "
                       "custom<SelectTypes>(type($condition), type($result))")

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [operand_types[1]]

    def verify_custom(self) -> None:
        if not (self.true_value.type == self.false_value.type == self.result.type):
            raise VerificationError("requires the true and false values and the result to have "
                                    "the same type")
        condition = self.condition.type
        if condition != i1 and condition != _bool_like_of(self.result.type):
            raise VerificationError(f"expected condition type to be i1 or to have the shape of "
                                    f"the result, got {condition}")

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
        return None


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


# ------------------------------------------------------------------ casts


class _CastOp(Op):
    """An elementwise cast; each op declares the (source, target) types it allows."""

    input = OperandDef()
    out = ResultDef()
    traits = (Pure,)
    assembly_format = "$input attr-dict `:` type($input) `to` type($out)"
    # Whether a chain of two such casts is one: ext(ext(x)) is ext(x), trunc(trunc(x))
    # is trunc(x).
    chains_collapse = False

    def fold(self, operands):
        source = self.input.defining_op
        if self.chains_collapse and type(source) is type(self):
            self.set_operand(0, source.input)  # folded in place
            return self.out
        scalars = constant_scalars(operands[0])
        if scalars is None:
            return None
        source_type, value = scalars
        source = element_type_of(source_type)
        target = element_type_of(self.out.type)
        converted = _CAST_FOLDS[self.op_def.name](value, source, target)
        if converted is None:
            return None
        if _int_like(target):
            converted = wrap_int(converted, target)
        return make_constant(self.out.type, converted)


def _int_like(t: Type) -> bool:
    return isinstance(t, (IntegerType, IndexType))


def _elementwise_cast(*rules: CastRule) -> Cast:
    return Cast(*rules, elementwise=True)


INT_TO_FLOAT = _elementwise_cast(CastRule(AnySignlessInteger, AnyFloat))
FLOAT_TO_INT = _elementwise_cast(CastRule(AnyFloat, AnySignlessInteger))


def _fold_float_to_int(signed: bool):
    def fold(bits: int, s: FloatType, t: IntegerType) -> int | None:
        value = bits_to_float(bits, s)
        if math.isnan(value) or math.isinf(value):
            return None
        truncated = int(value)
        low, high = ((-(1 << (t.width - 1)), (1 << (t.width - 1)) - 1) if signed
                     else (0, (1 << t.width) - 1))
        return truncated if low <= truncated <= high else None

    return fold


_CAST_FOLDS = {
    "arith.index_cast": lambda v, s, t: as_signed(v, s),
    "arith.sitofp": lambda v, s, t: int_to_float_bits(as_signed(v, s), t),
    "arith.uitofp": lambda v, s, t: int_to_float_bits(to_unsigned(v, s), t),
    "arith.fptosi": _fold_float_to_int(True),
    "arith.fptoui": _fold_float_to_int(False),
    "arith.extf": extend_float_bits,
    "arith.truncf": lambda v, s, t: float_to_bits(bits_to_float(v, s), t),
    "arith.extsi": lambda v, s, t: as_signed(v, s),
    "arith.extui": lambda v, s, t: to_unsigned(v, s),
    "arith.trunci": lambda v, s, t: v,
}


@arith.op
class IndexCastOp(_CastOp):
    """Between `index` and a signless integer (sign-extending or truncating)."""

    name = "arith.index_cast"
    traits = (_elementwise_cast(CastRule(Index, AnySignlessInteger), CastRule(AnySignlessInteger, Index)),)
    input = OperandDef(TypeMatches(lambda t: _int_like(element_type_of(t)), "integer or index"))


@arith.op
class SIToFPOp(_CastOp):
    """Signed integer to floating point."""

    name = "arith.sitofp"
    traits = (INT_TO_FLOAT,)


@arith.op
class UIToFPOp(_CastOp):
    """Unsigned integer to floating point."""

    name = "arith.uitofp"
    traits = (INT_TO_FLOAT,)


@arith.op
class FPToSIOp(_CastOp):
    """Floating point to signed integer, rounding toward zero."""

    name = "arith.fptosi"
    traits = (FLOAT_TO_INT,)


@arith.op
class FPToUIOp(_CastOp):
    """Floating point to unsigned integer, rounding toward zero."""

    name = "arith.fptoui"
    traits = (FLOAT_TO_INT,)


@arith.op
class ExtFOp(_CastOp):
    """Widens a float."""

    name = "arith.extf"
    traits = (_elementwise_cast(CastRule(AnyFloat, AnyFloat, WIDER)),)


@arith.op
class TruncFOp(_CastOp):
    """Narrows a float, rounding to nearest even."""

    name = "arith.truncf"
    traits = (_elementwise_cast(CastRule(AnyFloat, AnyFloat, NARROWER)),)


@arith.op
class ExtSIOp(_CastOp):
    """Widens an integer, sign-extending."""

    name = "arith.extsi"
    chains_collapse = True
    traits = (_elementwise_cast(CastRule(AnySignlessInteger, AnySignlessInteger, WIDER)),)


@arith.op
class ExtUIOp(_CastOp):
    """Widens an integer, zero-extending."""

    name = "arith.extui"
    chains_collapse = True
    traits = (_elementwise_cast(CastRule(AnySignlessInteger, AnySignlessInteger, WIDER)),)


@arith.op
class TruncIOp(_CastOp):
    """Narrows an integer, dropping high bits."""

    name = "arith.trunci"
    chains_collapse = True
    traits = (_elementwise_cast(CastRule(AnySignlessInteger, AnySignlessInteger, NARROWER)),)
    overflowFlags = AttrDef(IntegerOverflowFlags, default=OVERFLOW_NONE)  # noqa: N815 - MLIR's name
    assembly_format = ("$input (`overflow` `` $overflowFlags^)? attr-dict `:` type($input) "
                       "`to` type($out)")

    def fold(self, operands):
        source = self.input.defining_op
        if isinstance(source, (ExtSIOp, ExtUIOp)):
            # Truncating an extension drops the bits it added, and maybe more: trunci of
            # the original (in place) when it is wider still, the original when it has
            # the result's type. A narrower original is the patterns' (TruncIExt*).
            original = source.input
            if element_type_of(original.type).width > element_type_of(self.out.type).width:
                self.set_operand(0, original)
                return self.out
            if original.type == self.out.type:
                return original
        return super().fold(operands)

