"""Default schedules: rules that turn what the analysis of each block says into a
schedule, as TVM's meta-schedule rules (and dlight's defaults) do, with no search.

    traces = default_schedule(module, ScheduleTarget.from_features("znver4", ""))
    print(traces["fused_dense_bias_add"])        # the primitives applied, as Python

For every kernel (a function holding loop blocks), each block in program order is
offered to the rules, first match wins:

- :mod:`~mlc.loop.rules.tiling`: a reduction whose output has a contiguous spatial
  axis — matmul, dense, batch_matmul, convolution and pooling in NCHW{c}c — gets a
  register tile of vector accumulators, its epilogue moved onto the tile;
- :mod:`~mlc.loop.rules.reduction`: a reduction along its input's contiguous axis
  (softmax, layer norm) is factored into vector lanes of partial reductions;
- :mod:`~mlc.loop.rules.elementwise`: a spatial block is vectorized along its output's
  contiguous axis;

and then :mod:`~mlc.loop.rules.parallel` runs the scheduled nest's outer spatial loops
on threads when it has the work for them.

A rule works on a scratch copy of the kernel and is kept only when every primitive it
applies succeeds; the kept primitives form the kernel's trace, which is then replayed
on the module itself (so every default schedule is, by construction, a trace that
replays). Blocks no rule matches keep their loops. `loop-default-schedule` is the
pass; `mlc.llvm.build` applies it by default.

The rules' choices (a tile's shape, a reduction's chunk, its unrolling, packing or
not, the order of the loops over tiles and an L2 tile level, a vector width, rows per
tile, how many outer loops run on threads) are also a search space (:mod:`~mlc.loop.rules.decisions`): with
`schedule_kernel(fn, target, SampledDecisions(), seed=...)` each is drawn by
`sample_categorical` and recorded in the trace; mlc.tune searches it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.dialects.func import FuncOp
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.loop.ops import BlockOp
from mlc.loop.rules.analysis import analyze_block, consumers_of
from mlc.loop.rules.decisions import FIXED, Decisions, SampledDecisions
from mlc.loop.rules.elementwise import apply_vectorize, plan_vectorize
from mlc.loop.rules.parallel import parallelize_outer_loops
from mlc.loop.rules.reduction import apply_row_reduction, plan_row_reduction
from mlc.loop.rules.target import ScheduleTarget
from mlc.loop.rules.tiling import apply_tile, plan_tile, producers_on_the_tile
from mlc.loop.schedule import Schedule, ScheduleError, Trace

__all__ = ["default_schedule", "schedule_kernel", "kernels", "ScheduleTarget", "Decisions",
           "SampledDecisions", "FIXED"]


def kernels(module: Operation) -> list[Operation]:
    """The functions of `module` holding loop blocks, in module order."""
    return [op for op in module.regions[0].blocks[0].ops() if isinstance(op, FuncOp)
            and op.regions[0].blocks and any(isinstance(o, BlockOp) for o in op.walk())]


def _scratch(fn: Operation) -> Operation:
    module = ModuleOp.build()
    module.body.append(fn.clone())
    return module


def _tile_producers(consumer: BlockOp, blocks: list[BlockOp], target: ScheduleTarget
                    ) -> list[BlockOp]:
    info = analyze_block(consumer)
    plan = plan_tile(info, target) if info is not None else None
    return producers_on_the_tile(info, plan, blocks) if plan is not None else []


def _rule_for(sch: Schedule, fn_name: str, name: str, target: ScheduleTarget,
              decisions: Decisions = FIXED) -> list[str]:
    """Apply the first rule that matches block `name`, its choices made by `decisions`;
    the names of the blocks it scheduled (itself and the consumers it moved), or []
    when none matched."""
    fn = sch._function(fn_name)
    blocks = [b for b in fn.walk() if isinstance(b, BlockOp)]
    block = next((b for b in blocks if b.block_name_str == name), None)
    info = analyze_block(block) if block is not None else None
    if info is None:
        return []
    if any(block in _tile_producers(consumer, blocks, target)
           for consumer in consumers_of(info, blocks)):
        return []  # its consumer's tile rule computes it where the tile is
    choose = decisions.chooser(sch)
    plan = plan_tile(info, target, choose)
    if plan is not None:
        before = {b.block_name_str for b in blocks}
        handle = sch.get_block(name, fn_name)
        others = [b for b in blocks if b is not block]
        producers = [b.block_name_str for b in producers_on_the_tile(info, plan, others)]
        apply_tile(sch, handle, info, plan, fn_name, others, producers)
        parallelize_outer_loops(sch, handle, choose)
        after = [b.block_name_str for b in fn.walk() if isinstance(b, BlockOp)]
        moved = [n for n in after if n not in before]
        consumers = [b.block_name_str for b in blocks if b is not block
                     and any(getattr(o, "memref", None) is info.output.buffer
                             for o in b.walk_nested())]
        return [name, *moved, *consumers, *producers]
    row_plan = plan_row_reduction(info, target, choose)
    if row_plan is not None:
        handle = sch.get_block(name, fn_name)
        rf = apply_row_reduction(sch, handle, info, row_plan)
        parallelize_outer_loops(sch, rf, choose)
        return [name, name + "_rf", name + "_rf_init"]
    width = plan_vectorize(info, target, choose)
    if width is not None:
        handle = sch.get_block(name, fn_name)
        apply_vectorize(sch, handle, width)
        parallelize_outer_loops(sch, handle, choose)
        return [name]
    return []


def schedule_kernel(fn: Operation, target: ScheduleTarget, decisions: Decisions = FIXED,
                    seed: int = 0, keep: Sequence[list | None] = ()) -> Trace:
    """The default schedule of kernel `fn` as a trace (`fn` is not changed): each
    block's rule tried on a scratch copy, kept when all its primitives succeed.

    With `SampledDecisions` the rules' choices are drawn (from `seed`) and recorded:
    one schedule of the rules' search space. `keep` holds decisions to take instead
    of drawing, by their order in the trace (a search's mutation: see
    mlc.loop.schedule.sampling)."""
    fn_name = fn.attributes["sym_name"].value
    names = [b.block_name_str for b in fn.walk() if isinstance(b, BlockOp)]
    trace = Trace()
    done: set[str] = set()
    seeds = random.Random(seed)
    for name in names:
        if name in done:
            continue
        # The fixed rules draw nothing: seed 0 as ever (their traces do not change).
        attempt_seed = 0 if decisions is FIXED else seeds.randrange(1 << 31)
        scratch = _scratch(fn)
        attempt = Schedule(scratch, seed=attempt_seed, copy=False, decisions=keep)
        trace.apply(attempt)
        try:
            scheduled = _rule_for(attempt, fn_name, name, target, decisions)
        except ScheduleError:
            continue  # the rule did not fit after all: the block keeps its loops
        finally:
            scratch.destroy()  # freed now rather than by the cyclic collector
        if scheduled:
            trace = attempt.trace
            done.update(scheduled)
    return trace


def default_schedule(module: Operation, target: ScheduleTarget,
                     functions: list[str] | None = None,
                     chosen: Callable[[Operation], Trace | None] | None = None
                     ) -> dict[str, Trace]:
    """Schedule every kernel of `module` (or those named in `functions`) in place by
    the default rules; each kernel's trace, by name. `chosen(fn)` may give a kernel's
    trace instead (a tuned one: mlc.tune), None for the rules'."""
    traces = {}
    for fn in kernels(module):
        name = fn.attributes["sym_name"].value
        if functions is not None and name not in functions:
            continue
        trace = chosen(fn) if chosen is not None else None
        if trace is None:
            trace = schedule_kernel(fn, target)
        trace.apply(Schedule(module, seed=0, copy=False))
        traces[name] = trace
    return traces


def _features_problem(value: str) -> str | None:
    parts = [p.strip() for p in value.split(",") if p.strip()]
    bad = [p for p in parts if p[0] not in "+-" or len(p) < 2]
    return f"features are '+name' or '-name', comma-separated, not '{bad[0]}'" if bad else None


@dataclass(frozen=True)
class DefaultScheduleOptions:
    cpu: str = option("", doc="the target CPU, as LLVM names it (znver4, x86-64-v3); "
                              "empty: this machine's")
    features: str = option("", doc="LLVM target features added or removed "
                                   "(+avx512f,-avx512f)", check=_features_problem)
    print_schedule: bool = option(False, doc="report each kernel's schedule as a remark "
                                             "(the trace, as Python)",
                                  config="loop.default-schedule.print")


@register_pass("loop-default-schedule", opt_level=0, options=DefaultScheduleOptions,
               dialects=("loop",),
               summary="Schedule every loop kernel by the default rules (register tiles "
                       "for reductions, vectorized elementwise blocks), for a target CPU.",
               statistics=(("num-kernels", "kernels scheduled"),
                           ("num-primitives", "schedule primitives applied")))
class LoopDefaultSchedule(Pass):
    def run(self, op: Operation, run) -> None:
        options = run.options
        target = ScheduleTarget.host() if not options.cpu and not options.features else \
            ScheduleTarget.from_features(options.cpu or ScheduleTarget.host().cpu,
                                         options.features)
        try:
            traces = default_schedule(op, target)
        except ScheduleError as exc:  # a replay that differs from its scratch run: a bug
            raise PassFailure(exc.diagnostics) from None
        for name, trace in traces.items():
            self.statistics["num-kernels"] += 1
            self.statistics["num-primitives"] += len(trace.instructions)
            if options.print_schedule:
                fn = next(f for f in kernels(op) if f.attributes["sym_name"].value == name)
                run.emit(Diagnostic("remark", f"schedule of @{name} ({target.describe()}):\n"
                                    + (trace.as_python() or "# no rule applied"), fn.loc))
