"""Property: random graphs of elementwise and broadcasting ops (graph_programs.py's
param, constant, unary, binary and divide steps: activations, casts, arithmetic with
broadcast constants, prelu) compute the same through the graph interpreter and,
after graph-optimize and graph-lower-to-loop, through the loop interpreter.

Tolerance: a kernel computes each fused op in float32 where the graph reference
rounds each op's float64 result once to float32, so the two differ by a few float32
roundings per op of a chain: |loop - graph| <= ATOL * max(1, max |graph|) + RTOL *
|graph| elementwise, as the graph passes' property tests allow."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from hypothesis import given, note, settings

from mlc.graph import evaluate as graph_evaluate
from mlc.ir import parse_module, print_op, verify
from mlc.ir.interpreter import buffer_dtype, evaluate
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins

sys.path.insert(0, str(Path(__file__).parent))
from graph_programs import graph_programs  # noqa: E402

load_pass_plugins()

RTOL = 1e-4
ATOL = 1e-5  # scaled by the output's largest magnitude (at least 1)
ELEMENTWISE_STEPS = ("param", "constant", "unary", "binary", "divide")


@settings(max_examples=60)
@given(program=graph_programs(min_ops=3, max_ops=10, steps=ELEMENTWISE_STEPS))
def test_lowered_elementwise_graphs_compute_what_the_graph_computes(program):
    note(program.text)
    module = program.module()
    inputs = program.inputs()
    expected = graph_evaluate(module, inputs)
    main = next(op for op in module.regions[0].ops() if op.sym_name.value == "main")
    result_types = main.type.results
    with PassContext(opt_level=3):
        result = run_pipeline(module, "graph-optimize,graph-lower-to-loop")
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    verify(module)
    text = print_op(module)
    note(text)
    lowered = parse_module(text)  # the lowered form round-trips through text
    verify(lowered)
    outputs = [np.zeros(t.shape, buffer_dtype(t.element_type)) for t in result_types]
    evaluate(lowered, "main", [*inputs, *outputs])
    for n, (e, got) in enumerate(zip(expected, outputs)):
        scale = max(1.0, float(np.max(np.abs(e)))) if e.size else 1.0
        np.testing.assert_allclose(got, e, rtol=RTOL, atol=ATOL * scale,
                                   err_msg=f"output #{n}")
