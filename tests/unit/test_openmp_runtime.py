"""The thread count and the OpenMP runtime around parallel loops: where the count
comes from (argument, MLC_NUM_THREADS, the affinity mask) and what a bad one says;
the runtime found for the JIT, linked into exported libraries and loaded with them;
without a runtime (hidden by pointing MLC_OPENMP_RUNTIME elsewhere), a build says so
in one line and runs on one thread. Concurrency: kernels and models called from
several Python threads at once, a model called again from inside its own run, and
Python functions called from a parallel loop's worker threads while other threads
do the same."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest

from mlc.graph.examples import mlp
from mlc.graph.interpreter import evaluate as graph_evaluate
from mlc.ir import Context, parse_module
from mlc.ir.extern import register_func, remove_func
from mlc.llvm.build import build, compile_module, lower_to_llvm_ir
from mlc.llvm.export import ToolchainError, export_shared_library
from mlc.llvm.jit import bind_python_function
from mlc.llvm.loader import load_module
from mlc.llvm.native_call import ArgSpec
from mlc.llvm.openmp import (
    ENV_NUM_THREADS,
    ENV_RUNTIME,
    MAX_THREADS,
    RUNTIME_SYMBOLS,
    OpenMPRuntimeWarning,
    find_runtime,
    resolve_num_threads,
    runtime_problem,
)

SQUARES = """
func.func @squares(%A: memref<1000xf32>, %B: memref<1000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %A[%i] : memref<1000xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %B[%i] : memref<1000xf32>
    scf.reduce
  }
  return
}
"""


def squares_module():
    return parse_module(SQUARES, Context())


def test_the_runtime_functions_the_pass_calls_are_the_ones_the_finder_checks():
    from mlc.llvm.conversion.scf_parallel_to_gomp import RUNTIME_FUNCTIONS

    assert tuple(RUNTIME_FUNCTIONS) == RUNTIME_SYMBOLS


# ------------------------------------------------------------------ the thread count


def test_the_thread_count_comes_from_the_argument_then_the_environment_then_the_cores(
        monkeypatch):
    monkeypatch.delenv(ENV_NUM_THREADS, raising=False)
    assert resolve_num_threads(None) == len(os.sched_getaffinity(0))
    monkeypatch.setenv(ENV_NUM_THREADS, " 3 ")
    assert resolve_num_threads(None) == 3
    assert resolve_num_threads(5) == 5
    monkeypatch.setenv(ENV_NUM_THREADS, "")
    assert resolve_num_threads(None) == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("value", [0, -1, 1.5, "2", True, None.__class__, MAX_THREADS + 1])
def test_bad_thread_counts_are_clear_errors(value):
    with pytest.raises(ValueError, match=rf"num_threads must be a whole number of threads "
                                         rf"from 1 to {MAX_THREADS}, not "):
        compile_module(squares_module(), num_threads=value)
    with pytest.raises(ValueError, match="num_threads must be a whole number"):
        build(mlp(hidden=4).module, num_threads=value)


@pytest.mark.parametrize("text", ["x", "0", "-2", "2.5", "9999"])
def test_a_bad_mlc_num_threads_is_a_clear_error(monkeypatch, text):
    monkeypatch.setenv(ENV_NUM_THREADS, text)
    with pytest.raises(ValueError, match=rf"^MLC_NUM_THREADS='{text}'"):
        compile_module(squares_module())


def test_the_default_is_mlc_num_threads(monkeypatch):
    monkeypatch.setenv(ENV_NUM_THREADS, "3")
    native = compile_module(squares_module())
    assert native.num_threads == 3
    assert "i32 3, i32 0)" in native.llvm_ir  # GOMP_parallel(fn, data, 3, 0)


# ------------------------------------------------------------------ the runtime


def test_the_system_runtime_is_found():
    runtime = find_runtime()
    assert runtime is not None, runtime_problem()
    assert Path(runtime.path).is_file()
    assert runtime.name in ("libgomp.so.1", "libomp.so.5", "libomp.so")


@pytest.fixture
def hidden_runtime(monkeypatch, tmp_path):
    """No OpenMP runtime to be found: MLC_OPENMP_RUNTIME names a file that is not there."""
    missing = tmp_path / "libgomp.so.1"
    monkeypatch.setenv(ENV_RUNTIME, str(missing))
    return missing


def test_without_a_runtime_a_build_says_so_in_one_line_and_runs_on_one_thread(hidden_runtime):
    assert find_runtime() is None
    with pytest.warns(OpenMPRuntimeWarning) as warned:
        native = compile_module(squares_module(), num_threads=2)
    [warning] = warned
    message = str(warning.message)
    assert "\n" not in message
    assert message.startswith(f"no OpenMP runtime found (MLC_OPENMP_RUNTIME='{hidden_runtime}'")
    assert message.endswith("so parallel loops run on one thread instead of 2: install gcc's "
                            "libgomp1 or LLVM's libomp, or set MLC_OPENMP_RUNTIME to its path")
    assert warning.filename == __file__  # it points at the caller's build
    assert native.num_threads == 1 and "GOMP" not in native.llvm_ir
    a = np.linspace(-2, 2, 1000, dtype=np.float32)
    out = np.zeros_like(a)
    native["squares"](a, out)
    np.testing.assert_array_equal(out, a * a)
    with pytest.warns(OpenMPRuntimeWarning):
        assert build(mlp(hidden=4).module, num_threads=3).num_threads == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # one thread asks for no runtime: nothing to say
        assert compile_module(squares_module(), num_threads=1).num_threads == 1


def test_a_library_that_is_not_an_openmp_runtime_is_not_taken(monkeypatch):
    monkeypatch.setenv(ENV_RUNTIME, "libm.so.6")
    assert find_runtime() is None
    assert runtime_problem() == ("MLC_OPENMP_RUNTIME='libm.so.6': libm.so.6 is not an OpenMP "
                                 f"runtime (it lacks {', '.join(RUNTIME_SYMBOLS)})")


def test_mlc_run_without_a_runtime_warns_in_one_line(tmp_path):
    source = tmp_path / "squares.mlir"
    source.write_text(SQUARES)
    env = {**os.environ, ENV_RUNTIME: str(tmp_path / "nowhere" / "libgomp.so.1")}
    done = subprocess.run([sys.executable, "-m", "mlc.tools.run", str(source), "--entry",
                           "squares", "--random-inputs", "0", "--threads", "2", "--check",
                           "interpreter"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0].startswith("mlc-run: warning: no OpenMP runtime found (MLC_OPENMP_RUNTIME=")
    assert len(lines) == 2 and lines[1].startswith(
        "check passed: outputs equal the interpreter's within") and \
        "(every element identical)" in lines[1]


# ------------------------------------------------------------------ exported libraries


def export_squares(path: Path, threads: int) -> Path:
    text = lower_to_llvm_ir(squares_module(), num_threads=threads)
    specs = [ArgSpec("A", (1000,), "float32"), ArgSpec("B", (1000,), "float32", "output")]
    metadata = {"entry": "squares", "num_threads": threads,
                "functions": {"squares": {"args": specs}}}
    return export_shared_library(text, path, metadata)


def needed_libraries(path: Path) -> list[str]:
    dynamic = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True,
                             check=True).stdout
    return [line.split("[")[1].rstrip("]") for line in dynamic.splitlines() if "(NEEDED)" in line]


@pytest.mark.skipif(shutil.which("readelf") is None, reason="needs binutils' readelf")
def test_an_exported_library_links_the_runtime_only_when_it_runs_parallel_loops(tmp_path):
    a = np.linspace(-3, 3, 1000, dtype=np.float32)
    runtime = Path(find_runtime().path).name
    for threads in (1, 2):
        library = export_squares(tmp_path / f"squares{threads}.so", threads)
        assert (runtime in needed_libraries(library)) == (threads > 1)
        loaded = load_module(library)
        assert loaded.num_threads == threads
        np.testing.assert_array_equal(loaded(a), a * a)


def test_a_compiled_models_thread_count_travels_with_its_library(tmp_path):
    model = build(mlp(hidden=8).module, num_threads=2)
    loaded = load_module(model.export_library(tmp_path / "mlp.so"))
    assert loaded.num_threads == model.num_threads == 2
    x = np.random.default_rng(0).standard_normal((1, 784)).astype(np.float32)
    np.testing.assert_array_equal(loaded(x), model(x))


def test_exporting_parallel_code_without_a_runtime_is_a_clear_error(hidden_runtime, tmp_path):
    with pytest.raises(ToolchainError, match=r"the code runs parallel loops on the OpenMP "
                                             r"runtime, and none is found to link it with "
                                             r"\(MLC_OPENMP_RUNTIME="):
        export_squares(tmp_path / "squares.so", 2)
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ concurrency


def run_in_threads(work, count: int, timeout: float = 120.0) -> list:
    """Run `work(index)` on `count` Python threads released at once; their results.
    A thread still running after `timeout` (a deadlock) fails the test."""
    barrier = threading.Barrier(count)
    results: list = [None] * count
    errors: list = []

    def body(index):
        try:
            barrier.wait()
            results[index] = work(index)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=body, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    assert not any(thread.is_alive() for thread in threads), "deadlock: a thread never returned"
    if errors:
        raise errors[0]
    return results


def test_two_parallel_kernels_called_from_two_threads_at_once():
    squares = compile_module(squares_module(), num_threads=2)["squares"]
    halves = compile_module(parse_module(SQUARES.replace("arith.mulf %v, %v", "arith.addf %v, %v"),
                                         Context()), num_threads=2)["squares"]
    def work(index):
        rng = np.random.default_rng(index)
        kernel, expected = (squares, np.square) if index == 0 else (halves, lambda a: a + a)
        for _ in range(200):
            a, out = rng.standard_normal(1000).astype(np.float32), np.zeros(1000, np.float32)
            kernel(a, out)
            np.testing.assert_array_equal(out, expected(a))
        return True

    assert run_in_threads(work, 2) == [True, True]


def test_two_models_from_two_threads_and_one_model_from_four(tmp_path):
    first, second = mlp(hidden=8), mlp(hidden=16)
    models = [build(first.module, num_threads=2), build(second.module, num_threads=2)]
    modules = [first.module, second.module]
    inputs = [np.random.default_rng(i).standard_normal((1, 784)).astype(np.float32)
              for i in range(4)]
    expected = [[graph_evaluate(module, [x])[0] for x in inputs] for module in modules]

    def two_models(index):
        for n in range(30):
            got = models[index](inputs[n % 4])
            np.testing.assert_allclose(got, expected[index][n % 4], rtol=1e-5, atol=1e-6)

    run_in_threads(two_models, 2)

    loaded = load_module(models[1].export_library(tmp_path / "mlp.so"))
    for model in (models[1], loaded):
        def one_model(index, model=model):  # the runs share the workspace: they take turns
            for _ in range(30):
                np.testing.assert_allclose(model(inputs[index]), expected[1][index],
                                           rtol=1e-5, atol=1e-6)

        run_in_threads(one_model, 4)


def test_a_model_called_again_from_inside_its_own_run_refuses():
    module = mlp(hidden=8).module
    holder = {}

    def linear(x, w, b, out):
        holder["model"](np.zeros((1, 784), np.float32))  # while the first run holds the model

    register_func("env.reentrant", linear, override=True)
    try:
        holder["model"] = model = build(module, extern={"fused_dense_bias_add": "env.reentrant"},
                                        num_threads=2)
        with pytest.raises(RuntimeError, match=r"main: the model was called again while it "
                                               r"runs \(by a Python function it calls\)"):
            model(np.ones((1, 784), np.float32))
    finally:
        remove_func("env.reentrant")


PROBED = """
func.func private @probe(memref<64xf32>, index)
func.func @visit(%A: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    func.call @probe(%A, %i) : (memref<64xf32>, index) -> ()
    scf.reduce
  }
  return
}
"""


def test_python_called_from_parallel_loops_of_several_threads_at_once_does_not_deadlock():
    """Worker threads of two OpenMP teams (one per calling Python thread) all wait for
    the GIL to run the Python function; the callers wait for their teams with the GIL
    released."""
    def probe(a, i):
        a[int(i)] += float(i)

    bind_python_function("probe", [ArgSpec("a", (64,), "float32", "output"),
                                   ArgSpec("i", None, "int64")], probe)
    visit = compile_module(parse_module(PROBED, Context()), num_threads=3)["visit"]

    def work(index):
        a = np.zeros(64, np.float32)
        for _ in range(20):
            visit(a)
        return a

    for result in run_in_threads(work, 2):
        np.testing.assert_array_equal(result, 20 * np.arange(64, dtype=np.float32))


_FORK_AFTER_PARALLEL = """
import os, signal, sys
import numpy as np
from mlc.ir import Context, parse_module
from mlc.llvm.build import compile_module
squares = compile_module(parse_module(sys.argv[1], Context()), num_threads=2)["squares"]
a, out = np.arange(1000, dtype=np.float32), np.zeros(1000, np.float32)
squares(a, out)                 # the parent's runtime now has a pool of threads
pid = os.fork()
if pid == 0:
    signal.alarm(20)            # a hang ends the child with SIGALRM
    out[:] = 0
    squares(a, out)
    os._exit(0 if np.array_equal(out, a * a) else 3)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork") or find_runtime() is None,
                    reason="needs fork and an OpenMP runtime")
def test_a_child_forked_after_parallel_loops_ran_computes_on_one_thread_instead_of_hanging():
    # libgomp's pool is not fork-safe: without the at-fork rule the child waits forever
    # for the parent's threads (here: killed by its alarm, exit code -14).
    done = subprocess.run([sys.executable, "-c", _FORK_AFTER_PARALLEL, SQUARES],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
