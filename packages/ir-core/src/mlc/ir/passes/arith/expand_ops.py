"""arith-expand: rewrite the arith ops a lowering to LLVM has no instruction for into
simpler arith ops (MLIR's ArithExpandOpsPass).

Always expanded: the rounding divisions (`ceildivsi`, `ceildivui`, `floordivsi`: a
truncating division and a correction), the integer extrema (`cmpi` + `select`), the
float extrema (`cmpf` + `select`, with the NaN rule of each: `maximumf`/`minimumf`
return a NaN operand, `maxnumf`/`minnumf` the other one) and the scaling casts
(`scaling_extf`: `extf(in) * extf(scale)`; `scaling_truncf`: `truncf(in /
extf(scale))`, a 16- or 32-bit scale first truncated to `f8E8M0FNU`). The options add
bit-level expansions of casts from and to small float formats, as integer ops on
their bit patterns: `include-bf16` (f32 <-> bf16, rounding to nearest even with NaN
kept quiet), `include-f8e8m0` (`f8E8M0FNU`, the OCP power-of-two scale: its 8 bits
are an f32 exponent) and `include-f4e2m1` (`f4E2M1FN`, the OCP 4-bit float; other
source types go through f32).

It is a partial dialect conversion, as in MLIR: the expanded ops are illegal, and an
illegal op no pattern applies to (a `scaling_extf` whose scale is `f8E5M2FNUZ`) fails
the pass, leaving the IR as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlc.ir.core.attributes import FloatType, IntegerType, Type, f32
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects.arith import (
    AddIOp,
    AndIOp,
    CeilDivSIOp,
    CeilDivUIOp,
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
    OrIOp,
    SelectOp,
    ShLIOp,
    ShRUIOp,
    SubIOp,
)
from mlc.ir.dialects.arith.casts import (
    BitcastOp,
    ExtFOp,
    ExtUIOp,
    ScalingExtFOp,
    ScalingTruncFOp,
    TruncFOp,
    TruncIOp,
)
from mlc.ir.dialects.arith.constants import element_type_of, with_element_type
from mlc.ir.passes.arith.builder import ArithBuilder
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.conversion import ConversionTarget, apply_partial_conversion
from mlc.ir.rewrite.pattern import PatternSet, RewritePattern
from mlc.ir.rewrite.rewriter import PatternRewriter

bf16 = FloatType("bf16")
f8E8M0FNU = FloatType("f8E8M0FNU")
f4E2M1FN = FloatType("f4E2M1FN")
i4, i8, i16, i32 = (IntegerType(w) for w in (4, 8, 16, 32))


def _element(value_or_type: Value | Type) -> Type:
    return element_type_of(getattr(value_or_type, "type", value_or_type))


def _builder(op: Operation, rewriter: PatternRewriter) -> ArithBuilder:
    rewriter.set_insertion_point_before(op)
    return ArithBuilder(rewriter, op.loc)


# ------------------------------------------------------------------ rounding divisions


class ExpandCeilDivUI(RewritePattern):
    """ceildivui(n, m) -> n == 0 ? 0 : (n - 1) / m + 1"""

    root = CeilDivUIOp

    def match_and_rewrite(self, op, rewriter):
        b = _builder(op, rewriter)
        n, m = op.operands
        zero = b.constant(n.type, 0)
        is_zero = b.cmpi("eq", n, zero)
        one = b.constant(n.type, 1)
        quotient = b.op(DivUIOp, b.op(SubIOp, n, one), m)
        rewriter.replace_op(op, [b.op(SelectOp, is_zero, zero, b.op(AddIOp, quotient, one))])
        return True


class ExpandCeilDivSI(RewritePattern):
    """ceildivsi(n, m) -> q + 1 where q = n / m is inexact and n, m have one sign, else q"""

    root = CeilDivSIOp

    def match_and_rewrite(self, op, rewriter):
        b = _builder(op, rewriter)
        n, m = op.operands
        zero = b.constant(n.type, 0)
        one = b.constant(n.type, 1)
        quotient = b.op(DivSIOp, n, m)
        inexact = b.cmpi("ne", n, b.op(MulIOp, quotient, m))
        same_sign = b.cmpi("eq", b.cmpi("slt", n, zero), b.cmpi("slt", m, zero))
        round_up = b.op(AndIOp, inexact, same_sign)
        rewriter.replace_op(op, [b.op(SelectOp, round_up, b.op(AddIOp, quotient, one),
                                      quotient)])
        return True


class ExpandFloorDivSI(RewritePattern):
    """floordivsi(n, m) -> q - 1 where q = n / m is inexact and n, m differ in sign, else q"""

    root = FloorDivSIOp

    def match_and_rewrite(self, op, rewriter):
        b = _builder(op, rewriter)
        n, m = op.operands
        quotient = b.op(DivSIOp, n, m)
        inexact = b.cmpi("ne", n, b.op(MulIOp, quotient, m))
        zero = b.constant(n.type, 0)
        opposite_signs = b.cmpi("ne", b.cmpi("slt", n, zero), b.cmpi("slt", m, zero))
        round_down = b.op(AndIOp, inexact, opposite_signs)
        minus_one = b.constant(n.type, -1)
        rewriter.replace_op(op, [b.op(SelectOp, round_down, b.op(AddIOp, quotient, minus_one),
                                      quotient)])
        return True


# ------------------------------------------------------------------ extrema


class _ExpandIntExtremum(RewritePattern):
    """max/min of integers -> select(cmpi(pred, a, b), a, b)"""

    predicate = ""

    def match_and_rewrite(self, op, rewriter):
        b = _builder(op, rewriter)
        lhs, rhs = op.operands
        rewriter.replace_op(op, [b.op(SelectOp, b.cmpi(self.predicate, lhs, rhs), lhs, rhs)])
        return True


class ExpandMaxSI(_ExpandIntExtremum):
    """maxsi(a, b) -> a > b (signed) ? a : b"""
    root, predicate = MaxSIOp, "sgt"


class ExpandMaxUI(_ExpandIntExtremum):
    """maxui(a, b) -> a > b (unsigned) ? a : b"""
    root, predicate = MaxUIOp, "ugt"


class ExpandMinSI(_ExpandIntExtremum):
    """minsi(a, b) -> a < b (signed) ? a : b"""
    root, predicate = MinSIOp, "slt"


class ExpandMinUI(_ExpandIntExtremum):
    """minui(a, b) -> a < b (unsigned) ? a : b"""
    root, predicate = MinUIOp, "ult"


class _ExpandFloatExtremum(RewritePattern):
    """max/min of floats -> isnan(x) ? b : select(cmpf(upred, a, b), a, b), where the
    unordered comparison already picks `a` when either is NaN; x is `b` for the
    NaN-propagating ops (a NaN `b` is the result) and `a` for the NaN-ignoring ones (a
    NaN `a` gives `b`)."""

    predicate = ""
    nan_checked_operand = 1

    def match_and_rewrite(self, op, rewriter):
        b = _builder(op, rewriter)
        lhs, rhs = op.operands
        pick = b.op(SelectOp, b.cmpf(self.predicate, lhs, rhs), lhs, rhs)
        checked = op.operands[self.nan_checked_operand]
        is_nan = b.cmpf("uno", checked, checked)
        rewriter.replace_op(op, [b.op(SelectOp, is_nan, rhs, pick)])
        return True


class ExpandMaximumF(_ExpandFloatExtremum):
    """maximumf(a, b) -> isnan(b) ? b : (a >u b ? a : b)"""
    root, predicate = MaximumFOp, "ugt"


class ExpandMinimumF(_ExpandFloatExtremum):
    """minimumf(a, b) -> isnan(b) ? b : (a <u b ? a : b)"""
    root, predicate = MinimumFOp, "ult"


class ExpandMaxNumF(_ExpandFloatExtremum):
    """maxnumf(a, b) -> isnan(a) ? b : (a >u b ? a : b)"""
    root, predicate, nan_checked_operand = MaxNumFOp, "ugt", 0


class ExpandMinNumF(_ExpandFloatExtremum):
    """minnumf(a, b) -> isnan(a) ? b : (a <u b ? a : b)"""
    root, predicate, nan_checked_operand = MinNumFOp, "ult", 0


# ------------------------------------------------------------------ scaling casts


def _scale_as_f8e8m0(op: Operation, b: ArithBuilder) -> Value | None:
    """The op's scale as f8E8M0FNU: a 16-bit or wider float scale is truncated to it
    (keeping its exponent); None for another type."""
    scale = op.operand(1)
    if _element(scale).width >= 16:
        return b.op(TruncFOp, scale, result_type=with_element_type(scale.type, f8E8M0FNU),
                    fastmath=op.fastmath)
    return scale if _element(scale) == f8E8M0FNU else None


class ExpandScalingExtF(RewritePattern):
    """scaling_extf(x, s) -> extf(x) * extf(s), s first truncated to f8E8M0FNU"""

    root = ScalingExtFOp

    def match_and_rewrite(self, op, rewriter):
        if _element(op.operand(1)).width < 16 and _element(op.operand(1)) != f8E8M0FNU:
            return rewriter.notify_match_failure(
                op, "the scale's type cannot be converted to f8E8M0FNU")
        b = _builder(op, rewriter)
        result_type = op.results[0].type
        scale = b.op(ExtFOp, _scale_as_f8e8m0(op, b), result_type=result_type,
                     fastmath=op.fastmath)
        value = b.op(ExtFOp, op.operand(0), result_type=result_type, fastmath=op.fastmath)
        rewriter.replace_op(op, [b.op(MulFOp, value, scale, fastmath=op.fastmath)])
        return True


class ExpandScalingTruncF(RewritePattern):
    """scaling_truncf(x, s) -> truncf(x / extf(s)), s first truncated to f8E8M0FNU"""

    root = ScalingTruncFOp

    def match_and_rewrite(self, op, rewriter):
        if _element(op.operand(1)).width < 16 and _element(op.operand(1)) != f8E8M0FNU:
            return rewriter.notify_match_failure(
                op, "the scale's type cannot be converted to f8E8M0FNU")
        b = _builder(op, rewriter)
        value = op.operand(0)
        scale = b.op(ExtFOp, _scale_as_f8e8m0(op, b), result_type=value.type,
                     fastmath=op.fastmath)
        quotient = b.op(DivFOp, value, scale, fastmath=op.fastmath)
        rewriter.replace_op(op, [b.op(TruncFOp, quotient, result_type=op.results[0].type,
                                      roundingmode=op.roundingmode, fastmath=op.fastmath)])
        return True


# ------------------------------------------------------------------ small float formats


def _cast(b: ArithBuilder, op_class, value: Value, element: Type, **attrs) -> Value:
    """`op_class` (a cast) of `value` to `element` in `value`'s shape."""
    return b.op(op_class, value, result_type=with_element_type(value.type, element), **attrs)


def _to_f32(b: ArithBuilder, value: Value, op: Operation) -> Value:
    """`value` as f32 (extended or truncated with `op`'s flags; itself if f32)."""
    width = _element(value).width
    if width < 32:
        return _cast(b, ExtFOp, value, f32, fastmath=op.fastmath)
    if width > 32:
        return _cast(b, TruncFOp, value, f32, roundingmode=op.roundingmode,
                     fastmath=op.fastmath)
    return value


def _from_f32(b: ArithBuilder, value: Value, result_type: Type, op: Operation) -> Value:
    """An f32 `value` cast to `result_type` with `op`'s fastmath flags."""
    width = _element(result_type).width
    if width < 32:
        return b.op(TruncFOp, value, result_type=result_type, fastmath=op.fastmath)
    if width > 32:
        return b.op(ExtFOp, value, result_type=result_type, fastmath=op.fastmath)
    return value


class ExpandBF16ExtF(RewritePattern):
    """extf bf16 -> f32: the 16 bits become the high half of the f32's"""

    root = ExtFOp

    def match_and_rewrite(self, op, rewriter):
        if _element(op.operand(0)) != bf16 or _element(op.results[0]) != f32:
            return rewriter.notify_match_failure(op, "not an extension of bf16 to f32")
        b = _builder(op, rewriter)
        wide = _cast(b, ExtUIOp, _cast(b, BitcastOp, op.operand(0), i16), i32)
        shifted = b.op(ShLIOp, wide, b.constant(wide.type, 16))
        rewriter.replace_op(op, [b.op(BitcastOp, shifted, result_type=op.results[0].type)])
        return True


class ExpandBF16TruncF(RewritePattern):
    """truncf f32 -> bf16, to nearest even: add 0x7fff plus the lowest kept bit, keep
    the high 16 bits (a carry into the exponent is the right rounding; infinities
    have no mantissa to carry); a NaN becomes the quiet NaN 0x7fc0"""

    root = TruncFOp

    def match_and_rewrite(self, op, rewriter):
        if _element(op.operand(0)) != f32 or _element(op.results[0]) != bf16:
            return rewriter.notify_match_failure(op, "not a truncation of f32 to bf16")
        if op.roundingmode is not None:
            return rewriter.notify_match_failure(op, "only the default rounding mode")
        b = _builder(op, rewriter)
        value = op.operand(0)
        wide_type, narrow_type = (with_element_type(value.type, t) for t in (i32, i16))
        is_nan = b.cmpf("une", value, value)
        half_minus_one = b.constant(wide_type, 0x7FFF)
        quiet_nan = b.constant(narrow_type, 0x7FC0)
        sixteen = b.constant(wide_type, 16)
        one = b.constant(wide_type, 1)
        bits = b.op(BitcastOp, value, result_type=wide_type)
        lowest_kept = b.op(AndIOp, b.op(ShRUIOp, bits, sixteen), one)
        biased = b.op(AddIOp, bits, b.op(AddIOp, lowest_kept, half_minus_one))
        rounded = b.op(TruncIOp, b.op(ShRUIOp, biased, sixteen), result_type=narrow_type)
        result = b.op(SelectOp, is_nan, quiet_nan, rounded)
        rewriter.replace_op(op, [b.op(BitcastOp, result, result_type=op.results[0].type)])
        return True


class ExpandF8E8M0ExtF(RewritePattern):
    """extf f8E8M0FNU -> f32: the 8 bits are the f32's exponent (0xff, NaN, gives an
    all-ones NaN); other result types go through f32"""

    root = ExtFOp

    def match_and_rewrite(self, op, rewriter):
        if _element(op.operand(0)) != f8E8M0FNU:
            return rewriter.notify_match_failure(op, "not an extension of f8E8M0FNU")
        b = _builder(op, rewriter)
        bits = _cast(b, BitcastOp, op.operand(0), i8)
        wide_type = with_element_type(bits.type, i32)
        nan8 = b.constant(bits.type, 0xFF)
        nan32 = b.constant(wide_type, 0xFFFFFFFF)
        mantissa_width = b.constant(wide_type, 23)
        exponent = b.op(ShLIOp, b.op(ExtUIOp, bits, result_type=wide_type), mantissa_width)
        f32_bits = b.op(SelectOp, b.cmpi("eq", bits, nan8), nan32, exponent)
        result = _cast(b, BitcastOp, f32_bits, f32)
        rewriter.replace_op(op, [_from_f32(b, result, op.results[0].type, op)])
        return True


class ExpandF8E8M0TruncF(RewritePattern):
    """truncf to f8E8M0FNU: the f32's exponent bits (rounding down; every infinity and
    NaN becomes the NaN 0xff); other source types go through f32"""

    root = TruncFOp

    def match_and_rewrite(self, op, rewriter):
        if _element(op.results[0]) != f8E8M0FNU:
            return rewriter.notify_match_failure(op, "not a truncation to f8E8M0FNU")
        if op.roundingmode is not None:
            return rewriter.notify_match_failure(op, "only the default rounding mode")
        b = _builder(op, rewriter)
        bits = _cast(b, BitcastOp, _to_f32(b, op.operand(0), op), i32)
        sign_and_exponent = b.op(ShRUIOp, bits, b.constant(bits.type, 23))
        exponent = _cast(b, TruncIOp, sign_and_exponent, i8)
        rewriter.replace_op(op, [b.op(BitcastOp, exponent, result_type=op.results[0].type)])
        return True


class ExpandF4E2M1ExtF(RewritePattern):
    """extf f4E2M1FN -> f32 from its bits s.ee.m: the magnitudes 0.5..6 have f32
    exponents 126..129, so the f32 is the sign, an exponent base (0x3f000000 below 2,
    0x40000000 from 2, none for zero) plus the low three bits shifted into place (the
    subnormal 0.5 adds none); other result types go through f32"""

    root = ExtFOp

    def match_and_rewrite(self, op, rewriter):
        if _element(op.operand(0)) != f4E2M1FN:
            return rewriter.notify_match_failure(op, "not an extension of f4E2M1FN")
        b = _builder(op, rewriter)
        bits = _cast(b, BitcastOp, op.operand(0), i4)
        wide_type = with_element_type(bits.type, i32)
        c0, c1, c2, c4, c7 = (b.constant(bits.type, c) for c in (0, 1, 2, 4, 7))
        magnitude = b.op(AndIOp, bits, c7)
        low_shift = b.constant(wide_type, 20)
        low_bits = b.op(ShLIOp, magnitude, c2)
        low_bits = b.op(SelectOp, b.cmpi("eq", magnitude, c1), c0, low_bits)
        low_bits = b.op(ShLIOp, b.op(ExtUIOp, low_bits, result_type=wide_type), low_shift)
        no_bits = b.constant(wide_type, 0)
        high_base = b.constant(wide_type, 0x40000000)
        low_base = b.constant(wide_type, 0x3F000000)
        base = b.op(SelectOp, b.cmpi("uge", magnitude, c4), high_base, low_base)
        base = b.op(SelectOp, b.cmpi("eq", magnitude, c0), no_bits, base)
        sign_bit = b.constant(wide_type, 0x80000000)
        negative = b.cmpi("uge", bits, b.constant(bits.type, 8))
        sign = b.op(SelectOp, negative, sign_bit, no_bits)
        f32_bits = b.op(AddIOp, b.op(AddIOp, low_bits, base), sign)
        result = _cast(b, BitcastOp, f32_bits, f32)
        if _element(op.results[0]) != f32:
            result = b.op(TruncFOp, result, result_type=op.results[0].type)
        rewriter.replace_op(op, [result])
        return True


class ExpandF4E2M1TruncF(RewritePattern):
    """truncf to f4E2M1FN (OCP's round to nearest, ties to even), on the f32's bits:
    clamp to [-6, 6], take the sign, the exponent rebased (bias 127 -> 1) and the first
    mantissa bit, then fix up the subnormal and zero cases and round up when the
    dropped bits are at least a half; other source types go through f32"""

    root = TruncFOp

    def match_and_rewrite(self, op, rewriter):
        if _element(op.results[0]) != f4E2M1FN:
            return rewriter.notify_match_failure(op, "not a truncation to f4E2M1FN")
        b = _builder(op, rewriter)
        value = op.operand(0)
        if _element(value) != f32:
            value = _cast(b, ExtFOp, value, f32)
        small_type, byte_type, wide_type = (with_element_type(value.type, t)
                                            for t in (i4, i8, i32))
        one4 = b.constant(small_type, 1)
        three4 = b.constant(small_type, 3)
        first_bit_shift = b.constant(wide_type, 22)
        zero8 = b.constant(byte_type, 0)
        minus_one8 = b.constant(byte_type, 0xFF)
        zero32 = b.constant(wide_type, 0)
        # Clamp to the largest magnitude, 6 (a NaN clamps to 6 too).
        high, low = b.constant(value.type, 6.0), b.constant(value.type, -6.0)
        clamped = b.op(MaxNumFOp, low, b.op(MinNumFOp, high, value))
        bits = b.op(BitcastOp, clamped, result_type=wide_type)
        # The sign.
        sign = b.op(ShRUIOp, bits, b.constant(wide_type, 31))
        f4_bits = b.op(ShLIOp, b.op(TruncIOp, sign, result_type=small_type), three4)
        # The exponent, rebased.
        rebase = b.constant(wide_type, 0x7E)
        sign_and_exponent = b.op(ShRUIOp, bits, b.constant(wide_type, 23))
        exponent = b.op(SubIOp, sign_and_exponent, rebase)
        f4_exponent = b.op(ShLIOp, b.op(TruncIOp, exponent, result_type=small_type), one4)
        f4_bits = b.op(AddIOp, f4_bits, f4_exponent)
        # The first mantissa bit.
        first_bit_mask = b.constant(wide_type, 0x400000)
        first_bit = b.op(ShRUIOp, b.op(AndIOp, bits, first_bit_mask), first_bit_shift)
        f4_bits = b.op(AddIOp, f4_bits, b.op(TruncIOp, first_bit, result_type=small_type))
        # Below the normal range: 0.5 (exponent -1 with a mantissa) or rounding up from
        # the all-ones pattern (which wraps to zero).
        mantissa_mask = b.constant(wide_type, 0x7FFFFF)
        exponent8 = b.op(TruncIOp, exponent, result_type=byte_type)
        is_subnormal = b.cmpi("sle", exponent8, zero8)
        is_half_exponent = b.cmpi("eq", exponent8, minus_one8)
        has_mantissa = b.cmpi("ugt", b.op(AndIOp, bits, mantissa_mask), zero32)
        rounds_to_half = b.op(AndIOp, is_half_exponent, has_mantissa)
        is_zero_exponent = b.cmpi("eq", exponent8, zero8)
        subnormal_bits = b.constant(small_type, 0xF)
        half_bits = b.constant(small_type, 0x0)
        below = b.op(SelectOp, is_subnormal, subnormal_bits, f4_bits)
        below = b.op(SelectOp, rounds_to_half, half_bits, below)
        f4_bits = b.op(SelectOp, is_zero_exponent, f4_bits, below)
        # Round up when the dropped bits are at least half of the last kept one.
        dropped_mask = b.constant(wide_type, 0x3FFFFF)
        half = b.constant(wide_type, 0x200000)
        round_up = b.cmpi("uge", b.op(AndIOp, bits, dropped_mask), half)
        round_up = b.op(OrIOp, round_up, is_subnormal)
        f4_bits = b.op(SelectOp, round_up, b.op(AddIOp, f4_bits, one4), f4_bits)
        rewriter.replace_op(op, [b.op(BitcastOp, f4_bits, result_type=op.results[0].type)])
        return True


# ------------------------------------------------------------------ the pass

ALWAYS = (ExpandCeilDivSI, ExpandCeilDivUI, ExpandFloorDivSI, ExpandScalingExtF,
          ExpandScalingTruncF, ExpandMaxSI, ExpandMaxUI, ExpandMinSI, ExpandMinUI,
          ExpandMaximumF, ExpandMinimumF, ExpandMaxNumF, ExpandMinNumF)
BF16 = (ExpandBF16ExtF, ExpandBF16TruncF)
F8E8M0 = (ExpandF8E8M0ExtF, ExpandF8E8M0TruncF)
F4E2M1 = (ExpandF4E2M1ExtF, ExpandF4E2M1TruncF)


@dataclass(frozen=True)
class ArithExpandOptions:
    include_bf16: bool = option(False, doc="expand extf bf16 -> f32 and truncf f32 -> bf16")
    include_f8e8m0: bool = option(False, doc="expand extf and truncf of f8E8M0FNU")
    include_f4e2m1: bool = option(False, doc="expand extf and truncf of f4E2M1FN")


def expansion_target(options: ArithExpandOptions) -> ConversionTarget:
    """What arith-expand leaves: arith without the expanded ops, and the casts the
    options name only where they do not involve those formats."""
    target = ConversionTarget()
    target.add_legal_dialect("arith")
    target.add_illegal_op(*(pattern.root for pattern in ALWAYS))

    def extf_is_legal(op: Operation) -> bool:
        source, result = _element(op.operand(0)), _element(op.results[0])
        return not ((options.include_bf16 and source == bf16 and result == f32)
                    or (options.include_f8e8m0 and source == f8E8M0FNU)
                    or (options.include_f4e2m1 and source == f4E2M1FN))

    def truncf_is_legal(op: Operation) -> bool:
        source, result = _element(op.operand(0)), _element(op.results[0])
        return not ((options.include_bf16 and source == f32 and result == bf16)
                    or (options.include_f8e8m0 and result == f8E8M0FNU)
                    or (options.include_f4e2m1 and result == f4E2M1FN))

    target.add_dynamically_legal_op(ExtFOp, extf_is_legal)
    target.add_dynamically_legal_op(TruncFOp, truncf_is_legal)
    return target


def expansion_patterns(options: ArithExpandOptions) -> PatternSet:
    """The patterns arith-expand applies under `options`."""
    chosen = list(ALWAYS)
    for enabled, group in ((options.include_bf16, BF16), (options.include_f8e8m0, F8E8M0),
                           (options.include_f4e2m1, F4E2M1)):
        if enabled:
            chosen.extend(group)
    return PatternSet(pattern() for pattern in chosen)


@register_pass("arith-expand", opt_level=0, options=ArithExpandOptions, dialects=("arith",),
               summary="Expand arith ops that have no LLVM instruction into simpler arith ops.")
class ArithExpand(Pass):
    def run(self, op: Operation, run) -> None:
        options = run.options
        result = apply_partial_conversion(op, expansion_target(options),
                                          expansion_patterns(options), first_failure_only=True)
        if not result.success:
            raise PassFailure(result.diagnostics)

