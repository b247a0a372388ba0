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
    ShapedType,
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
from mlc.ir.opdef.constraints import (
    BoolLike,
    FloatLike,
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
    traits = (Pure, ConstantLike)
    assembly_format = "attr-dict $value"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        value = attributes.get("value")
        if value is None or not hasattr(value, "type"):
            raise ValueError("'arith.constant' needs a typed value")
        return [value.type]

    def verify_custom(self) -> None:
        if self.value.type != self.results[0].type:
            raise VerificationError(f"value type {self.value.type} must match return type: "
                                    f"{self.results[0].type}")

    def fold(self, operands):
        return self.value


class _FloatBinaryOp(Op):
    lhs = OperandDef(FloatLike)
    rhs = OperandDef(FloatLike)
    result = ResultDef(FloatLike)
    fastmath = AttrDef(FastMathFlags, default=FASTMATH_NONE)
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"


class _IntBinaryOp(Op):
    lhs = OperandDef(SignlessIntegerLike)
    rhs = OperandDef(SignlessIntegerLike)
    result = ResultDef(SignlessIntegerLike)
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"


class _IntOverflowBinaryOp(_IntBinaryOp):
    overflowFlags = AttrDef(IntegerOverflowFlags, default=OVERFLOW_NONE)  # noqa: N815 - MLIR's name
    assembly_format = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)"


@arith.op
class AddFOp(_FloatBinaryOp):
    """Floating-point addition."""

    name = "arith.addf"
    traits = (Pure, Commutative, SameOperandsAndResultType)

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
    traits = (Pure, Commutative, SameOperandsAndResultType)

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
    traits = (Pure, Commutative, SameOperandsAndResultType)

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
    traits = (Pure, Commutative, SameOperandsAndResultType)

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
    traits = (Pure, Commutative, SameOperandsAndResultType)

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
    traits = (Pure, Commutative, SameOperandsAndResultType)

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
class DivSIOp(_IntBinaryOp):
    """Signed integer division, rounding toward zero."""

    name = "arith.divsi"

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return self.lhs
        if _overflows_signed_division(operands):
            return None
        return fold_int_binary(operands, _div_signed)


@arith.op
class DivUIOp(_IntBinaryOp):
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
    traits = (Pure, Commutative, SameOperandsAndResultType)

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
    traits = (Pure, Commutative, SameOperandsAndResultType)

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
    traits = (Pure, Commutative, SameOperandsAndResultType)

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
    traits = (Pure, AllTypesMatch(("lhs", "rhs")))
    assembly_format = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [_bool_like_of(operand_types[0])]

    def verify_custom(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerificationError("requires all operands to have the same type")
        if self.result.type != _bool_like_of(self.lhs.type):
            raise VerificationError(f"result type must be {_bool_like_of(self.lhs.type)}")

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
    traits = (Pure, AllTypesMatch(("lhs", "rhs")))
    assembly_format = ("$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict "
                       "`:` type($lhs)")

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [_bool_like_of(operand_types[0])]

    def verify_custom(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerificationError("requires all operands to have the same type")
        if self.result.type != _bool_like_of(self.lhs.type):
            raise VerificationError(f"result type must be {_bool_like_of(self.lhs.type)}")

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
    traits = (Pure, AllTypesMatch(("true_value", "false_value", "result")))
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
    input = OperandDef()
    out = ResultDef()
    traits = (Pure,)
    assembly_format = "$input attr-dict `:` type($input) `to` type($out)"
    source_kind = "any"
    target_kind = "any"
    # Whether a chain of two such casts is one: ext(ext(x)) is ext(x), trunc(trunc(x))
    # is trunc(x).
    chains_collapse = False

    def verify_custom(self) -> None:
        source, target = self.input.type, self.out.type
        if isinstance(source, ShapedType) != isinstance(target, ShapedType) or (
                isinstance(source, ShapedType) and source.shape != target.shape):
            raise VerificationError(f"operand type {source} and result type {target} are not "
                                    "cast compatible")
        check = _CAST_CHECKS[self.op_def.name]
        message = check(element_type_of(source), element_type_of(target))
        if message:
            raise VerificationError(f"operand type {source} and result type {target} are not "
                                    f"cast compatible: {message}")

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


def _check_index_cast(s: Type, t: Type) -> str | None:
    if not ((isinstance(s, IndexType) and isinstance(t, IntegerType))
            or (isinstance(s, IntegerType) and isinstance(t, IndexType))):
        return "one side must be index and the other an integer"
    return None


def _check_int_to_float(s: Type, t: Type) -> str | None:
    return None if isinstance(s, IntegerType) and isinstance(t, FloatType) else "expected integer to float"


def _check_float_to_int(s: Type, t: Type) -> str | None:
    return None if isinstance(s, FloatType) and isinstance(t, IntegerType) else "expected float to integer"


def _check_extf(s: Type, t: Type) -> str | None:
    if not (isinstance(s, FloatType) and isinstance(t, FloatType) and s.width < t.width):
        return "result must be a wider float"
    return None


def _check_truncf(s: Type, t: Type) -> str | None:
    if not (isinstance(s, FloatType) and isinstance(t, FloatType) and s.width > t.width):
        return "result must be a narrower float"
    return None


def _check_ext_int(s: Type, t: Type) -> str | None:
    if not (isinstance(s, IntegerType) and isinstance(t, IntegerType) and s.width < t.width):
        return "result must be a wider integer"
    return None


def _check_trunc_int(s: Type, t: Type) -> str | None:
    if not (isinstance(s, IntegerType) and isinstance(t, IntegerType) and s.width > t.width):
        return "result must be a narrower integer"
    return None


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


_CAST_CHECKS = {
    "arith.index_cast": _check_index_cast,
    "arith.sitofp": _check_int_to_float,
    "arith.uitofp": _check_int_to_float,
    "arith.fptosi": _check_float_to_int,
    "arith.fptoui": _check_float_to_int,
    "arith.extf": _check_extf,
    "arith.truncf": _check_truncf,
    "arith.extsi": _check_ext_int,
    "arith.extui": _check_ext_int,
    "arith.trunci": _check_trunc_int,
}

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
    input = OperandDef(TypeMatches(lambda t: _int_like(element_type_of(t)), "integer or index"))


@arith.op
class SIToFPOp(_CastOp):
    """Signed integer to floating point."""

    name = "arith.sitofp"


@arith.op
class UIToFPOp(_CastOp):
    """Unsigned integer to floating point."""

    name = "arith.uitofp"


@arith.op
class FPToSIOp(_CastOp):
    """Floating point to signed integer, rounding toward zero."""

    name = "arith.fptosi"


@arith.op
class FPToUIOp(_CastOp):
    """Floating point to unsigned integer, rounding toward zero."""

    name = "arith.fptoui"


@arith.op
class ExtFOp(_CastOp):
    """Widens a float."""

    name = "arith.extf"


@arith.op
class TruncFOp(_CastOp):
    """Narrows a float, rounding to nearest even."""

    name = "arith.truncf"


@arith.op
class ExtSIOp(_CastOp):
    """Widens an integer, sign-extending."""

    name = "arith.extsi"
    chains_collapse = True


@arith.op
class ExtUIOp(_CastOp):
    """Widens an integer, zero-extending."""

    name = "arith.extui"
    chains_collapse = True


@arith.op
class TruncIOp(_CastOp):
    """Narrows an integer, dropping high bits."""

    name = "arith.trunci"
    chains_collapse = True
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

