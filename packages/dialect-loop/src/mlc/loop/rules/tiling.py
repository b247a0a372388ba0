"""Multi-level tiling with a register tile (TVM meta-schedule's MultiLevelTiling for CPU,
the structure BLAS kernels have): the rule for reductions whose output has a spatial
axis that is contiguous in memory — matmul, dense with packed weights, batch_matmul,
convolutions in NCHW{c}c, pooling in NCHW{c}c.

The output is computed tile by tile. A tile is `rows x columns x vectors x lanes`
outputs held in vector registers while every reduction loop runs:

- the **lane** axis is the output's contiguous axis; every read that moves with it
  moves contiguously, so one step of it is one vector load (`vectorize`);
- **vectors** more along the lane axis, and **columns** along another axis that one of
  the factors does not depend on, are unrolled: each is an accumulator of its own that
  reuses the broadcast factor;
- **rows** along an axis the other factor does not depend on are unrolled too: each
  reuses the vector factor's loads;
- the reduction loops run outside the tile's loops and inside the loops over tiles,
  in their original order (each output's sum keeps its order);
- the init is decomposed out of the reduction (a tile of zeros), and the epilogue
  (bias, batch norm, ReLU, residual add, rounding...) is moved to the tile
  (`reverse_compute_at`) and vectorized there, so the intermediate buffer compacts to
  the tile (mlc.loop.compact) and lives in registers; a reduction writing the output
  directly gets a tile buffer by `cache_write` first.

The sizes come from the target (:class:`~mlc.loop.rules.target.ScheduleTarget`): lanes
from the vector width, the tile's accumulators within the vector registers.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlc.loop.ops import BlockOp
from mlc.loop.rules.analysis import BlockInfo, analyze_block, element_bits, is_allocated
from mlc.loop.rules.target import ScheduleTarget
from mlc.loop.schedule import DependencyError, Schedule
from mlc.loop.schedule.trace import BlockRV, LoopRV

__all__ = ["TilePlan", "plan_tile", "apply_tile", "vector_width"]


@dataclass(frozen=True)
class TilePlan:
    """A register tile: the iteration variables and factors (module docstring)."""

    lane: int
    lanes: int
    vectors: int
    row: int | None = None
    rows: int = 1
    column: int | None = None
    columns: int = 1

    @property
    def accumulators(self) -> int:
        return self.rows * self.columns * self.vectors

    def describe(self) -> str:
        return (f"{self.rows} x {self.columns * self.vectors} vectors of {self.lanes} "
                f"lanes")


def vector_width(extent: int, lanes: int) -> int | None:
    """The lanes of the vectors an axis of `extent` is cut into: the target's, else the
    largest power of two of at least 4 dividing `extent`, else the whole axis when it
    is shorter than a vector; None when none fits (no tail handling here)."""
    if extent % lanes == 0:
        return lanes
    if extent < lanes:
        return extent
    width = lanes // 2
    while width >= 4:
        if extent % width == 0:
            return width
        width //= 2
    return None


def _largest_divisor(extent: int, limit: int) -> int:
    return max(d for d in range(1, max(1, min(extent, limit)) + 1) if extent % d == 0)


def _lane_variable(info: BlockInfo, target: ScheduleTarget) -> tuple[int, int] | None:
    """The spatial variable contiguous in the output whose every read moves
    contiguously (or not at all) with it, in vectors of how many lanes."""
    for v in reversed(info.spatial):
        if info.extents[v] == 1 or not info.contiguous(info.output, v) or \
                info.used_as_value(v):
            continue
        lanes = vector_width(info.extents[v], target.lanes(element_bits(info.element_type())))
        if lanes is None:
            continue
        if all(not info.uses(r, v) or (info.contiguous(r, v, lanes) and not r.padded)
               for r in info.reads):
            return v, lanes
    return None


def plan_tile(info: BlockInfo, target: ScheduleTarget) -> TilePlan | None:
    """The register tile for a reduction block, or None when the rule does not apply
    (no contiguous spatial lane axis)."""
    if info.reduction is None or not info.fresh_nest or not info.reduce:
        return None
    found = _lane_variable(info, target)
    if found is None:
        return None
    lane, lanes = found
    registers = target.vector_registers
    budget = registers - 8 if registers >= 32 else registers - 4  # loads, broadcasts
    spare = [v for v in info.spatial if v != lane and info.extents[v] > 1]
    # Rows: an axis some read does not move with (that read is reused across rows),
    # the innermost such first.
    reusing = [v for v in reversed(spare) if any(not info.uses(r, v) for r in info.reads)]
    row = reusing[0] if reusing else (spare[-1] if spare else None)
    # Columns: an axis another read does not move with.
    others = [v for v in reversed(spare) if v != row
              and any(not info.uses(r, v) and info.uses(r, row) for r in info.reads)] \
        if row is not None else []
    column = others[0] if others else None
    per_lane_axis = info.extents[lane] // lanes
    # The tile: as many accumulators as the registers allow (at most 4 vectors across,
    # 8 or so rows), preferring more rows (each row reuses the vectors' loads) and, at
    # equal size, fewer columns.
    best: tuple | None = None
    for vectors in _divisors(per_lane_axis, 4 if row is not None else 8):
        for columns in (_divisors(info.extents[column], 4) if column is not None else [1]):
            if vectors > 1 and columns > 1:
                continue
            across = vectors * columns
            rows = _largest_divisor(info.extents[row], max(1, min(8, budget // across))) \
                if row is not None else 1
            if rows * across > budget:
                continue
            key = (rows * across, rows, -columns)
            if best is None or key > best[0]:
                best = (key, vectors, columns, rows)
    _, vectors, columns, rows = best
    return TilePlan(lane, lanes, vectors, row, rows, column if columns > 1 else None, columns)


def _divisors(extent: int, limit: int) -> list[int]:
    return [d for d in range(1, min(extent, limit) + 1) if extent % d == 0]


def apply_tile(sch: Schedule, block: BlockRV, info: BlockInfo, plan: TilePlan,
               func_name: str, others: list[BlockOp]) -> None:
    """Tile `block` by `plan` (module docstring), then move the consumers of its output
    among `others` to the tile and vectorize them there."""
    consumers = [b for b in others if _reads(b, info)]
    if not consumers and not is_allocated(info.output.buffer):
        # The output is an argument: accumulate in a tile buffer, copied out after
        # (while the nest is still whole, so the copy comes after all of it).
        consumers_rv = [sch.cache_write(block, 0, "local")]
    else:
        consumers_rv = [sch.get_block(b.block_name_str, func_name) for b in consumers]
    loops = sch.get_loops(block)
    outer: dict[int, LoopRV] = {}
    inner: dict[int, list[LoopRV]] = {}
    for v, loop in enumerate(loops):
        factors = None
        if v == plan.lane:
            factors = [None, plan.vectors, plan.lanes] if plan.vectors > 1 else [None, plan.lanes]
        elif v == plan.row and plan.rows > 1:
            factors = [None, plan.rows]
        elif v == plan.column and plan.columns > 1:
            factors = [None, plan.columns]
        if factors is None:
            outer[v] = loop
            continue
        parts = sch.split(loop, factors)
        outer[v], inner[v] = parts[0], parts[1:]
    # Panels outermost: the loops over the lane axis's (and the columns') tiles come
    # before the other spatial loops from the first tiled axis on, so one panel of the
    # factor that moves with them stays in cache while every row tile passes over it.
    first = min(v for v in (plan.lane, plan.row, plan.column) if v is not None)
    panels = [v for v in (plan.column, plan.lane) if v is not None]
    order = [v for v in info.spatial if v < first] + panels + \
        [v for v in info.spatial if v >= first and v not in panels]
    spatial_outer = [outer[v] for v in order]
    reduction = [outer[v] for v in info.reduce]
    tile = [*inner.get(plan.row, []), *inner.get(plan.column, []), *inner[plan.lane]]
    sch.reorder(*spatial_outer, *reduction, *tile)
    for loop in tile[:-1]:
        sch.unroll(loop)
    sch.vectorize(tile[-1])
    sch.decompose_reduction(block, reduction[0])
    anchor = spatial_outer[-1]
    for consumer in consumers_rv:
        try:
            sch.reverse_compute_at(consumer, anchor)
        except DependencyError:
            # It also reads what a later block makes (an average pool's counts): it
            # stays after the reduction, which keeps a full-size intermediate.
            continue
        vectorize_tile_loops(sch, consumer, anchor_depth=len(spatial_outer), lanes=plan.lanes)


def _reads(block: BlockOp, info: BlockInfo) -> bool:
    from mlc.loop.ops import LoadOp

    return any(isinstance(op, LoadOp) and op.memref is info.output.buffer
               for op in block.walk_nested())


def vectorize_tile_loops(sch: Schedule, block: BlockRV, anchor_depth: int, lanes: int) -> None:
    """Vectorize the loops a block got below its first `anchor_depth` loops (where
    reverse_compute_at put it): the one walking its output's contiguous axis split by
    `lanes`, the others unrolled."""
    op = sch.get(block)
    info = analyze_block(op)
    loops = sch.get_loops(block)[anchor_depth:]
    if info is None or not loops:
        return
    loop_ops = [sch.get(lp) for lp in loops]
    lane = next((v for v in info.spatial if info.contiguous(info.output, v)), None)
    lane_loop = None
    if lane is not None:
        binding = op.binding_map.value.results[lane]
        for lp, loop_op in zip(loops, loop_ops):
            variable = loop_op.induction_variable
            if variable in op.bindings and \
                    binding.is_function_of_dim(list(op.bindings).index(variable)):
                lane_loop = lp
    for lp, loop_op in zip(loops, loop_ops):
        if lp is lane_loop:
            extent = loop_op.extent.value
            width = vector_width(extent, lanes)
            if width is None:
                continue
            if width < extent:
                high, low = sch.split(lp, [None, width])
                sch.unroll(high)
                sch.vectorize(low)
            else:
                sch.vectorize(lp)
        elif loop_op.extent.value <= 16:
            sch.unroll(lp)
