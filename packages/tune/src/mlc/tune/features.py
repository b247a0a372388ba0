"""Features of a scheduled kernel, read from its loop IR: what the cost model learns
times from (TVM's per-store features, condensed to one vector per kernel).

The kernel's heaviest block (most iterations times body ops) carries most of the
time; for it: its iterations, the loops around it by kind (vectorized lanes, unrolled
copies, parallel extent), its register tile (the outputs computed inside its
innermost reduction loop, in bytes and against the vector registers), the reduction
steps per tile (a chunk), the tiles outside the reduction, its loads and stores per
iteration and whether it is vectorized; for the kernel: its
blocks, loops, FLOPs and bytes (mlc.loop.cost), and the tile's footprint against
the L1 cache. Sizes are log2(1 + x) so that the learner sees ratios.
"""

from __future__ import annotations

import math

import numpy as np

from mlc.ir.core.ir import Operation
from mlc.loop.cost import kernel_cost
from mlc.loop.ops import BlockOp, ForOp, InitOp, LoadOp, StoreOp
from mlc.loop.rules.target import ScheduleTarget
from mlc.loop.schedule.scope import loops_around, positions_bound_to

__all__ = ["FEATURE_NAMES", "kernel_features"]

FEATURE_NAMES = (
    "iterations", "vector_lanes", "unrolled_copies", "parallel_extent", "depth",
    "innermost_serial_extent", "tile_outputs", "tile_registers", "reduction_steps_per_tile",
    "tiles", "loads", "stores", "vectorized", "blocks", "loops", "flops", "bytes",
    "tile_bytes_over_l1",
)


def _log(x: float) -> float:
    return math.log2(1.0 + max(0.0, x))


def _body_ops(block: BlockOp) -> int:
    return sum(1 for op in block.walk_nested() if not isinstance(op, InitOp))


def kernel_features(fn: Operation, target: ScheduleTarget) -> np.ndarray:
    """The feature vector (FEATURE_NAMES) of the scheduled kernel `fn`."""
    blocks = [b for b in fn.walk() if isinstance(b, BlockOp)]
    loops = [op for op in fn.walk() if isinstance(op, ForOp)]
    cost = kernel_cost(fn)
    if not blocks:
        return np.zeros(len(FEATURE_NAMES))

    def weight(block: BlockOp) -> int:
        return math.prod(lp.extent.value for lp in loops_around(block)) * max(1, _body_ops(block))

    block = max(blocks, key=weight)
    around = loops_around(block)
    extents = [lp.extent.value for lp in around]
    kinds = [lp.loop_kind for lp in around]

    def product(kind: str) -> int:
        return math.prod(e for e, k in zip(extents, kinds) if k == kind)

    reducing = [n for n, lp in enumerate(around)
                if any(block.kinds[p] != "S" for p in positions_bound_to(block, lp.induction_variable))]
    innermost_reduce = reducing[-1] if reducing else len(around)
    outermost_reduce = reducing[0] if reducing else len(around)
    tile = math.prod(extents[innermost_reduce + 1:]) if reducing else 1
    steps = math.prod(extents[n] for n in reducing) if reducing else 0
    tiles = math.prod(extents[:outermost_reduce])
    serial = [e for e, k in zip(extents, kinds) if k == "serial"]
    loads = [op for op in block.walk_nested() if isinstance(op, LoadOp)]
    stores = [op for op in block.walk_nested() if isinstance(op, StoreOp)]
    lanes = product("vectorized")
    element_bytes = 4
    tile_bytes = tile * element_bytes
    vector_bytes = max(1, target.lanes(32)) * element_bytes
    values = [
        _log(math.prod(extents)), _log(lanes), _log(product("unrolled")),
        _log(product("parallel")), float(len(around)), _log(serial[-1] if serial else 1),
        _log(tile), tile_bytes / (vector_bytes * max(1, target.vector_registers)),
        _log(steps), _log(tiles), float(len(loads)), float(len(stores)), float(lanes > 1),
        float(len(blocks)), float(len(loops)),
        _log(cost.flops if cost else 0), _log(cost.bytes if cost else 0),
        tile_bytes / max(1, target.l1_bytes),
    ]
    return np.asarray(values, dtype=np.float64)
