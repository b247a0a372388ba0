"""Reductions: `decompose_reduction` (TVM's reduction.cc), which moves a reduction's
init out of its loops into a block of its own, so the update runs without the
"first step" predicate.
"""

from __future__ import annotations

from mlc.ir.core.affine_expr import constant, dim
from mlc.ir.core.affine_map import AffineMap, AffineMapAttr
from mlc.ir.core.attributes import StringAttr
from mlc.loop.ops import BlockOp, ForOp, LoadOp, StoreOp
from mlc.loop.schedule.errors import DecomposeReductionError
from mlc.loop.schedule.scope import loop_of, loops_around
from mlc.loop.schedule.state import ScheduleState, drop_unused_bindings
from mlc.loop.schedule.trace import BlockRV, LoopRV, primitive

__all__ = ["Reductions"]


class Reductions(ScheduleState):
    """decompose_reduction."""


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


