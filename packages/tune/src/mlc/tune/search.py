"""The search for one task: candidates drawn from its space, measured in batches,
every result recorded in the database.

A `TaskSearch` first measures the default rules' schedule (the baseline, whose
outputs are the reference every candidate is checked against), then, batch after
batch:

- **random search** draws fresh candidates from the space (TVM's ReplayTrace);
- **evolutionary search** (TVM's EvolutionarySearch, condensed) mutates the best
  candidates measured so far — one or two of their decisions drawn again, the rest
  kept — into a pool several times the batch, mixed with fresh draws; the cost model
  (:mod:`mlc.tune.cost_model`), retrained on everything measured, ranks the pool and
  the best-ranked are measured, with a quarter of the batch left to fresh random
  draws so the model keeps seeing the rest of the space. Until the model has enough
  measurements (or without XGBoost installed) it is random search.

Candidates already measured (in this run or, read from the database, in an earlier
one) are never measured again: a rerun resumes where the last one stopped.

When a task's trials are spent, `confirm` measures its best few candidates and the
baseline again, side by side in interleaved rounds, and records the new times
("confirm" records, which supersede the earlier ones: mlc.tune.database). On a
shared machine the load moves by more between two measurements minutes apart than
the good candidates differ; without this, the tuned schedule is often the one that
was measured at a quiet moment, not the fastest (and then slower than the default).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from mlc.ir import print_op
from mlc.loop.rules import kernels
from mlc.loop.schedule import ScheduleError, Trace
from mlc.tune.cost_model import MIN_TRAINING, CostModel
from mlc.tune.database import Database, Record, best_record, latest_by_trace, trace_key
from mlc.tune.features import kernel_features
from mlc.tune.measure import MeasureJob, MeasureResult
from mlc.tune.space import Space, decisions_of, default_trace
from mlc.tune.workload import Workload

__all__ = ["SearchSettings", "TaskSearch", "STRATEGIES"]

log = logging.getLogger("mlc.tune")

STRATEGIES = ("evolutionary", "random")


@dataclass
class SearchSettings:
    """How candidates are measured and searched."""

    strategy: str = "evolutionary"
    batch: int = 8
    repeat: int = 3
    min_seconds: float = 0.01
    seed: int = 0
    pool_factor: int = 4
    """Evolutionary search: candidates ranked by the model per one measured."""
    flush_cache: bool = False
    """Time each call after its arrays are flushed from the caches (cold weights, as
    in a network: mlc.llvm.timing)."""

    def __post_init__(self):
        if self.strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, "
                             f"not {self.strategy!r}")
        for name in ("batch", "repeat", "pool_factor"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, not {value!r}")


@dataclass
class TaskSearch:
    """The search of one workload (module docstring)."""

    workload: Workload
    space: Space
    database: Database
    target: object
    """The mlc.llvm.Target measured on."""
    settings: SearchSettings = field(default_factory=SearchSettings)
    default: Record | None = None
    reference: dict | None = None
    records: list[Record] = field(default_factory=list)
    """This workload's records on the target (earlier runs' included), baseline aside."""
    history: list[float] = field(default_factory=list)
    """The best time after each candidate measured in this run."""

    def __post_init__(self):
        self._random = random.Random(self.settings.seed)
        self._features: dict[str, np.ndarray] = {}
        self._model = CostModel(self.settings.seed) if CostModel.available() else None
        self._seen: set[str] = set()
        self._ir = print_op(self.workload.module)
        if self.settings.strategy == "evolutionary" and self._model is None:
            log.warning("XGBoost is not installed (pip install 'mlc-tune[model]'): the "
                        "search is random, with no cost model")

    @property
    def target_key(self) -> str:
        return self.target.key

    def _job(self, trace: list, **options) -> MeasureJob:
        return MeasureJob(self._ir, self.workload.name, trace,
                          (self.target.cpu, self.target.features, self.target.opt_level),
                          seed=self.settings.seed, repeat=self.settings.repeat,
                          min_seconds=self.settings.min_seconds,
                          flush_cache=self.settings.flush_cache, **options)

    def _record(self, trace: list, result: MeasureResult, origin: str = "search") -> Record:
        # The baseline comes from the default rules whatever the space searched.
        space = "default" if origin == "default" else self.space.name
        return Record(self.workload.key, self.workload.name, self.target_key, trace,
                      result.times, result.error, space, origin,
                      load=result.load, cpu_mhz=result.cpu_mhz)

    # ------------------------------------------------------------ the baseline

    def prepare(self, executor) -> Record:
        """Measure the default rules' schedule (its outputs become the reference);
        read back the records of earlier runs."""
        self.database.commit_workload(self.workload.key, self.workload.name, self._ir)
        earlier = self.database.records(self.workload.key, self.target_key)
        baseline = default_trace(self.workload.module, self.target.schedule_target).as_json()
        [(_, result)] = list(executor.map([self._job(baseline, keep_outputs=True,
                                                     reference=None)]))
        if result.error is not None:
            raise RuntimeError(f"@{self.workload.name}: the default schedule does not "
                               f"build or run: {result.error}")
        self.reference = result.outputs
        self.default = self._record(baseline, result, "default")
        if not any(r.origin == "default" for r in earlier):
            self.database.commit(self.default)
        # This space's candidates, and the baseline's re-measurements (`confirm`).
        self.records = [r for r in earlier if r.origin != "default" and (
            r.space == self.space.name or (r.origin == "confirm" and r.space == "default"))]
        self._seen = {r.trace_key for r in earlier} | {trace_key(baseline)}
        return self.default

    @property
    def trials(self) -> int:
        """Candidates measured for this space so far (earlier runs' included)."""
        return sum(r.origin == "search" for r in self.records)

    @property
    def best(self) -> Record:
        """The fastest trace so far by its latest record, the baseline included (the
        fastest confirmed one once there are: mlc.tune.database.best_record)."""
        return best_record([self.default, *self.records]) or self.default

    # ------------------------------------------------------------ candidates

    def _draw(self, keep=()) -> list | None:
        """A new candidate's trace (JSON), or None when the draw failed or repeats one."""
        try:
            trace = self.space.sample(self._random.randrange(1 << 31), keep).as_json()
        except ScheduleError:
            return None  # a space function whose primitive did not apply to this draw
        key = trace_key(trace)
        if key in self._seen:
            return None
        self._seen.add(key)
        return trace

    def _fresh(self, count: int, attempts: int) -> list[list]:
        found = []
        for _ in range(attempts):
            if len(found) >= count:
                break
            trace = self._draw()
            if trace is not None:
                found.append(trace)
        return found

    def _feature(self, trace: list) -> np.ndarray:
        key = trace_key(trace)
        if key not in self._features:
            [fn] = kernels(self.space.apply(Trace.from_json(trace)))
            self._features[key] = kernel_features(fn, self.target.schedule_target)
        return self._features[key]

    def _mutants(self, count: int) -> list[list]:
        measured = sorted((r for r in self.records if r.ok), key=lambda r: r.median)[:8]
        found = []
        for _ in range(count * 4):
            if len(found) >= count or not measured:
                break
            # Better parents more often: the rank's weight halves down the list.
            parent = self._random.choices(measured, [0.5 ** n for n in range(len(measured))])[0]
            decisions = decisions_of(parent.trace)
            if not decisions:
                break
            keep: list = list(decisions)
            for _ in range(1 if self._random.random() < 0.7 else 2):
                keep[self._random.randrange(len(keep))] = None
            trace = self._draw(keep)
            if trace is not None:
                found.append(trace)
        return found

    def _model_ready(self) -> bool:
        return self._model is not None and sum(r.ok for r in self.records) >= MIN_TRAINING

    def candidates(self, count: int) -> list[list]:
        """The next `count` traces to measure (fewer when the space runs out)."""
        if self.settings.strategy == "random" or not self._model_ready():
            return self._fresh(count, attempts=count * 10)
        measured = [r for r in self.records if r.ok]
        self._model.update(np.stack([self._feature(r.trace) for r in measured]),
                           np.asarray([r.median for r in measured]))
        explore = max(1, count // 4)
        pool = self._mutants((count - explore) * self.settings.pool_factor)
        pool += self._fresh(count * self.settings.pool_factor // 2, attempts=count * 10)
        if not pool:
            return []
        scores = self._model.predict(np.stack([self._feature(t) for t in pool]))
        order = list(np.argsort(-scores, kind="stable"))
        chosen = [pool[i] for i in order[:count - explore]]
        rest = [pool[i] for i in order[count - explore:]]
        self._random.shuffle(rest)
        return chosen + rest[:explore]

    # ------------------------------------------------------------ measuring

    def step(self, executor, count: int, on_record: Callable[[Record], None] | None = None
             ) -> list[Record]:
        """Measure up to `count` new candidates; each is recorded as it finishes."""
        traces = self.candidates(count)
        jobs = [self._job(trace, reference=self.reference) for trace in traces]
        made = []
        for index, result in executor.map(jobs):
            record = self._record(traces[index], result)
            self.database.commit(record)
            self.records.append(record)
            made.append(record)
            self.history.append(self.best.median)
            if on_record is not None:
                on_record(record)
        return made

    def confirm(self, executor, top: int = 2, rounds: int = 2) -> list[Record]:
        """Measure the `top` fastest candidates (confirmed before or not) and the
        baseline again, in `rounds` interleaved rounds; record each trace's times of
        all rounds (module docstring). Nothing when no candidate beats the baseline."""
        baseline = best_record([self.default, *(r for r in self.records
                                                 if r.trace_key == self.default.trace_key)])
        latest = [r for r in latest_by_trace(self.records) if r.ok
                  and r.trace_key != self.default.trace_key]
        leaders = sorted(latest, key=lambda r: r.median)[:top]
        if not leaders or leaders[0].median >= baseline.median:
            return []
        traces = [self.default.trace, *(r.trace for r in leaders)]
        jobs = [self._job(trace, reference=self.reference)
                for _ in range(rounds) for trace in traces]
        times: list[list[float]] = [[] for _ in traces]
        errors: list[str | None] = [None for _ in traces]
        state = [None for _ in traces]
        for index, result in executor.map(jobs):
            which = index % len(traces)
            if result.error is not None:
                errors[which] = result.error
            else:
                times[which] += result.times
                state[which] = result
        made = []
        for which, trace in enumerate(traces):
            result = MeasureResult(times[which] if errors[which] is None else None,
                                   errors[which], load=getattr(state[which], "load", None),
                                   cpu_mhz=getattr(state[which], "cpu_mhz", None))
            record = self._record(trace, result, "confirm")
            if which == 0:
                record.space = "default"
            self.database.commit(record)
            self.records.append(record)
            made.append(record)
        return made
