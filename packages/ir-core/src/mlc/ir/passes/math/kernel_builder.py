"""Writing an f32 function as straight-line arith: what the polynomial approximations
are written with.

    b = KernelBuilder(rewriter, op.loc, vector_of_f32)
    y = b.fma(x, b.horner(x, (1.0, 0.5)), b.f(1.0))

Every value is of one shape: the builder's `float_type` (f32 or a vector of f32) or the
i32 type of the same shape (`int_type`), so that the code is the same for a scalar and
a vector and vectorises as written. Constants are made once per builder (the first
use dominates the later ones: all are inserted at one point).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mlc.ir.core.attributes import FloatType, IntegerType, Type, VectorType
from mlc.ir.core.ir import Value
from mlc.ir.dialects import math as M
from mlc.ir.dialects.arith import (
    AddFOp,
    AddIOp,
    AndIOp,
    DivFOp,
    MulFOp,
    NegFOp,
    SelectOp,
    ShLIOp,
    ShRSIOp,
    SubFOp,
    SubIOp,
)
from mlc.ir.dialects.arith.casts import BitcastOp, ExtFOp, FPToSIOp, SIToFPOp, TruncFOp
from mlc.ir.dialects.arith.constants import element_type_of, with_element_type
from mlc.ir.dialects.scf import IfOp, YieldOp
from mlc.ir.dialects.vector.compute import CombiningKind, Kind, ReductionOp
from mlc.ir.passes.arith.builder import ArithBuilder

i32 = IntegerType(32)


class KernelBuilder(ArithBuilder):
    """Arith and math ops on values of `float_type` (f32 or a vector of f32) and of
    its i32 counterpart, inserted at the rewriter's insertion point."""

    def __init__(self, rewriter, loc, float_type: Type):
        super().__init__(rewriter, loc)
        self.float_type = float_type
        self.int_type = with_element_type(float_type, i32)
        self._constants: dict[tuple[Type, float | int], Value] = {}

    # ---------------------------------------------------------------- constants

    def f(self, value: float) -> Value:
        """The float constant `value` (rounded to f32), splat for a vector."""
        return self._constant(self.float_type, float(value))

    def i(self, value: int) -> Value:
        """The i32 constant `value`, splat for a vector."""
        return self._constant(self.int_type, int(value))

    def of_element(self, element: FloatType) -> KernelBuilder:
        """A builder at the same place on values of `element` of this builder's shape."""
        return KernelBuilder(self.rewriter, self.loc, with_element_type(self.float_type, element))

    def convert(self, x: Value, to: KernelBuilder) -> Value:
        """`x` (of this builder's float type) extended or truncated to `to`'s."""
        widens = element_type_of(to.float_type).width > element_type_of(self.float_type).width
        return self.op(ExtFOp if widens else TruncFOp, x, result_type=to.float_type)

    def _constant(self, type_: Type, value: float | int) -> Value:
        key = (type_, value)
        if key not in self._constants:
            self._constants[key] = self.constant(type_, value)
        return self._constants[key]

    # ---------------------------------------------------------------- floats

    def add(self, a: Value, b: Value) -> Value:
        return self.op(AddFOp, a, b)

    def sub(self, a: Value, b: Value) -> Value:
        return self.op(SubFOp, a, b)

    def mul(self, a: Value, b: Value) -> Value:
        return self.op(MulFOp, a, b)

    def div(self, a: Value, b: Value) -> Value:
        return self.op(DivFOp, a, b)

    def neg(self, a: Value) -> Value:
        return self.op(NegFOp, a)

    def fma(self, a: Value, b: Value, c: Value) -> Value:
        """`a * b + c` rounded once."""
        return self.op(M.FmaOp, a, b, c)

    def abs(self, a: Value) -> Value:
        return self.op(M.AbsFOp, a)

    def floor(self, a: Value) -> Value:
        return self.op(M.FloorOp, a)

    def copysign(self, magnitude: Value, sign: Value) -> Value:
        return self.op(M.CopySignOp, magnitude, sign)

    def horner(self, x: Value, coefficients: Sequence[float | Value]) -> Value:
        """c0 + x * (c1 + x * (c2 + ...)), one fma per coefficient after the last;
        a coefficient is a number or a value (one chosen per lane)."""
        terms = [c if isinstance(c, Value) else self.f(c) for c in coefficients]
        result = terms[-1]
        for term in reversed(terms[:-1]):
            result = self.fma(result, x, term)
        return result

    def select(self, condition: Value, if_true: Value, if_false: Value) -> Value:
        return self.op(SelectOp, condition, if_true, if_false)

    def clamp(self, x: Value, low: float, high: float) -> Value:
        """`x` limited to [low, high]; NaN becomes `low` (so that nothing later
        converts a NaN to an integer: callers restore the NaN at the end)."""
        raised = self.select(self.cmpf("ult", x, self.f(low)), self.f(low), x)
        return self.select(self.cmpf("ogt", raised, self.f(high)), self.f(high), raised)

    def keep_nan(self, x: Value, result: Value) -> Value:
        """`result`, or `x` where `x` is NaN."""
        return self.select(self.cmpf("uno", x, x), x, result)

    # ---------------------------------------------------------------- bits and integers

    def bits(self, x: Value) -> Value:
        """The float's bit pattern as i32."""
        return self.op(BitcastOp, x, result_type=self.int_type)

    def from_bits(self, n: Value) -> Value:
        """The float whose bit pattern is the i32 `n`."""
        return self.op(BitcastOp, n, result_type=self.float_type)

    def to_int(self, x: Value) -> Value:
        """An integral float (in i32's range) as i32."""
        return self.op(FPToSIOp, x, result_type=self.int_type)

    def to_float(self, n: Value) -> Value:
        return self.op(SIToFPOp, n, result_type=self.float_type)

    def iadd(self, a: Value, b: Value) -> Value:
        return self.op(AddIOp, a, b)

    def isub(self, a: Value, b: Value) -> Value:
        return self.op(SubIOp, a, b)

    def iand(self, a: Value, b: Value) -> Value:
        return self.op(AndIOp, a, b)

    def shl(self, a: Value, b: Value) -> Value:
        return self.op(ShLIOp, a, b)

    def ashr(self, a: Value, b: Value) -> Value:
        return self.op(ShRSIOp, a, b)

    def pow2(self, k: Value) -> Value:
        """2^k for an i32 `k` in [-126, 127], built from its exponent bits."""
        return self.from_bits(self.shl(self.iadd(k, self.i(127)), self.i(23)))

    # ---------------------------------------------------------------- control flow

    def any(self, condition: Value) -> Value:
        """Whether `condition` (an i1, or a vector of them) holds in some lane."""
        if isinstance(condition.type, VectorType):
            return self.op(ReductionOp, condition, None, result_type=IntegerType(1),
                           kind=CombiningKind(Kind.OR))
        return condition

    def if_any(self, condition: Value, then: Callable[[KernelBuilder], Sequence[Value]],
               otherwise: Sequence[Value]) -> list[Value]:
        """`then`'s values (built by it, in a region of its own) where `condition` holds
        in some lane, else `otherwise`: an `scf.if`, so that what `then` computes costs
        nothing when no lane needs it."""
        if_op = IfOp.create_if(self.any(condition), [v.type for v in otherwise])
        if_op.loc = self.loc
        self.rewriter.insert(if_op)
        with self.rewriter.insertion_point():
            self.rewriter.set_insertion_point_to_end(if_op.then_block)
            inner = KernelBuilder(self.rewriter, self.loc, self.float_type)
            self.rewriter.create(YieldOp, list(then(inner)), loc=self.loc)
            self.rewriter.set_insertion_point_to_end(if_op.else_block)
            self.rewriter.create(YieldOp, list(otherwise), loc=self.loc)
        return list(if_op.results)
