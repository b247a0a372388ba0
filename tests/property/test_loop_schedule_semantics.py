"""Random schedules keep what a kernel computes: hypothesis draws sequences of
primitives with random arguments on two kernels (the course's mm_relu, and a
three-stage elementwise/broadcast chain); a primitive that is refused must leave the
IR unchanged, and after every sequence the kernel verifies, prints and parses back
unchanged, and computes what numpy computes (float32, rtol 1e-5). The trace replays
to the same module. Then loop-lower and canonicalize take it to scf/memref/vector,
which round-trips through text and still computes the same (vectorized loops as
vector ops where they can be)."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlc.ir import parse_module, print_op, verify
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.interpreter import evaluate
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.loop import te
from mlc.loop.ops import BlockOp
from mlc.loop.schedule import Schedule, ScheduleError, Trace


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
PRIMITIVES = ("split", "fuse", "reorder", "parallel", "vectorize", "unroll",
              "compute_at", "reverse_compute_at", "decompose_reduction", "compute_inline",
              "reverse_compute_inline", "cache_read", "cache_write")


def _apply_random(sch: Schedule, data) -> None:
    blocks = [op.block_name_str for op in sch.mod.walk() if isinstance(op, BlockOp)]
    block = sch.get_block(data.draw(st.sampled_from(sorted(blocks)), label="block"))
    loops = sch.get_loops(block)
    kind = data.draw(st.sampled_from(PRIMITIVES), label="primitive")
    if kind in ("split", "parallel", "vectorize", "unroll", "decompose_reduction") and loops:
        loop = data.draw(st.sampled_from(loops), label="loop")
        if kind == "split":
            extent = sch.get(loop).extent.value
            divisors = [d for d in range(1, extent + 1) if extent % d == 0]
            inner = data.draw(st.sampled_from(divisors), label="factor")
            sch.split(loop, factors=[None, inner])
        elif kind == "decompose_reduction":
            sch.decompose_reduction(block, loop)
        else:
            getattr(sch, kind)(loop)
    elif kind == "fuse" and len(loops) >= 2:
        start = data.draw(st.integers(0, len(loops) - 2), label="start")
        sch.fuse(loops[start], loops[start + 1])
    elif kind == "reorder" and len(loops) >= 2:
        order = data.draw(st.permutations(loops), label="order")
        sch.reorder(*order)
    elif kind in ("compute_at", "reverse_compute_at"):
        others = [b for b in sorted(blocks) if b != sch.get(block).block_name_str]
        if not others:
            return
        target_loops = sch.get_loops(sch.get_block(data.draw(st.sampled_from(others))))
        if target_loops:
            getattr(sch, kind)(block, data.draw(st.sampled_from(target_loops), label="at"))
    elif kind in ("compute_inline", "reverse_compute_inline"):
        getattr(sch, kind)(block)
    elif kind in ("cache_read", "cache_write"):
        getattr(sch, kind)(block, data.draw(st.integers(0, 1), label="buffer"), "local")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kernel=st.sampled_from(sorted(KERNELS)), data=st.data(),
       steps=st.integers(min_value=1, max_value=6))
def test_random_schedules_keep_the_result(kernel, data, steps):
    module, inputs, expected, out_shape = KERNELS[kernel]()
    sch = Schedule(module)
    for _ in range(steps):
        before = print_op(sch.mod)
        try:
            _apply_random(sch, data)
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
