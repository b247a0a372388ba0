"""Property: running loops on threads changes no result.

Random graphs (graph_programs.py) are lowered to loops; random legal schedules
(loop_schedules.py's primitives) and random `parallel` marks on their loops are
applied; the kernels, lowered to the standard dialects, are compiled for 1 thread (the
serial code) and for 2 or 3 (convert-scf-parallel-to-gomp, the OpenMP runtime). Each
output element is computed by one thread, by the same operations in the same order,
so the parallel build gives the serial build's outputs to the last bit but for one
thing: te's float sums carry `fastmath<contract>`, and LLVM fuses a multiply-add into
an FMA where its instruction selection sees fit, which can differ between the serial
loop and the outlined one (seen: 1 ulp on a conv2d). So: within 1e-6 (relative, and
of the largest magnitude), exactly for integers. Both are held to the graph
interpreter within float32 rounding (rtol 1e-5, atol 1e-5 of the largest magnitude,
as test_native_pipeline_property.py says why).

A second property draws `scf.parallel` loops with reductions (integer sums, exact;
maxima) over random 1-, 2- and 3-dimensional spaces, some empty or smaller than the
team, and holds every thread count to numpy.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from mlc.graph import evaluate as graph_evaluate
from mlc.ir import Context, parse_module
from mlc.ir.interpreter import buffer_dtype
from mlc.ir.passes.registry import load_pass_plugins
from mlc.llvm.build import compile_module
from mlc.loop.schedule import Schedule, ScheduleError

sys.path.insert(0, str(Path(__file__).parent))
from graph_programs import graph_programs  # noqa: E402
from loop_schedules import block_names  # noqa: E402
from native_runs import assert_close, defined_functions  # noqa: E402
from test_native_pipeline_property import lowered_with_random_schedules  # noqa: E402

load_pass_plugins()

RTOL = ATOL = 1e-5
SAME_OPS = 1e-6  # the same float32 operations, but for FMA contraction


def mark_random_loops_parallel(sch: Schedule, kernel: str, data) -> None:
    """`parallel` on a loop of a random block of `kernel` (refused when the loop is
    bound to a reduction: the IR stays as it was)."""
    blocks = block_names(sch, kernel)
    if not blocks:
        return
    block = sch.get_block(data.draw(st.sampled_from(blocks), label="parallel block"), kernel)
    loops = sch.get_loops(block)
    if loops:
        try:
            sch.parallel(data.draw(st.sampled_from(loops), label="parallel loop"))
        except ScheduleError:
            pass


def mark_parallel(sch: Schedule, kernels: list[str], data) -> None:
    """One or two random `parallel` marks in each kernel."""
    for kernel in kernels:
        for _ in range(data.draw(st.integers(1, 2), label="parallel marks")):
            mark_random_loops_parallel(sch, kernel, data)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=graph_programs(min_ops=2, max_ops=5), data=st.data(),
       steps=st.integers(0, 3), threads=st.sampled_from([2, 3]))
def test_random_parallel_schedules_compute_what_one_thread_computes(program, data, steps,
                                                                    threads):
    check_threads_change_nothing(program, data, steps, threads)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=graph_programs(min_ops=3, max_ops=12), data=st.data(),
       steps=st.integers(0, 8), threads=st.sampled_from([2, 3, 4]))
def test_larger_random_parallel_schedules_compute_what_one_thread_computes(program, data,
                                                                           steps, threads):
    check_threads_change_nothing(program, data, steps, threads)


def check_threads_change_nothing(program, data, steps: int, threads: int) -> None:
    note(program.text)
    module = program.module()
    inputs = [np.ascontiguousarray(x) for x in program.inputs()]
    expected = graph_evaluate(module, inputs)
    main = next(fn for fn in defined_functions(module) if fn.sym_name.value == "main")
    result_types = main.type.results
    standard = lowered_with_random_schedules(module, data, steps, then=mark_parallel)
    outputs = {}
    for count in (1, threads):
        native = compile_module(standard, num_threads=count)
        if count > 1:
            regions = native.llvm_ir.count("call void @GOMP_parallel(")
            event(f"parallel regions: {min(regions, 3)}{'+' if regions > 3 else ''}")
        outputs[count] = [np.zeros(t.shape, buffer_dtype(t.element_type)) for t in result_types]
        native["main"](*inputs, *outputs[count])
    for n, (serial, parallel, graph) in enumerate(zip(outputs[1], outputs[threads], expected)):
        assert_close(parallel, serial, SAME_OPS, SAME_OPS, f"output #{n}: {threads} threads vs 1")
        assert_close(serial, graph, RTOL, ATOL, f"output #{n} vs the graph interpreter")


def reduction_kernel(extents: list[int], steps: list[int], init: int) -> str:
    """`@reduce(A, out, n0, n1...)`: the sum (from `init`) and the maximum of A at the
    row-major position of each point of the box [0, n_d) by steps[d]."""
    dims = range(len(extents))
    size = max(1, int(np.prod(extents)))
    strides = [int(np.prod(extents[d + 1:])) for d in dims]
    position = ["%p0 = arith.constant 0 : index"]
    for d in dims:
        position += [f"%s{d} = arith.constant {strides[d]} : index",
                     f"%t{d} = arith.muli %i{d}, %s{d} : index",
                     f"%p{d + 1} = arith.addi %p{d}, %t{d} : index"]
    lines = "\n    ".join(position)
    steps_defined = "\n  ".join(f"%k{d} = arith.constant {steps[d]} : index" for d in dims)
    bounds = ", ".join(f"%n{d}: index" for d in dims)
    ivs, zeros = ", ".join(f"%i{d}" for d in dims), ", ".join("%c0" for _ in dims)
    uppers, step_list = ", ".join(f"%n{d}" for d in dims), ", ".join(f"%k{d}" for d in dims)
    return f"""
func.func @reduce(%A: memref<{size}xi64>, %out: memref<2xi64>, {bounds}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  {steps_defined}
  %init = arith.constant {init} : i64
  %low = arith.constant -1000000 : i64
  %r:2 = scf.parallel ({ivs}) = ({zeros}) to ({uppers}) step ({step_list})
      init (%init, %low) -> (i64, i64) {{
    {lines}
    %v = memref.load %A[%p{len(extents)}] : memref<{size}xi64>
    scf.reduce(%v, %v : i64, i64) {{
    ^bb0(%lhs: i64, %rhs: i64):
      %sum = arith.addi %lhs, %rhs : i64
      scf.reduce.return %sum : i64
    }}, {{
    ^bb0(%lhs: i64, %rhs: i64):
      %max = arith.maxsi %lhs, %rhs : i64
      scf.reduce.return %max : i64
    }}
  }}
  memref.store %r#0, %out[%c0] : memref<2xi64>
  memref.store %r#1, %out[%c1] : memref<2xi64>
  return
}}
"""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(extents=st.lists(st.integers(0, 9), min_size=1, max_size=3), data=st.data(),
       init=st.integers(-50, 50), threads=st.sampled_from([1, 2, 3, 5]))
def test_parallel_reductions_equal_numpy(extents, data, init, threads):
    steps = [data.draw(st.integers(1, 3), label=f"step {d}") for d in range(len(extents))]
    text = reduction_kernel(extents, steps, init)
    note(text)
    size = max(1, int(np.prod(extents)))
    a = np.random.default_rng(size).integers(-1000, 1000, size).astype(np.int64)
    out = np.zeros(2, np.int64)
    compile_module(parse_module(text, Context()), num_threads=threads)["reduce"](
        a, out, *extents)
    grid = np.zeros(extents, bool)
    grid[tuple(slice(0, e, s) for e, s in zip(extents, steps))] = True
    chosen = a[:int(np.prod(extents))][grid.ravel()] if grid.size else a[:0]
    assert out[0] == init + int(chosen.sum())
    assert out[1] == max([-1000000, *chosen.tolist()])
