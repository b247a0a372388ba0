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

When one panel of the factor that moves with the tile's columns (a dense layer's or a
convolution's weights for the panel's outputs: reduction length x panel width) is
larger than 3/4 of the L1 data cache, every pass of the rows over it would stream it
from L2 or memory (ResNet-18's last stage: 590 KB of weights per panel, read again for
each of its seven output rows). If the panel's outputs fit in L1, the outermost
reduction loop is then cut into chunks whose share of the panel fits in 3/4 of the L1
(the rest is for the rows' reads and the outputs; a matmul 512 on a 48 KB L1 ran at
86 % of OpenBLAS with chunks of 256, 77 % with chunks of 128), and the loop over
chunks goes right inside the loops over panels (the BLAS kernels' k-blocking): the
partial sums of the panel stay in a compacted buffer between chunks, each output's sum
still in order, and the epilogue moves to the panel, after its last chunk. When the
panel's outputs are too many for L1 and the rows are the only other axis (a
matmul's), the rows are blocked as well, the blocks outside the chunks (the BLAS
kernels' m-blocking). A panel whose chunk is scattered in memory (a matmul's right
operand, its rows a whole matrix row apart: too many lines in too few of the L1's
sets) is copied chunk by chunk into a contiguous buffer first (`cache_read`, then
`compute_at` the chunk loop: the BLAS kernels' packing).

A padding stage that only this block reads, through the panel's channels (a depthwise
convolution reads one channel block of its padded input per panel), is computed on
the tile too (`compute_at`): its few rows per tile stay in L1 (compacted, indexed
modulo a power of two) instead of a whole padded copy of the input going to memory
and back.

A search (mlc.loop.rules.decisions) may choose otherwise: another tile shape, chunk
or unrolling, no packing, and for an unchunked tile the rows' loops outside the
panels' and an L2 level (`TilePlan.rows_outer`, `TilePlan.l2_block`).

The sizes come from the target (:class:`~mlc.loop.rules.target.ScheduleTarget`): lanes
from the vector width, the tile's accumulators within the vector registers. Rows are
tiled by a divisor of their axis unless that starves the tile (a prime number of
rows: one row of vectors); then by a count that does not divide, the last tile cut by
split's predicate and peeled off by loop-lower (STARVED_TILE).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from mlc.loop.ops import BlockOp
from mlc.loop.rules.analysis import (
    BlockInfo,
    analyze_block,
    consumers_of,
    element_bits,
    is_allocated,
)
from mlc.loop.rules.decisions import Chooser, own_choice
from mlc.loop.rules.target import ScheduleTarget
from mlc.loop.schedule import DependencyError, Schedule
from mlc.loop.schedule.scope import linear_terms
from mlc.loop.schedule.trace import BlockRV, LoopRV

__all__ = ["TilePlan", "plan_tile", "apply_tile", "vector_width", "producers_on_the_tile"]


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
    chunked: int | None = None
    """The reduction variable whose loop is cut into chunks (module docstring)."""
    chunk: int = 1
    row_block: int | None = None
    """Row tiles per block when the rows are blocked too (module docstring)."""
    packed: int | None = None
    """The read (position in BlockInfo.reads) copied chunk by chunk into a packed
    panel (module docstring)."""
    unroll: int = 1
    """Steps of the innermost reduction loop unrolled around the tile (1: none; the
    rules' own plan; a search may choose more: mlc.loop.rules.decisions)."""
    rows_outer: bool = False
    """The loops over row tiles outside the loops over panels (the rules' own plan has
    the panels outermost; a search may choose this order for an unchunked tile)."""
    l2_block: int | None = None
    """An L2 tile level over the register tile (a search's choice for an unchunked
    tile): the tiles of the inner of the two outer axes (rows, or panels with
    `rows_outer`) grouped by this many, the loop over groups outermost, so that a
    group's share of the operand moving with that axis stays in L2 while every tile of
    the other axis passes over it (TVM's multi-level tiling, SSRSRS on a CPU)."""

    @property
    def accumulators(self) -> int:
        return self.rows * self.columns * self.vectors

    @property
    def panel_width(self) -> int:
        """Outputs along the lane (and column) axes one panel covers."""
        return self.columns * self.vectors * self.lanes

    def describe(self) -> str:
        chunks = f", reduction in chunks of {self.chunk}" if self.chunked is not None else ""
        return (f"{self.rows} x {self.columns * self.vectors} vectors of {self.lanes} "
                f"lanes{chunks}")


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


STARVED_TILE = 4
"""A tile of fewer accumulators than 1/STARVED_TILE of the vector registers (8 of
AVX-512's 32) is starved: only then do the rules cut the rows with a tail. On Zen 4 a fuller tile with a tail
measured no faster than a dividing one of half the registers (matmul 512: 8 x 2 vectors
at 183-197 GFLOP/s, 6 x 4 at 175-190, 12 x 2 at 170-174), but a 509-row matmul went
from 1.2 GFLOP/s (1 x 4 vectors) to 188 (6 x 4)."""


def plan_tile(info: BlockInfo, target: ScheduleTarget,
              choose: Chooser = own_choice) -> TilePlan | None:
    """The register tile for a reduction block, or None when the rule does not apply
    (no contiguous spatial lane axis). `choose` picks the tile's shape and the
    reduction's chunk among those that fit (mlc.loop.rules.decisions)."""
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
    # equal size, fewer columns. Rows that divide the axis first; a row count that
    # does not (its last tile cut by split's predicate, peeled by loop-lower) only when
    # the dividing tiles starve (STARVED_TILE: a prime number of rows) and it holds at
    # least half as many accumulators again. Every tile that fits the registers is a
    # shape a search may choose instead.
    def best_tile(dividing: bool) -> tuple[tuple, list]:
        best: tuple | None = None
        shapes = []
        for vectors in _divisors(per_lane_axis, 4 if row is not None else 8):
            for columns in (_divisors(info.extents[column], 4) if column is not None
                            else [1]):
                if vectors > 1 and columns > 1:
                    continue
                across = vectors * columns
                limit = max(1, min(8, budget // across))
                rows = 1 if row is None else _largest_divisor(info.extents[row], limit) \
                    if dividing else min(limit, info.extents[row])
                if rows * across > budget:
                    continue
                choices = [1] if row is None else \
                    _divisors(info.extents[row], rows) if dividing else [rows]
                shapes += [(vectors, columns, r) for r in choices]
                key = (rows * across, rows, -columns)
                if best is None or key > best[0]:
                    best = (key, vectors, columns, rows)
        return best, shapes

    best, shapes = best_tile(dividing=True)
    if best[0][0] * STARVED_TILE < registers and row is not None:
        tailed, tailed_shapes = best_tile(dividing=False)
        if tailed[0][0] * 2 >= best[0][0] * 3:
            best = tailed
            shapes += [shape for shape in tailed_shapes if shape not in shapes]
    _, *own = best
    vectors, columns, rows = choose(shapes, tuple(own))
    plan = TilePlan(lane, lanes, vectors, row, rows, column if columns > 1 else None, columns)
    plan = _chunk_reduction(plan, info, target, choose)
    innermost = info.reduce[-1]
    steps = plan.chunk if innermost == plan.chunked else info.extents[innermost]
    plan = replace(plan, unroll=choose([u for u in (1, 2, 4, 8) if steps % u == 0], 1))
    return _outer_loops(plan, info, target, choose)


L2_SHARE = 2
"""An L2 tile's operand share is at most 1/L2_SHARE of the L2 (the rest: the other
operand's panels passing over it, the outputs)."""


def _outer_loops(plan: TilePlan, info: BlockInfo, target: ScheduleTarget,
                 choose: Chooser = own_choice) -> TilePlan:
    """`plan` with the order of its loops over tiles and an L2 tile level over them as
    `choose` picks (the rules' own: panels outermost, no L2 level). Only for a tile
    whose reduction is not chunked: a chunked tile's loops are the BLAS kernels'
    blocking already (module docstring)."""
    if plan.chunked is not None or plan.row is None:
        return plan
    plan = replace(plan, rows_outer=choose(["panels", "rows"], "panels") == "rows")
    element_bytes = max(1, element_bits(info.element_type()) // 8)
    reduction = 1
    for r in info.reduce:
        reduction *= info.extents[r]
    if plan.rows_outer:  # groups of panels: each panel's share of the weights
        tiles = info.extents[plan.lane] // (plan.vectors * plan.lanes)
        per_tile = plan.vectors * plan.lanes * element_bytes * reduction
    else:  # groups of row tiles: each row's share of the rows' operand
        tiles = -(-info.extents[plan.row] // plan.rows)
        per_tile = plan.rows * element_bytes * reduction
    fitting = [d for d in _divisors(tiles, tiles - 1)
               if d > 1 and d * per_tile * L2_SHARE <= target.l2_bytes]
    block = choose([*fitting[-4:], tiles], tiles)
    return replace(plan, l2_block=block if block < tiles else None)


def _chunk_reduction(plan: TilePlan, info: BlockInfo, target: ScheduleTarget,
                     choose: Chooser = own_choice) -> TilePlan:
    """`plan` with its outermost reduction loop cut into chunks when one panel of the
    factor read across the rows is larger than 3/4 of the L1 cache and the panel's outputs
    fit in it (module docstring); `choose` may pick another chunk (the divisors of the
    loop from a quarter of the rule's chunk to four times it, or none; when the panel
    fits, chunks of 32 to 256 or none)."""
    element_bytes = max(1, element_bits(info.element_type()) // 8)
    panel_axes = {plan.lane, plan.column}
    first = min(v for v in (plan.lane, plan.row, plan.column) if v is not None)
    others = [v for v in info.spatial if v >= first and v not in panel_axes]
    outputs = plan.panel_width * element_bytes
    for v in others:
        outputs *= info.extents[v]
    reduction = 1
    for r in info.reduce:
        reduction *= info.extents[r]
    budget = target.l1_bytes * 3 // 4  # the panel's chunk; the rest for the rows
    panel = reduction * plan.panel_width * element_bytes
    if panel <= budget:
        # The panel fits: the rule does not chunk, a search may (the rows' reads of a
        # chunk stay in cache too).
        outermost = next((r for r in info.reduce if info.extents[r] > 1), None)
        if outermost is None or outputs > target.l1_bytes:
            return plan
        extent = info.extents[outermost]
        chunk = choose([d for d in (32, 64, 128, 256) if d < extent and extent % d == 0]
                       + [extent], extent)
        if chunk >= extent:
            return plan
        chunked = replace(plan, chunked=outermost, chunk=chunk)
        return replace(chunked, packed=_packing(chunked, info, choose))
    row_block = None
    if outputs > target.l1_bytes:
        # Too many rows for their outputs to stay in cache: when the rows are the only
        # other axis (a matmul's), blocks of row tiles take the panel's place.
        if others != [plan.row]:
            return plan
        tiles = -(-info.extents[plan.row] // plan.rows)  # the last one may be cut
        per_tile = plan.rows * plan.panel_width * element_bytes
        row_block = _largest_divisor(tiles, max(1, budget // per_tile))
        if row_block >= tiles:
            return plan
    outermost = next((r for r in info.reduce if info.extents[r] > 1), None)
    if outermost is None:
        return plan
    per_step = panel // info.extents[outermost]
    extent = info.extents[outermost]
    chunk = _largest_divisor(extent, max(1, budget // per_step))
    if chunk >= extent:
        return plan
    chunk = choose([d for d in _divisors(extent, 4 * chunk) if 4 * d >= chunk] + [extent],
                   chunk)
    if chunk >= extent:
        return plan
    chunked = replace(plan, chunked=outermost, chunk=chunk, row_block=row_block)
    return replace(chunked, packed=_packing(chunked, info, choose))


def _packing(plan: TilePlan, info: BlockInfo, choose: Chooser = own_choice) -> int | None:
    """The read to pack chunk by chunk (`_scattered_panel`), or None: where the rules
    pack, `choose` may leave the panel where it is instead."""
    position = _scattered_panel(plan, info)
    # Words, not booleans: a kept decision of 1 from another choice (an unrolling)
    # would equal True.
    if position is None or choose(["pack", "in place"], "pack") == "pack":
        return position
    return None


def _scattered_panel(plan: TilePlan, info: BlockInfo) -> int | None:
    """The read that is the panel (it moves with the lanes and not with the rows)
    when one chunk of it is scattered in memory (a matmul's right operand: rows of a
    chunk a whole matrix row apart, which the L1's sets cannot all hold), else None."""
    for position, read in enumerate(info.reads):
        if read.buffer is info.output.buffer or not read.is_affine or \
                not info.uses(read, plan.lane) or \
                (plan.row is not None and info.uses(read, plan.row)):
            continue
        shape = read.buffer.type.shape
        strides = [1] * len(shape)
        for axis in range(len(shape) - 2, -1, -1):
            strides[axis] = strides[axis + 1] * shape[axis + 1]
        coefficients: dict[int, int] = {}
        for index, stride in zip(read.indices, strides):
            terms = linear_terms(index)
            if terms is None:
                return None
            for v, c in terms[0].items():
                coefficients[v] = coefficients.get(v, 0) + c * stride
        extents = {r: info.extents[r] for r in info.reduce}
        extents[plan.chunked] = plan.chunk
        span = 1 + sum(abs(coefficients.get(r, 0)) * (e - 1) for r, e in extents.items())
        footprint = 1
        for e in extents.values():
            footprint *= e
        return position if span > footprint * plan.lanes else None
    return None


def producers_on_the_tile(info: BlockInfo, plan: TilePlan, blocks: list[BlockOp]
                          ) -> list[BlockOp]:
    """The blocks among `blocks` computed where the tile is (module docstring): a
    spatial block writing a buffer of the kernel that only this block reads, through
    an access that moves with the panel (a depthwise convolution's padding stage: each
    panel of channels reads its own slice of it)."""
    panel = [v for v in (plan.lane, plan.column) if v is not None]
    everything = list(dict.fromkeys([*blocks, info.block]))
    found = []
    for block in blocks:
        producer = analyze_block(block) if block is not info.block else None
        if producer is None or producer.reduce or not producer.fresh_nest or \
                not is_allocated(producer.output.buffer) or \
                consumers_of(producer, everything) != [info.block]:
            continue
        reads = [r for r in info.reads if r.buffer is producer.output.buffer]
        if reads and all(any(info.uses(r, v) for v in panel) for r in reads):
            found.append(block)
    return found


def _divisors(extent: int, limit: int) -> list[int]:
    return [d for d in range(1, min(extent, limit) + 1) if extent % d == 0]


def apply_tile(sch: Schedule, block: BlockRV, info: BlockInfo, plan: TilePlan,
               func_name: str, others: list[BlockOp], producers: list[str] = ()) -> None:
    """Tile `block` by `plan` (module docstring), then move the blocks named in
    `producers` (producers_on_the_tile) and the consumers of its output among `others`
    to the tile and vectorize them there."""
    consumers = [b for b in others if _reads(b, info)]
    if not consumers and not is_allocated(info.output.buffer):
        # The output is an argument: accumulate in a tile buffer, copied out after
        # (while the nest is still whole, so the copy comes after all of it).
        consumers_rv = [sch.cache_write(block, 0, "local")]
    else:
        consumers_rv = [sch.get_block(b.block_name_str, func_name) for b in consumers]
    packing = None
    if plan.packed is not None:
        read = info.reads[plan.packed]
        reads, _ = sch.get(block).accesses()
        buffers = list(dict.fromkeys(a.buffer for a in reads))
        packing = sch.cache_read(block, buffers.index(read.buffer), "local")
    loops = sch.get_loops(block)
    outer: dict[int, LoopRV] = {}
    inner: dict[int, list[LoopRV]] = {}
    chunks: LoopRV | None = None
    for v, loop in enumerate(loops):
        factors = None
        if v == plan.chunked:
            chunks, outer[v] = sch.split(loop, [None, plan.chunk])
            continue
        if v == plan.lane:
            factors = [None, plan.vectors, plan.lanes] if plan.vectors > 1 else [None, plan.lanes]
        elif v == plan.row and plan.row_block is not None:
            factors = [None, plan.row_block, plan.rows]
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
    leading = [v for v in info.spatial if v < first]
    rest = [v for v in info.spatial if v >= first and v not in panels]
    order = leading + (rest + panels if plan.rows_outer else panels + rest)
    spatial_outer = [outer[v] for v in order]
    if plan.l2_block is not None:
        # The L2 level: the inner axis's tiles in groups, the loop over groups outermost.
        grouped = plan.lane if plan.rows_outer else plan.row
        groups, tiles = sch.split(outer[grouped], [None, plan.l2_block])
        spatial_outer[order.index(grouped)] = tiles
        spatial_outer.insert(len(leading), groups)
    reduction = [outer[v] for v in info.reduce]
    row_tiles = inner.get(plan.row, [])
    if plan.row_block is not None:
        # The row's loop is (blocks, tiles in a block, rows): the blocks go outside
        # the chunks with the panels, the tiles inside.
        spatial_outer[spatial_outer.index(outer[plan.row])] = row_tiles[0]
        spatial_outer.insert(len(order) - len([v for v in order if v >= first
                                               and v not in panels]), outer[plan.row])
        row_tiles = row_tiles[1:]
    tile = [*row_tiles, *inner.get(plan.column, []), *inner[plan.lane]]
    if chunks is None:
        sch.reorder(*spatial_outer, *reduction, *tile)
        anchor_depth = len(spatial_outer)
    else:
        # The chunk loop right inside the panels (and row blocks): each chunk of the
        # panel stays in cache while the rows pass over it; the panel's outputs are kept
        # between chunks, and the epilogue runs on the panel once its last chunk is done.
        anchor_depth = len(order) - len([v for v in order if v >= first and v not in panels])
        anchor_depth += plan.row_block is not None
        sch.reorder(*spatial_outer[:anchor_depth], chunks, *spatial_outer[anchor_depth:],
                    *reduction, *tile)
    for loop in tile[:-1]:
        sch.unroll(loop)
    sch.vectorize(tile[-1])
    sch.decompose_reduction(block, reduction[0] if chunks is None else chunks)
    if packing is not None:
        # The chunk of the panel copied where the chunk starts: contiguous, it stays in L1.
        sch.compute_at(packing, chunks)
        vectorize_tile_loops(sch, packing, anchor_depth=anchor_depth + 1, lanes=plan.lanes)
    anchor = spatial_outer[anchor_depth - 1]
    for producer in producers:
        # Computed per tile into a compacted buffer that stays in L1, rather than
        # written whole to memory and read back.
        producer_rv = sch.get_block(producer, func_name)
        sch.compute_at(producer_rv, anchor)
        # A copy with a bounds guard per vector: unrolled it only grows the code.
        vectorize_tile_loops(sch, producer_rv, anchor_depth=anchor_depth, lanes=plan.lanes,
                             max_copies=1)
    for consumer in consumers_rv:
        try:
            sch.reverse_compute_at(consumer, anchor)
        except DependencyError:
            # It also reads what a later block makes (an average pool's counts): it
            # stays after the reduction, which keeps a full-size intermediate.
            continue
        vectorize_tile_loops(sch, consumer, anchor_depth=anchor_depth, lanes=plan.lanes)
    if plan.unroll > 1:
        # Last: the loops moved above hold their handles; the tile's body copied
        # `unroll` times along the reduction (one loop step per `unroll` updates).
        _, unrolled = sch.split(reduction[-1], [None, plan.unroll])
        sch.unroll(unrolled)


def _reads(block: BlockOp, info: BlockInfo) -> bool:
    from mlc.loop.ops import LoadOp

    return any(isinstance(op, LoadOp) and op.memref is info.output.buffer
               for op in block.walk_nested())


MAX_UNROLLED_COPIES = 32
"""How many copies of a block's body `vectorize_tile_loops` unrolls at most: a whole
register tile (its accumulators are fewer than the vector registers)."""


def vectorize_tile_loops(sch: Schedule, block: BlockRV, anchor_depth: int, lanes: int,
                         max_copies: int = MAX_UNROLLED_COPIES) -> None:
    """Vectorize the loops a block got below its first `anchor_depth` loops (where
    reverse_compute_at put it): the one walking its output's contiguous axis split by
    `lanes`, the others unrolled while the body's copies stay within `max_copies`."""
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
    # Innermost first, the loops are unrolled while the copies of the body stay within
    # MAX_UNROLLED_COPIES: an epilogue on a whole panel (7 x 7 x 2 vectors of a
    # convolution's outputs) stays a loop over rows instead of hundreds of copies.
    copies = 1
    for lp, loop_op in reversed(list(zip(loops, loop_ops))):
        extent = loop_op.extent.value
        if lp is lane_loop:
            width = vector_width(extent, lanes)
            if width is None:
                continue
            if width < extent:
                high, low = sch.split(lp, [None, width])
                if copies * (extent // width) <= max_copies:
                    sch.unroll(high)
                    copies *= extent // width
                sch.vectorize(low)
            else:
                sch.vectorize(lp)
        elif copies * extent <= max_copies:
            sch.unroll(lp)
            copies *= extent
