"""Elementwise, broadcast and injective blocks (and copies such as a padding stage):
vectorized along the output's contiguous axis.

The innermost loop walks the output's last axis in te's nests; when every read that
moves with it moves contiguously (a broadcast operand does not move: it is loaded
once and broadcast), it is split by the vector width and the inner part vectorized,
the outer unrolled when short. A block whose reads are strided along that axis (a
transpose) is left serial: vectorizing it would need gathers.
"""

from __future__ import annotations

from mlc.loop.rules.analysis import BlockInfo, element_bits
from mlc.loop.rules.decisions import Chooser, own_choice
from mlc.loop.rules.target import ScheduleTarget
from mlc.loop.rules.tiling import vector_width
from mlc.loop.schedule import Schedule
from mlc.loop.schedule.trace import BlockRV

__all__ = ["plan_vectorize", "apply_vectorize"]


def plan_vectorize(info: BlockInfo, target: ScheduleTarget,
                   choose: Chooser = own_choice) -> int | None:
    """The vector width for a spatial block's innermost axis, or None when the rule
    does not apply. `choose` may pick another width that divides the axis (from a
    quarter of the target's vector to two vectors)."""
    if info.reduction is not None or info.reduce or not info.fresh_nest or not info.spatial:
        return None
    lane = info.spatial[-1]
    extent = info.extents[lane]
    if extent == 1 or not info.contiguous(info.output, lane):
        return None
    if info.used_as_value(lane):
        return None  # the index is used as a value (a concat's select): no lanes of it
    if any(info.uses(r, lane) and (not info.contiguous(r, lane)
                                   or (r.padded and not info.lanes_in_bounds(r, lane)))
           for r in info.reads):
        return None
    bits = max([element_bits(info.element_type())] +
               [element_bits(r.buffer.type.element_type) for r in info.reads])
    lanes = target.lanes(bits)
    width = vector_width(extent, lanes)
    if width is None:
        return None
    widths = [w for w in (lanes // 4, lanes // 2, lanes, 2 * lanes)
              if w >= 2 and (extent % w == 0 or w == extent)]
    return choose(sorted({*widths, width}), width)


def apply_vectorize(sch: Schedule, block: BlockRV, width: int) -> None:
    """Split the block's innermost loop by `width` and vectorize the inner part."""
    innermost = sch.get_loops(block)[-1]
    extent = sch.get(innermost).extent.value
    if width < extent:
        high, low = sch.split(innermost, [None, width])
        if extent // width <= 4:
            sch.unroll(high)
        sch.vectorize(low)
    else:
        sch.vectorize(innermost)
