"""TVM's spellings where a course user types them (issue 26): `te.max`/`te.min` as the
elementwise maximum/minimum of two values beside the reduction, `te.reduce_axis((lo,
hi))`, tensors called as `A(i, j)`, `NativeModule.time_evaluator`, `Schedule(mod)`
drawing a fresh seed, and loop kernels compiled and run without lowering them first.
Native results are checked against numpy."""

import numpy as np
import pytest

from mlc.ir import parse_module, print_op
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.interpreter import evaluate
from mlc.llvm.build import compile_module
from mlc.llvm.timing import ProfileResult, time_evaluator
from mlc.loop import te
from mlc.loop.schedule import Schedule, ScheduleError, Trace
from mlc.tools.run import main as mlc_run


def module_of(*funcs):
    module = ModuleOp.build()
    for func in funcs:
        module.body.append(func)
    return parse_module(print_op(module))


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def course_mm_relu(n=16):
    """The course's mm_relu written as the course writes it with TVM's te."""
    A = te.placeholder((n, n), "float32", name="A")
    B = te.placeholder((n, n), "float32", name="B")
    k = te.reduce_axis((0, n), name="k")
    Y = te.compute((n, n), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="Y")
    C = te.compute((n, n), lambda i, j: te.max(Y[i, j], 0), name="C")
    return module_of(te.create_prim_func([A, B, C], name="mm_relu"))


def test_the_course_mm_relu_runs_natively_as_numpy_computes():
    n = 16
    native = compile_module(course_mm_relu(n))
    a, b, c = rand(n, n, seed=1), rand(n, n, seed=2), np.full((n, n), np.nan, np.float32)
    native["mm_relu"](a, b, c)
    np.testing.assert_allclose(c, np.maximum(a.astype(np.float64) @ b, 0), rtol=1e-5,
                               atol=1e-5)
    assert (c == 0).any() and (c > 0).any()


def test_tensors_are_callable_as_in_tvm():
    n = 8
    A = te.placeholder((n, n), name="A")
    B = te.placeholder((n, n), name="B")
    k = te.reduce_axis((0, n), name="k")
    Y = te.compute((n, n), lambda i, j: te.sum(A(i, k) * B(k, j), axis=k), name="Y")
    C = te.compute((n, n), lambda *i: te.max(Y(*i), 0.0), name="C")
    native = compile_module(module_of(te.create_prim_func([A, B, C], name="mm_relu")))
    a, b, c = rand(n, n, seed=3), rand(n, n, seed=4), np.zeros((n, n), np.float32)
    native["mm_relu"](a, b, c)
    np.testing.assert_allclose(c, np.maximum(a.astype(np.float64) @ b, 0), rtol=1e-5,
                               atol=1e-5)
    with pytest.raises(te.TEError, match="A has 2 dimensions, indexed with 1"):
        A(0)


def test_max_and_min_of_two_values_are_elementwise_numbers_on_either_side():
    X = te.placeholder((4, 5), "float32", name="X")
    Y = te.placeholder((4, 5), "float32", name="Y")
    N = te.placeholder(6, "int32", name="N")
    clipped = te.compute((4, 5), lambda i, j: te.min(te.max(X[i, j], -0.5), 0.5), name="clip")
    low = te.compute((4, 5), lambda i, j: te.min(1, te.max(X[i, j], Y[i, j])), name="low")
    ints = te.compute(6, lambda i: te.max(0, te.min(N[i], 3)), name="ints")
    native = compile_module(module_of(
        te.create_prim_func([X, Y, clipped], name="clip"),
        te.create_prim_func([X, Y, low], name="low"),
        te.create_prim_func([N, ints], name="ints")))
    x, y = rand(4, 5, seed=5) * 2, rand(4, 5, seed=6) * 2
    out = np.zeros((4, 5), np.float32)
    native["clip"](x, y, out)
    np.testing.assert_array_equal(out, np.clip(x, -0.5, 0.5))
    native["low"](x, y, out)
    np.testing.assert_array_equal(out, np.minimum(1, np.maximum(x, y)))
    n, m = np.array([-7, -1, 0, 2, 3, 9], np.int32), np.zeros(6, np.int32)
    native["ints"](n, m)
    np.testing.assert_array_equal(m, [0, 0, 0, 2, 3, 3])


def test_max_and_min_still_reduce_over_reduce_axes():
    X = te.placeholder((3, 6), name="X")
    k = te.reduce_axis(6, name="k")
    r = te.reduce_axis((1, 4), name="r")
    by_keyword = te.compute(3, lambda i: te.max(X[i, k], axis=k), name="M")
    positional = te.compute(3, lambda i: te.min(X[i, r], [r]), name="m")
    native = compile_module(module_of(te.create_prim_func([X, by_keyword], name="M"),
                                      te.create_prim_func([X, positional], name="m")))
    x, out = rand(3, 6, seed=7), np.zeros(3, np.float32)
    native["M"](x, out)
    np.testing.assert_array_equal(out, x.max(axis=1))
    native["m"](x, out)
    np.testing.assert_array_equal(out, x[:, 1:4].min(axis=1))


def test_a_reduce_axis_from_lo_to_hi_reads_that_range_and_counts_from_lo():
    X = te.placeholder((4, 9), name="X")
    k = te.reduce_axis((2, 7), name="k")
    window = te.compute(4, lambda i: te.sum(X[i, k] * te.cast(k, "float32"), axis=k),
                        name="W")
    module = module_of(te.create_prim_func([X, window], name="window"))
    x, out = rand(4, 9, seed=8), np.zeros(4, np.float32)
    expected = (x[:, 2:7].astype(np.float64) * np.arange(2, 7)).sum(axis=1)
    compile_module(module)["window"](x, out)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    interpreted = np.zeros(4, np.float32)
    evaluate(module, "window", [x, interpreted])
    np.testing.assert_allclose(interpreted, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("domain, message", [
    ((3, 3), "domain is \\(lo, hi\\) with integers lo < hi, got \\(3, 3\\)"),
    ((0,), "got \\(0,\\)"),
    ((0.0, 4), "got \\(0.0, 4\\)"),
    (0, "a reduce axis needs a positive extent or a domain \\(lo, hi\\), got 0"),
])
def test_bad_reduce_axis_domains_are_refused(domain, message):
    with pytest.raises(te.TEError, match=message):
        te.reduce_axis(domain)


@pytest.mark.parametrize("call, message", [
    (lambda X, k: te.max(X[0]), "te.max needs reduce axes \\(axis=...\\) or a second value"),
    (lambda X, k: te.min(X[0], 1.0, axis=k), "takes reduce axes or a second value, not both"),
    (lambda X, k: te.max(X[0], 1.0, 0.0), "te.max of two values takes no identity"),
    (lambda X, k: te.max(X[0], 1), None),
])
def test_max_of_two_values_refuses_what_has_no_meaning(call, message):
    X = te.placeholder(4, name="X")
    k = te.reduce_axis(4)
    if message is None:
        assert call(X, k).dtype == X.dtype  # the int 1 takes X's float type
        return
    with pytest.raises(te.TEError, match=message):
        call(X, k)


def test_time_evaluator_measures_repeat_times_number_calls():
    calls = []
    evaluator = time_evaluator(lambda value: calls.append(value), number=4, repeat=3, warmup=2)
    result = evaluator("x")
    assert calls == ["x"] * (2 + 4 * 3)
    assert isinstance(result, ProfileResult) and len(result.results) == 3
    assert result.min <= result.median <= result.max and result.min <= result.mean <= result.max
    fixed = ProfileResult((1.0, 2.0, 6.0))
    assert (fixed.mean, fixed.median, fixed.min, fixed.max) == (3.0, 2.0, 1.0, 6.0)


def test_time_evaluator_flushes_the_arrays_before_each_timed_call(monkeypatch):
    import mlc.llvm.timing as timing

    flushed, calls = [], []
    real = timing.flush_arrays
    monkeypatch.setattr(timing, "flush_arrays", lambda args: (flushed.append(len(calls)),
                                                              real(args)))
    a = np.arange(1000, dtype=np.float32)[3:]  # not aligned to a cache line
    before = a.copy()
    result = time_evaluator(lambda x, tag: calls.append(tag), number=2, repeat=3,
                            warmup=1, flush_cache=True)(a, "t")
    assert len(calls) == 1 + 2 * 3 and flushed == [1, 2, 3, 4, 5, 6]  # not the warm-up
    assert len(result.results) == 3
    np.testing.assert_array_equal(a, before)  # flushing keeps the contents
    real([np.zeros(0, np.float32), a[::7], "not an array"])


def test_native_module_time_evaluator_runs_the_function():
    n = 16
    native = compile_module(course_mm_relu(n))
    a, b, c = rand(n, n, seed=1), rand(n, n, seed=2), np.full((n, n), np.nan, np.float32)
    result = native.time_evaluator("mm_relu", number=5, repeat=3)(a, b, c)
    assert len(result.results) == 3 and all(t > 0 for t in result.results)
    cold = native.time_evaluator("mm_relu", number=2, repeat=2, flush_cache=True)(a, b, c)
    assert len(cold.results) == 2 and all(t > 0 for t in cold.results)
    assert result.mean > 0 and result.median > 0
    np.testing.assert_allclose(c, np.maximum(a.astype(np.float64) @ b, 0), rtol=1e-5,
                               atol=1e-5)
    with pytest.raises(ValueError, match="time_evaluator takes repeat >= 1, not 0"):
        native.time_evaluator("mm_relu", repeat=0)
    with pytest.raises(KeyError, match="no function @absent"):
        native.time_evaluator("absent")


def sampled_tiles(sch):
    _, _, k = sch.get_loops(sch.get_block("Y", func_name="mm_relu"))
    return sch.sample_perfect_tile(k, n=3, max_innermost_factor=64)


def test_a_schedule_without_seed_draws_a_fresh_one_kept_in_its_trace():
    module = course_mm_relu(64)
    schedules = [Schedule(module) for _ in range(6)]
    draws = [tuple(sampled_tiles(sch)) for sch in schedules]
    # 64 has 28 tilings into 3 factors: six equal draws would be a fixed seed.
    assert len(set(draws)) > 1
    assert len({sch.seed for sch in schedules}) > 1
    first = schedules[0]
    assert first.trace.seed == first.seed
    again = Schedule(module, seed=first.trace.seed)
    assert tuple(sampled_tiles(again)) == draws[0]
    replayed = Schedule(module)
    Trace.from_json(first.trace.as_json()).apply(replayed)
    assert replayed.trace.instructions[-1].outputs == list(draws[0])


def test_an_explicit_seed_draws_the_same_decisions():
    module = course_mm_relu(64)
    assert sampled_tiles(Schedule(module, seed=3)) == sampled_tiles(Schedule(module, seed=3))
    with pytest.raises(ScheduleError, match="seed is an integer >= 0 or None, not -1"):
        Schedule(module, seed=-1)


def test_a_scheduled_loop_kernel_compiles_and_mlc_run_runs_it(tmp_path, capsys):
    sch = Schedule(course_mm_relu(16), seed=0)
    _, j, _ = sch.get_loops(sch.get_block("Y", func_name="mm_relu"))
    sch.split(j, factors=[None, 4])
    a, b, c = rand(16, 16, seed=1), rand(16, 16, seed=2), np.zeros((16, 16), np.float32)
    compile_module(sch.mod)["mm_relu"](a, b, c)
    np.testing.assert_allclose(c, np.maximum(a.astype(np.float64) @ b, 0), rtol=1e-5,
                               atol=1e-5)
    (tmp_path / "mm_relu.mlir").write_text(print_op(sch.mod))
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    code = mlc_run([str(tmp_path / "mm_relu.mlir"), "--entry", "mm_relu", "--input",
                    f"A={tmp_path / 'a.npy'}", "--input", f"B={tmp_path / 'b.npy'}",
                    "--random-inputs", "0", "--check", "interpreter",
                    "--save-outputs", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 0, err
    assert err.startswith("check passed")
    np.testing.assert_allclose(np.load(tmp_path / "out" / "C.npy"), c, rtol=1e-6)


def test_a_symbolic_size_in_a_shape_is_a_clear_error_naming_it():
    n = te.var("n")
    with pytest.raises(te.TEError, match="symbolic size 'n' .*static shapes"):
        te.placeholder((n, 128), "float32", name="A")
    with pytest.raises(te.TEError, match="symbolic size 'm'"):
        te.compute((4, te.var("m")), lambda i, j: i + j)
