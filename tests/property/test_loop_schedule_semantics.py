"""Random schedules keep what a kernel computes: hypothesis draws sequences of
primitives with random arguments on two kernels (the course's mm_relu, and a
three-stage elementwise/broadcast chain); a primitive that is refused must leave the
IR unchanged, and after every sequence the kernel verifies, prints and parses back
unchanged, and computes what numpy computes (float32, rtol 1e-5). The trace replays
to the same module. Then loop-lower and canonicalize take it to scf/memref/vector,
which round-trips through text and still computes the same (vectorized loops as
vector ops where they can be)."""

import sys
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlc.ir import parse_module, print_op, verify
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.interpreter import evaluate
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.loop import te
from mlc.loop.schedule import Schedule, ScheduleError, Trace

sys.path.insert(0, str(Path(__file__).parent))
from loop_schedules import apply_random_primitive  # noqa: E402


def _module(func):
    module = ModuleOp.build()
    module.body.append(func)
    return parse_module(print_op(module))


def _mm_relu():
    A = te.placeholder((8, 4), name="A")
    B = te.placeholder((4, 6), name="B")
    k = te.reduce_axis(4, name="k")
    Y = te.compute((8, 6), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="Y")
    C = te.compute((8, 6), lambda i, j: te.maximum(Y[i, j], 0.0), name="C")
    inputs = [np.random.default_rng(1).standard_normal(s).astype(np.float32)
              for s in ((8, 4), (4, 6))]
    return _module(te.create_prim_func([A, B, C])), inputs, \
        lambda a, b: np.maximum(a @ b, 0), (8, 6)


def _chain():
    X = te.placeholder((4, 6), name="X")
    b = te.placeholder((6,), name="b")
    T = te.compute((4, 6), lambda i, j: X[i, j] + b[j], name="T")
    U = te.compute((4, 6), lambda i, j: T[i, j] * 2.0, name="U")
    V = te.compute((4, 6), lambda i, j: te.tanh(U[i, j]), name="V")
    inputs = [np.random.default_rng(2).standard_normal(s).astype(np.float32)
              for s in ((4, 6), (6,))]
    return _module(te.create_prim_func([X, b, V])), inputs, \
        lambda x, bias: np.tanh((x + bias) * 2), (4, 6)


KERNELS = {"mm_relu": _mm_relu, "chain": _chain}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kernel=st.sampled_from(sorted(KERNELS)), data=st.data(),
       steps=st.integers(min_value=1, max_value=6))
def test_random_schedules_keep_the_result(kernel, data, steps):
    module, inputs, expected, out_shape = KERNELS[kernel]()
    sch = Schedule(module)
    for _ in range(steps):
        before = print_op(sch.mod)
        try:
            apply_random_primitive(sch, data)
        except ScheduleError:
            assert print_op(sch.mod) == before, "a refused primitive changed the IR"
    verify(sch.mod)
    text = print_op(sch.mod)
    assert print_op(parse_module(text)) == text
    out = np.zeros(out_shape, np.float32)
    evaluate(sch.mod, "main", [*inputs, out])
    np.testing.assert_allclose(out, expected(*inputs), rtol=1e-5, atol=1e-5)
    replayed = Schedule(module)
    Trace.from_json(sch.trace.as_json()).apply(replayed)
    assert print_op(replayed.mod) == text
    lowered = parse_module(text)
    with PassContext(opt_level=3):
        result = run_pipeline(lowered, "loop-lower,canonicalize,loop-invariant-code-motion,cse")
    assert result.success, result.diagnostics
    verify(lowered)
    lowered_text = print_op(lowered)
    assert "loop." not in lowered_text
    assert print_op(parse_module(lowered_text)) == lowered_text
    out = np.zeros(out_shape, np.float32)
    evaluate(lowered, "main", [*inputs, out])
    np.testing.assert_allclose(out, expected(*inputs), rtol=1e-5, atol=1e-5)
