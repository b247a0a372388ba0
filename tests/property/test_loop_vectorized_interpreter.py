"""The interpreter's fast path for loop nests (mlc.loop.block_vectorized) computes what
its scalar path computes, bit for bit: on random schedules of the course's mm_relu and
of an elementwise chain (split, fuse, reorder, vectorize, unroll, compute_at,
decompose_reduction, cache_read/write ... drawn by tests/property/loop_schedules.py),
on a padded convolution and on a gather (which the fast path leaves to the scalar
one). Plus what it is for: a 128x128x128 mm_relu runs in bulk."""

import sys
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlc.graph import GraphBuilder
from mlc.ir.interpreter import Interpreter, evaluate
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins
from mlc.loop.block_vectorized import vectorized_plan
from mlc.loop.schedule import Schedule, ScheduleError
from mlc.loop.semantics import scalar_loops

sys.path.insert(0, str(Path(__file__).parent))
from loop_schedules import apply_random_primitive  # noqa: E402
from test_loop_schedule_semantics import KERNELS  # noqa: E402


def both_paths(module, inputs, out_shape, dtype=np.float32):
    outputs = []
    for scalar in (False, True):
        out = np.zeros(out_shape, dtype)
        if scalar:
            with scalar_loops():
                evaluate(module, "main", [*inputs, out])
        else:
            evaluate(module, "main", [*inputs, out])
        outputs.append(out)
    return outputs


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kernel=st.sampled_from(sorted(KERNELS)), data=st.data(),
       steps=st.integers(min_value=0, max_value=6))
def test_random_schedules_run_the_same_in_bulk(kernel, data, steps):
    module, inputs, _, out_shape = KERNELS[kernel]()
    sch = Schedule(module)
    for _ in range(steps):
        try:
            apply_random_primitive(sch, data)
        except ScheduleError:
            pass
    fast, scalar = both_paths(sch.mod, inputs, out_shape)
    np.testing.assert_array_equal(fast, scalar)


def lowered_graph(build):
    load_pass_plugins()
    b = GraphBuilder()
    module = b.module(build(b))
    with PassContext(opt_level=3):
        run_pipeline(module, "graph-optimize,graph-lower-to-loop")
    return module


def test_a_padded_convolution_with_bias_and_relu():
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    module = lowered_graph(lambda b: b.relu(b.conv2d(b.param("x", (1, 3, 6, 6)),
                                                    b.const(weight), padding=1, strides=2)))
    x = rng.standard_normal((1, 3, 6, 6)).astype(np.float32)
    fast, scalar = both_paths(module, [x], (1, 4, 3, 3))
    np.testing.assert_array_equal(fast, scalar)


def test_a_gather_runs_on_the_scalar_path_and_agrees():
    rng = np.random.default_rng(1)
    table = rng.standard_normal((7, 4)).astype(np.float32)
    module = lowered_graph(lambda b: b.gather(b.const(table), b.param("i", (3,), "int64"),
                                              axis=0))
    indices = np.array([6, 0, -2])
    fast, scalar = both_paths(module, [indices], (3, 4))
    np.testing.assert_array_equal(fast, table[[6, 0, 5]])
    np.testing.assert_array_equal(fast, scalar)
    kernel = next(op for op in module.walk() if op.name == "loop.for")
    assert vectorized_plan(Interpreter(module), kernel) is None


def test_a_128_cube_mm_relu_runs_in_bulk():
    text = (Path(__file__).parents[2] / "examples" / "mm_relu.mlir").read_text()
    from mlc.ir import Context, parse_module

    module = parse_module(text, Context())
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((128, 128)).astype(np.float32) for _ in range(2))
    out = np.zeros((128, 128), np.float32)
    interpreter = Interpreter(module)
    interpreter.call(interpreter.lookup_function("main"), [a, b, out])
    plans = interpreter.state["loop.vectorized_plans"]
    assert len(plans) == 2 and all(p is not None for p in plans.values())
    np.testing.assert_allclose(out, np.maximum(a.astype(np.float64) @ b, 0), rtol=1e-4,
                               atol=1e-4)
