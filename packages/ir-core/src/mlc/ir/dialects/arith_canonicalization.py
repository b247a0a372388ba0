"""arith's canonicalization patterns, declared as DAGs (MLIR's
ArithCanonicalization.td), and the native hooks they use.

Result ops carry no overflow flags: dropping `nsw`/`nuw` is always correct.
"""

from __future__ import annotations

from mlc.ir.core.attributes import Attribute, FloatType, IndexType, IntegerAttr, i1
from mlc.ir.dialects.arith import CmpIPredicate
from mlc.ir.dialects.arith_constants import (
    constant_scalars,
    element_type_of,
    is_int_value,
    make_constant,
    wrap_int,
)
from mlc.ir.rewrite.drr import (
    A,
    AttrIs,
    Check,
    Const,
    Dag,
    DagPattern,
    Native,
    V,
    constraint,
    native,
)


def _int_binary(fn):
    def apply(a: Attribute, b: Attribute):
        lhs, rhs = constant_scalars(a), constant_scalars(b)
        if lhs is None or rhs is None or lhs[0] != rhs[0]:
            return None
        return make_constant(lhs[0], wrap_int(fn(lhs[1], rhs[1]), lhs[0]))

    return apply


native("add_int")(_int_binary(lambda a, b: a + b))
native("sub_int")(_int_binary(lambda a, b: a - b))
native("mul_int")(_int_binary(lambda a, b: a * b))

_INVERTED_CMPI = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sle": "sgt", "sgt": "sle",
                  "ult": "uge", "uge": "ult", "ule": "ugt", "ugt": "ule"}


@native("invert_cmpi_predicate")
def _invert_cmpi_predicate(predicate: IntegerAttr) -> IntegerAttr:
    return CmpIPredicate.attr(_INVERTED_CMPI[CmpIPredicate.keyword(predicate)])


@constraint("is_int_constant")
def _is_int_constant(attr: Attribute) -> bool:
    scalars = constant_scalars(attr)
    return scalars is not None and not isinstance(element_type_of(scalars[0]), FloatType)


@constraint("is_minus_one")
def _is_minus_one(attr: Attribute) -> bool:
    return is_int_value(attr, -1)


@constraint("is_i1")
def _is_i1(value) -> bool:
    return value.type == i1


TRUE = IntegerAttr(1, i1)


def _const(name: str, native_fn: str, *args: str) -> Dag:
    return Dag("arith.constant", value=Native(native_fn, *args))


ADDI = [
    DagPattern("AddIAddConstant",
               Dag("arith.addi", Dag("arith.addi", V("x"), Const("c0")), Const("c1")),
               Dag("arith.addi", V("x"), _const("r", "add_int", "c0", "c1")),
               [Check("is_int_constant", "c0")],
               doc="addi(addi(x, c0), c1) -> addi(x, c0 + c1)"),
    DagPattern("AddISubConstantRHS",
               Dag("arith.addi", Dag("arith.subi", V("x"), Const("c0")), Const("c1")),
               Dag("arith.addi", V("x"), _const("r", "sub_int", "c1", "c0")),
               [Check("is_int_constant", "c0")],
               doc="addi(subi(x, c0), c1) -> addi(x, c1 - c0)"),
    DagPattern("AddISubConstantLHS",
               Dag("arith.addi", Dag("arith.subi", Const("c0"), V("x")), Const("c1")),
               Dag("arith.subi", _const("r", "add_int", "c0", "c1"), V("x")),
               [Check("is_int_constant", "c0")],
               doc="addi(subi(c0, x), c1) -> subi(c0 + c1, x)"),
    DagPattern("AddIMulNegativeOneRhs",
               Dag("arith.addi", V("x"), Dag("arith.muli", V("y"), Const("m"))),
               Dag("arith.subi", V("x"), V("y")),
               [Check("is_minus_one", "m")],
               doc="addi(x, muli(y, -1)) -> subi(x, y)"),
    DagPattern("AddIMulNegativeOneLhs",
               Dag("arith.addi", Dag("arith.muli", V("x"), Const("m")), V("y")),
               Dag("arith.subi", V("y"), V("x")),
               [Check("is_minus_one", "m")],
               doc="addi(muli(x, -1), y) -> subi(y, x)"),
]

SUBI = [
    DagPattern("SubIRHSAddConstant",
               Dag("arith.subi", Dag("arith.addi", V("x"), Const("c0")), Const("c1")),
               Dag("arith.addi", V("x"), _const("r", "sub_int", "c0", "c1")),
               [Check("is_int_constant", "c0")],
               doc="subi(addi(x, c0), c1) -> addi(x, c0 - c1)"),
    DagPattern("SubILHSAddConstant",
               Dag("arith.subi", Const("c1"), Dag("arith.addi", V("x"), Const("c0"))),
               Dag("arith.subi", _const("r", "sub_int", "c1", "c0"), V("x")),
               [Check("is_int_constant", "c0")],
               doc="subi(c1, addi(x, c0)) -> subi(c1 - c0, x)"),
    DagPattern("SubIRHSSubConstantRHS",
               Dag("arith.subi", Dag("arith.subi", V("x"), Const("c0")), Const("c1")),
               Dag("arith.subi", V("x"), _const("r", "add_int", "c0", "c1")),
               [Check("is_int_constant", "c0")],
               doc="subi(subi(x, c0), c1) -> subi(x, c0 + c1)"),
    DagPattern("SubIRHSSubConstantLHS",
               Dag("arith.subi", Dag("arith.subi", Const("c0"), V("x")), Const("c1")),
               Dag("arith.subi", _const("r", "sub_int", "c0", "c1"), V("x")),
               [Check("is_int_constant", "c0")],
               doc="subi(subi(c0, x), c1) -> subi(c0 - c1, x)"),
    DagPattern("SubILHSSubConstantRHS",
               Dag("arith.subi", Const("c1"), Dag("arith.subi", V("x"), Const("c0"))),
               Dag("arith.subi", _const("r", "add_int", "c0", "c1"), V("x")),
               [Check("is_int_constant", "c0")],
               doc="subi(c1, subi(x, c0)) -> subi(c0 + c1, x)"),
    DagPattern("SubILHSSubConstantLHS",
               Dag("arith.subi", Const("c1"), Dag("arith.subi", Const("c0"), V("x"))),
               Dag("arith.addi", V("x"), _const("r", "sub_int", "c1", "c0")),
               [Check("is_int_constant", "c0")],
               doc="subi(c1, subi(c0, x)) -> addi(x, c1 - c0)"),
]

MULI = [
    DagPattern("MulIMulIConstant",
               Dag("arith.muli", Dag("arith.muli", V("x"), Const("c0")), Const("c1")),
               Dag("arith.muli", V("x"), _const("r", "mul_int", "c0", "c1")),
               [Check("is_int_constant", "c0")],
               doc="muli(muli(x, c0), c1) -> muli(x, c0 * c1)"),
]

XORI = [
    DagPattern("XOrINotCmpI",
               Dag("arith.xori", Dag("arith.cmpi", V("a"), V("b"), predicate=A("p")),
                   Const(equals=TRUE)),
               Dag("arith.cmpi", V("a"), V("b"), predicate=Native("invert_cmpi_predicate", "p")),
               doc="xori(cmpi(p, a, b), true) -> cmpi(!p, a, b)"),
]

SELECT = [
    DagPattern("SelectNotCond",
               Dag("arith.select", Dag("arith.xori", V("c"), Const(equals=TRUE)), V("a"), V("b")),
               Dag("arith.select", V("c"), V("b"), V("a")),
               [Check("is_i1", "c")],
               doc="select(xori(c, true), a, b) -> select(c, b, a)"),
]

@constraint("result_has_type_of")
def _result_has_type_of(op, value) -> bool:
    return op.results[0].type == value.type


@constraint("casts_to_index")
def _casts_to_index(op) -> bool:
    source = element_type_of(op.operand(0).type)
    # index is 64 bits wide: only a narrower source survives the round trip.
    return isinstance(element_type_of(op.results[0].type), IndexType) and \
        getattr(source, "width", 65) <= 64


INDEX_CAST = [
    DagPattern("IndexCastOfIndexCast",
               Dag("arith.index_cast", Dag("arith.index_cast", V("x"), bind="inner"), bind="root"),
               V("x"),
               [Check("result_has_type_of", "root", "x"), Check("casts_to_index", "inner")],
               doc="index_cast(index_cast(x : iN -> index) -> iN) -> x: widening to index "
                   "and back loses nothing (the other way round truncates)"),
]


__all__ = ["ADDI", "SUBI", "MULI", "XORI", "SELECT", "INDEX_CAST", "AttrIs"]
