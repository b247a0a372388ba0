"""The interpreter's fast path for `scf` loop nests: the iterations of a band of nested
loops run at once, in lock-step, each value an array over them (a *lane* per iteration).

A band is an `scf.for` or `scf.parallel` without results and the loops nested in it as
long as each body holds, besides the next loop, only ops free of memory effects whose
bounds do not vary along the band (`loop-lower`'s nests: index arithmetic between the
loops). Every point of the band is a lane, numbered in the order the scalar path runs
them. The innermost body then runs op by op on all lanes: an op whose operands are the
same on every lane runs once on the scalar handler (exactly the scalar path's
answer), the others on numpy arrays (arith, `math.fma`, the vector ops that rearrange,
loads and stores gathering and scattering per lane); a nested loop with bounds that do
not vary runs its iterations in order on all lanes, an `scf.if` whose condition varies
runs each region on the lanes that take it.

Running the lanes at once computes what the scalar path computes when no lane sees
another lane's memory: every element that is written is touched by one lane only,
which the run checks at each access (a record of the lane that wrote and the lanes that
read each element of every buffer the band writes). A buffer the lanes share as
scratch space — a compacted tile each iteration initialises then reads, allocated
outside the loops — is made private to each lane when that check fails on it: each
lane gets its own copy, must write an element before it reads it, and the last lane
that wrote an element gives its final value (the scalar path's last iteration). When
the check fails otherwise, or anything else falls outside what this path computes
exactly (an op it does not know, undefined behaviour, an index out of bounds,
fast-math flags, a type numpy does not hold), the stores are undone and the loop runs
on the scalar path, which then gives its answer or its error; a band that failed is
retried one loop shallower. Floats are computed in their own type (IEEE-754 rounds
+, -, *, / the same in f32 as the scalar path's rounding of the f64 result),
`math.fma` of f32 in f64 (the product exact, the sum rounded, then rounded to f32, as
the scalar path does it). The band run is written over a :class:`Band`, the shape of a
nest, so the loops `convert-scf-to-cf` leaves as blocks share it
(:mod:`mlc.ir.dialects.cf.bulk`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np

from mlc.ir.core.attributes import FloatType, IndexType, IntegerType, MemRefType, Type, VectorType
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects.arith import casts
from mlc.ir.dialects.arith import ops as A
from mlc.ir.dialects.arith.semantics import cmpf_predicate, cmpi_predicate, overflow_flags
from mlc.ir.dialects.math.ops import FmaOp
from mlc.ir.dialects.memref import ops as M
from mlc.ir.dialects.scf.ops import ForOp, IfOp, ParallelOp, ReduceOp, ReduceReturnOp, YieldOp
from mlc.ir.dialects.vector import memory as vector_memory
from mlc.ir.dialects.vector.compute import FMAOp
from mlc.ir.dialects.vector.ops import BroadcastOp
from mlc.ir.dialects.vector.slicing import ExtractOp
from mlc.ir.interpreter import (
    ELEMENTWISE_OPS,
    POISON,
    ElementView,
    Interpreter,
    InterpreterError,
    flag_names,
    handler_for,
)

__all__ = ["BULK", "Band", "LaneFrame", "LaneMemory", "Lanes", "NotInLockStep",
           "execute_on_lanes", "lane_array", "merge_branches", "range_points", "run_band_in_bulk",
           "run_in_bulk", "runs_in_lock_step", "scalar_scf_loops", "vector_shape"]

BULK = True
"""Whether scf loop nests run in lock-step where they can (False: one iteration at a
time, the reference the property tests compare the fast path with)."""

MAX_LANES = 1 << 22
"""The most iterations of a band run at once (more: a shallower band)."""

MAX_PRIVATE_ELEMENTS = 1 << 24
"""The most elements of a buffer made private, times the lanes."""


@contextmanager
def scalar_scf_loops() -> Iterator[None]:
    """Run scf loops one iteration at a time while inside."""
    global BULK
    saved, BULK = BULK, False
    try:
        yield
    finally:
        BULK = saved


class NotInLockStep(Exception):
    """This run cannot be completed exactly in lock-step: undo it, run scalar."""


class _Conflict(NotInLockStep):
    """Two lanes touch one element of `root`, one of them writing."""

    def __init__(self, root: np.ndarray):
        super().__init__()
        self.root = root


class Lanes:
    """A value that differs between lanes: `array[k]` is lane k's (a scalar's value,
    or a vector's elements in its shape)."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray):
        self.array = array


# ------------------------------------------------------------------ types

def _dtype(type_: Type) -> np.dtype:
    """The numpy dtype lane values of `type_` are held in (NotInLockStep if none is exact)."""
    if isinstance(type_, VectorType):
        if any(type_.scalable or ()):
            raise NotInLockStep()
        type_ = type_.element_type
    if isinstance(type_, IndexType):
        return np.dtype(np.int64)
    if isinstance(type_, IntegerType) and type_.signedness == "signless":
        if type_.width == 1:
            return np.dtype(np.bool_)
        if type_.width in (8, 16, 32, 64):
            return np.dtype(f"int{type_.width}")
    if isinstance(type_, FloatType) and type_.name in ("f16", "f32", "f64"):
        return np.dtype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[type_.name])
    raise NotInLockStep()


def lane_array(value, type_: Type, lanes: int | None = None) -> np.ndarray:
    """A value as a numpy array of its type (a lane value's array as it is; a uniform
    vector's tuple in its shape)."""
    if isinstance(value, Lanes):
        return value.array
    dtype = _dtype(type_)
    if isinstance(type_, VectorType):
        return np.array(value, dtype).reshape(type_.shape)
    return np.array(value, dtype)


# ------------------------------------------------------------------ memory

class LaneMemory:
    """What a lock-step run did to memory, to check it and to undo it."""

    def __init__(self, lanes: int, private: set[int]):
        self.lanes = lanes
        self.private_roots = private  # ids of the allocations made private
        self.undo: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.writer: dict[int, np.ndarray] = {}
        self.reader: dict[int, np.ndarray] = {}
        self.private: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.written_roots: set[int] = set()  # ids, filled before the run

    def flat(self, buffer: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, tuple]:
        """(the allocation, its elements as a flat array of the buffer's dtype, the
        buffer's first element's offset in it, its strides in elements)."""
        root = buffer
        while isinstance(root.base, np.ndarray):
            root = root.base
        if not root.flags.c_contiguous or buffer.dtype == np.dtype(object):
            raise NotInLockStep()
        size = buffer.itemsize
        start = buffer.__array_interface__["data"][0] - root.__array_interface__["data"][0]
        if root.nbytes % size or start % size or any(s % size for s in buffer.strides):
            raise NotInLockStep()
        flat = root.reshape(-1).view(np.uint8).view(buffer.dtype) \
            if root.dtype != buffer.dtype else root.reshape(-1)
        return root, flat, start // size, tuple(s // size for s in buffer.strides)

    def addresses(self, buffer: np.ndarray, indices: list, shape: tuple, count: int) -> tuple:
        """(root, flat, offsets) of the elements `indices` (ints or lane arrays) name on
        each of `count` lanes, with a trailing vector of `shape` along the last dims:
        offsets of shape (count, *shape); NotInLockStep out of bounds."""
        root, flat, start, strides = self.flat(buffer)
        if len(indices) != buffer.ndim:
            raise NotInLockStep()
        lead = len(indices) - len(shape)
        offset = np.int64(start)
        for k, (index, extent, stride) in enumerate(zip(indices, buffer.shape, strides)):
            index = np.asarray(index, np.int64)
            reach = shape[k - lead] if k >= lead else 1
            if index.size and (index.min() < 0 or index.max() + reach > extent):
                raise NotInLockStep()
            offset = offset + index * stride
        offset = np.broadcast_to(np.asarray(offset, np.int64), (count,))
        if shape:
            grid = np.zeros((), np.int64)
            for k, extent in enumerate(shape):
                grid = grid[..., None] + np.arange(extent, dtype=np.int64) * strides[lead + k]
            offset = offset.reshape((count,) + (1,) * len(shape)) + grid
        return root, flat, offset

    def load(self, buffer: np.ndarray, indices: list, shape: tuple, ids: np.ndarray):
        """The elements each lane reads (an array of shape (lanes, *shape))."""
        root, flat, offset = self.addresses(buffer, indices, shape, ids.size)
        key = id(root)
        if key not in self.written_roots:
            return flat[offset]
        lane = np.broadcast_to(ids.reshape(ids.shape + (1,) * len(shape)), offset.shape)
        if key in self.private_roots:
            copy, written, _ = self._private(root, flat)
            if not written[lane, offset].all():
                raise NotInLockStep()  # a lane reads what an earlier one may have written
            return copy[lane, offset]
        writer = self._track(self.writer, key, flat)
        seen = writer[offset]
        if np.any((seen != -1) & (seen != lane)):
            raise _Conflict(root)
        reader = self._track(self.reader, key, flat)
        before = reader[offset]
        mark = np.where((before == -1) | (before == lane), lane, -2)
        reader[offset] = mark
        reader[offset[reader[offset] != mark]] = -2  # two lanes read it in this op
        return flat[offset]

    def store(self, buffer: np.ndarray, indices: list, shape: tuple, ids: np.ndarray,
              value: np.ndarray) -> None:
        """Each lane's `value` (broadcast to (lanes, *shape)) written at its indices."""
        if not buffer.flags.writeable:
            raise NotInLockStep()
        root, flat, offset = self.addresses(buffer, indices, shape, ids.size)
        key = id(root)
        lane = np.broadcast_to(ids.reshape(ids.shape + (1,) * len(shape)), offset.shape)
        value = np.broadcast_to(np.asarray(value, flat.dtype), offset.shape)
        if key in self.private_roots:
            copy, written, _ = self._private(root, flat)
            copy[lane, offset] = value
            written[lane, offset] = True
            return
        writer = self._track(self.writer, key, flat)
        reader = self._track(self.reader, key, flat)
        seen, read = writer[offset], reader[offset]
        if np.any((seen != -1) & (seen != lane)) or np.any((read != -1) & (read != lane)):
            raise _Conflict(root)
        writer[offset] = lane
        if np.any(writer[offset] != lane):
            raise _Conflict(root)  # two lanes write one element in this op
        self.undo.append((flat, offset.copy(), flat[offset]))
        flat[offset] = value

    def _track(self, table: dict, key: int, flat: np.ndarray) -> np.ndarray:
        found = table.get(key)
        if found is None:
            found = table[key] = np.full(flat.size, -1, np.int64)
        return found

    def _private(self, root: np.ndarray, flat: np.ndarray) -> tuple:
        key = id(root)
        found = self.private.get(key)
        if found is None:
            copy = np.empty((self.lanes, flat.size), flat.dtype)
            written = np.zeros((self.lanes, flat.size), np.bool_)
            found = self.private[key] = (copy, written, flat)
        return found

    def rollback(self) -> None:
        for flat, offset, old in reversed(self.undo):
            flat[offset] = old
        self.undo.clear()

    def commit(self) -> None:
        """Each private buffer's elements from the last lane that wrote them."""
        for copy, written, flat in self.private.values():
            touched = written.any(axis=0)
            last = copy.shape[0] - 1 - np.argmax(written[::-1], axis=0)
            columns = np.nonzero(touched)[0]
            flat[columns] = copy[last[columns], columns]


# ------------------------------------------------------------------ plans

def _is_loop(op: Operation) -> bool:
    return isinstance(op, (ForOp, ParallelOp)) and not op.results


def _band_body_ops(op: Operation) -> list[Operation]:
    return list(op.regions[0].blocks[0].ops())


def runs_in_lock_step(op: Operation) -> bool:
    """Whether every op nested in `op` is one the lock-step run knows or may run once."""
    from mlc.ir.interfaces.side_effects import is_memory_effect_free

    for nested in op.walk():
        op_class = type(nested)
        if op_class in _LANE_OPS or (op_class in _CONTROL and not (
                op_class is ParallelOp and nested.results)):
            continue
        if nested.regions or not is_memory_effect_free(nested) or \
                handler_for(op_class) is None:
            return False
    return True


class Band:
    """The shape of a loop nest the lock-step run walks, whatever spells its loops
    (`scf` ops here, `cf` blocks in :mod:`mlc.ir.dialects.cf.bulk`). A *level* is one
    loop of the nest; the run makes the iterations of the levels down to the plan's
    depth its lanes, then runs the deepest level's body on them."""

    def depth(self) -> int:
        """How many levels below the first one the band may go."""
        raise NotImplementedError

    def first(self):
        """The outermost level."""
        raise NotImplementedError

    def points(self, level, operands: list) -> list[np.ndarray] | None:
        """Each induction variable's values over the level's points in row-major order,
        given its bounds' values `operands`; None if they vary between lanes."""
        raise NotImplementedError

    def induction_variables(self, level) -> list[Value]:
        raise NotImplementedError

    def descend(self, interp: Interpreter, level, frame: LaneFrame) -> tuple[object, list]:
        """Run what the level's body computes before its inner loop (free of memory
        effects); the inner level and its bounds' values."""
        raise NotImplementedError

    def run_body(self, interp: Interpreter, level, frame: LaneFrame, memory: LaneMemory) -> None:
        """Run the level's body once on every lane."""
        raise NotImplementedError

    def stores(self, level) -> list[Operation]:
        """The ops under the level that store to memory."""
        raise NotImplementedError


class _ScfBand(Band):
    """A band of nested `scf.for`/`scf.parallel` ops without results."""

    def __init__(self, loop: Operation):
        self.loop = loop

    def depth(self) -> int:
        return _band_depth(self.loop)

    def first(self):
        return self.loop

    def points(self, level, operands):
        return _loop_points(level, operands)

    def induction_variables(self, level):
        return list(level.regions[0].blocks[0].args)

    def descend(self, interp, level, frame):
        ops = _body_ops(level)
        inner = next(o for o in ops if o.regions)
        for o in ops:
            if o is not inner:
                execute_on_lanes(interp, o, frame, None)
        return inner, [frame.lookup(v) for v in inner.operands]

    def run_body(self, interp, level, frame, memory):
        for o in _body_ops(level):
            execute_on_lanes(interp, o, frame, memory)

    def stores(self, level):
        return list(level.walk())


def _body_ops(loop: Operation) -> list[Operation]:
    """The ops of a loop's body but what ends it."""
    return [o for o in loop.regions[0].blocks[0].ops() if not isinstance(o, _BODY_ENDS)]


class _Plan:
    """What was learnt about one loop: its band, how deep the band may go, which
    buffers (by the values naming them) its lanes must have private copies of."""

    def __init__(self, band: Band):
        self.band = band
        self.depth = band.depth()
        self.private: set[Value] = set()


def run_in_bulk(interp: Interpreter, op: Operation, operands: list) -> bool:
    """Run `op` (an scf.for or scf.parallel without results) in lock-step if it can be
    done exactly; False if it was not (nothing changed: run it on the scalar path)."""
    def band() -> Band | None:
        if not _is_loop(op) or not all(runs_in_lock_step(o) for o in _band_body_ops(op)):
            return None
        return _ScfBand(op)
    return run_band_in_bulk(interp, op, band, operands)


def run_band_in_bulk(interp: Interpreter, key: object, band: Callable[[], Band | None],
                     operands: list) -> bool:
    """Run the nest that `band()` describes (asked once per `key` and interpreter; None
    when it cannot run in lock-step), its first level's bounds' values `operands`, in
    lock-step if it can be done exactly; False if it was not (nothing changed)."""
    if not BULK or interp.state.get("scf.bulk.active"):
        return False
    plans = interp.state.setdefault("scf.bulk.plans", {})
    plan = plans.get(key)
    if plan is None:
        shape = band()
        plan = plans[key] = False if shape is None else _Plan(shape)
    if plan is False:
        return False
    interp.state["scf.bulk.active"] = True
    try:
        while plan.depth >= 0:
            outcome = _attempt(interp, operands, plan)
            if outcome is True:
                return True
            if isinstance(outcome, np.ndarray):  # privatize it and retry
                continue
            plan.depth -= 1
            plan.private.clear()
        plans[key] = False
        return False
    finally:
        interp.state["scf.bulk.active"] = False


def _band_depth(op: Operation) -> int:
    depth, current = 0, op
    while True:
        inner = [o for o in _band_body_ops(current) if o.regions]
        rest = [o for o in _band_body_ops(current) if not o.regions]
        from mlc.ir.interfaces.side_effects import is_memory_effect_free

        if len(inner) != 1 or not _is_loop(inner[0]) or \
                not all(is_memory_effect_free(o) for o in rest):
            return depth
        depth, current = depth + 1, inner[0]


def _loop_points(op: Operation, operands: list) -> list[np.ndarray] | None:
    """Each induction variable's values over the loop's points in row-major order."""
    if isinstance(op, ForOp):
        if "unsignedCmp" in op.attributes or len(operands) != 3:
            return None
        lower, upper, step = operands
        ranges = [(lower, upper, step)]
    else:
        rank = len(operands) // 3
        ranges = list(zip(operands[:rank], operands[rank:2 * rank], operands[2 * rank:]))
    return range_points(ranges)


def range_points(ranges: list[tuple]) -> list[np.ndarray] | None:
    """The points of the (lower, upper, step) ranges in row-major order, a value array
    per range; None when a bound varies between lanes or a step is not positive."""
    if any(isinstance(v, Lanes) for r in ranges for v in r) or any(s <= 0 for _, _, s in ranges):
        return None
    axes = [np.arange(lo, hi, st, dtype=np.int64) if hi > lo else np.zeros(0, np.int64)
            for lo, hi, st in ranges]
    grids = np.meshgrid(*axes, indexing="ij")
    return [g.reshape(-1) for g in grids]


def _attempt(interp: Interpreter, operands: list, plan: _Plan):
    """True when the band ran; a root array to make private; None to go shallower."""
    saved_env = interp.env
    env = dict(interp.env)
    band = plan.band
    memory = None
    try:
        frame = LaneFrame(env, None)
        current, current_operands, depth = band.first(), operands, 0
        while True:
            points = band.points(current, current_operands)
            if points is None:
                return None
            count = points[0].size if points else 1
            if count == 0:
                return True  # nothing to run
            if count > interp.max_branches:
                return None
            frame = frame.expand(count)
            if frame.count > MAX_LANES:
                return None
            for arg, values in zip(band.induction_variables(current), points):
                frame.values[arg] = Lanes(np.tile(values, frame.count // count))
            if depth == plan.depth:
                break
            current, current_operands = band.descend(interp, current, frame)
            depth += 1
        lanes = frame.count
        private = {id(r) for r in (_root(env.get(v)) for v in plan.private) if r is not None}
        memory = LaneMemory(lanes, private)
        memory.written_roots = _written_roots(band.stores(current), env)
        if memory.written_roots is None:
            return None
        if any(lanes * _root(env[v]).size > MAX_PRIVATE_ELEMENTS for v in plan.private
               if _root(env.get(v)) is not None):
            return None
        frame.ids = np.arange(lanes, dtype=np.int64)
        with np.errstate(all="ignore"):
            band.run_body(interp, current, frame, memory)
        memory.commit()
        return True
    except _Conflict as conflict:
        if memory is not None:
            memory.rollback()
        outside = [v for v, value in env.items() if isinstance(value, np.ndarray)
                   and isinstance(v.type, MemRefType) and _root(value) is conflict.root]
        if outside and not any(v in plan.private for v in outside):
            plan.private.update(outside)
            return conflict.root
        return None
    except (NotInLockStep, InterpreterError):
        # What the scalar path must decide: an op this path does not run exactly, or an
        # error (undefined behaviour, an unsupported op) the scalar path reports as its
        # own. Anything else is a bug of this path and propagates.
        if memory is not None:
            memory.rollback()
        return None
    finally:
        interp.env = saved_env


def _root(value) -> np.ndarray | None:
    if not isinstance(value, np.ndarray):
        return None
    while isinstance(value.base, np.ndarray):
        value = value.base
    return value


def _written_roots(ops, env: dict) -> set[int] | None:
    """The allocations the stores among `ops` write (ids), or None when one is named
    by a value made inside the loop."""
    roots = set()
    for nested in ops:
        if isinstance(nested, (M.StoreOp, vector_memory.StoreOp)):
            target = nested.operands[1]
            value = env.get(target)
            if not isinstance(value, np.ndarray):
                return None
            roots.add(id(_root(value)))
    return roots


# ------------------------------------------------------------------ execution

class LaneFrame:
    """The values of a lock-step run: `values` by SSA value; a frame for the lanes that
    take a branch sees its parent's lane values restricted to them (`select`)."""

    def __init__(self, values: dict, parent: LaneFrame | None, select: np.ndarray | None = None):
        self.values, self.parent, self.select = values, parent, select
        self.count = 1 if parent is None else parent.count
        self.ids: np.ndarray | None = None

    def expand(self, factor: int) -> LaneFrame:
        """The frame with each lane repeated `factor` times (a loop's points inside)."""
        for key, value in self.values.items():
            if isinstance(value, Lanes):
                self.values[key] = Lanes(np.repeat(value.array, factor, axis=0))
        self.count *= factor
        return self

    def lookup(self, value: Value):
        found = self.values.get(value, _MISSING)
        if found is _MISSING:
            if self.parent is None:
                raise NotInLockStep()
            found = self.parent.lookup(value)
            if isinstance(found, Lanes):
                found = Lanes(found.array[self.select])
            self.values[value] = found
        return found

    def subset(self, mask: np.ndarray) -> LaneFrame:
        select = np.nonzero(mask)[0]
        child = LaneFrame({}, self, select)
        child.count = select.size
        child.ids = self.ids[select]
        return child


_MISSING = object()


def execute_on_lanes(interp: Interpreter, op: Operation, frame: LaneFrame,
                     memory: LaneMemory | None) -> None:
    """Run `op` (not a terminator) on the frame's lanes: once on the scalar handler
    when its operands are the same on every lane, else on arrays; NotInLockStep when
    this path cannot compute it exactly (`memory` None: memory effects refused)."""
    operands = [frame.lookup(v) for v in op.operands]
    op_class = type(op)
    if op_class in _CONTROL:
        if memory is None:
            raise NotInLockStep()
        results = _CONTROL[op_class](interp, op, operands, frame, memory)
    elif not any(isinstance(v, Lanes) for v in operands) and op_class not in _EFFECTS:
        interp.env = frame.values  # the scalar handler on the one value all lanes share
        results = handler_for(op_class)(interp, op, operands)
        if not isinstance(results, list):
            raise NotInLockStep()
    else:
        handler = _LANE_OPS.get(op_class) if _exact_in_numpy(op) else None
        if handler is None and op_class in ELEMENTWISE_OPS:
            results = _per_element(interp, op, operands, frame)
        elif handler is None or (op_class in _EFFECTS and memory is None):
            raise NotInLockStep()
        else:
            results = handler(op, operands, frame, memory)
    for value, result in zip(op.results, results):
        frame.values[value] = result


def _per_element(interp: Interpreter, op: Operation, operands: list, frame: LaneFrame) -> list:
    """An elementwise op numpy does not compute exactly as the scalar path (math
    functions, directed rounding, flags): the scalar handler on each element."""
    shape = (frame.count,) + vector_shape(op.results[0].type)
    columns = []
    for value, operand in zip(operands, op.operands):
        array = lane_array(value, operand.type)
        if isinstance(value, Lanes) and array.ndim < len(shape):  # a scalar condition
            array = array.reshape(array.shape + (1,) * (len(shape) - array.ndim))
        array = np.broadcast_to(array, shape).reshape(-1)
        columns.append([int(v) for v in array.tolist()] if array.dtype == np.bool_
                       else array.tolist())
    handler, view = handler_for(type(op)), ElementView(op)
    rows = [handler(interp, view, list(scalars)) for scalars in zip(*columns)]
    results = []
    for k, value in enumerate(op.results):
        column = [row[k] for row in rows]
        if any(v is POISON for v in column):
            raise NotInLockStep()
        results.append(Lanes(np.array(column, _dtype(value.type)).reshape(shape)))
    return results


def _run_block(interp, block, args: list, frame: LaneFrame, memory: LaneMemory) -> list:
    for arg, value in zip(block.args, args):
        frame.values[arg] = value
    for op in block.ops():
        if isinstance(op, _BODY_ENDS):
            return [frame.lookup(v) for v in op.operands]
        execute_on_lanes(interp, op, frame, memory)
    return []


def _for(interp, op, operands, frame: LaneFrame, memory: LaneMemory) -> list:
    lower, upper, step, *carried = operands
    if any(isinstance(v, Lanes) for v in (lower, upper, step)) or step <= 0 or \
            "unsignedCmp" in op.attributes:
        raise NotInLockStep()
    if (upper - lower) // step > interp.max_branches:
        raise NotInLockStep()
    block = op.regions[0].blocks[0]
    for iv in range(lower, upper, step):
        carried = _run_block(interp, block, [iv, *carried], frame, memory)
    return list(carried)


def _if(interp, op, operands, frame: LaneFrame, memory: LaneMemory) -> list:
    condition = operands[0]
    if not isinstance(condition, Lanes):
        region = op.regions[0] if condition else op.regions[1]
        return _run_block(interp, region.blocks[0], [], frame, memory) if region.blocks else []
    mask = condition.array.astype(bool)
    branches = []
    for region, taken in ((op.regions[0], mask), (op.regions[1], ~mask)):
        if not taken.any() or not region.blocks:
            branches.append((taken, None))
            continue
        child = frame.subset(taken)
        branches.append((taken, _run_block(interp, region.blocks[0], [], child, memory)))
    return merge_branches(frame, [value.type for value in op.results], branches)


def merge_branches(frame: LaneFrame, types: list[Type], branches: list[tuple]) -> list:
    """The values of `types` each lane gets from the branch it took: `branches` holds
    (the lanes that took it, a mask; their values, or None when no lane did)."""
    results = []
    for k, type_ in enumerate(types):
        merged = None
        for taken, values in branches:
            if values is None:
                continue
            part = np.broadcast_to(lane_array(values[k], type_),
                                   (int(taken.sum()),) + vector_shape(type_))
            if merged is None:
                merged = np.empty((frame.count,) + vector_shape(type_), part.dtype)
            merged[taken] = part
        results.append(Lanes(merged))
    return results


def vector_shape(type_: Type) -> tuple:
    return tuple(type_.shape) if isinstance(type_, VectorType) else ()


def _parallel(interp, op, operands, frame: LaneFrame, memory: LaneMemory) -> list:
    """A nested parallel loop without reductions: its points in row-major order."""
    points = _loop_points(op, operands)
    if op.results or points is None or (points and points[0].size > interp.max_branches):
        raise NotInLockStep()
    block = op.regions[0].blocks[0]
    for k in range(points[0].size if points else 1):
        _run_block(interp, block, [int(p[k]) for p in points], frame, memory)
    return []


_CONTROL = {ForOp: _for, IfOp: _if, ParallelOp: _parallel}

# The ops that end a loop body: what the body hands back.
_BODY_ENDS = (YieldOp, ReduceOp, ReduceReturnOp)


# ------------------------------------------------------------------ lane ops

def _lanes(values: list, op: Operation) -> list[np.ndarray]:
    return [lane_array(v, o.type) for v, o in zip(values, op.operands)]


def _result(array, op: Operation) -> list:
    return [Lanes(np.asarray(array, _dtype(op.results[0].type)))]


def _divsi(a, b):
    if np.any(b == 0):
        raise NotInLockStep()
    info = np.iinfo(a.dtype)
    if np.any((a == info.min) & (b == -1)):
        raise NotInLockStep()
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def _remsi(a, b):
    return a - _divsi(a, b) * b


def _floordivsi(a, b):
    q = _divsi(a, b)
    return np.where(((a - q * b) != 0) & ((a < 0) != (b < 0)), q - 1, q)


def _ceildivsi(a, b):
    q = _divsi(a, b)
    return np.where(((a - q * b) != 0) & ((a < 0) == (b < 0)), q + 1, q)


def _fma(op, a, b, c):
    dtype = _dtype(op.results[0].type)
    if dtype == np.dtype(np.float64):
        raise NotInLockStep()  # the product is not exact in f64
    return (a.astype(np.float64) * b + c).astype(dtype)


_CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
        "gt": np.greater, "ge": np.greater_equal}


def _cmpi(op, a, b):
    predicate = cmpi_predicate(op)
    if predicate in ("eq", "ne"):
        return _CMP[predicate](a, b)
    if predicate[0] == "u":
        unsigned = np.dtype(f"uint{a.dtype.itemsize * 8}") if a.dtype != np.bool_ else np.bool_
        a, b = a.astype(unsigned), b.astype(unsigned)
    elif a.dtype == np.bool_:
        a, b = -a.astype(np.int8), -b.astype(np.int8)  # i1 true is -1, signed
    return _CMP[predicate[1:]](a, b)


def _cmpf(op, a, b):
    predicate = cmpf_predicate(op)
    unordered = np.isnan(a) | np.isnan(b)
    if predicate in ("false", "true"):
        return np.full(np.broadcast(a, b).shape, predicate == "true")
    if predicate == "ord":
        return ~unordered
    if predicate == "uno":
        return unordered
    relation = _CMP[predicate[1:]](a, b)
    return (relation | unordered) if predicate[0] == "u" else (relation & ~unordered)


def _select(op, condition, a, b):
    if condition.ndim and not isinstance(op.operands[0].type, VectorType) and a.ndim > 1:
        condition = condition.reshape(condition.shape + (1,) * (a.ndim - 1))
    return np.where(condition, a, b)


def _index_cast(op, a):
    target = _dtype(op.results[0].type)
    return a.astype(target) if target != np.bool_ else (a & 1).astype(np.bool_)


def _extsi(op, a):
    if a.dtype == np.bool_:
        return -a.astype(_dtype(op.results[0].type))
    return a.astype(_dtype(op.results[0].type))


def _sitofp(op, a):
    if a.dtype == np.bool_:
        a = -a.astype(np.int64)
    return a.astype(_dtype(op.results[0].type))


def _fptosi(op, a):
    target = _dtype(op.results[0].type)
    if target == np.bool_ or not np.all(np.isfinite(a)):
        raise NotInLockStep()
    truncated = np.trunc(a.astype(np.float64))
    info = np.iinfo(target)
    if np.any((truncated < info.min) | (truncated > info.max)):
        raise NotInLockStep()
    return truncated.astype(target)


def _cast_to_result(op, a):
    return a.astype(_dtype(op.results[0].type))


def _truncf(op, a):
    if "roundingmode" in op.attributes:
        raise NotInLockStep()
    return a.astype(_dtype(op.results[0].type))


def _int_op(fn):
    def apply(op, a, b):
        if a.dtype == np.bool_ or b.dtype == np.bool_:
            raise NotInLockStep()
        return fn(a, b)
    return apply


_ELEMENTWISE = {
    A.AddFOp: lambda op, a, b: a + b, A.SubFOp: lambda op, a, b: a - b,
    A.MulFOp: lambda op, a, b: a * b, A.DivFOp: lambda op, a, b: a / b,
    A.MaximumFOp: lambda op, a, b: np.maximum(a, b),
    A.MinimumFOp: lambda op, a, b: np.minimum(a, b),
    A.NegFOp: lambda op, a: -a,
    A.AddIOp: _int_op(lambda a, b: a + b), A.SubIOp: _int_op(lambda a, b: a - b),
    A.MulIOp: _int_op(lambda a, b: a * b),
    A.AndIOp: lambda op, a, b: a & b, A.OrIOp: lambda op, a, b: a | b,
    A.XOrIOp: lambda op, a, b: a ^ b,
    A.DivSIOp: _int_op(_divsi), A.RemSIOp: _int_op(_remsi),
    A.FloorDivSIOp: _int_op(_floordivsi), A.CeilDivSIOp: _int_op(_ceildivsi),
    A.MaxSIOp: _int_op(np.maximum), A.MinSIOp: _int_op(np.minimum),
    A.CmpIOp: _cmpi, A.CmpFOp: _cmpf, A.SelectOp: _select,
    casts.IndexCastOp: _index_cast, casts.TruncIOp: _index_cast, casts.ExtSIOp: _extsi,
    casts.SIToFPOp: _sitofp, casts.FPToSIOp: _fptosi, casts.ExtFOp: _cast_to_result,
    casts.TruncFOp: _truncf, FmaOp: _fma, FMAOp: _fma,
}


def _broadcast(op, operands, frame, memory):
    source = operands[0]
    shape = vector_shape(op.results[0].type)
    array = lane_array(source, op.operands[0].type)
    lead = array.shape[:1] if isinstance(source, Lanes) else ()
    body = array.shape[1:] if lead else array.shape
    array = array.reshape(lead + (1,) * (len(shape) - len(body)) + body)
    return [Lanes(np.ascontiguousarray(np.broadcast_to(array, lead + shape)))]


def _extract(op, operands, frame, memory):
    position = tuple(op.attributes["static_position"].values)
    if len(op.operands) != 1 or any(p < 0 for p in position):  # an index value, or poison
        raise NotInLockStep()
    array = operands[0].array
    return [Lanes(array[(slice(None), *position)])]


def _load(op, operands, frame, memory):
    buffer, *indices = operands
    if not isinstance(buffer, np.ndarray):
        raise NotInLockStep()
    shape = vector_shape(op.results[0].type)
    indices = [v.array if isinstance(v, Lanes) else v for v in indices]
    array = memory.load(buffer, indices, shape, frame.ids)
    dtype = _dtype(op.results[0].type)
    if array.dtype != dtype:
        raise NotInLockStep()
    return [Lanes(np.array(array))]


def _store(op, operands, frame, memory):
    value, buffer, *indices = operands
    if not isinstance(buffer, np.ndarray):
        raise NotInLockStep()
    shape = vector_shape(op.operands[0].type)
    indices = [v.array if isinstance(v, Lanes) else v for v in indices]
    array = lane_array(value, op.operands[0].type)
    if array.dtype != buffer.dtype:
        raise NotInLockStep()
    memory.store(buffer, indices, shape, frame.ids, array)
    return []


_EXACT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # by op, while it lives


def _exact_in_numpy(op: Operation) -> bool:
    """Whether numpy computes the op as the scalar path does: no overflow flags (whose
    poison numpy does not see), no fast-math flag making NaN or infinity undefined."""
    found = _EXACT.get(op)
    if found is None:
        found = _EXACT[op] = not overflow_flags(op) and {"contract", "none"}.issuperset(
            flag_names(op.attributes.get("fastmath")))
    return found


def _lane_op(fn):
    def handler(op, operands, frame, memory):
        arrays = []
        for value, operand in zip(operands, op.operands):
            array = lane_array(value, operand.type)
            arrays.append(array)
        return _result(fn(op, *arrays), op)
    return handler


_LANE_OPS = {op_class: _lane_op(fn) for op_class, fn in _ELEMENTWISE.items()}
_LANE_OPS.update({BroadcastOp: _broadcast, ExtractOp: _extract,
                  M.LoadOp: _load, M.StoreOp: _store,
                  vector_memory.LoadOp: _load, vector_memory.StoreOp: _store})
_EFFECTS = frozenset({M.LoadOp, M.StoreOp, vector_memory.LoadOp, vector_memory.StoreOp})

