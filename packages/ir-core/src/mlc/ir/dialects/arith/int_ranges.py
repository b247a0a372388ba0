"""Integer range rules of the `arith` ops (MLIR's arith InferIntRangeInterface
implementations), registered by op class for :mod:`mlc.ir.analysis.int_range_analysis`.

Every integer op has one: constants, the arithmetic with its `nsw`/`nuw` flags, the
divisions and remainders, min/max, the bitwise ops and shifts, the integer casts
(extsi, extui, trunci, index_cast, index_castui), cmpi and select. Float ops and the
casts to and from floats have none: their integer results may hold anything.
"""

from __future__ import annotations

from mlc.ir.analysis import int_range as R
from mlc.ir.analysis.int_range import IntRange, storage_width
from mlc.ir.core.attributes import DenseElementsAttr, IntegerAttr
from mlc.ir.dialects.arith.casts import ExtSIOp, ExtUIOp, IndexCastOp, IndexCastUIOp, TruncIOp
from mlc.ir.dialects.arith.ops import (
    AddIOp,
    AndIOp,
    CeilDivSIOp,
    CeilDivUIOp,
    CmpIOp,
    CmpIPredicate,
    ConstantOp,
    DivSIOp,
    DivUIOp,
    FloorDivSIOp,
    MaxSIOp,
    MaxUIOp,
    MinSIOp,
    MinUIOp,
    MulIOp,
    OrIOp,
    Overflow,
    RemSIOp,
    RemUIOp,
    SelectOp,
    ShLIOp,
    ShRSIOp,
    ShRUIOp,
    SubIOp,
    XOrIOp,
)
from mlc.ir.interfaces.int_range import int_range_rule


@int_range_rule(ConstantOp)
def _constant(op: ConstantOp) -> IntRange | None:
    width = storage_width(op.result.type)
    value = op.value
    if width == 0:
        return None
    if isinstance(value, IntegerAttr):
        return IntRange.constant(value.value, width)
    if isinstance(value, DenseElementsAttr):
        splat = value.splat_element()
        elements = [splat] if splat is not None else value.array.reshape(-1).tolist()
        ranges = [IntRange.constant(int(e), width) for e in elements]
        if not ranges:
            return None
        result = ranges[0]
        for range_ in ranges[1:]:
            result = result.union(range_)
        return result
    return None


# The ops with no-wrap flags, whose rules read them.
_FLAGGED = {AddIOp: R.infer_add, SubIOp: R.infer_sub, MulIOp: R.infer_mul, ShLIOp: R.infer_shl}


def _flagged_rule(infer):
    def rule(op, lhs: IntRange, rhs: IntRange) -> IntRange:
        flags = op.overflowFlags.flags
        return infer(lhs, rhs, nsw=Overflow.nsw in flags, nuw=Overflow.nuw in flags)
    return rule


for _op_class, _infer in _FLAGGED.items():
    int_range_rule(_op_class)(_flagged_rule(_infer))

# The ops whose rule is a function of the operand ranges alone.
_BINARY = {
    DivUIOp: R.infer_div_unsigned, DivSIOp: R.infer_div_signed,
    CeilDivUIOp: R.infer_ceil_div_unsigned, CeilDivSIOp: R.infer_ceil_div_signed,
    FloorDivSIOp: R.infer_floor_div_signed,
    RemUIOp: R.infer_rem_unsigned, RemSIOp: R.infer_rem_signed,
    MaxSIOp: R.infer_max_signed, MaxUIOp: R.infer_max_unsigned,
    MinSIOp: R.infer_min_signed, MinUIOp: R.infer_min_unsigned,
    AndIOp: R.infer_and, OrIOp: R.infer_or, XOrIOp: R.infer_xor,
    ShRUIOp: R.infer_shr_unsigned, ShRSIOp: R.infer_shr_signed,
}

for _op_class, _infer in _BINARY.items():
    int_range_rule(_op_class)(lambda op, lhs, rhs, infer=_infer: infer(lhs, rhs))


@int_range_rule(ExtUIOp)
def _extui(op: ExtUIOp, source: IntRange) -> IntRange:
    return R.extend_unsigned_range(source, storage_width(op.result_types[0]))


@int_range_rule(ExtSIOp)
def _extsi(op: ExtSIOp, source: IntRange) -> IntRange:
    return R.extend_signed_range(source, storage_width(op.result_types[0]))


@int_range_rule(TruncIOp)
def _trunci(op: TruncIOp, source: IntRange) -> IntRange:
    return R.truncate_range(source, storage_width(op.result_types[0]))


def _index_cast(op, source: IntRange, extend) -> IntRange:
    width = storage_width(op.result_types[0])
    if source.width < width:
        return extend(source, width)
    if source.width > width:
        return R.truncate_range(source, width)
    return source


@int_range_rule(IndexCastOp)
def _index_cast_signed(op: IndexCastOp, source: IntRange) -> IntRange:
    return _index_cast(op, source, R.extend_signed_range)


@int_range_rule(IndexCastUIOp)
def _index_cast_unsigned(op: IndexCastUIOp, source: IntRange) -> IntRange:
    return _index_cast(op, source, R.extend_unsigned_range)


@int_range_rule(CmpIOp)
def _cmpi(op: CmpIOp, lhs: IntRange, rhs: IntRange) -> IntRange:
    truth = R.evaluate_predicate(CmpIPredicate.keyword(op.predicate), lhs, rhs)
    if truth is None:
        return IntRange.from_unsigned(0, 1, 1)
    return IntRange.constant(int(truth), 1)


@int_range_rule(SelectOp, optional_operands=True)
def _select(op: SelectOp, condition: IntRange | None, true_value: IntRange | None,
            false_value: IntRange | None) -> IntRange | None:
    known = condition.constant_value() if condition is not None else None
    if known is not None:
        return true_value if known else false_value
    if true_value is None or false_value is None:
        width = storage_width(op.result.type)
        return IntRange.max_range(width) if width else None
    return true_value.union(false_value)
