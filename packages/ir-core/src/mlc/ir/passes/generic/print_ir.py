"""print-ir: print the IR at this point of the pipeline (to stderr)."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from mlc.ir.core.ir import Operation
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, register_pass


@dataclass(frozen=True)
class PrintIROptions:
    label: str = option("", doc="printed in the dump's header")


@register_pass("print-ir", opt_level=0, options=PrintIROptions,
               summary="Print the IR to stderr, with an optional label.")
class PrintIR(Pass):
    def run(self, op: Operation, run) -> None:
        from mlc.ir.text.printer import print_op

        label = f" {run.options.label}" if run.options.label else ""
        sys.stderr.write(f"// -----// IR Dump{label} //----- //\n{print_op(op)}\n")
        run.mark_all_analyses_preserved()
