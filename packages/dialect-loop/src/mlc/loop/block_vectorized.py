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
runs at the steps where every reduce variable is 0.

A nest this cannot take — another op beside the block, a loop feeding both kinds of
variable, an index loaded from data, an op outside the list below, fast-math flags
that make NaN undefined, a type numpy does not hold (bf16, odd widths), a store whose
index depends on a reduce variable — runs on the scalar path, unchanged: the decision
is made before anything is executed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from mlc.ir.core.attributes import FloatType, IndexType, IntegerType, Type
from mlc.ir.core.ir import Operation, Value
from mlc.ir.interpreter import (
    UndefinedBehavior,
    _overflow_flags,
    _predicate,
    buffer_dtype,
    float_of_bits,
)

__all__ = ["run_nest_vectorized", "vectorized_plan"]


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


_MATH = {"math.exp": _wide(np.exp), "math.log": _wide(np.log), "math.tanh": _wide(np.tanh),
         "math.sqrt": _wide(np.sqrt), "math.absf": _wide(np.abs),
         "math.sin": _wide(np.sin), "math.cos": _wide(np.cos), "math.exp2": _wide(np.exp2),
         "math.log2": _wide(np.log2), "math.floor": _wide(np.floor),
         "math.ceil": _wide(np.ceil), "math.roundeven": _wide(np.rint)}

_FLOAT_BINARY = {"arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply,
                 "arith.divf": np.divide, "arith.maximumf": np.maximum,
                 "arith.minimumf": np.minimum, "arith.maxnumf": np.fmax,
                 "arith.minnumf": np.fmin}
_INT_BINARY = {"arith.addi": np.add, "arith.subi": np.subtract, "arith.muli": np.multiply,
               "arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or,
               "arith.xori": np.bitwise_xor}
_CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
        "gt": np.greater, "ge": np.greater_equal}
_CMPF_ORDERED = {"oeq": "eq", "one": "ne", "olt": "lt", "ole": "le", "ogt": "gt", "oge": "ge"}
_CMPF_UNORDERED = {"ueq": "eq", "une": "ne", "ult": "lt", "ule": "le", "ugt": "gt", "uge": "ge"}
_CMPI = {"eq": "eq", "ne": "ne", "slt": "lt", "sle": "le", "sgt": "gt", "sge": "ge"}
_CASTS = ("arith.extf", "arith.truncf", "arith.sitofp", "arith.index_cast")
_SUPPORTED = {*_MATH, *_FLOAT_BINARY, *_INT_BINARY, *_CASTS, "arith.constant", "arith.negf",
              "arith.cmpf", "arith.cmpi", "arith.select", "loop.load", "loop.store",
              "loop.init"}
_SAFE_FASTMATH = frozenset({"contract", "none"})


def _flags(op: Operation) -> frozenset[str]:
    attr = op.attributes.get("fastmath")
    flags = getattr(attr, "flags", None)
    if flags is None:
        return frozenset()
    return frozenset(member.name for member in type(flags) if member in flags)


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
        plans[loop] = _plan(loop)
    return plans[loop]


def _plan(loop: Operation) -> NestPlan | None:
    loops = [loop]
    while True:
        body = list(loops[-1].body_block.ops())
        if len(body) != 1:
            return None
        if body[0].name == "loop.for":
            loops.append(body[0])
        elif body[0].name == "loop.block":
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
    spatial = [i for i in range(len(loops)) if feeds[i] == {"S"}]
    ordered = [i for i in range(len(loops)) if feeds[i] != {"S"}]
    iteration = set(block.iteration_variables)
    reduce_positions = {i for i, kind in enumerate(block.kinds) if kind == "R"}
    for op in block.walk_nested():
        if op.name not in _SUPPORTED or not _SAFE_FASTMATH.issuperset(_flags(op)):
            return None
        if op.name in ("loop.load", "loop.store"):
            if any(v not in iteration for v in op.indices) or \
                    buffer_dtype(op.memref.type.element_type) == np.dtype(object) or \
                    _scalar_dtype(op.memref.type.element_type) is None:
                return None
            if op.name == "loop.store":
                exprs = op.index_exprs_over(block)
                if any(e is None or any(e.is_function_of_dim(p) for p in reduce_positions)
                       for e in exprs):
                    return None
        elif op.name != "loop.init":
            if _overflow_flags(op) or "roundingmode" in op.attributes:
                return None  # poison on overflow, directed rounding: the scalar path's
            for value in (*op.operands, *op.results):
                if _scalar_dtype(value.type) is None:
                    return None
    return NestPlan(loops, block, spatial, ordered)


def run_nest_vectorized(interp, plan: NestPlan) -> None:
    """Run the nest of `plan` (see the module docstring) in `interp`."""
    loops, block = plan.loops, plan.block
    env = interp.env
    extents = [loop.extent.value for loop in loops]
    if any(e == 0 for e in extents):
        return
    grids = np.meshgrid(*[np.arange(extents[i], dtype=np.int64) for i in plan.spatial],
                        indexing="ij") if plan.spatial else []
    spatial_values = {loops[i].induction_variable: g.reshape(-1)
                      for i, g in zip(plan.spatial, grids)}
    count = grids[0].size if grids else 1
    binding_map = block.binding_map.value
    variables = block.iteration_variables
    kinds = block.kinds
    init = block.init
    checked = False
    for point in itertools.product(*[range(extents[i]) for i in plan.ordered]):
        values: dict[Value, object] = dict(spatial_values)
        for i, v in zip(plan.ordered, point):
            values[loops[i].induction_variable] = v
        operands = [values[b] if b in values else env[b] for b in block.bindings]
        iteration = [np.broadcast_to(np.asarray(r.evaluate(operands)), (count,))
                     for r in binding_map.results]
        local: dict[Value, object] = dict(zip(variables, iteration))
        if not checked:
            _check_distinct_stores(block, local, count)
            checked = True
        if init is not None and all(
                not np.asarray(local[v]).any() for v, k in zip(variables, kinds) if k == "R"):
            _run_ops(init.regions[0].blocks[0].ops(), local, env, count)
        _run_ops((op for op in block.body_block.ops() if op is not init), local, env, count)


def _check_distinct_stores(block: Operation, local: dict, count: int) -> None:
    """UndefinedBehavior unless each store writes `count` distinct elements: the
    spatial points may then run at once."""
    for op in block.walk_nested():
        if op.name == "loop.store" and count > 1:
            indices = op.index_map.evaluate([local[v] for v in op.indices])
            shape = op.memref.type.shape
            flat = np.ravel_multi_index([np.broadcast_to(i, (count,)) for i in indices],
                                        shape, mode="clip") if shape else np.zeros(count)
            if np.unique(flat).size != count:
                raise _NotVectorizable()


class _NotVectorizable(Exception):
    """Raised before any side effect: the nest runs on the scalar path instead."""


def _run_ops(ops, local: dict, env: dict, count: int) -> None:
    for op in ops:
        results = _evaluate(op, [local[v] if v in local else env[v] for v in op.operands],
                            env, count)
        for value, result in zip(op.results, results):
            local[value] = result


def _evaluate(op: Operation, args: list, env: dict, count: int) -> list:
    name = op.name
    if name == "arith.constant":
        return [_constant(op)]
    if name == "loop.load":
        return [_load(op, args)]
    if name == "loop.store":
        _store(op, args)
        return []
    result_type = op.results[0].type
    dtype = _scalar_dtype(result_type)
    with np.errstate(all="ignore"):
        if name in _FLOAT_BINARY:
            return [np.asarray(_FLOAT_BINARY[name](args[0], args[1]), dtype)]
        if name in _INT_BINARY:
            return [np.asarray(_INT_BINARY[name](args[0], args[1]), dtype)]
        if name in _MATH:
            return [_MATH[name](args[0], dtype)]
        if name == "arith.negf":
            return [np.negative(np.asarray(args[0], dtype))]
        if name == "arith.select":
            return [np.asarray(np.where(args[0], args[1], args[2]), dtype)]
        if name == "arith.cmpf":
            return [_cmpf(op, args)]
        if name == "arith.cmpi":
            predicate = _predicate(op)
            if predicate not in _CMPI:
                unsigned = [np.asarray(a).astype(np.uint64) for a in args]
                return [_CMP[predicate[1:]](*unsigned)]
            return [_CMP[_CMPI[predicate]](args[0], args[1])]
        if name in ("arith.extf", "arith.truncf", "arith.sitofp", "arith.index_cast"):
            return [np.asarray(args[0]).astype(dtype)]
    raise _NotVectorizable()


def _cmpf(op: Operation, args: list):
    predicate = _predicate(op)
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


def _load(op: Operation, args: list):
    buffer = args[0]
    indices = [np.asarray(i) for i in _indices(op, args[1:])]
    padding = op.attributes.get("padding")
    inside = np.ones(np.broadcast(*indices).shape if indices else (), bool)
    for i, n in zip(indices, buffer.shape):
        inside &= (i >= 0) & (i < n)
    if padding is None:
        if not inside.all():
            raise UndefinedBehavior(f"'{op.name}' reads outside a buffer of shape "
                                    f"{list(buffer.shape)}")
        return buffer[tuple(indices)] if indices else buffer[()]
    safe = tuple(np.where(inside, i, 0) for i in indices)
    pad = _padding_value(padding, buffer.dtype)
    return np.where(inside, buffer[safe], pad)


def _padding_value(attr, dtype: np.dtype):
    if hasattr(attr, "bits") and dtype.kind == "f":
        return dtype.type(float_of_bits(attr.bits, attr.type))
    return np.array(getattr(attr, "value", attr)).astype(dtype)[()]


def _store(op: Operation, args: list) -> None:
    value, buffer = args[0], args[1]
    indices = _indices(op, args[2:])
    for i, n in zip(indices, buffer.shape):
        i = np.asarray(i)
        if ((i < 0) | (i >= n)).any():
            raise UndefinedBehavior(f"'{op.name}' writes outside a buffer of shape "
                                    f"{list(buffer.shape)}")
    if not indices:  # a rank-0 buffer: the one point's value
        buffer[()] = np.asarray(value).flat[0]
        return
    buffer[tuple(indices)] = value


NotVectorizable = _NotVectorizable
