"""`tune_kernel` and `tune_model`: the MLC course's `meta_schedule.tune_tir` and a
model's tuning, in mlc's words.

    result = tune_kernel(MyModule, space=stochastic_schedule_mm, trials=64,
                         work_dir="tune")
    result.mod                   # the kernel module scheduled by the best trace
    model = mlc.llvm.build(graph, tuning_db="tune")   # every tuned kernel applied

A model's tasks are its distinct kernels (:mod:`mlc.tune.workload`). Trials go where
the most time can be won, by a simple gradient rule (TVM's task scheduler, condensed):
every task first gets one batch; then each batch goes to the task whose kernels take
the most time in one run of the model now (calls x its best time so far) times how
much its last batch improved it (at least a floor, so a task that stalled still gets
a batch now and then). The first factor sends trials to the kernels that dominate the
model's latency; the second stops spending them on a task whose search has
converged. When the trials are spent, each task searched in this run (or whose best
was never confirmed) has its best candidates and the baseline measured again side by
side (`TaskSearch.confirm`), and those times decide which schedule is the best.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mlc.ir.core.ir import Operation
from mlc.loop.rules import kernels
from mlc.tune.database import Database, Record
from mlc.tune.measure import LocalExecutor
from mlc.tune.search import SearchSettings, TaskSearch
from mlc.tune.space import ScheduleFn, make_space
from mlc.tune.workload import Workload, kernel_key, kernel_module, model_workloads

__all__ = ["TaskResult", "TuneResult", "tune_kernel", "tune_model", "model_kernels",
           "EXECUTORS"]

EXECUTORS = ("local", "ray")

STALLED = 0.05
"""The improvement a task's last batch is credited with at least (a stalled task)."""


@dataclass
class TaskResult:
    """One task tuned: its workload, the baseline and best records, the trials
    measured (earlier runs' included) and the best time after each of this run's."""

    workload: Workload
    default: Record
    best: Record
    trials: int
    history: list[float] = field(default_factory=list)
    space: object = None

    @property
    def speedup(self) -> float:
        return self.default.median / self.best.median

    @property
    def trace(self):
        """The best trace (mlc.loop.schedule.Trace)."""
        return self.best.as_trace()

    @property
    def mod(self) -> Operation:
        """The kernel module scheduled by the best trace."""
        return self.space.apply(self.trace)

    def gflops(self, seconds: float) -> float:
        return self.workload.flops / seconds / 1e9 if seconds > 0 else 0.0


@dataclass
class TuneResult:
    """A model tuned: one TaskResult per task, in the model's order."""

    tasks: list[TaskResult]
    target: object

    def total(self, which: str = "best") -> float:
        """Seconds the model's kernels take per run: calls x time, summed."""
        return sum(t.workload.calls * getattr(t, which).median for t in self.tasks)

    def table(self, peak_flops: float | None = None) -> str:
        """The per-task table (calls, FLOPs, default and best time, GFLOP/s, % of peak,
        trials) and the totals."""
        rows = [("task", "calls", "MFLOP", "default ms", "best ms", "GFLOP/s",
                 "% peak", "trials")]
        for t in self.tasks:
            best = t.best.median
            gflops = t.gflops(best)
            peak = f"{100 * gflops * 1e9 / peak_flops:.1f}" if peak_flops else "-"
            rows.append((t.workload.name, str(t.workload.calls),
                         f"{t.workload.flops / 1e6:.2f}", f"{t.default.median * 1e3:.4f}",
                         f"{best * 1e3:.4f}", f"{gflops:.2f}", peak, str(t.trials)))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                           for i, (c, w) in enumerate(zip(row, widths))) for row in rows]
        lines.append(f"kernels per run: default {self.total('default') * 1e3:.4f} ms, "
                     f"tuned {self.total() * 1e3:.4f} ms")
        return "\n".join(lines)


def _executor(executor, workers: int, timeout: float):
    if executor == "local":
        return LocalExecutor(workers, timeout)
    if executor == "ray" or (isinstance(executor, str) and executor.startswith("ray:")):
        from mlc.tune.ray_executor import RayExecutor

        address = executor.partition(":")[2] or None
        return RayExecutor(address, timeout)
    if hasattr(executor, "map"):
        return executor
    raise ValueError(f"executor must be one of {', '.join(EXECUTORS)} (or 'ray:ADDRESS'), "
                     f"not {executor!r}")


def _target(target):
    from mlc.llvm.target import Target

    return target if target is not None else Target()


def _check_trials(trials) -> None:
    if not isinstance(trials, int) or isinstance(trials, bool) or trials < 0:
        raise ValueError(f"trials must be an integer >= 0, not {trials!r}")


def tune_kernel(module: Operation, space: str | ScheduleFn = "default", trials: int = 64,
                work_dir: str | os.PathLike = "tune", *, target=None,
                strategy: str = "evolutionary", batch: int = 8, repeat: int = 3,
                seed: int = 0, executor="local", workers: int = 1, timeout: float = 60.0,
                progress: bool = False, flush_cache: bool = False) -> TaskResult:
    """Search `trials` schedules of the one kernel in `module` (a module of loop
    kernels, as te.create_prim_func makes) drawn from `space` ("default": the rules'
    decisions; or a function `fn(sch)` that schedules a Schedule with sampling
    primitives), measured on `target` (default: this machine) and recorded in
    `work_dir`'s database; the best found (the default rules' schedule if nothing
    beat it). Trials already in the database count: a rerun resumes. `executor`:
    "local" (`workers` processes here) or "ray" / "ray:ADDRESS" (mlc.tune.ray_executor);
    `strategy`: "evolutionary" (cost model) or "random"; `flush_cache`: each call
    timed after its arrays were flushed from the caches (cold weights, as in a
    network), the same for every search of `work_dir`."""
    _check_trials(trials)
    target = _target(target)
    found = kernels(module)
    if len(found) != 1:
        raise ValueError(f"tune_kernel takes a module with one kernel, not {len(found)} "
                         "(tune_model tunes every kernel of a model)")
    fn = found[0]
    workload = Workload(kernel_key(fn), fn.attributes["sym_name"].value, kernel_module(fn))
    from mlc.loop.cost import kernel_cost

    cost = kernel_cost(fn)
    workload.flops = cost.flops if cost else 0
    settings = SearchSettings(strategy, batch, repeat, seed=seed, flush_cache=flush_cache)
    database = Database(work_dir)
    database.check_measurement(flush_cache)
    with _executor(executor, workers, timeout) as runner:
        [result] = _tune([workload], space, trials, database, target, settings, runner,
                         progress, per_task=True)
    return result


def model_kernels(model, target=None) -> Operation:
    """The loop kernels `mlc.llvm.build` would schedule for `model` (a graph module, or
    a path to an .onnx or .mlir file): the module after graph-lower-to-loop."""
    from mlc.llvm.build import lower_to_kernels

    return lower_to_kernels(_graph_module(model), _target(target))


def _graph_module(model) -> Operation:
    if isinstance(model, Operation):
        return model
    path = Path(model)
    if path.suffix == ".onnx":
        from mlc.onnx import import_onnx

        return import_onnx(str(path))
    from mlc.ir import Context, parse_module

    return parse_module(path.read_text(), Context(), filename=str(path))


def tune_model(model, trials: int = 64, work_dir: str | os.PathLike = "tune", *,
               target=None, strategy: str = "evolutionary", batch: int = 8,
               repeat: int = 3, seed: int = 0, executor="local", workers: int = 1,
               timeout: float = 60.0, progress: bool = False,
               on_task: Callable[[TaskResult], None] | None = None,
               flush_cache: bool = False) -> TuneResult:
    """Tune every distinct kernel of `model` (a graph module, or an .onnx or .mlir
    file) with `trials` candidates in all, spread by the task scheduler (module
    docstring), records in `work_dir`; `mlc.llvm.build(model, tuning_db=work_dir)`
    then applies them. Options as tune_kernel's."""
    _check_trials(trials)
    target = _target(target)
    workloads = model_workloads(model_kernels(model, target))
    settings = SearchSettings(strategy, batch, repeat, seed=seed, flush_cache=flush_cache)
    database = Database(work_dir)
    database.check_measurement(flush_cache)
    with _executor(executor, workers, timeout) as runner:
        results = _tune(workloads, "default", trials, database, target, settings, runner,
                        progress, per_task=False)
    return TuneResult(results, target)


def _bar(progress: bool, total: int, name: str):
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=name, unit="trial", leave=True, dynamic_ncols=True)


def _tune(workloads: list[Workload], space, trials: int, database: Database, target,
          settings: SearchSettings, runner, progress: bool, per_task: bool
          ) -> list[TaskResult]:
    searches = [TaskSearch(w, make_space(w.module, target.schedule_target, space), database,
                           target, settings) for w in workloads]
    for search in searches:
        search.prepare(runner)
    # A rerun resumes: the trials recorded before count against the budget.
    done = sum(s.trials for s in searches)
    left = max(0, trials - done)
    bar = _bar(progress, left, searches[0].workload.name if per_task else "tuning")
    gains = {id(s): 1.0 for s in searches}
    exhausted: set[int] = set()
    try:
        while left > 0 and len(exhausted) < len(searches):
            active = [s for s in searches if id(s) not in exhausted]
            untried = [s for s in active if not s.history]
            search = untried[0] if untried else max(
                active, key=lambda s: s.workload.calls * s.best.median * gains[id(s)])
            before = search.best.median
            if bar is not None:
                bar.set_description(search.workload.name)
            made = search.step(runner, min(settings.batch, left),
                               on_record=(lambda _: bar.update(1)) if bar is not None else None)
            if not made:
                exhausted.add(id(search))  # the space has nothing new to draw
                continue
            left -= len(made)
            gains[id(search)] = max(STALLED, 1.0 - search.best.median / before)
    finally:
        if bar is not None:
            bar.close()
    for search in searches:
        # Searched in this run, or its best never measured beside the baseline (an
        # earlier run's, interrupted): its leaders measured side by side.
        if search.history or search.best.origin == "search":
            search.confirm(runner)
    return [TaskResult(s.workload, s.default, s.best, s.trials, s.history, s.space)
            for s in searches]
