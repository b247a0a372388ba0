"""Compute location: `compute_at`, `reverse_compute_at`, `compute_inline`,
`reverse_compute_inline` (TVM's compute_at.cc and compute_inline.cc).

compute_at and reverse_compute_at move a block under a loop of its consumers (or
producers) and shrink its loops to the region they need in one iteration, derived by
the shared region analysis (:func:`mlc.loop.schedule.scope.region_over`). The inline
primitives substitute a block's computation into the blocks that read (or write) its
buffer, composing the access maps.
"""

from __future__ import annotations

from mlc.ir.core.affine_expr import AffineExpr, constant, dim
from mlc.ir.core.affine_map import AffineMap, AffineMapAttr
from mlc.ir.core.ir import Operation, Value
from mlc.loop.ops import AllocBufferOp, BlockOp, ForOp, LoadOp, StoreOp
from mlc.loop.schedule.errors import (
    DependencyError,
    NotInlinableError,
    PredicateError,
    RegionError,
)
from mlc.loop.schedule.scope import (
    blocks_in,
    enclosing_block,
    exclusive_subtree,
    loop_of,
    loops_around,
    plain_variable,
    position_in_block,
    region_over,
    scope_block,
    top_under,
    union_of_regions,
    variables_of,
)
from mlc.loop.schedule.state import ScheduleState, drop_unused_bindings
from mlc.loop.schedule.trace import BlockRV, LoopRV, primitive

__all__ = ["ComputeLocation"]


class ComputeLocation(ScheduleState):
    """compute_at, reverse_compute_at, compute_inline, reverse_compute_inline."""

    @primitive
    def reverse_compute_at(self, block: BlockRV, loop: LoopRV) -> None:
        """Move a consumer block under `loop`, after the blocks there that produce what
        it reads, computing just the part they produce in each iteration."""
        self._compute_at(block, loop, reverse=True)

    @primitive
    def compute_at(self, block: BlockRV, loop: LoopRV) -> None:
        """Move a producer block under `loop`, before the blocks there that read what
        it writes, computing just the part they read in each iteration."""
        self._compute_at(block, loop, reverse=False)

    def _compute_at(self, block_rv: BlockRV, loop_rv: LoopRV, reverse: bool) -> None:
        block, loop_op = self._block(block_rv), self._loop(loop_rv)
        what = "reverse_compute_at" if reverse else "compute_at"
        if loop_op.is_ancestor_of(block):
            raise DependencyError(f"{what}: the block is already under the loop", block)
        if block.predicate_conditions:
            raise PredicateError(f"{what}: the block has a predicate (where), written in "
                                 "terms of the loops it would leave", block)
        subtree = exclusive_subtree(block)
        if subtree.parent is None or subtree.parent is not scope_block(loop_op, subtree):
            raise DependencyError(f"{what}: the block and the loop are not in the same scope",
                                  block)
        block_reads, block_writes = block.accesses()
        others = blocks_in(loop_op)
        if reverse:
            buffers = {a.buffer for a in block_reads}
            related = [b for b in others if any(w.buffer in buffers for w in b.accesses()[1])]
            if not related:
                raise DependencyError("reverse_compute_at: no block under the loop writes a "
                                      "buffer the block reads", block)
            if position_in_block(subtree) < position_in_block(top_under(loop_op, subtree.parent)):
                raise DependencyError("reverse_compute_at: the block comes before the loop's "
                                      "producers", block)
        else:
            buffers = {a.buffer for a in block_writes}
            related = [b for b in others if any(r.buffer in buffers for r in b.accesses()[0])]
            if not related:
                raise DependencyError("compute_at: no block under the loop reads a buffer the "
                                      "block writes", block)
            if position_in_block(subtree) > position_in_block(top_under(loop_op, subtree.parent)):
                raise DependencyError("compute_at: the block comes after the loop's consumers",
                                      block)
        self._check_no_dependence_crossed(block, subtree, loop_op, reverse, what)
        outer = loops_around(loop_op) + [loop_op]
        outer_vars = [lp.induction_variable for lp in outer]
        # A consumer may reduce over the loop (a packed panel copied per chunk of a
        # matmul's reduction: it reads that chunk in the iteration); a producer moved
        # after it may not: its result would not be complete within one iteration.
        for other in related if reverse else ():
            for position in (n for n, kind in enumerate(other.kinds) if kind == "R"):
                if any(v in outer_vars for v in variables_of(other, position)):
                    raise DependencyError(
                        f'{what}: block "{other.block_name_str}" reduces over a loop outside '
                        "the target loop, so its result is not complete within one iteration",
                        other)
        ranges = self._required_ranges(block, outer, related, reverse)
        self._place(block, subtree, loop_op, outer, ranges, at_end=reverse)

    def _check_no_dependence_crossed(self, block: BlockOp, subtree, loop_op: ForOp,
                                     reverse: bool, what: str) -> None:
        """Refuse a move past a block outside the loop that depends on `block`: moving
        a consumer up (reverse) past another producer of what it reads, or a producer
        down past another consumer of what it writes, would make it read before the
        value is written (TVM's check that the block's dependences are complete)."""
        top = top_under(loop_op, subtree.parent)
        first, last = sorted((position_in_block(top), position_in_block(subtree)))
        reads, writes = block.accesses()
        read_buffers = {a.buffer for a in reads}
        written = {a.buffer for a in writes}
        for at, between in enumerate(subtree.parent.ops()):
            if not first < at < last:
                continue
            for other in blocks_in(between):
                other_reads, other_writes = other.accesses()
                if reverse and any(w.buffer in read_buffers for w in other_writes):
                    raise DependencyError(
                        f'{what}: block "{other.block_name_str}" between the loop and the '
                        "block writes a buffer the block reads", other)
                if not reverse and (any(r.buffer in written for r in other_reads) or
                                    any(w.buffer in written for w in other_writes)):
                    raise DependencyError(
                        f'{what}: block "{other.block_name_str}" between the block and the '
                        "loop uses a buffer the block writes", other)

    def _required_ranges(self, block: BlockOp, outer: list[ForOp],
                         related: list[BlockOp], reverse: bool
                         ) -> list[tuple[AffineExpr, int]]:
        """For each iteration variable of `block`: (start as an affine expression of
        the `outer` loops' variables, extent) it must cover in one iteration of
        `loop_op`."""
        outer_vars = [lp.induction_variable for lp in outer]
        covered: dict[int, tuple[AffineExpr, int]] = {}
        own_reads, own_writes = block.accesses()
        mine = own_reads if reverse else own_writes
        for other in related:
            reads, writes = other.accesses()
            theirs = writes if reverse else reads
            for access in theirs:
                for own in (a for a in mine if a.buffer is access.buffer):
                    region = region_over(other, access, outer_vars)
                    if region is None:
                        raise RegionError("cannot compute the region the loop's blocks "
                                          "access (an index is not affine in the loops)",
                                          other)
                    for axis, (index, (start, extent)) in enumerate(zip(own.indices, region)):
                        position = plain_variable(index)
                        if position is None:
                            raise RegionError(
                                f"the block's index {axis} of the buffer is not a plain "
                                "iteration variable, so its range cannot be derived", block)
                        previous = covered.get(position)
                        if previous is not None and previous != (start, extent):
                            start, extent = union_of_regions(previous, (start, extent), block)
                        covered[position] = (start, extent)
        ranges = []
        for position, extent in enumerate(block.extents):
            if position in covered:
                    ranges.append(covered[position])
            else:
                ranges.append((constant(0), extent))
        return ranges

    def _place(self, block: BlockOp, subtree: Operation, loop_op: ForOp, outer: list[ForOp],
               ranges: list[tuple[AffineExpr, int]], at_end: bool) -> None:
        """Rebuild `block` under `loop_op` with one new loop per iteration variable whose
        range is longer than 1, bound to start + loop variable; erase its old loops.
        Where a range may reach past the iteration variable's extent (the loop's blocks
        have a predicate, their tiles overshoot), the block gets the predicate
        "start + loop variable < extent"."""
        rewriter = self._rewriter
        body = loop_op.body_block
        rewriter.set_insertion_point_to_end(body) if at_end else \
            rewriter.set_insertion_point_to_start(body)
        container_loops: list[ForOp] = []
        for _, extent in ranges:
            if extent > 1:
                new_loop = ForOp.create_loop(extent)
                new_loop.induction_variable.name_hint = f"ax{len(container_loops)}"
                if container_loops:
                    rewriter.set_insertion_point_to_end(container_loops[-1].body_block)
                rewriter.insert(new_loop)
                container_loops.append(new_loop)
        operands = [lp.induction_variable for lp in outer] + \
                   [lp.induction_variable for lp in container_loops]
        exprs, next_loop = [], len(outer)
        for start, extent in ranges:
            if extent > 1:
                exprs.append(start + dim(next_loop))
                next_loop += 1
            else:
                exprs.append(start)
        new_map = AffineMap(len(operands), 0, tuple(exprs))
        ranges_of_operands = {dim(d): (0, loop_of(v).extent.value - 1)
                              for d, v in enumerate(operands)}
        conditions = [(expr, domain) for expr, domain in zip(exprs, block.extents)
                      if expr.bound(ranges_of_operands)[1] >= domain]
        if container_loops:
            rewriter.set_insertion_point_to_end(container_loops[-1].body_block)
        else:
            rewriter.set_insertion_point_to_end(body) if at_end else \
                rewriter.set_insertion_point_to_start(body)
        rewriter.move_op_before(block, rewriter.block, rewriter.before)
        with rewriter.modify_op_in_place(block):
            block.rebind(operands, new_map, conditions)
            drop_unused_bindings(block)
        if subtree is not block:
            rewriter.erase_op(subtree)


    @primitive
    def compute_inline(self, block: BlockRV) -> None:
        """Inline a block that computes one element of a buffer per iteration (a spatial
        block with a single store) into the blocks reading that buffer, and remove it."""
        block_op = self._block(block)
        name = block_op.block_name_str
        if "R" in block_op.kinds:
            raise NotInlinableError(f'cannot inline block "{name}": it is a reduction', block_op)
        _refuse_predicate(block_op, "compute_inline")
        stores = [op for op in block_op.walk_nested() if isinstance(op, StoreOp)]
        if len(stores) != 1 or stores[0].parent is not block_op.body_block:
            raise NotInlinableError(f'cannot inline block "{name}": it must store exactly one '
                                    'element, at its top level', block_op)
        store = stores[0]
        indices = store.index_exprs_over(block_op)
        positions = [plain_variable(e) if e is not None else None for e in indices]
        if None in positions or sorted(positions) != list(range(len(block_op.kinds))):
            raise NotInlinableError(f'cannot inline block "{name}": its store must index the '
                                    'buffer by each iteration variable once', block_op)
        buffer = store.memref
        if not isinstance(buffer.owner, AllocBufferOp):
            raise NotInlinableError(f'cannot inline block "{name}": it writes a buffer the kernel '
                                    'does not allocate (an argument, an output)', block_op)
        for op in block_op.walk_nested():
            if op is store:
                continue
            for operand in op.operands:
                if operand in block_op.iteration_variables and not isinstance(op, LoadOp):
                    raise NotInlinableError(f'cannot inline block "{name}": it uses an '
                                            'iteration variable as a value', op)
        readers = [op for op in buffer.users if isinstance(op, LoadOp)]
        writers = [op for op in buffer.users if isinstance(op, StoreOp) and op is not store]
        if writers:
            raise NotInlinableError(f'cannot inline block "{name}": another block writes its '
                                    'buffer too', writers[0])
        if any(load.attributes.get("padding") is not None for load in readers):
            raise NotInlinableError(f'cannot inline block "{name}": a padded read of its buffer',
                                    block_op)
        rewriter = self._rewriter
        for load in readers:
            # The stored value, recomputed at the load's indices: the block's iteration
            # variable for buffer axis a is the load's index a.
            load_map = load.index_map
            variable_exprs = [None] * len(block_op.kinds)
            for axis, position in enumerate(positions):
                variable_exprs[position] = load_map.results[axis]
            mapping: dict[Value, Value] = {}
            rewriter.set_insertion_point_before(load)
            for op in block_op.body_block.ops():
                if op is store:
                    continue
                if isinstance(op, LoadOp):
                    composed = [e.replace_dims_and_symbols(
                        [_variable_expr(v, block_op, variable_exprs, op) for v in op.indices],
                        []) for e in op.index_map.results]
                    replacement = LoadOp.create(
                        [op.memref, *load.indices], [op.results[0].type],
                        {**op.attributes,
                         "map": AffineMapAttr(AffineMap(len(load.indices), 0, tuple(composed)))})
                    rewriter.insert(replacement)
                    mapping[op.results[0]] = replacement.results[0]
                else:
                    rewriter.clone(op, mapping)
            rewriter.replace_op(load, [mapping.get(store.value, store.value)])
        rewriter.erase_op(exclusive_subtree(block_op))
        if not buffer.uses:
            rewriter.erase_op(buffer.owner)

    @primitive
    def reverse_compute_inline(self, block: BlockRV) -> None:
        """Inline a block into the producer of the one buffer it reads from a kernel
        allocation: the producer stores the block's result straight into the block's
        output, and the block and the intermediate buffer disappear."""
        consumer = self._block(block)
        name = consumer.block_name_str
        if "R" in consumer.kinds:
            raise NotInlinableError(f'cannot reverse-inline block "{name}": it is a reduction',
                                    consumer)
        _refuse_predicate(consumer, "reverse_compute_inline")
        loads = [op for op in consumer.walk_nested() if isinstance(op, LoadOp)
                 and isinstance(op.memref.owner, AllocBufferOp)]
        stores = [op for op in consumer.walk_nested() if isinstance(op, StoreOp)]
        if len(loads) != 1 or len(stores) != 1 or loads[0].parent is not consumer.body_block \
                or stores[0].parent is not consumer.body_block:
            raise NotInlinableError(f'cannot reverse-inline block "{name}": it must read one '
                                    'allocated buffer once and store one element, at its top level',
                                    consumer)
        load = loads[0]
        positions = [plain_variable(e) for e in load.index_exprs_over(consumer)]
        if None in positions or sorted(positions) != list(range(len(consumer.kinds))):
            raise NotInlinableError(f'cannot reverse-inline block "{name}": it must read the '
                                    'buffer by each iteration variable once', consumer)
        for op in consumer.walk_nested():
            if not isinstance(op, (LoadOp, StoreOp)) and \
                    any(v in consumer.iteration_variables for v in op.operands):
                raise NotInlinableError(f'cannot reverse-inline block "{name}": it uses an '
                                        'iteration variable as a value', op)
        buffer = load.memref
        producers = [op for op in buffer.users if isinstance(op, StoreOp)]
        readers = [op for op in buffer.users if isinstance(op, LoadOp)]
        if len(producers) != 1 or len(readers) != 1:
            raise NotInlinableError(f'cannot reverse-inline block "{name}": its input must have '
                                    'one producer store and no other reader', consumer)
        producer_store = producers[0]
        producer = enclosing_block(producer_store)
        if producer is None or "R" in producer.kinds or producer_store.parent is not \
                producer.body_block:
            raise NotInlinableError(f'cannot reverse-inline block "{name}": its producer must be '
                                    'a spatial block storing at its top level', consumer)
        rewriter = self._rewriter
        # Consumer variable for buffer axis a = the producer's store index a.
        variable_exprs: list = [None] * len(consumer.kinds)
        for axis, position in enumerate(positions):
            variable_exprs[position] = producer_store.index_map.results[axis]
        operands = list(producer_store.indices)
        mapping: dict[Value, Value] = {load.results[0]: producer_store.value}
        rewriter.set_insertion_point_before(producer_store)
        for op in consumer.body_block.ops():
            if op is load:
                continue
            if isinstance(op, (LoadOp, StoreOp)):
                composed = tuple(e.replace_dims_and_symbols(
                    [_variable_expr(v, consumer, variable_exprs, op) for v in op.indices], [])
                    for e in op.index_map.results)
                new_map = AffineMapAttr(AffineMap(len(operands), 0, composed))
                leading = [mapping.get(op.value, op.value)] if isinstance(op, StoreOp) else []
                created = type(op).create([*leading, op.memref, *operands],
                                          [r.type for r in op.results],
                                          {**op.attributes, "map": new_map})
                rewriter.insert(created)
                if created.results:
                    mapping[op.results[0]] = created.results[0]
            else:
                rewriter.clone(op, mapping)
        rewriter.erase_op(producer_store)
        rewriter.erase_op(exclusive_subtree(consumer))
        if not buffer.uses:
            rewriter.erase_op(buffer.owner)



def _variable_expr(value: Value, block: BlockOp, variable_exprs: list, op: Operation
                   ) -> AffineExpr:
    if value not in block.iteration_variables:
        raise NotInlinableError("an index of the inlined block is not an iteration variable", op)
    return variable_exprs[block.iteration_variables.index(value)]




def _refuse_predicate(block: BlockOp, what: str) -> None:
    """PredicateError for inlining a block with a predicate: its computation would run
    where the predicate said it does not."""
    if block.predicate_conditions:
        raise PredicateError(f'{what}: block "{block.block_name_str}" has a predicate (where)',
                             block)
