"""`loop-compact-buffers`: shrink each buffer a kernel allocates to the part one
iteration of a loop uses (TVM's CompactBufferAllocation).

After a schedule has moved every block that touches an intermediate buffer under one
loop (a reduction's register tile and the epilogue `reverse_compute_at` put after
it), each iteration of that loop uses only a box of the buffer: the full-size buffer
can become a buffer of the box's size, reused by every iteration, small enough to
live on the stack and then in registers (LLVM's SROA promotes a small `alloca` whose
accesses have constant offsets). Accesses are rewritten to index the box: an axis
whose box starts at a multiple of its extent `e` (plus a constant `c`) is indexed by
`(index - c) mod e`, which the loops' ranges simplify away when lowering
(:mod:`mlc.loop.indexing`).

A buffer is left as it is when anything but loads and stores uses it, when no loop
holds all its accesses, when an access is not affine in the loops, or when the box
moves with a loop that a block accessing the buffer reduces over (a value carried
from one iteration to the next could then be overwritten). `loop-lower` compacts
first; the pass shows the result on its own.

A box that does not start at a multiple of its extent (the rows a window reads
overlap the next iteration's: a padding stage computed per tile of a convolution) is
indexed modulo the next power of two at least its extent instead, a mask: within one
iteration its indices are consecutive, so they still land on distinct elements.

Under a parallel loop the iterations that reuse the box run on several threads at
once: a compacted buffer small enough for the stack becomes each thread's own
(convert-scf-parallel-to-gomp makes a stack buffer used only inside the loop
private), and a larger one is not compacted, since one heap buffer would be shared.
"""

from __future__ import annotations

import math

from mlc.ir.core.affine_bounds import _linear_form
from mlc.ir.core.affine_expr import AffineExpr, constant
from mlc.ir.core.affine_map import AffineMap, AffineMapAttr
from mlc.ir.core.attributes import MemRefType, StringAttr
from mlc.ir.core.ir import Operation
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.loop.ops import Access, AllocBufferOp, BlockOp, ForOp, LoadOp, StoreOp, byte_size
from mlc.loop.schedule.errors import RegionError
from mlc.loop.schedule.scope import enclosing_block, loops_around, region_over, union_of_regions

__all__ = ["compact_buffers", "LoopCompactBuffers"]


def _common_loop(ops: list[Operation]) -> ForOp | None:
    """The innermost loop enclosing every op of `ops`."""
    chains = [loops_around(op) for op in ops]
    common = None
    for level in zip(*chains):
        if all(loop is level[0] for loop in level):
            common = level[0]
        else:
            break
    return common


def _box(alloc: AllocBufferOp) -> tuple[list[tuple[AffineExpr, int]], list[Operation]] | None:
    """The box each iteration of the common loop uses, per axis (start, extent), and
    the accesses; None when the buffer cannot be compacted (module docstring)."""
    buffer = alloc.results[0]
    accesses = [use.owner for use in buffer.uses]
    if not accesses or any(not isinstance(op, (LoadOp, StoreOp)) or op.memref is not buffer
                           for op in accesses):
        return None
    loop = _common_loop(accesses)
    if loop is None:
        return None
    outer = [lp.induction_variable for lp in (*loops_around(loop), loop)]
    box: list[tuple[AffineExpr, int]] | None = None
    for op in accesses:
        block = enclosing_block(op)
        if block is None:
            return None
        indices = op.index_exprs_over(block)
        if any(index is None for index in indices):
            return None
        region = region_over(block, Access(buffer, indices), outer)
        if region is None:
            return None
        moving = {d for start, _ in region for d in range(len(outer))
                  if start.is_function_of_dim(d)}
        if _reduces_over(block, [outer[d] for d in moving]):
            return None
        try:
            box = region if box is None else [union_of_regions(a, b, block)
                                              for a, b in zip(box, region)]
        except RegionError:
            return None
    return box, accesses


def _reduces_over(block: BlockOp, variables: list) -> bool:
    binding_map = block.binding_map.value
    for position, kind in enumerate(block.kinds):
        if kind != "R":
            continue
        for d, value in enumerate(block.bindings):
            if value in variables and binding_map.results[position].is_function_of_dim(d):
                return True
    return False


def _shared_by_threads(accesses: list[Operation], compacted: MemRefType) -> bool:
    """Whether the compacted buffer would be one heap buffer for the iterations of a
    parallel loop: only a stack buffer becomes each thread's own (module docstring)."""
    from mlc.loop.lower import STACK_BUFFER_BYTES

    size = byte_size(compacted)
    return (size is None or size > STACK_BUFFER_BYTES) and any(
        loop.loop_kind == "parallel" for op in accesses for loop in loops_around(op))


def _periodic_offset(start: AffineExpr, extent: int) -> int | None:
    """`c` in [0, extent) when `start` is always congruent to `c` modulo `extent`."""
    terms, offset = _linear_form(start)
    if any(coefficient % extent for coefficient in terms.values()):
        return None
    return offset % extent


def compact_buffers(root: Operation) -> int:
    """Compact every `loop.alloc_buffer` under `root` that can be (see the module
    docstring); the number compacted."""
    rewriter = Rewriter()
    compacted = 0
    for alloc in [op for op in root.walk() if isinstance(op, AllocBufferOp)]:
        found = _box(alloc)
        if found is None:
            continue
        box, accesses = found
        buffer_type = alloc.results[0].type
        shape, shifts = [], []
        for (start, extent), size in zip(box, buffer_type.shape):
            shift = _periodic_offset(start, extent) if extent < size else None
            if shift is None and extent < size:
                # Boxes that overlap from one iteration to the next (a window's halo):
                # any span of `wrap` >= extent consecutive indices lands on distinct
                # slots modulo `wrap`; a power of two makes the modulo a mask.
                wrap = 1 << (extent - 1).bit_length()
                if wrap < size:
                    extent, shift = wrap, 0
            shape.append(extent if shift is not None else size)
            shifts.append(shift)
        if math.prod(shape) >= math.prod(buffer_type.shape):
            continue
        new_type = MemRefType(tuple(shape), buffer_type.element_type, buffer_type.layout,
                              buffer_type.memory_space)
        if _shared_by_threads(accesses, new_type):
            continue
        with rewriter.modify_op_in_place(alloc):
            alloc.results[0].type = new_type
            # Scratch of one iteration: not planned with the function's buffers, and
            # kept in its kernel (on the stack when small).
            alloc.attributes["scope"] = StringAttr("local")
        for op in accesses:
            index_map = op.index_map
            results = tuple(
                expr if shift is None else (expr - constant(shift)).mod(extent)
                for expr, shift, extent in zip(index_map.results, shifts, shape))
            with rewriter.modify_op_in_place(op):
                op.attributes["map"] = AffineMapAttr(AffineMap(index_map.num_dims, 0, results))
        compacted += 1
    return compacted


@register_pass("loop-compact-buffers", opt_level=0, dialects=("loop",),
               summary="Shrink each buffer a kernel allocates to the box one iteration of "
                       "the loop holding all its accesses uses (TVM's "
                       "CompactBufferAllocation).",
               statistics=(("num-compacted", "buffers compacted"),))
class LoopCompactBuffers(Pass):
    def run(self, op: Operation, run) -> None:
        self.statistics["num-compacted"] += compact_buffers(op)
