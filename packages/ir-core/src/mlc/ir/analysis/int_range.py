"""Integer ranges: what an integer range analysis knows of a value (MLIR's
ConstantIntRanges), and the range arithmetic of the common integer ops (MLIR's
InferIntRangeCommon).

A range holds two intervals of one bit width, each closed and each true of every
value: the bits read as unsigned, `[umin, umax]`, and read as signed, `[smin, smax]`.
Neither is derived from the other: `[0, 2**w - 1]` unsigned can hold a useful signed
interval and the other way round, so every rule computes both (or computes one and
derives the other with :meth:`IntRange.from_signed`/:meth:`IntRange.from_unsigned`,
which keep what the one reading implies of the other) and intersects them.

The rules below mirror MLIR 22's, case for case, because the passes built on them
must rewrite the IR as mlir-opt does; where a rule gives up (an overflow it cannot
bound, a divisor that may be zero) the result is the maximal range.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mlc.ir.core.attributes import IndexType, IntegerType, ShapedType, Type


def storage_width(type_: Type) -> int:
    """The bit width ranges of `type_`'s values are kept in (its element type's, for a
    shaped type): `index` is 64 bits, as in MLIR; 0 for types that are not integers."""
    if isinstance(type_, ShapedType):
        type_ = type_.element_type
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width
    return 0


def signed(bits: int, width: int) -> int:
    """`bits` (any int, taken modulo 2**width) read as a two's-complement number."""
    bits &= (1 << width) - 1
    return bits - (1 << width) if bits >> (width - 1) else bits


def unsigned(value: int, width: int) -> int:
    """`value` modulo 2**width."""
    return value & ((1 << width) - 1)


def signed_min(width: int) -> int:
    return -(1 << (width - 1))


def signed_max(width: int) -> int:
    return (1 << (width - 1)) - 1


def unsigned_max(width: int) -> int:
    return (1 << width) - 1


@dataclass(frozen=True, slots=True)
class IntRange:
    """Unsigned `[umin, umax]` and signed `[smin, smax]` bounds of `width`-bit
    integers; umin/umax are non-negative ints, smin/smax signed ones."""

    width: int
    umin: int
    umax: int
    smin: int
    smax: int

    # ------------------------------------------------------------------ constructors

    @staticmethod
    def max_range(width: int) -> IntRange:
        """Every `width`-bit value."""
        return IntRange(width, 0, unsigned_max(width), signed_min(width), signed_max(width))

    @staticmethod
    def constant(value: int, width: int) -> IntRange:
        """Exactly `value` (taken modulo 2**width)."""
        bits = unsigned(value, width)
        as_signed = signed(bits, width)
        return IntRange(width, bits, bits, as_signed, as_signed)

    @staticmethod
    def from_unsigned(umin: int, umax: int, width: int) -> IntRange:
        """`[umin, umax]` read as unsigned; the signed bounds follow when the interval
        does not cross the sign boundary, else they are the whole signed range."""
        smin, smax = signed(umin, width), signed(umax, width)
        if (smin < 0) == (smax < 0):
            smin, smax = min(smin, smax), max(smin, smax)
        else:
            smin, smax = signed_min(width), signed_max(width)
        return IntRange(width, umin, umax, smin, smax)

    @staticmethod
    def from_signed(smin: int, smax: int, width: int) -> IntRange:
        """`[smin, smax]` read as signed; the unsigned bounds follow when both ends have
        the same sign, else they are the whole unsigned range."""
        umin, umax = unsigned(smin, width), unsigned(smax, width)
        if (smin < 0) == (smax < 0):
            umin, umax = min(umin, umax), max(umin, umax)
        else:
            umin, umax = 0, unsigned_max(width)
        return IntRange(width, umin, umax, smin, smax)

    @staticmethod
    def of_interval(low: int, high: int, width: int, is_signed: bool) -> IntRange:
        """`from_signed` or `from_unsigned`."""
        if is_signed:
            return IntRange.from_signed(low, high, width)
        return IntRange.from_unsigned(low, high, width)

    # ------------------------------------------------------------------ lattice

    def union(self, other: IntRange) -> IntRange:
        """The smallest range holding both (what a value that is one or the other has)."""
        return IntRange(self.width, min(self.umin, other.umin), max(self.umax, other.umax),
                        min(self.smin, other.smin), max(self.smax, other.smax))

    def intersection(self, other: IntRange) -> IntRange:
        """Both ranges' bounds at once (for two facts about one value)."""
        return IntRange(self.width, max(self.umin, other.umin), min(self.umax, other.umax),
                        max(self.smin, other.smin), min(self.smax, other.smax))

    def constant_value(self) -> int | None:
        """The value, as unsigned bits, when the range holds a single one."""
        if self.umin == self.umax:
            return self.umin
        if self.smin == self.smax:
            return unsigned(self.smin, self.width)
        return None

    def __str__(self) -> str:
        return f"unsigned : [{self.umin}, {self.umax}] signed : [{self.smin}, {self.smax}]"


# ============================================================================ helpers

# An op on two bounds: the result, or None when it overflows (the rule then gives up).
BoundFn = Callable[[int, int], "int | None"]


def _bounds_by(op: BoundFn, min_left: int, min_right: int, max_left: int, max_right: int,
               width: int, is_signed: bool) -> IntRange:
    """[op(min_left, min_right), op(max_left, max_right)], for ops monotone in both
    operands; the maximal range when either end overflows."""
    low, high = op(min_left, min_right), op(max_left, max_right)
    if low is None or high is None:
        return IntRange.max_range(width)
    return IntRange.of_interval(low, high, width, is_signed)


def _min_max_by(op: BoundFn, lefts: Sequence[int], rights: Sequence[int], width: int,
                is_signed: bool) -> IntRange:
    """The extremes of op(l, r) over the given bounds; the maximal range when one of
    them overflows."""
    results = []
    for left in lefts:
        for right in rights:
            result = op(left, right)
            if result is None:
                return IntRange.max_range(width)
            results.append(result)
    return IntRange.of_interval(min(results), max(results), width, is_signed)


def _checked(width: int, is_signed: bool, saturate: bool, exact: int) -> int | None:
    """`exact` if it fits the reading; clamped to it when `saturate` (a no-wrap flag
    makes overflow poison, so any value is as good as the bound); else None."""
    low, high = (signed_min(width), signed_max(width)) if is_signed else (0, unsigned_max(width))
    if low <= exact <= high:
        return exact
    if saturate:
        return low if exact < low else high
    return None


def _num_sign_bits(value: int, width: int) -> int:
    """How many high bits of the `width`-bit `value` equal its sign bit."""
    bits = unsigned(value, width)
    if signed(bits, width) < 0:
        bits = ~bits & unsigned_max(width)
    return width - bits.bit_length()


def _leading_zeros(value: int, width: int) -> int:
    return width - unsigned(value, width).bit_length()


# ============================================================================ casts


def extend_unsigned_range(range_: IntRange, width: int) -> IntRange:
    """arith.extui."""
    return IntRange.from_unsigned(range_.umin, range_.umax, width)


def extend_signed_range(range_: IntRange, width: int) -> IntRange:
    """arith.extsi."""
    return IntRange.from_signed(range_.smin, range_.smax, width)


def truncate_range(range_: IntRange, width: int) -> IntRange:
    """arith.trunci: the low bits of each bound, unless the interval crosses a multiple
    of 2**width (then the truncated values wrap and cover everything)."""
    if range_.umin >> width != range_.umax >> width:
        umin, umax = 0, unsigned_max(width)
    else:
        umin, umax = unsigned(range_.umin, width), unsigned(range_.umax, width)
    # Above the kept bits less one, both signed bounds must agree (or be -1 and 0:
    # a small interval around zero), else the truncated values change sign.
    low_high, high_high = range_.smin >> (width - 1), range_.smax >> (width - 1)
    wraps = low_high != high_high and not (low_high == -1 and high_high in (-1, 0)) \
        and not (low_high == 0 and high_high == 0)
    if wraps:
        smin, smax = signed_min(width), signed_max(width)
    else:
        smin, smax = signed(range_.smin, width), signed(range_.smax, width)
    return IntRange(width, umin, umax, smin, smax)


# ============================================================================ arithmetic


def infer_add(lhs: IntRange, rhs: IntRange, nsw: bool = False, nuw: bool = False) -> IntRange:
    """arith.addi (with its no-wrap flags)."""
    w = lhs.width
    urange = _bounds_by(lambda a, b: _checked(w, False, nuw, a + b),
                        lhs.umin, rhs.umin, lhs.umax, rhs.umax, w, False)
    srange = _bounds_by(lambda a, b: _checked(w, True, nsw, a + b),
                        lhs.smin, rhs.smin, lhs.smax, rhs.smax, w, True)
    return urange.intersection(srange)


def infer_sub(lhs: IntRange, rhs: IntRange, nsw: bool = False, nuw: bool = False) -> IntRange:
    """arith.subi."""
    w = lhs.width
    urange = _bounds_by(lambda a, b: _checked(w, False, nuw, a - b),
                        lhs.umin, rhs.umax, lhs.umax, rhs.umin, w, False)
    srange = _bounds_by(lambda a, b: _checked(w, True, nsw, a - b),
                        lhs.smin, rhs.smax, lhs.smax, rhs.smin, w, True)
    return urange.intersection(srange)


def infer_mul(lhs: IntRange, rhs: IntRange, nsw: bool = False, nuw: bool = False) -> IntRange:
    """arith.muli."""
    w = lhs.width
    urange = _min_max_by(lambda a, b: _checked(w, False, nuw, a * b),
                         (lhs.umin, lhs.umax), (rhs.umin, rhs.umax), w, False)
    srange = _min_max_by(lambda a, b: _checked(w, True, nsw, a * b),
                         (lhs.smin, lhs.smax), (rhs.smin, rhs.smax), w, True)
    return urange.intersection(srange)


# A correction of a truncating quotient (ceiling, floor): (lhs, rhs, quotient) ->
# the corrected quotient, or None when the correction overflows.
DivisionFixup = Callable[[int, int, int], "int | None"]


def _trunc_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def _trunc_rem(a: int, b: int) -> int:
    remainder = abs(a) % abs(b)
    return -remainder if a < 0 else remainder


def _div_unsigned_range(lhs: IntRange, rhs: IntRange, fixup: DivisionFixup) -> IntRange:
    w = lhs.width
    if rhs.umin != 0 and rhs.umax != 0:
        return _min_max_by(lambda a, b: fixup(a, b, a // b),
                           (lhs.umin, lhs.umax), (rhs.umin, rhs.umax), w, False)
    # The divisor may be zero: division by zero is undefined, so only the others count,
    # and x / y <= x for them.
    umin = lhs.umin // rhs.umax if lhs.umin >= rhs.umax and rhs.umax != 0 else 0
    return IntRange.from_unsigned(umin, lhs.umax, w)


def infer_div_unsigned(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.divui."""
    return _div_unsigned_range(lhs, rhs, lambda a, b, q: q)


def infer_ceil_div_unsigned(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.ceildivui."""
    w = lhs.width

    def ceiling(a: int, b: int, quotient: int) -> int | None:
        if a % b == 0:
            return quotient
        return quotient + 1 if quotient + 1 <= unsigned_max(w) else None

    return _div_unsigned_range(lhs, rhs, ceiling)


def _div_signed_range(lhs: IntRange, rhs: IntRange, fixup: DivisionFixup) -> IntRange:
    w = lhs.width
    if not (rhs.smin > 0 or rhs.smax < 0):
        return IntRange.max_range(w)

    def divide(a: int, b: int) -> int | None:
        if a == signed_min(w) and b == -1:
            return None
        return fixup(a, b, _trunc_div(a, b))

    return _min_max_by(divide, (lhs.smin, lhs.smax), (rhs.smin, rhs.smax), w, True)


def infer_div_signed(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.divsi."""
    return _div_signed_range(lhs, rhs, lambda a, b, q: q)


def infer_ceil_div_signed(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.ceildivsi, including its quirk: MLIR folds `MIN ceildiv b` (b > 1) to the
    negated truncating quotient, and the ranges agree with the folder."""
    w = lhs.width

    def ceiling(a: int, b: int, quotient: int) -> int | None:
        if _trunc_rem(a, b) != 0 and (a >= 0) == (b >= 0):
            return quotient + 1 if quotient + 1 <= signed_max(w) else None
        if a == signed_min(w) and b > 1:
            return signed(-quotient, w)
        return quotient

    result = _div_signed_range(lhs, rhs, ceiling)
    if lhs.smin == signed_min(w) and lhs.smax > lhs.smin:
        # Dividends just above MIN may give results the bounds alone miss.
        above_min = IntRange.from_signed(lhs.smin + 1, lhs.smax, w)
        result = result.union(_div_signed_range(above_min, rhs, ceiling))
    return result


def infer_floor_div_signed(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.floordivsi."""
    w = lhs.width

    def floor(a: int, b: int, quotient: int) -> int | None:
        if _trunc_rem(a, b) != 0 and (a >= 0) != (b >= 0):
            return quotient - 1 if quotient - 1 >= signed_min(w) else None
        return quotient

    return _div_signed_range(lhs, rhs, floor)


def infer_rem_signed(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.remsi: smaller in magnitude than the divisor, with the dividend's sign."""
    w = lhs.width
    smin, smax = signed_min(w), signed_max(w)
    if rhs.smin > 0 or rhs.smax < 0:
        max_divisor = rhs.smax if rhs.smin > 0 else signed(abs(rhs.smin), w)
        largest = signed(max_divisor - 1, w)
        smin = signed(-largest, w) if lhs.smin < 0 else 0
        smax = largest if lhs.smax > 0 else 0
        # A constant divisor and dividends spanning less than it: one sweep.
        if rhs.smin == rhs.smax and unsigned(lhs.smax - lhs.smin, w) < unsigned(max_divisor, w):
            low, high = _trunc_rem(lhs.smin, max_divisor), _trunc_rem(lhs.smax, max_divisor)
            if low <= high:
                smin, smax = low, high
    return IntRange.from_signed(smin, smax, w)


def infer_rem_unsigned(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.remui: below the divisor and at most the dividend."""
    w = lhs.width
    umin, umax = 0, min(unsigned(rhs.umax - 1, w), lhs.umax)
    if rhs.umin != 0 and rhs.umin == rhs.umax and unsigned(lhs.umax - lhs.umin, w) < rhs.umax:
        low, high = lhs.umin % rhs.umax, lhs.umax % rhs.umax
        if low <= high:
            umin, umax = low, high
    return IntRange.from_unsigned(umin, umax, w)


def infer_max_signed(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.maxsi."""
    return IntRange.from_signed(max(lhs.smin, rhs.smin), max(lhs.smax, rhs.smax), lhs.width)


def infer_max_unsigned(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.maxui."""
    return IntRange.from_unsigned(max(lhs.umin, rhs.umin), max(lhs.umax, rhs.umax), lhs.width)


def infer_min_signed(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.minsi."""
    return IntRange.from_signed(min(lhs.smin, rhs.smin), min(lhs.smax, rhs.smax), lhs.width)


def infer_min_unsigned(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.minui."""
    return IntRange.from_unsigned(min(lhs.umin, rhs.umin), min(lhs.umax, rhs.umax), lhs.width)


# ============================================================================ bitwise


def _varying_bits(range_: IntRange) -> int:
    """The mask of the low bits that change somewhere in [umin, umax]: all bits below
    the highest one where the bounds differ."""
    return (1 << (range_.umin ^ range_.umax).bit_length()) - 1


def _widened_bounds(range_: IntRange) -> tuple[int, int]:
    """The bounds with the varying bits all clear and all set."""
    mask = _varying_bits(range_)
    return range_.umin & ~mask, range_.umax | mask


def infer_and(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.andi."""
    return _min_max_by(lambda a, b: a & b, _widened_bounds(lhs), _widened_bounds(rhs),
                       lhs.width, False)


def infer_or(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.ori."""
    return _min_max_by(lambda a, b: a | b, _widened_bounds(lhs), _widened_bounds(rhs),
                       lhs.width, False)


def infer_xor(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.xori: the bits that vary in either operand may be anything."""
    mask = _varying_bits(lhs) | _varying_bits(rhs)
    fixed = lhs.umin ^ rhs.umin
    return IntRange.from_unsigned(fixed & ~mask & unsigned_max(lhs.width),
                                  (fixed | mask) & unsigned_max(lhs.width), lhs.width)


# ============================================================================ shifts


def infer_shl(lhs: IntRange, rhs: IntRange, nsw: bool = False, nuw: bool = False) -> IntRange:
    """arith.shli: as a multiplication by 2**rhs, overflowing the same way; a shift by
    the width or more gives up (or saturates under a no-wrap flag)."""
    w = lhs.width

    def shift_unsigned(value: int, amount: int) -> int | None:
        if amount >= w:
            return unsigned_max(w) if nuw else None
        return _checked(w, False, nuw, value << amount)

    def shift_signed(value: int, amount: int) -> int | None:
        if amount >= w:
            if not nsw:
                return None
            return signed_min(w) if value < 0 else signed_max(w)
        return _checked(w, True, nsw, value << amount)

    urange = _min_max_by(shift_unsigned, (lhs.umin, lhs.umax), (rhs.umin, rhs.umax), w, False)
    srange = _min_max_by(shift_signed, (lhs.smin, lhs.smax), (rhs.umin, rhs.umax), w, True)
    return urange.intersection(srange)


def infer_shr_signed(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.shrsi."""
    w = lhs.width
    return _min_max_by(lambda a, b: None if b >= w else a >> b,
                       (lhs.smin, lhs.smax), (rhs.umin, rhs.umax), w, True)


def infer_shr_unsigned(lhs: IntRange, rhs: IntRange) -> IntRange:
    """arith.shrui."""
    w = lhs.width
    return _min_max_by(lambda a, b: None if b >= w else a >> b,
                       (lhs.umin, lhs.umax), (rhs.umin, rhs.umax), w, False)


# ============================================================================ comparisons

_INVERSE = {"eq": "ne", "ne": "eq", "slt": "sge", "sle": "sgt", "sgt": "sle", "sge": "slt",
            "ult": "uge", "ule": "ugt", "ugt": "ule", "uge": "ult"}


def _always_true(predicate: str, lhs: IntRange, rhs: IntRange) -> bool:
    if predicate == "eq":
        left, right = lhs.constant_value(), rhs.constant_value()
        return left is not None and left == right
    if predicate == "ne":
        # Unequal in both readings: in one alone the intervals may still share a value.
        return ((_always_true("slt", lhs, rhs) or _always_true("sgt", lhs, rhs))
                and (_always_true("ult", lhs, rhs) or _always_true("ugt", lhs, rhs)))
    return {
        "slt": lambda: lhs.smax < rhs.smin, "sle": lambda: lhs.smax <= rhs.smin,
        "sgt": lambda: lhs.smin > rhs.smax, "sge": lambda: lhs.smin >= rhs.smax,
        "ult": lambda: lhs.umax < rhs.umin, "ule": lambda: lhs.umax <= rhs.umin,
        "ugt": lambda: lhs.umin > rhs.umax, "uge": lambda: lhs.umin >= rhs.umax,
    }[predicate]()


def evaluate_predicate(predicate: str, lhs: IntRange, rhs: IntRange) -> bool | None:
    """Whether `lhs predicate rhs` (an arith.cmpi predicate keyword) holds for every
    pair of values (True), for none (False), or depends on them (None)."""
    if _always_true(predicate, lhs, rhs):
        return True
    if _always_true(_INVERSE[predicate], lhs, rhs):
        return False
    return None


# ============================================================================ narrowing


def truncation_kinds(range_: IntRange, width: int) -> frozenset[str]:
    """How the range's values survive truncation to `width` bits: {"signed"} when a
    sign extension brings them back, {"unsigned"} for a zero extension, both, or
    neither (the empty set, also when `width` is not narrower)."""
    removed = range_.width - width
    if removed <= 0:
        return frozenset()
    kinds = set()
    if _num_sign_bits(range_.smin, range_.width) >= removed + 1 and \
            _num_sign_bits(range_.smax, range_.width) >= removed + 1:
        kinds.add("signed")
    if _leading_zeros(range_.umin, range_.width) >= removed and \
            _leading_zeros(range_.umax, range_.width) >= removed:
        kinds.add("unsigned")
    return frozenset(kinds)
