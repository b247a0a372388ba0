"""arith's canonicalization patterns, declared as DAGs (MLIR's
ArithCanonicalization.td) and registered on the `arith` dialect, with the constraints
and natives they use.

The arith package imports it, so the dialect it gives has these patterns. A
reassociation keeps the overflow
flags both ops had (MLIR's MergeOverflow); other result ops carry none, as in MLIR:
dropping `nsw`/`nuw` is always correct.
"""

from __future__ import annotations

import operator

from mlc.ir.core.attributes import (
    Attribute,
    FloatType,
    IndexType,
    IntegerAttr,
    IntegerType,
    i1,
    unit,
)
from mlc.ir.dialects.arith.casts import (
    BitcastOp,
    ExtSIOp,
    ExtUIOp,
    IndexCastOp,
    IndexCastUIOp,
    SIToFPOp,
    TruncFOp,
    TruncIOp,
    UIToFPOp,
)
from mlc.ir.dialects.arith.constants import (
    as_signed,
    constant_scalars,
    element_type_of,
    int_width,
    is_int_value,
    make_constant,
    wrap_int,
)
from mlc.ir.dialects.arith.ops import (
    AddIOp,
    AddUIExtendedOp,
    AndIOp,
    CmpIOp,
    CmpIPredicate,
    ConstantOp,
    DivFOp,
    IntegerOverflowFlags,
    MulFOp,
    MulIOp,
    MulSIExtendedOp,
    MulUIExtendedOp,
    NegFOp,
    OrIOp,
    SelectOp,
    ShRSIOp,
    ShRUIOp,
    SubIOp,
    XOrIOp,
    arith,
)
from mlc.ir.rewrite.drr import A, AttrIs, Check, Const, Dag, DagPattern, Native, V

# ------------------------------------------------------------------ natives and constraints


def _fold_ints(a: Attribute, b: Attribute, fn) -> Attribute | None:
    """`fn` of two integer constants of one type, wrapped to that type; None otherwise."""
    lhs, rhs = constant_scalars(a), constant_scalars(b)
    if lhs is None or rhs is None or lhs[0] != rhs[0]:
        return None
    return make_constant(lhs[0], wrap_int(fn(lhs[1], rhs[1]), lhs[0]))


def add_int(a: Attribute, b: Attribute) -> Attribute | None:
    """a + b, wrapped to their type."""
    return _fold_ints(a, b, operator.add)


def sub_int(a: Attribute, b: Attribute) -> Attribute | None:
    """a - b, wrapped to their type."""
    return _fold_ints(a, b, operator.sub)


def mul_int(a: Attribute, b: Attribute) -> Attribute | None:
    """a * b, wrapped to their type."""
    return _fold_ints(a, b, operator.mul)


_INVERTED_CMPI = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sle": "sgt", "sgt": "sle",
                  "ult": "uge", "uge": "ult", "ule": "ugt", "ugt": "ule"}


def invert_cmpi_predicate(predicate: IntegerAttr) -> IntegerAttr:
    """The predicate true exactly when `predicate` is false (slt -> sge, eq -> ne...)."""
    return CmpIPredicate.attr(_INVERTED_CMPI[CmpIPredicate.keyword(predicate)])


def is_int_constant(attr: Attribute) -> bool:
    """A scalar or splat integer constant."""
    scalars = constant_scalars(attr)
    return scalars is not None and not isinstance(element_type_of(scalars[0]), FloatType)


def is_minus_one(attr: Attribute) -> bool:
    """A scalar or splat integer constant of all ones."""
    return is_int_value(attr, -1)


def is_i1(value) -> bool:
    """A scalar i1 value."""
    return value.type == i1


def result_has_type_of(op, value) -> bool:
    """`op`'s result has `value`'s type (so one can replace the other)."""
    return op.results[0].type == value.type


def casts_to_index(op) -> bool:
    """An index_cast to index from an integer of at most 64 bits."""
    source = element_type_of(op.operand(0).type)
    # index is 64 bits wide: only a narrower source survives the round trip.
    return isinstance(element_type_of(op.results[0].type), IndexType) and \
        getattr(source, "width", 65) <= 64


def result_wider_than(op, value) -> bool:
    """`op`'s result has wider elements than `value`."""
    return element_type_of(op.results[0].type).width > element_type_of(value.type).width


def second_result_unused(op) -> bool:
    """Nothing uses `op`'s second result (a carry, a high half)."""
    return not op.results[1].uses


def is_signed_one(attr: Attribute) -> bool:
    """A scalar or splat integer constant that is +1 read as signed (not i1's `true`,
    which is -1)."""
    scalars = constant_scalars(attr)
    return scalars is not None and not isinstance(element_type_of(scalars[0]), FloatType) \
        and as_signed(scalars[1], scalars[0]) == 1


def has_fixed_width(value) -> bool:
    """`value` is an integer of a fixed width (not `index`, which extsi cannot give)."""
    return not isinstance(element_type_of(value.type), IndexType)


def zero_of(value) -> Attribute | None:
    """The zero constant of `value`'s type (None for a tensor of dynamic shape)."""
    return make_constant(value.type, 0)


def is_inexact(op) -> bool:
    """`op` (a division or right shift) is not marked `exact`."""
    return "isExact" not in op.attributes


def has_default_rounding(op) -> bool:
    """`op` (a truncf) states no rounding mode: it rounds to nearest even."""
    return op.attributes.get("roundingmode") is None


def shifts_out_truncated_bits(value, truncation, amount: Attribute) -> bool:
    """The shift `amount` is exactly the number of bits `truncation` drops from
    `value`: the shifted-in bits are all dropped again."""
    scalars = constant_scalars(amount)
    if scalars is None or isinstance(element_type_of(scalars[0]), FloatType):
        return False
    dropped = int_width(value.type) - int_width(truncation.results[0].type)
    return wrap_int(scalars[1], scalars[0]) == dropped


def merge_overflow(a: IntegerOverflowFlags, b: IntegerOverflowFlags) -> IntegerOverflowFlags:
    """The flags both ops had: what still holds of the combined op."""
    return IntegerOverflowFlags(a.flags & b.flags)


def same_type(a, b) -> bool:
    """`a` and `b` have one type."""
    return a.type == b.type


def is_equality(predicate: IntegerAttr) -> bool:
    """An `eq` or `ne` comparison."""
    return CmpIPredicate.keyword(predicate) in ("eq", "ne")


def is_one(attr: Attribute) -> bool:
    """A scalar or splat integer constant 1."""
    return is_int_constant(attr) and is_int_value(attr, 1)


def is_zero(attr: Attribute) -> bool:
    """A scalar or splat integer constant 0."""
    return is_int_constant(attr) and is_int_value(attr, 0)


def is_wide_scalar_integer(op) -> bool:
    """`op`'s result is a scalar integer wider than i1 (which an extui can give)."""
    type_ = op.results[0].type
    return isinstance(type_, IntegerType) and type_.width > 1


TRUE = IntegerAttr(1, i1)
FALSE = IntegerAttr(0, i1)


def _const(native_fn, *args: str) -> Dag:
    return Dag(ConstantOp, value=Native(native_fn, *args))


# ------------------------------------------------------------------ patterns

def _ovf(name: str) -> dict:
    return {"overflowFlags": A(name)}


def _merged() -> dict:
    return {"overflowFlags": Native(merge_overflow, "ovf1", "ovf2")}


ADDI = [
    DagPattern("AddIAddConstant",
               Dag(AddIOp, Dag(AddIOp, V("x"), Const("c0"), **_ovf("ovf1")), Const("c1"),
                   **_ovf("ovf2")),
               Dag(AddIOp, V("x"), _const(add_int, "c0", "c1"), **_merged()),
               [Check(is_int_constant, "c0")],
               doc="addi(addi(x, c0), c1) -> addi(x, c0 + c1)"),
    DagPattern("AddISubConstantRHS",
               Dag(AddIOp, Dag(SubIOp, V("x"), Const("c0"), **_ovf("ovf1")), Const("c1"),
                   **_ovf("ovf2")),
               Dag(AddIOp, V("x"), _const(sub_int, "c1", "c0"), **_merged()),
               [Check(is_int_constant, "c0")],
               doc="addi(subi(x, c0), c1) -> addi(x, c1 - c0)"),
    DagPattern("AddISubConstantLHS",
               Dag(AddIOp, Dag(SubIOp, Const("c0"), V("x"), **_ovf("ovf1")), Const("c1"),
                   **_ovf("ovf2")),
               Dag(SubIOp, _const(add_int, "c0", "c1"), V("x"), **_merged()),
               [Check(is_int_constant, "c0")],
               doc="addi(subi(c0, x), c1) -> subi(c0 + c1, x)"),
    DagPattern("AddIMulNegativeOneRhs",
               Dag(AddIOp, V("x"), Dag(MulIOp, V("y"), Const("m"))),
               Dag(SubIOp, V("x"), V("y")),
               [Check(is_minus_one, "m")],
               doc="addi(x, muli(y, -1)) -> subi(x, y)"),
    DagPattern("AddIMulNegativeOneLhs",
               Dag(AddIOp, Dag(MulIOp, V("x"), Const("m")), V("y")),
               Dag(SubIOp, V("y"), V("x")),
               [Check(is_minus_one, "m")],
               doc="addi(muli(x, -1), y) -> subi(y, x)"),
]

SUBI = [
    DagPattern("SubIRHSAddConstant",
               Dag(SubIOp, Dag(AddIOp, V("x"), Const("c0")), Const("c1")),
               Dag(AddIOp, V("x"), _const(sub_int, "c0", "c1")),
               [Check(is_int_constant, "c0")],
               doc="subi(addi(x, c0), c1) -> addi(x, c0 - c1) (no flags: x + c0 may not "
                   "overflow where x - (c1 - c0) does)"),
    DagPattern("SubILHSAddConstant",
               Dag(SubIOp, Const("c1"), Dag(AddIOp, V("x"), Const("c0"), **_ovf("ovf1")),
                   **_ovf("ovf2")),
               Dag(SubIOp, _const(sub_int, "c1", "c0"), V("x"), **_merged()),
               [Check(is_int_constant, "c0")],
               doc="subi(c1, addi(x, c0)) -> subi(c1 - c0, x)"),
    DagPattern("SubIRHSSubConstantRHS",
               Dag(SubIOp, Dag(SubIOp, V("x"), Const("c0"), **_ovf("ovf1")), Const("c1"),
                   **_ovf("ovf2")),
               Dag(SubIOp, V("x"), _const(add_int, "c0", "c1"), **_merged()),
               [Check(is_int_constant, "c0")],
               doc="subi(subi(x, c0), c1) -> subi(x, c0 + c1)"),
    DagPattern("SubIRHSSubConstantLHS",
               Dag(SubIOp, Dag(SubIOp, Const("c0"), V("x"), **_ovf("ovf1")), Const("c1"),
                   **_ovf("ovf2")),
               Dag(SubIOp, _const(sub_int, "c0", "c1"), V("x"), **_merged()),
               [Check(is_int_constant, "c0")],
               doc="subi(subi(c0, x), c1) -> subi(c0 - c1, x)"),
    DagPattern("SubILHSSubConstantRHS",
               Dag(SubIOp, Const("c1"), Dag(SubIOp, V("x"), Const("c0"), **_ovf("ovf1")),
                   **_ovf("ovf2")),
               Dag(SubIOp, _const(add_int, "c0", "c1"), V("x"), **_merged()),
               [Check(is_int_constant, "c0")],
               doc="subi(c1, subi(x, c0)) -> subi(c0 + c1, x)"),
    DagPattern("SubILHSSubConstantLHS",
               Dag(SubIOp, Const("c1"), Dag(SubIOp, Const("c0"), V("x"), **_ovf("ovf1")),
                   **_ovf("ovf2")),
               Dag(AddIOp, V("x"), _const(sub_int, "c1", "c0"), **_merged()),
               [Check(is_int_constant, "c0")],
               doc="subi(c1, subi(c0, x)) -> addi(x, c1 - c0)"),
    DagPattern("SubISubILHSRHSLHS",
               Dag(SubIOp, Dag(SubIOp, V("x"), V("y"), **_ovf("ovf1")), V("x"), **_ovf("ovf2")),
               Dag(SubIOp, Dag(ConstantOp, value=Native(zero_of, "y")), V("y"), **_merged()),
               doc="subi(subi(x, y), x) -> subi(0, y)"),
]

MULI = [
    DagPattern("MulIMulIConstant",
               Dag(MulIOp, Dag(MulIOp, V("x"), Const("c0"), **_ovf("ovf1")), Const("c1"),
                   **_ovf("ovf2")),
               Dag(MulIOp, V("x"), _const(mul_int, "c0", "c1"), **_merged()),
               [Check(is_int_constant, "c0")],
               doc="muli(muli(x, c0), c1) -> muli(x, c0 * c1)"),
]


def _of_extensions(name: str, logic, extension, doc: str) -> DagPattern:
    return DagPattern(name, Dag(logic, Dag(extension, V("x")), Dag(extension, V("y"))),
                      Dag(extension, Dag(logic, V("x"), V("y"))),
                      [Check(same_type, "x", "y")], doc=doc)


# A bitwise op commutes with an extension of both operands from one type.
LOGIC_OF_EXTENSIONS = [
    _of_extensions("AndOfExtUI", AndIOp, ExtUIOp, "andi(extui(x), extui(y)) -> extui(andi(x, y))"),
    _of_extensions("AndOfExtSI", AndIOp, ExtSIOp, "andi(extsi(x), extsi(y)) -> extsi(andi(x, y))"),
    _of_extensions("OrOfExtUI", OrIOp, ExtUIOp, "ori(extui(x), extui(y)) -> extui(ori(x, y))"),
    _of_extensions("OrOfExtSI", OrIOp, ExtSIOp, "ori(extsi(x), extsi(y)) -> extsi(ori(x, y))"),
    _of_extensions("XOrIOfExtUI", XOrIOp, ExtUIOp, "xori(extui(x), extui(y)) -> extui(xori(x, y))"),
    _of_extensions("XOrIOfExtSI", XOrIOp, ExtSIOp, "xori(extsi(x), extsi(y)) -> extsi(xori(x, y))"),
]

CMPI = [
    DagPattern(f"CmpIExt{kind}",
               Dag(CmpIOp, Dag(extension, V("a")), Dag(extension, V("b")), predicate=A("p")),
               Dag(CmpIOp, V("a"), V("b"), predicate=A("p")),
               [Check(same_type, "a", "b"), Check(is_equality, "p")],
               doc=f"cmpi(eq or ne, ext{kind.lower()}(a), ext{kind.lower()}(b)) -> "
                   "cmpi(eq or ne, a, b): extending both keeps (in)equality")
    for kind, extension in (("SI", ExtSIOp), ("UI", ExtUIOp))
]

XORI = [
    DagPattern("XOrINotCmpI",
               Dag(XOrIOp, Dag(CmpIOp, V("a"), V("b"), predicate=A("p")),
                   Const(equals=TRUE)),
               Dag(CmpIOp, V("a"), V("b"), predicate=Native(invert_cmpi_predicate, "p")),
               doc="xori(cmpi(p, a, b), true) -> cmpi(!p, a, b)"),
]

SELECT = [
    DagPattern("SelectNotCond",
               Dag(SelectOp, Dag(XOrIOp, V("c"), Const("ones")), V("a"), V("b")),
               Dag(SelectOp, V("c"), V("b"), V("a")),
               [Check(is_minus_one, "ones")],
               doc="select(xori(c, true), a, b) -> select(c, b, a)"),
    DagPattern("RedundantSelectTrue",
               Dag(SelectOp, V("c"), Dag(SelectOp, V("c"), V("a"), V("b")), V("d")),
               Dag(SelectOp, V("c"), V("a"), V("d")),
               doc="select(c, select(c, a, b), d) -> select(c, a, d)"),
    DagPattern("RedundantSelectFalse",
               Dag(SelectOp, V("c"), V("a"), Dag(SelectOp, V("c"), V("b"), V("d"))),
               Dag(SelectOp, V("c"), V("a"), V("d")),
               doc="select(c, a, select(c, b, d)) -> select(c, a, d)"),
    DagPattern("SelectI1ToNot",
               Dag(SelectOp, V("c"), Const(equals=FALSE), Const(equals=TRUE)),
               Dag(XOrIOp, V("c"), Dag(ConstantOp, value=AttrIs(TRUE))),
               doc="select(c, false, true) -> xori(c, true)"),
    DagPattern("SelectToExtUI",
               Dag(SelectOp, V("c"), Const("one"), Const("zero"), bind="root"),
               Dag(ExtUIOp, V("c")),
               [Check(is_wide_scalar_integer, "root"), Check(is_one, "one"),
                Check(is_zero, "zero")],
               doc="select(c, 1, 0) -> extui(c), for a scalar integer result wider than i1"),
    DagPattern("SelectToNotExtUI",
               Dag(SelectOp, V("c"), Const("zero"), Const("one"), bind="root"),
               Dag(ExtUIOp, Dag(XOrIOp, V("c"), Dag(ConstantOp, value=AttrIs(TRUE)))),
               [Check(is_wide_scalar_integer, "root"), Check(is_one, "one"),
                Check(is_zero, "zero")],
               doc="select(c, 0, 1) -> extui(xori(c, true)), for a scalar integer result "
                   "wider than i1"),
]

# The fastmath flags are the root's, as in MLIR.
FLOAT = [
    DagPattern("MulFOfNegF",
               Dag(MulFOp, Dag(NegFOp, V("x")), Dag(NegFOp, V("y")), fastmath=A("fmf")),
               Dag(MulFOp, V("x"), V("y"), fastmath=A("fmf")),
               doc="mulf(negf(x), negf(y)) -> mulf(x, y)"),
    DagPattern("DivFOfNegF",
               Dag(DivFOp, Dag(NegFOp, V("x")), Dag(NegFOp, V("y")), fastmath=A("fmf")),
               Dag(DivFOp, V("x"), V("y"), fastmath=A("fmf")),
               doc="divf(negf(x), negf(y)) -> divf(x, y)"),
]

# The extension's bits are dropped again, but not all of them: one extension, from the
# original's width straight to the truncation's. (When the truncation reaches the
# original's width or below, the folder answers.)
CASTS = [
    DagPattern("TruncIExtSIToExtSI",
               Dag(TruncIOp, Dag(ExtSIOp, V("x")), bind="root"),
               Dag(ExtSIOp, V("x")),
               [Check(result_wider_than, "root", "x")],
               doc="trunci(extsi(x)) -> extsi(x), when the truncation keeps more bits than x has"),
    DagPattern("TruncIExtUIToExtUI",
               Dag(TruncIOp, Dag(ExtUIOp, V("x")), bind="root"),
               Dag(ExtUIOp, V("x")),
               [Check(result_wider_than, "root", "x")],
               doc="trunci(extui(x)) -> extui(x), when the truncation keeps more bits than x has"),
    DagPattern("ExtSIOfExtUI",
               Dag(ExtSIOp, Dag(ExtUIOp, V("x"))),
               Dag(ExtUIOp, V("x")),
               doc="extsi(extui(x)) -> extui(x): the zero-extended value's sign bit is 0"),
]

INDEX_CAST = [
    DagPattern("IndexCastOfIndexCast",
               Dag(IndexCastOp, Dag(IndexCastOp, V("x"), bind="inner"), bind="root"),
               V("x"),
               [Check(result_has_type_of, "root", "x"), Check(casts_to_index, "inner")],
               doc="index_cast(index_cast(x : iN -> index) -> iN) -> x: widening to index "
                   "and back loses nothing (the other way round truncates)"),
    DagPattern("IndexCastOfExtSI",
               Dag(IndexCastOp, Dag(ExtSIOp, V("x"))),
               Dag(IndexCastOp, V("x")),
               doc="index_cast(extsi(x)) -> index_cast(x): the cast sign-extends too"),
    DagPattern("IndexCastUIOfIndexCastUI",
               Dag(IndexCastUIOp, Dag(IndexCastUIOp, V("x"), bind="inner"), bind="root"),
               V("x"),
               [Check(result_has_type_of, "root", "x"), Check(casts_to_index, "inner")],
               doc="index_castui(index_castui(x : iN -> index) -> iN) -> x: widening to "
                   "index and back loses nothing (the other way round truncates)"),
    DagPattern("IndexCastUIOfExtUI",
               Dag(IndexCastUIOp, Dag(ExtUIOp, V("x"))),
               Dag(IndexCastUIOp, V("x")),
               doc="index_castui(extui(x)) -> index_castui(x): the cast zero-extends too"),
]

BITCAST = [
    DagPattern("BitcastOfBitcast",
               Dag(BitcastOp, Dag(BitcastOp, V("x"))),
               Dag(BitcastOp, V("x")),
               doc="bitcast(bitcast(x)) -> bitcast(x) (which folds away when it casts x to "
                   "its own type)"),
]

# The new shrui is exact when the shrsi was (no one bit is shifted out either way: the
# same bits go). The new trunci carries no overflow flags: MLIR keeps the trunci's, but
# `nsw` would make the rewrite poison a negative x that was fine.
FLOAT_AND_SHIFT_CASTS = [
    DagPattern("TruncIShrSIToTrunciShrUI",
               Dag(TruncIOp, Dag(ShRSIOp, V("x"), Const("c"), bind="shift"), bind="root"),
               Dag(TruncIOp, Dag(ShRUIOp, V("x"), Dag(ConstantOp, value=A("c")))),
               [Check(shifts_out_truncated_bits, "x", "root", "c"), Check(is_inexact, "shift")],
               doc="trunci(shrsi(x, c)) -> trunci(shrui(x, c)), when the truncation drops "
                   "exactly the c bits the shift fills in"),
    DagPattern("TruncIShrSIExactToTrunciShrUIExact",
               Dag(TruncIOp, Dag(ShRSIOp, V("x"), Const("c"), isExact=AttrIs(unit)),
                   bind="root"),
               Dag(TruncIOp, Dag(ShRUIOp, V("x"), Dag(ConstantOp, value=A("c")),
                                 isExact=AttrIs(unit))),
               [Check(shifts_out_truncated_bits, "x", "root", "c")],
               doc="trunci(shrsi(x, c) exact) -> trunci(shrui(x, c) exact), when the "
                   "truncation drops exactly the c bits the shift fills in"),
    DagPattern("TruncFSIToFPToSIToFP",
               Dag(TruncFOp, Dag(SIToFPOp, V("x")), bind="root"),
               Dag(SIToFPOp, V("x")),
               [Check(has_default_rounding, "root")],
               doc="truncf(sitofp(x)) -> sitofp(x) to the narrower type, when the truncf "
                   "rounds to nearest even"),
    DagPattern("TruncFUIToFPToUIToFP",
               Dag(TruncFOp, Dag(UIToFPOp, V("x")), bind="root"),
               Dag(UIToFPOp, V("x")),
               [Check(has_default_rounding, "root")],
               doc="truncf(uitofp(x)) -> uitofp(x) to the narrower type, when the truncf "
                   "rounds to nearest even"),
]

# The second result of the extended ops, when nothing uses it, may be replaced by any
# value: MLIR's patterns give the first operand.
EXTENDED = [
    DagPattern("AddUIExtendedToAddI",
               Dag(AddUIExtendedOp, V("x"), V("y"), bind="root"),
               (Dag(AddIOp, V("x"), V("y")), V("x")),
               [Check(second_result_unused, "root")],
               doc="addui_extended(x, y) -> [addi(x, y), x], when the carry is unused"),
    DagPattern("MulSIExtendedToMulI",
               Dag(MulSIExtendedOp, V("x"), V("y"), bind="root"),
               (Dag(MulIOp, V("x"), V("y")), V("x")),
               [Check(second_result_unused, "root")],
               doc="mulsi_extended(x, y) -> [muli(x, y), x], when the high half is unused"),
    DagPattern("MulSIExtendedRHSOne",
               Dag(MulSIExtendedOp, V("x"), Const("one")),
               (V("x"), Dag(ExtSIOp, Dag(CmpIOp, V("x"), Dag(ConstantOp, value=Native(zero_of, "x")),
                                         predicate=AttrIs(CmpIPredicate.attr("slt"))))),
               [Check(is_signed_one, "one"), Check(has_fixed_width, "x")],
               doc="mulsi_extended(x, 1) -> [x, extsi(cmpi slt, x, 0)]: the high half is "
                   "the sign of x (not for index, which extsi cannot give; MLIR builds the "
                   "invalid extsi)"),
    DagPattern("MulUIExtendedToMulI",
               Dag(MulUIExtendedOp, V("x"), V("y"), bind="root"),
               (Dag(MulIOp, V("x"), V("y")), V("x")),
               [Check(second_result_unused, "root")],
               doc="mului_extended(x, y) -> [muli(x, y), x], when the high half is unused"),
]

arith.add_canonicalization_patterns([*ADDI, *SUBI, *MULI, *XORI, *LOGIC_OF_EXTENSIONS, *CMPI,
                                     *SELECT, *FLOAT, *CASTS, *INDEX_CAST, *BITCAST,
                                     *FLOAT_AND_SHIFT_CASTS, *EXTENDED])

__all__ = ["arith"]
