"""Parallel loops natively on the OpenMP runtime: kernels scheduled by hand with
`sch.parallel` (te kernels and the example networks' kernels) and `scf.parallel`
loops with reductions, compiled for 1, 2 and 3 threads, compute what mlc's interpreter
computes, and so do the networks as `build` compiles them (with whatever schedules it
applies); a loop runs on as many threads as asked (seen from a Python function each
iteration calls), and 1 thread is the serial code with no runtime calls.

Tolerances: te kernels and network kernels are held to the interpreter on the same
scheduled kernel within float32 rounding (rtol 1e-5, atol 1e-5 of the largest
magnitude: LLVM may fuse a multiply-add, the interpreter does not), and the native
results for 2 and 3 threads to the 1-thread result within 1e-6 (each output is
computed by one thread, by the same operations in the same order; only where LLVM
contracts a multiply-add into an FMA may differ, see
tests/property/test_parallel_schedules_property.py). Integer reductions are exact;
float reductions are reassociated by thread (each thread sums its range, the partial
sums are added in thread order), within 1e-5 relative.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from mlc.graph import evaluate as graph_evaluate
from mlc.graph.examples import EXAMPLES
from mlc.ir import Context, parse_module
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.interpreter import evaluate
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.llvm.build import build, compile_module
from mlc.llvm.jit import bind_python_function
from mlc.llvm.native_call import ArgSpec
from mlc.loop import te
from mlc.loop.ops import BlockOp
from mlc.loop.schedule import Schedule, ScheduleError

sys.path.insert(0, str(Path(__file__).parents[1] / "property"))
from native_runs import assert_close, defined_functions  # noqa: E402

THREADS = (1, 2, 3)
RTOL = ATOL = 1e-5
SAME_OPS = 1e-6  # the same float32 operations, but for FMA contraction


def _module(function):
    module = ModuleOp.build()
    module.body.append(function)
    return module


N = 16


def mm_relu(n: int = N):
    A = te.placeholder((n, n), "float32", name="A")
    B = te.placeholder((n, n), "float32", name="B")
    k = te.reduce_axis(n, name="k")
    Y = te.compute((n, n), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="Y")
    C = te.compute((n, n), lambda i, j: te.maximum(Y[i, j], 0.0), name="C")
    return _module(te.create_prim_func([A, B, C], name="main"))


def outer_rows(sch: Schedule) -> None:
    """Every block's rows in parallel (two parallel loops, one after the other)."""
    for name in ("Y", "C"):
        sch.parallel(sch.get_loops(sch.get_block(name))[0])


def register_tile(sch: Schedule) -> None:
    """benchmarks/native_matmul.py's register tile with its column panels in parallel."""
    block = sch.get_block("Y")
    i, j, k = sch.get_loops(block)
    i0, i1 = sch.split(i, [None, 4])
    j0, j1 = sch.split(j, [None, 8])
    sch.reorder(j0, i0, k, i1, j1)
    sch.parallel(j0)
    sch.decompose_reduction(block, k)
    sch.unroll(i1)
    sch.vectorize(j1)


def fused_rows_and_columns(sch: Schedule) -> None:
    """Each block's i and j fused into one parallel loop."""
    for name in ("Y", "C"):
        i, j, *_ = sch.get_loops(sch.get_block(name))
        sch.parallel(sch.fuse(i, j))


def rows_with_their_epilogue(sch: Schedule) -> None:
    """C computed in Y's parallel row loop: one parallel loop holding both blocks."""
    i, _, _ = sch.get_loops(sch.get_block("Y"))
    sch.reverse_compute_at(sch.get_block("C"), i)
    sch.parallel(i)


def inner_parallel(sch: Schedule) -> None:
    """A parallel loop inside a serial one: a parallel region per outer iteration."""
    i, _, _ = sch.get_loops(sch.get_block("Y"))
    _, inner = sch.split(i, [4, None])
    sch.parallel(inner)


def nested_parallel(sch: Schedule) -> None:
    """Both spatial loops parallel: the outer one runs on the threads."""
    i, j, _ = sch.get_loops(sch.get_block("Y"))
    sch.parallel(i)
    sch.parallel(j)


def short_outer_loop(sch: Schedule) -> None:
    """A parallel loop of 2 iterations around a parallel loop: too short for the team
    alone, so the two run as one space."""
    i, _, _ = sch.get_loops(sch.get_block("Y"))
    outer, inner = sch.split(i, [2, None])
    sch.parallel(outer)
    sch.parallel(inner)


SCHEDULES = {f.__name__: f for f in (outer_rows, register_tile, fused_rows_and_columns,
                                     rows_with_their_epilogue, inner_parallel, nested_parallel,
                                     short_outer_loop)}


def lowered(module):
    result = run_pipeline(module, "loop-lower,canonicalize,loop-invariant-code-motion,cse")
    assert result.success, [str(d) for d in result.diagnostics]
    return module


@pytest.mark.parametrize("schedule", sorted(SCHEDULES))
def test_scheduled_te_kernels_equal_the_interpreter_on_1_2_3_threads(schedule):
    sch = Schedule(mm_relu())
    SCHEDULES[schedule](sch)
    rng = np.random.default_rng(7)
    a, b = (rng.standard_normal((N, N)).astype(np.float32) for _ in range(2))
    expected = np.zeros((N, N), np.float32)
    evaluate(sch.mod, "main", [a, b, expected])
    kernel = lowered(sch.mod.clone())
    results = []
    for threads in THREADS:
        native = compile_module(kernel, num_threads=threads)
        assert native.num_threads == threads
        out = np.full((N, N), np.nan, np.float32)
        native["main"](a, b, out)
        assert_close(out, expected, RTOL, ATOL, f"{schedule} on {threads} threads")
        results.append(out)
        calls = native.llvm_ir.count("call void @GOMP_parallel(")
        assert (calls == 0) if threads == 1 else (calls >= 1), native.llvm_ir
    for threads, out in zip(THREADS[1:], results[1:]):
        assert_close(out, results[0], SAME_OPS, SAME_OPS, f"{threads} threads vs 1")


SMALL_NETWORKS = {
    "mlp": {"in_features": 64, "hidden": 32, "num_classes": 10},
    "resnet18": {"image_size": 32, "num_classes": 10},
    "mobilenet_v2": {"image_size": 32, "num_classes": 10},
    "transformer": {"seq": 8, "hidden": 32, "heads": 2, "ffn": 64},
}


NETWORKS = ["mlp", "transformer", pytest.param("resnet18", marks=pytest.mark.slow),
            pytest.param("mobilenet_v2", marks=pytest.mark.slow)]


def parallelize_outer_loops(module):
    """Every block's outermost loop made parallel where the schedule allows it (not
    bound to a reduction): the networks' kernels scheduled by hand."""
    sch = Schedule(module)
    for function in defined_functions(sch.mod):
        name = function.sym_name.value
        for block in [op.block_name_str for op in function.walk() if isinstance(op, BlockOp)]:
            loops = sch.get_loops(sch.get_block(block, name))
            if loops:
                try:
                    sch.parallel(loops[0])
                except ScheduleError:
                    pass
    return sch.mod


@pytest.mark.parametrize("name", NETWORKS)
def test_network_kernels_with_parallel_outer_loops_on_1_2_3_threads(name):
    example = EXAMPLES[name](**SMALL_NETWORKS[name])
    inputs = example.inputs(seed=1)
    inputs = list(inputs.values()) if isinstance(inputs, dict) else list(inputs)
    expected = graph_evaluate(example.module, inputs)
    module = example.module.clone()
    with PassContext(opt_level=3):
        assert run_pipeline(module, "graph-optimize,graph-lower-to-loop").success
    module = parallelize_outer_loops(module)
    assert run_pipeline(module, "loop-plan-memory,loop-lower,canonicalize").success
    first = None
    for threads in THREADS:
        native = compile_module(module, num_threads=threads)
        outputs = [np.full(e.shape, np.nan, e.dtype) for e in expected]
        native["main"](*[np.ascontiguousarray(x) for x in inputs], *outputs)
        for n, (got, want) in enumerate(zip(outputs, expected)):
            assert_close(got, want, RTOL, ATOL, f"{name} output #{n} on {threads} threads")
        if first is None:
            first = outputs
            assert "GOMP_parallel" not in native.llvm_ir
        else:
            assert native.llvm_ir.count("call void @GOMP_parallel(") > 0
            for got, serial in zip(outputs, first):
                assert_close(got, serial, SAME_OPS, SAME_OPS, f"{threads} threads vs 1")


@pytest.mark.parametrize("name", ["mlp", *(pytest.param(name, marks=pytest.mark.slow)
                                          for name in ("transformer", "resnet18",
                                                       "mobilenet_v2"))])
def test_networks_as_build_compiles_them_on_1_2_3_threads(name):
    """Whatever schedules `build` applies (its default rules decide which loops run in
    parallel), the networks compute on 2 and 3 threads what they compute on 1."""
    example = EXAMPLES[name](**SMALL_NETWORKS[name])
    inputs = example.inputs(seed=2)
    expected = graph_evaluate(example.module, inputs)
    first = None
    for threads in THREADS:
        model = build(example.module, num_threads=threads)
        assert model.num_threads == threads
        outputs = model(**inputs) if isinstance(inputs, dict) else model(*inputs)
        outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
        for n, (got, want) in enumerate(zip(outputs, expected)):
            assert_close(got, want, RTOL, ATOL, f"{name} output #{n} on {threads} threads")
        if first is None:
            first = outputs
            assert "GOMP_parallel" not in model.llvm_ir
        for got, serial in zip(outputs, first):
            assert_close(got, serial, SAME_OPS, SAME_OPS, f"{threads} threads vs 1")


REDUCTIONS = """
func.func @stats(%A: memref<7x5xf32>, %out: memref<2xf32>, %count: memref<1xi64>,
                 %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -1.0e30 : f32
  %none = arith.constant 0 : i64
  %r:3 = scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %c5) step (%c1, %c1)
      init (%zero, %low, %none) -> (f32, f32, i64) {
    %v = memref.load %A[%i, %j] : memref<7x5xf32>
    %one = arith.constant 1 : i64
    scf.reduce(%v, %v, %one : f32, f32, i64) {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%lhs: f32, %rhs: f32):
      %m = arith.maximumf %lhs, %rhs : f32
      scf.reduce.return %m : f32
    }, {
    ^bb0(%lhs: i64, %rhs: i64):
      %n = arith.addi %lhs, %rhs : i64
      scf.reduce.return %n : i64
    }
  }
  memref.store %r#0, %out[%c0] : memref<2xf32>
  memref.store %r#1, %out[%c1] : memref<2xf32>
  memref.store %r#2, %count[%c0] : memref<1xi64>
  return
}
"""


@pytest.mark.parametrize("threads", [*THREADS, 8])
@pytest.mark.parametrize("rows", [0, 1, 3, 7])
def test_reductions_combine_every_threads_partial_result(threads, rows):
    """Sum, max and count over a 2-d space: empty (the initial values), smaller than
    the team (threads without iterations), uneven."""
    module = parse_module(REDUCTIONS, Context())
    a = np.random.default_rng(rows).standard_normal((7, 5)).astype(np.float32)
    out, count = np.zeros(2, np.float32), np.zeros(1, np.int64)
    compile_module(module, num_threads=threads)["stats"](a, out, count, rows)
    expected_out, expected_count = np.zeros(2, np.float32), np.zeros(1, np.int64)
    evaluate(module, "stats", [a, expected_out, expected_count, rows])
    assert count[0] == expected_count[0] == rows * 5
    np.testing.assert_allclose(out, expected_out, rtol=1e-5, atol=1e-6)
    if rows:
        np.testing.assert_allclose(out, [a[:rows].sum(), a[:rows].max()], rtol=1e-5)
    else:
        np.testing.assert_array_equal(out, np.float32([0.0, -1.0e30]))


PROBED = """
func.func private @probe(index)
func.func @visit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    func.call @probe(%i) : (index) -> ()
    scf.reduce
  }
  return
}
"""


@pytest.fixture
def probe():
    """@probe bound to a Python function recording (iteration, native thread id)."""
    seen: list[tuple[int, int]] = []
    failing: set[int] = set()

    def record(i):
        seen.append((int(i), threading.get_native_id()))
        if int(i) in failing:
            raise ValueError(f"iteration {int(i)} fails")

    bind_python_function("probe", [ArgSpec("i", None, "int64")], record)
    return seen, failing


@pytest.mark.parametrize("threads", [2, 3])
def test_each_iteration_runs_once_on_as_many_threads_as_asked(probe, threads):
    seen, _ = probe
    visit = compile_module(parse_module(PROBED, Context()), num_threads=threads)["visit"]
    visit(60)
    assert sorted(i for i, _ in seen) == list(range(60))
    workers = {tid for _, tid in seen}
    assert len(workers) == threads
    assert threading.get_native_id() in workers  # the caller is thread 0 of the team
    # Static schedule: each thread runs one contiguous block of iterations.
    by_thread = {}
    for i, tid in seen:
        by_thread.setdefault(tid, []).append(i)
    blocks = sorted(sorted(its) for its in by_thread.values())
    assert [len(b) for b in blocks] == [60 // threads] * threads
    assert all(b == list(range(b[0], b[0] + len(b))) for b in blocks)


def test_the_dynamic_schedule_runs_each_iteration_once_in_chunks(probe):
    """convert-scf-parallel-to-gomp{schedule=dynamic}: threads take chunks of 60 / (3 x
    8), rounded up to 3 iterations, from a shared counter; every iteration runs once,
    each chunk on one thread."""
    seen, _ = probe
    module = parse_module(PROBED, Context())
    result = run_pipeline(module, "convert-scf-parallel-to-gomp{num-threads=3 schedule=dynamic}")
    assert result.success
    native = compile_module(module, num_threads=1)  # already outlined: nothing left to do
    assert native.llvm_ir.count("call i8 @GOMP_loop_dynamic_next(") == 1
    native["visit"](60)
    assert sorted(i for i, _ in seen) == list(range(60))
    by_chunk = {}
    for i, tid in seen:
        by_chunk.setdefault(i // 3, set()).add(tid)
    assert all(len(tids) == 1 for tids in by_chunk.values())


def test_one_thread_is_the_serial_code(probe):
    seen, _ = probe
    native = compile_module(parse_module(PROBED, Context()), num_threads=1)
    native["visit"](10)
    assert [i for i, _ in seen] == list(range(10))
    assert {tid for _, tid in seen} == {threading.get_native_id()}
    assert "GOMP" not in native.llvm_ir and "omp_get" not in native.llvm_ir


def test_an_exception_on_a_worker_thread_reaches_the_caller(probe):
    seen, failing = probe
    failing.add(45)  # in the second thread's half of 60 iterations
    visit = compile_module(parse_module(PROBED, Context()), num_threads=2)["visit"]
    with pytest.raises(ValueError, match="iteration 45 fails") as raised:
        visit(60)
    assert "called from native code of 'visit'" in " ".join(raised.value.__notes__)
    assert len(seen) == 60  # the loop went on: an exception cannot unwind native code
    failing.clear()
    visit(60)  # nothing left over for the next call


def test_a_compacted_tile_under_a_parallel_loop_is_each_threads_own():
    """A layer norm's rows as the default rules schedule them: each block of rows sums
    into a partial-sum tile compacted to one iteration's rows, under a parallel loop.
    Shared by the threads, the tile raced (wrong rows in 84 of 200 runs); each thread's
    own (convert-scf-parallel-to-gomp), every run equals the interpreter."""
    from mlc.graph import GraphBuilder

    b = GraphBuilder()
    module = b.module(b.layer_norm(b.param("x", (1, 64, 256)), b.param("gamma", (256,)),
                                   b.param("beta", (256,)), axis=2))
    rng = np.random.default_rng(5)
    inputs = [rng.standard_normal((1, 64, 256)).astype(np.float32) * 3 + 1,
              rng.standard_normal(256).astype(np.float32),
              rng.standard_normal(256).astype(np.float32)]
    [expected] = graph_evaluate(module, inputs)
    model = build(module, num_threads=2)
    assert "GOMP_parallel" in model.llvm_ir
    for _ in range(100):
        assert_close(model(*inputs), expected, 1e-4, 1e-4, "layer norm on 2 threads")
