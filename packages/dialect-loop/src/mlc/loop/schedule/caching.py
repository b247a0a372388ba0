"""Caching: `cache_read` and `cache_write` (TVM's cache_read_write.cc): a block reads
(or writes) a copy of a buffer in another storage scope, filled (or written back) by a
copy block placed before (or after) the block's loops.
"""

from __future__ import annotations

from mlc.ir.core.affine_map import AffineMap, AffineMapAttr
from mlc.ir.core.attributes import StringAttr
from mlc.ir.core.ir import Value
from mlc.loop.ops import AllocBufferOp, BlockOp, ForOp, LoadOp, StoreOp
from mlc.loop.schedule.errors import ScheduleArgumentError
from mlc.loop.schedule.scope import enclosing_function, exclusive_subtree
from mlc.loop.schedule.state import ScheduleState
from mlc.loop.schedule.trace import BlockRV, primitive

__all__ = ["Caching"]


class Caching(ScheduleState):
    """cache_read, cache_write."""

    @primitive
    def cache_read(self, block: BlockRV, read_buffer_index: int, storage_scope: str) -> BlockRV:
        """Copy the block's `read_buffer_index`-th read buffer (in `reads(...)` order)
        into a new buffer in `storage_scope`, by a new block placed before the block's
        loops, and make the block read the copy."""
        return self._cache(block, read_buffer_index, storage_scope, write=False)

    @primitive
    def cache_write(self, block: BlockRV, write_buffer_index: int, storage_scope: str
                    ) -> BlockRV:
        """Make the block write its `write_buffer_index`-th buffer into a new buffer in
        `storage_scope`, copied back by a new block placed after the block's loops."""
        return self._cache(block, write_buffer_index, storage_scope, write=True)

    def _cache(self, block_rv: BlockRV, index: int, scope: str, write: bool) -> BlockRV:
        block = self._block(block_rv)
        what = "cache_write" if write else "cache_read"
        reads, writes = block.accesses()
        buffers = list(dict.fromkeys(a.buffer for a in (writes if write else reads)))
        if not isinstance(index, int) or not 0 <= index < len(buffers):
            count = f"{len(buffers)} buffer" + ("" if len(buffers) == 1 else "s")
            raise ScheduleArgumentError(
                f"{what}: the block {'writes' if write else 'reads'} {count}, there is no "
                f"#{index}", block)
        if not isinstance(scope, str) or not scope:
            raise ScheduleArgumentError(f"{what}: the storage scope must be a name such as 'local'",
                                        block)
        buffer = buffers[index]
        buffer_type = buffer.type
        rewriter = self._rewriter
        func = enclosing_function(block)
        entry = func.regions[0].blocks[0]
        first = entry.first_op
        while isinstance(first, AllocBufferOp):
            first = first.next_op
        rewriter.set_insertion_point_before(first) if first is not None else \
            rewriter.set_insertion_point_to_end(entry)
        cache = rewriter.insert(AllocBufferOp.create((), [buffer_type],
                                                     {"scope": StringAttr(scope)}))
        base = buffer.name_hint or "buffer"
        cache.results[0].name_hint = f"{base}_{scope}"
        # A read cache serves the block's loads; a write cache takes its stores and the
        # loads of what it wrote (a reduction reads its own output).
        redirected = [op for op in block.walk_nested()
                      if isinstance(op, (LoadOp, StoreOp)) and op.memref is buffer and
                      (isinstance(op, LoadOp) or write)
                      ]
        for op in redirected:
            with rewriter.modify_op_in_place(op):
                op.set_operand(1 if isinstance(op, StoreOp) else 0, cache.results[0])
        subtree = exclusive_subtree(block)
        copy_name = f"{base}_{scope}" if not write else f"{block.block_name_str}_{scope}"
        source, target = (cache.results[0], buffer) if write else (buffer, cache.results[0])
        copy = _copy_nest(copy_name, source, target)
        if write:
            rewriter.set_insertion_point_after(subtree)
        else:
            rewriter.set_insertion_point_before(subtree)
        rewriter.insert(copy)
        copy_block = next(op for op in copy.walk() if isinstance(op, BlockOp))
        return self._new(BlockRV, copy_block)



def _copy_nest(name: str, source: Value, target: Value) -> ForOp | BlockOp:
    """Loops over `target`'s shape around a block copying `source` into it (for a
    rank-0 buffer, the block alone)."""
    shape = list(target.type.shape)
    loops = [ForOp.create_loop(extent) for extent in shape]
    for outer, inner in zip(loops, loops[1:]):
        outer.body_block.append(inner)
    for n, loop_op in enumerate(loops):
        loop_op.induction_variable.name_hint = f"ax{n}"
    rank = len(shape)
    block = BlockOp.create_block(name, "S" * rank, shape,
                                 [lp.induction_variable for lp in loops],
                                 AffineMap.identity(rank))
    if loops:
        loops[-1].body_block.append(block)
    variables = block.iteration_variables
    for n, variable in enumerate(variables):
        variable.name_hint = f"v{n}"
    identity = AffineMapAttr(AffineMap.identity(rank))
    element = target.type.element_type
    load = block.body_block.append(LoadOp.create([source, *variables], [element],
                                                 {"map": identity}))
    block.body_block.append(StoreOp.create([load.results[0], target, *variables], [],
                                           {"map": identity}))
    return loops[0] if loops else block


