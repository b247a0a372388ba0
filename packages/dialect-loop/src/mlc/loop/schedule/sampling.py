"""Sampling: `sample_perfect_tile` and `sample_categorical` (TVM's sampling.cc), drawn
from the schedule's seeded generator; each records its decision in the trace, and a
replay takes the recorded decision instead of drawing.

A schedule made with `decisions` (`Schedule(mod, decisions=[[4, 8], None, ...])`)
takes the n-th of them at its n-th sampling primitive instead of drawing, when it is
not None and fits (the tiling divides the loop, the category is a candidate): how a
search makes a schedule that keeps a parent's decisions and changes one (TVM's
mutators replay a trace with one decision changed).
"""

from __future__ import annotations

from mlc.loop.schedule.errors import SamplingError
from mlc.loop.schedule.state import ScheduleState
from mlc.loop.schedule.trace import SAMPLING_PRIMITIVES, LoopRV, primitive

__all__ = ["Sampling"]


class Sampling(ScheduleState):
    """sample_perfect_tile, sample_categorical."""


    @primitive
    def sample_perfect_tile(self, loop: LoopRV, n: int, max_innermost_factor: int = 16,
                            decision: list[int] | None = None) -> list[int]:
        """`n` factors whose product is the loop's extent, the innermost at most
        `max_innermost_factor`, drawn uniformly from all such tilings (seeded)."""
        loop_op = self._loop(loop)
        extent = loop_op.extent.value
        tilings = [t for t in _tilings(extent, n) if t[-1] <= max_innermost_factor]
        if decision is None:
            forced = self._forced_decision()
            decision = forced if forced in [list(t) for t in tilings] else None
        if decision is not None:
            if list(decision) not in [list(t) for t in tilings]:
                raise SamplingError(f"the recorded tiling {decision} does not fit the loop "
                                    f"of extent {extent}", loop_op)
            return list(decision)
        if not tilings:
            raise SamplingError(f"no tiling of {extent} into {n} factors has an innermost "
                                f"factor of at most {max_innermost_factor}", loop_op)
        return list(self._random.choice(tilings))

    @primitive
    def sample_categorical(self, candidates: list, probs: list[float],
                           decision: list | None = None) -> list:
        """One of `candidates`, drawn with probabilities `probs` (seeded); returned
        as a one-element list."""
        if len(candidates) != len(probs) or not candidates or any(p < 0 for p in probs) \
                or not sum(probs) > 0:
            raise SamplingError("sample_categorical needs as many non-negative "
                                "probabilities as candidates, not all zero")
        if decision is not None:
            return list(decision)
        forced = self._forced_decision()
        if forced is not None and len(forced) == 1 and forced[0] in candidates:
            return list(forced)
        return [self._random.choices(candidates, weights=probs)[0]]

    def _forced_decision(self) -> list | None:
        """The decision given for this sampling primitive (module docstring), if any:
        they are numbered by the sampling primitives already in the trace."""
        index = sum(1 for inst in self.trace.instructions if inst.kind in SAMPLING_PRIMITIVES)
        forced = self._decisions[index] if index < len(self._decisions) else None
        return list(forced) if isinstance(forced, list | tuple) else None



def _tilings(extent: int, n: int) -> list[tuple[int, ...]]:
    if n == 1:
        return [(extent,)]
    found = []
    for factor in range(1, extent + 1):
        if extent % factor == 0:
            found.extend((factor, *rest) for rest in _tilings(extent // factor, n - 1))
    return found


