"""The default schedule rules (mlc.loop.rules): what they choose for each kind of
kernel, for which target, that their output round-trips as text and their traces
replay, and that scheduled kernels compute what the unscheduled ones do (natively,
against numpy)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from mlc.ir import Context, parse_module, print_op
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins
from mlc.llvm.build import build, compile_module, graph_to_loops
from mlc.llvm.target import Target
from mlc.loop import te
from mlc.loop.ops import ForOp
from mlc.loop.rules import default_schedule, kernels
from mlc.loop.rules.target import ScheduleTarget
from mlc.loop.schedule import Schedule, Trace

load_pass_plugins()
AVX512 = ScheduleTarget.from_features("skylake-avx512", "")
AVX2 = ScheduleTarget.from_features("haswell", "")
rng = np.random.default_rng(11)


def _module(*functions) -> ModuleOp:
    module = ModuleOp.build()
    for fn in functions:
        module.body.append(fn)
    return module


def _matmul_relu(m: int, n: int, k: int) -> ModuleOp:
    A = te.placeholder((m, k), "float32", name="A")
    B = te.placeholder((k, n), "float32", name="B")
    r = te.reduce_axis(k, name="k")
    Y = te.compute((m, n), lambda i, j: te.sum(A[i, r] * B[r, j], axis=r), name="Y")
    C = te.compute((m, n), lambda i, j: te.maximum(Y[i, j], 0.0), name="C")
    return _module(te.create_prim_func([A, B, C], name="mm_relu"))


def _row_softmax_parts(rows: int, width: int) -> ModuleOp:
    X = te.placeholder((rows, width), "float32", name="X")
    k = te.reduce_axis(width, name="k")
    M = te.compute((rows,), lambda i: te.max(X[i, k], axis=k), name="M")
    k2 = te.reduce_axis(width, name="k2")
    S = te.compute((rows,), lambda i: te.sum(X[i, k2] - M[i], axis=k2), name="S")
    return _module(te.create_prim_func([X, M, S], name="rows"))


def _vector_widths(module) -> set[int]:
    return {op.extent.value for op in module.walk()
            if isinstance(op, ForOp) and op.loop_kind == "vectorized"}


def test_a_matmul_gets_a_register_tile_of_vector_accumulators():
    module = _matmul_relu(64, 128, 32)
    [trace] = default_schedule(module, AVX512).values()
    text = trace.as_python()
    assert "sch.decompose_reduction" in text and "sch.reverse_compute_at" in text
    assert _vector_widths(module) == {16}
    loops = [op for op in module.walk() if isinstance(op, ForOp)]
    unrolled = [op.extent.value for op in loops if op.loop_kind == "unrolled"]
    assert unrolled  # rows and vectors of the tile
    # The reduction loop runs outside the tile's unrolled and vectorized loops.
    k = next(op for op in loops if op.induction_variable.name_hint == "k")
    inner = [op for op in k.walk() if isinstance(op, ForOp) and op is not k]
    assert inner and all(op.loop_kind in ("unrolled", "vectorized") for op in inner)


def test_rules_read_the_vector_width_from_the_target():
    wide, narrow = _matmul_relu(32, 64, 16), _matmul_relu(32, 64, 16)
    default_schedule(wide, AVX512)
    default_schedule(narrow, AVX2)
    assert _vector_widths(wide) == {16} and _vector_widths(narrow) == {8}


@pytest.mark.parametrize("cpu, lanes", [("haswell", 8), ("skylake-avx512", 16)])
def test_networks_are_compiled_with_the_targets_vector_width(cpu, lanes):
    # The whole path for a CPU other than this machine's: the layouts' channel blocks
    # and the schedules' vectors follow it.
    from mlc.graph.examples import resnet18

    module = resnet18(image_size=32, num_classes=10).module
    with PassContext(opt_level=3):
        assert run_pipeline(module, graph_to_loops(Target(cpu=cpu))).success
    default_schedule(module, ScheduleTarget.from_features(cpu, ""))
    assert max(_vector_widths(module)) == lanes
    # activations in NCHW{lanes}c: 5-D buffers whose last axis is the channel block
    assert re.search(rf"memref<1x\d+x\d+x\d+x{lanes}xf32>", print_op(module))


def test_row_reductions_are_factored_into_vector_lanes():
    module = _row_softmax_parts(8, 64)
    [trace] = default_schedule(module, AVX512).values()
    assert trace.as_python().count("sch.rfactor") == 2
    assert _vector_widths(module) == {16}
    x = rng.standard_normal((8, 64)).astype(np.float32)
    m, s = np.zeros(8, np.float32), np.zeros(8, np.float32)
    compile_module(module)["rows"](x, m, s)
    np.testing.assert_array_equal(m, x.max(1))  # a maximum is exact in any order
    np.testing.assert_allclose(s, (x - x.max(1, keepdims=True)).sum(1), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("make", [lambda: _matmul_relu(48, 96, 24),
                                  lambda: _row_softmax_parts(12, 48)])
def test_rule_outputs_round_trip_and_their_traces_replay(make):
    original = make()
    scheduled = original.clone()
    traces = default_schedule(scheduled, AVX512)
    text = print_op(scheduled)
    assert print_op(parse_module(text, Context())) == text
    replayed = Schedule(original)
    for trace in traces.values():
        Trace.from_json(trace.as_json()).apply(replayed)
    assert print_op(replayed.mod) == text


def test_scheduled_kernels_compute_what_numpy_computes():
    module = _matmul_relu(40, 80, 36)
    default_schedule(module, AVX512)
    a = rng.standard_normal((40, 36)).astype(np.float32)
    b = rng.standard_normal((36, 80)).astype(np.float32)
    c = np.zeros((40, 80), np.float32)
    compile_module(module)["mm_relu"](a, b, c)
    np.testing.assert_allclose(c, np.maximum(a @ b, 0), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("rows, tiled_by, guarded", [(61, 6, True), (64, 8, False)])
def test_a_prime_number_of_rows_gets_a_full_tile_with_a_tail(rows, tiled_by, guarded):
    # 61 rows: the dividing tile would be one row of 4 vectors (4 accumulators); rows
    # of 6 with a tail give 24, the last tile cut by a predicate (and peeled natively).
    # 64 rows keep a dividing tile.
    module = _matmul_relu(rows, 64, 32)
    [trace] = default_schedule(module, AVX512).values()
    assert f"factors=[None, {tiled_by}]" in trace.as_python()
    assert ("where(" in print_op(module)) == guarded
    a = rng.standard_normal((rows, 32)).astype(np.float32)
    b = rng.standard_normal((32, 64)).astype(np.float32)
    c = np.full((rows, 64), np.nan, np.float32)
    compile_module(module)["mm_relu"](a, b, c)
    np.testing.assert_allclose(c, np.maximum(a @ b, 0), rtol=1e-5, atol=1e-5)


def _dense_packed(m: int, n: int, k: int) -> ModuleOp:
    """A dense layer on weights packed in panels of 16 (NK16n), with a bias."""
    X = te.placeholder((m, k), "float32", name="X")
    W = te.placeholder((n // 16, k, 16), "float32", name="W")
    bias = te.placeholder((n,), "float32", name="bias")
    r = te.reduce_axis(k, name="k")
    Y = te.compute((m, n), lambda i, j: te.sum(X[i, r] * W[j // 16, r, j % 16], axis=r),
                   name="Y")
    Z = te.compute((m, n), lambda i, j: Y[i, j] + bias[j], name="Z")
    return _module(te.create_prim_func([X, W, bias, Z], name="dense"))


def test_a_panel_larger_than_most_of_the_l1_is_reduced_in_chunks():
    # 1024 x 32 weights a panel: 128 KB, streamed from L2 for every row tile without
    # chunks. In chunks of the reduction each share stays in L1 (Skylake's 32 KB: 16 KB
    # chunks, within 3/4 of it); the outputs of the panel wait in a buffer between
    # chunks, the bias added after the last one.
    module = _dense_packed(64, 64, 1024)
    [trace] = default_schedule(module, AVX512).values()
    text = trace.as_python()
    # rows of 8, 2 x 16 lanes, and the reduction in chunks of 128
    assert AVX512.l1_bytes == 32 << 10
    assert "factors=[None, 8])" in text and "factors=[None, 2, 16])" in text
    assert "factors=[None, 128])" in text
    assert "cache_read" not in text  # packed weights: each chunk is already contiguous
    x = rng.standard_normal((64, 1024)).astype(np.float32)
    w = rng.standard_normal((64, 1024)).astype(np.float32)
    bias = rng.standard_normal(64).astype(np.float32)
    packed = np.ascontiguousarray(w.reshape(4, 16, 1024).transpose(0, 2, 1))
    z = np.zeros((64, 64), np.float32)
    compile_module(module)["dense"](x, packed, bias, z)
    np.testing.assert_allclose(z, x @ w.T + bias, rtol=1e-4, atol=1e-4)


def test_a_scattered_panel_is_packed_chunk_by_chunk_and_the_rows_blocked():
    # A matmul's right operand: a chunk of 32 columns is 32 floats of every row, a
    # whole row apart. It is copied into a contiguous buffer at each chunk, and the rows
    # are blocked so that a block's outputs stay in L1.
    module = _matmul_relu(512, 64, 512)
    [trace] = default_schedule(module, AVX512).values()
    text = trace.as_python()
    assert "sch.cache_read(block=b0, read_buffer_index=1" in text  # B
    assert "sch.compute_at(block=b2" in text
    assert "factors=[None, 16, 8])" in text  # blocks of 16 row tiles of 8 rows
    a = rng.standard_normal((512, 512)).astype(np.float32)
    b = rng.standard_normal((512, 64)).astype(np.float32)
    c = np.zeros((512, 64), np.float32)
    compile_module(module)["mm_relu"](a, b, c)
    np.testing.assert_allclose(c, np.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)


def test_a_user_schedule_is_left_alone():
    sch = Schedule(_matmul_relu(32, 32, 32))
    i, j, k = sch.get_loops(sch.get_block("Y", "mm_relu"))
    sch.split(j, [None, 4])
    before = print_op(sch.mod)
    traces = default_schedule(sch.mod, AVX512)
    # Y was scheduled by hand: only the untouched epilogue C gets a rule.
    assert "get_block(name=\"Y\"" not in traces["mm_relu"].as_python()
    assert before != print_op(sch.mod)


def test_build_applies_the_default_schedules_unless_told_not_to():
    from mlc.graph.examples import mlp

    module = mlp(in_features=32, hidden=16, num_classes=4).module
    scheduled, plain = build(module), build(module, schedule=None)
    assert scheduled.schedules and not plain.schedules
    assert all(isinstance(t, Trace) for t in scheduled.schedules.values())
    x = rng.standard_normal((1, 32)).astype(np.float32)
    np.testing.assert_allclose(scheduled(x), plain(x), rtol=1e-5, atol=1e-6)
    with pytest.raises(Exception, match="schedule must be one of"):
        build(module, schedule="fastest")


def test_the_pass_reports_schedules_and_takes_a_target(tmp_path):
    module = _matmul_relu(16, 32, 8)
    with PassContext(config={"loop.default-schedule.print": True}):
        result = run_pipeline(module, "loop-default-schedule{cpu=haswell}")
    assert result.success
    remarks = [d.message for d in result.diagnostics if d.severity == "remark"]
    assert len(remarks) == 1 and "schedule of @mm_relu (haswell: 256-bit" in remarks[0]
    assert _vector_widths(module) == {8}
    assert [fn.attributes["sym_name"].value for fn in kernels(module)] == ["mm_relu"]


@pytest.mark.parametrize("strides", [1, 2])
def test_a_depthwise_convolutions_padding_is_computed_on_the_tile(strides):
    # Each panel of channels reads its own channels of the padded input: the padding
    # stage moves to the tile (a few rows, compacted and indexed modulo a power of two)
    # instead of a whole padded copy of the input written to memory and read back.
    from mlc.graph import GraphBuilder, evaluate

    b = GraphBuilder()
    x = b.param("x", (1, 32, 19, 19))
    w = b.const(rng.standard_normal((32, 1, 3, 3)).astype(np.float32))
    module = b.module(b.relu(b.conv2d(x, w, groups=32, padding=1, strides=strides)))
    inputs = [rng.standard_normal((1, 32, 19, 19)).astype(np.float32)]
    [expected] = evaluate(module, inputs)
    model = build(module, Target(cpu="skylake-avx512"))
    [trace] = [str(t) for t in model.schedules.values() if "conv2d" in str(t)]
    assert re.search(r'b(\d+) = sch.get_block\(name="pad_temp".*\nsch.compute_at\(block=b\1',
                     trace)
    np.testing.assert_allclose(model(*inputs), expected, rtol=1e-5, atol=1e-5)
