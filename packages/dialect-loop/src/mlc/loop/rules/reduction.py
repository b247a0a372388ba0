"""Reductions along the contiguous axis (a softmax's row maximum and sum, a layer
norm's mean and variance, a pool over a plane in NCHW): vectorized by rfactor.

Such a reduction has no spatial axis that moves contiguously through its input, so
the register tile does not apply; its reduce axis does. The innermost reduce loop is
split by the vector width and factored (`rfactor`): the partial reductions of each
lane accumulate in vector registers while the reduction runs, rows of outputs
unrolled for independent chains, and a short final reduction combines the lanes per
output, moved next to the tile so the partials never leave the registers.

Numerics: a maximum or minimum is exact in any order. A sum is reassociated into
`lanes` interleaved partial sums, each in order, then summed: the error bound is of
the same order as the sequential sum's (n·ε·Σ|x| for n terms), and results differ from
the unscheduled kernel's by rounding (tests allow rtol 1e-5 in f32).
"""

from __future__ import annotations

from mlc.loop.rules.analysis import BlockInfo, element_bits
from mlc.loop.rules.decisions import Chooser, own_choice
from mlc.loop.rules.target import ScheduleTarget
from mlc.loop.rules.tiling import _divisors, _largest_divisor, vector_width
from mlc.loop.schedule import Schedule
from mlc.loop.schedule.trace import BlockRV

__all__ = ["plan_row_reduction", "apply_row_reduction"]


def plan_row_reduction(info: BlockInfo, target: ScheduleTarget, choose: Chooser = own_choice
                       ) -> tuple[int, int, int] | None:
    """(the reduce variable to factor, its lanes, rows per tile) for a reduction whose
    innermost reduce variable moves every read that uses it contiguously, or None.
    `choose` may pick other rows per tile (up to 8)."""
    if info.reduction is None or not info.fresh_nest or not info.reduce:
        return None
    variable = info.reduce[-1]
    if variable != len(info.kinds) - 1:  # te's nests: spatial loops, then reduce loops
        return None
    bits = max([element_bits(info.element_type())] +
               [element_bits(r.buffer.type.element_type) for r in info.reads])
    lanes = vector_width(info.extents[variable], target.lanes(bits))
    if lanes is None or lanes < 4:
        return None
    if not any(info.uses(r, variable) for r in info.reads) or any(
            info.uses(r, variable) and (not info.contiguous(r, variable, lanes) or r.padded)
            for r in info.reads):
        return None
    spatial = [v for v in info.spatial if info.extents[v] > 1]
    rows = _largest_divisor(info.extents[spatial[-1]], 4) if spatial else 1
    if spatial:
        rows = choose(_divisors(info.extents[spatial[-1]], 8), rows)
    return variable, lanes, rows


def apply_row_reduction(sch: Schedule, block: BlockRV, info: BlockInfo,
                        plan: tuple[int, int, int]) -> BlockRV:
    """Factor, tile and vectorize the reduction (module docstring); the rf block."""
    variable, lanes, rows = plan
    # What the block is before rfactor rewrites it.
    all_spatial, reduce = info.spatial, info.reduce
    spatial = [v for v in all_spatial if info.extents[v] > 1]
    loops = sch.get_loops(block)
    outer, lane = sch.split(loops[variable], [None, lanes])
    rf = sch.rfactor(lane, -1)
    reduce_loops = [loops[v] for v in reduce if v != variable] + [outer]
    anchor = None
    if spatial:
        row = spatial[-1]
        row_outer, row_inner = sch.split(loops[row], [None, rows]) if rows > 1 else \
            (loops[row], None)
        spatial_loops = [loops[v] for v in all_spatial if v != row] + [row_outer]
        tile = [row_inner] if row_inner is not None else []
        sch.reorder(*spatial_loops, *reduce_loops, *tile, lane)
        for loop in tile:
            sch.unroll(loop)
        anchor = row_outer
    sch.vectorize(lane)
    sch.decompose_reduction(rf, reduce_loops[0])
    if anchor is not None:
        sch.reverse_compute_at(block, anchor)
    return rf
