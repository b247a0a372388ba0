"""Property tests of graph-fuse-ops on random graph programs (graph_programs.py):
the fused module verifies, computes exactly what the original computed (fusion moves
ops into kernels and never changes arithmetic), holds every graph op of @main in a
primitive kernel, and fusing again changes nothing — at every opt level and with a
small max-depth."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from hypothesis import given, note
from hypothesis import strategies as st

from mlc.graph import evaluate
from mlc.graph.fusion.outline import is_primitive
from mlc.ir import print_op, verify
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline

sys.path.insert(0, str(Path(__file__).parent))
from graph_programs import GraphProgram, graph_programs  # noqa: E402


def _fuse(module, pipeline: str) -> str:
    with PassContext(opt_level=3):
        result = run_pipeline(module, pipeline)
    assert result.success, result.diagnostics
    verify(module)
    return print_op(module)


@given(graph_programs(), st.sampled_from(["graph-fuse-ops", "graph-fuse-ops{opt-level=0}",
                                          "graph-fuse-ops{max-depth=2}"]))
def test_fuse_ops_preserves_semantics_and_is_idempotent(program: GraphProgram, pipeline: str):
    module = program.module()
    note(print_op(module))
    inputs = program.inputs()
    before = evaluate(module, inputs)
    once = _fuse(module, pipeline)
    note(once)
    after = evaluate(module, inputs)
    for b, a in zip(before, after):
        np.testing.assert_array_equal(a, b)  # same ops, same order within a kernel
    main = next(op for op in module.regions[0].ops() if op.sym_name.value == "main")
    leftovers = [op.name for op in main.entry_block.ops()
                 if op.name.startswith("graph.") and op.name != "graph.constant"]
    assert not leftovers, f"graph ops left in @main: {leftovers}"
    for fn in module.regions[0].ops():
        if fn is not main:
            assert is_primitive(fn)
    assert _fuse(module, pipeline) == once
