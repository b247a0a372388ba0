"""Integer range analysis: for every integer value under an op, the signed and unsigned
intervals its values lie in (MLIR's IntegerRangeAnalysis with its dead code analysis).

A sparse forward data-flow analysis run to a fixpoint. Each value starts unknown (the
lattice's bottom) and only grows, by union:

* an op's results come from its range rule (:mod:`mlc.ir.interfaces.int_range`) applied
  to its operands' ranges; an op without a rule (a call, a float op, an unknown op) may
  give anything: its integer results get the maximal range;
* a block's arguments join what its predecessors pass: the successor operands of the
  branches that reach it (:class:`~mlc.ir.interfaces.control_flow.BranchLike`, as cf's
  branches declare), or anything when a predecessor does not say; a function's (or
  any region not entered by a declared region branch) entry arguments may be anything;
* an op with regions that declares :class:`~mlc.ir.interfaces.control_flow.RegionBranch`
  passes its entry operands to the regions it enters, its regions' terminators pass
  theirs on, and what leaves the op joins into its results; a loop's single induction
  variable (:class:`~mlc.ir.interfaces.loop_like.LoopLike`) lies between its bounds.

Only blocks that control can reach are visited (MLIR's dead code analysis): the values
of the others stay unknown, so passes leave them alone. Unlike MLIR's, every successor
of a reachable branch counts as reachable, even one a constant condition rules out
(canonicalize folds such branches), and calls are not followed into their callees: a
call's results may be anything, and so may a function's arguments.

Like MLIR, the analysis does not count loop trips: a value computed by a rule that
feeds a terminator and grows after its first range is widened to the maximal range at
once, which bounds the iterations around loops.
"""

from __future__ import annotations

from collections import deque

from mlc.ir.analysis.int_range import IntRange, storage_width
from mlc.ir.core.ir import Block, Operation, Value
from mlc.ir.interfaces.control_flow import BranchLike, RegionBranch, RegionBranchTerminator
from mlc.ir.interfaces.int_range import has_int_range_rule, infer_result_ranges
from mlc.ir.interfaces.loop_like import LoopLike
from mlc.ir.opdef.traits import IsTerminator

__all__ = ["IntegerRangeAnalysis", "max_range_of"]


def max_range_of(value: Value) -> IntRange | None:
    """The maximal range of `value`'s type; None for a value that is not an integer."""
    width = storage_width(value.type)
    return IntRange.max_range(width) if width else None


class IntegerRangeAnalysis:
    """Ranges of the values under `root`, computed on construction; `range_of(v)` is
    None for values that are not integers, that no reachable code defines, or that
    are defined outside `root`."""

    def __init__(self, root: Operation):
        self.root = root
        self._ranges: dict[Value, IntRange] = {}
        self._live_blocks: set[Block] = set()
        self._worklist: deque[Operation] = deque()
        self._queued: set[Operation] = set()
        self._enter_regions_unknown(root)
        self._solve()

    # ------------------------------------------------------------------ queries

    def range_of(self, value: Value) -> IntRange | None:
        """What the analysis knows of `value` (None: nothing)."""
        return self._ranges.get(value)

    def constant_of(self, value: Value) -> int | None:
        """`value`'s only possible value as unsigned bits, if the range has one."""
        range_ = self._ranges.get(value)
        return None if range_ is None else range_.constant_value()

    def is_live(self, block: Block) -> bool:
        """Whether control can reach `block`."""
        return block in self._live_blocks

    # ------------------------------------------------------------------ updates from rewrites

    def copy_range(self, source: Value, target: Value) -> None:
        """Give `target` (a value a rewrite creates to stand for `source`) what is known
        of `source`, so later rewrites can read it."""
        range_ = self._ranges.get(source)
        if range_ is not None:
            self._ranges[target] = range_

    def forget(self, value: Value) -> None:
        """Drop what is known of `value` (its op is being erased)."""
        self._ranges.pop(value, None)

    # ------------------------------------------------------------------ the fixpoint

    def _solve(self) -> None:
        while self._worklist:
            op = self._worklist.popleft()
            self._queued.discard(op)
            if op.parent in self._live_blocks:
                self._visit(op)

    def _enqueue(self, op: Operation) -> None:
        if op not in self._queued:
            self._queued.add(op)
            self._worklist.append(op)

    def _mark_live(self, block: Block) -> None:
        if block not in self._live_blocks:
            self._live_blocks.add(block)
            for op in block.ops():
                self._enqueue(op)

    def _join(self, value: Value, range_: IntRange | None) -> bool:
        """Union `range_` into `value`'s range; revisit its users when it grows."""
        if range_ is None:
            return False
        old = self._ranges.get(value)
        new = range_ if old is None else old.union(range_)
        if new == old:
            return False
        self._ranges[value] = new
        for user in value.users:
            self._enqueue(user)
        return True

    def _join_all(self, values, ranges) -> None:
        for value, range_ in zip(values, ranges):
            self._join(value, range_)

    def _set_unknown(self, values) -> None:
        for value in values:
            self._join(value, max_range_of(value))

    # ------------------------------------------------------------------ transfer

    def _visit(self, op: Operation) -> None:
        branch = RegionBranch.get(op)
        if op.regions:
            if branch is not None:
                self._enter_region_branch(op, branch)
            else:
                self._enter_regions_unknown(op)
        if op.successors:
            self._visit_branch(op)
        forwarding = RegionBranchTerminator.get(op)
        if forwarding is not None:
            self._visit_region_terminator(op, forwarding)
        if branch is None:
            self._visit_results(op)

    def _visit_results(self, op: Operation) -> None:
        if not has_int_range_rule(op):
            self._set_unknown(op.results)
            return
        ranges = infer_result_ranges(op, [self._ranges.get(v) for v in op.operands]) or []
        for result, range_ in zip(op.results, ranges):
            old = self._ranges.get(result)
            if not self._join(result, range_):
                continue
            # A value going round a loop that keeps growing: give up on it now rather
            # than count the trips one at a time.
            if old is not None and any(user.has_trait(IsTerminator) for user in result.users):
                self._join(result, max_range_of(result))

    def _enter_regions_unknown(self, op: Operation) -> None:
        """Regions entered in ways nothing declares (a function's body): their entry
        arguments may be anything."""
        for region in op.regions:
            if region.blocks:
                entry = region.blocks[0]
                self._mark_live(entry)
                self._set_unknown(entry.args)

    def _enter_region_branch(self, op: Operation, branch: RegionBranch) -> None:
        operands = [self._ranges.get(v) for v in branch.entry_operands(op)]
        for successor in branch.successors(op, None):
            if successor.region is not None:
                self._enter_region(op, branch, successor.region)
            self._join_all(successor.inputs, operands)

    def _enter_region(self, op: Operation, branch: RegionBranch, region) -> None:
        entry = region.blocks[0]
        self._mark_live(entry)
        forwarded = set(branch.region_inputs(op, region))
        loop = LoopLike.get(op)
        induction_vars = loop.induction_vars(op) if loop is not None and \
            region in loop.loop_regions(op) else []
        if len(induction_vars) == 1:
            self._join(induction_vars[0], self._induction_range(op, loop, induction_vars[0]))
        else:
            self._set_unknown(induction_vars)
        self._set_unknown(a for a in entry.args if a not in forwarded and a not in induction_vars)

    def _induction_range(self, op: Operation, loop: LoopLike, iv: Value) -> IntRange | None:
        """[lower, upper - 1] (or [upper, lower] for a negative step) from what is known
        of the single bounds and step, each end the type's extreme when unknown."""
        width = storage_width(iv.type)
        if not width:
            return None
        full = IntRange.max_range(width)

        def bound(values, upper: bool) -> int:
            known = self._ranges.get(values[0]) if len(values) == 1 and \
                isinstance(values[0], Value) else None
            known = known or full
            return known.smax if upper else known.smin

        low = bound(loop.lower_bounds(op), upper=False)
        high = bound(loop.upper_bounds(op), upper=True)
        step = bound(loop.steps(op), upper=True)
        if step < 0:
            low, high = high, low
        else:
            high -= 1
        if high < low:
            return None
        return IntRange.from_signed(low, high, width)

    def _visit_branch(self, op: Operation) -> None:
        branch = BranchLike.get(op)
        for index, block in enumerate(op.successors):
            self._mark_live(block)
            if branch is None:
                self._set_unknown(block.args)
            else:
                operands = branch.successor_operands(op, index)
                self._join_all(block.args, [self._ranges.get(v) for v in operands])

    def _visit_region_terminator(self, op: Operation, forwarding: RegionBranchTerminator) -> None:
        parent = op.parent_op
        branch = RegionBranch.get(parent) if parent is not None else None
        if branch is None:
            return
        for successor in forwarding.successors(op):
            if successor.region is not None:
                self._enter_region(parent, branch, successor.region)
            operands = forwarding.successor_operands(op, successor)
            self._join_all(successor.inputs, [self._ranges.get(v) for v in operands])
