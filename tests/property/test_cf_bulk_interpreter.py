"""The interpreter's lock-step path for the loops convert-scf-to-cf leaves as blocks and
branches (mlc.ir.dialects.cf.bulk) computes what its scalar path computes, bit for bit:
on random schedules of mm_relu and of an elementwise chain lowered by loop-lower and
convert-scf-to-cf, on the default schedules of a padded convolution (a scratch tile
made private per lane, a branch on the reduction's first step), on hand-written nests
(a branch whose condition varies between lanes and whose successors meet again with a
value, nests it must refuse) and on an access out of bounds (the scalar path's error).
A deliberately wrong pass after convert-scf-to-cf is still found by --check-semantics."""

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlc.ir.testing.passes  # noqa: F401  (test-miscompile-addi)
from mlc.graph import GraphBuilder
from mlc.ir import Context, parse_module
from mlc.ir.interpreter import Interpreter, UndefinedBehavior, evaluate
from mlc.ir.passes.check_semantics import CheckSemantics
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins
from mlc.loop.schedule import Schedule, ScheduleError

sys.path.insert(0, str(Path(__file__).parent))
from loop_schedules import apply_random_primitive  # noqa: E402
from test_loop_schedule_semantics import KERNELS  # noqa: E402
from test_scf_bulk_interpreter import NESTS, assert_same, both_paths  # noqa: E402

TO_CF = "loop-lower,convert-scf-to-cf"


def lock_step_loops(module, arguments: list, function: str = "main") -> list:
    """Whether each cf loop entered ran in lock-step (its plan), in a run on copies."""
    interpreter = Interpreter(module)
    interpreter.call(interpreter.lookup_function(function), [a.copy() for a in arguments])
    plans = interpreter.state.get("scf.bulk.plans", {})
    return [plans.get(loop.header) is not False
            for loop in interpreter.state["cf.bulk.loops"].values() if loop is not None]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kernel=st.sampled_from(sorted(KERNELS)), data=st.data(),
       steps=st.integers(min_value=0, max_value=6))
def test_random_schedules_lowered_to_cf_run_the_same_in_lock_step(kernel, data, steps):
    load_pass_plugins()
    module, inputs, expected, out_shape = KERNELS[kernel]()
    sch = Schedule(module)
    for _ in range(steps):
        try:
            apply_random_primitive(sch, data)
        except ScheduleError:
            pass
    lowered = sch.mod
    run_pipeline(lowered, TO_CF)
    assert "scf." not in str(lowered)
    fast, scalar = both_paths(lowered, [*inputs, np.zeros(out_shape, np.float32)])
    assert_same(fast, scalar)
    np.testing.assert_allclose(fast[-1], expected(*inputs), rtol=1e-5, atol=1e-5)


def test_an_unscheduled_kernel_runs_in_lock_step():
    load_pass_plugins()
    module, inputs, _, out_shape = KERNELS["mm_relu"]()
    run_pipeline(module, TO_CF)
    ran = lock_step_loops(module, [*inputs, np.zeros(out_shape, np.float32)])
    assert ran and all(ran)


def test_default_schedules_of_a_padded_convolution():
    load_pass_plugins()
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((16, 8, 3, 3)).astype(np.float32)
    b = GraphBuilder()
    module = b.module(b.relu(b.conv2d(b.param("x", (1, 8, 10, 10)), b.const(weight),
                                      padding=1)))
    with PassContext(opt_level=3):
        run_pipeline(module, "graph-optimize,graph-lower-to-loop,loop-default-schedule,"
                             "loop-compact-buffers,loop-hoist-buffers,loop-plan-memory,"
                             f"{TO_CF}")
    x = rng.standard_normal((1, 8, 10, 10)).astype(np.float32)
    arguments = [x, np.zeros((1, 16, 10, 10), np.float32)]
    fast, scalar = both_paths(module, arguments)
    assert_same(fast, scalar)
    assert any(lock_step_loops(module, arguments))
    import torch

    expected = torch.relu(torch.nn.functional.conv2d(torch.tensor(x), torch.tensor(weight),
                                                     padding=1)).numpy()
    np.testing.assert_allclose(fast[1], expected, rtol=1e-5, atol=1e-5)


def nests_in_cf():
    module = parse_module(NESTS, Context())
    run_pipeline(module, "convert-scf-to-cf")
    return module


@pytest.mark.parametrize("function, shapes, lock_step", [
    ("running_sum", [(6,), (1,)], False), ("prefix_sum", [(6,)], False),
    ("rows", [(3, 4), (3, 4)], True)])
def test_hand_written_nests(function, shapes, lock_step):
    rng = np.random.default_rng(3)
    arguments = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    module = nests_in_cf()
    fast, scalar = both_paths(module, arguments, function)
    assert_same(fast, scalar)
    assert all(lock_step_loops(module, arguments, function)) == lock_step


def test_lanes_that_branch_apart_meet_again_with_their_values():
    """@rows squares the elements above 0.5 and negates the others: the condition
    varies between the lanes (the rows) at each column; the two paths meet again at
    the block whose argument is the stored value."""
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4).T.copy().reshape(3, 4)
    y = np.zeros((3, 4), np.float32)
    module = nests_in_cf()
    assert "cf.cond_br" in str(module)
    evaluate(module, "rows", [x, y])
    np.testing.assert_array_equal(y, np.where(x > 0.5, x * x, -x))
    assert all(lock_step_loops(module, [x, y], "rows"))


def test_an_access_out_of_bounds_is_the_scalar_paths_error():
    with pytest.raises(UndefinedBehavior, match=r"access at \[4\] out of the bounds"):
        evaluate(nests_in_cf(), "past_the_end",
                 [np.zeros(4, np.float32), np.zeros(4, np.float32)])


def test_a_wrong_pass_after_convert_scf_to_cf_is_found():
    load_pass_plugins()
    module, _, _, _ = KERNELS["mm_relu"]()
    run_pipeline(module, "loop-lower")
    instrument = CheckSemantics(seed=0, warn=pytest.fail)
    with PassContext(instruments=[instrument]):
        result = run_pipeline(module, "convert-scf-to-cf,test-miscompile-addi")
    (error,) = [d for d in result.diagnostics if d.severity == "error"]
    assert error.message.startswith("--check-semantics: pass 'test-miscompile-addi' changed")
