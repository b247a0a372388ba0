"""The interpreter's fast path for loop nests: a block run over its iteration domain
with numpy instead of one iteration at a time.

Where a `loop.for` holds, through loops holding nothing else, exactly one `loop.block`
(the nest is the block's own: no other block is interleaved with it), the nest runs
in bulk. Its loops are split by what they bind: the loops feeding only spatial
iteration variables are walked all at once, as arrays (the spatial points of a block
write distinct elements, TensorIR's contract, checked here on the stores' indices);
the others (reduce variables, or none) are walked one point at a time in their nesting
order, so every element sees its reduction steps in the order the loops give them. At
each such step the block's body runs on arrays: loads gather (a padded one masked),
arith and math ops act elementwise in the element type (math functions in float64,
rounded once, as the scalar interpreter computes them), stores scatter. `loop.init`
runs at the steps where every reduce variable is 0. A block's predicate (`where`) keeps
the spatial points where its conditions on spatial loops hold, and skips the steps where
its conditions on the other loops do not.

A nest this cannot take — another op beside the block, a loop feeding both kinds of
variable, a predicate condition over both kinds of loop, an index loaded from data, an op outside the list below, fast-math flags
that make NaN undefined, a type numpy does not hold (bf16, odd widths), a store whose
index depends on a reduce variable — runs on the scalar path, unchanged: the decision
is made before anything is executed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np

from mlc.ir.core.attributes import FloatType, IndexType, IntegerType, Type
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects import arith as A
from mlc.ir.dialects import math as M
from mlc.ir.dialects.arith import casts as C
from mlc.ir.dialects.arith.semantics import cmpf_predicate, cmpi_predicate, overflow_flags
from mlc.ir.interpreter import buffer_dtype, flag_names, float_of_bits
from mlc.loop.ops import BlockOp, ForOp, InitOp, LoadOp, StoreOp

__all__ = ["NestPlan", "NotVectorizable", "nest_plan", "run_nest_vectorized",
           "vectorized_plan"]


def _float_dtype(type_: Type) -> np.dtype | None:
    if isinstance(type_, FloatType) and type_.name in ("f16", "f32", "f64"):
        return np.dtype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[type_.name])
    return None


def _scalar_dtype(type_: Type) -> np.dtype | None:
    """The numpy dtype values of `type_` are computed in, or None (not supported)."""
    if isinstance(type_, IndexType):
        return np.dtype(np.int64)
    if isinstance(type_, IntegerType):
        if type_.width == 1:
            return np.dtype(np.bool_)
        if type_.width in (8, 16, 32, 64) and type_.signedness == "signless":
            return np.dtype(f"int{type_.width}")
        return None
    return _float_dtype(type_)


def _wide(fn: Callable) -> Callable:
    """A math function computed in float64 and rounded once to the result's type."""
    def apply(x, dtype):
        with np.errstate(all="ignore"):
            return fn(np.asarray(x, np.float64)).astype(dtype)
    return apply


_MATH = {M.ExpOp: _wide(np.exp), M.LogOp: _wide(np.log), M.TanhOp: _wide(np.tanh),
         M.SqrtOp: _wide(np.sqrt), M.AbsFOp: _wide(np.abs),
         M.SinOp: _wide(np.sin), M.CosOp: _wide(np.cos), M.Exp2Op: _wide(np.exp2),
         M.Log2Op: _wide(np.log2), M.FloorOp: _wide(np.floor),
         M.CeilOp: _wide(np.ceil), M.RoundEvenOp: _wide(np.rint)}

_FLOAT_BINARY = {A.AddFOp: np.add, A.SubFOp: np.subtract, A.MulFOp: np.multiply,
                 A.DivFOp: np.divide, A.MaximumFOp: np.maximum,
                 A.MinimumFOp: np.minimum, A.MaxNumFOp: np.fmax,
                 A.MinNumFOp: np.fmin}
_INT_BINARY = {A.AddIOp: np.add, A.SubIOp: np.subtract, A.MulIOp: np.multiply,
               A.AndIOp: np.bitwise_and, A.OrIOp: np.bitwise_or,
               A.XOrIOp: np.bitwise_xor}
_CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
        "gt": np.greater, "ge": np.greater_equal}
_CMPF_ORDERED = {"oeq": "eq", "one": "ne", "olt": "lt", "ole": "le", "ogt": "gt", "oge": "ge"}
_CMPF_UNORDERED = {"ueq": "eq", "une": "ne", "ult": "lt", "ule": "le", "ugt": "gt", "uge": "ge"}
_CMPI = {"eq": "eq", "ne": "ne", "slt": "lt", "sle": "le", "sgt": "gt", "sge": "ge"}
_CASTS = frozenset((C.ExtFOp, C.TruncFOp, C.SIToFPOp, C.IndexCastOp))
_SUPPORTED = {*_MATH, *_FLOAT_BINARY, *_INT_BINARY, *_CASTS, A.ConstantOp, A.NegFOp,
              A.CmpFOp, A.CmpIOp, A.SelectOp, LoadOp, StoreOp,
              InitOp}
_SAFE_FASTMATH = frozenset({"contract", "none"})


class NestPlan:
    """How a nest runs in bulk: its loops, its block, which loops are walked as arrays
    (spatial) and which one point at a time (the others)."""

    def __init__(self, loops: list[Operation], block: Operation, spatial: list[int],
                 ordered: list[int]):
        self.loops, self.block = loops, block
        self.spatial, self.ordered = spatial, ordered


def vectorized_plan(interp, loop: Operation) -> NestPlan | None:
    """The plan to run `loop`'s nest in bulk, or None (see the module docstring);
    made once per loop and interpreter."""
    plans = interp.state.setdefault("loop.vectorized_plans", {})
    if loop not in plans:
        plans[loop] = nest_plan(loop)
    return plans[loop]


def nest_plan(loop: Operation, prefix: Sequence[Operation] = ()) -> NestPlan | None:
    """The plan of `loop`'s nest, or None; with `prefix`, loops around it (a band of
    :mod:`mlc.loop.block_band`) that become the nest's first loops."""
    loops = [*prefix, loop]
    while True:
        body = list(loops[-1].body_block.ops())
        if len(body) != 1:
            return None
        if isinstance(body[0], ForOp):
            loops.append(body[0])
        elif isinstance(body[0], BlockOp):
            block = body[0]
            break
        else:
            return None
    variables = {loop.induction_variable: i for i, loop in enumerate(loops)}
    bindings = list(block.bindings)
    binding_map = block.binding_map.value
    feeds: dict[int, set[str]] = {i: set() for i in range(len(loops))}
    for expr, kind in zip(binding_map.results, block.kinds):
        for d, value in enumerate(bindings):
            if value in variables and expr.is_function_of_dim(d):
                feeds[variables[value]].add(kind)
    if any(len(kinds) > 1 for kinds in feeds.values()):
        return None
    # A band loop the block does not use repeats it on each of its iterations: lanes too.
    spatial = [i for i in range(len(loops))
               if feeds[i] == {"S"} or (i < len(prefix) and not feeds[i])]
    ordered = [i for i in range(len(loops)) if i not in spatial]
    spatial_dims = {d for d, value in enumerate(bindings)
                    if value in variables and variables[value] in spatial}
    for expr, _ in block.predicate_conditions:
        used = {d for d in range(len(bindings)) if expr.is_function_of_dim(d)}
        if used & spatial_dims and used - spatial_dims:
            return None
    iteration = set(block.iteration_variables)
    reduce_positions = {i for i, kind in enumerate(block.kinds) if kind == "R"}
    for op in block.walk_nested():
        if type(op) not in _SUPPORTED or not _SAFE_FASTMATH.issuperset(flag_names(op.attributes.get("fastmath"))):
            return None
        if isinstance(op, (LoadOp, StoreOp)):
            if any(v not in iteration for v in op.indices) or \
                    buffer_dtype(op.memref.type.element_type) == np.dtype(object) or \
                    _scalar_dtype(op.memref.type.element_type) is None:
                return None
            if "padding" not in op.attributes and not _within_bounds(op, block):
                return None  # the scalar path reports the access outside its buffer
            if isinstance(op, StoreOp):
                exprs = op.index_exprs_over(block)
                if any(e is None or any(e.is_function_of_dim(p) for p in reduce_positions)
                       for e in exprs):
                    return None
        elif not isinstance(op, InitOp):
            if overflow_flags(op) or "roundingmode" in op.attributes:
                return None  # poison on overflow, directed rounding: the scalar path's
            for value in (*op.operands, *op.results):
                if _scalar_dtype(value.type) is None:
                    return None
    return NestPlan(loops, block, spatial, ordered)


def _within_bounds(access: Operation, block: Operation) -> bool:
    """Whether every index of `access` stays inside its buffer over the block's
    iteration domain (so the bulk accesses need no check)."""
    from mlc.ir.core.affine_expr import dim

    ranges = {dim(i): (0, extent - 1) for i, extent in enumerate(block.extents)}
    for expr, size in zip(access.index_exprs_over(block), access.memref.type.shape):
        low, high = expr.bound(ranges) if expr is not None else (None, None)
        if low is None or high is None or low < 0 or high >= size:
            return False
    return True


def run_nest_vectorized(interp, plan: NestPlan, repeated_stores: bool = False) -> None:
    """Run the nest of `plan` (see the module docstring) in `interp`; with
    `repeated_stores`, spatial points may write one element (a band's recomputed
    producer: they write the same value)."""
    loops, block = plan.loops, plan.block
    env = interp.env
    extents = [loop.extent.value for loop in loops]
    if any(e == 0 for e in extents):
        return
    grids = np.meshgrid(*[np.arange(extents[i], dtype=np.int64) for i in plan.spatial],
                        indexing="ij") if plan.spatial else []
    spatial_values = {loops[i].induction_variable: g.reshape(-1)
                      for i, g in zip(plan.spatial, grids)}
    spatial_conditions, step_conditions = _split_predicate(block, spatial_values)
    if spatial_conditions and spatial_values:
        operands = [spatial_values.get(b, 0) for b in block.bindings]
        keep = np.logical_and.reduce([np.asarray(e.evaluate(operands)) < bound
                                      for e, bound in spatial_conditions])
        spatial_values = {v: values[keep] for v, values in spatial_values.items()}
        if not keep.any():
            return
    count = next(iter(spatial_values.values())).size if spatial_values else 1
    binding_map = block.binding_map.value
    variables = block.iteration_variables
    kinds = block.kinds
    init = block.init
    ordered_loops = {loops[i].induction_variable for i in plan.ordered}
    spatial_operands = [spatial_values.get(b, 0) for b in block.bindings]
    loop_extents = {loop.induction_variable: loop.extent.value for loop in loops}
    offsets = _AccessOffsets(block, spatial_operands,
                             [b in spatial_values for b in block.bindings],
                             [loop_extents.get(b) for b in block.bindings], env)
    init_steps = _steps(init.regions[0].blocks[0].ops(), offsets, env) if init else []
    body_steps = _steps((op for op in block.body_block.ops() if op is not init), offsets, env)
    checked = False
    for point in itertools.product(*[range(extents[i]) for i in plan.ordered]):
        values: dict[Value, object] = dict(zip((loops[i].induction_variable
                                                for i in plan.ordered), point))
        # Spatial loops as arrays, the others (and values from outside) as ints.
        scalars = [0 if b in spatial_values else values[b] if b in ordered_loops
                   else env[b] for b in block.bindings]
        if any(e.evaluate(scalars) >= bound for e, bound in step_conditions):
            continue
        operands = [spatial_values[b] if b in spatial_values else v
                    for b, v in zip(block.bindings, scalars)]
        # A reduce variable depends on the step alone: an int; a spatial one is an
        # array, made when an op other than an access with offsets uses it.
        iteration = [r.evaluate(scalars) if kind == "R" else
                     np.broadcast_to(np.asarray(r.evaluate(operands)), (count,))
                     if offsets.needs_iteration or not checked else None
                     for r, kind in zip(binding_map.results, kinds)]
        local: dict[Value, object] = dict(zip(variables, iteration))
        if not checked:
            if not repeated_stores:
                _check_distinct_stores(block, local, count)
            checked = True
        local[_OFFSETS] = offsets.at(scalars)
        if init is not None and not any(local[v] for v, k in zip(variables, kinds) if k == "R"):
            _run_ops(init_steps, local, env, count)
        _run_ops(body_steps, local, env, count)


_OFFSETS = object()  # the key of a step's flat access offsets in `local`


def _split_predicate(block: Operation, spatial_values: dict) -> tuple[list, list]:
    """The predicate's conditions over spatial loops (they filter the spatial points)
    and over the others (they skip steps); the plan refused conditions over both."""
    spatial_dims = {d for d, b in enumerate(block.bindings) if b in spatial_values}
    spatial, steps = [], []
    for expr, bound in block.predicate_conditions:
        uses_spatial = any(expr.is_function_of_dim(d) for d in spatial_dims)
        (spatial if uses_spatial else steps).append((expr, bound))
    return spatial, steps


class _AccessOffsets:
    """The row-major offsets of the block's accesses, split where they can be into a
    part of the spatial loops (an array, computed once) and a part of the others (an
    int per step): the offset of step `scalars` is one addition, where evaluating each
    index anew would cost a dozen array operations. A padded load reads a copy of its
    buffer padded once with its padding value, as far as its indices reach (unless the
    block also writes that buffer)."""

    def __init__(self, block: Operation, spatial_operands: list, is_spatial: list[bool],
                 extents: list[int | None], env: dict):
        self.base: dict[Operation, np.ndarray] = {}
        self.rest: dict[Operation, object] = {}
        self.padded: dict[Operation, np.ndarray] = {}
        self._linear: dict[Operation, object] = {}
        binding_map = block.binding_map.value
        variables = {v: i for i, v in enumerate(block.iteration_variables)}
        written = {op.memref for op in block.walk_nested() if isinstance(op, StoreOp)}
        for op in block.walk_nested():
            if not isinstance(op, (LoadOp, StoreOp)):
                continue
            exprs = [e.replace_dims([binding_map.results[variables[v]] for v in op.indices])
                     for e in op.index_map.results]
            shape = op.memref.type.shape
            if "padding" in op.attributes:
                padded = self._pad(op, exprs, extents, env, written)
                if padded is None:
                    continue
                exprs, shape = padded
            self._split(op, exprs, shape, spatial_operands, is_spatial)
        used = {use.owner for v in block.iteration_variables for use in v.uses}
        self.needs_iteration = any(op not in self.base for op in used)

    def _pad(self, op: Operation, exprs: list, extents: list[int | None], env: dict,
             written: set) -> tuple[list, tuple] | None:
        """(indices into the padded copy, its shape), the copy made; None if the
        indices' ranges are unknown or the block writes the buffer."""
        from mlc.ir.core.affine_expr import dim

        buffer = env.get(op.memref)
        if op.memref in written or not isinstance(buffer, np.ndarray) or None in extents:
            return None
        ranges = {dim(i): (0, extent - 1) for i, extent in enumerate(extents)}
        pads = []
        for expr, size in zip(exprs, op.memref.type.shape):
            low, high = expr.bound(ranges)
            if low is None or high is None:
                return None
            pads.append((max(0, -low), max(0, high - size + 1)))
        value = _padding_value(op.attributes["padding"], buffer.dtype)
        self.padded[op] = np.pad(buffer, pads, constant_values=value)
        return ([e + before for e, (before, _) in zip(exprs, pads)],
                self.padded[op].shape)

    def _split(self, op: Operation, exprs: list, shape: tuple, spatial_operands: list,
               is_spatial: list[bool]) -> None:
        from mlc.ir.core.affine_expr import constant

        flat = constant(0)
        for expr, extent in zip(exprs, shape):
            flat = flat * extent + expr
        spatial, rest = constant(0), constant(0)
        for term in _terms(flat):
            uses = [d for d in range(len(is_spatial)) if term.is_function_of_dim(d)]
            if all(is_spatial[d] for d in uses):
                spatial = spatial + term
            elif not any(is_spatial[d] for d in uses):
                rest = rest + term
            else:
                self.padded.pop(op, None)
                return
        self.base[op] = np.asarray(spatial.evaluate(spatial_operands), np.int64)
        self.rest[op] = rest

    def at(self, scalars: list) -> dict[Operation, np.ndarray]:
        """Each access's offsets at the step whose ints are `scalars`."""
        found = {}
        for op, rest in self.rest.items():
            linear = self._linear.get(op)
            if linear is None:
                linear = self._linear[op] = _linear(rest) or rest
            if isinstance(linear, tuple):
                offset = linear[0]
                for position, coefficient in linear[1]:
                    offset += coefficient * scalars[position]
            else:
                offset = linear.evaluate(scalars)
            found[op] = self.base[op] + offset
        return found


def _linear(expr) -> tuple[int, list[tuple[int, int]]] | None:
    """`expr` as (constant, [(dimension, coefficient)...]) when it is a sum of a
    constant and multiples of dimensions, else None."""
    constant, coefficients = 0, []
    for term in _terms(expr):
        kind = term.kind.name
        if kind == "CONSTANT":
            constant += term.value
        elif kind == "DIM":
            coefficients.append((term.position, 1))
        elif kind == "MUL" and term.lhs.kind.name == "DIM" and term.rhs.kind.name == "CONSTANT":
            coefficients.append((term.lhs.position, term.rhs.value))
        else:
            return None
    return constant, coefficients


def _terms(expr) -> list:
    """The summands of `expr`, products by constants distributed over sums
    (`(d0 * 2 + d1) * 56` is `d0 * 112 + d1 * 56`)."""
    kind = expr.kind.name
    if kind == "ADD":
        return _terms(expr.lhs) + _terms(expr.rhs)
    if kind == "MUL" and expr.rhs.kind.name == "CONSTANT":
        return [term * expr.rhs for term in _terms(expr.lhs)]
    if kind == "MUL" and expr.lhs.kind.name == "CONSTANT":
        return [expr.lhs * term for term in _terms(expr.rhs)]
    return [expr]


def _check_distinct_stores(block: Operation, local: dict, count: int) -> None:
    """_NotVectorizable unless each store writes `count` distinct elements: the
    spatial points may then run at once. Counted by marking each element written in
    a flag per element of the buffer, O(points + elements): sorting the offsets
    (np.unique) took most of the time of a 7x7 stem convolution's 5.6 M points."""
    for op in block.walk_nested():
        if isinstance(op, StoreOp) and count > 1:
            shape = op.memref.type.shape
            if not shape:
                raise _NotVectorizable()  # every point writes the one element
            indices = op.index_map.evaluate([local[v] for v in op.indices])
            flat = np.ravel_multi_index([np.broadcast_to(i, (count,)) for i in indices],
                                        shape, mode="clip")
            written = np.zeros(int(np.prod(shape)), np.bool_)
            written[flat] = True
            if np.count_nonzero(written) != count:
                raise _NotVectorizable()


class _NotVectorizable(Exception):
    """Raised before any side effect: the nest runs on the scalar path instead."""


class _Step:
    """One op of a block's body with what running it needs, read once per nest run:
    its operands and results, and for an access with offsets the flat view of its
    buffer (a padded load's padded copy)."""

    __slots__ = ("op", "operands", "results", "flat_buffer", "value")

    def __init__(self, op: Operation, offsets: _AccessOffsets, env: dict):
        self.op = op
        self.operands, self.results = tuple(op.operands), tuple(op.results)
        self.flat_buffer = self.value = None
        if op in offsets.base:
            buffer = offsets.padded.get(op)
            if buffer is None:
                buffer = env.get(op.memref)
            if isinstance(buffer, np.ndarray) and buffer.flags.c_contiguous:
                self.flat_buffer = buffer.reshape(-1)
            if isinstance(op, StoreOp):
                self.value = op.value


def _steps(ops, offsets: _AccessOffsets, env: dict) -> list[_Step]:
    return [_Step(op, offsets, env) for op in ops]


def _run_ops(steps: list[_Step], local: dict, env: dict, count: int) -> None:
    offsets = local[_OFFSETS]
    for step in steps:
        if step.flat_buffer is not None:
            flat = offsets[step.op]
            if step.value is None:
                local[step.results[0]] = step.flat_buffer.take(flat)
            else:
                value = step.value
                step.flat_buffer[flat] = local[value] if value in local else env[value]
            continue
        results = _evaluate(step.op, [local[v] if v in local else env[v]
                                      for v in step.operands], env, count)
        for value, result in zip(step.results, results):
            local[value] = result


def _evaluate(op: Operation, args: list, env: dict, count: int) -> list:
    op_class = type(op)
    if op_class is A.ConstantOp:
        return [_constant(op)]
    if op_class is LoadOp:
        return [_load(op, args)]
    if op_class is StoreOp:
        _store(op, args)
        return []
    result_type = op.results[0].type
    dtype = _scalar_dtype(result_type)
    with np.errstate(all="ignore"):
        if op_class in _FLOAT_BINARY:
            return [np.asarray(_FLOAT_BINARY[op_class](args[0], args[1]), dtype)]
        if op_class in _INT_BINARY:
            return [np.asarray(_INT_BINARY[op_class](args[0], args[1]), dtype)]
        if op_class in _MATH:
            return [_MATH[op_class](args[0], dtype)]
        if op_class is A.NegFOp:
            return [np.negative(np.asarray(args[0], dtype))]
        if op_class is A.SelectOp:
            return [np.asarray(np.where(args[0], args[1], args[2]), dtype)]
        if op_class is A.CmpFOp:
            return [_cmpf(op, args)]
        if op_class is A.CmpIOp:
            predicate = cmpi_predicate(op)
            if predicate not in _CMPI:
                unsigned = [np.asarray(a).astype(np.uint64) for a in args]
                return [_CMP[predicate[1:]](*unsigned)]
            return [_CMP[_CMPI[predicate]](args[0], args[1])]
        if op_class in _CASTS:
            return [np.asarray(args[0]).astype(dtype)]
    raise _NotVectorizable()


def _cmpf(op: Operation, args: list):
    predicate = cmpf_predicate(op)
    a, b = (np.asarray(x) for x in args)
    unordered = np.isnan(a) | np.isnan(b)
    if predicate == "false":
        return np.zeros(np.broadcast(a, b).shape, bool)
    if predicate == "true":
        return np.ones(np.broadcast(a, b).shape, bool)
    if predicate == "ord":
        return ~unordered
    if predicate == "uno":
        return unordered
    if predicate in _CMPF_ORDERED:
        return _CMP[_CMPF_ORDERED[predicate]](a, b) & ~unordered
    return _CMP[_CMPF_UNORDERED[predicate]](a, b) | unordered


def _constant(op: Operation):
    attr = op.attributes["value"]
    dtype = _scalar_dtype(op.results[0].type)
    if dtype is None or not hasattr(attr, "type"):
        raise _NotVectorizable()
    if dtype.kind == "f":
        return dtype.type(float_of_bits(attr.bits, attr.type))
    if dtype.kind == "b":
        return np.bool_(attr.value & 1)
    return np.array(attr.value).astype(dtype)[()]


def _indices(op: Operation, args: list) -> tuple:
    return op.index_map.evaluate(list(args))


def _flat(indices: list, shape: tuple) -> np.ndarray:
    """Row-major offsets of the element indices `indices` (arrays or ints) of a buffer
    of `shape`: one gather of a flat view is faster than numpy's multi-axis one."""
    flat = np.asarray(indices[0])
    for index, extent in zip(indices[1:], shape[1:]):
        flat = flat * extent + index
    return flat


def _load(op: Operation, args: list):
    buffer = args[0]
    indices = _indices(op, args[1:])
    if not indices:
        return buffer[()]
    padding = op.attributes.get("padding")
    if padding is None:  # inside the buffer: checked by the plan
        return buffer.reshape(-1).take(_flat(indices, buffer.shape))
    inside = np.ones(np.broadcast(*indices).shape, bool)
    for i, n in zip(indices, buffer.shape):
        inside &= (i >= 0) & (i < n)
    safe = [np.where(inside, i, 0) for i in indices]
    pad = _padding_value(padding, buffer.dtype)
    return np.where(inside, buffer.reshape(-1).take(_flat(safe, buffer.shape)), pad)


def _padding_value(attr, dtype: np.dtype):
    if hasattr(attr, "bits") and dtype.kind == "f":
        return dtype.type(float_of_bits(attr.bits, attr.type))
    return np.array(getattr(attr, "value", attr)).astype(dtype)[()]


def _store(op: Operation, args: list) -> None:
    value, buffer = args[0], args[1]
    indices = _indices(op, args[2:])  # inside the buffer: checked by the plan
    if not indices:  # a rank-0 buffer: the one point's value
        buffer[()] = np.asarray(value).flat[0]
        return
    buffer[tuple(indices)] = value


NotVectorizable = _NotVectorizable
