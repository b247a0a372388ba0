"""What `ub.poison` gives, for the reference interpreter: the one poison value."""

from __future__ import annotations

from mlc.ir.core.ir import Operation
from mlc.ir.dialects.ub.ops import PoisonOp
from mlc.ir.interpreter import POISON, Interpreter, ScalarValue, impl


@impl(PoisonOp)
def _poison(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Poison, passed on lazily as a shift by the bit width's is (see :mod:`mlc.ir.interpreter`)."""
    return [POISON] * len(op.results)
