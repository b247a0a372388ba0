"""Property: random graphs (graph_programs.py) through the whole native path compute
what the graph interpreter computes:

    graph-optimize → graph-lower-to-loop → random legal schedules of every kernel
    (loop_schedules.py's primitives; refused ones leave the IR unchanged) →
    loop-plan-memory, loop-lower, canonicalize → mlc.llvm.compile_module (scf to cf,
    convert-to-llvm, translation to LLVM IR, LLVM -O3, MCJIT) → @main called natively.

Tolerance (float32): the graph interpreter computes each op in float64 and rounds
once to float32; the native kernels compute and accumulate in float32 in the order
the (scheduled) loops say (LLVM does not reassociate; te's `contract` flag only
lets it fuse a multiply-add into an FMA), so
|native - graph| <= 1e-5 * |graph| + 1e-5 * the output's largest magnitude (at
least 1), as test_loop_pipeline_property.py holds the interpreted stages; integers
and booleans are equal exactly. The native result is also held to the interpreter run
on the same lowered module, within 1e-6 (the same float32 operations, but for FMAs
and the C math library's last bit).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from mlc.graph import evaluate as graph_evaluate
from mlc.ir import print_op, verify
from mlc.ir.interpreter import buffer_dtype
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins
from mlc.llvm.build import compile_module
from mlc.loop.schedule import Schedule, ScheduleError

sys.path.insert(0, str(Path(__file__).parent))
from graph_programs import graph_programs  # noqa: E402
from loop_schedules import apply_random_primitive  # noqa: E402
from native_runs import assert_close, defined_functions  # noqa: E402
from test_loop_pipeline_property import run_main  # noqa: E402

load_pass_plugins()

RTOL = ATOL = 1e-5
SAME_OPS_TOLERANCE = 1e-6


def lowered_with_random_schedules(module, data, schedule_steps: int, then=None):
    """`module` (graph dialect) through graph-lower-to-loop, random schedules (and
    `then(sch, kernel_names, data)` after them, if given) and loop-lower, in the
    standard dialects."""
    with PassContext(opt_level=3):
        result = run_pipeline(module, "graph-optimize,graph-lower-to-loop")
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    sch = Schedule(module)
    kernels = [fn.sym_name.value for fn in defined_functions(sch.mod)
               if fn.sym_name.value != "main"]
    for _ in range(schedule_steps if kernels else 0):
        kernel = data.draw(st.sampled_from(kernels), label="kernel")
        try:
            apply_random_primitive(sch, data, func_name=kernel)
        except ScheduleError:
            pass
    if then is not None:
        then(sch, kernels, data)
    note(str(sch.trace))
    with PassContext(opt_level=3):
        result = run_pipeline(sch.mod, "loop-plan-memory,loop-lower,canonicalize")
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    verify(sch.mod)
    note(print_op(sch.mod))
    return sch.mod


def check_native(program, data, schedule_steps: int) -> None:
    note(program.text)
    module = program.module()
    inputs = program.inputs()
    expected = graph_evaluate(module, inputs)
    main = next(fn for fn in defined_functions(module) if fn.sym_name.value == "main")
    result_types = main.type.results
    standard = lowered_with_random_schedules(module, data, schedule_steps)

    outputs = [np.zeros(t.shape, buffer_dtype(t.element_type)) for t in result_types]
    compile_module(standard)["main"](*[np.ascontiguousarray(x) for x in inputs], *outputs)
    interpreted = run_main(standard, inputs, result_types)
    for n, (got, graph, same_ops) in enumerate(zip(outputs, expected, interpreted)):
        assert got.dtype == graph.dtype
        assert_close(got, graph, RTOL, ATOL, f"native vs the graph interpreter, output #{n}")
        assert_close(got, same_ops, SAME_OPS_TOLERANCE, SAME_OPS_TOLERANCE,
                     f"native vs the interpreter on the lowered module, output #{n}")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=graph_programs(min_ops=2, max_ops=5), data=st.data(),
       schedule_steps=st.integers(0, 3))
def test_random_graphs_run_natively_like_the_graph_interpreter(program, data, schedule_steps):
    check_native(program, data, schedule_steps)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=graph_programs(min_ops=3, max_ops=12), data=st.data(),
       schedule_steps=st.integers(0, 8))
def test_larger_random_graphs_run_natively_like_the_graph_interpreter(program, data,
                                                                     schedule_steps):
    check_native(program, data, schedule_steps)
