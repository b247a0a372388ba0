"""Reductions (TVM's reduction.cc): `decompose_reduction`, which moves a reduction's
init out of its loops into a block of its own, so the update runs without the "first
step" predicate; `rfactor`, which splits a reduction into partial reductions along a
loop (spatial, so they can be vector lanes) and a final reduction of the partials.
"""

from __future__ import annotations

from mlc.ir.core.affine_expr import AffineExpr, constant, dim
from mlc.ir.core.affine_map import AffineMap, AffineMapAttr
from mlc.ir.core.attributes import DenseArrayAttr, IndexType, MemRefType, StringAttr, i64
from mlc.ir.core.ir import Block, Region
from mlc.loop.ops import AllocBufferOp, BlockOp, ForOp, InitOp, LoadOp, StoreOp
from mlc.loop.schedule.errors import (
    DecomposeReductionError,
    PredicateError,
    ScheduleArgumentError,
)
from mlc.loop.schedule.scope import (
    enclosing_function,
    exclusive_subtree,
    linear_terms,
    loop_of,
    loops_around,
)
from mlc.loop.schedule.state import ScheduleState, drop_unused_bindings
from mlc.loop.schedule.trace import BlockRV, LoopRV, primitive

__all__ = ["Reductions"]


class Reductions(ScheduleState):
    """decompose_reduction, rfactor."""

    @primitive
    def rfactor(self, loop: LoopRV, factor_axis: int) -> BlockRV:
        """Factor the reduction the one block under `loop` computes along `loop` (TVM's
        rfactor): the block becomes `<name>_rf`, which accumulates a partial result per
        iteration of `loop` into a new buffer `<output>_rf` (the output's shape with the
        loop's extent inserted at `factor_axis`; -1: last), `loop` now binding a spatial
        variable of it; a new block `<name>` after its loops reduces the partials into the
        output. The loop must be the inner part of a reduce variable bound to
        `outer * F + loop` (a split by F), so each output element's sum is taken in F
        interleaved partial sums: floats are reassociated (what lets the partial sums
        be vector lanes), exact for max and min. Returns the rf block; the block's
        handle names the new final block."""
        loop_op = self._loop(loop)
        blocks = [op for op in loop_op.walk() if isinstance(op, BlockOp)]
        if len(blocks) != 1:
            raise DecomposeReductionError(
                f"rfactor needs exactly one block under the loop, found {len(blocks)}", loop_op)
        block_op = blocks[0]
        if block_op.predicate_conditions:
            raise PredicateError(f'rfactor: block "{block_op.block_name_str}" has a predicate '
                                 "(where): its partial results would not all be written",
                                 block_op)
        reduction = _reduction_of(block_op)
        if reduction is None:
            raise DecomposeReductionError(
                f'rfactor: block "{block_op.block_name_str}" is not a reduction storing '
                "combine(its output, a step) once", block_op)
        store, own_load, combine = reduction
        position, outer_expr, extent = _factored_variable(block_op, loop_op)
        output = store.memref
        rank = len(output.type.shape)
        axis = factor_axis + rank + 1 if factor_axis < 0 else factor_axis
        if not isinstance(factor_axis, int) or not 0 <= axis <= rank:
            raise ScheduleArgumentError(f"rfactor: factor_axis {factor_axis} is outside "
                                        f"[{-rank - 1}, {rank}]", loop_op)
        variable = block_op.iteration_variables[position]
        for op in block_op.walk_nested():
            if variable in op.operands and not isinstance(op, (LoadOp, StoreOp)):
                raise DecomposeReductionError("rfactor: the factored reduce variable is used "
                                              f"as a value by '{op.name}'", op)
        rewriter = self._rewriter
        name = block_op.block_name_str
        shape = list(output.type.shape)
        shape.insert(axis, loop_op.extent.value)
        rf_type = MemRefType(tuple(shape), output.type.element_type)
        func = enclosing_function(block_op)
        entry = func.regions[0].blocks[0]
        first = entry.first_op
        while isinstance(first, AllocBufferOp):
            first = first.next_op
        rewriter.set_insertion_point_before(first) if first is not None else \
            rewriter.set_insertion_point_to_end(entry)
        rf_buffer = rewriter.insert(AllocBufferOp.create((), [rf_type])).results[0]
        rf_buffer.name_hint = (output.name_hint or "buffer") + "_rf"
        # The final block first (from the block as it is): loops over the output's
        # spatial variables and the factor, reducing the partials into the output.
        subtree = exclusive_subtree(block_op)
        rewriter.set_insertion_point_after(subtree)
        final = self._rfactor_final(block_op, store, own_load, combine, rf_buffer, axis,
                                    loop_op.extent.value)
        # The block becomes the rf block: the factored variable's outer part stays a
        # reduce variable, the loop binds a new spatial one, and the output is the rf
        # buffer, indexed by it at `axis`.
        with rewriter.modify_op_in_place(block_op):
            partial = block_op.body_block.add_argument(IndexType(), "v" + (
                loop_op.induction_variable.name_hint or "f"))
            bindings = list(block_op.bindings)
            if loop_op.induction_variable not in bindings:
                bindings.append(loop_op.induction_variable)
            binding_map = block_op.binding_map.value
            results = list(binding_map.results)
            results[position] = outer_expr
            loop_dim = bindings.index(loop_op.induction_variable)
            results.append(dim(loop_dim))
            block_op.set_operands(bindings)
            block_op.attributes["binding_map"] = AffineMapAttr(
                AffineMap(len(bindings), 0, tuple(results)))
            block_op.attributes["iter_kinds"] = StringAttr(block_op.kinds + "S")
            extents = list(block_op.extents)
            extents[position] //= loop_op.extent.value
            extents.append(loop_op.extent.value)
            block_op.attributes["iter_extents"] = DenseArrayAttr(i64, tuple(extents))
            block_op.attributes["block_name"] = StringAttr(name + "_rf")
        for op in list(block_op.walk_nested()):
            if isinstance(op, (LoadOp, StoreOp)):
                _refactor_access(op, variable, partial, extent, output, rf_buffer, axis, rewriter)
        drop_unused_bindings(block_op)
        rf_handle = self._new(BlockRV, block_op)
        self._retarget(block_op, final)
        self._handles[rf_handle.name] = block_op
        return rf_handle

    def _rfactor_final(self, block_op: BlockOp, store: StoreOp, own_load: LoadOp, combine,
                       rf_buffer, axis: int, factor: int) -> BlockOp:
        """The loops and block reducing `rf_buffer` into the block's output."""
        rewriter = self._rewriter
        spatial = [n for n, kind in enumerate(block_op.kinds) if kind == "S"]
        loops = [ForOp.create_loop(block_op.extents[n]) for n in spatial] + \
            [ForOp.create_loop(factor)]
        for n, lp in enumerate(loops):
            lp.induction_variable.name_hint = f"ax{n}"
        rewriter.insert(loops[0])
        for outer, inner in zip(loops, loops[1:]):
            rewriter.set_insertion_point_to_end(outer.body_block)
            rewriter.insert(inner)
        final = BlockOp.create_block(block_op.block_name_str, "S" * len(spatial) + "R",
                                     [*(block_op.extents[n] for n in spatial), factor],
                                     [lp.induction_variable for lp in loops],
                                     AffineMap.identity(len(loops)))
        rewriter.set_insertion_point_to_end(loops[-1].body_block)
        rewriter.insert(final)
        variables = final.iteration_variables
        for new, n in zip(variables, spatial):
            new.name_hint = block_op.iteration_variables[n].name_hint
        variables[-1].name_hint = "vf"
        mapping = {block_op.iteration_variables[n]: variables[k] for k, n in enumerate(spatial)}
        body = final.body_block
        rewriter.set_insertion_point_to_end(body)
        init = rewriter.insert(InitOp.create((), (), {}, [Region([Block()])]))
        rewriter.set_insertion_point_to_end(init.regions[0].blocks[0])
        for op in block_op.init.regions[0].blocks[0].ops():
            clone = rewriter.clone(op, mapping)
            if isinstance(clone, StoreOp):
                _drop_unused_indices(clone)
        rewriter.set_insertion_point_to_end(body)
        accumulated = rewriter.clone(own_load, mapping)
        _drop_unused_indices(accumulated)
        out_map = accumulated.index_map
        operands = list(accumulated.indices)
        if variables[-1] not in operands:
            operands.append(variables[-1])
        results = list(out_map.results)
        results.insert(axis, dim(operands.index(variables[-1])))
        part = rewriter.insert(LoadOp.create(
            [rf_buffer, *operands], [own_load.results[0].type],
            {"map": AffineMapAttr(AffineMap(len(operands), 0, tuple(results)))}))
        combined = rewriter.insert(type(combine).create(
            [accumulated.results[0], part.results[0]], [r.type for r in combine.results],
            dict(combine.attributes)))
        written = rewriter.clone(store, {**mapping, store.value: combined.results[0]})
        _drop_unused_indices(written)
        return final

    @primitive
    def decompose_reduction(self, block: BlockRV, loop: LoopRV) -> BlockRV:
        """Move a reduction block's init into its own block `<name>_init`, placed just
        before `loop`, under copies (`<loop>_init`) of the loops from `loop` down that
        bind the block's spatial variables. The block becomes `<name>_update`."""
        block_op, loop_op = self._block(block), self._loop(loop)
        init = block_op.init
        if init is None:
            raise DecomposeReductionError(
                f'block "{block_op.block_name_str}" has no init to decompose', block_op)
        if not loop_op.is_ancestor_of(block_op):
            raise DecomposeReductionError("decompose_reduction: the loop is not around the block",
                                          loop_op)
        loops = loops_around(block_op)
        below = loops[loops.index(loop_op):]
        above = loops[:loops.index(loop_op)]
        binding_map = block_op.binding_map.value
        operand_loops = [loop_of(v) for v in block_op.bindings]
        for position, expr in enumerate(binding_map.results):
            if block_op.kinds[position] != "R":
                continue
            for d, owner in enumerate(operand_loops):
                if expr.is_function_of_dim(d) and owner in above:
                    raise DecomposeReductionError(
                        "decompose_reduction: the loop must be above every loop bound to a "
                        f"reduce variable, and reduce variable #{position} uses a loop above it",
                        loop_op)
        spatial = [n for n, kind in enumerate(block_op.kinds) if kind == "S"]
        used = {d for n in spatial for d in range(binding_map.num_dims)
                if binding_map.results[n].is_function_of_dim(d)}
        copied = [lp for lp in below if any(operand_loops[d] is lp for d in used)]
        rewriter = self._rewriter
        rewriter.set_insertion_point_before(loop_op)
        container = None
        copies: dict[ForOp, ForOp] = {}
        for lp in copied:
            new_loop = ForOp.create_loop(lp.extent.value, lp.loop_kind, lp.annotations)
            new_loop.induction_variable.name_hint = (lp.induction_variable.name_hint or "i") + \
                "_init"
            if container is not None:
                rewriter.set_insertion_point_to_end(container.body_block)
            rewriter.insert(new_loop)
            container, copies[lp] = new_loop, new_loop
        operands = [copies[owner].induction_variable if owner in copies else value
                    for owner, value in zip(operand_loops, block_op.bindings)]
        init_map = AffineMap(binding_map.num_dims, 0,
                             tuple(binding_map.results[n] for n in spatial))
        name = block_op.block_name_str
        init_block = BlockOp.create_block(name + "_init", "S" * len(spatial),
                                          [block_op.extents[n] for n in spatial], operands,
                                          init_map)
        init_block.rebind(operands, init_map,
                          _init_conditions(block_op, operand_loops, set(copied) | set(above)))
        for new_arg, n in zip(init_block.iteration_variables, spatial):
            new_arg.name_hint = block_op.iteration_variables[n].name_hint
        if container is not None:
            rewriter.set_insertion_point_to_end(container.body_block)
        else:
            rewriter.set_insertion_point_before(loop_op)
        rewriter.insert(init_block)
        mapping = {block_op.iteration_variables[n]: init_block.iteration_variables[k]
                   for k, n in enumerate(spatial)}
        rewriter.set_insertion_point_to_end(init_block.body_block)
        for op in list(init.regions[0].blocks[0].ops()):
            rewriter.clone(op, mapping)
        # An init's access may list a reduce variable among its index operands without
        # using it (a map over every iteration variable): the init block has none.
        for op in init_block.walk_nested():
            if isinstance(op, (LoadOp, StoreOp)):
                _drop_unused_indices(op)
        drop_unused_bindings(init_block)
        rewriter.erase_op(init)
        with rewriter.modify_op_in_place(block_op):
            block_op.attributes["block_name"] = StringAttr(name + "_update")
        return self._new(BlockRV, init_block)


def _init_conditions(block: BlockOp, operand_loops: list, spatial_loops: set
                     ) -> list[tuple[AffineExpr, int]]:
    """The part of a reduction block's predicate its decomposed init keeps: the
    conditions on the loops of spatial variables (those on reduction loops hold at the
    first reduction step, where the init ran); a condition over both kinds is refused."""
    kept = []
    for expr, bound in block.predicate_conditions:
        owners = [owner for d, owner in enumerate(operand_loops) if expr.is_function_of_dim(d)]
        spatial = [owner in spatial_loops for owner in owners]
        if all(spatial):
            kept.append((expr, bound))
        elif any(spatial):
            raise PredicateError(
                f'decompose_reduction: a condition of block "{block.block_name_str}"\'s '
                "predicate uses both spatial and reduction loops", block)
    return kept


def _drop_unused_indices(access: LoadOp | StoreOp) -> None:
    """Remove the index operands of `access` its map does not use."""
    index_map = access.index_map
    used = [d for d in range(index_map.num_dims)
            if any(e.is_function_of_dim(d) for e in index_map.results)]
    if len(used) == index_map.num_dims:
        return
    replacement = [constant(0)] * index_map.num_dims
    for k, d in enumerate(used):
        replacement[d] = dim(k)
    indices = list(access.indices)
    fixed = list(access.operands)[:len(access.operands) - len(indices)]
    access.set_operands([*fixed, *(indices[d] for d in used)])
    access.attributes["map"] = AffineMapAttr(AffineMap(len(used), 0, tuple(
        e.replace_dims_and_symbols(replacement, []) for e in index_map.results)))


def _reduction_of(block: BlockOp):
    """(store, the load of its own output, the combining op) of a reduction block that
    stores `combine(load(output), step)` once at its top level, else None."""
    if block.init is None:
        return None
    stores = [op for op in block.body_block.ops() if isinstance(op, StoreOp)]
    if len(stores) != 1:
        return None
    store = stores[0]
    combine = store.value.defining_op
    if combine is None or len(combine.operands) != 2 or combine.parent is not block.body_block:
        return None
    for operand in combine.operands:
        load = operand.defining_op
        if isinstance(load, LoadOp) and load.memref is store.memref and \
                load.index_exprs_over(block) == store.index_exprs_over(block):
            return store, load, combine
    return None


def _factored_variable(block: BlockOp, loop_op: ForOp):
    """(position, its binding without the loop, extent of the loop) of the one reduce
    variable of `block` bound to `outer * F + loop`, F the loop's extent."""
    variable = loop_op.induction_variable
    if variable not in block.bindings:
        raise DecomposeReductionError("rfactor: the loop binds no variable of the block",
                                      loop_op)
    loop_dim = list(block.bindings).index(variable)
    binding_map = block.binding_map.value
    factor = loop_op.extent.value
    users = [n for n, e in enumerate(binding_map.results) if e.is_function_of_dim(loop_dim)]
    if len(users) != 1 or block.kinds[users[0]] != "R":
        raise DecomposeReductionError("rfactor: the loop must bind exactly one reduce "
                                      "variable of the block", loop_op)
    position = users[0]
    terms = linear_terms(binding_map.results[position])
    if terms is None or terms[0].get(loop_dim) != 1 or terms[1] != 0 or \
            any(d != loop_dim and c % factor for d, c in terms[0].items()) or \
            block.extents[position] % factor:
        raise DecomposeReductionError(
            f"rfactor: reduce variable #{position} must be bound to outer * {factor} + the "
            "loop (split the reduction loop by the factor first)", loop_op)
    outer = sum((dim(d) * (c // factor) for d, c in terms[0].items() if d != loop_dim),
                constant(0))
    return position, outer, factor


def _refactor_access(op, variable, partial, factor: int, output, rf_buffer, axis: int,
                     rewriter) -> None:
    """Rewrite one access of the rf block: the factored variable now counts groups of
    `factor` (its old value is `variable * factor + partial`), and the output is the rf
    buffer indexed by `partial` at `axis`."""
    indices = list(op.indices)
    index_map = op.index_map
    results = list(index_map.results)
    if variable in indices:
        indices.append(partial)
        old = indices.index(variable)
        replacement = [dim(d) for d in range(len(indices) - 1)]
        replacement[old] = dim(old) * factor + dim(len(indices) - 1)
        results = [e.replace_dims(replacement) for e in results]
    if op.memref is output:
        if partial not in indices:
            indices.append(partial)
        results.insert(axis, dim(indices.index(partial)))
    fixed = list(op.operands)[:len(op.operands) - len(op.indices)]
    if op.memref is output:
        fixed[-1] = rf_buffer
    with rewriter.modify_op_in_place(op):
        op.set_operands([*fixed, *indices])
        op.attributes["map"] = AffineMapAttr(AffineMap(len(indices), 0, tuple(results)))
    _drop_unused_indices(op)
