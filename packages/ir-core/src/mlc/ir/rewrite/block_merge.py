"""Block merging, the aggressive level of region simplification (MLIR's
mergeIdenticalBlocks and dropRedundantArguments in RegionUtils):

- :func:`merge_identical_blocks`: blocks that do the same thing and go to the same
  successors become one; values they use from elsewhere that differ become new
  arguments, passed by each predecessor (which must be BranchLike).
- :func:`drop_redundant_arguments`: an argument every predecessor passes the same
  value is replaced by that value.

Every change goes through a rewriter, so a driver's listener sees it.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.core.ir import Block, BlockArgument, Operation, Region, Value
from mlc.ir.interfaces.control_flow import BranchLike
from mlc.ir.rewrite.rewriter import Rewriter


def _nested_regions(regions: Sequence[Region]):
    """`regions` and every region nested in them, outer before inner."""
    pending = list(reversed(regions))
    while pending:
        region = pending.pop()
        yield region
        for block in reversed(region.blocks):
            for op in block.ops_reversed():
                pending.extend(reversed(op.regions))


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
