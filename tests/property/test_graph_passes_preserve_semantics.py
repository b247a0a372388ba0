"""Property tests: the graph passes keep what random graph programs compute.

For random programs of graph_programs.py, run by the numpy interpreter
(`mlc.graph.evaluate`) on inputs in [-1, 1], each of canonicalize,
graph-fold-constant, graph-simplify-inference, graph-fold-scale-axis and cse (and
the graph-optimize passes before fusion, in order, for the first two points):

* leaves a module that verifies;
* computes the same outputs within float32 tolerance: |after - before| <=
  ATOL * max(1, max |before|) + RTOL * |before| elementwise (the passes reassociate
  float32 arithmetic: batch_norm's scale and shift, weights times scales);
* is idempotent: running it again prints the same text.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, note

from mlc.graph import evaluate
from mlc.ir import print_op, verify
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline

sys.path.insert(0, str(Path(__file__).parent))
from graph_programs import GraphProgram, graph_programs  # noqa: E402

RTOL = 1e-4
ATOL = 1e-5  # scaled by the output's largest magnitude (at least 1)

PASSES = ["canonicalize", "graph-fold-constant", "graph-simplify-inference",
          "graph-fold-scale-axis", "cse"]
# graph-optimize before fusion. A pipeline need not be idempotent (a second
# canonicalize hoists the constants that fold-constant created), so only its results
# are checked.
PIPELINE = "graph-simplify-inference,canonicalize,graph-fold-constant,graph-fold-scale-axis,cse,dce"


def run_passes(module, pipeline: str) -> str:
    with PassContext(opt_level=3):
        result = run_pipeline(module, pipeline)
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    verify(module)
    return print_op(module)


def assert_close(expected: list[np.ndarray], actual: list[np.ndarray], what: str) -> None:
    assert len(expected) == len(actual), f"{what}: {len(expected)} outputs, then {len(actual)}"
    for i, (e, a) in enumerate(zip(expected, actual)):
        assert e.shape == a.shape and e.dtype == a.dtype, \
            f"{what}: output #{i} was {e.dtype}{list(e.shape)}, is {a.dtype}{list(a.shape)}"
        scale = max(1.0, float(np.max(np.abs(e)))) if e.size else 1.0
        np.testing.assert_allclose(a, e, rtol=RTOL, atol=ATOL * scale,
                                   err_msg=f"{what} changed output #{i}")


def check(program: GraphProgram, pipeline: str, idempotent: bool = True) -> None:
    note(program.text)
    module = program.module()
    inputs = program.inputs()
    before = evaluate(module, inputs)
    once = run_passes(module, pipeline)
    note(f"after {pipeline}:\n{once}")
    assert_close(before, evaluate(module, inputs), pipeline)
    if idempotent:
        twice = run_passes(module, pipeline)
        assert once == twice, f"a second {pipeline} changed the module:\n{twice}"


@pytest.mark.parametrize("pipeline", PASSES)
@given(program=graph_programs())
def test_graph_pass_preserves_results_and_is_idempotent(pipeline, program):
    check(program, pipeline)


@given(program=graph_programs())
def test_graph_optimize_passes_preserve_results(program):
    check(program, PIPELINE, idempotent=False)
