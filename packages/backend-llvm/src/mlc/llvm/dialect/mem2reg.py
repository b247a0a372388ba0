"""The llvm dialect's promotable slots for mem2reg: an `llvm.alloca` of one element
(its array size the constant 1), loaded and stored whole with its element type by
non-volatile, non-atomic `llvm.load`/`llvm.store`; read before any store, it is
`llvm.mlir.undef` (as MLIR's)."""

from __future__ import annotations

from mlc.ir.core.attributes import Location, Type
from mlc.ir.core.ir import Operation, Value
from mlc.ir.interfaces.int_range import local_range
from mlc.ir.passes.generic.mem2reg import PROMOTABLE_SLOTS, PromotableSlot
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.llvm.dialect.ops_values import AllocaOp, LoadOp, StoreOp, UndefOp


def _element(op: Operation) -> Type | None:
    if not isinstance(op, AllocaOp) or "inalloca" in op.attributes:
        return None
    size = local_range(op.operands[0])
    if size is None or size.smin != 1 or size.smax != 1:
        return None
    return op.attributes["elem_type"].value


def _plain(op: Operation) -> bool:
    """Neither volatile nor atomic (ordering 0 is `not_atomic`)."""
    ordering = op.attributes.get("ordering")
    return "volatile_" not in op.attributes and (ordering is None or ordering.value == 0)


def _loaded(op: Operation, slot: Value) -> bool:
    return isinstance(op, LoadOp) and op.operands[0] is slot and _plain(op)


def _stored(op: Operation, slot: Value) -> Value | None:
    if isinstance(op, StoreOp) and op.operands[1] is slot and op.operands[0] is not slot \
            and _plain(op):
        return op.operands[0]
    return None


def _undef(rewriter: Rewriter, type_: Type, loc: Location) -> Value:
    return rewriter.create(UndefOp, result_types=[type_], loc=loc).results[0]


PROMOTABLE_SLOTS.append(PromotableSlot(_element, _loaded, _stored, _undef))
