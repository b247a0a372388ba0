"""Print -> parse -> print is stable for random graph programs, in custom and generic
form, before and after fusion (kernels, calls, the primitive marker)."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given

from mlc.ir import Context, PrintOptions, parse_module, print_op, verify
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline

sys.path.insert(0, str(Path(__file__).parent))
from graph_programs import GraphProgram, graph_programs  # noqa: E402

GENERIC = PrintOptions(generic=True)


def _stable(module) -> None:
    for options in (PrintOptions(), GENERIC):
        text = print_op(module, options)
        again = parse_module(text, Context())
        verify(again)
        assert print_op(again, options) == text
        # Either form reads back to the same IR.
        assert print_op(again) == print_op(module)


@given(graph_programs())
def test_graph_programs_round_trip(program: GraphProgram):
    module = program.module()
    _stable(module)
    with PassContext(opt_level=3):
        assert run_pipeline(module, "graph-optimize").success
    _stable(module)
