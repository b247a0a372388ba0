"""Search spaces: where a tuner draws a kernel's candidate schedules from.

- `"default"`: the default rules with their choices sampled
  (:mod:`mlc.loop.rules.decisions`): the space of every kernel a model has;
- a function `fn(sch)` that schedules a `Schedule` with sampling primitives (the
  course's `stochastic_schedule_mm`), TVM's `ScheduleFn` space.

A candidate is a trace; its decisions (the outputs of its sampling primitives, in
order) are what a search keeps or changes: `Space.sample(seed, keep=decisions)`
takes the kept decisions instead of drawing them (a `None` is drawn), so changing one
decision of a good candidate and drawing it (a mutation) gives a neighbour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mlc.ir.core.ir import Operation
from mlc.loop.rules import FIXED, SampledDecisions, kernels, schedule_kernel
from mlc.loop.rules.target import ScheduleTarget
from mlc.loop.schedule import Schedule, Trace
from mlc.loop.schedule.trace import SAMPLING_PRIMITIVES

__all__ = ["Space", "SpaceError", "make_space", "decisions_of", "default_trace"]

ScheduleFn = Callable[[Schedule], object]


class SpaceError(ValueError):
    """A space that cannot be drawn from (what and why in the message)."""


class Space:
    """Draws candidate traces for the kernel module `module` (module docstring)."""

    def __init__(self, module: Operation, target: ScheduleTarget, fn: ScheduleFn | None = None):
        self.module = module
        self.target = target
        self.fn = fn
        found = kernels(module)
        if len(found) != 1:
            raise SpaceError(f"a tuned module holds one kernel (a function with loop "
                             f"blocks), not {len(found)}")
        self.kernel = found[0]

    @property
    def name(self) -> str:
        """How records name the space: "default" or the function's name."""
        return "default" if self.fn is None else getattr(self.fn, "__name__", "function")

    def sample(self, seed: int, keep: Sequence[list | None] = ()) -> Trace:
        """One candidate's trace, drawn from `seed`, taking the decisions in `keep`.
        A ScheduleError (a space function's primitive that did not apply) propagates:
        the search counts the draw as failed."""
        if self.fn is None:
            return schedule_kernel(self.kernel, self.target, SampledDecisions(), seed=seed,
                                   keep=keep)
        sch = Schedule(self.module, seed=seed, decisions=keep)
        self.fn(sch)
        return sch.trace

    def apply(self, trace: Trace) -> Operation:
        """A copy of the module scheduled by `trace`."""
        sch = Schedule(self.module)
        trace.apply(sch)
        return sch.mod


def default_trace(module: Operation, target: ScheduleTarget) -> Trace:
    """The default rules' trace of the kernel module `module` (the baseline)."""
    [kernel] = kernels(module)
    return schedule_kernel(kernel, target, FIXED)


def decisions_of(trace: Trace | list) -> list[list]:
    """The decisions of a trace (or its JSON data), in order."""
    if isinstance(trace, list):
        return [entry[3] for entry in trace if entry[0] in SAMPLING_PRIMITIVES]
    return [inst.outputs for inst in trace.instructions if inst.kind in SAMPLING_PRIMITIVES]


def make_space(module: Operation, target: ScheduleTarget, space: str | ScheduleFn) -> Space:
    """The space `space` names ("default" or a function) for `module`."""
    if space == "default":
        return Space(module, target)
    if callable(space):
        return Space(module, target, space)
    raise SpaceError(f"a space is \"default\" or a function fn(sch), not {space!r}")

