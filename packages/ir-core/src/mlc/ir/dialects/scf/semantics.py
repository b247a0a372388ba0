"""The interpreter's handlers of the `scf` ops (imported by `mlc.ir.interpreter`).

Each runs its regions with :meth:`Interpreter.run_region` as the op's semantics say;
`scf.yield`, `scf.condition` and `scf.reduce.return` hand values back with
:class:`Yield`. A loop nest without results first tries the lock-step fast path
(:mod:`mlc.ir.dialects.scf.bulk`), which computes the same or leaves it to these. `scf.parallel` runs its iterations in order (any order is a valid
one) and folds each reduction left to right from its init. A loop that runs more
iterations than the interpreter's `max_branches` stops with an
:class:`InterpreterError`, so a transformed endless loop cannot hang a comparison.
"""

from __future__ import annotations

import itertools

from mlc.ir.core.ir import Operation
from mlc.ir.dialects.index_lists import DYNAMIC_INDEX
from mlc.ir.dialects.scf.bulk import run_in_bulk
from mlc.ir.dialects.scf.forall import ForallOp, InParallelOp
from mlc.ir.dialects.scf.ops import (
    ConditionOp,
    ExecuteRegionOp,
    ForOp,
    IfOp,
    IndexSwitchOp,
    ParallelOp,
    ReduceOp,
    ReduceReturnOp,
    WhileOp,
    YieldOp,
)
from mlc.ir.interpreter import (
    Interpreter,
    InterpreterError,
    UndefinedBehavior,
    UnsupportedOperation,
    Yield,
    canonical_int,
    impl,
    to_unsigned,
)


def _count_iterations(interp: Interpreter, count: int) -> None:
    if count > interp.max_branches:
        raise InterpreterError(f"more than {interp.max_branches} loop iterations (an endless "
                               "loop?)")


@impl(YieldOp, ConditionOp, ReduceReturnOp)
def _yield(interp: Interpreter, op: Operation, operands: list) -> Yield:
    """Hands the operands back to the op whose region this is."""
    return Yield(operands)


@impl(ForOp)
def _for(interp: Interpreter, op: Operation, operands: list) -> list:
    """Iterates while the induction variable is below the upper bound (compared
    signed, or unsigned with `unsignedCmp`); the step is added with the type's
    wrap-around, as the lowering to `cf` computes it. A step that is not positive
    is undefined behaviour (MLIR requires a positive step)."""
    if not op.results and run_in_bulk(interp, op, operands):
        return []
    lower, upper, step, *carried = operands
    iv_type = op.operands[0].type
    unsigned = "unsignedCmp" in op.attributes
    key = (lambda v: to_unsigned(v, iv_type)) if unsigned else (lambda v: v)
    if key(step) <= 0:
        raise UndefinedBehavior("scf.for with a step that is not positive")
    region = op.regions[0]
    iv, iterations = lower, 0
    while key(iv) < key(upper):
        iterations += 1
        _count_iterations(interp, iterations)
        carried = interp.run_region(region, [iv, *carried])
        iv = canonical_int(iv + step, iv_type)
    return list(carried)


@impl(IfOp)
def _if(interp: Interpreter, op: Operation, operands: list) -> list:
    """Runs `then` or, if there is one, `else`."""
    region = op.regions[0] if operands[0] else op.regions[1]
    if not region.blocks:
        return []
    return list(interp.run_region(region, []))


@impl(WhileOp)
def _while(interp: Interpreter, op: Operation, operands: list) -> list:
    """`before`, then `after` while the condition holds."""
    before, after = op.regions
    values, iterations = list(operands), 0
    while True:
        condition, *passed = interp.run_region(before, values)
        if not condition:
            return passed
        iterations += 1
        _count_iterations(interp, iterations)
        values = list(interp.run_region(after, passed))


@impl(ExecuteRegionOp)
def _execute_region(interp: Interpreter, op: Operation, operands: list) -> list:
    """Runs the region once, following its branches."""
    return list(interp.run_region(op.regions[0], []))


@impl(IndexSwitchOp)
def _index_switch(interp: Interpreter, op: Operation, operands: list) -> list:
    """Runs the case region whose value is the index, else the default."""
    cases = [int(v) for v in op.attributes["cases"].values]
    regions = op.regions
    region = regions[1 + cases.index(operands[0])] if operands[0] in cases else regions[0]
    return list(interp.run_region(region, []))


@impl(ParallelOp)
def _parallel(interp: Interpreter, op: Operation, operands: list) -> list:
    """Every point of the iteration space in row-major order; each reduction combines
    the accumulated value (first the init) with the iteration's contribution."""
    if not op.results and run_in_bulk(interp, op, operands):
        return []
    rank = (len(operands) - len(op.results)) // 3
    lower, upper = operands[:rank], operands[rank:2 * rank]
    steps, accumulated = operands[2 * rank:3 * rank], list(operands[3 * rank:])
    if any(s <= 0 for s in steps):
        raise UndefinedBehavior("scf.parallel with a step that is not positive")
    region = op.regions[0]
    reduce = region.blocks[0].last_op
    ranges = [range(lo, hi, st) for lo, hi, st in zip(lower, upper, steps)]
    iterations = 0
    for point in itertools.product(*ranges):
        iterations += 1
        _count_iterations(interp, iterations)
        contributions = interp.run_region(region, list(point))
        accumulated = [interp.run_region(reduction, [acc, value])[0]
                       for reduction, acc, value in zip(reduce.regions, accumulated,
                                                        contributions)]
    return accumulated


@impl(ForallOp)
def _forall(interp: Interpreter, op: Operation, operands: list) -> list:
    """Every point of the iteration space in row-major order (any order is valid: the
    iterations are independent). Shared outputs, tensors written by the ops of
    `scf.forall.in_parallel`, are not modelled."""
    if op.results:
        raise UnsupportedOperation("scf.forall with shared outputs")
    dynamic = iter(operands)
    bounds = [[next(dynamic) if v == DYNAMIC_INDEX else v for v in op.attributes[name].values]
              for name in ("staticLowerBound", "staticUpperBound", "staticStep")]
    lower, upper, steps = bounds
    if any(s <= 0 for s in steps):
        raise UndefinedBehavior("scf.forall with a step that is not positive")
    region = op.regions[0]
    iterations = 0
    for point in itertools.product(*(range(lo, hi, st) for lo, hi, st in
                                     zip(lower, upper, steps))):
        iterations += 1
        _count_iterations(interp, iterations)
        interp.run_region(region, list(point))
    return []


@impl(InParallelOp)
def _in_parallel(interp: Interpreter, op: Operation, operands: list) -> Yield:
    """Ends an iteration of scf.forall (without outputs: nothing to combine)."""
    return Yield([])


@impl(ReduceOp)
def _reduce(interp: Interpreter, op: Operation, operands: list) -> Yield:
    """Ends an iteration of scf.parallel with its contributions (combined there)."""
    return Yield(operands)
