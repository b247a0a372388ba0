"""`Schedule`: every primitive family on one object, as TVM's `tir.Schedule`."""

from __future__ import annotations

from mlc.loop.schedule.annotation import Annotations
from mlc.loop.schedule.caching import Caching
from mlc.loop.schedule.compute_location import ComputeLocation
from mlc.loop.schedule.loop_transformation import LoopTransformations
from mlc.loop.schedule.reduction import Reductions
from mlc.loop.schedule.sampling import Sampling

__all__ = ["Schedule"]


class Schedule(LoopTransformations, Annotations, ComputeLocation, Reductions, Caching,
               Sampling):
    """Primitives on a copy of `module` (with `copy=False` on `module` itself, what a
    pass does): see :mod:`mlc.loop.schedule`. `seed` seeds the sampling primitives: by default
    a fresh one each time (kept as `trace.seed`), an integer to draw the same decisions
    on every run."""
