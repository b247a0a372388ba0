"""reconcile-unrealized-casts: fold round trips of `builtin.unrealized_conversion_cast`
(A -> B -> A becomes the original value), erase dead casts, and fail on casts that
remain in use."""

from __future__ import annotations

from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects.builtin.ops import UnrealizedConversionCastOp
from mlc.ir.passes.registry import Pass, PassFailure, register_pass


def reconcile_unrealized_casts(root: Operation) -> list[Operation]:
    """Simplify casts under `root`; returns the casts that are still live."""
    casts = [op for op in root.walk() if isinstance(op, UnrealizedConversionCastOp)]
    for cast in reversed(casts):  # users first, so chains collapse from their end
        if cast.parent is None:
            continue
        # Follow a chain of casts back to a source whose types match the outputs.
        sources = cast.operands
        while True:
            if [v.type for v in sources] == cast.result_types:
                cast.replace_all_uses_with(sources)
                break
            producer = sources[0].defining_op if sources else None
            if not isinstance(producer, UnrealizedConversionCastOp) or \
                    list(producer.results) != list(sources):
                break
            sources = producer.operands
    remaining = []
    for cast in reversed(casts):
        if cast.parent is None:
            continue
        if not any(r.uses for r in cast.results):
            cast.erase()
        else:
            remaining.append(cast)
    return list(reversed(remaining))


@register_pass("reconcile-unrealized-casts", opt_level=0,
               summary="Remove unrealized conversion casts that cancel out; fail on any left.")
class ReconcileUnrealizedCasts(Pass):
    def run(self, op: Operation, run) -> None:
        remaining = reconcile_unrealized_casts(op)
        if remaining:
            raise PassFailure([Diagnostic(
                "error", "failed to legalize operation 'builtin.unrealized_conversion_cast' "
                "that was explicitly marked illegal", cast.loc) for cast in remaining])
