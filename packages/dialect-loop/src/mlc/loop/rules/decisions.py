"""How the rules make their choices: the search space of the default schedules.

Each rule computes a plan (a register tile's shape, a reduction's chunk and its
unrolling, packing a panel, the order of the loops over tiles and an L2 tile level
over them, a vector width, how many outer loops run on threads) and has a few other
plans that would be correct as well. With the `FIXED`
decisions (what `mlc.llvm.build` uses) a rule takes its own plan and the trace holds
only the primitives. With `SampledDecisions` every choice becomes a
`sample_categorical` in the trace, among all the candidates, so that a search can
draw schedules from the rules (TVM's meta-schedule design space) and a sampled
schedule replays exactly from its trace:

    trace = schedule_kernel(fn, target, SampledDecisions())       # one random draw
    trace = schedule_kernel(fn, target, SampledDecisions(default=True))
    # ... the rules' own choices, recorded: the same schedule as the FIXED decisions

The rule's own choice is drawn with as much probability as all the others together:
the search starts near the rules' plan, which is usually good, and still reaches the
rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlc.loop.schedule import Schedule

__all__ = ["Chooser", "Decisions", "FIXED", "SampledDecisions", "own_choice"]

Chooser = Callable[[Sequence[Any], Any], Any]
"""What a rule's planner calls with its candidates and its own choice: the choice."""


def own_choice(candidates: Sequence[Any], default: Any) -> Any:
    """The chooser of the FIXED decisions: the rule's own choice."""
    return default


class Decisions:
    """The rules' own choices, not recorded (the default schedules)."""

    def choose(self, sch: Schedule, candidates: Sequence[Any], default: Any) -> Any:
        """The choice among `candidates` (JSON data; `default`, the rule's own, among
        them)."""
        return default

    def chooser(self, sch: Schedule) -> Chooser:
        """The chooser a rule's planner calls while it schedules `sch`."""
        return own_choice


FIXED = Decisions()


class SampledDecisions(Decisions):
    """Every choice drawn by `sch.sample_categorical` (recorded in the trace); with
    `default=True` the rule's own choice is recorded instead of a draw."""

    def __init__(self, default: bool = False):
        self.default = default

    def choose(self, sch: Schedule, candidates: Sequence[Any], default: Any) -> Any:
        candidates = list(dict.fromkeys(_hashable(c) for c in candidates))
        default = _hashable(default)
        if default not in candidates:
            raise ValueError(f"the rule's choice {default!r} is not among {candidates!r}")
        if len(candidates) == 1:
            return _data(default)  # no choice: nothing to record
        others = len(candidates) - 1
        probs = [float(max(1, others)) if c == default else 1.0 for c in candidates]
        values = [_data(c) for c in candidates]
        if self.default:
            return sch.sample_categorical(values, probs, decision=[_data(default)])[0]
        return sch.sample_categorical(values, probs)[0]

    def chooser(self, sch: Schedule) -> Chooser:
        """The chooser a rule's planner calls while it schedules `sch`."""
        return lambda candidates, default: self.choose(sch, candidates, default)


def _hashable(value: Any) -> Any:
    return tuple(_hashable(v) for v in value) if isinstance(value, list | tuple) else value


def _data(value: Any) -> Any:
    return [_data(v) for v in value] if isinstance(value, tuple) else value
