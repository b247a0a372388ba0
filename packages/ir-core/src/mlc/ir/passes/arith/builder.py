"""Building arith IR at one place and location: what the arith passes' patterns use to
write their expansions as straight-line code.

    b = ArithBuilder(rewriter, op.loc)
    zero = b.constant(a.type, 0)
    q = b.op(DivSIOp, a, c)
    is_negative = b.cmpi("slt", a, zero)
"""

from __future__ import annotations

from mlc.ir.core.attributes import (
    DenseElementsAttr,
    FloatAttr,
    FloatType,
    Location,
    Type,
    float_to_bits,
)
from mlc.ir.core.ir import Value
from mlc.ir.dialects.arith import CmpFOp, CmpFPredicate, CmpIOp, CmpIPredicate, ConstantOp
from mlc.ir.dialects.arith.constants import element_type_of, make_constant, wrap_int
from mlc.ir.rewrite.rewriter import Rewriter


class ArithBuilder:
    """Creates ops through `rewriter` at its insertion point, all at `loc`; each
    method returns the new op's (first) result."""

    def __init__(self, rewriter: Rewriter, loc: Location):
        self.rewriter = rewriter
        self.loc = loc

    def op(self, op_class, *operands: Value, result_type: Type | None = None, **attrs) -> Value:
        """An op of `op_class` on `operands` (result type inferred unless given)."""
        result_types = None if result_type is None else [result_type]
        return self.rewriter.create(op_class, *operands, result_types=result_types,
                                    loc=self.loc, **attrs).results[0]

    def constant(self, type_: Type, value: int | float) -> Value:
        """A scalar or splat `arith.constant` of `type_`: an integer wrapped to the
        element width (0xff of i8 is -1), or a float rounded to the element type."""
        element = element_type_of(type_)
        if isinstance(element, FloatType):
            bits = float_to_bits(float(value), element)
            attr = (FloatAttr(bits, element) if type_ is element
                    else DenseElementsAttr.from_array(value, type_))
        else:
            attr = make_constant(type_, wrap_int(int(value), element))
        return self.op(ConstantOp, value=attr)

    def cmpi(self, predicate: str, lhs: Value, rhs: Value) -> Value:
        return self.op(CmpIOp, lhs, rhs, predicate=CmpIPredicate.attr(predicate))

    def cmpf(self, predicate: str, lhs: Value, rhs: Value) -> Value:
        return self.op(CmpFOp, lhs, rhs, predicate=CmpFPredicate.attr(predicate))
