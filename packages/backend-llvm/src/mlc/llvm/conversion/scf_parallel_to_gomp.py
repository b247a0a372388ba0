"""convert-scf-parallel-to-gomp: each outermost `scf.parallel` runs on the threads of
the OpenMP runtime, through `GOMP_parallel`.

**The route.** MLIR lowers `scf.parallel` with convert-scf-to-openmp to the `omp`
dialect, whose ops LLVM's OpenMPIRBuilder translates to LLVM IR: it outlines each
parallel region into a function and calls the runtime with it. llvmlite has no
OpenMPIRBuilder, and outlining inside the translation to LLVM IR would change IR
outside the rewriter. So the outlining is this pass, a rewrite like any other, and the
runtime call is written directly: `GOMP_parallel(fn, data, num_threads, flags)`, the
entry point gcc emits for `#pragma omp parallel`. libgomp (gcc's runtime) defines it,
and LLVM's libomp exports it too, so either runtime runs the code. What the pass
produces is func/scf/memref/arith with a few llvm ops, lowered by the usual
convert-scf-to-cf and convert-to-llvm (and readable by mlir-opt-22).

**What a loop in `@f` becomes.**

- `@f_parallel_N(%thread: index, %team: index, captured...)`, private with internal
  linkage: the iterations worker `%thread` of a team of `%team` runs. The iteration
  space (several dimensions collapsed into one) is split into contiguous ranges of
  nearly equal size, one per thread in thread order: OpenMP's `schedule(static)`. The
  loop body is moved into an `scf.for` over the thread's range. With the option
  `schedule=dynamic` (loops without reductions), threads instead take chunks of about
  an eighth of a thread's share from the team's counter as they become free
  (`GOMP_loop_dynamic_start`/`_next`: OpenMP's `schedule(dynamic, chunk)`), which
  helps where other jobs preempt threads; static is the default, as OpenMP's, because
  a thread then works on the same part of the data in every parallel loop.
- `@f_parallel_N_omp_fn(%data: !llvm.ptr)`, internal: the function GOMP_parallel runs
  on every thread of the team. It asks the runtime for the thread's number and the
  team's size (`omp_get_thread_num`, `omp_get_num_threads`), reads the captured values
  from `%data` and calls `@f_parallel_N`.
- In `@f`, in place of the loop: the captured values stored into a struct on the stack
  (allocated in the entry block), and the call `GOMP_parallel(@f_parallel_N_omp_fn,
  struct, num-threads, 0)`, which returns once every thread has finished.

**Captured values** are what the body reads from above, in order of first use.
Constants and the addresses of globals (ops without operands or effects) are copied
into the outlined function instead, so that LLVM still sees constant bounds and
strides. A memref keeps `llvm.noalias` in the outlined function when it had it in
`@f` (a `noalias` argument, or a buffer `@f` allocated) and no other captured memref
is a view of the same buffer; where a captured memref's origin is unknown, none has it.
A stack buffer (`memref.alloca` of static shape) used only inside the loop is private
to each thread, as OpenMP's `private` clause: its allocation is copied into the
outlined function. That is what the loop means: its iterations are independent, so
none reads what another wrote there; a buffer compacted to one iteration's box
(`loop-compact-buffers`: a register tile, a row's partial sums) is scratch that every
iteration reuses, and threads sharing it would overwrite each other's.

**Reductions** (`scf.reduce` with values): each thread folds its range in order, its
first iteration's value being the start (a combiner has no known identity), and
stores the partial value and a flag saying it has one into its slot of a small
per-loop array; after the call, `@f` combines the initial value with each thread's
partial value in thread order. With an associative combiner that is the serial
result, up to floating-point reassociation. The slots are as many as `num-threads`
(64 when it is 0, the runtime's default team; a reduction loop then uses at most 64
threads).

**Nesting.** Only the outermost parallel loops are outlined: a parallel loop inside
one (or inside a function this pass outlined) stays, and convert-scf-to-cf makes it a
serial loop in each thread. Every iteration runs on exactly one thread, doing what it
does in the serial loop. An outer loop too short to feed the team (fewer than
`ITERATIONS_PER_THREAD` iterations per thread, its trip count a constant) takes in the
parallel loop that is its whole body, as MLIR's parallel loop collapsing does: a
batch dimension of 1 then does not leave every thread but one idle.

A loop whose captured values or reductions have no LLVM form (a dynamic memref, a
tensor) stays serial, with a remark at the loop saying why; so does one that is not
inside a `func.func`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mlc.ir.core.attributes import (
    ArrayAttr,
    DictionaryAttr,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    SymbolRefAttr,
    Type,
    UnitAttr,
    i1,
    i8,
    i32,
    i64,
)
from mlc.ir.core.ir import Block, Operation, Region, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects import arith, memref, scf
from mlc.ir.dialects.arith.casts import IndexCastOp
from mlc.ir.dialects.builtin import UnrealizedConversionCastOp
from mlc.ir.dialects.func import CallOp, FuncOp, ReturnOp
from mlc.ir.dialects.ub import PoisonOp
from mlc.ir.interfaces.side_effects import own_effects
from mlc.ir.passes.arith.builder import ArithBuilder
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.greedy import apply_patterns_once
from mlc.ir.rewrite.pattern import PatternSet, RewritePattern
from mlc.ir.rewrite.rewriter import PatternRewriter, Rewriter
from mlc.llvm.conversion.builders import LLVMBuilder
from mlc.llvm.conversion.common import LLVMTypeConverter
from mlc.llvm.dialect.constraints import is_llvm_compatible
from mlc.llvm.dialect.ops_control import LLVMFuncOp
from mlc.llvm.dialect.ops_control import ReturnOp as LLVMReturnOp
from mlc.llvm.dialect.ops_values import AddressOfOp, AllocaOp, GEPOp
from mlc.llvm.dialect.types import Linkage, LinkageAttr, LLVMFunctionType, LLVMStructType, ptr, void

__all__ = ["RUNTIME_FUNCTIONS", "DEFAULT_REDUCTION_SLOTS", "ParallelToGOMP"]

RUNTIME_FUNCTIONS: dict[str, LLVMFunctionType] = {
    "GOMP_parallel": LLVMFunctionType(void, (ptr, ptr, i32, i32)),
    "omp_get_thread_num": LLVMFunctionType(i32, ()),
    "omp_get_num_threads": LLVMFunctionType(i32, ()),
    # bool (long start, long end, long incr, long chunk, long *begin, long *end)
    "GOMP_loop_dynamic_start": LLVMFunctionType(i8, (i64, i64, i64, i64, ptr, ptr)),
    "GOMP_loop_dynamic_next": LLVMFunctionType(i8, (ptr, ptr)),
    "GOMP_loop_end_nowait": LLVMFunctionType(void, ()),
}
"""The OpenMP runtime functions the lowered code calls, with their C signatures."""
STATIC_FUNCTIONS = ("GOMP_parallel", "omp_get_thread_num", "omp_get_num_threads")
DYNAMIC_FUNCTIONS = ("GOMP_loop_dynamic_start", "GOMP_loop_dynamic_next",
                     "GOMP_loop_end_nowait")

DEFAULT_REDUCTION_SLOTS = 64
"""Threads a reduction loop can use when `num-threads` is 0 (the runtime decides)."""

ITERATIONS_PER_THREAD = 4
"""Inner parallel loops join the outer one's space while it has fewer iterations than
this many per thread (the static schedule then leaves a thread at most a quarter idle)."""

CHUNKS_PER_THREAD = 8
"""The dynamic schedule's chunk: the iterations over this many times the team, so a
thread that the system preempts holds back at most an eighth of its share."""

ASSUMED_TEAM = 16
"""The team size assumed for collapsing when `num-threads` is 0 (the runtime decides)."""

index = IndexType()
_NOALIAS = "llvm.noalias"
_INTERNAL = LinkageAttr(Linkage.internal)
# Ops whose result is a view of their first operand's buffer.
_VIEW_OPS = frozenset({"memref.subview", "memref.cast", "memref.view", "memref.expand_shape",
                       "memref.collapse_shape", "memref.reinterpret_cast", "memref.transpose"})
_ALLOCATIONS = frozenset({"memref.alloc", "memref.alloca"})


# ------------------------------------------------------------------ analysis


def _is_copyable(op: Operation | None) -> bool:
    """An op the outlined function can compute itself instead of receiving its result:
    no operands, no regions, no effects (constants, `memref.get_global`)."""
    return (op is not None and not op.operands and not op.regions and len(op.results) == 1
            and own_effects(op) == [])


def _values_from_above(loop: Operation) -> tuple[list[Value], list[Operation]]:
    """The values `loop`'s operands and body read from outside it, in order of first
    use: (those passed to the outlined function, the ops copied into it)."""
    captured: dict[Value, None] = {}
    copied: dict[Operation, None] = {}
    for op in loop.walk():
        operands = op.operands if op is not loop else [*loop.lowerBound, *loop.upperBound,
                                                       *loop.step]
        for value in operands:
            if _defined_inside(value, loop):
                continue
            if _is_copyable(value.defining_op):
                copied[value.defining_op] = None
            else:
                captured[value] = None
    return list(captured), list(copied)


def _private_buffers(loop: Operation, captured: Sequence[Value]) -> list[Operation]:
    """The ops outside `loop` that make its private stack buffers (module docstring): a
    static `memref.alloca` whose memory, through views of it alone, is used nowhere but
    in `loop`, and those views."""
    inside = set(loop.walk())
    private: list[Operation] = []
    roots: dict[Operation, None] = {}
    for value in captured:
        op = _viewed(value).defining_op
        if isinstance(op, memref.AllocaOp) and not op.operands:
            roots[op] = None
    for root in roots:
        chain, pending, ok = [root], [root.results[0]], True
        while pending and ok:
            for use in pending.pop().uses:
                owner = use.owner
                if owner in inside:
                    continue
                if owner.name in _VIEW_OPS and len(owner.operands) == 1 \
                        and len(owner.results) == 1:
                    chain.append(owner)
                    pending.append(owner.results[0])
                else:
                    ok = False
                    break
        if ok:
            private.extend(chain)  # each view after the buffer it views
    return private


def _defined_inside(value: Value, loop: Operation) -> bool:
    owner = value.defining_op
    if owner is None:
        block = value.owner  # a block argument
        owner = block.parent.parent if block.parent is not None else None
        if owner is loop:
            return True
    return owner is not None and owner is not loop and loop.is_ancestor_of(owner)


def _viewed(value: Value) -> Value:
    """The memref `value` is a view of, through any number of views (itself if none)."""
    op = value.defining_op
    while op is not None and op.name in _VIEW_OPS and op.operands:
        value = op.operands[0]
        op = value.defining_op
    return value


def _buffer_root(value: Value, entry: Block) -> tuple[str, Value]:
    """Where a memref's storage comes from, through views: ("argument", an argument
    of the function whose entry block is `entry`), ("allocation", result), or
    ("unknown", value) (another op's result, another block's argument)."""
    value = _viewed(value)
    op = value.defining_op
    if op is None:
        return ("argument" if value.owner is entry else "unknown"), value
    return ("allocation" if op.name in _ALLOCATIONS else "unknown"), value


def _noalias_arguments(function: Operation) -> set[Value]:
    attrs = function.attributes.get("arg_attrs")
    if not isinstance(attrs, ArrayAttr):
        return set()
    args = function.regions[0].blocks[0].args
    return {arg for arg, entry in zip(args, attrs)
            if isinstance(entry, DictionaryAttr) and _NOALIAS in dict(entry.entries)}


def _distinct_buffers(captured: Sequence[Value], function: Operation) -> set[Value]:
    """The captured memrefs that no other captured value may alias: each is a noalias
    argument of `function` or a buffer it allocated, and the only captured view of it."""
    memrefs = [v for v in captured if isinstance(v.type, MemRefType)]
    entry = function.regions[0].blocks[0]
    roots = [_buffer_root(v, entry) for v in memrefs]
    if any(kind == "unknown" for kind, _ in roots):
        return set()
    noalias = _noalias_arguments(function)
    counts: dict[Value, int] = {}
    for _, root in roots:
        counts[root] = counts.get(root, 0) + 1
    return {value for value, (kind, root) in zip(memrefs, roots) if counts[root] == 1
            and (kind == "allocation" or root in noalias)}


def _trip_count(loop: scf.ParallelOp) -> int | None:
    """The iterations of `loop` when its bounds and steps are constants, else None."""
    count = 1
    for low, high, step in zip(loop.lowerBound, loop.upperBound, loop.step):
        bounds = (scf.constant_int(low), scf.constant_int(high), scf.constant_int(step))
        if None in bounds or bounds[2] <= 0:
            return None
        count *= max(0, -(-(bounds[1] - bounds[0]) // bounds[2]))
    return count


def _perfect_nest(loop: scf.ParallelOp, enough: int) -> list[scf.ParallelOp]:
    """`loop` and the parallel loops nested in it that run as one space with it
    (MLIR's parallel loop collapsing): an inner loop joins while the space so far has
    fewer than `enough` iterations, if it is the only op of the body above (but its
    `scf.reduce`), neither has reductions and its bounds are defined outside `loop`.
    Collapsing costs a division per iteration and hides the inner loop from LLVM's
    vectoriser, so a space that already feeds every thread stays as it is."""
    nest = [loop]
    iterations = _trip_count(loop)
    while iterations is not None and iterations < enough:
        level = nest[-1]
        ops = list(level.body.ops())
        inner = ops[0]
        if level.initVals or len(ops) != 2 or not isinstance(inner, scf.ParallelOp) \
                or inner.initVals or any(_defined_inside(v, loop) for v in (
                    *inner.lowerBound, *inner.upperBound, *inner.step)):
            break
        nest.append(inner)
        inner_iterations = _trip_count(inner)
        iterations = None if inner_iterations is None else iterations * inner_iterations
    return nest


def _enclosing_function(op: Operation) -> Operation | None:
    parent = op.parent_op
    while parent is not None and not isinstance(parent, FuncOp):
        parent = parent.parent_op
    return parent


def _serial_reason(loop: Operation, converter: LLVMTypeConverter,
                   captured: Sequence[Value]) -> str | None:
    """Why `loop` must stay serial, or None."""
    for value in captured:
        converted = converter.convert_type(value.type)
        if converted is None or len(converted) != 1 or not is_llvm_compatible(converted[0]):
            return f"it reads a value of type {value.type}, which has no LLVM form"
    for value in loop.initVals:
        if not isinstance(value.type, (IntegerType, FloatType, IndexType)):
            return (f"its reduction of {value.type} values cannot be kept per thread (only "
                    "integer, float and index reductions can)")
    return None


# ------------------------------------------------------------------ building


class _Builder(ArithBuilder):
    """ArithBuilder (`op` builds an op and returns its result) with the memref and scf
    ops the lowering writes, all at one location."""

    def emit(self, op_class, *operands, **attrs) -> Operation:
        """An op without results (a store, a terminator)."""
        return self.rewriter.create(op_class, *operands, result_types=[], loc=self.loc,
                                    **attrs)

    def index(self, value: int) -> Value:
        return self.constant(index, value)

    def flag(self, value: bool) -> Value:
        return self.constant(i1, int(value))

    def loop(self, lower: Value, upper: Value, inits: Sequence[Value] = ()) -> scf.ForOp:
        loop = scf.ForOp.create_for(lower, upper, self.index(1), inits)
        loop.loc = self.loc
        self.rewriter.insert(loop)
        return loop

    def if_(self, condition: Value, result_types: Sequence[Type] = ()) -> scf.IfOp:
        op = scf.IfOp.create_if(condition, result_types, with_else=bool(result_types))
        op.loc = self.loc
        self.rewriter.insert(op)
        return op

    def yield_(self, values: Sequence[Value]) -> None:
        self.emit(scf.YieldOp, list(values))


def _combine(build: _Builder, region: Region, accumulated: Value, value: Value) -> Value:
    """A copy of an `scf.reduce` region's combiner applied to (accumulated, value)."""
    block = region.blocks[0]
    mapping: dict[Value, Value] = {block.args[0]: accumulated, block.args[1]: value}
    for op in block.ops():
        if op is block.last_op:
            return mapping.get(op.operands[0], op.operands[0])
        build.rewriter.clone(op, mapping)
    raise AssertionError("a reduction region ends in scf.reduce.return")


def _declare_runtime(module: Operation, rewriter: Rewriter, names: Sequence[str]) -> None:
    """Declare the runtime functions `names` in `module`, after the declarations
    before them (in RUNTIME_FUNCTIONS' order); PassFailure if a symbol of that name is
    something else."""
    body = module.regions[0].blocks[0]
    existing = {op.attributes["sym_name"].value: op for op in body.ops()
                if "sym_name" in op.attributes}
    previous = None
    for name, signature in RUNTIME_FUNCTIONS.items():
        found = existing.get(name)
        if found is not None:
            if not isinstance(found, LLVMFuncOp) or found.type != signature:
                raise PassFailure([Diagnostic(
                    "error", f"@{name} is the OpenMP runtime's function {signature}; the "
                    "module defines another symbol of that name", found.loc)])
            previous = found
            continue
        if name not in names:
            continue
        declaration = LLVMFuncOp.create_function(name, signature, declaration=True)
        declaration.loc = module.loc
        if previous is None:
            rewriter.set_insertion_point_to_start(body)
        else:
            rewriter.set_insertion_point_after(previous)
        previous = rewriter.insert(declaration)


@dataclass
class _Outlining:
    """The names and places of one loop's outlined functions."""

    body_name: str
    thread_name: str
    captured: list[Value]
    copied: list[Operation]
    noalias: set[Value]


class ParallelToGOMP(RewritePattern):
    """An outermost scf.parallel → an outlined function per thread and a call of
    GOMP_parallel (see the module docstring)."""

    root = scf.ParallelOp

    def __init__(self, num_threads: int, remarks: list[Diagnostic], schedule: str = "static"):
        super().__init__()
        self.num_threads = num_threads
        self.schedule = schedule
        self.slots = num_threads or DEFAULT_REDUCTION_SLOTS
        self.remarks = remarks
        self.converter = LLVMTypeConverter()
        self.outlined: set[Operation] = set()
        self.last_outlined: dict[Operation, Operation] = {}
        self.symbols: set[str] = set()
        self.declared: set[str] = set()

    def match_and_rewrite(self, loop, rewriter: PatternRewriter) -> bool:
        parent = loop.parent_op
        while parent is not None:
            if isinstance(parent, scf.ParallelOp) or parent in self.outlined:
                return rewriter.notify_match_failure(loop, "nested in a parallel loop")
            parent = parent.parent_op
        function = _enclosing_function(loop)
        if function is None:
            return self._stay_serial(loop, rewriter, "it is not inside a func.func")
        captured, copied = _values_from_above(loop)
        private = _private_buffers(loop, captured)
        made_here = {result for op in private for result in op.results}
        captured = [v for v in captured if v not in made_here]
        copied = [*copied, *private]
        reason = _serial_reason(loop, self.converter, captured)
        if reason is not None:
            return self._stay_serial(loop, rewriter, reason)
        module = function.parent_op
        if not self.symbols:
            self.symbols = {op.attributes["sym_name"].value
                            for op in module.regions[0].blocks[0].ops()
                            if "sym_name" in op.attributes}
        used = set(STATIC_FUNCTIONS)
        if not loop.initVals and self.schedule == "dynamic":
            used.update(DYNAMIC_FUNCTIONS)
        if not used <= self.declared:
            with rewriter.insertion_point():
                _declare_runtime(module, rewriter, sorted(used - self.declared))
            self.declared |= used
        base = f"{function.attributes['sym_name'].value}_parallel"
        name = next(f"{base}_{n}" for n in range(len(self.symbols) + 1)
                    if f"{base}_{n}" not in self.symbols)
        self.symbols.add(name)
        plan = _Outlining(name, self._unique(f"{name}_omp_fn"), captured, copied, set())
        self._outline(loop, function, plan, rewriter)
        return True

    def _stay_serial(self, loop: Operation, rewriter: PatternRewriter, reason: str) -> bool:
        self.remarks.append(Diagnostic("remark", f"this parallel loop stays serial: {reason}",
                                       loop.loc))
        return rewriter.notify_match_failure(loop, reason)

    def _unique(self, name: str) -> str:
        unique, counter = name, 0
        while unique in self.symbols:
            counter += 1
            unique = f"{name}_{counter}"
        self.symbols.add(unique)
        return unique

    # ------------------------------------------------------------- the three parts

    def _outline(self, loop: scf.ParallelOp, function: Operation, plan: _Outlining,
                 rewriter: PatternRewriter) -> None:
        build = _Builder(rewriter, loop.loc)
        reductions = list(loop.initVals)
        # Per-thread slots of the reductions: a flag and a partial value each.
        slots: list[Value] = []
        if reductions:
            with rewriter.insertion_point():
                rewriter.set_insertion_point_to_start(function.regions[0].blocks[0])
                for type_ in (i1, *(v.type for v in reductions)):
                    slot = build.op(memref.AllocaOp, [], [],
                                       result_type=MemRefType((self.slots,), type_))
                    slot.name_hint = "partial" if slots else "has_partial"
                    slots.append(slot)
            plan.captured.extend(slots)
        plan.noalias = _distinct_buffers(plan.captured, function)

        # In @f, first: the loop's combiners are copied from the loop as it stands.
        rewriter.set_insertion_point_before(loop)
        if reductions:
            clear = build.loop(build.index(0), build.index(self.slots))
            with rewriter.insertion_point():
                rewriter.set_insertion_point_before(clear.body.last_op)
                build.emit(memref.StoreOp, build.flag(False), slots[0], [clear.induction_var])
        self._call_runtime(function, plan, rewriter, loop.loc)
        results: list[Value] = []
        if reductions:
            combined = build.loop(build.index(0), build.index(self.slots), reductions)
            rewriter.set_insertion_point_to_end(combined.body)
            t = combined.induction_var
            has = build.op(memref.LoadOp, slots[0], [t])
            choice = build.if_(has, [v.type for v in reductions])
            rewriter.set_insertion_point_to_end(choice.then_block)
            build.yield_([_combine(build, region, acc, build.op(memref.LoadOp, slot, [t]))
                          for region, acc, slot in zip(loop.reduce_op.reductions,
                                                       combined.region_iter_args, slots[1:])])
            rewriter.set_insertion_point_to_end(choice.else_block)
            build.yield_(combined.region_iter_args)
            rewriter.set_insertion_point_to_end(combined.body)
            build.yield_(choice.results)
            results = list(combined.results)

        body_fn = self._body_function(loop, plan, slots, rewriter)
        for op in reversed(plan.copied):  # the private buffers in @f are now unused
            if not op.results[0].has_uses():
                rewriter.erase_op(op)
        thread_fn = self._thread_function(plan, rewriter, loop.loc)
        for new in (body_fn, thread_fn):  # after @f and what was outlined from it before
            rewriter.set_insertion_point_after(self.last_outlined.get(function, function))
            rewriter.insert(new)
            self.last_outlined[function] = new
            self.outlined.add(new)
        rewriter.replace_op(loop, results)

    def _body_function(self, loop: scf.ParallelOp, plan: _Outlining, slots: list[Value],
                       rewriter: PatternRewriter) -> Operation:
        """@f_parallel_N(thread, team, captured...): the thread's share of the loop."""
        types = [index, index, *(v.type for v in plan.captured)]
        body_fn = FuncOp.create_function(plan.body_name, FunctionType(tuple(types), ()),
                                         visibility="private")
        body_fn.loc = loop.loc
        body_fn.attributes["llvm.linkage"] = _INTERNAL
        attrs = [DictionaryAttr(())] * 2 + [
            DictionaryAttr(((_NOALIAS, UnitAttr()),)) if v in plan.noalias
            else DictionaryAttr(()) for v in plan.captured]
        body_fn.attributes["arg_attrs"] = ArrayAttr(tuple(attrs))
        entry = body_fn.regions[0].blocks[0]
        thread, team, *args = entry.args
        thread.name_hint, team.name_hint = "thread", "team"
        for arg, value in zip(args, plan.captured):
            arg.name_hint = value.name_hint

        build = _Builder(rewriter, loop.loc)
        rewriter.set_insertion_point_to_end(entry)
        mapping: dict[Value, Value] = dict(zip(plan.captured, args))
        for op in plan.copied:
            mapping[op.results[0]] = rewriter.clone(op, dict(mapping)).results[0]
        inside = set(loop.walk()) - {loop}
        for outer, inner in mapping.items():
            for use in list(outer.uses):
                if use.owner in inside:
                    rewriter.set_operand(use.owner, use.index, inner)

        # The inner loops' bounds were remapped with the rest of the body.
        nest = _perfect_nest(loop, ITERATIONS_PER_THREAD * (self.num_threads or ASSUMED_TEAM))
        lows, highs, steps = ([mapping.get(v, v) for level in nest for v in getattr(level, name)]
                              for name in ("lowerBound", "upperBound", "step"))
        trips = [build.op(arith.MaxSIOp, build.index(0), build.op(
                     arith.CeilDivSIOp, build.op(arith.SubIOp, high, low), step))
                 for low, high, step in zip(lows, highs, steps)]
        total = trips[0]
        for trip in trips[1:]:
            total = build.op(arith.MulIOp, total, trip)
        workers = team
        if slots:
            workers = build.op(arith.MinUIOp, team, build.index(self.slots))
        reductions = list(loop.initVals)
        if reductions or self.schedule == "static":
            begin, end = _static_range(build, thread, workers, total)
            poison = [build.op(PoisonOp, result_type=v.type) for v in reductions]
            chunk = build.loop(begin, end, poison)
        else:
            chunk = _dynamic_chunks(build, total, team)
        chunk.induction_var.name_hint = "iteration"
        if reductions:  # a loop carrying values is built without its terminator
            rewriter.set_insertion_point_to_end(chunk.body)
            build.emit(scf.YieldOp, [])
        anchor = chunk.body.last_op
        rewriter.set_insertion_point_before(anchor)
        ivs = _induction_variables(build, chunk.induction_var, lows, steps, trips)
        innermost = nest[-1]
        for level in nest[:-1]:
            for old in level.body.args:
                rewriter.replace_all_uses_with(old, ivs.pop(0))
        reduce_op = innermost.reduce_op
        rewriter.inline_block_before(innermost.body, anchor, ivs)
        if reductions:
            rewriter.set_insertion_point_before(anchor)
            first = build.cmpi("eq", chunk.induction_var, begin)
            choice = build.if_(first, [v.type for v in reductions])
            rewriter.set_insertion_point_to_end(choice.then_block)
            build.yield_(reduce_op.reduced)
            rewriter.set_insertion_point_to_end(choice.else_block)
            build.yield_([_combine(build, region, acc, value) for region, acc, value in
                          zip(reduce_op.reductions, chunk.region_iter_args, reduce_op.reduced)])
            rewriter.erase_op(anchor)
            rewriter.set_insertion_point_to_end(chunk.body)
            build.yield_(choice.results)
        # The reductions' regions were copied where they combine: the loop's body keeps
        # only the iteration's values.
        rewriter.erase_op(reduce_op)

        rewriter.set_insertion_point_to_end(entry)
        if reductions:
            has = build.cmpi("ult", begin, end)
            keep = build.if_(has)
            rewriter.set_insertion_point_before(keep.then_block.last_op)
            inner_slots = [mapping[s] for s in slots]
            build.emit(memref.StoreOp, build.flag(True), inner_slots[0], [thread])
            for partial, slot in zip(chunk.results, inner_slots[1:]):
                build.emit(memref.StoreOp, partial, slot, [thread])
            rewriter.set_insertion_point_after(keep)
        build.emit(ReturnOp, [])
        return body_fn

    def _thread_function(self, plan: _Outlining, rewriter: PatternRewriter, loc) -> Operation:
        """@f_parallel_N_omp_fn(data): what GOMP_parallel runs on each thread."""
        fn_type = LLVMFunctionType(void, (ptr,))
        thread_fn = LLVMFuncOp.create_function(plan.thread_name, fn_type, Linkage.internal)
        thread_fn.loc = loc
        entry = thread_fn.regions[0].blocks[0]
        entry.args[0].name_hint = "data"
        rewriter.set_insertion_point_to_end(entry)
        llvm = LLVMBuilder(rewriter, loc)
        build = _Builder(rewriter, loc)
        thread, team = (
            build.op(IndexCastOp, llvm.call(name, [], i32).results[0], result_type=index)
            for name in ("omp_get_thread_num", "omp_get_num_threads"))
        struct = self._context_type(plan)
        values = []
        for position, value in enumerate(plan.captured):
            field = struct.fields[position]
            loaded = llvm.load(_field_address(llvm, entry.args[0], struct, position), field)
            if field != value.type:
                loaded = rewriter.create(UnrealizedConversionCastOp, [loaded],
                                         result_types=[value.type], loc=loc).results[0]
            values.append(loaded)
        rewriter.create(CallOp, [thread, team, *values], callee=SymbolRefAttr(plan.body_name),
                        result_types=[], loc=loc)
        llvm.insert(LLVMReturnOp.build(None))
        return thread_fn

    def _call_runtime(self, function: Operation, plan: _Outlining, rewriter: PatternRewriter,
                      loc) -> None:
        """In @f: the captured values into a struct on the stack, then GOMP_parallel."""
        llvm = LLVMBuilder(rewriter, loc)
        struct = self._context_type(plan)
        with rewriter.insertion_point():
            rewriter.set_insertion_point_to_start(function.regions[0].blocks[0])
            data = llvm.value(AllocaOp.create_alloca(llvm.constant(1, i64), struct))
        for position, value in enumerate(plan.captured):
            field = struct.fields[position]
            if field != value.type:
                value = rewriter.create(UnrealizedConversionCastOp, [value],
                                        result_types=[field], loc=loc).results[0]
            llvm.store(value, _field_address(llvm, data, struct, position))
        thread_fn = llvm.value(AddressOfOp.create_address(plan.thread_name))
        llvm.call("GOMP_parallel", [thread_fn, data, llvm.constant(self.num_threads, i32),
                                    llvm.constant(0, i32)])

    def _context_type(self, plan: _Outlining) -> LLVMStructType:
        fields = []
        for value in plan.captured:
            converted = self.converter.convert_type(value.type)
            fields.append(converted[0])
        return LLVMStructType(tuple(fields))


def _field_address(llvm: LLVMBuilder, base: Value, struct: LLVMStructType, position: int) -> Value:
    return llvm.value(GEPOp.create_gep(base, [0, position], struct))


def _static_range(build: _Builder, thread: Value, workers: Value, total: Value
                  ) -> tuple[Value, Value]:
    """Thread `thread`'s share [begin, end) of `total` iterations split among `workers`:
    the first `total % workers` threads take one more than the rest, as OpenMP's
    schedule(static) without a chunk size; a thread past `workers` gets none."""
    share = build.op(arith.DivUIOp, total, workers)
    extra = build.op(arith.RemUIOp, total, workers)
    begin = build.op(arith.AddIOp, build.op(arith.MulIOp, thread, share),
                        build.op(arith.MinUIOp, thread, extra))
    one_more = build.op(arith.SelectOp, build.cmpi("ult", thread, extra), build.index(1),
                           build.index(0))
    count = build.op(arith.SelectOp, build.cmpi("ult", thread, workers),
                        build.op(arith.AddIOp, share, one_more), build.index(0))
    return begin, build.op(arith.AddIOp, begin, count)


def _dynamic_chunks(build: _Builder, total: Value, team: Value) -> scf.ForOp:
    """The loop over the chunks this thread takes of `total` iterations, one at a time
    from the team's shared counter (OpenMP's schedule(dynamic, chunk), about
    `CHUNKS_PER_THREAD` chunks a thread), with its body still empty:

        more = GOMP_loop_dynamic_start(0, total, 1, chunk, &begin, &end)
        while more: (for iteration in [begin, end): ...); more = GOMP_loop_dynamic_next(...)
        GOMP_loop_end_nowait()
    """
    rewriter, loc = build.rewriter, build.loc
    llvm = LLVMBuilder(rewriter, loc)
    chunk = build.op(arith.MaxSIOp, build.index(1), build.op(
        arith.CeilDivSIOp, total, build.op(arith.MulIOp, team, build.index(CHUNKS_PER_THREAD))))
    bounds = llvm.value(AllocaOp.create_alloca(llvm.constant(2, i64), i64))
    begin_at = bounds
    end_at = llvm.gep(bounds, llvm.constant(1, i64), i64)
    as_i64 = [build.op(IndexCastOp, v, result_type=i64) for v in (total, chunk)]
    more = llvm.call("GOMP_loop_dynamic_start", [llvm.constant(0, i64), as_i64[0],
                                                  llvm.constant(1, i64), as_i64[1], begin_at,
                                                  end_at], i8).results[0]
    loop = scf.WhileOp.build([more], result_types=[i8],
                             regions=[Region([Block([i8])]), Region([Block([i8])])], loc=loc)
    rewriter.insert(loop)
    with rewriter.insertion_point():
        before = loop.before.blocks[0]
        rewriter.set_insertion_point_to_end(before)
        going = build.cmpi("ne", before.args[0], build.constant(i8, 0))
        build.emit(scf.ConditionOp, going, [before.args[0]])
        after = loop.after.blocks[0]
        rewriter.set_insertion_point_to_end(after)
        begin, end = (build.op(IndexCastOp, llvm.load(at, i64), result_type=index)
                      for at in (begin_at, end_at))
        chunk_loop = build.loop(begin, end)
        more = llvm.call("GOMP_loop_dynamic_next", [begin_at, end_at], i8).results[0]
        build.yield_([more])
    llvm.call("GOMP_loop_end_nowait", [])
    return chunk_loop


def _induction_variables(build: _Builder, linear: Value, lows: list[Value], steps: list[Value],
                         trips: list[Value]) -> list[Value]:
    """The loop's induction variables at position `linear` of the collapsed space
    (the last dimension varies fastest, as in the serial nest)."""
    positions: list[Value] = []
    rest = linear
    for depth in range(len(trips) - 1, -1, -1):
        if depth == 0:
            positions.append(rest)
            break
        positions.append(build.op(arith.RemUIOp, rest, trips[depth]))
        rest = build.op(arith.DivUIOp, rest, trips[depth])
    positions.reverse()
    return [build.op(arith.AddIOp, low, build.op(arith.MulIOp, position, step))
            for low, position, step in zip(lows, positions, steps)]


# ------------------------------------------------------------------ the pass


@dataclass(frozen=True)
class ParallelToGOMPOptions:
    num_threads: int = option(
        0, min=0, max=4096,
        doc="threads each parallel loop asks the runtime for (0: the runtime's default, "
            "OMP_NUM_THREADS or the cores)")
    schedule: str = option(
        "static", choices=("static", "dynamic"),
        doc="how iterations go to threads: one contiguous share each (static: the same "
            "share every run, which keeps a thread's data in its caches from one loop to "
            "the next), or chunks taken from a shared counter as threads become free "
            "(dynamic: for machines shared with other jobs, where a preempted thread "
            "holds back less); loops with reductions are always static, so their results "
            "do not depend on timing")


@register_pass("convert-scf-parallel-to-gomp", opt_level=0, options=ParallelToGOMPOptions,
               dialects=("llvm", "func", "arith", "memref", "scf", "ub"),
               summary="Run each outermost scf.parallel on the OpenMP runtime's threads: its "
                       "body outlined, called through GOMP_parallel (libgomp's ABI, which "
                       "LLVM's libomp exports too).")
class ConvertSCFParallelToGOMP(Pass):
    def run(self, op: Operation, run) -> None:
        remarks: list[Diagnostic] = []
        pattern = ParallelToGOMP(run.options.num_threads, remarks, run.options.schedule)
        apply_patterns_once(op, PatternSet([pattern]))
        for remark in remarks:
            run.emit(remark)
