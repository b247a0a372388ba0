"""mlc.tune: the tuning database (JSON lines, corrupt lines skipped), the measurement
workers (a wrong result, a timeout and a crash recorded as failed, the search going
on), random and model-guided search, resuming, the task scheduler, and the MLC
course's chapter: stochastic_schedule_mm, a random search keeping the fastest,
tune_kernel with that space, and the tuned kernel in the model's build — each
result checked against numpy or the graph interpreter."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest

from mlc.graph.examples import mlp
from mlc.graph.interpreter import evaluate
from mlc.ir import print_op
from mlc.ir.dialects.builtin import ModuleOp
from mlc.llvm.build import build, compile_module
from mlc.llvm.target import Target
from mlc.loop import te
from mlc.loop.schedule import Schedule
from mlc.tune import Database, Record, tune_kernel, tune_model
from mlc.tune.apply import TunedSchedules, for_function
from mlc.tune.measure import LocalExecutor, MeasureJob
from mlc.tune.space import decisions_of, default_trace
from mlc.tune.tuner import model_kernels
from mlc.tune.workload import model_workloads

TARGET = Target()


def _matmul(n: int, name: str = "main") -> ModuleOp:
    """The course's MyModule: C = A @ B, block "C" in @main."""
    A = te.placeholder((n, n), "float32", name="A")
    B = te.placeholder((n, n), "float32", name="B")
    k = te.reduce_axis(n, name="k")
    C = te.compute((n, n), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
    module = ModuleOp.build()
    module.body.append(te.create_prim_func([A, B, C], name=name))
    return module


def stochastic_schedule_mm(sch: Schedule) -> Schedule:
    """The course's stochastic schedule, word for word in mlc's API."""
    block_C = sch.get_block("C", "main")
    i, j, k = sch.get_loops(block=block_C)
    j_factors = sch.sample_perfect_tile(loop=j, n=2)
    j_0, j_1 = sch.split(loop=j, factors=j_factors)
    sch.reorder(i, j_0, k, j_1)
    sch.decompose_reduction(block_C, k)
    return sch


# ------------------------------------------------------------------ database


def _record(workload: str, seconds: float | None, error: str | None = None) -> Record:
    return Record(workload, "main", TARGET.key, [], [seconds] if seconds else None, error)


def test_the_database_keeps_records_across_instances_and_skips_corrupt_lines(tmp_path):
    db = Database(tmp_path)
    db.commit(_record("w1", 2e-3))
    db.commit(_record("w1", 1e-3))
    db.commit(_record("w1", None, "timed out after 1 s"))
    db.commit(_record("w2", 5e-3))
    with open(tmp_path / "records.jsonl", "a") as file:
        file.write('{"workload": "w1", "kernel": "main", "tar\n')  # a write cut short
        file.write('{"workload": "w1", "kernel": "main", "target": "x", "trace": 3}\n')
    db.commit(_record("w1", 0.5e-3))
    again = Database(tmp_path)  # another process, say
    with pytest.warns(UserWarning) as caught:
        records = again.records("w1", TARGET.key)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2
    assert messages[0].endswith("records.jsonl:5: skipped a corrupt line (Invalid control "
                                "character at)")
    assert messages[1].endswith("records.jsonl:6: skipped a corrupt record (a trace is a JSON "
                                "list of [kind, inputs, attrs, outputs])")
    assert [r.median for r in records if r.ok] == [2e-3, 1e-3, 0.5e-3]
    assert [r.error for r in records if not r.ok] == ["timed out after 1 s"]
    with pytest.warns(UserWarning, match="corrupt"):
        assert again.best("w1", TARGET.key).median == 0.5e-3
    with pytest.warns(UserWarning, match="corrupt"):
        assert again.best("w1", "another target") is None


def test_a_traces_latest_record_is_its_time(tmp_path):
    """A trace measured again (a "confirm" record) is judged by that measurement, and
    the confirmed traces decide the best."""
    db = Database(tmp_path)
    fast, slow = [["get_block", ["C", "main"], {}, [{"rv": "b0"}]]], []
    db.commit(Record("w", "main", TARGET.key, fast, [1e-3]))
    db.commit(Record("w", "main", TARGET.key, slow, [2e-3]))
    assert db.best("w", TARGET.key).median == 1e-3
    db.commit(Record("w", "main", TARGET.key, fast, [3e-3, 3e-3], origin="confirm"))
    # Once confirmed traces exist they decide: the only one is `fast`, at its new time.
    assert db.best("w", TARGET.key).median == 3e-3
    db.commit(Record("w", "main", TARGET.key, slow, [2.5e-3, 2.5e-3], origin="confirm"))
    assert db.best("w", TARGET.key).median == 2.5e-3
    assert db.best_by_workload(TARGET.key)["w"].trace == slow


class _LoadedMachine:
    """An executor whose candidates look twice as fast as the baseline while searched
    (measured at a quiet moment, say) but are slower when measured beside it."""

    def __init__(self):
        self.confirming = False
        self.jobs = []

    def map(self, jobs):
        from mlc.tune.database import trace_key
        from mlc.tune.measure import MeasureResult

        jobs = list(jobs)
        self.jobs += jobs
        for index, job in enumerate(jobs):
            baseline = trace_key(job.trace) == self.baseline
            seconds = 1e-3 if baseline else 2e-3 if self.confirming else 0.5e-3
            yield index, MeasureResult([seconds] * job.repeat)


def test_confirm_measures_the_leaders_beside_the_baseline_and_those_times_decide(tmp_path):
    from mlc.tune.database import trace_key
    from mlc.tune.search import SearchSettings, TaskSearch
    from mlc.tune.space import make_space

    workload = model_workloads(_matmul(64))[0]
    search = TaskSearch(workload, make_space(workload.module, TARGET.schedule_target,
                                             "default"),
                        Database(tmp_path), TARGET, SearchSettings("random", 4, repeat=1))
    machine = _LoadedMachine()
    machine.baseline = trace_key(default_trace(workload.module,
                                               TARGET.schedule_target).as_json())
    search.prepare(machine)
    search.step(machine, 4)
    assert search.best.median == 0.5e-3 and search.trials == 4
    machine.confirming, machine.jobs = True, []
    confirmed = search.confirm(machine, top=2, rounds=3)
    # The baseline and the two leaders, in three interleaved rounds.
    keys = [trace_key(job.trace) for job in machine.jobs]
    assert len(keys) == 9 and keys[:3] * 3 == keys and keys[0] == machine.baseline
    assert [r.origin for r in confirmed] == ["confirm"] * 3
    assert [len(r.times) for r in confirmed] == [3, 3, 3]
    assert search.best.trace_key == machine.baseline and search.trials == 4
    best = Database(tmp_path).best(workload.key, TARGET.key)
    assert best.trace_key == machine.baseline and best.median == 1e-3
    # The unconfirmed candidates (still 0.5 ms from the search) are measured beside the
    # baseline in turn; the baseline stays the best.
    assert len(search.confirm(machine)) == 3
    assert search.best.trace_key == machine.baseline


# ------------------------------------------------------------------ measurement


def _job(module, trace, **options) -> MeasureJob:
    return MeasureJob(print_op(module), "main", trace,
                      (TARGET.cpu, TARGET.features, TARGET.opt_level), repeat=1,
                      min_seconds=0.001, **options)


def test_workers_measure_and_record_wrong_results_timeouts_and_crashes():
    module = _matmul(64)
    trace = default_trace(module, TARGET.schedule_target).as_json()
    with LocalExecutor(workers=1, timeout=60) as executor:
        [(_, reference)] = executor.map([_job(module, trace, keep_outputs=True)])
        assert reference.error is None and reference.times[0] > 0
        a, b = np.random.default_rng(0).standard_normal((2, 64, 64))
        np.testing.assert_allclose(reference.outputs["C"], (a @ b).astype(np.float32),
                                   rtol=1e-4, atol=1e-4)
        wrong = {"C": reference.outputs["C"] + 1}
        [(_, result)] = executor.map([_job(module, trace, reference=wrong)])
        assert result.error.startswith("wrong result: 4096 of 4096 elements of C differ")
        # A worker killed under a job (a crash in native code): the job fails, a new
        # worker takes the next one.
        pid = executor._pool[0].process.pid
        big = _matmul(256)
        slow = _job(big, default_trace(big, TARGET.schedule_target).as_json())
        slow.repeat, slow.min_seconds = 20, 1.0  # seconds of timing: killed on the way
        killer = threading.Timer(0.5, os.kill, (pid, signal.SIGKILL))
        killer.start()
        results = dict(executor.map([slow, _job(module, trace)]))
        killer.join()
        assert results[0].error.startswith("the worker crashed")
        assert results[1].error is None
    with LocalExecutor(workers=1, timeout=0.01) as executor:
        [(_, result)] = executor.map([_job(module, trace)])
        assert result.error == "timed out after 0.01 s"


# ------------------------------------------------------------------ the course's chapter


def test_the_course_chapter_random_search_then_tune_kernel(tmp_path):
    MyModule = _matmul(64)
    # A stochastic schedule: each run draws a tiling, the trace records it.
    sch = stochastic_schedule_mm(Schedule(MyModule, seed=1))
    assert "sample_perfect_tile" in sch.trace.as_python()
    # A random search keeping the fastest (the course's random_search).
    rng = np.random.default_rng(0)
    a = rng.standard_normal((64, 64), dtype=np.float32)
    b = rng.standard_normal((64, 64), dtype=np.float32)
    best_result, best_sch = None, None
    for seed in range(3):
        sch = stochastic_schedule_mm(Schedule(MyModule, seed=seed))
        lib = compile_module(sch.mod, num_threads=1)
        c = np.zeros((64, 64), np.float32)
        result = lib.time_evaluator("main", number=3)(a, b, c).mean
        np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)
        if best_result is None or result < best_result:
            best_result, best_sch = result, sch
    assert best_sch is not None
    # tune_tir: the same space searched, measured in workers, recorded in work_dir.
    tuned = tune_kernel(MyModule, space=stochastic_schedule_mm, trials=3, work_dir=tmp_path,
                        strategy="random", batch=4, repeat=1)
    assert tuned.trials == 3 and tuned.best.median <= tuned.default.median
    records = Database(tmp_path).records()
    assert sum(r.space == "stochastic_schedule_mm" for r in records) == 3
    assert all(r.ok for r in records)
    c = np.zeros((64, 64), np.float32)
    compile_module(tuned.mod, num_threads=1)["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)
    # A rerun resumes: the three trials are there, two more are measured; then the
    # space (64 = 64x1, 32x2, 16x4, 8x8, 4x16) has nothing new and the search stops.
    again = tune_kernel(MyModule, space=stochastic_schedule_mm, trials=5, work_dir=tmp_path,
                        strategy="random", batch=4, repeat=1)
    assert again.trials == 5 and len(Database(tmp_path).records()) == 6
    assert {tuple(decisions_of(r.trace)[0]) for r in
            Database(tmp_path).records() if r.origin == "search"} == \
        {(64, 1), (32, 2), (16, 4), (8, 8), (4, 16)}
    more = tune_kernel(MyModule, space=stochastic_schedule_mm, trials=9, work_dir=tmp_path,
                       strategy="random", batch=4, repeat=1)
    assert more.trials == 5


def test_a_tuned_kernel_replaces_the_models_function(tmp_path):
    """The chapter's end: the model's dense kernel tuned with a schedule function, then
    the model built with the database (the course's MetaScheduleApplyDatabase)."""
    model = mlp().module
    dense = model_workloads(model_kernels(model))[0]
    name = dense.name

    def stochastic_schedule_dense(sch: Schedule) -> Schedule:
        block = sch.get_block("T_dense", name)
        i, j, k = sch.get_loops(block)
        j_0, j_1 = sch.split(j, sch.sample_perfect_tile(j, n=2))
        sch.reorder(i, j_0, k, j_1)
        sch.decompose_reduction(block, k)
        return sch

    tuned = tune_kernel(dense.module, space=stochastic_schedule_dense, trials=3,
                        work_dir=tmp_path, strategy="random", batch=3, repeat=1)
    compiled = build(model, tuning_db=tmp_path, num_threads=1)
    applied = compiled.schedules[name]
    assert applied.as_json() == for_function(tuned.trace, name).as_json()
    x = np.random.default_rng(1).standard_normal((1, 784)).astype(np.float32)
    np.testing.assert_allclose(compiled(x), evaluate(model, [x])[0], rtol=1e-4, atol=1e-5)
    # The kernel with no record keeps the default rules' schedule.
    untuned = build(model, num_threads=1)
    other = next(n for n in untuned.schedules if n != name)
    assert compiled.schedules[other].as_json() == untuned.schedules[other].as_json()


def test_a_build_with_a_missing_database_says_so(tmp_path):
    with pytest.raises(FileNotFoundError, match="no tuning database"):
        build(mlp().module, tuning_db=tmp_path / "nothing")


# ------------------------------------------------------------------ models and search


def test_tune_model_spreads_trials_over_the_tasks_and_build_applies_them(tmp_path):
    model = mlp(num_classes=64).module  # 64 outputs: a second kernel with choices
    result = tune_model(model, trials=6, work_dir=tmp_path, batch=2, repeat=1,
                        strategy="random")
    assert [t.workload.name for t in result.tasks] == \
        ["fused_dense_bias_add_relu", "fused_dense_bias_add"]
    assert sum(t.trials for t in result.tasks) == 6
    assert all(t.trials >= 2 for t in result.tasks)  # every task gets a first batch
    assert result.total() <= result.total("default")
    table = result.table(peak_flops=1e11)
    assert "fused_dense_bias_add_relu" in table and "% peak" in table
    tuned = TunedSchedules(tmp_path, TARGET)
    assert set(tuned.best) == {t.workload.key for t in result.tasks}
    compiled = build(model, tuning_db=tmp_path, num_threads=1)
    for task in result.tasks:  # each kernel got its best record's trace
        name = task.workload.name
        assert compiled.schedules[name].as_json() == \
            for_function(tuned.best[task.workload.key].as_trace(), name).as_json()
        assert tuned.best[task.workload.key].median == task.best.median
    x = np.random.default_rng(2).standard_normal((1, 784)).astype(np.float32)
    np.testing.assert_allclose(compiled(x), evaluate(model, [x])[0], rtol=1e-4, atol=1e-5)
    assert model_workloads(model_kernels(model))[0].key == result.tasks[0].workload.key


def test_evolutionary_search_ranks_by_the_cost_model_after_a_first_batch(tmp_path):
    pytest.importorskip("xgboost")
    from mlc.tune.search import SearchSettings, TaskSearch
    from mlc.tune.space import make_space

    workload = model_workloads(_matmul(64))[0]
    search = TaskSearch(workload, make_space(workload.module, TARGET.schedule_target,
                                             "default"),
                        Database(tmp_path), TARGET, SearchSettings(batch=4, repeat=1))
    with LocalExecutor() as executor:
        search.prepare(executor)
        first = search.step(executor, 4)  # random: nothing to learn from yet
        assert not search._model.trained
        second = search.step(executor, 4)  # mutants and draws ranked by the model
        assert search._model.trained
    records = first + second
    assert len({r.trace_key for r in records}) == 8
    assert all(r.ok for r in records), [r.error for r in records]
    assert search.history == sorted(search.history, reverse=True)


def test_the_cost_model_learns_a_ranking():
    pytest.importorskip("xgboost")
    from mlc.tune.cost_model import CostModel

    rng = np.random.default_rng(0)
    features = rng.uniform(0, 4, (200, 5))
    seconds = np.exp(features[:, 1] - 2 * features[:, 0]) * 1e-3  # x0 fast, x1 slow
    model = CostModel()
    model.update(features[:150], seconds[:150])
    scores = model.predict(features[150:])
    ranks = np.argsort(np.argsort(scores)), np.argsort(np.argsort(-seconds[150:]))
    assert np.corrcoef(*ranks)[0, 1] > 0.9  # Spearman's rho on unseen candidates


def test_bad_arguments_are_refused(tmp_path):
    with pytest.raises(ValueError, match="trials must be an integer >= 0"):
        tune_kernel(_matmul(16), trials=-1, work_dir=tmp_path)
    with pytest.raises(ValueError, match="strategy must be one of"):
        tune_kernel(_matmul(16), trials=1, work_dir=tmp_path, strategy="annealing")
    with pytest.raises(ValueError, match="a space is"):
        tune_kernel(_matmul(16), space="fast", trials=1, work_dir=tmp_path)
    with pytest.raises(ValueError, match="executor must be one of"):
        tune_kernel(_matmul(16), trials=1, work_dir=tmp_path, executor="cluster")


def test_an_interrupted_run_keeps_its_records(tmp_path):
    module = _matmul(64)
    seen = []

    def interrupt(record):
        seen.append(record)
        if len(seen) == 2:
            raise KeyboardInterrupt

    from mlc.tune.search import SearchSettings, TaskSearch
    from mlc.tune.space import make_space
    from mlc.tune.workload import Workload, kernel_key, kernel_module

    fn = next(op for op in module.walk() if op.name == "func.func")
    workload = Workload(kernel_key(fn), "main", kernel_module(fn))
    search = TaskSearch(workload, make_space(workload.module, TARGET.schedule_target,
                                             stochastic_schedule_mm),
                        Database(tmp_path), TARGET, SearchSettings("random", 4, 1))
    with LocalExecutor() as executor:
        search.prepare(executor)
        with pytest.raises(KeyboardInterrupt):
            search.step(executor, 4, on_record=interrupt)
    time.sleep(0)
    assert len([r for r in Database(tmp_path).records() if r.origin == "search"]) == 2


def test_a_search_with_flushed_caches_keeps_its_work_dir_to_that_measure(tmp_path):
    from mlc.tune.database import MeasurementMismatch

    module = _matmul(32)
    cold = tmp_path / "cold"
    tuned = tune_kernel(module, space=stochastic_schedule_mm, trials=2, work_dir=cold,
                        strategy="random", batch=2, repeat=1, flush_cache=True)
    assert tuned.trials == 2 and all(r.ok for r in Database(cold).records())
    a = np.ones((32, 32), np.float32)
    c = np.zeros((32, 32), np.float32)
    compile_module(tuned.mod, num_threads=1)["main"](a, a, c)
    np.testing.assert_array_equal(c, np.full((32, 32), 32, np.float32))
    # Times with warm caches are not comparable with those: refused, in either order.
    with pytest.raises(MeasurementMismatch, match="measured with cache flushing"):
        tune_kernel(module, space=stochastic_schedule_mm, trials=3, work_dir=cold,
                    strategy="random", batch=2, repeat=1)
    warm = tmp_path / "warm"
    tune_kernel(module, space=stochastic_schedule_mm, trials=1, work_dir=warm,
                strategy="random", batch=1, repeat=1)
    with pytest.raises(MeasurementMismatch, match="measured without cache flushing"):
        tune_kernel(module, space=stochastic_schedule_mm, trials=2, work_dir=warm,
                    strategy="random", batch=1, repeat=1, flush_cache=True)
    (warm / "measurement.json").write_text("garbage")
    with pytest.raises(MeasurementMismatch, match="not a measurement record"):
        tune_kernel(module, space=stochastic_schedule_mm, trials=2, work_dir=warm,
                    strategy="random", batch=1, repeat=1)
