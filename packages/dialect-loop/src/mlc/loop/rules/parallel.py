"""Parallel loops: the outer spatial loops of a scheduled nest run on threads (TVM's
ParallelizeVectorizeUnroll rule), when the nest has work enough for them.

After a block's rule, its leading loops that bind only spatial iteration variables (of
every block under them) and are not unrolled or vectorized become `parallel`; the
OpenMP lowering runs the outermost one across the threads, letting an outer loop too
short for them absorb the parallel loop it holds (mlc.llvm's
convert-scf-parallel-to-gomp). Each output is still computed by one thread, in the
same order: results do not change with the thread count. A nest with less work than
`MIN_PARALLEL_WORK` (its block's iterations times the ops of its body) stays serial:
waking threads costs more than such a kernel.

In a search (mlc.loop.rules.decisions) the granularity is a choice: how many of the
leading spatial loops become parallel — none (serial, whatever the work), the
outermost only, or all of them — the rule's own count drawn most often.
"""

from __future__ import annotations

import math

from mlc.loop.ops import BlockOp, ForOp
from mlc.loop.rules.decisions import Chooser, own_choice
from mlc.loop.schedule import Schedule
from mlc.loop.schedule.scope import blocks_in, loops_around, positions_bound_to
from mlc.loop.schedule.trace import BlockRV

__all__ = ["MIN_PARALLEL_WORK", "parallelize_outer_loops"]

MIN_PARALLEL_WORK = 1 << 16
"""Block iterations times body ops below which a nest stays on one thread."""


def _work(block: BlockOp) -> int:
    body_ops = sum(1 for _ in block.walk_nested())
    return math.prod(block.extents) * max(1, body_ops)


def _spatial_only(loop: ForOp) -> bool:
    return all(block.kinds[p] == "S" for block in blocks_in(loop)
               for p in positions_bound_to(block, loop.induction_variable))


def parallelize_outer_loops(sch: Schedule, block: BlockRV, choose: Chooser = own_choice
                            ) -> int:
    """Mark the leading spatial loops of `block`'s nest parallel when it has the work
    (see the module docstring), or as many of them as `choose` picks; how many loops
    were marked."""
    op = sch.get(block)
    # Counted on the IR, not by get_loops: a nest left serial adds nothing to the trace.
    leading = 0
    for loop_op in loops_around(op):
        if loop_op.loop_kind != "serial" or not _spatial_only(loop_op):
            break
        leading += loop_op.extent.value > 1
    if not leading:
        return 0
    own = leading if _work(op) >= MIN_PARALLEL_WORK else 0
    count = choose(sorted({0, 1, leading}), own)
    if count:
        marked = 0
        for loop in sch.get_loops(block):
            if marked == count:
                break
            if sch.get(loop).extent.value > 1:
                sch.parallel(loop)
                marked += 1
    return count
