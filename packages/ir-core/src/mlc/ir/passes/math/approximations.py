"""f32 math functions as straight-line arith: range reduction, a polynomial, and the
result rebuilt, with the special values selected at the end. Each function takes a
:class:`KernelBuilder` and the f32 (or vector of f32) operand and returns the result.

The reductions:
- exp, exp2, expm1: x = k ln2 + r with |r| <= ln2/2 (k = round(x / ln2); r by two fmas
  with ln2 split in two f32s, exact in the first step); e^r - 1 = r + r^2 q(r); the
  result scaled by 2^k in two power-of-two products, so that results near overflow
  and in the subnormal range come out rounded once.
- log, log2, log1p: x = 2^e m with m in [sqrt(1/2), sqrt(2)) read from the bits
  (subnormals first scaled by 2^23); log(m) = f + f^2 q(f) with f = m - 1 exact.
- tanh: an odd polynomial below 0.625, t / (t + 2) with t = expm1(2|x|) up to 1,
  1 - 2 / (t + 2) from 1 on, the sign put back.
- erf: an odd polynomial below 0.875 (its first coefficient in two f32s), three polynomials in (|x| - middle) above
  (coefficients chosen per lane), 1 past 3.9192, the sign put back.
- sin, cos: x = k pi/2 + r with |r| <= pi/4 (pi/2 split in three f32s, r kept in two
  f32s), below 2^20; sin r or cos r by k's quadrant. From 2^20 on (in an
  `scf.if` entered only when some lane is that large) x 2/pi mod 4 is computed exactly
  in f64, as Payne and Hanek reduce: 2/pi in 26-bit pieces, each product with x exact,
  the integral part of each product kept mod 4 and the fractions summed.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

from mlc.ir.core.attributes import f64
from mlc.ir.core.ir import Value
from mlc.ir.passes.math import coefficients as C
from mlc.ir.passes.math.kernel_builder import KernelBuilder


def f32(value: float | Fraction) -> float:
    """`value` rounded to the nearest f32."""
    return struct.unpack("<f", struct.pack("<f", float(value)))[0]


def split_f32(value: Fraction, parts: int) -> tuple[float, ...]:
    """`value` as a sum of `parts` f32s, each the nearest to what the previous ones
    leave (Cody and Waite's split constants)."""
    pieces = []
    for _ in range(parts):
        pieces.append(f32(value))
        value -= Fraction(pieces[-1])
    return tuple(pieces)


def machin_pi(bits: int) -> Fraction:
    """pi to `bits` bits: Machin's pi = 16 atan(1/5) - 4 atan(1/239), each arctangent's
    series summed in integers scaled by 2^(bits + 16)."""
    one = 1 << (bits + 16)

    def arctan_of_inverse(n: int) -> int:
        total = term = one // n
        k, sign = 1, -1
        while term:
            term //= n * n
            total += sign * (term // (2 * k + 1))
            k, sign = k + 1, -sign
        return total
    return Fraction(16 * arctan_of_inverse(5) - 4 * arctan_of_inverse(239), one)


def binary_pieces(value: Fraction, bits: int, count: int) -> tuple[float, ...]:
    """The first `count` pieces of `bits` bits of the binary fraction of 0 <= value < 1
    (piece j holds bits (j bits, (j + 1) bits] after the point): exact doubles."""
    scaled = math.floor(value * 2 ** (bits * count))
    mask = (1 << bits) - 1
    return tuple(math.ldexp((scaled >> (bits * (count - 1 - j))) & mask, -bits * (j + 1))
                 for j in range(count))


PI = machin_pi(320)
LN2_HI, LN2_LO = split_f32(Fraction(math.log(2)), 2)
LOG2E = f32(1 / math.log(2))
LOG2E_HI, LOG2E_LO = split_f32(Fraction(1 / math.log(2)), 2)
TWO_OVER_SQRT_PI = split_f32(Fraction(2 / math.sqrt(math.pi)), 2)

HALF_PI = split_f32(PI / 2, 3)
TWO_OVER_PI = f32(2 / PI)
# Below 2^20, k pi/2 subtracted with pi/2 in three f32s, the rounding errors kept
# (k < 2^20 2/pi and the first part's product exact in an fma; the second's split
# exactly in two), leaves r in two f32s to 2^-53 of the reduced r: far below the f32
# ulp of the smallest r an f32 that large has. k may be off by one where x 2/pi is
# within 2^-5 of a half: |r| stays below pi/4 + 2^-4, where the polynomials still
# hold. From 2^20 on, the exact reduction.
HUGE_ANGLE = 2.0 ** 20
# 2/pi in 26-bit pieces down to 2^-208: x (24 bits) times a piece is exact in f64, and
# for x below 2^128 the pieces left after the last one that matters (its product with
# x below 2^-26 in units of pi/2) carry the 2^-78 the worst case (2^-29.9 from a
# multiple of pi/2, x = 16367173 * 2^72) needs.
TWO_OVER_PI_PIECES = binary_pieces(2 / PI, 26, 8)
INF = math.inf
SMALLEST_NORMAL = 2.0 ** -126


# ------------------------------------------------------------------ exponentials


def _exp_reduction(b: KernelBuilder, x: Value, low: float, high: float):
    """k = round(x / ln2) (as a float and as i32) and r = x - k ln2, for x clamped to
    [low, high]."""
    x = b.clamp(x, low, high)
    k = b.floor(b.fma(x, b.f(LOG2E), b.f(0.5)))
    minus_k = b.neg(k)
    r = b.fma(minus_k, b.f(LN2_HI), x)
    r = b.fma(minus_k, b.f(LN2_LO), r)
    return k, b.to_int(k), r


def _expm1_reduced(b: KernelBuilder, r: Value) -> Value:
    """e^r - 1 for |r| <= ln2/2."""
    return b.fma(b.mul(r, r), b.horner(r, C.EXPM1), r)


def _scale(b: KernelBuilder, p: Value, k: Value) -> Value:
    """p * 2^k for i32 k in [-152, 130] and p near 1: two exact-range powers of two,
    so that only the last product rounds (to a subnormal or to infinity)."""
    half = b.ashr(k, b.i(1))
    return b.mul(b.mul(p, b.pow2(half)), b.pow2(b.isub(k, half)))


def exp(b: KernelBuilder, x: Value) -> Value:
    # Past ln(largest f32) ~ 88.72 the result overflows; below ln(2^-150) ~ -103.97 it
    # rounds to 0: the clamp keeps k in the scaling's range without changing either.
    _, k, r = _exp_reduction(b, x, -104.0, 89.0)
    p = b.add(b.f(1.0), _expm1_reduced(b, r))
    return b.keep_nan(x, _scale(b, p, k))


def exp2(b: KernelBuilder, x: Value) -> Value:
    x_clamped = b.clamp(x, -151.0, 129.0)
    k = b.floor(b.add(x_clamped, b.f(0.5)))
    r = b.mul(b.sub(x_clamped, k), b.f(LN2_HI))  # x - k is exact
    p = b.add(b.f(1.0), _expm1_reduced(b, r))
    return b.keep_nan(x, _scale(b, p, b.to_int(k)))


def _expm1_rebuilt(b: KernelBuilder, k: Value, u: Value) -> Value:
    """2^k (1 + u) - 1, for u = e^r - 1, as 2^k u + (2^k - 1) rounded once: exact but
    for that rounding while 2^k - 1 is (k in [-24, 24]: no cancellation, and u's error
    shrunk by |u| / (1 + u) <= 0.42); for k in [-126, 127] otherwise."""
    scale = b.pow2(k)
    return b.fma(scale, u, b.neg(b.sub(b.f(1.0), scale)))


def expm1(b: KernelBuilder, x: Value) -> Value:
    # Below -17.33 the result rounds to -1; the clamp keeps 2^k a normal number. Past
    # k = 24, 2^k (1 + u) - 1 (2^128's bits, where k = 128, are +inf's).
    k_float, k, r = _exp_reduction(b, x, -20.0, 89.0)
    u = _expm1_reduced(b, r)
    large = b.sub(_scale(b, b.add(b.f(1.0), u), k), b.f(1.0))
    result = b.select(b.cmpf("ogt", k_float, b.f(24.0)), large, _expm1_rebuilt(b, k, u))
    # The polynomial's r + r^2 q(r) makes -0 into +0: zeros are their own result.
    return b.keep_nan(x, b.select(b.cmpf("oeq", x, b.f(0.0)), x, result))


def tanh(b: KernelBuilder, x: Value) -> Value:
    # With t = e^(2|x|) - 1 >= 0, tanh|x| = t / (t + 2), where t's relative error
    # reaches the result shrunk by 2 / (t + 2), and from |x| = 1 on (t > 6.4)
    # 1 - 2 / (t + 2), where the quotient's error is shrunk too (it falls below a
    # quarter of the result). Below TANH_SMALL_END, where the rounding of t + 2 would
    # weigh most, a polynomial. From |x| = 9.01 on, tanh rounds to 1: 2|x| is clamped
    # to 20, where 1 - 2 / (t + 2) rounds to 1 too.
    a = b.abs(x)
    _, k, r = _exp_reduction(b, b.add(a, a), 0.0, 20.0)
    t = _expm1_rebuilt(b, k, _expm1_reduced(b, r))  # past k = 24, t's error weighs nothing
    beyond_one = b.cmpf("oge", a, b.f(1.0))
    quotient = b.div(b.select(beyond_one, b.f(2.0), t), b.add(t, b.f(2.0)))
    large = b.select(beyond_one, b.sub(b.f(1.0), quotient), quotient)
    a2 = b.mul(a, a)
    small = b.fma(b.mul(a, a2), b.horner(a2, C.TANH_SMALL), a)
    magnitude = b.select(b.cmpf("olt", a, b.f(C.TANH_SMALL_END)), small, large)
    return b.keep_nan(x, b.copysign(magnitude, x))


# ------------------------------------------------------------------ logarithms


def _log_parts(b: KernelBuilder, x: Value) -> tuple[Value, Value]:
    """(e, log(m)) with x = 2^e m, m in [sqrt(1/2), sqrt(2)), for positive finite x
    (others give values the callers select away)."""
    # NaN, zero and negative numbers are read as 1 (so that no NaN's bits are read).
    x = b.select(b.cmpf("ogt", x, b.f(0.0)), x, b.f(1.0))
    subnormal = b.cmpf("olt", x, b.f(SMALLEST_NORMAL))
    x = b.select(subnormal, b.mul(x, b.f(2.0 ** 23)), x)
    bits = b.bits(x)
    # Subtracting sqrt(1/2)'s bits makes the exponent field e for m in [sqrt(1/2),
    # sqrt(2)) (a borrow from it below); removing e from the bits leaves m.
    e = b.ashr(b.isub(bits, b.i(0x3F3504F3)), b.i(23))
    m = b.from_bits(b.isub(bits, b.shl(e, b.i(23))))
    f = b.sub(m, b.f(1.0))
    log_m = b.fma(b.mul(f, f), b.horner(f, C.LOG1P), f)
    e_float = b.sub(b.to_float(e), b.select(subnormal, b.f(23.0), b.f(0.0)))
    return e_float, log_m


def _log_special_values(b: KernelBuilder, x: Value, pole: float, result: Value) -> Value:
    """log's answers where `x` (its argument shifted so the pole is at `pole`) is
    not above the pole and finite: -inf at it, NaN below it and for NaN, +inf for +inf."""
    at_pole = b.cmpf("oeq", x, b.f(pole))
    below = b.cmpf("ult", x, b.f(pole))
    result = b.select(b.cmpf("oeq", x, b.f(INF)), b.f(INF), result)
    result = b.select(at_pole, b.f(-INF), result)
    return b.select(below, b.f(math.nan), result)


def log(b: KernelBuilder, x: Value) -> Value:
    e, log_m = _log_parts(b, x)
    result = b.fma(e, b.f(LN2_HI), b.fma(e, b.f(LN2_LO), log_m))
    return _log_special_values(b, x, 0.0, result)


def log2(b: KernelBuilder, x: Value) -> Value:
    e, log_m = _log_parts(b, x)
    result = b.fma(log_m, b.f(LOG2E_HI), b.fma(log_m, b.f(LOG2E_LO), e))
    return _log_special_values(b, x, 0.0, result)


def log1p(b: KernelBuilder, x: Value) -> Value:
    # log(1 + x) = log(u) + log(1 + c/u) with u = 1 + x rounded and c = x - (u - 1)
    # its rounding error; c/u is below 2^-24, so log(1 + c/u) = c/u.
    u = b.add(b.f(1.0), x)
    correction = b.div(b.sub(x, b.sub(u, b.f(1.0))), u)
    e, log_m = _log_parts(b, u)
    result = b.fma(e, b.f(LN2_HI), b.fma(e, b.f(LN2_LO), b.add(log_m, correction)))
    result = b.select(b.cmpf("oeq", x, b.f(0.0)), x, result)  # the sign of a zero
    return _log_special_values(b, x, -1.0, result)


# ------------------------------------------------------------------ erf


def erf(b: KernelBuilder, x: Value) -> Value:
    a = b.abs(x)
    a2 = b.mul(a, a)
    tail = b.mul(b.mul(a, a2), b.horner(a2, C.ERF_SMALL))
    small = b.fma(a, b.f(TWO_OVER_SQRT_PI[0]), b.fma(a, b.f(TWO_OVER_SQRT_PI[1]), tail))
    # One polynomial in (a - middle) for the piece a lies in, coefficients chosen per lane.
    (_, _, first), *rest = C.ERF_PIECES
    middle = b.f(_middle(C.ERF_PIECES[0]))
    terms = [b.f(c) for c in first]
    for piece in rest:
        inside = b.cmpf("oge", a, b.f(piece[0]))
        middle = b.select(inside, b.f(_middle(piece)), middle)
        terms = [b.select(inside, b.f(c), term) for c, term in zip(piece[2], terms)]
    large = b.horner(b.sub(a, middle), terms)
    result = b.select(b.cmpf("olt", a, b.f(C.ERF_SMALL_END)), small, large)
    result = b.select(b.cmpf("oge", a, b.f(C.ERF_ONE)), b.f(1.0), result)
    return b.copysign(result, x)


def _middle(piece) -> float:
    return (piece[0] + piece[1]) / 2


# ------------------------------------------------------------------ sin and cos


def _reduce_by_half_pi(b: KernelBuilder, a: Value) -> tuple[Value, Value, Value]:
    """(k mod 4 as a float, r, r's rounding error) with a = k pi/2 + r, |r| <= pi/4,
    for finite a >= 0 (exactly for huge a, in f64)."""
    k = b.floor(b.fma(a, b.f(TWO_OVER_PI), b.f(0.5)))
    minus_k = b.neg(k)
    first = b.fma(minus_k, b.f(HALF_PI[0]), a)
    second = b.mul(minus_k, b.f(HALF_PI[1]))
    second_error = b.fma(minus_k, b.f(HALF_PI[1]), b.neg(second))
    r, r_error = _two_sum(b, first, second)
    r_low = b.fma(minus_k, b.f(HALF_PI[2]), b.add(r_error, second_error))
    high = b.add(r, r_low)
    reduced = [_mod4(b, k), high, b.sub(r_low, b.sub(high, r))]
    huge = b.cmpf("oge", a, b.f(HUGE_ANGLE))

    def exactly(inner: KernelBuilder) -> list[Value]:
        return [inner.select(huge, exact, fast)
                for exact, fast in zip(_reduce_huge_by_half_pi(inner, a), reduced)]
    return tuple(b.if_any(huge, exactly, reduced))


def _two_sum(b: KernelBuilder, x: Value, y: Value) -> tuple[Value, Value]:
    """(s, e) with s = x + y rounded and s + e = x + y exactly (Knuth's TwoSum)."""
    s = b.add(x, y)
    y_part = b.sub(s, x)
    x_part = b.sub(s, y_part)
    return s, b.add(b.sub(x, x_part), b.sub(y, y_part))


def _split(wide: KernelBuilder, r: Value, b: KernelBuilder) -> tuple[Value, Value]:
    """The f64 `r` as the nearest value of `b`'s type and what that leaves."""
    high = wide.convert(r, b)
    return high, wide.convert(wide.sub(r, b.convert(high, wide)), b)


def _nearest_integer(b: KernelBuilder, v: Value) -> Value:
    """floor(v + 1/2) (v + 1/2 rounds only where v is an integer beyond 2^52, whose
    neighbours are even: then it is v)."""
    return b.floor(b.add(v, b.f(0.5)))


def _mod4(b: KernelBuilder, v: Value) -> Value:
    """v mod 4 for an integral float v, exactly."""
    return b.sub(v, b.mul(b.f(4.0), b.floor(b.mul(v, b.f(0.25)))))


def _reduce_huge_by_half_pi(b: KernelBuilder, a: Value) -> tuple[Value, Value, Value]:
    """`_reduce_by_half_pi` for any finite a >= 0, in f64: the sum of a c_j over the
    pieces c_j of 2/pi, each product p_j exact, split into k_j (p_j rounded to an
    integer: only k_j mod 4 matters) and p_j - k_j (exact, |.| <= 1/2). The fractions
    are summed in order, the sum brought back to [-1/2, 1/2] after each (its integral
    part moved to the quadrant): while the pieces that matter are added, the sum is
    exact; after them, each addition rounds relative to what the sum has become."""
    wide = b.of_element(f64)
    x = b.convert(a, wide)
    fraction = quadrant = None
    for piece in TWO_OVER_PI_PIECES:
        product = wide.mul(x, wide.f(piece))
        integer = _nearest_integer(wide, product)
        rest = wide.sub(product, integer)
        if fraction is None:
            fraction, quadrant = rest, _mod4(wide, integer)
            continue
        fraction = wide.add(fraction, rest)
        carried = _nearest_integer(wide, fraction)
        fraction = wide.sub(fraction, carried)
        quadrant = wide.add(wide.add(quadrant, _mod4(wide, integer)), carried)
    r = wide.mul(fraction, wide.f(float(PI / 2)))
    return (wide.convert(_mod4(wide, quadrant), b), *_split(wide, r, b))


def _sin_or_cos(b: KernelBuilder, x: Value, quadrant_offset: int) -> Value:
    """sin(|x|) (offset 0) or cos(|x|) (offset 1): the polynomial of the reduced r
    chosen, and negated, by the quadrant (k + offset) mod 4; NaN for infinities."""
    a = b.abs(x)
    finite = b.cmpf("olt", a, b.f(INF))
    a = b.select(finite, a, b.f(0.0))
    quadrant, r, r_low = _reduce_by_half_pi(b, a)
    quadrant = b.iadd(b.to_int(quadrant), b.i(quadrant_offset))
    r2 = b.mul(r, r)
    r2_low = b.fma(r, r, b.neg(r2))  # r^2 = r2 + r2_low exactly
    # sin(r + r_low) = sin r + r_low cos r and cos(r + r_low) = cos r - r_low sin r,
    # to first order and within 1/3 of r_low: r + (r_low + r^3 s(r^2)) and
    # 1 + (r^2 (c(r^2) r^2 - 1/2) - r r_low), each rounded once at the end, and cos's
    # r^2 / 2 from the exact square.
    sin_r = b.add(r, b.fma(b.mul(r, r2), b.horner(r2, C.SIN), r_low))
    cos_low = b.fma(r2_low, b.f(-0.5), b.neg(b.mul(r, r_low)))
    cos_r = b.add(b.f(1.0), b.fma(r2, b.fma(r2, b.horner(r2, C.COS), b.f(-0.5)), cos_low))
    odd = b.cmpi("ne", b.iand(quadrant, b.i(1)), b.i(0))
    negative = b.cmpi("ne", b.iand(quadrant, b.i(2)), b.i(0))
    result = b.select(odd, cos_r, sin_r)
    result = b.select(negative, b.neg(result), result)
    return b.select(finite, result, b.f(math.nan))


def sin(b: KernelBuilder, x: Value) -> Value:
    # sin is odd: sin(x) = sign(x) sin|x| (which keeps sin(-0) = -0).
    return b.mul(b.copysign(b.f(1.0), x), _sin_or_cos(b, x, 0))


def cos(b: KernelBuilder, x: Value) -> Value:
    return _sin_or_cos(b, x, 1)


APPROXIMATIONS = {
    "math.exp": exp, "math.exp2": exp2, "math.expm1": expm1, "math.log": log,
    "math.log2": log2, "math.log1p": log1p, "math.tanh": tanh, "math.erf": erf,
    "math.sin": sin, "math.cos": cos,
}
"""The op each function approximates."""
