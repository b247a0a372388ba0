"""What the `math` ops compute, for the reference interpreter (:mod:`mlc.ir.interpreter`):
each float function computed on doubles holding values of the type, with C's answers
at the edges of its domain, then rounded once to the type; `nnan`/`ninf` as for
arith's float ops."""

from __future__ import annotations

import math
from collections.abc import Callable

from mlc.ir.core.ir import Operation
from mlc.ir.dialects.arith.semantics import check_fastmath, result_type
from mlc.ir.dialects.math.ops import (
    AbsFOp,
    AcoshOp,
    AcosOp,
    AsinhOp,
    AsinOp,
    AtanhOp,
    AtanOp,
    CeilOp,
    CopySignOp,
    CoshOp,
    CosOp,
    ErfOp,
    Exp2Op,
    Expm1Op,
    ExpOp,
    FloorOp,
    FmaOp,
    IPowIOp,
    Log1pOp,
    Log2Op,
    LogOp,
    PowFOp,
    RoundEvenOp,
    RoundOp,
    RsqrtOp,
    SinhOp,
    SinOp,
    SqrtOp,
    TanhOp,
    TanOp,
    integer_power,
)
from mlc.ir.interpreter import (
    Handler,
    Interpreter,
    ScalarValue,
    UndefinedBehavior,
    canonical_int,
    impl,
    int_width,
    round_float,
    to_signed,
)

__all__ = ["FLOAT_FUNCTIONS"]

def _float_function(fn: Callable[..., float]) -> Handler:
    """A math op on scalar floats: `fn` on the operands (doubles holding values of the
    type), rounded once to the type; `nnan`/`ninf` as for arith's float ops."""

    def handler(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
        result = round_float(fn(*operands), result_type(op))
        check_fastmath(op, [*operands, result])
        return [result]

    return handler


def _nan_on_domain_error(fn: Callable[[float], float]) -> Callable[[float], float]:
    """`fn` with C's answers where Python raises: NaN outside the domain (sin of an
    infinity, log or sqrt of a negative number), an infinity past the range."""

    def checked(x: float) -> float:
        if math.isnan(x):
            return x
        try:
            return fn(x)
        except OverflowError:
            return math.inf
        except ValueError:
            return math.nan

    return checked


def _log(base_log: Callable[[float], float]) -> Callable[[float], float]:
    """log/log2: -inf at zero (either sign), NaN below it."""

    def log(x: float) -> float:
        if x == 0.0:
            return -math.inf
        return _nan_on_domain_error(base_log)(x)

    return log


def _rsqrt(x: float) -> float:
    """1 / sqrt(x): infinity of x's sign at a zero, NaN below zero."""
    if x == 0.0:
        return math.copysign(math.inf, x)
    return _nan_on_domain_error(lambda v: 1.0 / math.sqrt(v))(x)


def _is_odd_integer(x: float) -> bool:
    return math.isfinite(x) and x == math.floor(x) and math.fmod(x, 2.0) != 0.0


def _pow(a: float, b: float) -> float:
    """C's pow: a zero to a negative power is an infinity (signed for an odd power of
    -0.0), a negative base to a non-integral power NaN, overflow an infinity."""
    try:
        return math.pow(a, b)
    except OverflowError:
        return -math.inf if a < 0 and _is_odd_integer(b) else math.inf
    except ValueError:
        if a == 0.0:
            return math.copysign(math.inf, a) if _is_odd_integer(b) else math.inf
        return math.nan


def _round_half_away(x: float) -> float:
    """C's round: halfway cases away from zero; the sign of a zero result kept."""
    if not math.isfinite(x):
        return x
    return math.copysign(math.floor(abs(x) + 0.5) if abs(x) < 2.0 ** 52 else abs(x), x)


def _integral(rounding: Callable[[float], int]) -> Callable[[float], float]:
    """floor/ceil on floats: infinities and NaN unchanged, a zero result signed as x."""

    def rounded(x: float) -> float:
        if not math.isfinite(x):
            return x
        return math.copysign(float(rounding(x)), x)

    return rounded


def _fma(a: float, b: float, c: float) -> float:
    """a * b + c computed exactly, then rounded to a double (rounded again to a
    narrower type by the handler: for f32 and smaller, two roundings)."""
    from fractions import Fraction

    if not all(math.isfinite(v) for v in (a, b, c)):
        return a * b + c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:  # the sign of a zero sum, as IEEE-754 gives it
        return (a * b) + c
    try:
        return float(exact)
    except OverflowError:
        return math.copysign(math.inf, exact)


def _odd_overflow(fn: Callable[[float], float]) -> Callable[[float], float]:
    """An odd function (sinh) whose overflow is an infinity of x's sign."""

    def checked(x: float) -> float:
        try:
            return fn(x)
        except OverflowError:
            return math.copysign(math.inf, x)

    return checked


def _atanh(x: float) -> float:
    """atanh: ±inf at ±1, NaN outside [-1, 1] (Python raises at both)."""
    if abs(x) == 1.0:
        return math.copysign(math.inf, x)
    return _nan_on_domain_error(math.atanh)(x)


FLOAT_FUNCTIONS: dict[type[Operation], Callable[..., float]] = {
    AbsFOp: abs,
    SinOp: _nan_on_domain_error(math.sin),
    CosOp: _nan_on_domain_error(math.cos),
    ExpOp: _nan_on_domain_error(math.exp),
    Exp2Op: _nan_on_domain_error(lambda x: math.pow(2.0, x)),
    LogOp: _log(math.log),
    Log2Op: _log(math.log2),
    Expm1Op: _nan_on_domain_error(math.expm1),
    Log1pOp: lambda x: -math.inf if x == -1.0 else _nan_on_domain_error(math.log1p)(x),
    TanhOp: math.tanh,
    SqrtOp: lambda x: math.copysign(0.0, x) if x == 0.0 else
    _nan_on_domain_error(math.sqrt)(x),
    RsqrtOp: _rsqrt,
    ErfOp: math.erf,
    FloorOp: _integral(math.floor),
    CeilOp: _integral(math.ceil),
    RoundOp: _round_half_away,
    PowFOp: _pow,
    CopySignOp: math.copysign,
    FmaOp: _fma,
    TanOp: _nan_on_domain_error(math.tan),
    AsinOp: _nan_on_domain_error(math.asin),
    AcosOp: _nan_on_domain_error(math.acos),
    AtanOp: math.atan,
    SinhOp: _odd_overflow(math.sinh),
    CoshOp: _nan_on_domain_error(math.cosh),
    AsinhOp: math.asinh,
    AcoshOp: _nan_on_domain_error(math.acosh),
    AtanhOp: _atanh,
    RoundEvenOp: _integral(round),
}

for _op_class, _function in FLOAT_FUNCTIONS.items():
    impl(_op_class)(_float_function(_function))


@impl(IPowIOp)
def _ipowi(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    type_ = result_type(op)
    base, exponent = (to_signed(v, type_) for v in operands)
    result = integer_power(base, exponent, int_width(type_))
    if result is None:
        raise UndefinedBehavior(f"'{op.name}': zero raised to the negative power {exponent} "
                                "(a division by zero)")
    return [canonical_int(result, type_)]


