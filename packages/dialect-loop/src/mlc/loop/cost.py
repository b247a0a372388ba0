"""What a loop kernel computes, counted from its IR: floating-point operations and the
bytes of the buffers it reads and writes (what a profiler divides time by).

    costs = kernel_costs(module)          # {kernel name: KernelCost}
    costs["fused_dense"].flops            # 2 * M * N * K for a matmul

A block runs once per iteration of the loops around it; each run performs the float
arithmetic of its body (its `loop.init` excluded: it stores a starting value). `addf`,
`subf`, `mulf`, `divf`, `remf` and the float max/min count one operation, `math.fma`
two, any other `math` op with a float result one: a multiply-accumulate is two, as the
usual 2·M·N·K of a matrix product says. The bytes are the compulsory traffic: each
memref argument the kernel accesses, counted once at its full size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mlc.ir.core.attributes import FloatType, MemRefType, VectorType
from mlc.ir.core.ir import Operation
from mlc.ir.dialects import arith
from mlc.ir.dialects.func import FuncOp
from mlc.ir.dialects.math import FmaOp
from mlc.ir.dialects.math import math as math_dialect
from mlc.ir.opdef.declare import Op
from mlc.loop.ops import BlockOp, ForOp, InitOp, LoadOp, StoreOp, byte_size

__all__ = ["KernelCost", "kernel_cost", "kernel_costs"]

_ONE_FLOP = (arith.AddFOp, arith.SubFOp, arith.MulFOp, arith.DivFOp, arith.RemFOp,
             arith.MaximumFOp, arith.MinimumFOp, arith.MaxNumFOp, arith.MinNumFOp)


@dataclass(frozen=True)
class KernelCost:
    """Floating-point operations of one call of a kernel, and the bytes of the buffers
    it accesses."""

    flops: int
    bytes: int

    @property
    def intensity(self) -> float:
        """FLOPs per byte of compulsory traffic (low: the kernel is memory-bound)."""
        return self.flops / self.bytes if self.bytes else math.inf


def _is_float(type_) -> bool:
    element = type_.element_type if isinstance(type_, VectorType) else type_
    return isinstance(element, FloatType)


def _lanes(type_) -> int:
    return math.prod(type_.shape) if isinstance(type_, VectorType) else 1


def op_flops(op: Operation) -> int:
    """The float operations one execution of `op` performs (0 for a non-arithmetic op)."""
    if not op.results or not _is_float(op.results[0].type):
        return 0
    lanes = _lanes(op.results[0].type)
    if isinstance(op, _ONE_FLOP):
        return lanes
    if isinstance(op, FmaOp):
        return 2 * lanes
    if isinstance(op, Op) and op.op_def.dialect is math_dialect:
        return lanes
    return 0


def _block_flops(block: BlockOp) -> int:
    init = block.init
    total = 0
    for op in block.walk_nested():
        if init is not None and init.is_ancestor_of(op):
            continue
        if not isinstance(op, InitOp):
            total += op_flops(op)
    return total


def _runs(block: BlockOp) -> int:
    runs = 1
    parent = block.parent_op
    while parent is not None and not isinstance(parent, FuncOp):
        if isinstance(parent, ForOp):
            runs *= parent.extent.value
        parent = parent.parent_op
    return runs


def kernel_cost(fn: Operation) -> KernelCost | None:
    """The cost of one call of the kernel `fn` (a `func.func` holding loop blocks), or
    None when it holds none (a function of another level)."""
    blocks = [op for op in fn.walk() if isinstance(op, BlockOp)]
    if not blocks:
        return None
    flops = sum(_runs(b) * _block_flops(b) for b in blocks)
    arguments = set(fn.regions[0].blocks[0].args)
    accessed = {op.memref for b in blocks for op in b.walk_nested()
                if isinstance(op, (LoadOp, StoreOp)) and op.memref in arguments}
    size = sum(byte_size(v.type) or 0 for v in accessed if isinstance(v.type, MemRefType))
    return KernelCost(flops, size)


def kernel_costs(module: Operation) -> dict[str, KernelCost]:
    """The cost of every kernel of `module` (the functions holding loop blocks), by
    name."""
    costs = {}
    for op in module.regions[0].blocks[0].ops():
        if isinstance(op, FuncOp) and op.regions[0].blocks:
            cost = kernel_cost(op)
            if cost is not None:
                costs[op.attributes["sym_name"].value] = cost
    return costs
