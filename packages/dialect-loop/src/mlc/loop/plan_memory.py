"""`loop-plan-memory`: buffers whose lifetimes do not overlap share storage (TVM's
GraphPlanMemory idea).

In each function, the buffers allocated at its top level (`loop.alloc_buffer`) live
from the first to the last top-level op that uses them (a `func.call` into a
kernel, a loop nest). Walking the ops in order, each buffer takes a storage freed by
a buffer that died before it starts — the smallest that is large enough, else the
largest free one, grown — or a new storage. Each storage becomes one
`loop.alloc_buffer : memref<Nxi8>` and each buffer a `loop.view` of it:

    %storage0 = loop.alloc_buffer : memref<401408xi8>
    %0 = loop.view %storage0 : memref<401408xi8> to memref<1x64x56x56xf32>

The pass statistics say how many bytes the buffers needed before and after.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlc.ir.core.attributes import IntegerType, MemRefType
from mlc.ir.core.ir import Block, Operation
from mlc.ir.dialects.func import FuncOp
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.loop.ops import AllocBufferOp, ViewOp, byte_size

__all__ = ["MemoryPlan", "plan_memory"]


@dataclass
class MemoryPlan:
    """What planning one function did."""

    bytes_before: int = 0
    bytes_after: int = 0
    buffers: int = 0
    storages: int = 0
    assignment: dict[AllocBufferOp, int] = field(default_factory=dict)


def plan_memory(function: Operation) -> MemoryPlan:
    """Plan the top-level buffers of `function` (a func.func) and rewrite them as views
    of shared storage; what it did."""
    plan = MemoryPlan()
    if not function.regions or not function.regions[0].blocks:
        return plan
    entry = function.regions[0].blocks[0]
    top_level = list(entry.ops())
    position = {op: n for n, op in enumerate(top_level)}
    lifetimes = []
    for alloc in top_level:
        if not isinstance(alloc, AllocBufferOp) or "scope" in alloc.attributes:
            continue
        size = byte_size(alloc.results[0].type)
        if size is None:
            continue
        users = [_top_level_ancestor(use.owner, entry) for use in alloc.results[0].uses]
        if not users or any(u is None for u in users):
            continue
        start = min(position[u] for u in users)
        end = max(position[u] for u in users)
        lifetimes.append((start, end, size, alloc))
    lifetimes.sort(key=lambda item: (item[0], position[item[3]]))
    storage_sizes: list[int] = []
    free_after: list[int] = []  # the last position where each storage is in use
    for start, end, size, alloc in lifetimes:
        free = [s for s in range(len(storage_sizes)) if free_after[s] < start]
        fitting = [s for s in free if storage_sizes[s] >= size]
        if fitting:
            chosen = min(fitting, key=lambda s: (storage_sizes[s], s))
        elif free:
            chosen = max(free, key=lambda s: (storage_sizes[s], -s))
            storage_sizes[chosen] = size
        else:
            chosen = len(storage_sizes)
            storage_sizes.append(size)
            free_after.append(end)
        free_after[chosen] = end
        plan.assignment[alloc] = chosen
        plan.bytes_before += size
    plan.buffers = len(lifetimes)
    plan.storages = len(storage_sizes)
    plan.bytes_after = sum(storage_sizes)
    if plan.storages == plan.buffers:  # nothing shared: leave the buffers as they are
        return plan
    rewriter = Rewriter()
    first = top_level[0]
    rewriter.set_insertion_point_before(first)
    storages = []
    for n, size in enumerate(storage_sizes):
        storage = rewriter.insert(AllocBufferOp.create((), [MemRefType((size,), IntegerType(8))]))
        storage.results[0].name_hint = f"storage{n}"
        storages.append(storage.results[0])
    for alloc, chosen in plan.assignment.items():
        rewriter.set_insertion_point_before(alloc)
        view = rewriter.insert(ViewOp.build(storages[chosen],
                                            result_types=[alloc.results[0].type]))
        view.results[0].name_hint = alloc.results[0].name_hint
        rewriter.replace_op(alloc, view.results)
    return plan


def _top_level_ancestor(op: Operation, entry: Block) -> Operation | None:
    while op is not None and op.parent is not entry:
        op = op.parent_op
    return op


@register_pass("loop-plan-memory", opt_level=0, dialects=("loop",),
               statistics=(("num-bytes-before", "bytes of the planned buffers, each apart"),
                           ("num-bytes-after", "bytes of the storages they share"),
                           ("num-buffers", "buffers planned"),
                           ("num-storages", "storages they share")),
               summary="Let buffers whose lifetimes do not overlap share storage.")
class LoopPlanMemory(Pass):
    def run(self, op: Operation, run) -> None:
        for function in op.walk():
            if not isinstance(function, FuncOp):
                continue
            plan = plan_memory(function)
            self.statistics["num-bytes-before"] += plan.bytes_before
            self.statistics["num-bytes-after"] += plan.bytes_after
            self.statistics["num-buffers"] += plan.buffers
            self.statistics["num-storages"] += plan.storages
