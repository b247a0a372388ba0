"""What the `func` ops do, for the reference interpreter (:mod:`mlc.ir.interpreter`,
which runs a `func.func`'s body): a call runs the callee, a return ends the run."""

from __future__ import annotations

from mlc.ir.core.ir import Operation
from mlc.ir.dialects.func.ops import CallOp, ReturnOp
from mlc.ir.interpreter import (
    FunctionReturn,
    Interpreter,
    ScalarValue,
    UndefinedBehavior,
    UnsupportedOperation,
    holds_poison,
    impl,
)


@impl(ReturnOp)
def _return(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Ends the enclosing function's run with `operands` as its results (returning
    poison is undefined behaviour)."""
    if any(holds_poison(v) for v in operands):
        raise UndefinedBehavior("a poison value is returned (a shift by the bit width or "
                                "more)")
    raise FunctionReturn(list(operands))


@impl(CallOp)
def _call(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Runs the callee, looked up from the call's nearest symbol table."""
    callee = op.attributes["callee"]
    if getattr(callee, "nested", ()):
        raise UnsupportedOperation("calls to nested symbols are not supported")
    return interp.call(interp.lookup_function(callee.root, op), operands)


