"""The interpreter's fast path for the nests a schedule leaves imperfect: outer spatial
loops holding several nests (a tile's producer computed at it, its reduction's init and
update, its epilogue), run in lock-step over the outer loops' iterations.

    loop.for parallel %oc_0 = 0 to 32 {          // the band: each iteration a lane
      loop.for parallel %y_0 = 0 to 7 {
        loop.for ... { loop.block "pad_temp" ... }          // nest 1, on every lane
        loop.for ... { loop.block "conv2d_nchw_init" ... }  // nest 2, on every lane
        loop.for ... { loop.block "conv2d_nchw_update" ... }
        loop.for ... { loop.block "T_relu" ... }
      }
    }

Each nest then runs once, in bulk (:mod:`mlc.loop.block_vectorized`), with the band's
loops as more spatial loops, instead of once per iteration of the band. That computes
what the scalar path computes when no iteration sees what another one wrote, which is
decided before anything runs, buffer by buffer, for every buffer a block under the band
writes:

- *private to each iteration*: every access of it under the band addresses, for each
  band loop, one axis as `c * loop + rest` with `rest` in [0, c) and free of the band's
  loops, the same axis and `c` in every access: iterations touch disjoint elements;
- *a recomputed producer* (a compute_at'd padding): one block writes it, spatial only,
  at exactly its iteration variables, reading only buffers nothing under the band
  writes, so every iteration writing an element writes the same value; and each
  reader reads, per axis, within what the producer writes in the same iteration (a
  schedule that reads outside what it computed still reads uninitialised storage, as
  on the scalar path).

Band loops must feed only spatial iteration variables, and the producer's nest must come
before its readers'. Buffers are told apart by their SSA values, so a band whose
buffers share memory (views of one planned storage) runs on the scalar path. A nest the
bulk path refuses while running (an op it does not take) restores the buffers the band
writes and the band runs on the scalar path.
"""

from __future__ import annotations

import numpy as np

from mlc.ir.core.affine_expr import AffineExpr, dim
from mlc.ir.core.ir import Operation, Value
from mlc.loop.block_vectorized import (
    NestPlan,
    NotVectorizable,
    _terms,
    nest_plan,
    run_nest_vectorized,
)
from mlc.loop.ops import ForOp, LoadOp, StoreOp

__all__ = ["BandPlan", "band_plan", "run_band"]


class BandPlan:
    """The band's loops, the plan of each nest under it (the band's loops first, as
    spatial loops) and the buffers the nests write."""

    def __init__(self, band: list[Operation], nests: list[NestPlan], written: set[Value],
                 producers: set[Operation]):
        self.band, self.nests, self.written, self.producers = band, nests, written, producers
        self.accessed = list(dict.fromkeys(
            op.memref for plan in nests for op in plan.block.walk_nested()
            if isinstance(op, (LoadOp, StoreOp))))


def band_plan(interp, loop: Operation) -> BandPlan | None:
    """The plan to run `loop` as a band (see the module docstring), or None; made once
    per loop and interpreter."""
    plans = interp.state.setdefault("loop.band_plans", {})
    if loop not in plans:
        plans[loop] = _plan(loop)
    return plans[loop]


def _plan(loop: Operation) -> BandPlan | None:
    band = [loop]
    while True:
        body = list(band[-1].body_block.ops())
        if len(body) == 1 and isinstance(body[0], ForOp):
            band.append(body[0])
            continue
        break
    if len(body) < 2 or any(not isinstance(op, ForOp) for op in body):
        return None
    band_vars = {b.induction_variable for b in band}
    nests = []
    for inner in body:
        plan = nest_plan(inner, prefix=band)
        if plan is None or any(band[i] is not plan.loops[i] for i in range(len(band))) or \
                any(i < len(band) and i not in plan.spatial for i in range(len(band))):
            return None  # a band loop feeding a reduce variable, or a nest it cannot take
        nests.append(plan)
    blocks = [plan.block for plan in nests]
    written = {op.memref for b in blocks for op in b.walk_nested() if isinstance(op, StoreOp)}
    producers = set()
    for buffer in written:
        accesses = [(b, op) for b in blocks for op in b.walk_nested()
                    if isinstance(op, (LoadOp, StoreOp)) and op.memref is buffer]
        if _private(accesses, band, band_vars):
            continue
        producer = _producer(accesses, blocks, written, band_vars)
        if producer is None:
            return None
        producers.add(producer)
    return BandPlan(band, nests, written, producers)


def _over_loops(access: Operation, block: Operation) -> list[AffineExpr] | None:
    """The access's indices as expressions of the block's bindings (dims by position)."""
    exprs = access.index_exprs_over(block)
    if any(e is None for e in exprs):
        return None
    results = block.binding_map.value.results
    return [e.replace_dims(list(results)) for e in exprs]


def _ranges(block: Operation, band_vars: set[Value]) -> dict | None:
    """The ranges of the block's bindings that are loops of its nest; None if one is
    neither such a loop nor a band loop."""
    ranges = {}
    for position, value in enumerate(block.bindings):
        if value in band_vars:
            continue
        owner = getattr(value, "block", None)
        loop = owner.parent_op if owner is not None else None
        if loop is None or not isinstance(loop, ForOp) or loop.induction_variable is not value:
            return None
        ranges[dim(position)] = (0, loop.extent.value - 1)
    return ranges


def _split(expr: AffineExpr, positions: set[int]) -> tuple[dict[int, int], AffineExpr] | None:
    """`expr` as ({band position: coefficient}, the rest), or None when a band loop
    appears other than as a multiple of itself."""
    coefficients: dict[int, int] = {}
    rest = None
    for term in _terms(expr):
        uses = [p for p in positions if term.is_function_of_dim(p)]
        if not uses:
            rest = term if rest is None else rest + term
            continue
        kind = term.kind.name
        if len(uses) == 1 and kind == "DIM":
            coefficients[uses[0]] = coefficients.get(uses[0], 0) + 1
        elif len(uses) == 1 and kind == "MUL" and term.lhs.kind.name == "DIM" and \
                term.rhs.kind.name == "CONSTANT":
            coefficients[uses[0]] = coefficients.get(uses[0], 0) + term.rhs.value
        else:
            return None
    from mlc.ir.core.affine_expr import constant

    return coefficients, rest if rest is not None else constant(0)


def _private(accesses, band: list[Operation], band_vars: set[Value]) -> bool:
    """Whether every band iteration touches elements of the buffer no other touches."""
    owners: dict[Value, tuple[int, int]] = {}  # band loop -> (axis, coefficient)
    for block, access in accesses:
        exprs, ranges = _over_loops(access, block), _ranges(block, band_vars)
        if exprs is None or ranges is None:
            return False
        positions = {p: v for p, v in enumerate(block.bindings) if v in band_vars}
        for loop in band:
            variable = loop.induction_variable
            if loop.extent.value == 1:
                continue
            found = None
            for axis, expr in enumerate(exprs):
                split = _split(expr, set(positions))
                if split is None:
                    return False
                coefficients, rest = split
                mine = [p for p, v in positions.items() if v is variable and p in coefficients]
                if len(mine) != 1 or len(coefficients) != 1:
                    continue
                c = coefficients[mine[0]]
                low, high = rest.bound(ranges)
                if c >= 1 and low is not None and high is not None and 0 <= low and high < c:
                    found = (axis, c)
                    break
            if found is None or owners.setdefault(variable, found) != found:
                return False
    return True


def _producer(accesses, blocks: list[Operation], written: set[Value],
              band_vars: set[Value]) -> Operation | None:
    """The block recomputing the buffer, if the buffer is one (see the module
    docstring), else None."""
    writers = {b for b, op in accesses if isinstance(op, StoreOp)}
    if len(writers) != 1:
        return None
    (producer,) = writers
    if "R" in producer.kinds or producer.init is not None:
        return None
    stores = [op for b, op in accesses if isinstance(op, StoreOp)]
    iteration = list(producer.iteration_variables)
    if len(stores) != 1 or [e for e in stores[0].index_exprs_over(producer)] != \
            [dim(i) for i in range(len(iteration))]:
        return None
    for op in producer.walk_nested():
        if isinstance(op, LoadOp) and op.memref in written:
            return None
    stored = _over_loops(stores[0], producer)
    written_ranges = _per_axis(stored, producer, band_vars)
    if written_ranges is None or not all(_contiguous(e, producer, band_vars) for e in stored):
        return None
    for block, access in accesses:
        if not isinstance(access, LoadOp) or block is producer:
            continue
        if "padding" in access.attributes or blocks.index(block) < blocks.index(producer):
            return None  # a nest before the producer reads what an earlier iteration wrote
        read_ranges = _per_axis(_over_loops(access, block), block, band_vars)
        if read_ranges is None:
            return None
        for (read_band, low, high), (write_band, w_low, w_high) in zip(read_ranges,
                                                                        written_ranges):
            if read_band != write_band or low < w_low or high > w_high:
                return None
    return producer


def _contiguous(expr: AffineExpr, block: Operation, band_vars: set[Value]) -> bool:
    """Whether the part of `expr` free of band loops is a constant plus at most one of
    the nest's loops with coefficient 1: it then takes every value of its range."""
    positions = {p for p, v in enumerate(block.bindings) if v in band_vars}
    loops = 0
    for term in _terms(expr):
        if any(term.is_function_of_dim(p) for p in positions):
            continue
        kind = term.kind.name
        if kind == "DIM":
            loops += 1
        elif kind != "CONSTANT":
            return False
    return loops <= 1


def _per_axis(exprs, block: Operation, band_vars: set[Value]):
    """Per axis: (the band loops' coefficients, by loop, and the rest's inclusive range
    over the nest's own loops); None when unknown. A range covers every element in it
    only when the rest is contiguous (`_contiguous`), checked for the writer."""
    ranges = _ranges(block, band_vars)
    if exprs is None or ranges is None:
        return None
    positions = {p: v for p, v in enumerate(block.bindings) if v in band_vars}
    result = []
    for expr in exprs:
        split = _split(expr, set(positions))
        if split is None:
            return None
        coefficients, rest = split
        low, high = rest.bound(ranges)
        if low is None or high is None:
            return None
        by_loop = tuple(sorted((id(positions[p]), c) for p, c in coefficients.items() if c))
        result.append((by_loop, low, high))
    return result


def run_band(interp, plan: BandPlan) -> bool:
    """Run the band of `plan` in `interp`, each nest over every iteration at once; False
    (nothing changed) if a nest could not be run so."""
    env = interp.env
    # Buffers are told apart by their values: two that share storage (views of one
    # planned buffer) might be one buffer, which the plan did not see.
    arrays = {v: env.get(v) for v in plan.accessed}
    if not all(isinstance(a, np.ndarray) for a in arrays.values()) or any(
            np.may_share_memory(arrays[w], a) for w in plan.written
            for v, a in arrays.items() if v is not w):
        return False
    saved = {v: np.array(env[v]) for v in plan.written}
    try:
        for nest in plan.nests:
            run_nest_vectorized(interp, nest, nest.block in plan.producers)
    except NotVectorizable:
        for value, copy in saved.items():
            env[value][...] = copy
        return False
    return True
