"""CmpFIntToFPConst: a float comparison of a converted integer with a constant,
rewritten as an integer comparison (MLIR's pattern, from LLVM InstCombine's
FoldFCmp_IntToFP_Cst).

`cmpf olt, sitofp(x), 4.4` is `cmpi sle, x, 4`: the conversion makes no NaN, so
ordered and unordered predicates agree; a constant beyond the integer's range decides
the comparison alone; a fractional constant moves the bound to its integer part. The
rewrite is refused where the conversion could round `x` in a way that changes the
answer (an integer wider than the float's significand, against a constant in the range
where the float's steps exceed 1).

A DAG cannot say it (the new predicate and constant depend on the constant's value
and the integer's width in many cases), so it is a code pattern.
"""

from __future__ import annotations

import math

from mlc.ir.core.attributes import (
    FloatAttr,
    IntegerAttr,
    IntegerType,
    bits_to_float,
    float_to_bits,
    i1,
)
from mlc.ir.dialects.arith.casts import SIToFPOp, UIToFPOp
from mlc.ir.dialects.arith.constants import int_to_float_bits, wrap_int
from mlc.ir.dialects.arith.ops import (
    CmpFOp,
    CmpFPredicate,
    CmpIOp,
    CmpIPredicate,
    ConstantOp,
    arith,
)
from mlc.ir.opdef.traits import constant_value
from mlc.ir.rewrite.pattern import RewritePattern

# cmpf predicate -> (signed cmpi predicate, unsigned one); ord/uno are constants.
_PREDICATES = {"oeq": ("eq", "eq"), "ueq": ("eq", "eq"), "one": ("ne", "ne"), "une": ("ne", "ne"),
               "ogt": ("sgt", "ugt"), "ugt": ("sgt", "ugt"), "oge": ("sge", "uge"),
               "uge": ("sge", "uge"), "olt": ("slt", "ult"), "ult": ("slt", "ult"),
               "ole": ("sle", "ule"), "ule": ("sle", "ule")}

# For a fractional constant c (integer part n, truncated toward zero): the predicate
# on n, or a constant answer, for c negative and for c positive.
_FRACTIONAL = {
    "ne": (True, True), "eq": (False, False),
    "ule": (False, "ule"), "sle": ("slt", "sle"),
    "ult": (False, "ule"), "slt": ("slt", "sle"),
    "ugt": (True, "ugt"), "sgt": ("sge", "sgt"),
    "uge": (True, "ugt"), "sge": ("sge", "sgt"),
}


def _ilogb(value: float) -> int:
    """The binary exponent of a nonzero finite value (C's ilogb)."""
    return math.frexp(value)[1] - 1


def _as_float(value: int, element) -> float:
    """The integer `value` converted (to nearest even) to the float type `element`."""
    try:
        return bits_to_float(int_to_float_bits(value, element), element)
    except OverflowError:  # beyond a double: beyond the type too
        return math.copysign(math.inf, value)


class CmpFIntToFPConst(RewritePattern):
    """cmpf(p, sitofp/uitofp(x), C) -> cmpi(p', x, int(C)) or a constant, when the
    conversion cannot change the comparison."""

    root = CmpFOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        rhs = constant_value(op.rhs)
        if not isinstance(rhs, FloatAttr):
            return rewriter.notify_match_failure(op, "the rhs is no scalar float constant")
        element = rhs.type
        value = bits_to_float(rhs.bits, element)
        # NaN: nothing to say; and values that are no doubles (f80, f128) are left alone.
        if math.isnan(value) or float_to_bits(value, element) != rhs.bits:
            return rewriter.notify_match_failure(op, "the constant is a NaN or no double")
        source = op.lhs.defining_op
        if isinstance(source, (SIToFPOp, UIToFPOp)):
            unsigned = isinstance(source, UIToFPOp)
            integer = source.input
        else:
            return rewriter.notify_match_failure(op, "the lhs is no sitofp or uitofp")
        if not isinstance(integer.type, IntegerType):
            return rewriter.notify_match_failure(op, "the converted value is no scalar integer")
        width = integer.type.width
        value_bits = width if unsigned else width - 1
        significand = element.format.precision
        if width > significand:
            # The conversion may round: refuse where rounding could change the answer.
            if math.isinf(value):
                if _ilogb(bits_to_float(_largest_finite_bits(element), element)) < value_bits:
                    return rewriter.notify_match_failure(op, "the conversion may overflow")
            elif value != 0.0 and significand <= _ilogb(value) <= value_bits:
                return rewriter.notify_match_failure(op, "the conversion may round")
        predicate = CmpFPredicate.keyword(op.predicate)
        if predicate in ("ord", "uno"):  # a converted integer is never a NaN
            return self._answer(op, rewriter, predicate == "ord")
        if predicate not in _PREDICATES:
            return rewriter.notify_match_failure(op, "true and false are the folder's")
        int_predicate = _PREDICATES[predicate][unsigned]
        # A constant beyond the integer's range decides the comparison.
        low, high = (0, (1 << width) - 1) if unsigned else (-(1 << (width - 1)),
                                                              (1 << (width - 1)) - 1)
        if _as_float(high, element) < value:
            return self._answer(op, rewriter, int_predicate in ("ne", "slt", "sle", "ult", "ule"))
        if _as_float(low, element) > value:
            return self._answer(op, rewriter, int_predicate in ("ne", "sgt", "sge", "ugt", "uge"))
        whole = math.trunc(value)
        if value != 0.0 and _as_float(whole, element) != value:
            negative = value < 0
            adjusted = _FRACTIONAL[int_predicate][0 if negative else 1]
            if isinstance(adjusted, bool):
                return self._answer(op, rewriter, adjusted)
            int_predicate = adjusted
        rewriter.set_insertion_point_before(op)
        bound = rewriter.create(ConstantOp, value=IntegerAttr(wrap_int(whole, integer.type),
                                                              integer.type))
        rewriter.replace_op_with_new(op, CmpIOp, integer, bound.results[0],
                                     predicate=CmpIPredicate.attr(int_predicate))
        return True

    @staticmethod
    def _answer(op, rewriter, answer: bool) -> bool:
        rewriter.replace_op_with_new(op, ConstantOp, value=IntegerAttr(int(answer), i1))
        return True


def _largest_finite_bits(element) -> int:
    """The bit pattern of the largest finite value of an IEEE-style float type."""
    fmt = element.format
    return (((1 << fmt.exponent_bits) - 2) << fmt.mantissa_bits) | ((1 << fmt.mantissa_bits) - 1)


arith.canonicalization_pattern(CmpFIntToFPConst)

__all__ = ["CmpFIntToFPConst"]
