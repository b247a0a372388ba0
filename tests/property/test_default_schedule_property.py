"""Property: random graphs (graph_programs.py: elementwise, broadcast, reductions,
dense, matmul, convolutions, pools, softmax... at shapes with odd sizes, primes and
ones) built as a user builds them — `mlc.llvm.build` with the default schedules, for
this machine and for an AVX2 target (code this machine runs too) — compute what the
graph interpreter computes.

Tolerance (float32): as test_native_pipeline_property.py, |native - graph| <= 1e-5 ·
|graph| + 1e-5 · the output's largest magnitude; the default schedules keep each
output's sum in order but for the row reductions, which take it in vector-lane partial
sums (mlc.loop.rules.reduction: an error of the same order). Integers and booleans
are equal exactly.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from mlc.graph import evaluate as graph_evaluate
from mlc.llvm.build import build
from mlc.llvm.target import Target

sys.path.insert(0, str(Path(__file__).parent))
from graph_programs import graph_programs  # noqa: E402
from native_runs import assert_close  # noqa: E402

RTOL = ATOL = 1e-5
TARGETS = {"host": None, "avx2": "haswell"}


def check_default_schedules(program, target_name: str) -> None:
    note(program.text)
    module = program.module()
    inputs = program.inputs()
    expected = graph_evaluate(module, inputs)
    cpu = TARGETS[target_name]
    model = build(module, Target(cpu=cpu) if cpu else None)
    for kernel, trace in model.schedules.items():
        note(f"@{kernel}:\n{trace}")
    got = model(*[np.ascontiguousarray(x) for x in inputs])
    got = list(got) if isinstance(got, tuple) else [got]
    for n, (value, graph) in enumerate(zip(got, expected)):
        assert value.dtype == graph.dtype
        assert_close(value, graph, RTOL, ATOL, f"default schedules vs the graph "
                                               f"interpreter, output #{n}")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=graph_programs(min_ops=2, max_ops=6), target=st.sampled_from(sorted(TARGETS)))
def test_default_schedules_compute_what_the_graph_interpreter_computes(program, target):
    check_default_schedules(program, target)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=graph_programs(min_ops=3, max_ops=12), target=st.sampled_from(sorted(TARGETS)))
def test_larger_graphs_with_default_schedules(program, target):
    check_default_schedules(program, target)
