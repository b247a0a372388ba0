"""Loop transformations: `split`, `fuse`, `reorder` (TVM's loop_transformation.cc).

Each rebuilds a chain of directly nested loops with new headers and rebinds the blocks
under it: a block's bindings (and predicate) are affine expressions of the loop
variables, so a split loop `i` becomes `i_0 * 4 + i_1` in them and a fused one
`f floordiv 8` and `f mod 8`. A split whose factors overshoot the extent (30 as 8 x 4)
also gives every block under the loop the predicate `i_0 * 4 + i_1 < 30` (TVM's
`T.where`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from mlc.ir.core.affine_expr import constant, dim
from mlc.loop.ops import ForOp
from mlc.loop.schedule.errors import InvalidFactorsError, LoopStructureError, ScheduleArgumentError
from mlc.loop.schedule.scope import blocks_in, loops_around, only_child
from mlc.loop.schedule.state import LoopHeader, ScheduleState
from mlc.loop.schedule.trace import LoopRV, primitive

__all__ = ["LoopTransformations"]


class LoopTransformations(ScheduleState):
    """split, fuse, reorder."""


    @primitive
    def split(self, loop: LoopRV, factors: Sequence[int | None]) -> list[LoopRV]:
        """Split a loop into nested loops of the given extents, outermost first; one
        factor may be None (inferred: the smallest that covers the extent). When the
        product exceeds the loop's extent, the blocks under it run only where the
        split variable is below the extent (a predicate); a product below the extent
        is refused."""
        loop_op = self._loop(loop)
        extent = loop_op.extent.value
        factors = list(factors)
        if len(factors) < 2:
            raise InvalidFactorsError("split needs at least two factors", loop_op)
        unknown = [n for n, f in enumerate(factors) if f is None]
        if len(unknown) > 1:
            raise InvalidFactorsError("at most one split factor may be None", loop_op)
        if any(f is not None and (not isinstance(f, int) or f <= 0) for f in factors):
            raise InvalidFactorsError(f"split factors must be positive integers, got {factors}",
                                      loop_op)
        known = math.prod(f for f in factors if f is not None)
        if unknown:
            factors[unknown[0]] = -(-extent // known)
        if math.prod(factors) < extent:
            raise InvalidFactorsError(f"the split factors' product {math.prod(factors)} is less "
                                      f"than the loop's extent {extent}", loop_op)
        self._require_only_bindings_use(loop_op)
        blocks = blocks_in(loop_op)
        name = loop_op.induction_variable.name_hint or "i"
        headers = [LoopHeader(f, "serial", {}, f"{name}_{n}") for n, f in enumerate(factors)]
        headers[0].kind, headers[0].annotations = loop_op.loop_kind, loop_op.annotations
        new_loops = self._rebuild_chain([loop_op], headers)
        strides = [math.prod(factors[n + 1:]) for n in range(len(factors))]
        value = sum((dim(n) * s for n, s in enumerate(strides)), constant(0))
        new_variables = [lp.induction_variable for lp in new_loops]
        if math.prod(factors) > extent:
            for block in blocks:
                self._add_condition(block, new_variables, value, extent)
        self._substitute(loop_op.induction_variable, new_variables, value)
        self._erase_chain(loop_op)
        return [self._new(LoopRV, lp) for lp in new_loops]

    @primitive
    def fuse(self, *loops: LoopRV) -> LoopRV:
        """Fuse consecutive nested loops (each the only child of the one above) into
        one loop over the product of their extents."""
        ops = [self._loop(lp) for lp in loops]
        if len(ops) < 2:
            raise ScheduleArgumentError("fuse needs at least two loops", ops[0] if ops else None)
        for outer, inner in zip(ops, ops[1:]):
            if only_child(outer) is not inner:
                raise LoopStructureError("the loops to fuse must be nested directly, each the "
                                         "only child of the one before", inner)
        for op in ops:
            self._require_only_bindings_use(op)
        extents = [op.extent.value for op in ops]
        kinds = {op.loop_kind for op in ops}
        name = "_".join((op.induction_variable.name_hint or "i") for op in ops) + "_fused"
        header = LoopHeader(math.prod(extents), kinds.pop() if len(kinds) == 1 else "serial", {},
                         name)
        (fused,) = self._rebuild_chain(ops, [header])
        for n, op in enumerate(ops):
            stride = math.prod(extents[n + 1:])
            value = dim(0).floordiv(stride) if stride > 1 else dim(0)
            if n:
                value = value.mod(extents[n])
            self._substitute(op.induction_variable, [fused.induction_variable], value)
        self._erase_chain(ops[0])
        return self._new(LoopRV, fused)

    @primitive
    def reorder(self, *loops: LoopRV) -> None:
        """Put the loops in the given order (outermost first). They must lie on one
        chain of directly nested loops; loops of the chain not listed keep their
        places."""
        ops = [self._loop(lp) for lp in loops]
        if len(set(map(id, ops))) != len(ops):
            raise ScheduleArgumentError("reorder got the same loop twice", ops[0])
        depth = {id(op): len(loops_around(op)) for op in ops}
        top = min(ops, key=lambda op: depth[id(op)])
        bottom = max(ops, key=lambda op: depth[id(op)])
        stray = next((op for op in ops if not top.is_ancestor_of(op)), None)
        if stray is not None:
            raise LoopStructureError("the loops to reorder are not on one chain of nested loops",
                                     stray)
        chain = [top]
        while chain[-1] is not bottom:
            child = only_child(chain[-1])
            if not isinstance(child, ForOp):
                raise LoopStructureError("the loops to reorder must be directly nested, each the "
                                         "only child of the one above (another op sits between "
                                         "them)", chain[-1])
            chain.append(child)
        if any(op not in chain for op in ops):
            stray = next(op for op in ops if op not in chain)
            raise LoopStructureError("the loops to reorder are not on one chain of nested loops",
                                     stray)
        order = iter(ops)
        permuted = [next(order) if op in ops else op for op in chain]
        headers = [LoopHeader.of(op) for op in permuted]
        new_loops = self._rebuild_chain(chain, headers)
        for old, new in zip(permuted, new_loops):
            self._rewriter.replace_all_uses_with(old.induction_variable, new.induction_variable)
            self._retarget(old, new)
        self._erase_chain(chain[0])

