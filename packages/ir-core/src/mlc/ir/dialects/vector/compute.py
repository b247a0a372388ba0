"""`vector` ops that compute: `vector.fma` (a fused multiply-add per element) and
`vector.reduction` (a 1-D vector combined into a scalar, optionally with an
accumulator), with MLIR 22's syntax and verifier messages. The combining kinds are
`#vector.kind<...>` attributes; each kind is one arith op (see :data:`KIND_OPS`).
"""

from __future__ import annotations

import enum
from typing import Annotated

from mlc.ir.core.attributes import DialectAttribute, FloatType, IndexType, IntegerType, VectorType
from mlc.ir.dialects.arith.ops import (
    FASTMATH_NONE,
    AddFOp,
    AddIOp,
    AndIOp,
    FastMathFlags,
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
    XOrIOp,
)
from mlc.ir.dialects.vector.ops import AnyVector, vector
from mlc.ir.opdef.constraints import TypeMatches
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.spelling import EnumSpelling
from mlc.ir.opdef.traits import Pure, SameOperandsAndResultType, TypesMatchWith

FloatVector = TypeMatches(lambda t: isinstance(t, VectorType) and
                          isinstance(t.element_type, FloatType), "vector of floating-point values")


class Kind(enum.Enum):
    """How `vector.reduction` combines elements (MLIR's CombiningKind)."""

    ADD = "add"
    MUL = "mul"
    MINUI = "minui"
    MINSI = "minsi"
    MINNUMF = "minnumf"
    MAXUI = "maxui"
    MAXSI = "maxsi"
    MAXNUMF = "maxnumf"
    AND = "and"
    OR = "or"
    XOR = "xor"
    MAXIMUMF = "maximumf"
    MINIMUMF = "minimumf"


@vector.attribute
class CombiningKind(DialectAttribute):
    """`#vector.kind<add>`: how a reduction combines two elements."""

    name = "vector.kind"
    value: Annotated[Kind, EnumSpelling.of_enum(Kind)] = Kind.ADD
    assembly_format = "`<` $value `>`"


KIND_OPS: dict[Kind, tuple[type[Op] | None, type[Op] | None]] = {
    Kind.ADD: (AddIOp, AddFOp), Kind.MUL: (MulIOp, MulFOp),
    Kind.MINUI: (MinUIOp, None), Kind.MINSI: (MinSIOp, None),
    Kind.MAXUI: (MaxUIOp, None), Kind.MAXSI: (MaxSIOp, None),
    Kind.AND: (AndIOp, None), Kind.OR: (OrIOp, None), Kind.XOR: (XOrIOp, None),
    Kind.MINNUMF: (None, MinNumFOp), Kind.MAXNUMF: (None, MaxNumFOp),
    Kind.MINIMUMF: (None, MinimumFOp), Kind.MAXIMUMF: (None, MaximumFOp),
}
"""The arith op (on integers, on floats) combining two elements under each kind."""


def combining_op(kind: Kind, element) -> type[Op] | None:
    """The arith op combining elements of type `element` under `kind`; None if the
    kind does not apply to it."""
    int_op, float_op = KIND_OPS[kind]
    if isinstance(element, (IntegerType, IndexType)):
        return int_op
    if isinstance(element, FloatType):
        return float_op
    return None


@vector.op
class FMAOp(Op):
    """Fused multiply-add of vectors

    `lhs * rhs + acc` per element, rounded once:

        %r = vector.fma %a, %b, %c : vector<4xf32>
    """

    name = "vector.fma"
    lhs = OperandDef(FloatVector, doc="a factor")
    rhs = OperandDef(FloatVector, doc="the other factor")
    acc = OperandDef(FloatVector, doc="the addend")
    result = ResultDef(FloatVector, doc="the fused result")
    traits = (Pure, SameOperandsAndResultType)
    assembly_format = "$lhs `,` $rhs `,` $acc attr-dict `:` type($lhs)"


@vector.op
class ReductionOp(Op):
    """Reduces a vector to a scalar

    Combines the elements of a 1-D `vector` (after `acc`, if given) in order under
    `kind`, to one element:

        %s = vector.reduction <add>, %v, %acc : vector<4xf32> into f32
    """

    name = "vector.reduction"
    kind = AttrDef(CombiningKind, doc="how elements combine")
    vector = OperandDef(AnyVector, doc="the elements")
    acc = OperandDef(optional=True, doc="the value combined with them first")
    dest = ResultDef(doc="the combination")
    fastmath = AttrDef(FastMathFlags, default=FASTMATH_NONE, doc="float relaxations allowed")
    traits = (Pure, TypesMatchWith("acc", "dest", lambda t: t, "dest and acc have same type"))
    assembly_format = ("$kind `,` $vector (`,` $acc^)? (`fastmath` `` $fastmath^)? attr-dict "
                       "`:` type($vector) `into` type($dest)")

    def verify_custom(self) -> None:
        source = self.vector.type
        if source.rank > 1:
            raise VerificationError(f"unsupported reduction rank: {source.rank}")
        element = source.element_type
        if element != self.dest.type:
            raise VerificationError("failed to verify that source operand and result have same "
                                    "element type")
        if combining_op(self.kind.value, element) is None:
            raise VerificationError(f"unsupported reduction type ''{element}'' for kind "
                                    f"'{self.kind.value.value}'")


__all__ = ["CombiningKind", "FMAOp", "KIND_OPS", "Kind", "ReductionOp", "combining_op"]
