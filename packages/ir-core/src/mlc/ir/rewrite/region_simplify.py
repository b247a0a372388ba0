"""Region simplification: the structural clean-up the greedy driver runs after each
sweep of patterns (MLIR's simplifyRegions, under canonicalize's `region-simplify`).

- :func:`erase_unreachable_blocks`: blocks no path from the entry block reaches.
- :func:`run_region_dce`: ops and block arguments nothing live needs, found by an
  optimistic liveness fixpoint (everything is dead until a use proves it live), so
  dead cycles die too — a loop-carried argument only fed back into itself. A
  successor operand counts as a use only if the argument it feeds is live, so a
  dead argument is erased together with what each predecessor passed it.
- :func:`merge_identical_blocks` (aggressive level): blocks that do the same thing
  and go to the same successors become one; values they use from elsewhere that
  differ become new arguments, passed by each predecessor.
- :func:`drop_redundant_arguments` (aggressive level): an argument every predecessor
  passes the same value is replaced by that value.

Every change goes through a rewriter, so a driver's listener sees it. Entry-block
arguments are never touched: they belong to the op owning the region.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.core.ir import Block, BlockArgument, Operation, Region, Value
from mlc.ir.interfaces.control_flow import BranchLike
from mlc.ir.interfaces.side_effects import would_be_trivially_dead
from mlc.ir.opdef.traits import IsTerminator
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


def _nested_regions(regions: Sequence[Region]):
    """`regions` and every region nested in them, outer before inner."""
    pending = list(reversed(regions))
    while pending:
        region = pending.pop()
        yield region
        for block in reversed(region.blocks):
            for op in block.ops_reversed():
                pending.extend(reversed(op.regions))


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
    """The blocks reachable from the entry, each after its successors (DFS)."""
    entry = region.blocks[0]
    order: list[Block] = []
    seen = {entry}
    stack = [(entry, iter(entry.successors))]
    while stack:
        block, successors = stack[-1]
        for successor in successors:
            if successor not in seen:
                seen.add(successor)
                stack.append((successor, iter(successor.successors)))
                break
        else:
            stack.pop()
            order.append(block)
    return order


def _propagate(regions: Sequence[Region], live: _Liveness) -> None:
    # Regions, blocks and ops backwards, so uses are mostly seen before definitions.
    work: list = [("region", region) for region in reversed(regions)]
    while work:
        kind, item = work.pop()
        if kind == "region":
            if not item.blocks:
                continue
            for block in reversed(_post_order(item)):
                work.append(("args", block))
                work.extend(("op", op) for op in block.ops())
        elif kind == "op":
            op = item
            work.append(("self", op))
            work.extend(("region", region) for region in op.regions)
        elif kind == "self":
            _propagate_op(item, live)
        else:  # "args": a non-entry block's arguments, after its ops
            block = item
            if block.is_entry:
                continue
            for arg in block.args:
                if arg not in live.args:
                    _process_value(arg, live)


def _propagate_op(op: Operation, live: _Liveness) -> None:
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
    if op in live.ops:
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


# ---------------------------------------------------------------- identical blocks


def _op_signature(op: Operation) -> tuple:
    """What two ops must share to be equivalent, their operands aside."""
    return (op.name, tuple(r.type for r in op.results), tuple(sorted(
        op.attributes.items(), key=lambda kv: kv[0])), len(op.operands),
        len(op.successors), tuple(op.successors), None if op.properties is None else
        tuple(sorted(op.properties.items(), key=lambda kv: kv[0])))


class _Equivalence:
    """A block's ops and the order in which it defines values (its arguments first)."""

    def __init__(self, block: Block):
        self.block = block
        self.order: dict[Value, int] = {arg: arg.index for arg in block.args}
        position = len(block.args)
        signatures = []
        for op in block.ops():
            for result in op.results:
                self.order[result] = position
                position += 1
            signatures.append(_op_signature(op))
        self.key = tuple(signatures)


def _is_valid_successor_argument(block: Block, value: Value) -> bool:
    """Whether `value` may be passed to `block` by its predecessors: not a result of
    a predecessor's terminator (it would not dominate the branch)."""
    owner = value.defining_op
    if owner is None or owner is not owner.parent.terminator:
        return True
    return owner.parent not in block.predecessors


class _Cluster:
    """Blocks equivalent to a leader, and the operands (op index, operand index) that
    differ between them and become arguments once they are merged."""

    def __init__(self, leader: _Equivalence):
        self.leader = leader
        self.members: list[Block] = []
        self.mismatched: set[tuple[int, int]] = set()

    def try_add(self, data: _Equivalence) -> bool:
        leader, block = self.leader.block, data.block
        if data.key != self.leader.key or \
                [a.type for a in leader.args] != [a.type for a in block.args]:
            return False
        mismatched = []
        for op_index, (lhs, rhs) in enumerate(zip(leader.ops(), block.ops())):
            for operand_index, (a, b) in enumerate(zip(lhs.operands, rhs.operands)):
                if a is b:
                    continue
                if a.type != b.type:
                    return False
                a_inside, b_inside = _parent_block(a) is leader, _parent_block(b) is block
                if a_inside != b_inside:
                    return False
                if not a_inside:
                    if not (_is_valid_successor_argument(leader, a)
                            and _is_valid_successor_argument(block, b)):
                        return False
                    mismatched.append((op_index, operand_index))
                elif self.leader.order[a] != data.order[b]:
                    return False
            if _used_outside(lhs, leader) or _used_outside(rhs, block):
                return False
        self.mismatched.update(mismatched)
        self.members.append(block)
        return True

    def merge(self, rewriter: Rewriter) -> bool:
        if not self.members:
            return False
        leader = self.leader.block
        blocks = [leader, *self.members]
        if self.mismatched:
            for block in blocks:
                for use in block.uses:
                    if BranchLike.get(use.owner) is None:
                        return False
            positions = sorted(self.mismatched)
            ops_of = [list(block.ops()) for block in blocks]
            new_arguments = [[ops[i].operand(j) for i, j in positions] for ops in ops_of]
            first_new = len(leader.args)
            for (i, j), value in zip(positions, new_arguments[0]):
                arg = leader.add_argument(value.type)
                with rewriter.modify_op_in_place(ops_of[0][i]):
                    ops_of[0][i].set_operand(j, arg)
            new_arguments = _prune_redundant_arguments(rewriter, new_arguments, leader,
                                                       first_new)
            for block, extra in zip(blocks, new_arguments):
                for use in list(block.uses):
                    owner = use.owner
                    branch = BranchLike.get(owner)
                    with rewriter.modify_op_in_place(owner):
                        operands = branch.successor_operands(owner, use.index)
                        branch.set_successor_operands(owner, use.index, operands + extra)
        for block in self.members:
            for use in list(block.uses):
                with rewriter.modify_op_in_place(use.owner):
                    use.set(leader)
            rewriter.erase_block(block)
        return True


def _parent_block(value: Value) -> Block | None:
    if isinstance(value, BlockArgument):
        return value.block
    return value.defining_op.parent


def _used_outside(op: Operation, block: Block) -> bool:
    return any(_ancestor_in(use.owner, block) is None for r in op.results for use in r.uses)


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    """`op` or its ancestor that sits in `block`, or None."""
    current: Operation | None = op
    while current is not None and current.parent is not block:
        current = current.parent_op
    return current


def _prune_redundant_arguments(rewriter: Rewriter, new_arguments: list[list[Value]],
                               leader: Block, first_new: int) -> list[list[Value]]:
    """Drop the new arguments of `leader` that repeat an earlier new argument in every
    block's list (as MLIR: an argument repeats the first with the leader's value)."""
    first_index: dict[Value, int] = {}
    for j, value in enumerate(new_arguments[0]):
        first_index.setdefault(value, j)
    replacement: dict[int, int] = {}
    for j, value in enumerate(new_arguments[0]):
        k = first_index[value]
        if k != j and all(values[k] is values[j] for values in new_arguments[1:]):
            replacement[j] = k
    for j in sorted(replacement, reverse=True):
        old = leader.args[first_new + j]
        rewriter.replace_all_uses_with(old, leader.args[first_new + replacement[j]])
        leader.erase_argument(first_new + j)
    return [[v for j, v in enumerate(values) if j not in replacement] for values in new_arguments]


def _merge_identical_blocks_in(rewriter: Rewriter, region: Region) -> bool:
    if len(region.blocks) < 2:
        return False
    by_successors: dict[tuple, list[Block]] = {}
    for block in region.blocks[1:]:
        by_successors.setdefault(tuple(block.successors), []).append(block)
    merged = False
    for blocks in by_successors.values():
        if len(blocks) < 2:
            continue
        clusters: list[_Cluster] = []
        for block in blocks:
            if any(r.blocks for op in block.ops() for r in op.regions):
                continue
            data = _Equivalence(block)
            if not any(cluster.try_add(data) for cluster in clusters):
                clusters.append(_Cluster(data))
        for cluster in clusters:
            merged |= cluster.merge(rewriter)
    return merged


def merge_identical_blocks(rewriter: Rewriter, regions: Sequence[Region]) -> bool:
    """Merge equivalent blocks (same ops, same successors; see the module docstring)
    in `regions` and the regions nested in them; whether any were merged."""
    changed = False
    pending = list(regions)
    while pending:
        region = pending.pop()
        if _merge_identical_blocks_in(rewriter, region):
            pending.append(region)
            changed = True
        for block in region.blocks:
            for op in block.ops():
                pending.extend(op.regions)
    return changed


# ---------------------------------------------------------------- redundant arguments


def _drop_redundant_arguments_of(rewriter: Rewriter, block: Block) -> bool:
    redundant = []
    for arg in block.args:
        common: Value | None = None
        same = True
        for use in block.uses:
            branch = BranchLike.get(use.owner)
            if branch is None:
                same = False
                break
            passed = branch.successor_operands(use.owner, use.index)[arg.index]
            if common is None:
                common = passed
            elif passed is not common:
                same = False
                break
        if common is not None and same and common is not arg:
            redundant.append(arg.index)
            rewriter.replace_all_uses_with(arg, common)
    for index in reversed(redundant):
        block.erase_argument(index)
        for use in list(block.uses):
            branch = BranchLike.get(use.owner)
            with rewriter.modify_op_in_place(use.owner):
                operands = branch.successor_operands(use.owner, use.index)
                branch.set_successor_operands(use.owner, use.index,
                                              operands[:index] + operands[index + 1:])
    return bool(redundant)


def drop_redundant_arguments(rewriter: Rewriter, regions: Sequence[Region]) -> bool:
    """Replace each block argument that every predecessor passes the same value by
    that value; whether any was dropped."""
    changed = False
    for region in _nested_regions(regions):
        for block in list(region.blocks):
            changed |= _drop_redundant_arguments_of(rewriter, block)
    return changed
