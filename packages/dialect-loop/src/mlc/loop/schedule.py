"""Schedules: TVM's `tir.Schedule` on loop kernels, recorded in a replayable trace.

    from mlc.loop.schedule import Schedule

    sch = Schedule(module)                       # works on a copy of `module`
    block_Y = sch.get_block("Y", func_name="mm_relu")
    i, j, k = sch.get_loops(block_Y)
    j0, j1 = sch.split(j, factors=[None, 4])
    sch.reorder(j0, k, j1)
    sch.reverse_compute_at(sch.get_block("C", func_name="mm_relu"), j0)
    sch.decompose_reduction(block_Y, k)
    print(sch.trace)                              # the primitives, as Python
    sch.mod                                       # the transformed module

Primitives take and return handles (`BlockRV`, `LoopRV`) that name blocks and loops
of the schedule's module. Each checks its preconditions first and, when one fails,
raises :class:`ScheduleError` at the loop or block (the IR is left unchanged); every
primitive that succeeds is appended to `trace`, which prints as Python, converts to
and from JSON data, and replays on a fresh copy of the original module
(:meth:`Trace.apply`). Sampling primitives draw from a generator seeded by the
schedule's `seed` and record their decision, so a replay makes the same choices.

All changes go through the core's :class:`~mlc.ir.rewrite.rewriter.Rewriter`.
"""

from __future__ import annotations

import inspect
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mlc.ir.core.affine_expr import AffineExpr, constant, dim
from mlc.ir.core.affine_map import AffineMap, AffineMapAttr
from mlc.ir.core.attributes import Attribute, FloatAttr, IntegerAttr, StringAttr, f64, i1, i64
from mlc.ir.core.ir import Block, Operation, Value
from mlc.ir.diagnostics import Diagnostic, DiagnosticError
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.loop.ops import AllocBufferOp, BlockOp, ForOp, LoadOp, StoreOp

__all__ = ["BlockRV", "LoopRV", "Schedule", "ScheduleError", "Trace", "Instruction"]


class ScheduleError(DiagnosticError):
    """A primitive refused: its message says why, located at the loop or block."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(Diagnostic("error", message, op.loc if op is not None else None))


class _RV:
    __slots__ = ("name",)
    prefix = "v"

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


class BlockRV(_RV):
    """A handle on a block of the schedule's module."""

    __slots__ = ()
    prefix = "b"


class LoopRV(_RV):
    """A handle on a loop of the schedule's module."""

    __slots__ = ()
    prefix = "l"


# ------------------------------------------------------------------ the trace


@dataclass
class Instruction:
    """One primitive applied: its name, its inputs (handles or plain values), its
    attributes, its outputs (handles, or the decision of a sampling primitive)."""

    kind: str
    inputs: list[Any]
    attrs: dict[str, Any]
    outputs: list[Any]


@dataclass
class Trace:
    """The primitives a schedule applied, in order."""

    instructions: list[Instruction] = field(default_factory=list)

    def as_python(self) -> str:
        """The trace as the Python that replays it (TVM's `sch.trace` form)."""
        lines = []
        for inst in self.instructions:
            names = _parameter_names(inst.kind)
            arguments = [f"{names[n]}={_python_value(v)}" if n < len(names) and
                         not names[n].startswith("*") else _python_value(v)
                         for n, v in enumerate(inst.inputs)]
            arguments += [f"{key}={_python_value(value)}" for key, value in inst.attrs.items()]
            call = f"sch.{inst.kind}({', '.join(arguments)})"
            if inst.outputs and all(isinstance(o, _RV) for o in inst.outputs):
                targets = ", ".join(o.name for o in inst.outputs)
                if inst.kind in ("get_loops", "split", "get_child_blocks") and \
                        len(inst.outputs) == 1:
                    targets += ","
                lines.append(f"{targets} = {call}")
            elif inst.outputs:
                lines.append(f"v = {call}  # decision: {_python_value(inst.outputs)}")
            else:
                lines.append(call)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.as_python()

    def as_json(self) -> list:
        """The trace as JSON data: one `[kind, inputs, attrs, outputs]` per primitive,
        handles written as their names."""
        return [[inst.kind, [_json_value(v) for v in inst.inputs],
                 {k: _json_value(v) for k, v in inst.attrs.items()},
                 [_json_value(v) for v in inst.outputs]] for inst in self.instructions]

    def dumps(self) -> str:
        return json.dumps(self.as_json(), indent=1)

    @staticmethod
    def from_json(data: list) -> Trace:
        """The trace `as_json` wrote (a ValueError when `data` is not one)."""
        if not isinstance(data, list):
            raise ValueError("a trace is a JSON list of [kind, inputs, attrs, outputs]")
        instructions = []
        for n, entry in enumerate(data):
            if not (isinstance(entry, list) and len(entry) == 4 and isinstance(entry[0], str)
                    and isinstance(entry[1], list) and isinstance(entry[2], dict)
                    and isinstance(entry[3], list)):
                raise ValueError(f"trace entry #{n} is not [kind, inputs, attrs, outputs]")
            kind, inputs, attrs, outputs = entry
            if kind not in _PRIMITIVES:
                raise ValueError(f"trace entry #{n}: unknown primitive '{kind}'")
            instructions.append(Instruction(kind, [_from_json(v) for v in inputs],
                                            {k: _from_json(v) for k, v in attrs.items()},
                                            [_from_json(v) for v in outputs]))
        return Trace(instructions)

    def apply(self, schedule: Schedule) -> None:
        """Replay on `schedule` (whose module is a fresh copy of the one traced): each
        handle of the trace is bound to what the replayed primitive returns, and
        sampling primitives take the recorded decisions."""
        handles: dict[str, Any] = {}

        def resolve(value):
            if isinstance(value, _RV):
                if value.name not in handles:
                    raise ValueError(f"the trace uses {value.name} before defining it")
                return handles[value.name]
            if isinstance(value, list):
                return [resolve(v) for v in value]
            return value

        for inst in self.instructions:
            method = getattr(schedule, inst.kind)
            inputs = [resolve(v) for v in inst.inputs]
            attrs = {k: resolve(v) for k, v in inst.attrs.items()}
            if inst.kind in _SAMPLING:
                attrs["decision"] = inst.outputs
            result = method(*inputs, **attrs)
            outputs = result if isinstance(result, list) else \
                ([] if result is None else [result])
            for recorded, new in zip(inst.outputs, outputs):
                if isinstance(recorded, _RV):
                    handles[recorded.name] = new


def _parameter_names(kind: str) -> list[str]:
    """The primitive's parameter names, `*name` for a variadic one."""
    signature = inspect.signature(_PRIMITIVE_DEFINITIONS[kind])
    return [("*" if p.kind is p.VAR_POSITIONAL else "") + p.name
            for p in list(signature.parameters.values())[1:]]


def _python_value(value) -> str:
    if isinstance(value, _RV):
        return value.name
    if isinstance(value, list):
        return "[" + ", ".join(_python_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def _json_value(value):
    if isinstance(value, _RV):
        return {"rv": value.name}
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    return value


def _from_json(value):
    if isinstance(value, dict) and set(value) == {"rv"}:
        name = value["rv"]
        return (BlockRV if name.startswith("b") else LoopRV)(name)
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


_PRIMITIVES: dict[str, Callable] = {}
_PRIMITIVE_DEFINITIONS: dict[str, Callable] = {}
_SAMPLING = {"sample_perfect_tile", "sample_categorical"}


def _primitive(method: Callable) -> Callable:
    """Record a successful call of `method` in the trace (inputs positional, options as
    attributes); the handles it returns are its outputs."""
    name = method.__name__

    def recorded(self: Schedule, *args, **kwargs):
        if self._replaying:
            return method(self, *args, **kwargs)
        self._replaying = True
        try:
            result = method(self, *args, **kwargs)
        finally:
            self._replaying = False
        outputs = result if isinstance(result, list) else ([] if result is None else [result])
        kwargs.pop("decision", None)
        self.trace.instructions.append(Instruction(name, list(args), dict(kwargs),
                                                   list(outputs)))
        return result

    recorded.__name__ = name
    recorded.__doc__ = method.__doc__
    _PRIMITIVES[name] = recorded
    _PRIMITIVE_DEFINITIONS[name] = method
    return recorded


# ------------------------------------------------------------------ the schedule


class Schedule:
    """Primitives on a copy of `module` (see the module docstring); with `copy=False`
    on `module` itself (what a pass does)."""

    def __init__(self, module: Operation, seed: int = 0, copy: bool = True):
        self.mod = module.clone() if copy else module
        self.trace = Trace()
        self.seed = seed
        self._random = random.Random(seed)
        self._handles: dict[str, Operation] = {}
        self._count = 0
        self._replaying = False
        self._rewriter = Rewriter()

    # ------------------------------------------------------------- handles

    def _new(self, kind: type, op: Operation):
        handle = kind(f"{kind.prefix}{self._count}")
        self._count += 1
        self._handles[handle.name] = op
        return handle

    def get(self, handle: BlockRV | LoopRV) -> Operation:
        """The block or loop op a handle names now."""
        op = self._handles.get(getattr(handle, "name", None))
        if op is None:
            raise ScheduleError(f"{handle!r} is not a handle of this schedule", self.mod)
        if op.parent is None:
            raise ScheduleError(f"{handle!r} names a loop or block that a primitive removed",
                                self.mod)
        return op

    def _block(self, handle: BlockRV) -> BlockOp:
        op = self.get(handle) if isinstance(handle, _RV) else None
        if not isinstance(op, BlockOp):
            raise ScheduleError(f"expected a block handle, got {handle!r}"
                                + (" (a loop)" if op is not None else ""), op or self.mod)
        return op

    def _loop(self, handle: LoopRV) -> ForOp:
        op = self.get(handle) if isinstance(handle, _RV) else None
        if not isinstance(op, ForOp):
            raise ScheduleError(f"expected a loop handle, got {handle!r}"
                                + (" (a block)" if op is not None else ""), op or self.mod)
        return op

    def _retarget(self, old: Operation, new: Operation) -> None:
        for name, op in self._handles.items():
            if op is old:
                self._handles[name] = new

    # ------------------------------------------------------------- queries

    @_primitive
    def get_block(self, name: str, func_name: str = "main") -> BlockRV:
        """The block called `name` in function `func_name`."""
        if not isinstance(name, str) or not isinstance(func_name, str):
            raise ScheduleError("get_block takes a block name and a function name (strings), "
                                f"got {name!r} and {func_name!r}", self.mod)
        func = self._function(func_name)
        found = [op for op in func.walk() if isinstance(op, BlockOp)
                 and op.block_name_str == name]
        if not found:
            raise ScheduleError(f'no block named "{name}" in @{func_name}', func)
        if len(found) > 1:
            raise ScheduleError(f'{len(found)} blocks are named "{name}" in @{func_name}',
                                found[1])
        return self._new(BlockRV, found[0])

    @_primitive
    def get_loops(self, block: BlockRV) -> list[LoopRV]:
        """The loops around `block`, outermost first."""
        return [self._new(LoopRV, loop_op) for loop_op in _loops_around(self._block(block))]

    @_primitive
    def get_child_blocks(self, parent: BlockRV | LoopRV) -> list[BlockRV]:
        """The blocks nested in a loop (or a block), in program order."""
        op = self.get(parent)
        return [self._new(BlockRV, b) for b in op.walk() if isinstance(b, BlockOp)
                and b is not op]

    def _function(self, name: str) -> Operation:
        for op in self.mod.regions[0].blocks[0].ops():
            sym = op.attributes.get("sym_name")
            if op.name == "func.func" and sym is not None and sym.value == name:
                return op
        raise ScheduleError(f"no function named @{name}", self.mod)

    # ------------------------------------------------------------- loop transformations

    @_primitive
    def split(self, loop: LoopRV, factors: Sequence[int | None]) -> list[LoopRV]:
        """Split a loop into nested loops of the given extents, outermost first; one
        factor may be None (inferred). The product must equal the loop's extent."""
        loop_op = self._loop(loop)
        extent = loop_op.extent.value
        factors = list(factors)
        if len(factors) < 2:
            raise ScheduleError("split needs at least two factors", loop_op)
        unknown = [n for n, f in enumerate(factors) if f is None]
        if len(unknown) > 1:
            raise ScheduleError("at most one split factor may be None", loop_op)
        if any(f is not None and (not isinstance(f, int) or f <= 0) for f in factors):
            raise ScheduleError(f"split factors must be positive integers, got {factors}",
                                loop_op)
        known = math.prod(f for f in factors if f is not None)
        if unknown:
            if extent % known:
                raise ScheduleError(f"the loop's extent {extent} is not divisible by the "
                                    f"factors' product {known}", loop_op)
            factors[unknown[0]] = extent // known
        if math.prod(factors) != extent:
            raise ScheduleError(f"the split factors' product {math.prod(factors)} is not the "
                                f"loop's extent {extent}", loop_op)
        self._require_only_bindings_use(loop_op)
        name = loop_op.induction_variable.name_hint or "i"
        headers = [_Header(f, "serial", {}, f"{name}_{n}") for n, f in enumerate(factors)]
        headers[0].kind, headers[0].annotations = loop_op.loop_kind, loop_op.annotations
        new_loops = self._rebuild_chain([loop_op], headers)
        strides = [math.prod(factors[n + 1:]) for n in range(len(factors))]
        value = sum((dim(n) * s for n, s in enumerate(strides)), constant(0))
        self._substitute(loop_op.induction_variable, [lp.induction_variable for lp in new_loops],
                         value)
        self._erase_chain(loop_op)
        return [self._new(LoopRV, lp) for lp in new_loops]

    @_primitive
    def fuse(self, *loops: LoopRV) -> LoopRV:
        """Fuse consecutive nested loops (each the only child of the one above) into
        one loop over the product of their extents."""
        ops = [self._loop(lp) for lp in loops]
        if len(ops) < 2:
            raise ScheduleError("fuse needs at least two loops", ops[0] if ops else None)
        for outer, inner in zip(ops, ops[1:]):
            if _only_child(outer) is not inner:
                raise ScheduleError("the loops to fuse must be nested directly, each the "
                                    "only child of the one before", inner)
        for op in ops:
            self._require_only_bindings_use(op)
        extents = [op.extent.value for op in ops]
        kinds = {op.loop_kind for op in ops}
        name = "_".join((op.induction_variable.name_hint or "i") for op in ops) + "_fused"
        header = _Header(math.prod(extents), kinds.pop() if len(kinds) == 1 else "serial", {},
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

    @_primitive
    def reorder(self, *loops: LoopRV) -> None:
        """Put the loops in the given order (outermost first). They must lie on one
        chain of directly nested loops; loops of the chain not listed keep their
        places."""
        ops = [self._loop(lp) for lp in loops]
        if len(set(map(id, ops))) != len(ops):
            raise ScheduleError("reorder got the same loop twice", ops[0])
        depth = {id(op): len(_loops_around_op(op)) for op in ops}
        top = min(ops, key=lambda op: depth[id(op)])
        bottom = max(ops, key=lambda op: depth[id(op)])
        stray = next((op for op in ops if not top.is_ancestor_of(op)), None)
        if stray is not None:
            raise ScheduleError("the loops to reorder are not on one chain of nested loops",
                                stray)
        chain = [top]
        while chain[-1] is not bottom:
            child = _only_child(chain[-1])
            if not isinstance(child, ForOp):
                raise ScheduleError("the loops to reorder must be directly nested, each the "
                                    "only child of the one above (another op sits between "
                                    "them)", chain[-1])
            chain.append(child)
        if any(op not in chain for op in ops):
            stray = next(op for op in ops if op not in chain)
            raise ScheduleError("the loops to reorder are not on one chain of nested loops",
                                stray)
        order = iter(ops)
        permuted = [next(order) if op in ops else op for op in chain]
        headers = [_Header.of(op) for op in permuted]
        new_loops = self._rebuild_chain(chain, headers)
        for old, new in zip(permuted, new_loops):
            self._rewriter.replace_all_uses_with(old.induction_variable, new.induction_variable)
            self._retarget(old, new)
        self._erase_chain(chain[0])

    @_primitive
    def parallel(self, loop: LoopRV) -> None:
        """Run the loop's iterations on threads."""
        self._set_kind(loop, "parallel")

    @_primitive
    def vectorize(self, loop: LoopRV) -> None:
        """Run the loop's iterations as SIMD lanes."""
        self._set_kind(loop, "vectorized")

    @_primitive
    def unroll(self, loop: LoopRV) -> None:
        """Unroll the loop."""
        self._set_kind(loop, "unrolled")

    def _set_kind(self, loop: LoopRV, kind: str) -> None:
        loop_op = self._loop(loop)
        if kind in ("parallel", "vectorized"):
            for block in _blocks_in(loop_op):
                for position in _positions_bound_to(block, loop_op.induction_variable):
                    if block.kinds[position] == "R":
                        raise ScheduleError(
                            f'cannot make the loop {kind}: it is bound to reduce iteration '
                            f'variable #{position} of block "{block.block_name_str}"', loop_op)
        with self._rewriter.modify_op_in_place(loop_op):
            if kind == "serial":
                loop_op.attributes.pop("kind", None)
            else:
                loop_op.attributes["kind"] = StringAttr(kind)

    @_primitive
    def annotate(self, target: BlockRV | LoopRV, key: str, value: Any) -> None:
        """Attach `key = value` to a loop or block (ints, floats, strings, bools)."""
        op = self.get(target)
        if key in op.op_def.attributes:
            raise ScheduleError(f"'{key}' is not an annotation but the op's own attribute", op)
        with self._rewriter.modify_op_in_place(op):
            op.attributes[key] = _attribute(value)

    # ------------------------------------------------------------- block movement

    @_primitive
    def reverse_compute_at(self, block: BlockRV, loop: LoopRV) -> None:
        """Move a consumer block under `loop`, after the blocks there that produce what
        it reads, computing just the part they produce in each iteration."""
        self._compute_at(block, loop, reverse=True)

    @_primitive
    def compute_at(self, block: BlockRV, loop: LoopRV) -> None:
        """Move a producer block under `loop`, before the blocks there that read what
        it writes, computing just the part they read in each iteration."""
        self._compute_at(block, loop, reverse=False)

    def _compute_at(self, block_rv: BlockRV, loop_rv: LoopRV, reverse: bool) -> None:
        block, loop_op = self._block(block_rv), self._loop(loop_rv)
        what = "reverse_compute_at" if reverse else "compute_at"
        if loop_op.is_ancestor_of(block):
            raise ScheduleError(f"{what}: the block is already under the loop", block)
        subtree = _exclusive_subtree(block)
        if subtree.parent is None or subtree.parent is not _scope_block(loop_op, subtree):
            raise ScheduleError(f"{what}: the block and the loop are not in the same scope",
                                block)
        block_reads, block_writes = block.accesses()
        others = _blocks_in(loop_op)
        if reverse:
            buffers = {a.buffer for a in block_reads}
            related = [b for b in others if any(w.buffer in buffers for w in b.accesses()[1])]
            if not related:
                raise ScheduleError("reverse_compute_at: no block under the loop writes a "
                                    "buffer the block reads", block)
            if _position(subtree) < _position(_top_under(loop_op, subtree.parent)):
                raise ScheduleError("reverse_compute_at: the block comes before the loop's "
                                    "producers", block)
        else:
            buffers = {a.buffer for a in block_writes}
            related = [b for b in others if any(r.buffer in buffers for r in b.accesses()[0])]
            if not related:
                raise ScheduleError("compute_at: no block under the loop reads a buffer the "
                                    "block writes", block)
            if _position(subtree) > _position(_top_under(loop_op, subtree.parent)):
                raise ScheduleError("compute_at: the block comes after the loop's consumers",
                                    block)
        outer = _loops_around_op(loop_op) + [loop_op]
        outer_vars = [lp.induction_variable for lp in outer]
        for other in related:
            for position in (n for n, kind in enumerate(other.kinds) if kind == "R"):
                if any(v in outer_vars for v in _variables_of(other, position)):
                    raise ScheduleError(
                        f'{what}: block "{other.block_name_str}" reduces over a loop outside '
                        "the target loop, so its result is not complete within one iteration",
                        other)
        ranges = self._required_ranges(block, outer, related, reverse)
        self._place(block, subtree, loop_op, outer, ranges, at_end=reverse)

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
                    region = _region_over(other, access, outer_vars)
                    if region is None:
                        raise ScheduleError("cannot compute the region the loop's blocks "
                                            "access (an index is not affine in the loops)",
                                            other)
                    for axis, (index, (start, extent)) in enumerate(zip(own.indices, region)):
                        position = _plain_variable(index)
                        if position is None:
                            raise ScheduleError(
                                f"the block's index {axis} of the buffer is not a plain "
                                "iteration variable, so its range cannot be derived", block)
                        previous = covered.get(position)
                        if previous is not None and previous != (start, extent):
                            start, extent = _union(previous, (start, extent), block)
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
        range is longer than 1, bound to start + loop variable; erase its old loops."""
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
        if container_loops:
            rewriter.set_insertion_point_to_end(container_loops[-1].body_block)
        else:
            rewriter.set_insertion_point_to_end(body) if at_end else \
                rewriter.set_insertion_point_to_start(body)
        rewriter.move_op_before(block, rewriter.block, rewriter.before)
        with rewriter.modify_op_in_place(block):
            block.set_operands(operands)
            block.attributes["binding_map"] = AffineMapAttr(new_map)
            _drop_unused_bindings(block)
        if subtree is not block:
            rewriter.erase_op(subtree)

    # ------------------------------------------------------------- blocks

    @_primitive
    def decompose_reduction(self, block: BlockRV, loop: LoopRV) -> BlockRV:
        """Move a reduction block's init into its own block `<name>_init`, placed just
        before `loop`, under copies (`<loop>_init`) of the loops from `loop` down that
        bind the block's spatial variables. The block becomes `<name>_update`."""
        block_op, loop_op = self._block(block), self._loop(loop)
        init = block_op.init
        if init is None:
            raise ScheduleError(f'block "{block_op.block_name_str}" has no init to decompose',
                                block_op)
        if not loop_op.is_ancestor_of(block_op):
            raise ScheduleError("decompose_reduction: the loop is not around the block",
                                loop_op)
        loops = _loops_around(block_op)
        below = loops[loops.index(loop_op):]
        above = loops[:loops.index(loop_op)]
        binding_map = block_op.binding_map.value
        operand_loops = [_loop_of(v) for v in block_op.bindings]
        for position, expr in enumerate(binding_map.results):
            if block_op.kinds[position] != "R":
                continue
            for d, owner in enumerate(operand_loops):
                if expr.is_function_of_dim(d) and owner in above:
                    raise ScheduleError(
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
        _drop_unused_bindings(init_block)
        rewriter.erase_op(init)
        with rewriter.modify_op_in_place(block_op):
            block_op.attributes["block_name"] = StringAttr(name + "_update")
        return self._new(BlockRV, init_block)

    @_primitive
    def compute_inline(self, block: BlockRV) -> None:
        """Inline a block that computes one element of a buffer per iteration (a spatial
        block with a single store) into the blocks reading that buffer, and remove it."""
        block_op = self._block(block)
        name = block_op.block_name_str
        if "R" in block_op.kinds:
            raise ScheduleError(f'cannot inline block "{name}": it is a reduction', block_op)
        stores = [op for op in block_op.walk_nested() if isinstance(op, StoreOp)]
        if len(stores) != 1 or stores[0].parent is not block_op.body_block:
            raise ScheduleError(f'cannot inline block "{name}": it must store exactly one '
                                'element, at its top level', block_op)
        store = stores[0]
        indices = store.index_exprs_over(block_op)
        positions = [_plain_variable(e) if e is not None else None for e in indices]
        if None in positions or sorted(positions) != list(range(len(block_op.kinds))):
            raise ScheduleError(f'cannot inline block "{name}": its store must index the '
                                'buffer by each iteration variable once', block_op)
        buffer = store.memref
        if not isinstance(buffer.owner, AllocBufferOp):
            raise ScheduleError(f'cannot inline block "{name}": it writes a buffer the kernel '
                                'does not allocate (an argument, an output)', block_op)
        for op in block_op.walk_nested():
            if op is store:
                continue
            for operand in op.operands:
                if operand in block_op.iteration_variables and not isinstance(op, LoadOp):
                    raise ScheduleError(f'cannot inline block "{name}": it uses an '
                                        'iteration variable as a value', op)
        readers = [op for op in buffer.users if isinstance(op, LoadOp)]
        writers = [op for op in buffer.users if isinstance(op, StoreOp) and op is not store]
        if writers:
            raise ScheduleError(f'cannot inline block "{name}": another block writes its '
                                'buffer too', writers[0])
        if any(load.attributes.get("padding") is not None for load in readers):
            raise ScheduleError(f'cannot inline block "{name}": a padded read of its buffer',
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
        rewriter.erase_op(_exclusive_subtree(block_op))
        if not buffer.uses:
            rewriter.erase_op(buffer.owner)

    @_primitive
    def reverse_compute_inline(self, block: BlockRV) -> None:
        """Inline a block into the producer of the one buffer it reads from a kernel
        allocation: the producer stores the block's result straight into the block's
        output, and the block and the intermediate buffer disappear."""
        consumer = self._block(block)
        name = consumer.block_name_str
        if "R" in consumer.kinds:
            raise ScheduleError(f'cannot reverse-inline block "{name}": it is a reduction',
                                consumer)
        loads = [op for op in consumer.walk_nested() if isinstance(op, LoadOp)
                 and isinstance(op.memref.owner, AllocBufferOp)]
        stores = [op for op in consumer.walk_nested() if isinstance(op, StoreOp)]
        if len(loads) != 1 or len(stores) != 1 or loads[0].parent is not consumer.body_block \
                or stores[0].parent is not consumer.body_block:
            raise ScheduleError(f'cannot reverse-inline block "{name}": it must read one '
                                'allocated buffer once and store one element, at its top level',
                                consumer)
        load = loads[0]
        positions = [_plain_variable(e) for e in load.index_exprs_over(consumer)]
        if None in positions or sorted(positions) != list(range(len(consumer.kinds))):
            raise ScheduleError(f'cannot reverse-inline block "{name}": it must read the '
                                'buffer by each iteration variable once', consumer)
        for op in consumer.walk_nested():
            if not isinstance(op, (LoadOp, StoreOp)) and \
                    any(v in consumer.iteration_variables for v in op.operands):
                raise ScheduleError(f'cannot reverse-inline block "{name}": it uses an '
                                    'iteration variable as a value', op)
        buffer = load.memref
        producers = [op for op in buffer.users if isinstance(op, StoreOp)]
        readers = [op for op in buffer.users if isinstance(op, LoadOp)]
        if len(producers) != 1 or len(readers) != 1:
            raise ScheduleError(f'cannot reverse-inline block "{name}": its input must have '
                                'one producer store and no other reader', consumer)
        producer_store = producers[0]
        producer = _enclosing_block(producer_store)
        if producer is None or "R" in producer.kinds or producer_store.parent is not \
                producer.body_block:
            raise ScheduleError(f'cannot reverse-inline block "{name}": its producer must be '
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
        rewriter.erase_op(_exclusive_subtree(consumer))
        if not buffer.uses:
            rewriter.erase_op(buffer.owner)

    @_primitive
    def cache_read(self, block: BlockRV, read_buffer_index: int, storage_scope: str) -> BlockRV:
        """Copy the block's `read_buffer_index`-th read buffer (in `reads(...)` order)
        into a new buffer in `storage_scope`, by a new block placed before the block's
        loops, and make the block read the copy."""
        return self._cache(block, read_buffer_index, storage_scope, write=False)

    @_primitive
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
            raise ScheduleError(f"{what}: the block {'writes' if write else 'reads'} {count}, "
                                f"there is no #{index}", block)
        if not isinstance(scope, str) or not scope:
            raise ScheduleError(f"{what}: the storage scope must be a name such as 'local'",
                                block)
        buffer = buffers[index]
        buffer_type = buffer.type
        rewriter = self._rewriter
        func = block.parent_op
        while func is not None and func.name != "func.func":
            func = func.parent_op
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
        subtree = _exclusive_subtree(block)
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

    # ------------------------------------------------------------- sampling

    @_primitive
    def sample_perfect_tile(self, loop: LoopRV, n: int, max_innermost_factor: int = 16,
                            decision: list[int] | None = None) -> list[int]:
        """`n` factors whose product is the loop's extent, the innermost at most
        `max_innermost_factor`, drawn uniformly from all such tilings (seeded)."""
        loop_op = self._loop(loop)
        extent = loop_op.extent.value
        tilings = [t for t in _tilings(extent, n) if t[-1] <= max_innermost_factor]
        if decision is not None:
            if list(decision) not in [list(t) for t in tilings]:
                raise ScheduleError(f"the recorded tiling {decision} does not fit the loop "
                                    f"of extent {extent}", loop_op)
            return list(decision)
        if not tilings:
            raise ScheduleError(f"no tiling of {extent} into {n} factors has an innermost "
                                f"factor of at most {max_innermost_factor}", loop_op)
        return list(self._random.choice(tilings))

    @_primitive
    def sample_categorical(self, candidates: list, probs: list[float],
                           decision: list | None = None) -> list:
        """One of `candidates`, drawn with probabilities `probs` (seeded); returned
        as a one-element list."""
        if len(candidates) != len(probs) or not candidates or any(p < 0 for p in probs) \
                or not sum(probs) > 0:
            raise ScheduleError("sample_categorical needs as many non-negative "
                                "probabilities as candidates, not all zero")
        if decision is not None:
            return list(decision)
        return [self._random.choices(candidates, weights=probs)[0]]

    # ------------------------------------------------------------- machinery

    def _require_only_bindings_use(self, loop_op: ForOp) -> None:
        for use in loop_op.induction_variable.uses:
            if not isinstance(use.owner, BlockOp):
                raise ScheduleError(f"the loop variable is used by '{use.owner.name}', not only "
                                    "by block bindings", use.owner)

    def _rebuild_chain(self, chain: list[ForOp], headers: list[_Header]) -> list[ForOp]:
        """New directly nested loops with `headers`, put where `chain[0]` is, holding
        the body of `chain[-1]` (moved). The old loops stay until `_erase_chain`."""
        rewriter = self._rewriter
        rewriter.set_insertion_point_before(chain[0])
        new_loops = []
        for header in headers:
            new_loop = ForOp.create_loop(header.extent, header.kind, header.annotations)
            new_loop.induction_variable.name_hint = header.name
            if new_loops:
                rewriter.set_insertion_point_to_end(new_loops[-1].body_block)
            rewriter.insert(new_loop)
            new_loops.append(new_loop)
        target = new_loops[-1].body_block
        for op in list(chain[-1].body_block.ops()):
            rewriter.move_op_before(op, target, None)
        return new_loops

    def _erase_chain(self, top: ForOp) -> None:
        self._rewriter.erase_op(top)

    def _substitute(self, old: Value, new_vars: list[Value], value: AffineExpr) -> None:
        """Replace loop variable `old` in every block binding by `value`, an affine
        expression of `new_vars` (dimension n is new_vars[n])."""
        for use in list(old.uses):
            block = use.owner
            operands = list(block.bindings)
            binding_map = block.binding_map.value
            for var in new_vars:
                if var not in operands:
                    operands.append(var)
            index_of_old = use.index
            positions = [operands.index(v) for v in new_vars]
            replacement = value.replace_dims_and_symbols([dim(p) for p in positions], [])
            dims = [dim(n) for n in range(len(operands))]
            dims[index_of_old] = replacement
            results = tuple(e.replace_dims_and_symbols(dims[:binding_map.num_dims], [])
                            for e in binding_map.results)
            with self._rewriter.modify_op_in_place(block):
                block.set_operands(operands)
                block.attributes["binding_map"] = AffineMapAttr(
                    AffineMap(len(operands), 0, results))
                _drop_unused_bindings(block)


@dataclass
class _Header:
    """What a loop is apart from its body: extent, kind, annotations, variable name."""

    extent: int
    kind: str
    annotations: dict[str, Attribute]
    name: str

    @staticmethod
    def of(loop_op: ForOp) -> _Header:
        return _Header(loop_op.extent.value, loop_op.loop_kind, loop_op.annotations,
                       loop_op.induction_variable.name_hint or "i")


# ------------------------------------------------------------------ helpers


def _loops_around(block: BlockOp) -> list[ForOp]:
    return _loops_around_op(block)


def _loops_around_op(op: Operation) -> list[ForOp]:
    loops = []
    parent = op.parent_op
    while parent is not None and not parent.name == "func.func":
        if isinstance(parent, ForOp):
            loops.append(parent)
        parent = parent.parent_op
    return loops[::-1]


def _only_child(loop_op: ForOp) -> Operation | None:
    block = loop_op.body_block
    return block.first_op if block.first_op is not None and \
        block.first_op is block.last_op else None


def _blocks_in(op: Operation) -> list[BlockOp]:
    return [b for b in op.walk() if isinstance(b, BlockOp)]


def _positions_bound_to(block: BlockOp, variable: Value) -> list[int]:
    binding_map = block.binding_map.value
    dims = [n for n, v in enumerate(block.bindings) if v is variable]
    return [p for p, e in enumerate(binding_map.results)
            if any(e.is_function_of_dim(d) for d in dims)]


def _variables_of(block: BlockOp, position: int) -> list[Value]:
    """The binding operands iteration variable `position` of `block` depends on."""
    expr = block.binding_map.value.results[position]
    return [v for d, v in enumerate(block.bindings) if expr.is_function_of_dim(d)]


def _loop_of(value: Value) -> ForOp | None:
    owner = getattr(value, "owner", None)
    parent = owner.parent_op if isinstance(owner, Block) else None
    return parent if isinstance(parent, ForOp) else None


def _exclusive_subtree(block: BlockOp) -> Operation:
    """The outermost op around `block` (itself, or a loop) that holds nothing else."""
    top: Operation = block
    while True:
        parent = top.parent_op
        if isinstance(parent, ForOp) and _only_child(parent) is top:
            top = parent
        else:
            return top


def _scope_block(loop_op: ForOp, subtree: Operation) -> Block | None:
    """The block holding both the outermost loop around `loop_op` that is a sibling of
    `subtree`, if any."""
    op: Operation | None = loop_op
    while op is not None:
        if op.parent is subtree.parent:
            return op.parent
        op = op.parent_op
    return None


def _top_under(loop_op: ForOp, block: Block) -> Operation:
    op: Operation = loop_op
    while op.parent is not block:
        op = op.parent_op
    return op


def _position(op: Operation) -> int:
    n, current = 0, op.prev_op
    while current is not None:
        n, current = n + 1, current.prev_op
    return n


def _plain_variable(expr: AffineExpr | None) -> int | None:
    if expr is not None and expr.kind.name == "DIM":
        return expr.position
    return None


def _enclosing_block(op: Operation) -> BlockOp | None:
    parent = op.parent_op
    while parent is not None and not isinstance(parent, BlockOp):
        parent = parent.parent_op
    return parent


def _variable_expr(value: Value, block: BlockOp, variable_exprs: list, op: Operation
                   ) -> AffineExpr:
    if value not in block.iteration_variables:
        raise ScheduleError("an index of the inlined block is not an iteration variable", op)
    return variable_exprs[block.iteration_variables.index(value)]


def _copy_nest(name: str, source: Value, target: Value) -> ForOp:
    """Loops over `target`'s shape around a block copying `source` into it."""
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
    return loops[0]


def _region_over(block: BlockOp, access, outer_vars: list[Value]
                 ) -> list[tuple[AffineExpr, int]] | None:
    """The part of `access`'s buffer that `block` touches while the loops of
    `outer_vars` stay fixed, per axis (start as an affine expression of `outer_vars`, extent), or
    None where an index is not a sum of multiples of loop variables."""
    binding_map = block.binding_map.value
    loops = [_loop_of(v) for v in block.bindings]
    region = []
    for index in access.indices:
        if index is None:
            return None
        composed = index.replace_dims_and_symbols(list(binding_map.results), [])
        terms = _linear_terms(composed)
        if terms is None:
            return None
        coefficients, offset = terms
        start = constant(offset)
        low = high = 0
        for d, c in coefficients.items():
            variable = block.bindings[d]
            if variable in outer_vars:
                start = start + dim(outer_vars.index(variable)) * c
            else:
                extent = loops[d].extent.value if loops[d] is not None else None
                if extent is None:
                    return None
                low += min(0, c * (extent - 1))
                high += max(0, c * (extent - 1))
        region.append((start + low, high - low + 1))
    return region


def _linear_terms(expr: AffineExpr) -> tuple[dict[int, int], int] | None:
    """`expr` as {dimension: coefficient} plus a constant, when it is such a sum."""
    kind = expr.kind.name
    if kind == "DIM":
        return {expr.position: 1}, 0
    if kind == "CONSTANT":
        return {}, expr.value
    if kind == "ADD":
        left, right = _linear_terms(expr.lhs), _linear_terms(expr.rhs)
        if left is None or right is None:
            return None
        merged = dict(left[0])
        for d, c in right[0].items():
            merged[d] = merged.get(d, 0) + c
        return {d: c for d, c in merged.items() if c}, left[1] + right[1]
    if kind == "MUL":
        for factor, other in ((expr.rhs, expr.lhs), (expr.lhs, expr.rhs)):
            if factor.kind.name == "CONSTANT":
                inner = _linear_terms(other)
                if inner is None:
                    return None
                return {d: c * factor.value for d, c in inner[0].items()}, \
                    inner[1] * factor.value
    return None


def _union(a: tuple[AffineExpr, int], b: tuple[AffineExpr, int], block: BlockOp
           ) -> tuple[AffineExpr, int]:
    difference = b[0] - a[0]
    if difference.kind.name != "CONSTANT":
        raise ScheduleError("the blocks under the loop access regions of the buffer whose "
                            "union is not a box", block)
    shift = difference.value
    start = a[0] if shift >= 0 else b[0]
    end = max(shift + b[1], a[1]) if shift >= 0 else max(-shift + a[1], b[1])
    return start, end


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


def _drop_unused_bindings(block: BlockOp) -> None:
    """Remove binding operands the map does not use (and duplicates), so the printed
    bindings name only the loops they depend on."""
    binding_map = block.binding_map.value
    operands = list(block.bindings)
    keep: list[int] = []
    seen: dict[int, int] = {}
    replacement = []
    for d, value in enumerate(operands):
        used = any(e.is_function_of_dim(d) for e in binding_map.results)
        if not used:
            replacement.append(constant(0))
            continue
        key = id(value)
        if key in seen:
            replacement.append(dim(seen[key]))
            continue
        seen[key] = len(keep)
        replacement.append(dim(len(keep)))
        keep.append(d)
    if len(keep) == len(operands):
        return
    results = tuple(e.replace_dims_and_symbols(replacement, []) for e in binding_map.results)
    block.set_operands([operands[d] for d in keep])
    block.attributes["binding_map"] = AffineMapAttr(AffineMap(len(keep), 0, results))


def _tilings(extent: int, n: int) -> list[tuple[int, ...]]:
    if n == 1:
        return [(extent,)]
    found = []
    for factor in range(1, extent + 1):
        if extent % factor == 0:
            found.extend((factor, *rest) for rest in _tilings(extent // factor, n - 1))
    return found


def _attribute(value: Any) -> Attribute:
    if isinstance(value, bool):
        return IntegerAttr(int(value), i1)
    if isinstance(value, int):
        return IntegerAttr(value, i64)
    if isinstance(value, float):
        return FloatAttr.from_value(value, f64)
    if isinstance(value, str):
        return StringAttr(value)
    raise ScheduleError(f"annotations are ints, floats, strings or bools, not {value!r}")

