"""`loop-peel-tails`: run the iterations of a loop where its blocks' predicates surely
hold apart from the rest, so the full tiles carry no branch (MLIR's scf loop peeling,
`scf::peelForLoopAndSimplifyBounds`).

A split whose factors overshoot the extent guards its blocks with a predicate, such as
`i_0 * 6 + i_1 < 512` for rows tiled by 6. Lowered as it is, that is a compare and a
branch around every step of the register tile. Here a loop whose variable a condition
uses is cut in two: the first F iterations, where every such condition holds whatever
the loops inside take (found from the expressions' bounds), and a copy for the
remaining ones, its variable shifted by F. The conditions that hold throughout a part
are dropped from its blocks, and the blocks of a tail where a condition never holds
are erased; in the 512-row example the full part has no predicate, and the tail, one
iteration, keeps it (constant-folded once the tail is unrolled).

Serial and parallel loops are peeled, outermost first, and then the loops inside
both parts (a tail of row blocks has full row tiles and a last partial one);
vectorized and unrolled loops are left to their lowering. `loop-lower` peels after compacting buffers.
"""

from __future__ import annotations

from mlc.ir.core.affine_expr import AffineExpr, dim
from mlc.ir.core.attributes import IntegerAttr, i64
from mlc.ir.core.ir import Operation, Value
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.loop.ops import BlockOp, ForOp
from mlc.loop.schedule.scope import blocks_in, loop_of
from mlc.loop.schedule.state import drop_unused_bindings, substitute_loop_variable

__all__ = ["peel_tails", "LoopPeelTails"]

PEELED_KINDS = ("serial", "parallel")


def peel_tails(root: Operation) -> int:
    """Peel every loop under `root` that has a tail (see the module docstring); the
    number of loops peeled."""
    return _peel_nested(root, Rewriter())


def _peel_nested(op: Operation, rewriter: Rewriter) -> int:
    """Peel the loops nested in `op`, outermost first, then those in both parts."""
    peeled = 0
    for region in op.regions:
        for block in region.blocks:
            for child in list(block.ops()):
                if isinstance(child, BlockOp):
                    continue
                parts = [child]
                if isinstance(child, ForOp) and child.loop_kind in PEELED_KINDS:
                    full = _full_iterations(child)
                    if full is not None:
                        tail = _peel(child, full, rewriter)
                        parts += [tail] if tail is not None else []
                        peeled += 1
                for part in parts:
                    peeled += _peel_nested(part, rewriter)
    return peeled


def _ranges(block: BlockOp, overrides: dict[Value, tuple[int, int]] | None = None) -> dict:
    """The range of each binding operand of `block` (its loop's, unless overridden)."""
    ranges = {}
    for d, value in enumerate(block.bindings):
        if overrides and value in overrides:
            ranges[dim(d)] = overrides[value]
        else:
            ranges[dim(d)] = (0, loop_of(value).extent.value - 1)
    return ranges


def _holds(expr: AffineExpr, bound: int, ranges: dict) -> bool:
    _, high = expr.bound(ranges)
    return high is not None and high < bound


def _full_iterations(loop: ForOp) -> int | None:
    """How many first iterations of `loop` satisfy every predicate condition that uses
    its variable, for all values of the other loops; None when that is none or all
    of them (nothing to peel)."""
    variable = loop.induction_variable
    extent = loop.extent.value
    conditions = [(block, expr, bound) for block in blocks_in(loop)
                  for expr, bound in block.predicate_conditions
                  if variable in block.bindings
                  and expr.is_function_of_dim(list(block.bindings).index(variable))]
    if not conditions:
        return None
    full = extent
    for block, expr, bound in conditions:
        # The largest F with the condition true for the variable in [0, F): the
        # bound grows with F, so a binary search finds it.
        low, high = 0, full
        while low < high:
            middle = (low + high + 1) // 2
            if _holds(expr, bound, _ranges(block, {variable: (0, middle - 1)})):
                low = middle
            else:
                high = middle - 1
        full = low
    return full if 0 < full < extent else None


def _peel(loop: ForOp, full: int, rewriter: Rewriter) -> ForOp | None:
    """Cut `loop` after its first `full` iterations (a shifted copy runs the rest);
    the copy, or None when none of its blocks ever runs."""
    extent = loop.extent.value
    rewriter.set_insertion_point_after(loop)
    tail = rewriter.clone(loop)
    with rewriter.modify_op_in_place(loop):
        loop.attributes["extent"] = IntegerAttr(full, i64)
    with rewriter.modify_op_in_place(tail):
        tail.attributes["extent"] = IntegerAttr(extent - full, i64)
    variable = tail.induction_variable
    substitute_loop_variable(rewriter, variable, [variable], dim(0) + full)
    for part in (loop, tail):
        for block in blocks_in(part):
            _drop_conditions_that_hold(block, rewriter)
    _erase_blocks_that_never_run(tail, rewriter)
    if tail.body_block.first_op is None:
        rewriter.erase_op(tail)
        return None
    return tail


def _drop_conditions_that_hold(block: BlockOp, rewriter: Rewriter) -> None:
    conditions = block.predicate_conditions
    ranges = _ranges(block)
    kept = [(e, b) for e, b in conditions if not _holds(e, b, ranges)]
    if len(kept) == len(conditions):
        return
    with rewriter.modify_op_in_place(block):
        block.rebind(list(block.bindings), block.binding_map.value, kept)
        drop_unused_bindings(block)


def _erase_blocks_that_never_run(part: ForOp, rewriter: Rewriter) -> None:
    """Erase the blocks of a tail whose predicate is false throughout (the split
    overshot by more than the tail: 30 as 8 x 4 leaves rows 30 and 31 of the last
    tile), and the loops inside it left empty."""
    for block in blocks_in(part):
        ranges = _ranges(block)
        if not any(_never_holds(e, b, ranges) for e, b in block.predicate_conditions):
            continue
        op: Operation = block
        while op.parent_op is not part and isinstance(op.parent_op, ForOp) and \
                op.parent.first_op is op and op.parent.last_op is op:
            op = op.parent_op
        rewriter.erase_op(op)


def _never_holds(expr: AffineExpr, bound: int, ranges: dict) -> bool:
    low, _ = expr.bound(ranges)
    return low is not None and low >= bound


@register_pass("loop-peel-tails", opt_level=0, dialects=("loop",),
               summary="Run the iterations of a loop where its blocks' predicates hold "
                       "apart from the tail, so full tiles run without a branch (MLIR's "
                       "scf loop peeling).",
               statistics=(("num-peeled", "loops peeled"),))
class LoopPeelTails(Pass):
    def run(self, op: Operation, run) -> None:
        self.statistics["num-peeled"] += peel_tails(op)
