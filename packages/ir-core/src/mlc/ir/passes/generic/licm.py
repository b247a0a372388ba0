"""loop-invariant-code-motion: hoist what every iteration computes alike out of loops.

Works on any op that declares the LoopLike interface, with MLIR's rules: an op of the
loop body moves to just before the loop when every value it uses (it, or the ops
nested in it, apart from values defined inside it) is defined outside the loop, it
has no memory effects, and it is speculatable (it cannot trap or fail to end, since
the loop may run zero times). An op with regions moves only if everything inside it
qualifies. Loops are visited innermost first, so an op can move out of a whole nest
one loop at a time; within a loop, a worklist revisits the users of each moved op.
"""

from __future__ import annotations

from collections import deque

from mlc.ir.core.ir import BlockArgument, Operation, Value
from mlc.ir.interfaces.loop_like import LoopLike
from mlc.ir.interfaces.side_effects import is_memory_effect_free, is_speculatable
from mlc.ir.opdef.traits import IsTerminator
from mlc.ir.passes.analysis_manager import DominanceInfo, PostDominanceInfo
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.rewriter import Rewriter


def _defined_inside(op: Operation, value: Value) -> bool:
    """Whether `value` is defined in one of `op`'s regions."""
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op
        return owner is not None and op.is_ancestor_of(owner)
    owner = value.defining_op
    return owner is not None and owner is not op and op.is_ancestor_of(owner)


def _uses_only_outside_values(op: Operation, loop: Operation, loop_like: LoopLike) -> bool:
    """Every value `op` (or an op nested in it) uses is defined inside `op` or outside
    the loop."""
    for nested in op.walk():
        for operand in nested.op_operands:
            value = operand.value
            if op.regions and _defined_inside(op, value):
                continue
            if not loop_like.is_defined_outside(loop, value):
                return False
    return True


def can_hoist(op: Operation, loop: Operation, loop_like: LoopLike) -> bool:
    """Whether `op`, an op of the body of `loop`, may move to just before the loop."""
    if op.has_trait(IsTerminator):
        return False
    return (is_memory_effect_free(op) and is_speculatable(op)
            and _uses_only_outside_values(op, loop, loop_like))


def move_loop_invariant_code(loop: Operation, rewriter: Rewriter | None = None) -> int:
    """Hoist the invariant ops of `loop` (which declares LoopLike) to before it;
    returns how many moved."""
    loop_like = LoopLike.get(loop)
    if loop_like is None:
        raise TypeError(f"'{loop.name}' is not a loop (it does not declare LoopLike)")
    rewriter = rewriter if rewriter is not None else Rewriter()
    moved = 0
    for region in loop_like.loop_regions(loop):
        worklist = deque(region.ops())
        while worklist:
            op = worklist.popleft()
            if op.parent_region is not region or not can_hoist(op, loop, loop_like):
                continue  # already moved, or must stay
            loop_like.move_out_of_loop(loop, op, rewriter)
            moved += 1
            for result in op.results:
                for use in result.uses:
                    if use.owner.parent_region is region:
                        worklist.append(use.owner)
    return moved


@register_pass("loop-invariant-code-motion", opt_level=3,
               summary="Hoist side-effect-free, speculatable ops whose operands are defined "
               "outside a loop to before it (any LoopLike op).",
               statistics=(("num-moved", "ops hoisted out of loops"),))
class LoopInvariantCodeMotion(Pass):
    preserves = (DominanceInfo, PostDominanceInfo)

    def run(self, op: Operation, run) -> None:
        loops = [nested for nested in op.walk(post_order=True)
                 if nested is not op and LoopLike.get(nested) is not None]
        rewriter = Rewriter()
        for loop in loops:
            self.statistics["num-moved"] += move_loop_invariant_code(loop, rewriter)
