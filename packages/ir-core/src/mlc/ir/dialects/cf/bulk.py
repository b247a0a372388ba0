"""The interpreter's fast path for the loops `convert-scf-to-cf` leaves as blocks and
branches: the iterations of a band of nested loops run at once, in lock-step, as
:mod:`mlc.ir.dialects.scf.bulk` runs the `scf` loops they were.

A loop is recognised by the shape the conversion gives an `scf.for` without results:

    cf.br ^header(%lower)                 // the entry, from outside the loop
  ^header(%iv):                          // nothing else in the header
    %go = arith.cmpi slt, %iv, %upper
    cf.cond_br %go, ^body, ^exit
  ^body: ...                             // blocks reaching ^header only through
  ^latch: ...                            // one latch:
    %next = arith.addi %iv, %step
    cf.br ^header(%next)

with `%upper` and `%step` defined outside the loop. A band is such a loop and the loops
nested in it as long as each body is a block of ops free of memory effects branching
to the inner loop, whose exit is the outer loop's latch (what `loop-lower`'s nests
become). Its points are the lanes; the innermost body then runs block by block on all
lanes (:func:`mlc.ir.dialects.scf.bulk.execute_on_lanes` for each op): a branch whose
condition is the same on every lane is followed (a loop inside runs its iterations in
order on all lanes), a conditional branch whose condition varies runs each successor
on the lanes that take it up to the block where the two paths meet again (the branch's
immediate post-dominator), whose arguments each lane takes from its path. Memory is
checked and undone as in the `scf` path; anything this path does not compute exactly
sends the loop to the scalar path, unchanged. After the band, the header's argument
holds what the scalar path leaves there: the first value not below `%upper`.
"""

from __future__ import annotations

from mlc.ir.core.ir import Block, Operation, Region, Value
from mlc.ir.dialects.arith import AddIOp, CmpIOp
from mlc.ir.dialects.arith.semantics import cmpi_predicate, overflow_flags
from mlc.ir.dialects.cf.ops import BranchOp, CondBranchOp
from mlc.ir.dialects.scf.bulk import (
    Band,
    LaneFrame,
    LaneMemory,
    Lanes,
    NotInLockStep,
    execute_on_lanes,
    merge_branches,
    range_points,
    run_band_in_bulk,
    runs_in_lock_step,
)
from mlc.ir.interfaces.control_flow import BranchLike
from mlc.ir.interfaces.side_effects import is_memory_effect_free
from mlc.ir.interpreter import Interpreter, holds_poison

__all__ = ["CfLoop", "cf_loop", "run_loop_in_bulk"]

_INDEX_MAX = (1 << 63) - 1


class CfLoop:
    """A loop as `convert-scf-to-cf` writes an `scf.for` without results (see the
    module docstring): its header, first body block, exit, latch, the values of its
    upper bound and step, and the blocks of its body."""

    def __init__(self, header: Block, body: Block, exit: Block, latch: Block,
                 upper: Value, step: Value, blocks: list[Block]):
        self.header, self.body, self.exit, self.latch = header, body, exit, latch
        self.upper, self.step, self.blocks = upper, step, blocks

    @property
    def induction_variable(self) -> Value:
        return self.header.args[0]


def cf_loop(header: Block) -> CfLoop | None:
    """The loop whose header is `header`, or None when the blocks do not have the
    shape (or hold an op the lock-step run cannot take)."""
    ops = list(header.ops())
    if len(header.args) != 1 or len(ops) != 2:
        return None
    compare, branch = ops
    if not isinstance(compare, CmpIOp) or not isinstance(branch, CondBranchOp) or \
            cmpi_predicate(compare) != "slt" or compare.operands[0] is not header.args[0] or \
            list(branch.operands) != [compare.results[0]]:
        return None
    body, exit = branch.successors
    if body is header or exit is header or exit.args:
        return None
    blocks = _blocks_before(body, header)
    if blocks is None or exit in blocks:
        return None
    latches = [b for b in blocks if header in b.successors]
    if len(latches) != 1:
        return None
    latch = latches[0]
    back = latch.last_op
    if not isinstance(back, BranchOp) or len(back.operands) != 1:
        return None
    stepped = back.operands[0].defining_op
    if not isinstance(stepped, AddIOp) or stepped.parent is not latch or \
            stepped.operands[0] is not header.args[0] or overflow_flags(stepped):
        return None
    for block in blocks:
        if not isinstance(block.last_op, (BranchOp, CondBranchOp)):
            return None
        if not all(runs_in_lock_step(op) for op in block.ops() if op is not block.last_op):
            return None
    return CfLoop(header, body, exit, latch, compare.operands[1], stepped.operands[1], blocks)


def _blocks_before(start: Block, stop: Block) -> list[Block] | None:
    """The blocks reachable from `start` without passing `stop`, in the order found;
    None when one has no terminator that branches."""
    found, seen, pending = [], {start}, [start]
    while pending:
        block = pending.pop()
        found.append(block)
        if block.last_op is None:
            return None
        for successor in block.successors:
            if successor is not stop and successor not in seen:
                seen.add(successor)
                pending.append(successor)
    return found


def _inner_loop(loop: CfLoop) -> CfLoop | None:
    """The loop nested in `loop` that a band may go on into: its body is a block of
    ops free of memory effects branching to that loop, whose exit is `loop`'s latch,
    which holds only ops free of memory effects."""
    branch = loop.body.last_op
    if not isinstance(branch, BranchOp) or len(branch.successors) != 1:
        return None
    inner = cf_loop(branch.successors[0])
    if inner is None or inner.exit is not loop.latch:
        return None
    for block in (loop.body, loop.latch):
        if not all(is_memory_effect_free(op) for op in block.ops() if op is not block.last_op):
            return None
    return inner


class _CfBand(Band):
    """A band of nested cf loops; a level is a :class:`CfLoop`, its operands the
    values of its (lower, upper, step)."""

    def __init__(self, loop: CfLoop):
        self.loop = loop

    def depth(self) -> int:
        depth, current = 0, self.loop
        while (current := _inner_loop(current)) is not None:
            depth += 1
        return depth

    def first(self):
        return self.loop

    def points(self, level, operands):
        lower, upper, step = operands
        return range_points([(lower, upper, step)])

    def induction_variables(self, level):
        return [level.induction_variable]

    def descend(self, interp, level, frame):
        for op in level.body.ops():
            if op is not level.body.last_op:
                execute_on_lanes(interp, op, frame, None)
        inner = _inner_loop(level)
        lower = frame.lookup(level.body.last_op.operands[0])
        return inner, [lower, frame.lookup(inner.upper), frame.lookup(inner.step)]

    def run_body(self, interp, level, frame, memory):
        _Walk(interp, memory).run(level.body, [], frame, (level.header,))

    def stores(self, level):
        return [op for block in level.blocks for op in block.ops()]


class _Walk:
    """Blocks run on the lanes of a frame, following the branches (see the module
    docstring); NotInLockStep where this cannot be done exactly."""

    def __init__(self, interp: Interpreter, memory: LaneMemory):
        self.interp, self.memory = interp, memory
        self.branches = 0
        self.diverging: set[Block] = set()

    def run(self, block: Block, args: list, frame: LaneFrame, stops: tuple[Block, ...]) -> list:
        """Run from `block` (its arguments `args`) until a branch to `stops[0]`: the
        values it passes there. Reaching another of `stops` first: NotInLockStep."""
        while block is not stops[0]:
            if block in stops:
                raise NotInLockStep()
            for arg, value in zip(block.args, args):
                frame.values[arg] = value
            terminator = block.last_op
            for op in block.ops():
                if op is not terminator:
                    execute_on_lanes(self.interp, op, frame, self.memory)
            block, args = self._branch(block, terminator, frame, stops)
            self.branches += 1
            if self.branches > self.interp.max_branches:
                raise NotInLockStep()
        return args

    def _post_dominators(self, region: Region) -> dict[Block, Block]:
        found = self.interp.state.setdefault("cf.bulk.post_dominators", {})
        if region not in found:
            found[region] = _post_dominators(region)
        return found[region]

    def _branch(self, block: Block, op: Operation, frame: LaneFrame,
                stops: tuple[Block, ...]) -> tuple[Block, list]:
        if isinstance(op, BranchOp):
            return op.successors[0], [frame.lookup(v) for v in op.operands]
        if not isinstance(op, CondBranchOp):
            raise NotInLockStep()
        condition = frame.lookup(op.operands[0])
        if holds_poison(condition):
            raise NotInLockStep()  # the scalar path reports the undefined behaviour
        if not isinstance(condition, Lanes):
            index = 0 if condition else 1
            return op.successors[index], _successor_operands(op, index, frame)
        merge = self._post_dominators(block.parent).get(block)
        if merge is None or block in self.diverging:
            raise NotInLockStep()  # no meeting point, or lanes leaving a loop apart
        mask = condition.array.astype(bool)
        self.diverging.add(block)
        try:
            paths = []
            for index, taken in ((0, mask), (1, ~mask)):
                if not taken.any():
                    paths.append((taken, None))
                    continue
                lanes = frame.subset(taken)
                paths.append((taken, self.run(op.successors[index],
                                              _successor_operands(op, index, lanes),
                                              lanes, (merge, *stops))))
        finally:
            self.diverging.discard(block)
        return merge, merge_branches(frame, [arg.type for arg in merge.args], paths)


def _successor_operands(op: Operation, index: int, frame: LaneFrame) -> list:
    start, size = BranchLike.get(op).successor_operand_range(op, index)
    return [frame.lookup(v) for v in list(op.operands)[start:start + size]]


def _post_dominators(region: Region) -> dict[Block, Block]:
    """Each block's immediate post-dominator in `region` (blocks without one left out):
    the iterative data-flow solution over the reversed control-flow graph."""
    blocks = list(region.blocks)
    every = frozenset(blocks)
    post = {b: frozenset({b}) if not b.successors else every for b in blocks}
    changed = True
    while changed:
        changed = False
        for block in reversed(blocks):
            if not block.successors:
                continue
            found = frozenset.intersection(*(post[s] for s in block.successors)) | {block}
            if found != post[block]:
                post[block], changed = found, True
    immediate = {}
    for block in blocks:
        strict = post[block] - {block}
        for candidate in strict:
            if post[candidate] == strict:
                immediate[block] = candidate
                break
    return immediate


def run_loop_in_bulk(interp: Interpreter, branch: Operation, operands: list) -> Block | None:
    """Run the loop `branch` (a `cf.br`) enters in lock-step if it can be done exactly:
    the loop's exit, where the run goes on (its header's argument set as the scalar path
    leaves it); None when it was not (nothing changed: run it on the scalar path)."""
    loop = _entered_loop(interp, branch)
    if loop is None:
        return None
    env = interp.env
    upper, step = env.get(loop.upper), env.get(loop.step)
    if not isinstance(upper, int) or not isinstance(step, int) or step <= 0:
        return None
    lower = operands[0]
    final = lower if lower >= upper else lower + -(-(upper - lower) // step) * step
    if final > _INDEX_MAX:
        return None  # the scalar path's induction variable wraps around
    if not run_band_in_bulk(interp, loop.header, lambda: _CfBand(loop),
                            [lower, upper, step]):
        return None
    env[loop.induction_variable] = final
    return loop.exit


def _entered_loop(interp: Interpreter, branch: Operation) -> CfLoop | None:
    """The loop `branch` enters from outside, or None; found once per interpreter."""
    loops = interp.state.setdefault("cf.bulk.loops", {})
    if branch not in loops:
        loop = cf_loop(branch.successors[0]) if len(branch.successors) == 1 else None
        loops[branch] = loop if loop is not None and branch.parent not in loop.blocks \
            else None
    return loops[branch]
