"""Canonicalization patterns of the `cf` dialect, as MLIR's: branches on constants
become jumps, jumps through blocks that only jump again go straight to the end,
a jump to a block with no other predecessor merges the two blocks, a conditional
branch whose ways meet becomes a jump (with `arith.select`s for the values that
differ), and a branch already decided by the branch before it is decided here too.

The entry point of the dialect names this module, so the dialect it gives is complete.
"""

from __future__ import annotations

from mlc.ir.core.attributes import IntegerAttr, i1
from mlc.ir.core.ir import Block, BlockArgument, Operation, Value
from mlc.ir.dialects.arith.constants import constant_value_of, to_unsigned
from mlc.ir.dialects.arith.ops import ConstantOp, SelectOp
from mlc.ir.dialects.cf.ops import AssertOp, BranchOp, CondBranchOp, SwitchOp, case_values_of, cf
from mlc.ir.interfaces.control_flow import BranchLike
from mlc.ir.rewrite.pattern import RewritePattern
from mlc.ir.rewrite.rewriter import PatternRewriter

__all__ = ["cf", "collapse_branch"]


def _constant_int(value: Value) -> int | None:
    """The integer a constant op gives `value`, as its type's unsigned bits."""
    attr = constant_value_of(value)
    if isinstance(attr, IntegerAttr):
        return to_unsigned(attr.value, attr.type)
    return None


def collapse_branch(block: Block, operands: list[Value]) -> tuple[Block, list[Value]] | None:
    """Where a jump to `block` with `operands` may go instead, if `block` only jumps
    on (a lone `cf.br` using its arguments nowhere else, not to itself): that jump's
    destination and operands, the block's arguments replaced by `operands`."""
    jump = block.first_op
    if not isinstance(jump, BranchOp) or jump is not block.last_op:
        return None
    for arg in block.args:
        if any(use.owner is not jump for use in arg.uses):
            return None
    dest = jump.dest
    if dest is block:
        return None  # an infinite loop stays
    forwarded = [operands[v.index] if isinstance(v, BlockArgument) and v.block is block else v
                 for v in jump.destOperands]
    return dest, forwarded


def _successor_operands(op: Operation, index: int) -> list[Value]:
    return BranchLike.get(op).successor_operands(op, index)


def _jump(rewriter: PatternRewriter, op: Operation, dest: Block, operands: list[Value]) -> None:
    rewriter.replace_op_with_new(op, BranchOp, list(operands), successors=[dest])


# ------------------------------------------------------------------ cf.assert


class EraseAssertOfTrue(RewritePattern):
    """cf.assert of a constant true does nothing: erase it."""

    root = AssertOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        if _constant_int(op.arg) != 1:
            return rewriter.notify_match_failure(op, "the condition is not constant true")
        rewriter.erase_op(op)
        return True


# ------------------------------------------------------------------ cf.br


class MergeBlockWithSinglePredecessor(RewritePattern):
    """cf.br to a block no other edge reaches: append that block to this one."""

    root = BranchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        dest, here = op.dest, op.parent
        if dest is here or dest.single_predecessor is None:
            return rewriter.notify_match_failure(op, "the successor has other predecessors")
        operands = list(op.destOperands)
        rewriter.erase_op(op)
        rewriter.merge_blocks(dest, here, operands)
        return True


class JumpThroughPassThroughBlock(RewritePattern):
    """cf.br to a block that only jumps on: jump to where that block jumps."""

    root = BranchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        if op.dest is op.parent:
            return rewriter.notify_match_failure(op, "a jump to its own block")
        collapsed = collapse_branch(op.dest, list(op.destOperands))
        if collapsed is None:
            return rewriter.notify_match_failure(op, "the successor does more than jump")
        _jump(rewriter, op, *collapsed)
        return True


# ------------------------------------------------------------------ cf.cond_br


class CondBranchOnConstant(RewritePattern):
    """cf.cond_br on a constant: a jump to the way it takes."""

    root = CondBranchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        condition = _constant_int(op.condition)
        if condition is None:
            return rewriter.notify_match_failure(op, "the condition is not a constant")
        index = 0 if condition else 1
        _jump(rewriter, op, op.successors[index], _successor_operands(op, index))
        return True


class CondBranchThroughPassThroughBlocks(RewritePattern):
    """cf.cond_br to blocks that only jump on: branch to where they jump."""

    root = CondBranchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        ways = []
        collapsed_any = False
        for index, block in enumerate(op.successors):
            operands = _successor_operands(op, index)
            collapsed = collapse_branch(block, operands)
            collapsed_any |= collapsed is not None
            ways.append(collapsed or (block, operands))
        if not collapsed_any:
            return rewriter.notify_match_failure(op, "no successor only jumps on")
        (true_dest, true_operands), (false_dest, false_operands) = ways
        rewriter.replace_op_with_new(op, CondBranchOp, op.condition, true_operands,
                                     false_operands, successors=[true_dest, false_dest])
        return True


class CondBranchToOneBlock(RewritePattern):
    """cf.cond_br whose two ways go to one block: a jump (with selects if needed).

    Each value that differs between the two ways is chosen by an `arith.select`,
    which needs the branch to be the only edge into the block."""

    root = CondBranchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        dest = op.trueDest
        if dest is not op.falseDest:
            return rewriter.notify_match_failure(op, "the two ways go to different blocks")
        true_operands, false_operands = list(op.trueDestOperands), list(op.falseDestOperands)
        if true_operands == false_operands:
            _jump(rewriter, op, dest, true_operands)
            return True
        if dest.unique_predecessor is not op.parent:
            return rewriter.notify_match_failure(op, "other blocks branch to the successor")
        merged = []
        for on_true, on_false in zip(true_operands, false_operands):
            if on_true is on_false:
                merged.append(on_true)
            else:
                select = rewriter.create(SelectOp, op.condition, on_true, on_false,
                                         loc=op.loc)
                merged.append(select.result)
        _jump(rewriter, op, dest, merged)
        return True


class CondBranchDecidedByPredecessor(RewritePattern):
    """cf.cond_br after a cf.cond_br on the same condition: decided by the first.

    The block must be reached only from that branch: the way it was entered
    decides this branch too."""

    root = CondBranchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        here = op.parent
        predecessor = here.single_predecessor
        before = predecessor.terminator if predecessor is not None else None
        if not isinstance(before, CondBranchOp) or before.condition is not op.condition:
            return rewriter.notify_match_failure(
                op, "not reached from one branch on the same condition")
        index = 0 if before.trueDest is here else 1
        _jump(rewriter, op, op.successors[index], _successor_operands(op, index))
        return True


class PropagateBranchCondition(RewritePattern):
    """cf.cond_br: uses of its condition in its successors become constants.

    In a successor only this branch reaches, the condition is known: true in the
    true successor, false in the false one."""

    root = CondBranchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        replaced = False
        condition = op.condition
        for dest, truth in ((op.trueDest, 1), (op.falseDest, 0)):
            if dest.single_predecessor is None:
                continue
            constant = None
            for use in list(condition.uses):
                if use.owner.parent is not dest:
                    continue
                if constant is None:
                    constant = rewriter.create(ConstantOp, value=IntegerAttr(truth, i1),
                                               loc=op.loc).result
                rewriter.set_operand(use.owner, use.index, constant)
                replaced = True
        if not replaced:
            return rewriter.notify_match_failure(op, "no use of the condition to decide")
        return True


# ------------------------------------------------------------------ cf.switch


def _replace_switch(rewriter: PatternRewriter, op: SwitchOp,
                    cases: list[tuple[int, Block, list[Value]]],
                    default: tuple[Block, list[Value]] | None = None) -> None:
    dest, operands = default or (op.defaultDestination, _successor_operands(op, 0))
    rewriter.set_insertion_point_before(op)
    new = SwitchOp.create_switch(op.flag, dest, operands, cases)
    new.loc = op.loc
    rewriter.insert(new)
    rewriter.replace_op(op, new)


def _fold_switch(rewriter: PatternRewriter, op: SwitchOp, value: int) -> None:
    """Replace `op` by a jump to where it goes when its flag is `value`."""
    for case_value, dest, operands in op.cases:
        if case_value == value:
            _jump(rewriter, op, dest, operands)
            return
    _jump(rewriter, op, op.defaultDestination, _successor_operands(op, 0))


class SwitchWithOnlyDefault(RewritePattern):
    """cf.switch without cases: a jump to its default."""

    root = SwitchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        if op.caseDestinations:
            return rewriter.notify_match_failure(op, "the switch has cases")
        _jump(rewriter, op, op.defaultDestination, _successor_operands(op, 0))
        return True


class DropSwitchCasesLikeDefault(RewritePattern):
    """cf.switch cases that go where the default goes, with its operands: dropped."""

    root = SwitchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        default, default_operands = op.defaultDestination, _successor_operands(op, 0)
        cases = op.cases
        kept = [case for case in cases
                if not (case[1] is default and case[2] == default_operands)]
        if len(kept) == len(cases):
            return rewriter.notify_match_failure(op, "no case is like the default")
        _replace_switch(rewriter, op, kept)
        return True


class SwitchOnConstant(RewritePattern):
    """cf.switch on a constant: a jump to the case it matches, or the default."""

    root = SwitchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        value = _constant_int(op.flag)
        if value is None:
            return rewriter.notify_match_failure(op, "the flag is not a constant")
        _fold_switch(rewriter, op, value)
        return True


class SwitchThroughPassThroughBlocks(RewritePattern):
    """cf.switch to blocks that only jump on: switch to where they jump."""

    root = SwitchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        changed = False
        cases = []
        for value, dest, operands in op.cases:
            collapsed = collapse_branch(dest, operands)
            changed |= collapsed is not None
            cases.append((value, *(collapsed or (dest, operands))))
        default = (op.defaultDestination, _successor_operands(op, 0))
        collapsed = collapse_branch(*default)
        changed |= collapsed is not None
        if not changed:
            return rewriter.notify_match_failure(op, "no successor only jumps on")
        _replace_switch(rewriter, op, cases, collapsed or default)
        return True


def _switch_before(op: SwitchOp) -> SwitchOp | None:
    """The cf.switch on the same flag that is the only edge into `op`'s block."""
    predecessor = op.parent.single_predecessor
    before = predecessor.terminator if predecessor is not None else None
    if isinstance(before, SwitchOp) and before.flag is op.flag:
        return before
    return None


class SwitchDecidedByPredecessor(RewritePattern):
    """cf.switch in a case of a cf.switch on the same flag: a jump.

    The block must be reached only from that case: the flag is the case's value."""

    root = SwitchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        before = _switch_before(op)
        here = op.parent
        if before is None or before.defaultDestination is here:
            return rewriter.notify_match_failure(
                op, "not reached from a case of a switch on the same flag")
        for value, dest, _ in before.cases:
            if dest is here:
                _fold_switch(rewriter, op, value)
                return True
        _jump(rewriter, op, op.defaultDestination, _successor_operands(op, 0))
        return True


class DropSwitchCasesExcludedByPredecessor(RewritePattern):
    """cf.switch in the default of a cf.switch on the same flag: fewer cases.

    The block must be reached only from that default: the values the first switch
    sent elsewhere cannot come, so their cases are dropped."""

    root = SwitchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        before = _switch_before(op)
        here = op.parent
        if before is None or before.defaultDestination is not here:
            return rewriter.notify_match_failure(
                op, "not reached from the default of a switch on the same flag")
        excluded = {value for value, dest in zip(case_values_of(before), before.caseDestinations)
                    if dest is not here}
        cases = op.cases
        kept = [case for case in cases if case[0] not in excluded]
        if len(kept) == len(cases):
            return rewriter.notify_match_failure(op, "no case is excluded")
        _replace_switch(rewriter, op, kept)
        return True


cf.add_canonicalization_patterns([
    EraseAssertOfTrue(),
    MergeBlockWithSinglePredecessor(), JumpThroughPassThroughBlock(),
    CondBranchOnConstant(), CondBranchThroughPassThroughBlocks(), CondBranchToOneBlock(),
    CondBranchDecidedByPredecessor(), PropagateBranchCondition(),
    SwitchWithOnlyDefault(), DropSwitchCasesLikeDefault(), SwitchOnConstant(),
    SwitchThroughPassThroughBlocks(), SwitchDecidedByPredecessor(),
    DropSwitchCasesExcludedByPredecessor(),
])
