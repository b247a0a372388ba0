"""arith-emulate-wide-int: integers twice as wide as a target supports (`i64` when
`widest-int-supported=32`) become pairs of supported ones, and the arith ops on them
work on the halves (MLIR's ArithEmulateWideInt pass).

Types: an `i2N` becomes `vector<2xiN>` (element 0 the low half, 1 the high half), a
`vector<...xi2N>` becomes `vector<...x2xiN>`; function signatures, calls and returns
follow. Each op takes its operands' halves apart (`vector.extract` of a 1-D pair,
`vector.extract_strided_slice` of a wider vector's last dimension), computes on them
(additions with carry, long multiplication, shifts across the halves, comparisons of
the high halves then the low ones) and puts the result together (`vector.insert`,
`vector.insert_strided_slice` into a zero constant). Some ops are first rewritten into
others that are then emulated in turn (`maxsi` into `cmpi` + `select`, `shrsi` into
`shrui` and the sign bits, `sitofp` into `uitofp` of the magnitude). An op with an
integer wider than `2N` bits, or an emulated one no pattern handles, fails the pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlc.ir.core.attributes import (
    DenseElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Type,
    VectorType,
    float_to_bits,
    i1,
)
from mlc.ir.core.ir import Operation, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects.arith import (
    AddFOp,
    AddIOp,
    AddUIExtendedOp,
    AndIOp,
    CmpIOp,
    CmpIPredicate,
    ConstantOp,
    DivFOp,
    MaxSIOp,
    MaxUIOp,
    MinSIOp,
    MinUIOp,
    MulFOp,
    MulIOp,
    MulUIExtendedOp,
    NegFOp,
    OrIOp,
    RemFOp,
    SelectOp,
    ShLIOp,
    ShRSIOp,
    ShRUIOp,
    SubIOp,
    XOrIOp,
)
from mlc.ir.dialects.arith.casts import (
    ExtSIOp,
    ExtUIOp,
    FPToSIOp,
    FPToUIOp,
    IndexCastOp,
    IndexCastUIOp,
    SIToFPOp,
    TruncIOp,
    UIToFPOp,
)
from mlc.ir.dialects.arith.constants import element_type_of, with_element_type, wrap_int
from mlc.ir.dialects.func import CallOp, FuncOp, ReturnOp
from mlc.ir.dialects.func.conversion import populate_function_signature_conversion
from mlc.ir.dialects.vector.slicing import (
    ExtractOp,
    ExtractStridedSliceOp,
    InsertOp,
    InsertStridedSliceOp,
    ShapeCastOp,
    i64_array,
    positions,
)
from mlc.ir.passes.arith.builder import ArithBuilder
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.conversion import (
    ConversionPattern,
    ConversionRewriter,
    ConversionTarget,
    apply_partial_conversion,
)
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.rewrite.type_converter import TypeConverter

# ------------------------------------------------------------------ types


class WideIntEmulationConverter(TypeConverter):
    """`i2N` -> `vector<2xiN>`, `vector<...xi2N>` -> `vector<...x2xiN>`; every other
    type is kept (an integer wider than 2N too: ops on it are left illegal)."""

    def __init__(self, widest_supported: int):
        super().__init__()
        self.widest = widest_supported
        self.add_conversion(self._convert)

    def _convert(self, type_: Type) -> Type | None:
        element = element_type_of(type_)
        if not isinstance(element, IntegerType) or element.width != 2 * self.widest:
            return None
        half = IntegerType(self.widest)
        if isinstance(type_, VectorType):
            return VectorType(type_.shape + (2,), half)
        return VectorType((2,), half) if type_ == element else None  # tensors stay

    def fits(self, type_: Type) -> bool:
        """Whether the target supports `type_` as it is (no integer wider than N)."""
        element = element_type_of(type_)
        return not isinstance(element, IntegerType) or element.width <= self.widest

    def converted(self, type_: Type) -> VectorType | None:
        """The pair type `type_` becomes, or None when it is not emulated."""
        [new] = self.convert_type(type_)
        return new if new != type_ else None


# ------------------------------------------------------------------ halves


def _innermost_component(type_: VectorType) -> Type:
    """The type of one half: `vector<3x2xi16>` -> `vector<3x1xi16>`, `vector<2xi16>` ->
    `i16`."""
    if len(type_.shape) == 1:
        return type_.element_type
    return VectorType(type_.shape[:-1] + (1,), type_.element_type)


def _extract_half(b: ArithBuilder, value: Value, index: int) -> Value:
    """Element `index` of the last dimension: a scalar of a 1-D pair, else a slice."""
    shape = value.type.shape
    if len(shape) == 1:
        return b.op(ExtractOp, value, [], static_position=positions([index]))
    offsets = [0] * (len(shape) - 1) + [index]
    sizes = list(shape[:-1]) + [1]
    return b.op(ExtractStridedSliceOp, value, offsets=i64_array(offsets),
                sizes=i64_array(sizes), strides=i64_array([1] * len(shape)))


def _halves(b: ArithBuilder, value: Value) -> tuple[Value, Value]:
    return _extract_half(b, value, 0), _extract_half(b, value, 1)


def _drop_trailing_unit_dim(b: ArithBuilder, value: Value) -> Value:
    if not isinstance(value.type, VectorType):
        return value
    shape = value.type.shape
    return b.op(ShapeCastOp, value, result_type=VectorType(shape[:-1], value.type.element_type))


def _append_unit_dim(b: ArithBuilder, value: Value) -> Value:
    if not isinstance(value.type, VectorType):
        return value
    shape = value.type.shape
    return b.op(ShapeCastOp, value,
                result_type=VectorType(shape + (1,), value.type.element_type))


def _insert_half(b: ArithBuilder, half: Value, dest: Value, index: int) -> Value:
    if isinstance(half.type, IntegerType):
        return b.op(InsertOp, half, dest, [], static_position=positions([index]))
    rank = len(dest.type.shape)
    return b.op(InsertStridedSliceOp, half, dest,
                offsets=i64_array([0] * (rank - 1) + [index]), strides=i64_array([1] * rank))


def _pair(b: ArithBuilder, type_: VectorType, low: Value, high: Value) -> Value:
    """The pair (low, high) of `type_`, inserted into a zero constant."""
    result = b.constant(type_, 0)
    for index, half in enumerate((low, high)):
        result = _insert_half(b, half, result, index)
    return result


def _cast_or_same(b: ArithBuilder, op_class, value: Value, type_: Type) -> Value:
    """`op_class` (an integer extension) of `value` to `type_`; `value` itself when it
    has that type already (MLIR's createOrFold folds the identity)."""
    return value if value.type == type_ else b.op(op_class, value, result_type=type_)


class _Emulation(ConversionPattern):
    """An emulation pattern: `pair_type(t)` is the pair type an emulated `t`
    becomes (None when `t` is not emulated)."""

    def pair_type(self, type_: Type) -> VectorType | None:
        return self.type_converter.converted(type_)

    def builder(self, op: Operation, rewriter: ConversionRewriter) -> ArithBuilder:
        rewriter.set_insertion_point_before(op)
        return ArithBuilder(rewriter, op.loc)

    def unsupported(self, op: Operation, rewriter, type_: Type) -> bool:
        return rewriter.notify_match_failure(op, f"unsupported type: {type_}")


# ------------------------------------------------------------------ constants and plain ops


class EmulateConstant(_Emulation):
    """A constant's every value split into its (low, high) halves."""

    root = ConstantOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.results[0].type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.results[0].type)
        value = op.value
        half = pair_type.element_type
        width = half.width
        if isinstance(value, IntegerAttr):
            wide = [value.value]
        elif isinstance(value, DenseElementsAttr):
            wide = [int(v) for v in value.array.flat]
        else:
            return rewriter.notify_match_failure(op, "unhandled constant attribute")
        mask = (1 << width) - 1
        values = [wrap_int(part, half) for v in wide for part in (v & mask, (v >> width) & mask)]
        import numpy as np

        array = np.array(values).reshape(pair_type.shape)
        attr = DenseElementsAttr.from_array(array, pair_type)
        b = self.builder(op, rewriter)
        rewriter.replace_op(op, [b.op(ConstantOp, value=attr)])
        return True


class EmulateAddI(_Emulation):
    """(a + b).low = a.low + b.low; .high = carry + a.high + b.high"""

    root = AddIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.results[0].type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.results[0].type)
        b = self.builder(op, rewriter)
        lhs_low, lhs_high = _halves(b, adaptor.lhs)
        rhs_low, rhs_high = _halves(b, adaptor.rhs)
        low, carry = rewriter.create(
            AddUIExtendedOp, lhs_low, rhs_low, loc=op.loc,
            result_types=[lhs_low.type, with_element_type(lhs_low.type, i1)]).results
        carry = b.op(ExtUIOp, carry, result_type=_innermost_component(pair_type))
        high = b.op(AddIOp, b.op(AddIOp, carry, lhs_high), rhs_high)
        rewriter.replace_op(op, [_pair(b, pair_type, low, high)])
        return True


class EmulateSubI(_Emulation):
    """(a - b).low = a.low - b.low; .high = a.high - borrow - b.high"""

    root = SubIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.results[0].type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.results[0].type)
        b = self.builder(op, rewriter)
        lhs_low, lhs_high = _halves(b, adaptor.lhs)
        rhs_low, rhs_high = _halves(b, adaptor.rhs)
        low = b.op(SubIOp, lhs_low, rhs_low)
        borrow = b.op(ExtUIOp, b.cmpi("ult", lhs_low, rhs_low),
                      result_type=_innermost_component(pair_type))
        high = b.op(SubIOp, b.op(SubIOp, lhs_high, borrow), rhs_high)
        rewriter.replace_op(op, [_pair(b, pair_type, low, high)])
        return True


class EmulateMulI(_Emulation):
    """Long multiplication, the top 2N bits of the 4N-bit product left out:
    low = lo(a.low * b.low); high = hi(a.low * b.low) + a.low * b.high + a.high * b.low"""

    root = MulIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.results[0].type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.results[0].type)
        b = self.builder(op, rewriter)
        lhs_low, lhs_high = _halves(b, adaptor.lhs)
        rhs_low, rhs_high = _halves(b, adaptor.rhs)
        low, carry = rewriter.create(MulUIExtendedOp, lhs_low, rhs_low, loc=op.loc,
                                     result_types=[lhs_low.type] * 2).results
        low_high = b.op(MulIOp, lhs_low, rhs_high)
        high_low = b.op(MulIOp, lhs_high, rhs_low)
        high = b.op(AddIOp, b.op(AddIOp, carry, low_high), high_low)
        rewriter.replace_op(op, [_pair(b, pair_type, low, high)])
        return True


class _EmulateBitwise(_Emulation):
    """A bitwise op applied to each half."""

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.results[0].type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.results[0].type)
        b = self.builder(op, rewriter)
        lhs_low, lhs_high = _halves(b, adaptor.lhs)
        rhs_low, rhs_high = _halves(b, adaptor.rhs)
        op_class = type(op)
        low, high = b.op(op_class, lhs_low, rhs_low), b.op(op_class, lhs_high, rhs_high)
        rewriter.replace_op(op, [_pair(b, pair_type, low, high)])
        return True


class EmulateAndI(_EmulateBitwise):
    """andi on each half"""
    root = AndIOp


class EmulateOrI(_EmulateBitwise):
    """ori on each half"""
    root = OrIOp


class EmulateXOrI(_EmulateBitwise):
    """xori on each half"""
    root = XOrIOp


_UNSIGNED_OF = {"slt": "ult", "sle": "ule", "sgt": "ugt", "sge": "uge"}


class EmulateCmpI(_Emulation):
    """eq: both halves equal; ne: either differs; an order: the high halves' order
    (signed as asked), or the low halves' (unsigned) when the high halves are equal"""

    root = CmpIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.lhs.type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.lhs.type)
        b = self.builder(op, rewriter)
        predicate = CmpIPredicate.keyword(op.predicate)
        lhs_low, lhs_high = _halves(b, adaptor.lhs)
        rhs_low, rhs_high = _halves(b, adaptor.rhs)
        low = b.cmpi(_UNSIGNED_OF.get(predicate, predicate), lhs_low, rhs_low)
        high = b.cmpi(predicate, lhs_high, rhs_high)
        if predicate == "eq":
            result = b.op(AndIOp, low, high)
        elif predicate == "ne":
            result = b.op(OrIOp, low, high)
        else:
            result = b.op(SelectOp, b.cmpi("eq", lhs_high, rhs_high), low, high)
        rewriter.replace_op(op, [_drop_trailing_unit_dim(b, result)])
        return True


class EmulateSelect(_Emulation):
    """select on each half (the condition given a trailing unit dim)"""

    root = SelectOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.results[0].type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.results[0].type)
        b = self.builder(op, rewriter)
        true_low, true_high = _halves(b, adaptor.true_value)
        false_low, false_high = _halves(b, adaptor.false_value)
        condition = _append_unit_dim(b, adaptor.condition)
        low = b.op(SelectOp, condition, true_low, false_low)
        high = b.op(SelectOp, condition, true_high, false_high)
        rewriter.replace_op(op, [_pair(b, pair_type, low, high)])
        return True


class _EmulateExtremum(_Emulation):
    """max/min -> select(cmpi(pred, a, b), a, b) on the wide values, emulated in turn"""

    predicate = ""

    def match_and_rewrite(self, op, adaptor, rewriter):
        if self.pair_type(op.results[0].type) is None:
            return self.unsupported(op, rewriter, op.results[0].type)
        b = self.builder(op, rewriter)
        lhs, rhs = op.operands
        rewriter.replace_op(op, [b.op(SelectOp, b.cmpi(self.predicate, lhs, rhs), lhs, rhs)])
        return True


class EmulateMaxSI(_EmulateExtremum):
    """maxsi -> select(cmpi sgt)"""
    root, predicate = MaxSIOp, "sgt"


class EmulateMaxUI(_EmulateExtremum):
    """maxui -> select(cmpi ugt)"""
    root, predicate = MaxUIOp, "ugt"


class EmulateMinSI(_EmulateExtremum):
    """minsi -> select(cmpi slt)"""
    root, predicate = MinSIOp, "slt"


class EmulateMinUI(_EmulateExtremum):
    """minui -> select(cmpi ult)"""
    root, predicate = MinUIOp, "ult"


# ------------------------------------------------------------------ shifts


class EmulateShLI(_Emulation):
    """Shift left by s (< 2N; its high half is ignored): low = s < N ? low << s : 0;
    high = s < N ? (high << s) | (low >> (N - s)) : low << (s - N)"""

    root = ShLIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.results[0].type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.results[0].type)
        b = self.builder(op, rewriter)
        half_type = _innermost_component(pair_type)
        lhs_low, lhs_high = _halves(b, adaptor.lhs)
        amount = _extract_half(b, adaptor.rhs, 0)
        zero = b.constant(half_type, 0)
        width = b.constant(half_type, pair_type.element_type.width)
        too_far = b.cmpi("uge", amount, width)
        low = b.op(SelectOp, too_far, zero, b.op(ShLIOp, lhs_low, amount))
        capped = b.op(SelectOp, too_far, width, amount)
        carried_right = b.op(ShRUIOp, lhs_low, b.op(SubIOp, width, capped))
        carried_left = b.op(ShLIOp, lhs_low, b.op(SubIOp, amount, width))
        high_shifted = b.op(SelectOp, too_far, zero, b.op(ShLIOp, lhs_high, amount))
        carried = b.op(SelectOp, too_far, carried_left, carried_right)
        high = b.op(OrIOp, carried, high_shifted)
        rewriter.replace_op(op, [_pair(b, pair_type, low, high)])
        return True


class EmulateShRUI(_Emulation):
    """Logical shift right by s (< 2N): high = s < N ? high >> s : 0;
    low = s < N ? (low >> s) | (high << (N - s)) : high >> (s - N)"""

    root = ShRUIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.results[0].type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.results[0].type)
        b = self.builder(op, rewriter)
        half_type = _innermost_component(pair_type)
        lhs_low, lhs_high = _halves(b, adaptor.lhs)
        amount = _extract_half(b, adaptor.rhs, 0)
        zero = b.constant(half_type, 0)
        width = b.constant(half_type, pair_type.element_type.width)
        too_far = b.cmpi("uge", amount, width)
        low_shifted = b.op(SelectOp, too_far, zero, b.op(ShRUIOp, lhs_low, amount))
        high = b.op(SelectOp, too_far, zero, b.op(ShRUIOp, lhs_high, amount))
        capped = b.op(SelectOp, too_far, width, amount)
        carried_left = b.op(ShLIOp, lhs_high, b.op(SubIOp, width, capped))
        carried_right = b.op(ShRUIOp, lhs_high, b.op(SubIOp, amount, width))
        carried = b.op(SelectOp, too_far, carried_right, carried_left)
        low = b.op(OrIOp, low_shifted, carried)
        rewriter.replace_op(op, [_pair(b, pair_type, low, high)])
        return True


class EmulateShRSI(_Emulation):
    """Arithmetic shift right -> shrui or'ed with the sign bits (all-sign shifted left
    by 2N - s), on the wide values (emulated in turn); a shift by 0 is the value"""

    root = ShRSIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        wide_type = op.results[0].type
        pair_type = self.pair_type(wide_type)
        if pair_type is None:
            return self.unsupported(op, rewriter, wide_type)
        b = self.builder(op, rewriter)
        lhs_high = _extract_half(b, adaptor.lhs, 1)
        amount = _extract_half(b, adaptor.rhs, 0)
        narrow_type = amount.type
        zero = b.constant(narrow_type, 0)
        sign = _drop_trailing_unit_dim(b, b.cmpi("slt", lhs_high, zero))
        all_sign = b.op(ExtSIOp, sign, result_type=wide_type)
        full_width = b.constant(narrow_type, 2 * pair_type.element_type.width)
        unsigned_bits = _drop_trailing_unit_dim(b, b.op(SubIOp, full_width, amount))
        unsigned_bits = b.op(ExtUIOp, unsigned_bits, result_type=wide_type)
        sign_bits = b.op(ShLIOp, all_sign, unsigned_bits)
        lhs, rhs = op.operands
        shifted = b.op(OrIOp, b.op(ShRUIOp, lhs, rhs), sign_bits)
        no_shift = _drop_trailing_unit_dim(b, b.cmpi("eq", amount, zero))
        rewriter.replace_op(op, [b.op(SelectOp, no_shift, lhs, shifted)])
        return True


# ------------------------------------------------------------------ casts


class EmulateExtSI(_Emulation):
    """low = extsi(x) to N bits; high = all copies of low's sign bit"""

    root = ExtSIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.results[0].type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.results[0].type)
        b = self.builder(op, rewriter)
        half_type = _innermost_component(pair_type)
        low = _cast_or_same(b, ExtSIOp, _append_unit_dim(b, adaptor.input), half_type)
        negative = b.cmpi("slt", low, b.constant(half_type, 0))
        high = b.op(ExtSIOp, negative, result_type=half_type)
        rewriter.replace_op(op, [_pair(b, pair_type, low, high)])
        return True


class EmulateExtUI(_Emulation):
    """low = extui(x) to N bits; high = 0"""

    root = ExtUIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.results[0].type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.results[0].type)
        b = self.builder(op, rewriter)
        half_type = _innermost_component(pair_type)
        low = _cast_or_same(b, ExtUIOp, _append_unit_dim(b, adaptor.input), half_type)
        rewriter.replace_op(op, [_insert_half(b, low, b.constant(pair_type, 0), 0)])
        return True


class EmulateTruncI(_Emulation):
    """The low half, truncated further if the result is narrower"""

    root = TruncIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        result_type = op.results[0].type
        if not self.type_converter.fits(result_type) or \
                self.pair_type(op.input.type) is None:
            return rewriter.notify_match_failure(
                op, f"unsupported truncation result type: {result_type}")
        b = self.builder(op, rewriter)
        low = _drop_trailing_unit_dim(b, _extract_half(b, adaptor.input, 0))
        rewriter.replace_op(op, [_cast_or_same(b, TruncIOp, low, result_type)])
        return True


def _is_index_like(type_: Type) -> bool:
    from mlc.ir.core.attributes import IndexType

    return isinstance(element_type_of(type_), IndexType)


class _EmulateIndexCastToIndex(_Emulation):
    """index_cast(ui) of a wide integer to index: of its low half"""

    def match_and_rewrite(self, op, adaptor, rewriter):
        result_type = op.results[0].type
        if not _is_index_like(result_type):
            return rewriter.notify_match_failure(op, "not a cast to index")
        if self.pair_type(op.input.type) is None:
            return self.unsupported(op, rewriter, op.input.type)
        b = self.builder(op, rewriter)
        low = _drop_trailing_unit_dim(b, _extract_half(b, adaptor.input, 0))
        rewriter.replace_op(op, [b.op(type(op), low, result_type=result_type)])
        return True


class _EmulateIndexCastFromIndex(_Emulation):
    """index_cast(ui) of an index to a wide integer: to N bits, then extended (an
    extension emulated in turn)"""

    extension: type = ExtSIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        result_type = op.results[0].type
        if not _is_index_like(op.input.type):
            return rewriter.notify_match_failure(op, "not a cast from index")
        pair_type = self.pair_type(result_type)
        if pair_type is None:
            return self.unsupported(op, rewriter, result_type)
        b = self.builder(op, rewriter)
        narrow = with_element_type(result_type, pair_type.element_type)
        value = b.op(type(op), adaptor.input, result_type=narrow)
        rewriter.replace_op(op, [b.op(self.extension, value, result_type=result_type)])
        return True


class EmulateIndexCastToIndex(_EmulateIndexCastToIndex):
    """index_cast to index: of the low half"""
    root = IndexCastOp


class EmulateIndexCastUIToIndex(_EmulateIndexCastToIndex):
    """index_castui to index: of the low half"""
    root = IndexCastUIOp


class EmulateIndexCastFromIndex(_EmulateIndexCastFromIndex):
    """index_cast from index: to N bits, then extsi"""
    root, extension = IndexCastOp, ExtSIOp


class EmulateIndexCastUIFromIndex(_EmulateIndexCastFromIndex):
    """index_castui from index: to N bits, then extui"""
    root, extension = IndexCastUIOp, ExtUIOp


def _float_constant(b: ArithBuilder, type_: Type, value: float) -> Value:
    element = element_type_of(type_)
    if isinstance(type_, VectorType):
        return b.constant(type_, value)
    return b.op(ConstantOp, value=FloatAttr(float_to_bits(value, element), element))


class EmulateSIToFP(_Emulation):
    """sitofp(x) = x < 0 ? -uitofp(-x) : uitofp(x), on the wide values (emulated in turn)"""

    root = SIToFPOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        value = op.input
        if self.pair_type(value.type) is None:
            return self.unsupported(op, rewriter, value.type)
        b = self.builder(op, rewriter)
        zero = b.constant(value.type, 0)
        negative = b.cmpi("slt", value, zero)
        magnitude = b.op(SelectOp, negative, b.op(SubIOp, zero, value), value)
        unsigned = b.op(UIToFPOp, magnitude, result_type=op.results[0].type)
        rewriter.replace_op(op, [b.op(SelectOp, negative, b.op(NegFOp, unsigned), unsigned)])
        return True


class EmulateUIToFP(_Emulation):
    """uitofp(x) = high == 0 ? uitofp(low) : uitofp(low) + uitofp(high) * 2**N (exact
    only where the float represents the integer)"""

    root = UIToFPOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        pair_type = self.pair_type(op.input.type)
        if pair_type is None:
            return self.unsupported(op, rewriter, op.input.type)
        b = self.builder(op, rewriter)
        low, high = (_drop_trailing_unit_dim(b, half) for half in _halves(b, adaptor.input))
        high_is_zero = b.cmpi("eq", high, b.constant(high.type, 0))
        result_type = op.results[0].type
        low_float = b.op(UIToFPOp, low, result_type=result_type)
        high_float = b.op(UIToFPOp, high, result_type=result_type)
        scale = _float_constant(b, result_type, float(1 << pair_type.element_type.width))
        total = b.op(AddFOp, low_float, b.op(MulFOp, high_float, scale))
        rewriter.replace_op(op, [b.op(SelectOp, high_is_zero, low_float, total)])
        return True


class EmulateFPToSI(_Emulation):
    """fptosi(x) = x < 0 ? -fptoui(-x) : fptoui(x), on the wide values (emulated in turn)"""

    root = FPToSIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        result_type = op.results[0].type
        if self.pair_type(result_type) is None:
            return self.unsupported(op, rewriter, result_type)
        b = self.builder(op, rewriter)
        value = adaptor.input
        zero = _float_constant(b, value.type, 0.0)
        zero_int = b.constant(result_type, 0)
        negative = b.cmpf("olt", value, zero)
        magnitude = b.op(SelectOp, negative, b.op(NegFOp, value), value)
        unsigned = b.op(FPToUIOp, magnitude, result_type=result_type)
        negated = b.op(SubIOp, zero_int, unsigned)
        rewriter.replace_op(op, [b.op(SelectOp, negative, negated, unsigned)])
        return True


class EmulateFPToUI(_Emulation):
    """high = fptoui(x / 2**N); low = fptoui(x rem 2**N) (2**N taken as infinity where
    the float type cannot hold it)"""

    root = FPToUIOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        result_type = op.results[0].type
        pair_type = self.pair_type(result_type)
        if pair_type is None:
            return self.unsupported(op, rewriter, result_type)
        b = self.builder(op, rewriter)
        value = adaptor.input
        width = pair_type.element_type.width
        half_type = with_element_type(value.type, pair_type.element_type)
        element = element_type_of(value.type)
        fmt = element.format
        # 2**N rounds toward zero to a float when it is below the format's range;
        # else the high half must come out 0: divide by infinity.
        scale_value = float(1 << width) if width <= fmt.bias else float("inf")
        scale = _float_constant(b, value.type, scale_value)
        high = b.op(FPToUIOp, b.op(DivFOp, value, scale), result_type=half_type)
        low = b.op(FPToUIOp, b.op(RemFOp, value, scale), result_type=half_type)
        high, low = _append_unit_dim(b, high), _append_unit_dim(b, low)
        rewriter.replace_op(op, [_pair(b, pair_type, low, high)])
        return True


PATTERNS = (EmulateConstant, EmulateCmpI, EmulateSelect, EmulateAddI, EmulateMulI, EmulateShLI,
            EmulateShRSI, EmulateShRUI, EmulateMaxUI, EmulateMaxSI, EmulateMinUI, EmulateMinSI,
            EmulateSubI, EmulateAndI, EmulateOrI, EmulateXOrI, EmulateExtSI, EmulateExtUI,
            EmulateTruncI, EmulateIndexCastToIndex, EmulateIndexCastUIToIndex,
            EmulateIndexCastFromIndex, EmulateIndexCastUIFromIndex, EmulateSIToFP,
            EmulateUIToFP, EmulateFPToUI, EmulateFPToSI)


# ------------------------------------------------------------------ the pass


@dataclass(frozen=True)
class EmulateWideIntOptions:
    widest_int_supported: int = option(32, min=2, doc="the widest integer type the target "
                                       "supports (a power of two); twice as wide is emulated")


def emulation_target(converter: WideIntEmulationConverter) -> ConversionTarget:
    """arith, func.call and func.return legal where every type fits the target;
    func.func where its signature and block arguments do; vector always."""
    fits = converter.fits

    def op_fits(op: Operation) -> bool:
        return all(fits(t) for t in op.operand_types) and all(fits(t) for t in op.result_types)

    def function_fits(op: Operation) -> bool:
        fn_type = op.type
        return all(fits(t) for t in (*fn_type.inputs, *fn_type.results)) and \
            all(fits(arg.type) for block in op.body.blocks for arg in block.args)

    target = ConversionTarget()
    target.add_dynamically_legal_dialect("arith", op_fits)
    target.add_dynamically_legal_op(FuncOp, function_fits)
    target.add_dynamically_legal_op((CallOp, ReturnOp), op_fits)
    target.add_legal_dialect("vector")
    return target


def emulation_patterns(converter: WideIntEmulationConverter) -> PatternSet:
    patterns = PatternSet(pattern(converter) for pattern in PATTERNS)
    populate_function_signature_conversion(patterns, converter)
    return patterns


@register_pass("arith-emulate-wide-int", opt_level=0, options=EmulateWideIntOptions,
               dialects=("arith", "vector"),
               summary="Emulate integers twice as wide as the target supports with "
                       "pairs of supported ones.")
class ArithEmulateWideInt(Pass):
    def run(self, op: Operation, run) -> None:
        widest = run.options.widest_int_supported
        if widest & (widest - 1):
            raise PassFailure([Diagnostic(
                "error", f"widest-int-supported must be a power of two, got {widest}", op.loc)])
        converter = WideIntEmulationConverter(widest)
        result = apply_partial_conversion(op, emulation_target(converter),
                                          emulation_patterns(converter), converter,
                                          first_failure_only=True)
        if not result.success:
            raise PassFailure(result.diagnostics)


__all__ = ["ArithEmulateWideInt", "EmulateWideIntOptions", "WideIntEmulationConverter",
           "emulation_patterns", "emulation_target"]
