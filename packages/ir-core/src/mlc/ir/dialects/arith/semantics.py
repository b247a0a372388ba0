"""What the `arith` ops compute, for the reference interpreter (:mod:`mlc.ir.interpreter`,
whose module docstring gives the value model and the undefined behaviour): each
handler is registered against its op class; an op with the `ElementwiseMappable`
trait is written for scalars and mapped over vectors by the engine."""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence

from mlc.ir.core.attributes import (
    DenseElementsAttr,
    FloatAttr,
    FloatType,
    IndexType,
    IntegerAttr,
    IntegerType,
    Type,
    VectorType,
    bits_to_float,
    float_to_bits,
)
from mlc.ir.core.ir import Operation
from mlc.ir.dialects.arith.casts import (
    BitcastOp,
    ExtFOp,
    ExtSIOp,
    ExtUIOp,
    FPToSIOp,
    FPToUIOp,
    IndexCastOp,
    IndexCastUIOp,
    SIToFPOp,
    TruncFOp,
    TruncIOp,
    UIToFPOp,
)
from mlc.ir.dialects.arith.ops import (
    AddFOp,
    AddIOp,
    AddUIExtendedOp,
    AndIOp,
    CeilDivSIOp,
    CeilDivUIOp,
    CmpFOp,
    CmpFPredicate,
    CmpIOp,
    CmpIPredicate,
    ConstantOp,
    DivFOp,
    DivSIOp,
    DivUIOp,
    FloorDivSIOp,
    MaximumFOp,
    MaxNumFOp,
    MaxSIOp,
    MaxUIOp,
    MinimumFOp,
    MinNumFOp,
    MinSIOp,
    MinUIOp,
    MulFOp,
    MulIOp,
    MulSIExtendedOp,
    MulUIExtendedOp,
    NegFOp,
    OrIOp,
    RemFOp,
    RemSIOp,
    RemUIOp,
    SelectOp,
    ShLIOp,
    ShRSIOp,
    ShRUIOp,
    SubFOp,
    SubIOp,
    XOrIOp,
)
from mlc.ir.interpreter import (
    POISON,
    ROUNDING_MODES,
    Handler,
    Interpreter,
    ScalarValue,
    UndefinedBehavior,
    UnmodelledNaN,
    UnsupportedOperation,
    canonical_int,
    flag_names,
    float_of_bits,
    impl,
    int_width,
    round_float,
    round_int_to_float,
    to_signed,
    to_unsigned,
)

__all__ = ["check_fastmath", "cmpf_predicate", "cmpi_predicate", "dense_elements",
           "overflow_flags", "quieted", "result_type"]

def result_type(op: Operation) -> Type:
    """The scalar type of the op's first result."""
    type_ = op.results[0].type
    if not isinstance(type_, (IntegerType, IndexType, FloatType)):
        raise UnsupportedOperation(f"'{op.name}' on {type_}: only scalars are supported")
    return type_


@impl(ConstantOp)
def _constant(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """An integer or float constant, scalar or vector (every NaN payload reads as NaN)."""
    attr = op.attributes["value"]
    if isinstance(op.results[0].type, VectorType):
        return [dense_elements(attr, op.results[0].type)]
    type_ = result_type(op)
    if isinstance(attr, IntegerAttr):
        return [canonical_int(attr.value, type_)]
    if isinstance(attr, FloatAttr):
        return [float_of_bits(attr.bits, attr.type)]
    raise UnsupportedOperation(f"constant {attr} is not supported")


def quieted(value: float) -> float:
    """`value`, with the quiet bit set if it is a NaN (a conversion quiets a signaling
    NaN, keeping its payload, as LLVM's fpext does)."""
    if not math.isnan(value):
        return value
    bits = struct.unpack("<Q", struct.pack("<d", value))[0] | 1 << 51
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def overflow_flags(op: Operation) -> frozenset[str]:
    """The op's `nsw`/`nuw` flags."""
    return flag_names(op.attributes.get("overflowFlags"))


def _int_binary(exact: Callable[[int, int], int]) -> Handler:
    """addi/subi/muli: wrap around; `nsw`/`nuw` overflow is undefined."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        type_ = result_type(op)
        a, b = operands
        flags = overflow_flags(op)
        if "nsw" in flags:
            signed = exact(to_signed(a, type_), to_signed(b, type_))
            if signed != to_signed(signed, type_):
                raise UndefinedBehavior(f"'{op.name}' with nsw overflows (signed)")
        if "nuw" in flags:
            unsigned = exact(to_unsigned(a, type_), to_unsigned(b, type_))
            if unsigned != to_unsigned(unsigned, type_):
                raise UndefinedBehavior(f"'{op.name}' with nuw overflows (unsigned)")
        return [canonical_int(exact(a, b), type_)]

    return handler


impl(AddIOp)(_int_binary(lambda a, b: a + b))
impl(SubIOp)(_int_binary(lambda a, b: a - b))
impl(MulIOp)(_int_binary(lambda a, b: a * b))


def _bitwise(fn: Callable[[int, int], int]) -> Handler:
    """andi/ori/xori on the two's complement bits."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        type_ = result_type(op)
        a, b = (to_unsigned(v, type_) for v in operands)
        return [canonical_int(fn(a, b), type_)]

    return handler


impl(AndIOp)(_bitwise(lambda a, b: a & b))
impl(OrIOp)(_bitwise(lambda a, b: a | b))
impl(XOrIOp)(_bitwise(lambda a, b: a ^ b))


def _signed_quotient_and_remainder(op: Operation, operands: list[ScalarValue]) -> tuple[int, int]:
    """Quotient rounded toward zero, remainder with the dividend's sign; undefined for a
    zero divisor and for MIN / -1."""
    type_ = result_type(op)
    a, b = (to_signed(v, type_) for v in operands)
    if b == 0:
        raise UndefinedBehavior(f"'{op.name}': division by zero")
    quotient = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        quotient = -quotient
    if quotient != to_signed(quotient, type_):
        raise UndefinedBehavior(f"'{op.name}': signed division overflows")
    return quotient, a - quotient * b


def _unsigned_operands(op: Operation, operands: list[ScalarValue]) -> tuple[int, int]:
    """The operands read as unsigned; undefined for a zero divisor."""
    type_ = result_type(op)
    a, b = (to_unsigned(v, type_) for v in operands)
    if b == 0:
        raise UndefinedBehavior(f"'{op.name}': division by zero")
    return a, b


def _check_exact(op: Operation, remainder: int) -> None:
    """`exact`: a division or right shift that drops nonzero bits is poison."""
    if remainder and "isExact" in op.attributes:
        raise UndefinedBehavior(f"'{op.name}' with exact drops nonzero bits")


@impl(DivSIOp)
def _divsi(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Signed division, rounding toward zero."""
    quotient, remainder = _signed_quotient_and_remainder(op, operands)
    _check_exact(op, remainder)
    return [canonical_int(quotient, result_type(op))]


@impl(RemSIOp)
def _remsi(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Signed remainder, with the sign of the dividend."""
    return [canonical_int(_signed_quotient_and_remainder(op, operands)[1], result_type(op))]


@impl(DivUIOp)
def _divui(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Unsigned division."""
    a, b = _unsigned_operands(op, operands)
    _check_exact(op, a % b)
    return [canonical_int(a // b, result_type(op))]


def _rounding_divsi(upward: bool) -> Handler:
    """Signed division rounding toward +infinity (ceildivsi, `upward`) or -infinity
    (floordivsi); undefined for a zero divisor and for MIN / -1."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]
                ) -> list[ScalarValue]:
        quotient, remainder = _signed_quotient_and_remainder(op, operands)
        if remainder:  # the quotient was truncated toward zero: one step off, or right
            a, b = (to_signed(v, result_type(op)) for v in operands)
            positive = (a < 0) == (b < 0)
            if upward and positive:
                quotient += 1
            elif not upward and not positive:
                quotient -= 1
        return [canonical_int(quotient, result_type(op))]

    return handler


impl(CeilDivSIOp)(_rounding_divsi(upward=True))
impl(FloorDivSIOp)(_rounding_divsi(upward=False))


@impl(CeilDivUIOp)
def _ceildivui(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Unsigned division rounding up."""
    a, b = _unsigned_operands(op, operands)
    return [canonical_int(-(-a // b), result_type(op))]


def _shift_amount(op: Operation, amount: ScalarValue) -> int | None:
    """The shift amount read as unsigned; None (poison) for the bit width or more."""
    type_ = result_type(op)
    amount = to_unsigned(amount, type_)
    return amount if amount < int_width(type_) else None


@impl(ShLIOp)
def _shli(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Left shift; `nsw`: poison unless shifting back (arithmetically) gives the value,
    `nuw`: poison if a one bit is shifted out."""
    type_ = result_type(op)
    amount = _shift_amount(op, operands[1])
    if amount is None:
        return [POISON]
    value = to_unsigned(operands[0], type_)
    result = to_unsigned(value << amount, type_)
    flags = overflow_flags(op)
    if "nsw" in flags and to_signed(result, type_) >> amount != to_signed(value, type_):
        raise UndefinedBehavior(f"'{op.name}' with nsw overflows (signed)")
    if "nuw" in flags and result >> amount != value:
        raise UndefinedBehavior(f"'{op.name}' with nuw overflows (unsigned)")
    return [canonical_int(result, type_)]


def _shr(read: Callable[[int, Type], int]) -> Handler:
    """Right shift filling with zeros (shrui: `read` unsigned) or copies of the sign
    bit (shrsi: signed)."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]
                ) -> list[ScalarValue]:
        type_ = result_type(op)
        amount = _shift_amount(op, operands[1])
        if amount is None:
            return [POISON]
        value = read(operands[0], type_)
        _check_exact(op, to_unsigned(value, type_) & ((1 << amount) - 1))
        return [canonical_int(value >> amount, type_)]

    return handler


impl(ShRUIOp)(_shr(to_unsigned))
impl(ShRSIOp)(_shr(to_signed))


def _extremum(signed: bool, pick: Callable[[int, int], int]) -> Handler:
    """maxsi/maxui/minsi/minui: the greater or smaller operand, read signed or not."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        type_ = result_type(op)
        read = to_signed if signed else to_unsigned
        return [canonical_int(pick(*(read(v, type_) for v in operands)), type_)]

    return handler


impl(MaxSIOp)(_extremum(True, max))
impl(MaxUIOp)(_extremum(False, max))
impl(MinSIOp)(_extremum(True, min))
impl(MinUIOp)(_extremum(False, min))


@impl(AddUIExtendedOp)
def _addui_extended(interp: Interpreter, op: Operation, operands: list[ScalarValue]
                    ) -> list[ScalarValue]:
    """The wrapped sum, and 1 if the unsigned sum overflowed."""
    type_ = result_type(op)
    total = sum(to_unsigned(v, type_) for v in operands)
    return [canonical_int(total, type_), int(total >> int_width(type_) != 0)]


def _mul_extended(read: Callable[[int, Type], int]) -> Handler:
    """The low and high halves of the double-width product (operands `read` signed or
    unsigned)."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]
                ) -> list[ScalarValue]:
        type_ = result_type(op)
        a, b = (read(v, type_) for v in operands)
        product = a * b
        return [canonical_int(product, type_),
                canonical_int(product >> int_width(type_), type_)]

    return handler


impl(MulSIExtendedOp)(_mul_extended(to_signed))
impl(MulUIExtendedOp)(_mul_extended(to_unsigned))


@impl(RemUIOp)
def _remui(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Unsigned remainder."""
    a, b = _unsigned_operands(op, operands)
    return [canonical_int(a % b, result_type(op))]


_CMPI = {
    "eq": (False, lambda a, b: a == b), "ne": (False, lambda a, b: a != b),
    "slt": (True, lambda a, b: a < b), "sle": (True, lambda a, b: a <= b),
    "sgt": (True, lambda a, b: a > b), "sge": (True, lambda a, b: a >= b),
    "ult": (False, lambda a, b: a < b), "ule": (False, lambda a, b: a <= b),
    "ugt": (False, lambda a, b: a > b), "uge": (False, lambda a, b: a >= b),
}


def cmpi_predicate(op: Operation) -> str:
    """The keyword of a cmpi's predicate (`slt`, ...)."""
    return CmpIPredicate.keyword(op.attributes["predicate"])


def cmpf_predicate(op: Operation) -> str:
    """The keyword of a cmpf's predicate (`olt`, ...)."""
    return CmpFPredicate.keyword(op.attributes["predicate"])


@impl(CmpIOp)
def _cmpi(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Signed (`s...`, i1 `true` is -1) or unsigned comparison; 1 or 0."""
    type_ = op.operands[0].type
    signed, compare = _CMPI[cmpi_predicate(op)]
    convert = to_signed if signed else to_unsigned
    a, b = (convert(v, type_) for v in operands)
    return [int(compare(a, b))]


def check_fastmath(op: Operation, values: Sequence[ScalarValue]) -> None:
    """`nnan`/`ninf`: a NaN/infinite operand or result is poison."""
    flags = flag_names(op.attributes.get("fastmath"))
    if "nnan" in flags and any(math.isnan(v) for v in values):
        raise UndefinedBehavior(f"'{op.name}' with nnan on a NaN")
    if "ninf" in flags and any(math.isinf(v) for v in values):
        raise UndefinedBehavior(f"'{op.name}' with ninf on an infinity")


def _float_binary(fn: Callable[[float, float], float]) -> Handler:
    """An IEEE-754 op computed exactly enough in f64, then rounded once to the type."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        a, b = operands
        result = round_float(fn(a, b), result_type(op))
        check_fastmath(op, [a, b, result])
        return [result]

    return handler


def _divide(a: float, b: float) -> float:
    """IEEE-754 division (Python raises on a zero divisor)."""
    if b == 0.0:
        if math.isnan(a) or a == 0.0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _fmod(a: float, b: float) -> float:
    """C's fmod: NaN for an infinite dividend or a zero divisor."""
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0.0:
        return math.nan
    if math.isinf(b):
        return a
    return math.fmod(a, b)  # exact, with the sign of a


def _maximum(a: float, b: float) -> float:
    """IEEE-754 2019 maximum: NaN-propagating."""
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b:  # +0.0 is greater than -0.0
        return a if math.copysign(1.0, a) > 0 else b
    return a if a > b else b


def _minimum(a: float, b: float) -> float:
    """IEEE-754 2019 minimum: NaN-propagating."""
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b:  # -0.0 is less than +0.0
        return a if math.copysign(1.0, a) < 0 else b
    return a if a < b else b


impl(AddFOp)(_float_binary(lambda a, b: a + b))
impl(SubFOp)(_float_binary(lambda a, b: a - b))
impl(MulFOp)(_float_binary(lambda a, b: a * b))
impl(DivFOp)(_float_binary(_divide))
impl(RemFOp)(_float_binary(_fmod))
def _maximum_number(a: float, b: float) -> float:
    """maxnumf: the other operand of a NaN (which operand, and what a signaling NaN
    does, depend on what the interpreter does not keep: see UnmodelledNaN)."""
    if math.isnan(a) and math.isnan(b):
        return math.nan
    if math.isnan(a) or math.isnan(b):
        raise UnmodelledNaN("maxnumf of a NaN (quiet: the other operand; signaling: NaN)")
    return _maximum(a, b)


def _minimum_number(a: float, b: float) -> float:
    """minnumf: as maxnumf."""
    if math.isnan(a) and math.isnan(b):
        return math.nan
    if math.isnan(a) or math.isnan(b):
        raise UnmodelledNaN("minnumf of a NaN (quiet: the other operand; signaling: NaN)")
    return _minimum(a, b)


impl(MaximumFOp)(_float_binary(_maximum))
impl(MinimumFOp)(_float_binary(_minimum))
impl(MaxNumFOp)(_float_binary(_maximum_number))
impl(MinNumFOp)(_float_binary(_minimum_number))


@impl(NegFOp)
def _negf(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Flips the sign (of NaNs too)."""
    result_type(op)
    check_fastmath(op, operands)
    return [-operands[0]]


def _cmpf_value(predicate: str, a: float, b: float) -> bool:
    """Whether `a predicate b` holds."""
    unordered = math.isnan(a) or math.isnan(b)
    if predicate in ("false", "true"):
        return predicate == "true"
    if predicate == "ord":
        return not unordered
    if predicate == "uno":
        return unordered
    relation = {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b,
                "ge": a >= b}[predicate[1:]]
    return (unordered or relation) if predicate[0] == "u" else (not unordered and relation)


@impl(CmpFOp)
def _cmpf(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Ordered (`o...`: false on NaN) or unordered (`u...`: true on NaN) comparison."""
    check_fastmath(op, operands)
    return [int(_cmpf_value(cmpf_predicate(op), *operands))]


@impl(SelectOp, handles_poison=True)
def _select(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """`condition ? true_value : false_value`."""
    result_type(op)
    if op.operands[0].type != IntegerType(1):
        raise UnsupportedOperation("arith.select with a shaped condition is not supported")
    condition, true_value, false_value = operands
    if condition is POISON:  # the value it does not pick may be poison, not this
        return [POISON]
    return [true_value if condition else false_value]


# ------------------------------------------------------------------ casts


def _cast(fn: Callable[[ScalarValue, Type, Type, Operation], ScalarValue]) -> Handler:
    """A scalar cast: `fn(value, source type, target type, op)`."""
    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        source = op.operands[0].type
        target = result_type(op)
        if not isinstance(source, (IntegerType, IndexType, FloatType)):
            raise UnsupportedOperation(f"'{op.name}' from {source}: only scalars are supported")
        return [fn(operands[0], source, target, op)]

    return handler


def _float_to_int(signed: bool) -> Callable[[ScalarValue, Type, Type, Operation], ScalarValue]:
    """fptosi/fptoui: round toward zero; NaN, infinities and out-of-range values are
    poison (undefined)."""
    def convert(value: ScalarValue, source: Type, target: Type, op: Operation) -> ScalarValue:
        if math.isnan(value) or math.isinf(value):
            raise UndefinedBehavior(f"'{op.name}' of {value}")
        truncated = math.trunc(value)
        width = int_width(target)
        low, high = ((-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed
                     else (0, (1 << width) - 1))
        if not low <= truncated <= high:
            raise UndefinedBehavior(f"'{op.name}' of {value} does not fit in {target}")
        return canonical_int(truncated, target)

    return convert


def _bitcast(value: ScalarValue, source: Type, target: Type, op: Operation) -> ScalarValue:
    """The same bits read as the target type (a NaN's bits are not kept: unmodelled)."""
    if isinstance(source, FloatType):
        if math.isnan(value):
            raise UnmodelledNaN("bitcast of a NaN (its payload is not kept)")
        bits = float_to_bits(value, source)
    else:
        bits = to_unsigned(value, source)
    if isinstance(target, FloatType):
        return bits_to_float(bits, target)
    return canonical_int(bits, target)


def _truncf(value: ScalarValue, source: Type, target: Type, op: Operation) -> ScalarValue:
    """Rounded in the op's rounding mode (default: to nearest even)."""
    mode = op.attributes.get("roundingmode")
    return round_float(value, target, ROUNDING_MODES[mode.value] if mode is not None
                       else "to_nearest_even")


_CASTS: dict[type[Operation], Callable[[ScalarValue, Type, Type, Operation], ScalarValue]] = {
    IndexCastOp: lambda v, s, t, op: canonical_int(to_signed(v, s), t),
    IndexCastUIOp: lambda v, s, t, op: canonical_int(to_unsigned(v, s), t),
    BitcastOp: _bitcast,
    ExtSIOp: lambda v, s, t, op: canonical_int(to_signed(v, s), t),
    ExtUIOp: lambda v, s, t, op: canonical_int(to_unsigned(v, s), t),
    TruncIOp: lambda v, s, t, op: canonical_int(v, t),
    SIToFPOp: lambda v, s, t, op: round_int_to_float(to_signed(v, s), t),
    UIToFPOp: lambda v, s, t, op: round_int_to_float(to_unsigned(v, s), t),
    FPToSIOp: _float_to_int(True),
    FPToUIOp: _float_to_int(False),
    ExtFOp: lambda v, s, t, op: quieted(round_float(v, t)),
    TruncFOp: _truncf,
}

for _op_class, _convert in _CASTS.items():
    impl(_op_class)(_cast(_convert))


def dense_elements(attr, type_: VectorType) -> tuple:
    """The values of a dense constant, in the interpreter's representation."""
    element = type_.element_type
    if not isinstance(attr, DenseElementsAttr):
        raise UnsupportedOperation(f"constant {attr} is not supported")
    if isinstance(element, FloatType):
        if element.name in ("f16", "f32", "f64"):
            return tuple(float(v) for v in attr.array.flat)
        return tuple(float_of_bits(int(v), element) for v in attr.array.flat)
    return tuple(canonical_int(int(v), element) for v in attr.array.flat)


