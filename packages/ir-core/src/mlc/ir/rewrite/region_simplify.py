"""Region simplification: the structural clean-up the greedy driver runs after each
sweep of patterns (MLIR's simplifyRegions, under canonicalize's `region-simplify`).

- :func:`erase_unreachable_blocks`: blocks no path from the entry block reaches.
- :func:`run_region_dce`: ops and block arguments nothing live needs, found by an
  optimistic liveness fixpoint (everything is dead until a use proves it live), so
  dead cycles die too — a loop-carried argument only fed back into itself. A
  successor operand counts as a use only if the argument it feeds is live, so a
  dead argument is erased together with what each predecessor passed it.
- at the aggressive level, identical blocks merged and redundant arguments dropped
  (:mod:`mlc.ir.rewrite.block_merge`).

Every change goes through a rewriter, so a driver's listener sees it. Entry-block
arguments are never touched: they belong to the op owning the region.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.analysis.dominance import postorder
from mlc.ir.core.ir import Block, BlockArgument, Operation, Region, Value
from mlc.ir.interfaces.control_flow import BranchLike
from mlc.ir.interfaces.side_effects import would_be_trivially_dead
from mlc.ir.opdef.traits import IsTerminator
from mlc.ir.rewrite.block_merge import drop_redundant_arguments, merge_identical_blocks
from mlc.ir.rewrite.rewriter import Rewriter

LEVELS = ("disabled", "normal", "aggressive")
"""The values of canonicalize's `region-simplify` option, weakest first."""


def simplify_regions(rewriter: Rewriter, regions: Sequence[Region], level: str = "normal") -> bool:
    """Run the simplifications of `level` on `regions` and the regions nested in
    them; whether anything changed. Unreachable blocks go at every level, as
    mlir-opt-22's canonicalize erases them even with `region-simplify=disabled`;
    "normal" adds dead code and block arguments; "aggressive" also merges blocks
    and drops redundant arguments."""
    changed = erase_unreachable_blocks(rewriter, regions)
    if level == "disabled":
        return changed
    changed |= run_region_dce(rewriter, regions)
    if level == "aggressive":
        changed |= merge_identical_blocks(rewriter, regions)
        changed |= drop_redundant_arguments(rewriter, regions)
    return changed


# ---------------------------------------------------------------- unreachable blocks


def reachable_blocks(region: Region) -> set[Block]:
    """The blocks of `region` some path from its entry block reaches."""
    entry = region.blocks[0]
    seen = {entry}
    stack = [entry]
    while stack:
        for successor in stack.pop().successors:
            if successor not in seen:
                seen.add(successor)
                stack.append(successor)
    return seen


def erase_unreachable_blocks(rewriter: Rewriter, regions: Sequence[Region]) -> bool:
    """Erase the blocks of multi-block regions that the entry block cannot reach
    (their ops with them); whether any was erased."""
    erased = False
    pending = list(regions)
    while pending:
        region = pending.pop()
        if not region.blocks:
            continue
        if len(region.blocks) > 1:
            reachable = reachable_blocks(region)
            dead = [b for b in region.blocks if b not in reachable]
            # Dead blocks may use each other's values and branch to each other; no
            # reachable block does either.
            for block in dead:
                block.drop_all_references()
            for block in dead:
                rewriter.erase_block(block)
            erased |= bool(dead)
        for block in region.blocks:
            for op in block.ops():
                pending.extend(op.regions)
    return erased


# ---------------------------------------------------------------- dead code


class _Liveness:
    """Ops and block arguments proved live; grows monotonically to a fixpoint."""

    def __init__(self):
        self.ops: set[Operation] = set()
        self.args: set[BlockArgument] = set()
        self.changed = False

    def is_live(self, value: Value) -> bool:
        if isinstance(value, BlockArgument):
            return value in self.args
        return value.defining_op in self.ops

    def mark_op(self, op: Operation) -> None:
        if op not in self.ops:
            self.ops.add(op)
            self.changed = True

    def mark(self, value: Value) -> None:
        if isinstance(value, BlockArgument):
            if value not in self.args:
                self.args.add(value)
                self.changed = True
        else:
            self.mark_op(value.defining_op)


def _use_is_live(use, live: _Liveness) -> bool:
    owner = use.owner
    if owner.has_trait(IsTerminator):
        # A successor operand is really an operand of its argument's phi: live only
        # if that argument is.
        branch = BranchLike.get(owner)
        if branch is not None:
            fed = branch.successor_for_operand(owner, use.index)
            if fed is not None:
                successor, arg_index = fed
                return owner.successors[successor].args[arg_index] in live.args
    return owner in live.ops


def _process_value(value: Value, live: _Liveness) -> None:
    if any(_use_is_live(use, live) for use in value.uses):
        live.mark(value)


def _post_order(region: Region) -> list[Block]:
    """The blocks reachable from the entry, each after its successors."""
    return postorder(region.blocks[0])


def _propagate(regions: Sequence[Region], live: _Liveness) -> None:
    # Blocks in post-order and their ops backwards, so uses are mostly seen before
    # definitions; an op with regions after the ops nested in it. The order only
    # speeds the fixpoint up.
    work: list = [("region", region) for region in reversed(regions)]
    while work:
        kind, item = work.pop()
        if kind == "region":
            if not item.blocks:
                continue
            for block in _post_order(item):
                for op in block.ops_reversed():
                    if op.regions:
                        work.append(("op", op))
                        work.extend(("region", region) for region in op.regions)
                    else:
                        _propagate_op(op, live)
                if not block.is_entry:
                    for arg in block.args:
                        if arg not in live.args:
                            _process_value(arg, live)
        else:
            _propagate_op(item, live)


def _propagate_op(op: Operation, live: _Liveness) -> None:
    if op in live.ops:
        return
    if op.has_trait(IsTerminator):
        # Terminators are always live. (As MLIR, an unregistered op is not known to
        # be one: it is live for its unknown effects, and the arguments of the
        # blocks it branches to are live only if used.)
        live.mark_op(op)
        if BranchLike.get(op) is None:
            # The op does not say which operands become which arguments: they stay.
            # (A BranchLike op only forwards operands; their arguments live or die
            # by their own uses.)
            for block in op.successors:
                for arg in block.args:
                    live.mark(arg)
        return
    if not would_be_trivially_dead(op):
        live.mark_op(op)
        return
    for result in op.results:
        _process_value(result, live)


def _erase_dead_successor_operands(rewriter: Rewriter, terminator: Operation,
                                   live: _Liveness) -> None:
    branch = BranchLike.get(terminator)
    if branch is None:
        return
    for index in reversed(range(len(terminator.successors))):
        block = terminator.successors[index]
        operands = branch.successor_operands(terminator, index)
        kept = [v for i, v in enumerate(operands) if block.args[i] in live.args]
        if len(kept) != len(operands):
            with rewriter.modify_op_in_place(terminator):
                branch.set_successor_operands(terminator, index, kept)


def _delete_dead(rewriter: Rewriter, regions: Sequence[Region], live: _Liveness) -> bool:
    dead: list[Operation] = []
    argument_blocks: list[Block] = []
    pending = list(regions)
    while pending:
        region = pending.pop()
        if not region.blocks:
            continue
        single = len(region.blocks) == 1
        for block in _post_order(region):
            terminator = block.terminator
            if not single and terminator is not None:
                _erase_dead_successor_operands(rewriter, terminator, live)
            for op in block.ops_reversed():
                if op in live.ops:
                    pending.extend(op.regions)
                else:
                    dead.append(op)
        argument_blocks.extend(region.blocks[1:])
    # Dead ops may use each other across blocks (around a loop): unlink them all
    # first. No live op uses a dead one.
    for op in dead:
        op.drop_all_references()
    for op in dead:
        rewriter.erase_op(op)
    erased = bool(dead)
    for block in argument_blocks:
        for arg in reversed(block.args):
            if arg not in live.args:
                block.erase_argument(arg.index)
                erased = True
    return erased


def run_region_dce(rewriter: Rewriter, regions: Sequence[Region]) -> bool:
    """Erase the ops and non-entry block arguments of `regions` that nothing live
    needs (see the module docstring); whether anything was erased."""
    live = _Liveness()
    while True:
        live.changed = False
        _propagate(regions, live)
        if not live.changed:
            break
    return _delete_dead(rewriter, regions, live)
