"""The interpreter's fast path for loop nests (mlc.loop.block_vectorized) computes what
its scalar path computes, bit for bit: on random schedules of the course's mm_relu and
of an elementwise chain (split, fuse, reorder, vectorize, unroll, compute_at,
decompose_reduction, cache_read/write ... drawn by tests/property/loop_schedules.py),
on a padded convolution, on a gather (which the fast path leaves to the scalar
one) and on spatial points adding into one element (refused by its distinct-store
check). Plus what it is for: a 128x128x128 mm_relu runs in bulk."""

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


def default_scheduled(build):
    module = lowered_graph(build)
    run_pipeline(module, "loop-default-schedule")
    return module


def test_a_default_scheduled_convolution_runs_as_one_band():
    """loop-default-schedule leaves a convolution's tile loops holding four nests (the
    padding computed at the tile, the init, the update, the epilogue): they run as a
    band, each nest once over every tile, bit for bit as the scalar path."""
    rng = np.random.default_rng(2)
    weight = rng.standard_normal((16, 4, 3, 3)).astype(np.float32)
    bias = rng.standard_normal((16,)).astype(np.float32)
    module = default_scheduled(lambda b: b.relu(b.bias_add(b.conv2d(
        b.param("x", (1, 4, 8, 8)), b.const(weight), padding=1), b.const(bias), axis=1)))
    x = rng.standard_normal((1, 4, 8, 8)).astype(np.float32)
    kernel = next(op for op in module.walk() if op.name == "func.func"
                  and op.attributes["sym_name"].value != "main")
    interpreter = Interpreter(module)
    inputs = [x, *(np.asarray(a) for a in _constants(module, kernel))]
    fast = np.zeros((1, 16, 8, 8), np.float32)
    interpreter.call(kernel, [*inputs, fast])
    bands = [p for p in interpreter.state.get("loop.band_plans", {}).values() if p is not None]
    assert bands and {len(p.nests) for p in bands} == {4}
    scalar = np.zeros_like(fast)
    with scalar_loops():
        evaluate(module, kernel.attributes["sym_name"].value, [*inputs, scalar])
    np.testing.assert_array_equal(fast, scalar)
    reference = np.maximum(0, _conv(x, weight) + bias.reshape(16, 1, 1))
    np.testing.assert_allclose(fast, reference, rtol=1e-5, atol=1e-5)


def _conv(x, weight):
    """A 3x3 convolution with padding 1, in float64 (the independent reference)."""
    padded = np.pad(x[0].astype(np.float64), ((0, 0), (1, 1), (1, 1)))
    out = np.zeros((weight.shape[0], x.shape[2], x.shape[3]))
    for ry in range(3):
        for rx in range(3):
            window = padded[:, ry:ry + x.shape[2], rx:rx + x.shape[3]]
            out += np.einsum("oc,chw->ohw", weight[:, :, ry, rx], window)
    return out[None]


def _constants(module, kernel):
    """The arrays main passes the kernel after x (its weights), by the call's operands."""
    from mlc.graph.ops.constant import constant_array

    call = next(op for op in module.walk() if op.name == "func.call")
    values = []
    for operand in list(call.operands)[1:-1]:
        values.append(constant_array(operand.owner.attributes["value"]))
    return values


OVERREACH = """
func.func @main(%X: memref<9xf32>, %Y: memref<8xf32>) {
  %T = loop.alloc_buffer : memref<9xf32>
  loop.for parallel %i = 0 to 4 {
    loop.for %a = 0 to 2 {
      loop.block "T"(%vt = spatial(9, %i * 2 + %a)) {
        %x = loop.load %X[%vt] : memref<9xf32>
        loop.store %x, %T[%vt] : memref<9xf32>
      }
    }
    loop.for %b = 0 to 2 {
      loop.block "Y"(%vy = spatial(8, %i * 2 + %b)) {
        %t = loop.load %T[%vy + 1] : memref<9xf32>
        loop.store %t, %Y[%vy] : memref<8xf32>
      }
    }
  }
  return
}
"""


def test_a_band_reading_past_what_its_iteration_computed_runs_on_the_scalar_path():
    """Each iteration reads one element of T the next iteration computes: in bulk every
    element would be computed before any is read, hiding what the scalar path shows
    (elements read before they are written: NaN). Refused as a band."""
    from mlc.ir import Context, parse_module

    module = parse_module(OVERREACH, Context())
    x = np.arange(9, dtype=np.float32)
    fast, scalar = both_paths(module, [x], (8,))
    np.testing.assert_array_equal(fast, scalar)
    # T[2i + 2] is read before iteration i + 1 computes it: fresh storage, NaN
    assert list(fast[0::2]) == [1, 3, 5, 7] and np.isnan(fast[1::2]).all()
    interpreter = Interpreter(module)
    interpreter.call(interpreter.lookup_function("main"), [x, np.zeros(8, np.float32)])
    assert list(interpreter.state["loop.band_plans"].values()) == [None]


def _overlapping_stores(rows: int, columns: int, stride: int) -> str:
    return f"""
func.func @main(%X: memref<{rows}x{columns}xf32>, %Y: memref<{rows * columns}xf32>) {{
  loop.for %i = 0 to {rows} {{
    loop.for %j = 0 to {columns} {{
      loop.block "Y"(%vi = spatial({rows}, %i), %vj = spatial({columns}, %j)) {{
        %x = loop.load %X[%vi, %vj] : memref<{rows}x{columns}xf32>
        %y = loop.load %Y[%vi * {stride} + %vj] : memref<{rows * columns}xf32>
        %sum = arith.addf %y, %x : f32
        loop.store %sum, %Y[%vi * {stride} + %vj] : memref<{rows * columns}xf32>
      }}
    }}
  }}
  return
}}
"""


@settings(max_examples=25, deadline=None)
@given(rows=st.integers(1, 5), columns=st.integers(1, 5), data=st.data())
def test_spatial_points_writing_one_element_run_on_the_scalar_path(rows, columns, data):
    """A stride below the row length makes spatial points add into one element (each
    point reading what the one before wrote, on the scalar path): the distinct-store
    check sends the nest to the scalar path; at the row length they are distinct and
    run in bulk. Both agree with the scalar path and with numpy's np.add.at."""
    from mlc.ir import Context, parse_module

    stride = data.draw(st.integers(0, columns))
    module = parse_module(_overlapping_stores(rows, columns, stride), Context())
    x = np.arange(1, rows * columns + 1, dtype=np.float32).reshape(rows, columns)
    fast, scalar = both_paths(module, [x], (rows * columns,))
    np.testing.assert_array_equal(fast, scalar)
    expected = np.zeros(rows * columns, np.float32)
    rows_at, columns_at = np.indices((rows, columns))
    np.add.at(expected, (rows_at * stride + columns_at).reshape(-1), x.reshape(-1))
    np.testing.assert_array_equal(fast, expected)
