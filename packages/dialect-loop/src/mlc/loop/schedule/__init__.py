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

The primitives live in one module per family over a shared block-scope analysis
(:mod:`~mlc.loop.schedule.scope`): loop transformations (split, fuse, reorder),
annotations (parallel, vectorize, unroll, annotate), compute location (compute_at,
reverse_compute_at, compute_inline, reverse_compute_inline), reductions
(decompose_reduction), caching (cache_read, cache_write) and sampling
(sample_perfect_tile, sample_categorical). A refusal is a specific
:class:`ScheduleError` subclass (:mod:`~mlc.loop.schedule.errors`).
"""

from mlc.loop.schedule.errors import (
    AnnotationError,
    DecomposeReductionError,
    DependencyError,
    InvalidFactorsError,
    InvalidHandleError,
    LoopKindError,
    LoopStructureError,
    LoopVariableUsedError,
    NotFoundError,
    NotInlinableError,
    PredicateError,
    RegionError,
    SamplingError,
    ScheduleArgumentError,
    ScheduleError,
)
from mlc.loop.schedule.schedule import Schedule
from mlc.loop.schedule.trace import BlockRV, Instruction, LoopRV, Trace

__all__ = [
    "BlockRV", "LoopRV", "Schedule", "Trace", "Instruction", "ScheduleError",
    "AnnotationError", "DecomposeReductionError", "DependencyError", "InvalidFactorsError",
    "InvalidHandleError", "LoopKindError", "LoopStructureError", "LoopVariableUsedError",
    "NotFoundError", "NotInlinableError", "PredicateError", "RegionError", "SamplingError",
    "ScheduleArgumentError",
]
