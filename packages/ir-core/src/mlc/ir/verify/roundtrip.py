"""Round-trip verification (mlir-opt's `--verify-roundtrip`): the IR printed, parsed
back and printed again must come out the same.

Two trips, each compared in the generic form with locations, which shows every
operand, attribute, type and location: the generic form itself (what MLIR checks), and
the custom form (mlc has no bytecode, the second form MLIR checks; the custom form is
where a printer and its parser can disagree). A failure is one diagnostic on the op,
naming the first line that differs.
"""

from __future__ import annotations

from mlc.ir.core.dialect_registry import Context
from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic, DiagnosticError
from mlc.ir.text.parser import parse_module
from mlc.ir.text.printer import PrintOptions, print_op
from mlc.ir.verify.verifier import Verifier

_REFERENCE = PrintOptions(generic=True, debuginfo=True)
_FORMS = (("generic", _REFERENCE), ("custom", PrintOptions(debuginfo=True)))


def verify_roundtrip(op: Operation, ctx: Context) -> list[Diagnostic]:
    """The diagnostics of `op` (a verified module) failing to round-trip through text
    in either form; empty when both trips give back the same IR."""
    reference = print_op(op, _REFERENCE, ctx.resources)
    for form, options in _FORMS:
        text = print_op(op, options, ctx.resources)
        try:
            again = parse_module(text, ctx, filename=f"<{form} round trip>")
        except DiagnosticError as error:
            return [_failure(op, f"failed to parse its {form} form back: "
                                 f"{error.diagnostics[0].message}")]
        problems = Verifier().verify(again)
        if problems:
            return [_failure(op, f"its {form} form parses back to invalid IR: "
                                 f"{problems[0].message}")]
        roundtripped = print_op(again, _REFERENCE, ctx.resources)
        if roundtripped != reference:
            return [_failure(op, f"its {form} form parses back to different IR: "
                                 + _first_difference(reference, roundtripped))]
    return []


def _failure(op: Operation, message: str) -> Diagnostic:
    return Diagnostic("error", f"'{op.name}' op round-trip testing failed: {message}", op.loc)


def _first_difference(reference: str, roundtripped: str) -> str:
    ours, theirs = reference.splitlines(), roundtripped.splitlines()
    for line, (before, after) in enumerate(zip(ours, theirs), 1):
        if before != after:
            return f"line {line} of the generic form was\n  {before.strip()}\nand became\n  {after.strip()}"
    return f"the generic form had {len(ours)} lines and has {len(theirs)}"
