"""What the `cf` ops do, for the reference interpreter (:mod:`mlc.ir.interpreter`):
a branch hands the engine the block to go to and its arguments. A branch into a loop
of the shape `convert-scf-to-cf` gives an `scf.for` first tries the lock-step fast
path (:mod:`mlc.ir.dialects.cf.bulk`), which computes the same or leaves it to these."""

from __future__ import annotations

from mlc.ir.core.ir import Operation
from mlc.ir.dialects.cf.bulk import run_loop_in_bulk
from mlc.ir.dialects.cf.ops import AssertOp, BranchOp, CondBranchOp, SwitchOp, case_values_of
from mlc.ir.interfaces.control_flow import BranchLike
from mlc.ir.interpreter import (
    AssertionFailure,
    BranchTo,
    Interpreter,
    ScalarValue,
    UndefinedBehavior,
    holds_poison,
    impl,
    to_unsigned,
)


def _decide_on(op: Operation, value: ScalarValue) -> None:
    """A branch, switch or assertion that decides on poison makes the program's
    behaviour undefined."""
    if holds_poison(value):
        raise UndefinedBehavior(f"'{op.name}' decides on a poison value")


def _successor_values(op: Operation, index: int, operands: list[ScalarValue]) -> BranchTo:
    """Jump to successor `index` of a branch op with the operands it passes there."""
    start, size = BranchLike.get(op).successor_operand_range(op, index)
    return BranchTo(op.successors[index], list(operands[start:start + size]))


@impl(BranchOp)
def _br(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> BranchTo:
    """Jumps to the successor."""
    exit = run_loop_in_bulk(interp, op, operands)
    if exit is not None:  # the loop it enters ran in lock-step: go on past it
        return BranchTo(exit, [])
    return _successor_values(op, 0, operands)


@impl(CondBranchOp)
def _cond_br(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> BranchTo:
    """Jumps to the first successor if the condition is true, else to the second."""
    _decide_on(op, operands[0])
    return _successor_values(op, 0 if operands[0] else 1, operands)


@impl(SwitchOp)
def _switch(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> BranchTo:
    """Jumps to the case whose value has the flag's bits, else to the default."""
    _decide_on(op, operands[0])
    flag = to_unsigned(operands[0], op.operands[0].type)
    for index, value in enumerate(case_values_of(op)):
        if value == flag:
            return _successor_values(op, index + 1, operands)
    return _successor_values(op, 0, operands)


@impl(AssertOp)
def _assert(interp: Interpreter, op: Operation, operands: list[ScalarValue]) -> list[ScalarValue]:
    """Stops the program with the message if the condition is false."""
    _decide_on(op, operands[0])
    if not operands[0]:
        raise AssertionFailure(op.attributes["msg"].value)
    return []


