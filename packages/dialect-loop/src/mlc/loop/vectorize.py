"""Vectorized loops as vector ops (part of `loop-lower`).

A `loop.for vectorized` of extent V whose body is blocks (no inner loops) becomes one
pass over its V iterations at once: each value of the blocks' bodies is either
*uniform* (the same in every iteration: computed once, as a scalar) or *varying*
(a `vector<Vx...>`). A load whose indices do not depend on the loop variable is a
scalar `memref.load`; one whose last index grows by 1 with it (and no other index
depends on it) is a `vector.load`; elementwise arith and math ops on varying values
work on vectors, their uniform operands broadcast; a store of a varying value at
unit stride is a `vector.store`. A block's init runs under its scalar predicate.

A padded load is guarded by an `scf.if` on its indices being in bounds: one that
varies along the loop only when its last axis stays in bounds for every lane, so the
other axes decide for all lanes at once (a padding stage copying channel blocks).

Anything else — a strided or gathered access, a padded load whose lanes may leave its
last axis, a varying access to elements narrower than a byte (i1: LLVM packs a vector
of them into bits, where a memref holds a byte each), an op that is not elementwise, a
store that does not vary along the loop —
is not vectorized:
the loop stays a serial loop, and :func:`vectorize_loop` says why.
"""

from __future__ import annotations

from mlc.ir.core.affine_expr import AffineExpr, constant, dim
from mlc.ir.core.attributes import VectorType
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects import memref
from mlc.ir.opdef.traits import ConstantLike
from mlc.loop.indexing import access_over_bindings, value_range
from mlc.loop.ops import BlockOp, ForOp, InitOp, LoadOp, StoreOp

__all__ = ["vectorize_loop", "why_not_vectorizable"]


def _linear_in(expr: AffineExpr, position: int) -> tuple[int, AffineExpr] | None:
    """(coefficient of dimension `position`, `expr` with it set to 0), when `expr` is a
    sum whose only terms in that dimension are multiples of it."""
    variable = dim(position)
    coefficient = 0
    rest: AffineExpr = constant(0)
    stack = [expr]
    while stack:
        term = stack.pop()
        if term.kind.name == "ADD":
            stack.extend((term.lhs, term.rhs))
        elif not term.is_function_of_dim(position):
            rest = rest + term
        elif term == variable:
            coefficient += 1
        elif term.kind.name == "MUL" and term.lhs == variable and \
                term.rhs.kind.name == "CONSTANT":
            coefficient += term.rhs.value
        else:
            return None
    return coefficient, rest


class _Plan:
    """How each access of the loop's blocks is done: for each load/store, the index
    expressions over the block's bindings with the loop variable at 0, and whether it
    is scalar or a vector."""

    def __init__(self):
        self.varying_accesses: dict[Operation, bool] = {}
        self.start_indices: dict[Operation, tuple[list[Value], list[AffineExpr]]] = {}


def why_not_vectorizable(loop_op: ForOp) -> str | None:
    """Why the loop cannot become vector ops (None: it can)."""
    plan = _analyze(loop_op)
    return plan if isinstance(plan, str) else None


def _analyze(loop_op: ForOp) -> _Plan | str:
    plan = _Plan()
    variable = loop_op.induction_variable
    for op in loop_op.body_block.ops():
        if not isinstance(op, BlockOp):
            return f"its body holds a '{op.name}', not only blocks"
        varying_values: set[Value] = set()
        if variable in op.bindings and any(
                expr.is_function_of_dim(list(op.bindings).index(variable))
                for expr, _ in op.predicate_conditions):
            return ("the block's predicate depends on the vector lane (masked loads and "
                    "stores are not supported)")
        binding_map = op.binding_map.value
        moving = {v for v, e in zip(op.iteration_variables, binding_map.results)
                  if variable in op.bindings
                  and e.is_function_of_dim(list(op.bindings).index(variable))}
        for nested in op.walk_nested():
            if isinstance(nested, InitOp):
                continue
            if not isinstance(nested, (LoadOp, StoreOp)) and \
                    any(v in moving for v in nested.operands):
                return (f"'{nested.name}' uses an iteration variable that varies along the "
                        "loop as a value")
            if isinstance(nested, (LoadOp, StoreOp)):
                index_map, bindings = access_over_bindings(nested, op)
                if len(bindings) > len(op.bindings):
                    return "an index is data-dependent"
                position = bindings.index(variable) if variable in bindings else None
                exprs = list(index_map.results)
                coefficients = []
                starts = []
                for expr in exprs:
                    linear = _linear_in(expr, position) if position is not None else (0, expr)
                    if linear is None:
                        return "an index is not linear in the loop variable"
                    coefficients.append(linear[0])
                    starts.append(linear[1])
                varies = any(coefficients)
                if varies and (coefficients[-1] != 1 or any(coefficients[:-1])):
                    return (f"'{nested.name}' of {nested.memref.type} is not contiguous along "
                            "the loop (only the last index may grow, by 1)")
                if varies and getattr(nested.memref.type.element_type, "width", 8) < 8:
                    # LLVM packs a vector of i1 into bits in memory, where a memref of
                    # i1 holds a byte per element.
                    return (f"'{nested.name}' of {nested.memref.type} would access sub-byte "
                            "elements as a vector")
                if isinstance(nested, LoadOp) and varies and \
                        nested.attributes.get("padding") is not None and \
                        not _lanes_in_bounds(exprs[-1], bindings, variable, loop_op,
                                             nested.memref.type.shape[-1]):
                    return "a padded load's lanes may leave its buffer's last axis"
                if isinstance(nested, StoreOp) and not varies:
                    return "a store does not vary along the loop (its iterations overwrite it)"
                plan.varying_accesses[nested] = varies
                plan.start_indices[nested] = (bindings, starts)
                if isinstance(nested, LoadOp) and varies:
                    varying_values.add(nested.results[0])
            elif nested.regions:
                return f"a '{nested.name}' with regions"
            else:
                is_elementwise = nested.op_def is not None and any(
                    getattr(t, "name", "") == "ElementwiseMappable" for t in nested.op_def.traits)
                if any(v in varying_values for v in nested.operands):
                    if not is_elementwise:
                        return f"'{nested.name}' is not elementwise"
                    varying_values.update(nested.results)
                elif not (is_elementwise or nested.has_trait(ConstantLike)):
                    return f"'{nested.name}' is not elementwise"
    return plan


def _lanes_in_bounds(expr: AffineExpr, bindings: list[Value], variable: Value,
                     loop_op: ForOp, size: int) -> bool:
    """Whether the last index of a padded load stays within [0, size) for every lane
    (so only its other axes can be out of bounds, the same for all lanes)."""
    ranges = {}
    for d, value in enumerate(bindings):
        known = (0, loop_op.extent.value - 1) if value is variable else value_range(value)
        if known is None:
            return False
        ranges[dim(d)] = known
    low, high = expr.bound(ranges)
    return low is not None and high is not None and 0 <= low and high < size


def vectorize_loop(loop_op: ForOp, rewriter, remarks: list | None = None, flat=None) -> bool:
    """Replace the vectorized loop by vector ops (see the module docstring); False,
    with the reason appended to `remarks`, when it cannot. Accesses go through
    `flat` (loop-lower's :class:`~mlc.loop.lower.FlatAccess`)."""
    plan = _analyze(loop_op)
    if isinstance(plan, str):
        if remarks is not None:
            remarks.append((loop_op, f"loop-lower: the vectorized loop stays a serial loop: "
                                     f"{plan}"))
        return False
    from mlc.loop.lower import FlatAccess, IndexBuilder

    flat = flat or FlatAccess()
    width = loop_op.extent.value
    ints = IndexBuilder(rewriter, flat.cache)
    variable = loop_op.induction_variable
    zero = ints.constant(0)
    for block in list(loop_op.body_block.ops()):
        # Uniform values of the block's iteration variables are not needed: accesses
        # are computed from the bindings directly (with the loop variable at 0).
        with rewriter.insertion_point():
            if block.predicate_conditions:  # uniform across the lanes (checked when planned)
                guard = ints.predicate_guard(block.predicate_conditions, list(block.bindings))
                rewriter.set_insertion_point_before(guard.then_block.last_op)
            _emit_block(block, plan, rewriter, ints, width, variable, zero, flat)
    rewriter.erase_op(loop_op)
    return True


def _emit_block(block: BlockOp, plan: _Plan, rewriter, ints, width: int, variable: Value,
                zero: Value, flat) -> None:
    """The vector ops of one block of the vectorized loop, at the insertion point."""
    mapping: dict[Value, Value] = {}
    vectors: set[Value] = set()
    emitter = _Emitter(rewriter, ints, plan, mapping, vectors, width, variable, zero, flat)
    # An iteration variable used as a value (a concat's select on the index) is
    # uniform here (checked when planned): its value at the loop's first lane.
    at_start = [zero if v is variable else v for v in block.bindings]
    for n, value in enumerate(block.iteration_variables):
        if any(not isinstance(use.owner, (LoadOp, StoreOp)) for use in value.uses):
            mapping[value] = ints.expr(block.binding_map.value.results[n], at_start)
    init = block.init
    if init is not None:
        values = [ints.expr(e, [zero if v is variable else v for v in block.bindings])
                  for e in block.binding_map.value.results]
        guard = ints.init_guard(values, block.kinds)
        with rewriter.insertion_point():
            rewriter.set_insertion_point_before(guard.then_block.last_op)
            for op in init.regions[0].blocks[0].ops():
                emitter.emit(op)
    for op in block.body_block.ops():
        if op is not init:
            emitter.emit(op)


class _Emitter:
    def __init__(self, rewriter, ints, plan, mapping, vectors, width, variable, zero, flat):
        self.rewriter, self.ints, self.plan = rewriter, ints, plan
        self.mapping, self.vectors, self.width = mapping, vectors, width
        self.variable, self.zero, self.flat = variable, zero, flat

    def value(self, old: Value) -> Value:
        return self.mapping.get(old, old)

    def as_vector(self, old: Value) -> Value:
        new = self.value(old)
        if new in self.vectors:
            return new
        from mlc.ir.dialects.vector import BroadcastOp

        vector_type = VectorType((self.width,), new.type)
        return self.rewriter.insert(BroadcastOp.build(new, result_types=[vector_type])).results[0]

    def start(self, op) -> list[Value]:
        """The indices of the access's first lane, one per axis (for bounds checks)."""
        bindings, starts = self.plan.start_indices[op]
        operands = [self.zero if v is self.variable else v for v in bindings]
        return [self.ints.expr(e, operands) for e in starts]

    def flat_start(self, op) -> tuple[Value, list[Value]]:
        """The flat view of the access's buffer and the offset of its first lane."""
        bindings, starts = self.plan.start_indices[op]
        operands = [self.zero if v is self.variable else v for v in bindings]
        offset = self.flat.offset(self.rewriter, self.ints, starts, operands,
                                  op.memref.type.shape)
        return self.flat.view(self.rewriter, op.memref), offset

    def emit(self, op: Operation) -> None:
        from mlc.ir.dialects.vector.memory import LoadOp as VectorLoad
        from mlc.ir.dialects.vector.memory import StoreOp as VectorStore
        from mlc.loop.lower import padded_load

        rewriter = self.rewriter
        if isinstance(op, LoadOp):
            element = op.results[0].type
            padding = op.attributes.get("padding")
            varying = self.plan.varying_accesses[op]
            if padding is not None:
                # The last axis of a varying padded load is in bounds for every lane
                # (checked when planned): the other axes decide, for all lanes at once.
                indices = self.start(op)
                checks = indices[:-1] if varying else indices
                view, offset = self.flat_start(op)
                new_value = padded_load(rewriter, self.ints, view, offset, padding,
                                        self.width if varying else None, checks,
                                        op.memref.type.shape)
                if varying:
                    self.vectors.add(new_value)
            elif varying:
                view, offset = self.flat_start(op)
                new_value = rewriter.insert(VectorLoad.build(
                    view, offset, result_types=[VectorType((self.width,), element)])).results[0]
                self.vectors.add(new_value)
            else:
                view, offset = self.flat_start(op)
                new_value = rewriter.insert(memref.LoadOp.build(
                    view, offset, result_types=[element])).results[0]
            self.mapping[op.results[0]] = new_value
        elif isinstance(op, StoreOp):
            view, offset = self.flat_start(op)
            rewriter.insert(VectorStore.build(self.as_vector(op.value), view, offset))
        elif any(self.value(v) in self.vectors for v in op.operands):
            operands = [self.as_vector(v) for v in op.operands]
            types = [VectorType((self.width,), r.type) for r in op.results]
            new = rewriter.insert(type(op).create(operands, types, dict(op.attributes)))
            for old, result in zip(op.results, new.results):
                self.mapping[old] = result
                self.vectors.add(result)
        else:
            new = rewriter.clone(op, self.mapping)
            for old, result in zip(op.results, new.results):
                self.mapping[old] = result
