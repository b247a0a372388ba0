"""The `vector` dialect: ops on `vector<...>` values, with MLIR's names and syntax.

This module declares the dialect and `vector.broadcast`; `slicing.py`, `memory.py`
and `compute.py` the ops that rearrange, touch memory and compute.
"""

from __future__ import annotations

from mlc.ir.core.attributes import Type, VectorType
from mlc.ir.dialects.arith.constants import constant_scalars, element_type_of, make_constant
from mlc.ir.dialects.arith.ops import ArithConstantsDialect
from mlc.ir.dialects.ub.ops import is_poison
from mlc.ir.opdef.constraints import TypeMatches
from mlc.ir.opdef.declare import Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import Pure
from mlc.ir.rewrite.drr import Dag, DagPattern, V

vector = ArithConstantsDialect("vector", "Operations on vectors (`vector<...>` values).",
                               semantics="mlc.ir.dialects.vector.semantics")

AnyVector = TypeMatches(lambda t: isinstance(t, VectorType), "vector of any type values")


def _dim(size: int, scalable: bool) -> str:
    return f"[{size}]" if scalable else str(size)


def broadcast_mismatch(source: Type, result: VectorType) -> str | None:
    """Why `source` does not broadcast to `result` (None if it does), in MLIR's words:
    a scalar, or a vector whose dims, aligned on the right, are each 1 or equal to the
    result's (a scalable dim only to a scalable dim)."""
    if not isinstance(source, VectorType):
        return None if source == result.element_type else "source type is not a vector"
    rank_gap = len(result.shape) - len(source.shape)
    if rank_gap < 0:
        return "source rank higher than destination rank"
    for i, size in enumerate(source.shape):
        scalable = bool(source.scalable) and source.scalable[i]
        target = result.shape[i + rank_gap]
        target_scalable = bool(result.scalable) and result.scalable[i + rank_gap]
        if (size == 1 and not scalable) or (size, scalable) == (target, target_scalable):
            continue
        return (f"dimension mismatch ({_dim(size, scalable)} vs. "
                f"{_dim(target, target_scalable)})")
    return None


@vector.op
class BroadcastOp(Op):
    """Broadcasts a scalar or a vector to a vector of higher or equal rank, numpy's
    way: the source's dims, aligned on the right, are each 1 (stretched) or the
    result's; the missing leading dims are added."""

    name = "vector.broadcast"
    source = OperandDef()
    vector = ResultDef(AnyVector)
    traits = (Pure,)
    assembly_format = "$source attr-dict `:` type($source) `to` type($vector)"

    def verify_custom(self) -> None:
        result = self.vector.type
        if element_type_of(self.source.type) != result.element_type:
            raise VerificationError("failed to verify that source operand and result have "
                                    "same element type")
        reason = broadcast_mismatch(self.source.type, result)
        if reason is not None:
            raise VerificationError(reason)

    def fold(self, operands):
        if self.source.type == self.vector.type:
            return self.source
        source = operands[0]
        if is_poison(source):
            return source
        scalars = constant_scalars(source)
        if scalars is None:
            return None
        return make_constant(self.vector.type, scalars[1])


vector.add_canonicalization_patterns([
    DagPattern("BroadcastOfBroadcast",
               Dag(BroadcastOp, Dag(BroadcastOp, V("x"))),
               Dag(BroadcastOp, V("x")),
               doc="broadcast(broadcast(x)) -> broadcast(x): broadcasting is transitive"),
])

__all__ = ["BroadcastOp", "broadcast_mismatch", "vector"]
