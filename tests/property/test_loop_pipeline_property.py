"""Property: random graphs (graph_programs.py's every step: elementwise, broadcast,
injective, reductions, softmax, pools, convolutions, dense, batch and layer norm)
compute the same numbers at every stage of the loop pipeline:

1. the graph interpreter on the program (the reference);
2. after graph-optimize and graph-lower-to-loop, the loop interpreter;
3. after random legal schedules of every kernel (loop_schedules.py's primitives;
   refused ones leave the IR unchanged);
4. after loop-plan-memory, loop-lower and canonicalize, in scf/memref/vector/math/arith.

Each stage prints and parses back to the same text in both forms (custom, and
generic read back into the same custom text), and mlir-opt-22 reads the last one.

Tolerance: the graph reference computes each op in float64 and rounds once to
float32; the kernels compute in float32, accumulating sums (convolutions, dense,
pools, norms, softmax) in float32 too, so they differ by float32 roundings along the
chain: |got - graph| <= rtol * |graph| + atol elementwise, rtol 1e-5 and atol 1e-5
times the magnitude of the values the program computes (at most graph_programs'
BOUND_LIMIT; measured as the output's largest magnitude, at least 1) — a sum that
cancels keeps the rounding errors of its terms, not of its small result. A schedule
only reorders the same float32 operations within a block's iterations, so stages 2
to 4 agree more closely with each other; they are all held to the reference.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from mlc.graph import evaluate as graph_evaluate
from mlc.ir import PrintOptions, parse_module, print_op, verify
from mlc.ir.interpreter import buffer_dtype, evaluate
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins
from mlc.loop.schedule import Schedule, ScheduleError

sys.path.insert(0, str(Path(__file__).parent))
from graph_programs import graph_programs  # noqa: E402
from loop_schedules import apply_random_primitive  # noqa: E402

load_pass_plugins()

RTOL = 1e-5
ATOL = 1e-5  # times the output's largest magnitude (at least 1)
GENERIC = PrintOptions(generic=True)


def round_tripped(module, stage: str):
    """`module` printed and parsed back in both forms (each reading back to the same
    custom text); the module parsed from the custom form."""
    text = print_op(module)
    reparsed = parse_module(text)
    verify(reparsed)
    assert print_op(reparsed) == text, f"{stage}: the custom form does not read back"
    from_generic = parse_module(print_op(module, GENERIC))
    verify(from_generic)
    assert print_op(from_generic) == text, f"{stage}: the generic form does not read back"
    return reparsed


def run_main(module, inputs, result_types) -> list[np.ndarray]:
    """@main of a lowered module on `inputs`, its outputs written into fresh buffers."""
    outputs = [np.zeros(t.shape, buffer_dtype(t.element_type)) for t in result_types]
    evaluate(module, "main", [*inputs, *outputs])
    return outputs


def assert_same_numbers(got, expected, stage: str) -> None:
    for n, (g, e) in enumerate(zip(got, expected)):
        assert g.shape == e.shape and g.dtype == e.dtype, stage
        finite = np.abs(e[np.isfinite(e)].astype(np.float64)) if e.dtype.kind == "f" else e
        scale = max(1.0, float(np.max(finite))) if finite.size else 1.0
        np.testing.assert_allclose(g, e, rtol=RTOL, atol=ATOL * scale,
                                   err_msg=f"{stage}: output #{n}")


def kernel_names(module) -> list[str]:
    return [f.sym_name.value for f in module.regions[0].ops()
            if f.name == "func.func" and f.sym_name.value != "main"
            and f.regions[0].blocks]


def check_pipeline(program, data, schedule_steps: int, mlir_opt: str | None) -> None:
    note(program.text)
    module = program.module()
    inputs = program.inputs()
    expected = graph_evaluate(module, inputs)
    main = next(op for op in module.regions[0].ops() if op.sym_name.value == "main")
    result_types = main.type.results
    round_tripped(module, "graph")

    with PassContext(opt_level=3):
        result = run_pipeline(module, "graph-optimize,graph-lower-to-loop")
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    verify(module)
    note(print_op(module))
    lowered = round_tripped(module, "graph-lower-to-loop")
    assert_same_numbers(run_main(lowered, inputs, result_types), expected,
                        "graph-lower-to-loop")

    sch = Schedule(lowered)
    kernels = kernel_names(lowered)
    for _ in range(schedule_steps if kernels else 0):
        kernel = data.draw(st.sampled_from(kernels), label="kernel")
        before = print_op(sch.mod)
        try:
            apply_random_primitive(sch, data, func_name=kernel)
        except ScheduleError:
            assert print_op(sch.mod) == before, "a refused primitive changed the IR"
    note(str(sch.trace))
    verify(sch.mod)
    scheduled = round_tripped(sch.mod, "schedule")
    assert_same_numbers(run_main(scheduled, inputs, result_types), expected, "schedule")

    with PassContext(opt_level=3):
        result = run_pipeline(scheduled, "loop-plan-memory,loop-lower,canonicalize")
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    verify(scheduled)
    text = print_op(scheduled)
    note(text)
    assert not any(op.name.startswith(("loop.", "graph.")) for op in scheduled.walk())
    standard = round_tripped(scheduled, "loop-lower")
    assert_same_numbers(run_main(standard, inputs, result_types), expected, "loop-lower")
    if mlir_opt is not None:
        read = subprocess.run([mlir_opt, "-o", "/dev/null", "-"], input=text,
                              capture_output=True, text=True, check=False)
        assert read.returncode == 0, read.stderr


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=graph_programs(min_ops=2, max_ops=5), data=st.data(),
       schedule_steps=st.integers(0, 3))
def test_random_graphs_compute_the_same_through_the_loop_pipeline(mlir_opt, program, data,
                                                                   schedule_steps):
    check_pipeline(program, data, schedule_steps, mlir_opt)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=graph_programs(min_ops=3, max_ops=12), data=st.data(),
       schedule_steps=st.integers(0, 8))
def test_larger_random_graphs_compute_the_same_through_the_loop_pipeline(
        mlir_opt, program, data, schedule_steps):
    check_pipeline(program, data, schedule_steps, mlir_opt)
