"""The `ub` dialect: undefined behaviour made explicit, with MLIR's names and syntax.

`ub.poison` is a constant whose value is poison: any use of it may take any value,
and an op computing from poison gives poison. Folders treat its `#ub.poison`
attribute as a constant; :func:`poison_of` is what they use to propagate it.
"""

from __future__ import annotations

from mlc.ir.core.attributes import Attribute, DialectAttribute, Location, Type
from mlc.ir.core.dialect_registry import Dialect
from mlc.ir.core.ir import Operation
from mlc.ir.opdef.constraints import AttrOfClass
from mlc.ir.opdef.declare import AttrDef, Op, ResultDef
from mlc.ir.opdef.traits import ConstantLike, Pure


class UBDialect(Dialect):
    def materialize_constant(self, value: Attribute, type_: Type, loc: Location) -> Operation | None:
        if isinstance(value, PoisonAttr):
            return PoisonOp.build(result_types=[type_], value=value, loc=loc)
        return None


ub = UBDialect("ub", "Undefined behaviour: the poison value.",
               semantics="mlc.ir.dialects.ub.semantics")


@ub.attribute
class PoisonAttr(DialectAttribute):
    """`#ub.poison`: the constant value of a `ub.poison` op, whatever its type."""

    name = "ub.poison"


POISON = PoisonAttr()


@ub.op
class PoisonOp(Op):
    """A poison value of any type: each use may see any value, and ops computing from
    it give poison (folders propagate it; `arith.select` picks its other operand)."""

    name = "ub.poison"
    value = AttrDef(AttrOfClass((PoisonAttr,), "poison attribute"), default=POISON)
    result = ResultDef()
    traits = (Pure, ConstantLike)
    assembly_format = "attr-dict (`<` $value^ `>`)? `:` type($result)"

    def fold(self, operands):
        return self.value


def is_poison(attr: Attribute | None) -> bool:
    """Whether a folder's operand constant is poison."""
    return isinstance(attr, PoisonAttr)


def poison_of(operands) -> PoisonAttr | None:
    """The poison among a folder's operand constants, if any: the result of an op that
    computes from poison (MLIR's common folders return it before folding)."""
    return next((a for a in operands if isinstance(a, PoisonAttr)), None)


__all__ = ["POISON", "PoisonAttr", "PoisonOp", "is_poison", "poison_of", "ub"]
