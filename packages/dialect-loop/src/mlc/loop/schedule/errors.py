"""Why a schedule primitive refused: one `ScheduleError` subclass per kind of refusal
(TVM's ScheduleError family), each a located diagnostic.

A caller that tries primitives (a rule, a search) catches the kind it can recover
from (`except NotInlinableError`) and lets the rest through; every refusal leaves the
IR unchanged.
"""

from __future__ import annotations

from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic, DiagnosticError

__all__ = [
    "ScheduleError", "InvalidHandleError", "ScheduleArgumentError", "InvalidFactorsError",
    "NotFoundError", "LoopStructureError", "LoopVariableUsedError", "LoopKindError",
    "AnnotationError", "DependencyError", "RegionError", "NotInlinableError",
    "DecomposeReductionError", "SamplingError", "PredicateError",
]


class ScheduleError(DiagnosticError):
    """A primitive refused: its message says why, located at the loop or block."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(Diagnostic("error", message, op.loc if op is not None else None))


class InvalidHandleError(ScheduleError):
    """A handle that names nothing of this schedule, something a primitive removed, or
    the wrong kind of thing (a block where a loop is expected)."""


class ScheduleArgumentError(ScheduleError):
    """An argument outside the primitive's domain (a buffer index out of range, an
    empty storage scope, the same loop twice)."""


class InvalidFactorsError(ScheduleArgumentError):
    """Split factors that do not describe a tiling of the loop."""


class NotFoundError(ScheduleError):
    """No block or function of that name (or several blocks of one name)."""


class LoopStructureError(ScheduleError):
    """Loops that are not nested as the primitive needs (directly, each the only child
    of the one above, on one chain)."""


class LoopVariableUsedError(LoopStructureError):
    """A loop variable used by something other than block bindings, so the loop cannot
    be rebuilt."""


class LoopKindError(ScheduleError):
    """A loop kind the loop cannot take (a reduction's loop made parallel or
    vectorized)."""


class AnnotationError(ScheduleError):
    """An annotation whose key or value a loop or block cannot carry."""


class DependencyError(ScheduleError):
    """Blocks and loops whose producer/consumer relation does not allow the move (not
    in one scope, no producer or consumer under the loop, a reduction not complete
    within one iteration)."""


class RegionError(ScheduleError):
    """A buffer region the analysis cannot describe as a box of affine bounds."""


class NotInlinableError(ScheduleError):
    """A block that compute_inline or reverse_compute_inline cannot inline."""


class DecomposeReductionError(ScheduleError):
    """A reduction whose init cannot be moved before the given loop."""


class SamplingError(ScheduleError):
    """A sampling primitive with no valid choice, or a recorded decision that does not
    fit."""


class PredicateError(ScheduleError):
    """A block whose predicate (`where`, from a split that overshoots its loop) the
    primitive cannot carry or account for."""
