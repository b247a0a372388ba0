"""convert-scf-to-cf: structured control flow (`scf`) as branches between blocks (`cf`),
MLIR's SCFToControlFlow conversion, pattern for pattern.

Each lowering keeps MLIR's invariant that the blocks built for an op form a
single-entry, single-exit subgraph placed where the op was: the op's block is split
at the op, the op's regions are inlined between the two halves, and their
terminators become branches. The blocks therefore come out in mlir-opt-22's order,
with its block arguments:

- `scf.for`: its body block becomes the loop header (induction variable, then the
  iter_args, as arguments); the entry branches there with the lower bound and the
  inits; the header compares (`slt`, `ult` when `unsigned`) and branches to the body
  or past the loop; the body's last block steps the induction variable and branches
  back with what it yields. The results are the header's arguments.
- `scf.if`: `cf.cond_br` to the then and else blocks (to the continuation when there
  is no else); with results, both branch to a new block whose arguments are the
  results and which branches on to the continuation.
- `scf.while`: the before region is the header, ending in `cf.cond_br` to the after
  region (with `scf.condition`'s values) or past the loop; the after region branches
  back. A loop whose after region only passes its arguments back (a do-while) is
  lowered without it: the header branches to itself.
- `scf.execute_region`: a branch into its blocks, whose yields branch to the
  continuation, which takes the results as arguments.
- `scf.index_switch`: `cf.switch` on the index cast to `i64` (mlir-opt-22 casts it to
  `i32`, which sends a value outside i32, or a case value outside it, to the wrong
  case; later MLIR casts to i64 as here), a block per case branching to the
  continuation.
- `scf.parallel`: first a nest of `scf.for`, one per dimension, the reductions
  carried as iter_args and each `scf.reduce` region inlined to combine the
  iteration's value with the carried one; the loops are then lowered in turn.
- `scf.forall` without shared outputs: an `scf.parallel` over the same space (its
  constant bounds and steps materialised), lowered in turn.

Attributes of an `llvm` dialect value on a loop (`llvm.loop_annotation`) move to its
latch, the branch back to the header, where LLVM expects loop metadata.

The patterns run on the core's dialect-conversion driver; every `scf` op that holds
regions is illegal, and one that cannot be lowered — its blocks would land in a
region that holds a single block, such as a `builtin.module`'s or a `loop.for`'s —
fails the pass with a diagnostic at that op, the IR left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlc.ir.core.attributes import (
    Attribute,
    DialectAttribute,
    IndexType,
    Location,
    OpaqueAttr,
    i64,
    unknown_loc,
)
from mlc.ir.core.ir import Block, Operation, Region, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects.arith import AddIOp, CmpIOp, CmpIPredicate
from mlc.ir.dialects.arith.casts import IndexCastOp
from mlc.ir.dialects.cf import BranchOp, CondBranchOp, SwitchOp
from mlc.ir.dialects.scf import (
    ConditionOp,
    ExecuteRegionOp,
    ForOp,
    IfOp,
    IndexSwitchOp,
    ParallelOp,
    ReduceOp,
    WhileOp,
    YieldOp,
)
from mlc.ir.dialects.scf.canonicalization import swap_negated_condition
from mlc.ir.dialects.scf.forall import ForallOp, InParallelOp
from mlc.ir.opdef.traits import SingleBlock
from mlc.ir.passes.arith.builder import ArithBuilder
from mlc.ir.passes.options import allow_pattern_rollback_option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.conversion import ConversionTarget, apply_partial_conversion
from mlc.ir.rewrite.pattern import PatternSet, RewritePattern
from mlc.ir.rewrite.rewriter import PatternRewriter

__all__ = ["LOWERED_OPS", "lowering_obstacle", "scf_to_cf_patterns", "scf_to_cf_target"]

LOWERED_OPS = (ForallOp, ForOp, IfOp, WhileOp, ExecuteRegionOp, IndexSwitchOp, ParallelOp)
"""The scf ops the conversion makes illegal: every one that holds regions but the
terminators `scf.reduce` and `scf.forall.in_parallel`, which go with their op."""

# With the terminators whose regions go with their op's.
_LOWERED = (*LOWERED_OPS, ReduceOp, InParallelOp)
_TERMINATORS = (ReduceOp, InParallelOp)


# ------------------------------------------------------------------ helpers


def _holds_one_block(region: Region | None) -> bool:
    """Whether `region`'s op allows it one block only (so splitting it breaks the
    op); regions of unregistered ops may hold any number, as in MLIR."""
    owner = region.parent if region is not None else None
    op_def = owner.op_def if owner is not None else None
    if op_def is None:
        return False
    if SingleBlock in op_def.trait_set:
        return True
    definitions = op_def.regions
    fixed = sum(1 for d in definitions if not d.variadic)
    index = owner.regions.index(region)
    position = 0
    for definition in definitions:
        count = len(owner.regions) - fixed if definition.variadic else 1
        if index < position + count:
            return definition.single_block
        position += count
    return False


def lowering_obstacle(op: Operation) -> str | None:
    """Why the blocks `op` lowers to cannot be placed where it is, or None."""
    region = op.parent_region
    if not _holds_one_block(region):
        return None
    owner = region.parent  # type: ignore[union-attr]
    return (f"its blocks would land in a region of '{owner.name}', which holds a "  # type: ignore[union-attr]
            "single block")


def _attribute_dialect(attr: Attribute) -> str | None:
    """The dialect an attribute value belongs to (`llvm` for `#llvm.loop_annotation<...>`),
    None for builtin ones."""
    if isinstance(attr, DialectAttribute):
        return attr.name.partition(".")[0]
    if isinstance(attr, OpaqueAttr) and attr.text.startswith("#"):
        return attr.text[1:].partition(".")[0].partition("<")[0]
    return None


def _propagate_loop_attributes(loop: Operation, latch: Operation) -> None:
    """Give the latch (the branch back to the header) the loop's attributes whose
    values are of the llvm dialect, as MLIR does: LLVM reads loop metadata there."""
    for name, attr in loop.attributes.items():
        if _attribute_dialect(attr) == "llvm":
            latch.attributes[name] = attr


def _value_loc(value: Value) -> Location:
    op = value.defining_op
    if op is not None:
        return op.loc
    return getattr(value, "loc", None) or unknown_loc


def _locate_loop_arguments(loop: ForOp, inits: list[Value]) -> None:
    """Locate a built loop's body arguments as MLIR's ForOp builder does: the
    induction variable at the loop, each iter_arg at its init value."""
    loop.induction_var.loc = loop.loc  # type: ignore[attr-defined]
    for arg, init in zip(loop.region_iter_args, inits):
        arg.loc = _value_loc(init)  # type: ignore[attr-defined]


def _region_index(block: Block) -> int:
    return block.parent.blocks.index(block)  # type: ignore[union-attr]


def _inline_region_before(rewriter: PatternRewriter, region: Region, successor: Block) -> None:
    """Move `region`'s blocks into `successor`'s region, just before it."""
    rewriter.inline_region_before(region, successor.parent, _region_index(successor))


def _branch(rewriter: PatternRewriter, loc, dest: Block, operands=()) -> Operation:
    return rewriter.create(BranchOp, list(operands), successors=[dest], loc=loc)


def _replace_terminator_with_branch(rewriter: PatternRewriter, block: Block, dest: Block,
                                    loc=None) -> Operation:
    """The block's terminator (a yield) becomes a branch to `dest` passing its
    operands, at `loc` (by default the terminator's, as MLIR's replaceOpWithNewOp).
    The branch goes after it: the conversion only drops the yield when it commits, and
    the block's last op must meanwhile be its real terminator."""
    terminator = block.last_op
    assert terminator is not None
    rewriter.set_insertion_point_to_end(block)
    branch = _branch(rewriter, terminator.loc if loc is None else loc, dest,
                     terminator.operands)
    rewriter.erase_op(terminator)
    return branch


# ------------------------------------------------------------------ patterns


class _SCFLowering(RewritePattern):
    """Base of the lowerings: refuses an op whose blocks cannot be placed."""

    def match_and_rewrite(self, op, rewriter) -> bool:
        obstacle = lowering_obstacle(op)
        if obstacle is not None:
            return rewriter.notify_match_failure(op, obstacle)
        self.lower(op, rewriter)
        return True

    def lower(self, op, rewriter: PatternRewriter) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class ForLowering(_SCFLowering):
    """scf.for -> a header block comparing the induction variable, the body, a latch
    stepping it."""

    root = ForOp

    def lower(self, op: ForOp, rewriter: PatternRewriter) -> None:
        loc = op.loc
        init_block = op.parent
        end_block = rewriter.split_block(init_block, op)
        condition_block = op.region.blocks[0]
        first_body_block = rewriter.split_block(condition_block, condition_block.first_op)
        last_body_block = op.region.blocks[-1]
        _inline_region_before(rewriter, op.region, end_block)
        iv = condition_block.args[0]

        terminator = last_body_block.last_op
        rewriter.set_insertion_point_to_end(last_body_block)
        stepped = rewriter.create(AddIOp, iv, op.step, loc=loc).results[0]
        latch = _branch(rewriter, loc, condition_block, [stepped, *terminator.operands])
        _propagate_loop_attributes(op, latch)
        rewriter.erase_op(terminator)

        rewriter.set_insertion_point_to_end(init_block)
        _branch(rewriter, loc, condition_block, [op.lowerBound, *op.initArgs])

        rewriter.set_insertion_point_to_end(condition_block)
        predicate = "ult" if op.unsignedCmp is not None else "slt"
        comparison = rewriter.create(CmpIOp, iv, op.upperBound,
                                     predicate=CmpIPredicate.attr(predicate), loc=loc)
        rewriter.create(CondBranchOp, comparison.results[0], [], [],
                        successors=[first_body_block, end_block], loc=loc)
        rewriter.replace_op(op, condition_block.args[1:])


class IfLowering(_SCFLowering):
    """scf.if -> cf.cond_br to the inlined regions, which branch to the continuation
    (through a block taking the results, when there are results)."""

    root = IfOp

    def lower(self, op: IfOp, rewriter: PatternRewriter) -> None:
        # MLIR's conversion driver folds the op first: IfOp's folder swaps the
        # regions of an if-else on `xori %c, true` to branch on %c.
        swap_negated_condition(op, rewriter)
        loc = op.loc
        condition_block = op.parent
        remaining_block = rewriter.split_block(condition_block, op)
        if op.results:
            continue_block = rewriter.create_block_before(
                remaining_block, op.result_types, [loc] * len(op.results))
            _branch(rewriter, loc, remaining_block)
        else:
            continue_block = remaining_block

        then_block = op.thenRegion.blocks[0]
        _replace_terminator_with_branch(rewriter, op.thenRegion.blocks[-1], continue_block, loc)
        _inline_region_before(rewriter, op.thenRegion, continue_block)

        else_block = continue_block
        if op.elseRegion.blocks:
            else_block = op.elseRegion.blocks[0]
            _replace_terminator_with_branch(rewriter, op.elseRegion.blocks[-1], continue_block,
                                            loc)
            _inline_region_before(rewriter, op.elseRegion, continue_block)

        rewriter.set_insertion_point_to_end(condition_block)
        rewriter.create(CondBranchOp, op.condition, [], [],
                        successors=[then_block, else_block], loc=loc)
        rewriter.replace_op(op, continue_block.args)


class ExecuteRegionLowering(_SCFLowering):
    """scf.execute_region -> a branch into its blocks; each yield branches to the
    continuation, whose arguments are the results."""

    root = ExecuteRegionOp

    def lower(self, op: ExecuteRegionOp, rewriter: PatternRewriter) -> None:
        loc = op.loc
        condition_block = op.parent
        remaining_block = rewriter.split_block(condition_block, op)
        region = op.region
        rewriter.set_insertion_point_to_end(condition_block)
        _branch(rewriter, loc, region.blocks[0])
        for block in region.blocks:
            if isinstance(block.last_op, YieldOp):
                _replace_terminator_with_branch(rewriter, block, remaining_block, loc)
        _inline_region_before(rewriter, region, remaining_block)
        results = [rewriter.add_block_argument(remaining_block, result.type, loc)
                   for result in op.results]
        rewriter.replace_op(op, results)


class ParallelLowering(_SCFLowering):
    """scf.parallel -> a nest of scf.for (lowered in turn), the reductions carried as
    iter_args and their regions inlined into the innermost body."""

    root = ParallelOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not isinstance(op.body.last_op, ReduceOp):
            return rewriter.notify_match_failure(op, "the body does not end in scf.reduce")
        return super().match_and_rewrite(op, rewriter)

    def lower(self, op: ParallelOp, rewriter: PatternRewriter) -> None:
        loc = op.loc
        reduction = op.body.last_op
        iter_args = list(op.initVals)
        ivs = []
        loop_results = list(iter_args)
        for depth, (lower, upper, step) in enumerate(zip(op.lowerBound, op.upperBound,
                                                         op.step)):
            loop = ForOp.create_for(lower, upper, step, iter_args)
            loop.loc = loc
            _locate_loop_arguments(loop, iter_args)
            rewriter.insert(loop)
            ivs.append(loop.induction_var)
            iter_args = loop.region_iter_args
            if depth == 0:
                # The outermost loop's results replace the parallel loop's.
                loop_results = list(loop.results)
            elif loop.results:
                # A loop with results was built without a terminator.
                rewriter.set_insertion_point_to_end(rewriter.block)
                rewriter.create(YieldOp, list(loop.results), loc=loc)
            rewriter.set_insertion_point_to_start(loop.body)

        yielded = []
        for index, region in enumerate(reduction.reductions):
            reduction_body = region.blocks[0]
            combined = reduction_body.last_op
            yielded.append(combined.operands[0])
            rewriter.erase_op(combined)
            rewriter.inline_block_before(reduction_body, reduction,
                                         [iter_args[index], reduction.reduced[index]])
        rewriter.erase_op(reduction)

        new_body = rewriter.block
        if new_body.is_empty():
            rewriter.merge_blocks(op.body, new_body, ivs)
        else:
            rewriter.inline_block_before(op.body, new_body.last_op, ivs)
        if yielded:
            rewriter.set_insertion_point_to_end(rewriter.block)
            rewriter.create(YieldOp, yielded, loc=loc)
        rewriter.replace_op(op, loop_results)


class WhileLowering(_SCFLowering):
    """scf.while -> the before region as the loop header, branching to the after
    region or past the loop; the after region branches back."""

    root = WhileOp

    def lower(self, op: WhileOp, rewriter: PatternRewriter) -> None:
        loc = op.loc
        current_block = op.parent
        continuation = rewriter.split_block(current_block, op)
        after = op.after.blocks[0]
        before = op.before.blocks[0]
        _inline_region_before(rewriter, op.after, continuation)
        _inline_region_before(rewriter, op.before, after)

        rewriter.set_insertion_point_to_end(current_block)
        _branch(rewriter, loc, before, op.inits)

        condition = before.last_op
        assert isinstance(condition, ConditionOp)
        args = list(condition.args)
        rewriter.set_insertion_point_to_end(before)
        rewriter.create(CondBranchOp, condition.condition, args, [],
                        successors=[after, continuation], loc=condition.loc)
        rewriter.erase_op(condition)

        latch = _replace_terminator_with_branch(rewriter, after, before)
        _propagate_loop_attributes(op, latch)
        rewriter.replace_op(op, args)


class DoWhileLowering(_SCFLowering):
    """scf.while whose after region only passes its arguments back: the header
    branches to itself, the after region dropped."""

    root = WhileOp
    benefit = 2

    def match_and_rewrite(self, op, rewriter) -> bool:
        after = op.after.blocks[0]
        yield_op = after.first_op
        if yield_op is not after.last_op:
            return rewriter.notify_match_failure(
                op, "do-while simplification applicable only if 'after' region has no payload")
        if not isinstance(yield_op, YieldOp) or yield_op.operands != list(after.args):
            return rewriter.notify_match_failure(
                op, "do-while simplification applicable only to forwarding 'after' regions")
        return super().match_and_rewrite(op, rewriter)

    def lower(self, op: WhileOp, rewriter: PatternRewriter) -> None:
        current_block = op.parent
        continuation = rewriter.split_block(current_block, op)
        before = op.before.blocks[0]
        _inline_region_before(rewriter, op.before, continuation)

        rewriter.set_insertion_point_to_end(current_block)
        _branch(rewriter, op.loc, before, op.inits)

        condition = before.last_op
        assert isinstance(condition, ConditionOp)
        args = list(condition.args)
        rewriter.set_insertion_point_to_end(before)
        latch = rewriter.create(CondBranchOp, condition.condition, args, [],
                                successors=[before, continuation], loc=condition.loc)
        _propagate_loop_attributes(op, latch)
        rewriter.replace_op(op, args)
        rewriter.erase_op(condition)


class IndexSwitchLowering(_SCFLowering):
    """scf.index_switch -> cf.switch on the index as i64 to a block per case, each
    branching to the continuation, whose arguments are the results."""

    root = IndexSwitchOp

    def lower(self, op: IndexSwitchOp, rewriter: PatternRewriter) -> None:
        loc = op.loc
        condition_block = op.parent
        continue_block = rewriter.split_block(condition_block, op)
        results = [rewriter.add_block_argument(continue_block, result.type, loc)
                   for result in op.results]

        def lower_region(region: Region) -> Block:
            block = region.blocks[0]
            _replace_terminator_with_branch(rewriter, block, continue_block)
            _inline_region_before(rewriter, region, continue_block)
            return block

        cases = [(value, lower_region(region), [])
                 for value, region in zip(op.case_values, op.caseRegions)]
        default = lower_region(op.defaultRegion)

        rewriter.set_insertion_point_to_end(condition_block)
        flag = rewriter.create(IndexCastOp, op.arg, result_types=[i64], loc=loc).results[0]
        switch = SwitchOp.create_switch(flag, default, [], cases)
        switch.loc = loc
        rewriter.insert(switch)
        rewriter.replace_op(op, results)


class ForallLowering(_SCFLowering):
    """scf.forall without shared outputs -> scf.parallel (lowered in turn): its
    constant bounds and steps as `arith.constant`s (lower bounds, then upper bounds,
    then steps), its body moved over, `scf.forall.in_parallel` replaced by an empty
    `scf.reduce`, its `mapping` kept."""

    root = ForallOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        if op.outputs:
            return rewriter.notify_match_failure(
                op, "only fully bufferized scf.forall ops can be lowered to scf.parallel")
        return super().match_and_rewrite(op, rewriter)

    def lower(self, op: ForallOp, rewriter: PatternRewriter) -> None:
        loc = op.loc
        builder = ArithBuilder(rewriter, loc)
        lists = [[entry if isinstance(entry, Value) else builder.constant(IndexType(), entry)
                  for entry in mixed] for mixed in (op.mixed_lower_bound(),
                                                    op.mixed_upper_bound(), op.mixed_step())]
        parallel = ParallelOp.build(*lists, [], result_types=[], regions=[Region()], loc=loc)
        if op.mapping is not None:
            parallel.attributes["mapping"] = op.mapping
        rewriter.insert(parallel)
        rewriter.inline_region_before(op.region, parallel.region, 0)
        body = parallel.region.blocks[0]
        terminator = body.last_op
        rewriter.set_insertion_point_to_end(body)
        rewriter.create(ReduceOp, [], loc=terminator.loc)
        rewriter.erase_op(terminator)
        rewriter.replace_op(op, [])


# ------------------------------------------------------------------ the conversion


def scf_to_cf_patterns() -> PatternSet:
    """MLIR's populateSCFToControlFlowConversionPatterns: the lowering of each scf op
    (the do-while form before the general while)."""
    return PatternSet([ForallLowering(), ForLowering(), IfLowering(), ParallelLowering(),
                       WhileLowering(), ExecuteRegionLowering(), IndexSwitchLowering(),
                       DoWhileLowering()])


def scf_to_cf_target() -> ConversionTarget:
    """The scf ops with regions are illegal; every other op may stay."""
    target = ConversionTarget()
    target.add_illegal_op(*LOWERED_OPS)
    return target


def _obstacles(root: Operation) -> list[Diagnostic]:
    """A diagnostic for each scf.forall with shared outputs and each outermost scf op
    whose blocks have nowhere to go."""
    found = []
    for op in root.walk():
        if op is root or not isinstance(op, _LOWERED) or isinstance(op, _TERMINATORS):
            continue
        if isinstance(op, ForallOp) and op.outputs:
            found.append(Diagnostic(
                "error", "'scf.forall' with shared outputs cannot be lowered to cf: only a "
                         "bufferized one (without outputs) becomes scf.parallel", op.loc))
            continue
        parent = op.parent_op
        if isinstance(parent, _LOWERED):
            continue  # lands wherever its parent's blocks land
        obstacle = lowering_obstacle(op)
        if obstacle is not None:
            found.append(Diagnostic("error", f"'{op.name}' cannot be lowered to cf here: "
                                             f"{obstacle}", op.loc))
    return found


@dataclass(frozen=True)
class SCFToControlFlowOptions:
    allow_pattern_rollback: bool = allow_pattern_rollback_option()


@register_pass("convert-scf-to-cf", opt_level=0, options=SCFToControlFlowOptions,
               dialects=("cf", "arith"),
               summary="Convert structured control flow (scf) to branches between blocks (cf).")
class SCFToControlFlow(Pass):
    def run(self, op: Operation, run) -> None:
        obstacles = _obstacles(op)
        if obstacles:
            raise PassFailure(obstacles)
        result = apply_partial_conversion(op, scf_to_cf_target(), scf_to_cf_patterns(),
                                          first_failure_only=True)
        if not result.success:
            raise PassFailure(result.diagnostics)
