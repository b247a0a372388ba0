"""The `arith` dialect: integer and floating-point arithmetic on scalars, vectors and
tensors, with MLIR's op names, syntax and folders."""

from __future__ import annotations

import math
from dataclasses import dataclass

from mlc.ir.core.attributes import (
    AsmWriter,
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
    element_dtype,
    float_to_bits,
    i1,
)
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialect import Dialect
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

_FASTMATH_FLAGS = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")


@arith.attribute
@dataclass(frozen=True, slots=True)
class FastMathFlags(DialectAttribute):
    """`#arith.fastmath<...>`: which IEEE-754 guarantees a float op may relax."""

    name = "arith.fastmath"
    flags: frozenset[str] = frozenset()

    def write_body(self, w: AsmWriter) -> None:
        if not self.flags:
            w.write("<none>")
        elif self.flags == frozenset(_FASTMATH_FLAGS):
            w.write("<fast>")
        else:
            w.write("<" + ",".join(f for f in _FASTMATH_FLAGS if f in self.flags) + ">")

    @classmethod
    def parse_body(cls, parser) -> FastMathFlags:
        parser.expect("<")
        flags: set[str] = set()
        while True:
            word = parser.keyword()
            if word == "fast":
                flags.update(_FASTMATH_FLAGS)
            elif word in _FASTMATH_FLAGS:
                flags.add(word)
            elif word != "none":
                raise ValueError(f"unknown fastmath flag '{word}'")
            if not parser.optional(","):
                break
        parser.expect(">")
        return cls(frozenset(flags))


FASTMATH_NONE = FastMathFlags()


@arith.attribute
@dataclass(frozen=True, slots=True)
class IntegerOverflowFlags(DialectAttribute):
    """`#arith.overflow<nsw, nuw>`: signed/unsigned wrap is undefined behaviour."""

    name = "arith.overflow"
    flags: frozenset[str] = frozenset()

    def write_body(self, w: AsmWriter) -> None:
        flags = [f for f in ("nsw", "nuw") if f in self.flags]
        w.write("<" + (", ".join(flags) if flags else "none") + ">")

    @classmethod
    def parse_body(cls, parser) -> IntegerOverflowFlags:
        parser.expect("<")
        flags: set[str] = set()
        while True:
            word = parser.keyword()
            if word in ("nsw", "nuw"):
                flags.add(word)
            elif word != "none":
                raise ValueError(f"unknown overflow flag '{word}'")
            if not parser.optional(","):
                break
        parser.expect(">")
        return cls(frozenset(flags))


OVERFLOW_NONE = IntegerOverflowFlags()

CmpIPredicate = IntEnum("CmpIPredicate", ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule",
                                          "ugt", "uge"))
CmpFPredicate = IntEnum("CmpFPredicate", ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                          "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"))


# ------------------------------------------------------------------ constants


def constant_scalars(attr: Attribute | None):
    """(element type, value) of a scalar or splat constant, else None."""
    if isinstance(attr, IntegerAttr):
        return attr.type, attr.value
    if isinstance(attr, FloatAttr):
        return attr.type, attr.bits
    if isinstance(attr, DenseElementsAttr) and attr.is_splat():
        element = attr.type.element_type
        first = attr.array.reshape(-1)[0]
        if isinstance(element, FloatType):
            bits = int(first) if element.name == "bf16" else float_to_bits(float(first), element)
            return attr.type, bits
        return attr.type, int(first)
    return None


def element_type_of(type_: Type) -> Type:
    return type_.element_type if isinstance(type_, ShapedType) else type_


def make_constant(type_: Type, value: int) -> Attribute:
    """A scalar or splat constant of `type_` (floats given as bit patterns)."""
    element = element_type_of(type_)
    if isinstance(type_, (RankedTensorType, VectorType)):
        if isinstance(element, FloatType):
            scalar = value if element.name == "bf16" else bits_to_float(value, element)
        else:
            scalar = bool(value) if element == i1 else value
        return DenseElementsAttr.from_array(scalar, type_)
    if isinstance(element, FloatType):
        return FloatAttr(value, element)
    return IntegerAttr(value, type_)


def wrap_int(value: int, type_: Type) -> int:
    """`value` modulo the integer type's width, in MLIR's printed range."""
    element = element_type_of(type_)
    if isinstance(element, IndexType):
        width = 64
    else:
        width = element.width
    if width == 1:
        return value & 1
    value &= (1 << width) - 1
    if getattr(element, "signedness", "signless") != "unsigned" and value >= 1 << (width - 1):
        value -= 1 << width
    return value


def as_signed(value: int, type_: Type) -> int:
    """The two's-complement reading of `value` (for i1: true is -1, as in MLIR)."""
    element = element_type_of(type_)
    width = 64 if isinstance(element, IndexType) else element.width
    value &= (1 << width) - 1
    return value - (1 << width) if value >= 1 << (width - 1) else value


def int_to_float_bits(value: int, type_: FloatType) -> int:
    """`value` rounded once, to nearest even, to `type_` (no detour through f64)."""
    from mlc.ir.core.attributes import _FLOAT_LAYOUT, round_int_to_precision

    precision = _FLOAT_LAYOUT[type_.name][2] + 1
    return float_to_bits(float(round_int_to_precision(value, precision)), type_)


def to_unsigned(value: int, type_: Type) -> int:
    element = element_type_of(type_)
    width = 64 if isinstance(element, IndexType) else element.width
    return value & ((1 << width) - 1)


def is_float_value(attr: Attribute | None, value: float) -> bool:
    """Whether `attr` is a scalar or splat float constant equal to `value` (bitwise for 0)."""
    scalars = constant_scalars(attr)
    if scalars is None:
        return False
    type_, bits = scalars
    element = element_type_of(type_)
    if not isinstance(element, FloatType):
        return False
    return bits == float_to_bits(value, element)


def is_int_value(attr: Attribute | None, value: int) -> bool:
    scalars = constant_scalars(attr)
    if scalars is None or isinstance(element_type_of(scalars[0]), FloatType):
        return False
    return wrap_int(scalars[1], scalars[0]) == wrap_int(value, scalars[0])


def constant_elements(attr: Attribute | None):
    """(type, [element values]) of a non-splat dense constant (floats as bit
    patterns), else None."""
    if not isinstance(attr, DenseElementsAttr) or attr.is_splat():
        return None
    flat = attr.array.reshape(-1)
    element = attr.type.element_type
    if isinstance(element, FloatType):
        import numpy as np

        bits = flat.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[flat.dtype.itemsize])
        return attr.type, [int(b) for b in bits.tolist()]
    return attr.type, [int(v) for v in flat.tolist()]


def _elementwise(operands, scalar_fold) -> Attribute | None:
    """Fold two constants element by element (a splat side is broadcast): the folders
    fold tensors and vectors whole, as MLIR's constFoldBinaryOp does."""
    sides = []
    for attr in operands:
        elements = constant_elements(attr)
        if elements is None:
            scalars = constant_scalars(attr)
            if scalars is None:
                return None
            elements = (scalars[0], None, scalars[1])
        else:
            elements = (elements[0], elements[1], None)
        sides.append(elements)
    (lhs_type, lhs_values, lhs_splat), (rhs_type, rhs_values, rhs_splat) = sides
    if lhs_type != rhs_type or (lhs_values is None and rhs_values is None):
        return None
    count = len(lhs_values if lhs_values is not None else rhs_values)
    results = []
    for i in range(count):
        a = lhs_values[i] if lhs_values is not None else lhs_splat
        b = rhs_values[i] if rhs_values is not None else rhs_splat
        value = scalar_fold(a, b)
        if value is None:
            return None
        results.append(value)
    import numpy as np

    element = element_type_of(lhs_type)
    dtype = element_dtype(element)
    if isinstance(element, FloatType):
        array = np.array(results, dtype=f"u{dtype.itemsize}").view(dtype)
    else:
        array = np.array([bool(v) if dtype == np.bool_ else v for v in results], dtype=dtype)
    return DenseElementsAttr.from_array(array.reshape(lhs_type.shape), lhs_type)


def fold_float_binary(operands, fn) -> Attribute | None:
    def scalar(a: int, b: int, element) -> int | None:
        try:
            return float_to_bits(fn(bits_to_float(a, element), bits_to_float(b, element)), element)
        except (ZeroDivisionError, OverflowError, ValueError):
            return None

    lhs, rhs = (constant_scalars(a) for a in operands)
    if lhs is None or rhs is None:
        typed = next((a.type for a in operands if isinstance(a, DenseElementsAttr)), None)
        if typed is None:
            return None
        element = element_type_of(typed)
        return _elementwise(operands, lambda a, b: scalar(a, b, element))
    if lhs[0] != rhs[0]:
        return None
    type_ = lhs[0]
    element = element_type_of(type_)
    bits = scalar(lhs[1], rhs[1], element)
    return None if bits is None else make_constant(type_, bits)


def fold_int_binary(operands, fn) -> Attribute | None:
    lhs, rhs = (constant_scalars(a) for a in operands)
    if lhs is None or rhs is None:
        typed = next((a.type for a in operands if isinstance(a, DenseElementsAttr)), None)
        if typed is None:
            return None

        def scalar(a: int, b: int) -> int | None:
            result = fn(a, b, typed)
            return None if result is None else wrap_int(result, typed)

        return _elementwise(operands, scalar)
    if lhs[0] != rhs[0]:
        return None
    type_ = lhs[0]
    result = fn(lhs[1], rhs[1], type_)
    if result is None:
        return None
    return make_constant(type_, wrap_int(result, type_))


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
        return [self.value]


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
            return [self.lhs]
        folded = fold_float_binary(operands, lambda a, b: a + b)
        return [folded] if folded is not None else None


@arith.op
class SubFOp(_FloatBinaryOp):
    """Floating-point subtraction."""

    name = "arith.subf"

    def fold(self, operands):
        if is_float_value(operands[1], 0.0):  # x - (+0.0) is x
            return [self.lhs]
        folded = fold_float_binary(operands, lambda a, b: a - b)
        return [folded] if folded is not None else None


@arith.op
class MulFOp(_FloatBinaryOp):
    """Floating-point multiplication."""

    name = "arith.mulf"
    traits = (Commutative,)

    def fold(self, operands):
        if is_float_value(operands[1], 1.0):
            return [self.lhs]
        folded = fold_float_binary(operands, lambda a, b: a * b)
        return [folded] if folded is not None else None


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
            return [self.lhs]
        folded = fold_float_binary(operands, _ieee_div)
        return [folded] if folded is not None else None


@arith.op
class RemFOp(_FloatBinaryOp):
    """Floating-point remainder (C's fmod)."""

    name = "arith.remf"

    def fold(self, operands):
        folded = fold_float_binary(operands, math.fmod)
        return [folded] if folded is not None else None


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
            return [self.lhs]
        if is_float_value(operands[1], -math.inf):
            return [self.lhs]
        folded = fold_float_binary(operands, _maximum)
        return [folded] if folded is not None else None


@arith.op
class MinimumFOp(_FloatBinaryOp):
    """IEEE-754 minimum: NaN if either operand is NaN, and -0.0 < +0.0."""

    name = "arith.minimumf"
    traits = (Commutative,)

    def fold(self, operands):
        if self.lhs is self.rhs:
            return [self.lhs]
        if is_float_value(operands[1], math.inf):
            return [self.lhs]
        folded = fold_float_binary(operands, _minimum)
        return [folded] if folded is not None else None


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
            return [source.operand]
        scalars = constant_scalars(operands[0])
        if scalars is None:
            return None
        type_, bits = scalars
        element = element_type_of(type_)
        return [make_constant(type_, bits ^ (1 << (element.width - 1)))]


@arith.op
class AddIOp(_IntOverflowBinaryOp):
    """Integer addition, wrapping around."""

    name = "arith.addi"
    traits = (Commutative,)

    @classmethod
    def canonicalization_patterns(cls):
        from mlc.ir.dialects.arith_canonicalization import ADDI

        return ADDI

    def fold(self, operands):
        if is_int_value(operands[1], 0):
            return [self.lhs]
        # (a - b) + b -> a
        source = self.lhs.defining_op
        if isinstance(source, SubIOp) and source.rhs is self.rhs:
            return [source.lhs]
        folded = fold_int_binary(operands, lambda a, b, t: a + b)
        return [folded] if folded is not None else None


@arith.op
class SubIOp(_IntOverflowBinaryOp):
    """Integer subtraction, wrapping around."""

    name = "arith.subi"

    @classmethod
    def canonicalization_patterns(cls):
        from mlc.ir.dialects.arith_canonicalization import SUBI

        return SUBI

    def fold(self, operands):
        if self.lhs is self.rhs:
            return [make_constant(self.result.type, 0)]
        if is_int_value(operands[1], 0):
            return [self.lhs]
        folded = fold_int_binary(operands, lambda a, b, t: a - b)
        return [folded] if folded is not None else None


@arith.op
class MulIOp(_IntOverflowBinaryOp):
    """Integer multiplication, wrapping around."""

    name = "arith.muli"
    traits = (Commutative,)

    @classmethod
    def canonicalization_patterns(cls):
        from mlc.ir.dialects.arith_canonicalization import MULI

        return MULI

    def fold(self, operands):
        if is_int_value(operands[1], 0):
            return [operands[1]]
        if is_int_value(operands[1], 1):
            return [self.lhs]
        folded = fold_int_binary(operands, lambda a, b, t: a * b)
        return [folded] if folded is not None else None


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
            return [self.lhs]
        if _overflows_signed_division(operands):
            return None
        folded = fold_int_binary(operands, _div_signed)
        return [folded] if folded is not None else None


@arith.op
class DivUIOp(_IntDivisionOp):
    """Unsigned integer division."""

    name = "arith.divui"

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return [self.lhs]
        folded = fold_int_binary(operands, _div_unsigned)
        return [folded] if folded is not None else None


@arith.op
class RemSIOp(_IntBinaryOp):
    """Signed integer remainder; its sign is the dividend's."""

    name = "arith.remsi"

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return [make_constant(self.result.type, 0)]
        folded = fold_int_binary(operands, _rem_signed)
        return [folded] if folded is not None else None


@arith.op
class RemUIOp(_IntBinaryOp):
    """Unsigned integer remainder."""

    name = "arith.remui"

    def fold(self, operands):
        if is_int_value(operands[1], 1):
            return [make_constant(self.result.type, 0)]
        folded = fold_int_binary(operands, _rem_unsigned)
        return [folded] if folded is not None else None


@arith.op
class AndIOp(_IntBinaryOp):
    """Bitwise and."""

    name = "arith.andi"
    traits = (Commutative,)

    def fold(self, operands):
        if self.lhs is self.rhs:
            return [self.lhs]
        if is_int_value(operands[1], 0):
            return [operands[1]]
        if is_int_value(operands[1], -1):
            return [self.lhs]
        folded = fold_int_binary(operands, lambda a, b, t: a & b)
        return [folded] if folded is not None else None


@arith.op
class OrIOp(_IntBinaryOp):
    """Bitwise or."""

    name = "arith.ori"
    traits = (Commutative,)

    def fold(self, operands):
        if self.lhs is self.rhs:
            return [self.lhs]
        if is_int_value(operands[1], 0):
            return [self.lhs]
        if is_int_value(operands[1], -1):
            return [operands[1]]
        folded = fold_int_binary(operands, lambda a, b, t: a | b)
        return [folded] if folded is not None else None


@arith.op
class XOrIOp(_IntBinaryOp):
    """Bitwise exclusive or."""

    name = "arith.xori"
    traits = (Commutative,)

    @classmethod
    def canonicalization_patterns(cls):
        from mlc.ir.dialects.arith_canonicalization import XORI

        return XORI

    def fold(self, operands):
        if self.lhs is self.rhs:
            return [make_constant(self.result.type, 0)]
        if is_int_value(operands[1], 0):
            return [self.lhs]
        folded = fold_int_binary(operands, lambda a, b, t: a ^ b)
        return [folded] if folded is not None else None


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
            return [make_constant(self.result.type, int(value))]
        lhs, rhs = (constant_scalars(a) for a in operands)
        if lhs is None or rhs is None:
            return None
        if predicate in _SIGNED_CMP:
            value = _SIGNED_CMP[predicate](as_signed(lhs[1], lhs[0]), as_signed(rhs[1], rhs[0]))
        else:
            value = _UNSIGNED_CMP[predicate](to_unsigned(lhs[1], lhs[0]), to_unsigned(rhs[1], rhs[0]))
        return [make_constant(self.result.type, int(value))]


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
        lhs, rhs = (constant_scalars(a) for a in operands)
        if lhs is None or rhs is None:
            return None
        element = element_type_of(lhs[0])
        value = _cmpf(CmpFPredicate.keyword(self.predicate), bits_to_float(lhs[1], element),
                      bits_to_float(rhs[1], element))
        return [make_constant(self.result.type, int(value))]


@arith.op
class SelectOp(Op):
    """`condition ? true_value : false_value`, elementwise for a shaped condition."""

    name = "arith.select"

    @classmethod
    def canonicalization_patterns(cls):
        from mlc.ir.dialects.arith_canonicalization import SELECT

        return SELECT
    condition = OperandDef(BoolLike)
    true_value = OperandDef()
    false_value = OperandDef()
    result = ResultDef()
    traits = (Pure, InferType())
    assembly_format = "$condition `,` $true_value `,` $false_value attr-dict `:` custom<SelectTypes>()"

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
            return [self.true_value]
        if is_int_value(operands[0], 1):
            return [self.true_value]
        if is_int_value(operands[0], 0):
            return [self.false_value]
        return None


# ------------------------------------------------------------------ casts


class _CastOp(Op):
    """An elementwise cast; each op declares the (source, target) types it allows."""

    input = OperandDef()
    out = ResultDef()
    traits = (Pure,)
    assembly_format = "$input attr-dict `:` type($input) `to` type($out)"

    def fold(self, operands):
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
        return [make_constant(self.out.type, converted)]


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
    "arith.extf": lambda v, s, t: float_to_bits(bits_to_float(v, s), t),
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

    @classmethod
    def canonicalization_patterns(cls):
        from mlc.ir.dialects.arith_canonicalization import INDEX_CAST

        return INDEX_CAST
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
    traits = (_elementwise_cast(CastRule(AnySignlessInteger, AnySignlessInteger, WIDER)),)


@arith.op
class ExtUIOp(_CastOp):
    """Widens an integer, zero-extending."""

    name = "arith.extui"
    traits = (_elementwise_cast(CastRule(AnySignlessInteger, AnySignlessInteger, WIDER)),)


@arith.op
class TruncIOp(_CastOp):
    """Narrows an integer, dropping high bits."""

    name = "arith.trunci"
    traits = (_elementwise_cast(CastRule(AnySignlessInteger, AnySignlessInteger, NARROWER)),)
    overflowFlags = AttrDef(IntegerOverflowFlags, default=OVERFLOW_NONE)  # noqa: N815 - MLIR's name
    assembly_format = ("$input (`overflow` `` $overflowFlags^)? attr-dict `:` type($input) "
                       "`to` type($out)")


def constant_value_of(value: Value) -> Attribute | None:
    """The attribute of the constant op defining `value`, if it is one."""
    op = value.defining_op
    if op is not None and op.has_trait(ConstantLike):
        return op.attributes.get("value")
    return None
