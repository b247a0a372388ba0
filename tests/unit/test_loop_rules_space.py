"""The default rules as a search space (mlc.loop.rules.decisions): their choices drawn
by sample_categorical and recorded, the rules' own choices giving exactly the default
schedules, every sampled schedule replaying from its trace and computing what numpy
computes."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlc.ir import print_op
from mlc.ir.dialects.builtin import ModuleOp
from mlc.llvm.build import compile_module
from mlc.loop import te
from mlc.loop.rules import FIXED, SampledDecisions, default_schedule, kernels, schedule_kernel
from mlc.loop.rules.target import ScheduleTarget
from mlc.loop.schedule import Schedule, Trace
from mlc.loop.schedule.trace import SAMPLING_PRIMITIVES

AVX512 = ScheduleTarget.from_features("skylake-avx512", "")


def _module(fn) -> ModuleOp:
    module = ModuleOp.build()
    module.body.append(fn)
    return module


def _matmul_relu(m: int, n: int, k: int) -> ModuleOp:
    A = te.placeholder((m, k), "float32", name="A")
    B = te.placeholder((k, n), "float32", name="B")
    r = te.reduce_axis(k, name="k")
    Y = te.compute((m, n), lambda i, j: te.sum(A[i, r] * B[r, j], axis=r), name="Y")
    C = te.compute((m, n), lambda i, j: te.maximum(Y[i, j], 0.0), name="C")
    return _module(te.create_prim_func([A, B, C], name="mm_relu"))


def _softmax_parts(rows: int, width: int) -> ModuleOp:
    X = te.placeholder((rows, width), "float32", name="X")
    k = te.reduce_axis(width, name="k")
    M = te.compute((rows,), lambda i: te.max(X[i, k], axis=k), name="M")
    E = te.compute((rows, width), lambda i, j: te.exp(X[i, j] - M[i]), name="E")
    return _module(te.create_prim_func([X, M, E], name="softmax_parts"))


MAKERS = [lambda: _matmul_relu(64, 128, 32), lambda: _matmul_relu(32, 512, 512),
          lambda: _softmax_parts(8, 64)]


def _sampling(trace: Trace) -> list:
    return [inst for inst in trace.instructions if inst.kind in SAMPLING_PRIMITIVES]


def test_the_rules_own_decisions_give_the_default_schedules_exactly():
    for make in MAKERS:
        fixed, sampled = make(), make()
        [fixed_trace] = default_schedule(fixed, AVX512).values()
        assert not _sampling(fixed_trace)  # the default schedules are unchanged: no draws
        [fn] = kernels(sampled)
        own = schedule_kernel(fn, AVX512, SampledDecisions(default=True))
        assert _sampling(own)  # every choice recorded, with its candidates
        own.apply(Schedule(sampled, copy=False))
        assert print_op(sampled) == print_op(fixed)
        without = Trace([i for i in own.instructions if i.kind not in SAMPLING_PRIMITIVES])
        assert json.dumps(without.as_json()) == json.dumps(fixed_trace.as_json())


def test_sampled_schedules_differ_and_replay_exactly_from_their_json():
    module = _matmul_relu(32, 512, 512)
    [fn] = kernels(module)
    texts = set()
    for seed in range(6):
        trace = schedule_kernel(fn, AVX512, SampledDecisions(), seed=seed)
        replayed = Trace.from_json(json.loads(json.dumps(trace.as_json())))
        first, second = Schedule(module), Schedule(module)
        trace.apply(first)
        replayed.apply(second)
        assert print_op(first.mod) == print_op(second.mod)
        texts.add(print_op(first.mod))
    assert len(texts) > 1


def test_kept_decisions_are_taken_instead_of_drawn():
    module = _matmul_relu(32, 512, 512)
    [fn] = kernels(module)
    trace = schedule_kernel(fn, AVX512, SampledDecisions(), seed=3)
    decisions = [inst.outputs for inst in _sampling(trace)]
    again = schedule_kernel(fn, AVX512, SampledDecisions(), seed=99, keep=decisions)
    assert again.as_json() == trace.as_json()
    # A decision that does not fit is drawn instead (a search's mutation may ask one).
    bad = schedule_kernel(fn, AVX512, SampledDecisions(), seed=3, keep=[[[99, 99, 99]]])
    assert [i.outputs for i in _sampling(bad)][0] != [[99, 99, 99]]


def test_fixed_decisions_keep_the_rules_choices():
    assert FIXED.choose(None, [1, 2, 3], 2) == 2


def _run(module: ModuleOp, trace: Trace, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    sch = Schedule(module)
    trace.apply(sch)
    c = np.zeros((a.shape[0], b.shape[1]), np.float32)
    compile_module(sch.mod, num_threads=1)["mm_relu"](a, b, c)
    return c


# (m, n, k): a tile with rows enough for an L2 level and both orders of the loops
# over tiles; a reduction chunked with its panel packed (or not); a tiny one.
SHAPES = [(32, 64, 64), (16, 64, 512), (16, 64, 64)]


def test_the_space_holds_every_kind_of_decision():
    """Tile shape, chunk, packing, unroll, loop order, L2 level, parallel loops: each
    is drawn somewhere among SHAPES (a decision with one candidate is not recorded)."""
    host = ScheduleTarget.host()
    seen: set[str] = set()
    for shape in SHAPES:
        [fn] = kernels(_matmul_relu(*shape))
        for seed in range(24):
            for inst in _sampling(schedule_kernel(fn, host, SampledDecisions(), seed=seed)):
                value = inst.outputs[0]
                seen.add("tile" if isinstance(value, list) else
                         "packing" if value in ("pack", "in place") else
                         "order" if value in ("panels", "rows") else "number")
    assert seen == {"tile", "packing", "order", "number"}
    [fn] = kernels(_matmul_relu(32, 64, 64))
    candidates = [inst.inputs[0] for inst in
                  _sampling(schedule_kernel(fn, host, SampledDecisions(default=True)))]
    assert ["panels", "rows"] in candidates
    assert [2, 4] in candidates  # row tiles (4 of 8 rows) per L2 group, or none
    assert [0, 1, 2] in candidates  # parallel loops: none, the outer one, both


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1 << 20), shape=st.sampled_from(SHAPES))
def test_every_sampled_schedule_computes_what_the_default_computes(seed, shape):
    module = _matmul_relu(*shape)
    [fn] = kernels(module)
    host = AVX512.__class__.host()
    sampled = schedule_kernel(fn, host, SampledDecisions(), seed=seed)
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape[::2], dtype=np.float32)
    b = rng.standard_normal(shape[:0:-1], dtype=np.float32)
    got = _run(module, sampled, a, b)
    np.testing.assert_allclose(got, _run(module, schedule_kernel(fn, host), a, b),
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got, np.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)
