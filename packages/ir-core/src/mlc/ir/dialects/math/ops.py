"""The `math` dialect: elementwise floating-point functions on scalars, vectors and
tensors, with MLIR's op names, syntax (`fastmath<...>` flags are arith's attribute)
and constant folds.

MLIR folds the transcendental functions by calling the host's C library on f32 and
f64 constants only (`sinf`, `sin`...); the folders here call the same functions
(through ctypes, when the C library is found) so that a folded constant is the one
mlir-opt writes, bit for bit. The exact functions (absf, copysign, floor, ceil, round)
are computed on the values themselves.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable

from mlc.ir.core.attributes import (
    FLOAT_FORMATS,
    FloatType,
    Type,
    bits_to_float,
    float_to_bits,
)
from mlc.ir.dialects.arith.constants import (
    as_signed,
    element_type_of,
    fold_binary,
    fold_int_binary,
    fold_unary,
    int_width,
    quieted,
)
from mlc.ir.dialects.arith.ops import FASTMATH_NONE, ArithConstantsDialect, FastMathFlags
from mlc.ir.dialects.ub.ops import poison_of
from mlc.ir.interfaces.int_range import local_range, may_be_zero
from mlc.ir.interfaces.side_effects import ConditionallySpeculatable, Speculatability
from mlc.ir.opdef.constraints import FloatLike, SignlessIntegerLike
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef
from mlc.ir.opdef.traits import (
    ElementwiseMappable,
    NoMemoryEffect,
    Pure,
    SameOperandsAndResultType,
)

math = ArithConstantsDialect("math", "Elementwise floating-point functions (sin, exp, sqrt, fma...).",
                             semantics="mlc.ir.dialects.math.semantics")

_FASTMATH_FORMAT = "(`fastmath` `` $fastmath^)? attr-dict `:` type($result)"


# ------------------------------------------------------------------ the host's libm

_LIBM: dict[str, Callable[..., float] | None] = {}


def libm_function(name: str, arity: int, element: FloatType) -> Callable[..., float] | None:
    """The C library's `name` for f32 (`sinf`...) or f64 (`sin`...) as a Python function
    from the operands' bit patterns to the result (a float), or None where no C library
    can be loaded. Bit patterns go in unchanged: a signaling NaN stays signaling, as in
    MLIR's call (a Python float would quiet it on the way)."""
    key = name + ("f" if element.name == "f32" else "")
    if key not in _LIBM:
        _LIBM[key] = _load_libm_function(key, arity, element.name == "f32")
    return _LIBM[key]


def _load_libm_function(symbol: str, arity: int, single: bool):
    import ctypes
    import ctypes.util

    try:
        function = getattr(ctypes.CDLL(ctypes.util.find_library("m")), symbol)
    except (OSError, AttributeError, TypeError):
        return None
    c_type = ctypes.c_float if single else ctypes.c_double
    function.restype = c_type
    function.argtypes = [c_type] * arity
    size = ctypes.sizeof(c_type)

    def call(*bits: int) -> float:
        return function(*(c_type.from_buffer_copy(b.to_bytes(size, "little")) for b in bits))

    return call


# Python's math module where no C library is found: the same functions in double
# precision, rounded once to f32 (correctly rounded where libm's f32 functions are).
_PYTHON_FALLBACK: dict[str, Callable[..., float]] = {
    "sin": pymath.sin, "cos": pymath.cos, "exp": pymath.exp, "exp2": lambda x: 2.0 ** x,
    "log": pymath.log, "log2": pymath.log2, "tanh": pymath.tanh, "sqrt": pymath.sqrt,
    "erf": pymath.erf, "pow": pymath.pow, "tan": pymath.tan, "asin": pymath.asin,
    "acos": pymath.acos, "atan": pymath.atan, "sinh": pymath.sinh, "cosh": pymath.cosh,
    "asinh": pymath.asinh, "acosh": pymath.acosh, "atanh": pymath.atanh,
    "expm1": pymath.expm1, "log1p": pymath.log1p,
}


def _is_single_or_double(element: Type) -> bool:
    return isinstance(element, FloatType) and element.name in ("f32", "f64")


def libm_fold(name: str, operands, result_type: Type, refuse_negative: bool = False,
              refuse_below: float | None = None):
    """MLIR's fold of a C library function: f32 and f64 constants only (others stay),
    negative operands refused where `refuse_negative` (log, log2, sqrt), and operands
    below `refuse_below` (and NaNs with the sign bit) where it is given (log1p's -1:
    MLIR refuses where `x + 1` is negative)."""
    element = element_type_of(result_type)
    if not _is_single_or_double(element):
        return None
    function = libm_function(name, len(operands), element)

    def scalar(*bits: int) -> int | None:
        if refuse_negative and bits[0] >> (element.width - 1):
            return None  # -0.0 and negative NaNs too: APFloat's isNegative
        if refuse_below is not None:
            value = bits_to_float(bits[0], element)
            if value < refuse_below or (pymath.isnan(value) and bits[0] >> (element.width - 1)):
                return None
        try:
            if function is not None:
                return float_to_bits(function(*bits), element)
            return float_to_bits(_PYTHON_FALLBACK[name](*(bits_to_float(b, element)
                                                          for b in bits)), element)
        except (ValueError, OverflowError):  # only in the Python fallback
            return None

    if len(operands) == 1:
        return fold_unary(operands[0], scalar, result_type)
    return fold_binary(operands, scalar)


# ------------------------------------------------------------------ exact functions


def _exact_in_double(element: Type) -> bool:
    """Whether every value of `element` is a double (all but f80 and f128)."""
    fmt = FLOAT_FORMATS.get(getattr(element, "name", ""))
    return fmt is not None and fmt.exponent_bits <= 11 and fmt.mantissa_bits <= 52


def _integral(rounding: Callable[[float], float]) -> Callable[[Type], Callable[[int], int]]:
    """A fold rounding to an integral value (NaN quieted, infinities and zeros kept,
    the sign kept on a zero result: floor(0.5) is 0.0, ceil(-0.5) is -0.0)."""

    def for_type(element: Type) -> Callable[[int], int]:
        def scalar(bits: int) -> int:
            value = bits_to_float(bits, element)
            if pymath.isnan(value):
                return quieted(bits, element)
            if pymath.isinf(value):
                return bits
            return float_to_bits(pymath.copysign(rounding(value), value), element)

        return scalar

    return for_type


def _round_half_away(value: float) -> float:
    whole = pymath.floor(abs(value) + 0.5) if abs(value) < 2.0 ** 52 else abs(value)
    return float(whole)


def _sign_bit(element: Type) -> int:
    fmt = FLOAT_FORMATS[element.name]
    return 1 << (fmt.exponent_bits + fmt.mantissa_bits)


def _has_ieee_sign(element: Type) -> bool:
    fmt = FLOAT_FORMATS.get(getattr(element, "name", ""))
    return fmt is not None and fmt.nonfinite in ("ieee", "nan_only", "finite")


# ------------------------------------------------------------------ op classes


class _UnaryOp(Op):
    operand = OperandDef(FloatLike)
    result = ResultDef(FloatLike)
    fastmath = AttrDef(FastMathFlags, default=FASTMATH_NONE)
    traits = (Pure, SameOperandsAndResultType, ElementwiseMappable)
    assembly_format = "$operand " + _FASTMATH_FORMAT
    libm_name: str | None = None
    refuse_negative = False
    refuse_below: float | None = None  # MLIR folds no constant below this

    def fold(self, operands):
        poison = poison_of(operands)
        if poison is not None:
            return poison
        if self.libm_name is None:
            return None
        return libm_fold(self.libm_name, operands, self.result.type, self.refuse_negative,
                         self.refuse_below)


class _BinaryOp(Op):
    lhs = OperandDef(FloatLike)
    rhs = OperandDef(FloatLike)
    result = ResultDef(FloatLike)
    fastmath = AttrDef(FastMathFlags, default=FASTMATH_NONE)
    traits = (Pure, SameOperandsAndResultType, ElementwiseMappable)
    assembly_format = "$lhs `,` $rhs " + _FASTMATH_FORMAT


class _IntegralOp(_UnaryOp):
    """floor/ceil: folded on every type whose values are doubles."""

    rounding: Callable[[float], float] = staticmethod(pymath.floor)

    def fold(self, operands):
        poison = poison_of(operands)
        if poison is not None:
            return poison
        element = element_type_of(self.result.type)
        if not _exact_in_double(element):
            return None
        return fold_unary(operands[0], _integral(type(self).rounding)(element), self.result.type)


@math.op
class AbsFOp(_UnaryOp):
    """The absolute value: the operand with its sign cleared (NaN too)."""

    name = "math.absf"

    def fold(self, operands):
        poison = poison_of(operands)
        if poison is not None:
            return poison
        element = element_type_of(self.result.type)
        if not _has_ieee_sign(element):
            return None
        sign = _sign_bit(element)
        return fold_unary(operands[0], lambda bits: bits & ~sign, self.result.type)


@math.op
class SinOp(_UnaryOp):
    """The sine (radians)."""

    name = "math.sin"
    libm_name = "sin"


@math.op
class CosOp(_UnaryOp):
    """The cosine (radians)."""

    name = "math.cos"
    libm_name = "cos"


@math.op
class TanOp(_UnaryOp):
    """The tangent (radians)."""

    name = "math.tan"
    libm_name = "tan"


@math.op
class AsinOp(_UnaryOp):
    """The arcsine (NaN outside [-1, 1])."""

    name = "math.asin"
    libm_name = "asin"


@math.op
class AcosOp(_UnaryOp):
    """The arccosine (NaN outside [-1, 1])."""

    name = "math.acos"
    libm_name = "acos"


@math.op
class AtanOp(_UnaryOp):
    """The arctangent."""

    name = "math.atan"
    libm_name = "atan"


@math.op
class SinhOp(_UnaryOp):
    """The hyperbolic sine."""

    name = "math.sinh"
    libm_name = "sinh"


@math.op
class CoshOp(_UnaryOp):
    """The hyperbolic cosine."""

    name = "math.cosh"
    libm_name = "cosh"


@math.op
class AsinhOp(_UnaryOp):
    """The inverse hyperbolic sine."""

    name = "math.asinh"
    libm_name = "asinh"


@math.op
class AcoshOp(_UnaryOp):
    """The inverse hyperbolic cosine (NaN below 1)."""

    name = "math.acosh"
    libm_name = "acosh"


@math.op
class AtanhOp(_UnaryOp):
    """The inverse hyperbolic tangent (±inf at ±1, NaN outside [-1, 1])."""

    name = "math.atanh"
    libm_name = "atanh"


@math.op
class ExpOp(_UnaryOp):
    """e raised to the operand."""

    name = "math.exp"
    libm_name = "exp"


@math.op
class Exp2Op(_UnaryOp):
    """2 raised to the operand."""

    name = "math.exp2"
    libm_name = "exp2"


@math.op
class Expm1Op(_UnaryOp):
    """e raised to the operand, minus 1 (precise near zero, where exp(x) - 1 cancels)."""

    name = "math.expm1"
    libm_name = "expm1"


@math.op
class LogOp(_UnaryOp):
    """The natural logarithm (NaN for a negative operand, -inf for zero; MLIR folds
    only non-negative constants)."""

    name = "math.log"
    libm_name = "log"
    refuse_negative = True


@math.op
class Log2Op(_UnaryOp):
    """The base-2 logarithm (folded, as log, for non-negative constants only)."""

    name = "math.log2"
    libm_name = "log2"
    refuse_negative = True


@math.op
class Log1pOp(_UnaryOp):
    """The natural logarithm of 1 plus the operand (precise near zero; -inf at -1, NaN
    below; MLIR folds only constants from -1 up)."""

    name = "math.log1p"
    libm_name = "log1p"
    refuse_below = -1.0


@math.op
class TanhOp(_UnaryOp):
    """The hyperbolic tangent."""

    name = "math.tanh"
    libm_name = "tanh"


@math.op
class SqrtOp(_UnaryOp):
    """The square root (NaN for a negative operand; folded for non-negative constants
    only)."""

    name = "math.sqrt"
    libm_name = "sqrt"
    refuse_negative = True


@math.op
class RsqrtOp(_UnaryOp):
    """The reciprocal of the square root (MLIR has no constant fold for it)."""

    name = "math.rsqrt"

    def fold(self, operands):
        return None


@math.op
class ErfOp(_UnaryOp):
    """The error function."""

    name = "math.erf"
    libm_name = "erf"


@math.op
class FloorOp(_IntegralOp):
    """The largest integral value not greater than the operand."""

    name = "math.floor"
    rounding = staticmethod(pymath.floor)


@math.op
class CeilOp(_IntegralOp):
    """The smallest integral value not less than the operand."""

    name = "math.ceil"
    rounding = staticmethod(pymath.ceil)


@math.op
class RoundOp(_UnaryOp):
    """Rounds to the nearest integral value, halfway cases away from zero (C's
    `round`; folded, as MLIR does, for f32 and f64)."""

    name = "math.round"

    def fold(self, operands):
        poison = poison_of(operands)
        if poison is not None:
            return poison
        element = element_type_of(self.result.type)
        if not _is_single_or_double(element):
            return None
        return fold_unary(operands[0], _integral(_round_half_away)(element), self.result.type)


@math.op
class RoundEvenOp(_IntegralOp):
    """Rounds to the nearest integral value, halfway cases to even (IEEE's
    roundToIntegralTiesToEven)."""

    name = "math.roundeven"
    rounding = staticmethod(round)  # Python's round of a float: ties to even


@math.op
class PowFOp(_BinaryOp):
    """The lhs raised to the rhs (C's `pow`)."""

    name = "math.powf"

    def fold(self, operands):
        poison = poison_of(operands)
        if poison is not None:
            return poison
        return libm_fold("pow", operands, self.result.type)


@math.op
class CopySignOp(_BinaryOp):
    """The lhs's magnitude with the rhs's sign."""

    name = "math.copysign"

    def fold(self, operands):
        poison = poison_of(operands)
        if poison is not None:
            return poison
        element = element_type_of(self.result.type)
        if not _has_ieee_sign(element):
            return None
        sign = _sign_bit(element)
        return fold_binary(operands, lambda a, b: (a & ~sign) | (b & sign))


def integer_power(base: int, exponent: int, width: int) -> int | None:
    """`base` to the power `exponent`, both signed, modulo 2^`width` (as MLIR folds
    `math.ipowi`): x^0 is 1 (0^0 too); a negative exponent gives 1/base^|exponent|
    truncated toward zero (1 for base 1, ±1 for base -1, 0 otherwise), and for base 0
    None: a division by zero, undefined."""
    if exponent < 0:
        if base == 0:
            return None
        if base == -1:
            return -1 if exponent % 2 else 1
        return 1 if base == 1 else 0
    return pow(base, exponent, 1 << width)


@math.op
class IPowIOp(Op):
    """A signless integer raised to a signless integer power, both read as signed,
    wrapping (see `integer_power`; zero to a negative power is undefined)."""

    name = "math.ipowi"
    lhs = OperandDef(SignlessIntegerLike)
    rhs = OperandDef(SignlessIntegerLike)
    result = ResultDef(SignlessIntegerLike)
    # Not Pure as MLIR's: zero to a negative power divides by zero (MLIR's own
    # expansion, math-to-funcs, does exactly that), so it must not run where it would
    # not have.
    traits = (NoMemoryEffect, ConditionallySpeculatable(), SameOperandsAndResultType,
              ElementwiseMappable)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    def speculatability(self) -> Speculatability:
        """Speculatable when the base is known nonzero or the exponent non-negative."""
        base, exponent = local_range(self.lhs), local_range(self.rhs)
        if not may_be_zero(base) or (exponent is not None and exponent.smin >= 0):
            return Speculatability.SPECULATABLE
        return Speculatability.NOT_SPECULATABLE

    def fold(self, operands):
        def scalar(base: int, exponent: int, type_: Type) -> int | None:
            return integer_power(as_signed(base, type_), as_signed(exponent, type_),
                                 int_width(type_))

        return fold_int_binary(operands, scalar)


@math.op
class FmaOp(Op):
    """Fused multiply-add: `a * b + c` rounded once (MLIR has no constant fold for it)."""

    name = "math.fma"
    a = OperandDef(FloatLike)
    b = OperandDef(FloatLike)
    c = OperandDef(FloatLike)
    result = ResultDef(FloatLike)
    fastmath = AttrDef(FastMathFlags, default=FASTMATH_NONE)
    traits = (Pure, SameOperandsAndResultType, ElementwiseMappable)
    assembly_format = "$a `,` $b `,` $c " + _FASTMATH_FORMAT


__all__ = ["AbsFOp", "AcosOp", "AcoshOp", "AsinOp", "AsinhOp", "AtanOp", "AtanhOp", "CeilOp",
           "CopySignOp", "CosOp", "CoshOp", "ErfOp", "Exp2Op", "ExpOp", "Expm1Op", "FloorOp",
           "FmaOp", "IPowIOp", "Log1pOp", "Log2Op", "LogOp", "PowFOp", "RoundEvenOp", "RoundOp",
           "RsqrtOp", "SinOp", "SinhOp", "SqrtOp", "TanOp", "TanhOp", "integer_power",
           "libm_fold", "libm_function", "math"]
