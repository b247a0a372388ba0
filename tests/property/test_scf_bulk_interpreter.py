"""The interpreter's lock-step path for scf loop nests (mlc.ir.dialects.scf.bulk)
computes what its scalar path computes, bit for bit: on random schedules of mm_relu and
of an elementwise chain (tests/property/loop_schedules.py) lowered by loop-lower, on
the default schedules of a padded convolution (a compacted tile shared by the
iterations: made private per lane), on hand-written nests it must refuse (a running sum
carried through memory, a prefix sum reading the previous iteration's element) and on
an access out of bounds (the scalar path's error)."""

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlc.graph import GraphBuilder
from mlc.ir import Context, parse_module
from mlc.ir.dialects.scf.bulk import scalar_scf_loops
from mlc.ir.interpreter import Interpreter, UndefinedBehavior, evaluate
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins
from mlc.loop.schedule import Schedule, ScheduleError

sys.path.insert(0, str(Path(__file__).parent))
from loop_schedules import apply_random_primitive  # noqa: E402
from test_loop_schedule_semantics import KERNELS  # noqa: E402


def both_paths(module, arguments: list, function: str = "main") -> list:
    """The arguments after a run in lock-step and after a scalar run (fresh copies)."""
    results = []
    for scalar in (False, True):
        copies = [a.copy() for a in arguments]
        if scalar:
            with scalar_scf_loops():
                evaluate(module, function, copies)
        else:
            evaluate(module, function, copies)
        results.append(copies)
    return results


def assert_same(fast: list, scalar: list) -> None:
    for a, b in zip(fast, scalar):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kernel=st.sampled_from(sorted(KERNELS)), data=st.data(),
       steps=st.integers(min_value=0, max_value=6))
def test_random_schedules_lowered_to_scf_run_the_same_in_lock_step(kernel, data, steps):
    load_pass_plugins()
    module, inputs, _, out_shape = KERNELS[kernel]()
    sch = Schedule(module)
    for _ in range(steps):
        try:
            apply_random_primitive(sch, data)
        except ScheduleError:
            pass
    lowered = sch.mod
    run_pipeline(lowered, "loop-lower")
    fast, scalar = both_paths(lowered, [*inputs, np.zeros(out_shape, np.float32)])
    assert_same(fast, scalar)


def test_default_schedules_of_a_padded_convolution():
    """The schedule compacts the accumulator into a tile every output block reuses:
    the lanes get private copies, and the result is the scalar path's."""
    load_pass_plugins()
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((16, 8, 3, 3)).astype(np.float32)
    b = GraphBuilder()
    module = b.module(b.relu(b.conv2d(b.param("x", (1, 8, 10, 10)), b.const(weight),
                                      padding=1)))
    with PassContext(opt_level=3):
        run_pipeline(module, "graph-optimize,graph-lower-to-loop,loop-default-schedule,"
                             "loop-compact-buffers,loop-hoist-buffers,loop-plan-memory,"
                             "loop-lower")
    x = rng.standard_normal((1, 8, 10, 10)).astype(np.float32)
    fast, scalar = both_paths(module, [x, np.zeros((1, 16, 10, 10), np.float32)])
    assert_same(fast, scalar)
    import torch

    expected = torch.relu(torch.nn.functional.conv2d(torch.tensor(x), torch.tensor(weight),
                                                     padding=1)).numpy()
    np.testing.assert_allclose(fast[1], expected, rtol=1e-5, atol=1e-5)


NESTS = """
func.func @running_sum(%x: memref<6xf32>, %total: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.for %i = %c0 to %c6 step %c1 {
    %a = memref.load %total[%c0] : memref<1xf32>
    %b = memref.load %x[%i] : memref<6xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %total[%c0] : memref<1xf32>
  }
  return
}
func.func @prefix_sum(%x: memref<6xf32>) {
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.for %i = %c1 to %c6 step %c1 {
    %j = arith.subi %i, %c1 : index
    %a = memref.load %x[%j] : memref<6xf32>
    %b = memref.load %x[%i] : memref<6xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %x[%i] : memref<6xf32>
  }
  return
}
func.func @rows(%x: memref<3x4xf32>, %y: memref<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %half = arith.constant 0.5 : f32
  scf.parallel (%i) = (%c0) to (%c3) step (%c1) {
    scf.for %j = %c0 to %c4 step %c1 {
      %a = memref.load %x[%i, %j] : memref<3x4xf32>
      %big = arith.cmpf ogt, %a, %half : f32
      %v = scf.if %big -> f32 {
        %d = arith.mulf %a, %a : f32
        scf.yield %d : f32
      } else {
        %n = arith.negf %a : f32
        scf.yield %n : f32
      }
      memref.store %v, %y[%i, %j] : memref<3x4xf32>
    }
  }
  return
}
func.func @past_the_end(%x: memref<4xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %j = arith.addi %i, %c1 : index
    %a = memref.load %x[%j] : memref<4xf32>
    memref.store %a, %y[%i] : memref<4xf32>
  }
  return
}
"""


def nests():
    return parse_module(NESTS, Context())


@pytest.mark.parametrize("function, shapes", [
    ("running_sum", [(6,), (1,)]), ("prefix_sum", [(6,)]), ("rows", [(3, 4), (3, 4)])])
def test_hand_written_nests(function, shapes):
    rng = np.random.default_rng(3)
    arguments = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    fast, scalar = both_paths(nests(), arguments, function)
    assert_same(fast, scalar)


def test_nests_it_refuses_run_on_the_scalar_path():
    module = nests()
    interpreter = Interpreter(module)
    x = np.arange(6, dtype=np.float32)
    interpreter.call(interpreter.lookup_function("prefix_sum"), [x])
    np.testing.assert_array_equal(x, np.cumsum(np.arange(6, dtype=np.float32)))
    plans = interpreter.state["scf.bulk.plans"]
    assert list(plans.values()) == [False]  # a lane reads what the one before wrote


def test_rows_run_in_lock_step():
    interpreter = Interpreter(nests())
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    y = np.zeros((3, 4), np.float32)
    interpreter.call(interpreter.lookup_function("rows"), [x, y])
    np.testing.assert_array_equal(y, np.where(x > 0.5, x * x, -x))
    assert all(plan is not False for plan in interpreter.state["scf.bulk.plans"].values())


def test_an_access_out_of_bounds_is_the_scalar_paths_error():
    with pytest.raises(UndefinedBehavior, match=r"access at \[4\] out of the bounds"):
        evaluate(nests(), "past_the_end", [np.zeros(4, np.float32), np.zeros(4, np.float32)])
