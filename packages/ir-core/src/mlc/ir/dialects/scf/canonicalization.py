"""Canonicalization patterns of the `scf` dialect, as MLIR's: loops that run zero
times or once disappear, loop-carried values that only pass through leave the loop,
an `if` on a constant is replaced by the region it runs, results nobody uses and an
empty `else` go, results both ways compute outside become `arith.select`s (or the
condition itself, for `true`/`false`), the condition is known inside each region, an
`execute_region` of one block is inlined, and a switch on a constant runs its case.

The entry point of the dialect names this module, so the dialect it gives is complete.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.core.attributes import IntegerAttr, i1
from mlc.ir.core.ir import Block, BlockArgument, Operation, Region, Value
from mlc.ir.dialects.arith.constants import constant_value_of
from mlc.ir.dialects.arith.ops import AddIOp, ConstantOp, SelectOp, XOrIOp
from mlc.ir.dialects.scf.ops import (
    ConditionOp,
    ExecuteRegionOp,
    ForOp,
    IfOp,
    IndexSwitchOp,
    WhileOp,
    YieldOp,
    constant_int,
    scf,
)
from mlc.ir.interfaces.loop_like import LoopLike
from mlc.ir.rewrite.pattern import RewritePattern
from mlc.ir.rewrite.rewriter import Rewriter

__all__ = ["scf", "replace_op_with_region"]


def replace_op_with_region(rewriter: Rewriter, op: Operation, region: Region,
                           args: Sequence[Value] = ()) -> None:
    """Put the ops of `region`'s one block before `op` (its arguments replaced by
    `args`) and replace `op`'s results with what the block's terminator yields."""
    block = region.blocks[0]
    terminator = block.last_op
    results = list(terminator.operands)
    rewriter.inline_block_before(block, op, list(args))
    rewriter.replace_op(op, results)
    rewriter.erase_op(terminator)


def _parent_region(value: Value) -> Region | None:
    if isinstance(value, BlockArgument):
        return value.block.parent
    return value.defining_op.parent_region


def _bool_constant(value: Value) -> bool | None:
    attr = constant_value_of(value)
    if isinstance(attr, IntegerAttr) and attr.type == i1:
        return bool(attr.value & 1)
    return None


# ------------------------------------------------------------------ scf.for


def _constant_difference(lower: Value, upper: Value) -> int | None:
    """`upper - lower` when it is known: both constants, or `upper = lower + c`
    (MLIR's computeConstDiff: the difference as a signed 64-bit value)."""
    low, high = constant_value_of(lower), constant_value_of(upper)
    if isinstance(low, IntegerAttr) and isinstance(high, IntegerAttr):
        return high.value - low.value
    add = upper.defining_op
    if isinstance(add, AddIOp):
        if add.lhs is lower and constant_int(add.rhs) is not None:
            return constant_int(add.rhs)
        if add.rhs is lower and constant_int(add.lhs) is not None:
            return constant_int(add.lhs)
    return None


class SimplifyTrivialLoops(RewritePattern):
    """scf.for that runs no iteration: its inits; one iteration: its body inlined;
    an empty body yielding values from outside: those values."""

    root = ForOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        if op.lowerBound is op.upperBound:
            rewriter.replace_op(op, list(op.initArgs))
            return True
        if op.unsignedCmp is not None:
            return rewriter.notify_match_failure(op, "an unsigned loop's trip count is not "
                                                 "computed")
        difference = _constant_difference(op.lowerBound, op.upperBound)
        if difference is None:
            return rewriter.notify_match_failure(op, "the trip count is not known")
        if difference <= 0:
            rewriter.replace_op(op, list(op.initArgs))
            return True
        step = constant_int(op.step)
        if step is None:
            return rewriter.notify_match_failure(op, "the step is not a constant")
        if step >= difference:
            replace_op_with_region(rewriter, op, op.region, [op.lowerBound, *op.initArgs])
            return True
        body = op.body
        yielded = list(op.yield_op.operands)
        loop = LoopLike.get(op)
        if body.first_op is not body.last_op or any(
                not loop.is_defined_outside(op, v) for v in yielded):
            return rewriter.notify_match_failure(op, "the body computes something")
        rewriter.replace_op(op, yielded)
        return True


class ForOpIterArgsFolder(RewritePattern):
    """scf.for iter_args that the body yields unchanged, or that nothing reads and
    whose init is yielded or whose result is unused: dropped, their uses given the
    init."""

    root = ForOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        yielded = list(op.yield_op.operands)
        keep = []
        for init, arg, result, value in zip(op.initArgs, op.region_iter_args, op.results,
                                            yielded):
            forwarded = arg is value or (not arg.uses and (init is value or not result.uses))
            keep.append(not forwarded)
        if all(keep):
            return rewriter.notify_match_failure(op, "every iter_arg is carried")
        inits = list(op.initArgs)
        new_inits = [v for v, k in zip(inits, keep) if k]
        rewriter.set_insertion_point_before(op)
        new = rewriter.insert(ForOp.create_for(op.lowerBound, op.upperBound, op.step, new_inits,
                                               unsigned=op.unsignedCmp is not None))
        for name, attr in op.attributes.items():
            new.attributes.setdefault(name, attr)
        new_body = new.body
        new_args = iter(new.region_iter_args)
        new_results = iter(new.results)
        transfer: list[Value] = [new.induction_var]
        replacements: list[Value] = []
        for init, k in zip(inits, keep):
            if k:
                transfer.append(next(new_args))
                replacements.append(next(new_results))
            else:
                transfer.append(init)
                replacements.append(init)
        old_yield = op.yield_op
        if new_body.last_op is not None:  # no carried values left: drop the new yield
            rewriter.erase_op(new_body.last_op)
        rewriter.merge_blocks(op.body, new_body, transfer)
        rewriter.set_insertion_point_before(old_yield)
        rewriter.create(YieldOp, [v for v, k in zip(old_yield.operands, keep) if k])
        rewriter.erase_op(old_yield)
        rewriter.replace_op(op, replacements)
        return True


# ------------------------------------------------------------------ scf.if


class RemoveStaticCondition(RewritePattern):
    """scf.if on a constant: the region it runs, inlined (or nothing)."""

    root = IfOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        condition = _bool_constant(op.condition)
        if condition is None:
            return rewriter.notify_match_failure(op, "the condition is not a constant")
        if condition:
            replace_op_with_region(rewriter, op, op.thenRegion)
        elif op.elseRegion.blocks:
            replace_op_with_region(rewriter, op, op.elseRegion)
        else:
            rewriter.erase_op(op)
        return True


class RemoveUnusedResults(RewritePattern):
    """scf.if with results nobody uses: an if without them."""

    root = IfOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        used = [r for r in op.results if r.uses]
        if len(used) == len(op.results):
            return rewriter.notify_match_failure(op, "every result is used")
        new = _if_with_regions_of(rewriter, op, [r.type for r in used])
        for region in new.regions:
            yield_op = region.blocks[0].last_op
            with rewriter.modify_op_in_place(yield_op):
                yield_op.set_operands([yield_op.operands[r.index] for r in used])
        replacements = {r.index: new.results[i] for i, r in enumerate(used)}
        for result in op.results:
            if result.index in replacements:
                rewriter.replace_all_uses_with(result, replacements[result.index])
        rewriter.erase_op(op)
        return True


def _if_with_regions_of(rewriter: Rewriter, op: IfOp, result_types) -> IfOp:
    """A new scf.if before `op` on its condition, with `result_types`, given `op`'s
    regions (moved, not copied)."""
    rewriter.set_insertion_point_before(op)
    new = IfOp.build(op.condition, result_types=list(result_types), regions=[Region(), Region()])
    for name, attr in op.attributes.items():
        new.attributes.setdefault(name, attr)
    for source, dest in zip(op.regions, new.regions):
        rewriter.inline_region_before(source, dest)
    rewriter.insert(new)
    return new  # type: ignore[return-value]


class ConvertTrivialIfToSelect(RewritePattern):
    """scf.if results whose values both regions take from outside: `arith.select`s
    (or the value itself, when both ways yield it)."""

    root = IfOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not op.results:
            return rewriter.notify_match_failure(op, "no results")
        then_values = list(op.then_block.last_op.operands)
        else_values = list(op.else_block.last_op.operands)
        inside = [_parent_region(t) is op.thenRegion or _parent_region(f) is op.elseRegion
                  for t, f in zip(then_values, else_values)]
        if all(inside):
            return rewriter.notify_match_failure(op, "every result is computed inside")
        condition = op.condition
        new = _if_with_regions_of(rewriter, op, [r.type for r, i in zip(op.results, inside)
                                                 if i])
        rewriter.set_insertion_point_before(new)
        replacements: list[Value] = []
        kept = 0
        for true_value, false_value, stays in zip(then_values, else_values, inside):
            if stays:
                replacements.append(new.results[kept])
                kept += 1
            elif true_value is false_value:
                replacements.append(true_value)
            else:
                replacements.append(rewriter.create(SelectOp, condition, true_value,
                                                    false_value).results[0])
        for region in new.regions:
            yield_op = region.blocks[0].last_op
            with rewriter.modify_op_in_place(yield_op):
                yield_op.set_operands([v for v, s in zip(yield_op.operands, inside) if s])
        rewriter.replace_op(op, replacements)
        return True


class ConditionPropagation(RewritePattern):
    """Uses of an scf.if's condition inside its regions: `true` in `then`, `false`
    in `else`."""

    root = IfOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        condition = op.condition
        if constant_value_of(condition) is not None:
            return rewriter.notify_match_failure(op, "the condition is a constant")
        constants: dict[bool, Value] = {}
        changed = False
        for use in list(condition.uses):
            owner = use.owner
            for truth, region in ((True, op.thenRegion), (False, op.elseRegion)):
                if not _region_contains(region, owner):
                    continue
                if truth not in constants:
                    rewriter.set_insertion_point_before(op)
                    constants[truth] = rewriter.create(
                        ConstantOp, value=IntegerAttr(int(truth), i1)).results[0]
                with rewriter.modify_op_in_place(owner):
                    use.set(constants[truth])
                changed = True
        if not changed:
            return rewriter.notify_match_failure(op, "the regions do not use the condition")
        return True


def _region_contains(region: Region, op: Operation) -> bool:
    current = op.parent_region
    while current is not None:
        if current is region:
            return True
        parent = current.parent
        current = parent.parent_region if parent is not None else None
    return False


class ReplaceIfYieldWithConditionOrValue(RewritePattern):
    """scf.if results both ways yield alike: that value; `true`/`false` (or the
    reverse): the condition (or its negation)."""

    root = IfOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not op.results:
            return rewriter.notify_match_failure(op, "no results")
        then_values = list(op.then_block.last_op.operands)
        else_values = list(op.else_block.last_op.operands)
        changed = False
        rewriter.set_insertion_point_before(op)
        for true_value, false_value, result in zip(then_values, else_values, op.results):
            if not result.uses:
                continue
            if true_value is false_value:
                rewriter.replace_all_uses_with(result, true_value)
                changed = True
                continue
            on_true, on_false = _bool_constant(true_value), _bool_constant(false_value)
            if on_true is None or on_false is None or on_true == on_false:
                continue
            if on_true:
                rewriter.replace_all_uses_with(result, op.condition)
            else:
                one = rewriter.create(ConstantOp, value=IntegerAttr(1, i1)).results[0]
                negated = rewriter.create(XOrIOp, op.condition, one).results[0]
                rewriter.replace_all_uses_with(result, negated)
            changed = True
        if not changed:
            return rewriter.notify_match_failure(op, "no result is the condition or a value "
                                                 "both ways yield")
        return True


class RemoveEmptyElseBranch(RewritePattern):
    """scf.if without results whose `else` only yields: no `else`."""

    root = IfOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        else_block = op.else_block
        if op.results or else_block is None or else_block.first_op is not else_block.last_op:
            return rewriter.notify_match_failure(op, "the else region does something")
        with rewriter.modify_op_in_place(op):
            rewriter.erase_block(else_block)
        return True


def swap_negated_condition(op: IfOp, rewriter: Rewriter) -> bool:
    """If `op` is an if-else on `xori %c, true`, make it branch on `%c` with its
    regions swapped (MLIR's IfOp folder) and return True."""
    negation = op.condition.defining_op
    if not op.elseRegion.blocks or not isinstance(negation, XOrIOp) or \
            _bool_constant(negation.rhs) is not True:
        return False
    with rewriter.modify_op_in_place(op):
        op.set_operand(0, negation.lhs)
        then_block, else_block = op.then_block, op.else_block
        rewriter.detach_block(then_block)
        rewriter.detach_block(else_block)
        op.thenRegion.append(else_block)
        op.elseRegion.append(then_block)
    return True


class SwapNegatedCondition(RewritePattern):
    """scf.if on `xori %c, true` with an else: on `%c`, the regions swapped (MLIR's
    IfOp folder)."""

    root = IfOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        if swap_negated_condition(op, rewriter):
            return True
        return rewriter.notify_match_failure(op, "not an if-else on a negation")


# ------------------------------------------------------------------ others


class SingleBlockExecuteInliner(RewritePattern):
    """scf.execute_region of one block: its ops inlined."""

    root = ExecuteRegionOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        if len(op.region.blocks) != 1 or op.no_inline is not None:
            return rewriter.notify_match_failure(op, "more than one block, or no_inline")
        replace_op_with_region(rewriter, op, op.region)
        return True


class WhileConditionTruth(RewritePattern):
    """scf.while passing its condition on to `after`: there the argument is `true`
    (the `after` region runs only when the condition holds)."""

    root = WhileOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        condition_op = op.condition_op
        after_args = op.after.blocks[0].args
        true = None
        for passed, arg in zip(condition_op.args, after_args):
            if passed is not condition_op.condition or not arg.uses:
                continue
            if true is None:
                rewriter.set_insertion_point_before(op)
                true = rewriter.create(ConstantOp, value=IntegerAttr(1, i1)).results[0]
            rewriter.replace_all_uses_with(arg, true)
        if true is None:
            return rewriter.notify_match_failure(op, "the after region does not use the "
                                                 "condition")
        return True


class WhileUnusedResult(RewritePattern):
    """scf.while results nobody uses, whose `after` argument nothing reads either:
    no longer passed out by `scf.condition`."""

    root = WhileOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        condition_op = op.condition_op
        after = op.after.blocks[0]
        kept = [i for i, (result, arg) in enumerate(zip(op.results, after.args))
                if result.uses or arg.uses]
        if len(kept) == len(op.results):
            return rewriter.notify_match_failure(op, "every result is used")
        passed = list(condition_op.args)
        rewriter.set_insertion_point_before(condition_op)
        rewriter.create(ConditionOp, condition_op.condition, [passed[i] for i in kept])
        rewriter.erase_op(condition_op)
        types = [op.results[i].type for i in kept]
        rewriter.set_insertion_point_before(op)
        new = WhileOp.build(list(op.inits), result_types=types, regions=[Region(), Region()])
        for name, attr in op.attributes.items():
            new.attributes.setdefault(name, attr)
        new_after = new.after.append(Block(types))
        rewriter.inline_region_before(op.before, new.before)
        rewriter.insert(new)
        transfer = list(after.args)  # an argument nothing reads stands for itself
        replacements = list(op.results)
        for position, index in enumerate(kept):
            transfer[index] = new_after.args[position]
            replacements[index] = new.results[position]
        rewriter.merge_blocks(after, new_after, transfer)
        rewriter.replace_op(op, replacements)
        return True


class FoldConstantCase(RewritePattern):
    """scf.index_switch on a constant: the region it runs, inlined."""

    root = IndexSwitchOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        value = constant_int(op.arg)
        if value is None:
            return rewriter.notify_match_failure(op, "the index is not a constant")
        region = op.defaultRegion
        for case, case_region in zip(op.case_values, op.caseRegions):
            if case == value:
                region = case_region
                break
        replace_op_with_region(rewriter, op, region)
        return True


scf.add_canonicalization_patterns([
    ForOpIterArgsFolder(), SimplifyTrivialLoops(),
    SwapNegatedCondition(), RemoveUnusedResults(), RemoveStaticCondition(),
    ConvertTrivialIfToSelect(), ConditionPropagation(), ReplaceIfYieldWithConditionOrValue(),
    RemoveEmptyElseBranch(),
    SingleBlockExecuteInliner(),
    WhileConditionTruth(), WhileUnusedResult(),
    FoldConstantCase(),
])
