"""Measuring candidates: each built and timed in a worker process, so that a candidate
that crashes, hangs or is wrong costs the search one record, never the run.

A `MeasureJob` carries all a worker needs: the kernel module as text, the candidate's
trace as data, the target, the seed of the inputs and the reference outputs. The
worker parses the module, replays the trace, compiles the kernel alone
(`mlc.llvm.build.compile_module`, one thread), calls it once on seeded inputs and
compares what it wrote with the reference (the default schedule's outputs: rtol and
atol 1e-4 of the largest reference value, as reordered float sums differ by
rounding), then times it: `warmup` calls, then `repeat` measurements of as many calls
as take `min_seconds` (the median is the candidate's time); with `flush_cache`, each
call timed alone after its arrays were flushed from the caches.

`LocalExecutor` keeps `workers` such processes (spawned: no state inherited from the
tuner). Builds run side by side, but a worker asks the executor before it times and
only one times at a time, so measurements do not share the cores. A job has `timeout`
seconds to build and again to be timed; a worker that runs over is killed and
replaced, one that dies (a crash in native code) is replaced, and either way the
job's result says so.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

__all__ = ["MeasureJob", "MeasureResult", "LocalExecutor", "machine_state"]


@dataclass
class MeasureResult:
    """What measuring a job gave: the times (seconds, one per repeat) or an error;
    the outputs when asked for (the reference run)."""

    times: list[float] | None = None
    error: str | None = None
    outputs: dict[str, np.ndarray] | None = None
    load: float | None = None
    cpu_mhz: float | None = None
    build_seconds: float = 0.0


@dataclass
class MeasureJob:
    """One candidate to build and time (module docstring)."""

    ir: str
    name: str
    trace: list
    target: tuple[str, str, int]
    """The target's (cpu, features, opt_level)."""
    seed: int = 0
    repeat: int = 3
    warmup: int = 1
    min_seconds: float = 0.01
    reference: dict[str, np.ndarray] | None = None
    keep_outputs: bool = False
    rtol: float = 1e-4
    flush_cache: bool = False
    """Each timed call after the arrays were flushed from the caches."""

    def run(self, before_timing=None) -> MeasureResult:
        """Build, check and time the candidate here (in a worker); `before_timing()`
        is called (and returns) when this process may time."""
        from mlc.ir import Context, parse_module
        from mlc.llvm.build import compile_module
        from mlc.llvm.target import Target
        from mlc.llvm.timing import time_evaluator
        from mlc.loop.schedule import Schedule, Trace

        began = time.perf_counter()
        module = parse_module(self.ir, Context())
        sch = Schedule(module)
        Trace.from_json(self.trace).apply(sch)
        cpu, features, opt_level = self.target
        native = compile_module(sch.mod, Target(cpu, features, opt_level), num_threads=1)
        function = native[self.name]
        build_seconds = time.perf_counter() - began
        args = seeded_arguments(function.specs, self.seed)
        function(*args)
        outputs = {spec.name: np.array(arg) for spec, arg in zip(function.specs, args)
                   if spec.role in ("output", "inout")}
        if self.reference is not None:
            wrong = _mismatch(outputs, self.reference, self.rtol)
            if wrong:
                return MeasureResult(error=f"wrong result: {wrong}", build_seconds=build_seconds)
        if before_timing is not None:
            before_timing()
        once = time_evaluator(function, 1, 1, self.warmup, self.flush_cache)(*args).min
        number = max(1, min(1000, int(self.min_seconds / max(once, 1e-9))))
        times = list(time_evaluator(function, number, self.repeat, 0,
                                    self.flush_cache)(*args).results)
        load, mhz = machine_state()
        return MeasureResult(times, None, outputs if self.keep_outputs else None, load, mhz,
                             build_seconds)


def seeded_arguments(specs, seed: int) -> list[np.ndarray]:
    """Arguments for a kernel's `specs`, the same for a seed: floats from a standard
    normal, integers in [0, 2) (small enough to be valid indices), outputs zeroed."""
    rng = np.random.default_rng(seed)
    args = []
    for spec in specs:
        dtype = np.dtype(spec.dtype)
        if spec.role == "output":
            args.append(np.zeros(spec.shape, dtype))
        elif dtype.kind == "f":
            args.append(rng.standard_normal(spec.shape).astype(dtype))
        elif dtype.kind == "b":
            args.append(rng.integers(0, 2, spec.shape).astype(dtype))
        else:
            args.append(rng.integers(0, 2, spec.shape).astype(dtype))
    return args


def _mismatch(outputs: dict[str, np.ndarray], reference: dict[str, np.ndarray],
              rtol: float) -> str | None:
    for name, expected in reference.items():
        got = outputs.get(name)
        if got is None or got.shape != expected.shape:
            return f"output {name} is missing or of another shape"
        if expected.dtype.kind == "f":
            scale = float(np.max(np.abs(expected))) if expected.size else 0.0
            bad = ~np.isclose(got, expected, rtol=rtol, atol=rtol * max(scale, 1e-30),
                              equal_nan=True)
        else:
            bad = got != expected
        if bad.any():
            return f"{int(bad.sum())} of {expected.size} elements of {name} differ"
    return None


def machine_state() -> tuple[float | None, float | None]:
    """The 1-minute load average and the first CPU's clock in MHz (None when unknown)."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    mhz = None
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as file:
            for line in file:
                if line.startswith("cpu MHz"):
                    mhz = float(line.split(":")[1])
                    break
    except (OSError, ValueError):
        pass
    return load, mhz


# ------------------------------------------------------------------ the workers


_MAY_I_TIME = "may I time?"
_TIME = "time"


def _worker_main(connection) -> None:
    """A worker's loop: a job in, its result out, until told to stop."""
    import mlc.llvm.build  # noqa: F401 - the imports once, before saying ready

    def before_timing():
        connection.send(_MAY_I_TIME)
        if connection.recv() != _TIME:
            raise RuntimeError("the executor did not let this worker time")

    connection.send("ready")
    while True:
        try:
            job = connection.recv()
        except EOFError:
            return
        if job is None:
            return
        try:
            result = job.run(before_timing)
        except Exception as exc:  # a candidate that fails: its record says why
            result = MeasureResult(error=f"{type(exc).__name__}: {exc}".strip())
        connection.send(result)


@dataclass
class _Worker:
    process: multiprocessing.Process
    connection: object
    job: int | None = None
    deadline: float = 0.0
    waiting: bool = False
    """Built, waiting for its turn to time."""


class Executor:
    """Where measurement jobs run: `map(jobs)` yields (index, MeasureResult) pairs;
    `close()` frees what it holds, also when used as a context manager."""

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


@dataclass
class LocalExecutor(Executor):
    """Worker processes on this machine (module docstring)."""

    workers: int = 1
    timeout: float = 60.0
    startup_timeout: float = 300.0
    _pool: list[_Worker] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self):
        if not isinstance(self.workers, int) or self.workers < 1:
            raise ValueError(f"workers must be an integer >= 1, not {self.workers!r}")
        if not self.timeout > 0:
            raise ValueError(f"timeout must be positive seconds, not {self.timeout!r}")
        self._context = multiprocessing.get_context("spawn")

    def _start(self) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_worker_main, args=(child,), daemon=True)
        process.start()
        child.close()
        if not parent.poll(self.startup_timeout) or parent.recv() != "ready":
            process.kill()
            raise RuntimeError("a measurement worker did not start")
        return _Worker(process, parent)

    def _replace(self, worker: _Worker) -> None:
        worker.process.kill()
        worker.process.join()
        worker.connection.close()
        self._pool[self._pool.index(worker)] = self._start()

    def map(self, jobs: Iterable[MeasureJob]) -> Iterator[tuple[int, MeasureResult]]:
        """Run `jobs`, yielding (position, result) as each finishes."""
        from multiprocessing.connection import wait

        pending = list(enumerate(jobs))
        pending.reverse()
        while len(self._pool) < min(self.workers, max(1, len(pending))):
            self._pool.append(self._start())
        timing: _Worker | None = None
        while pending or any(w.job is not None for w in self._pool):
            for worker in self._pool:
                if worker.job is None and pending:
                    index, job = pending.pop()
                    worker.connection.send(job)
                    worker.job, worker.deadline = index, time.monotonic() + self.timeout
            if timing is None:
                timing = next((w for w in self._pool if w.waiting), None)
                if timing is not None:  # its turn: the timeout starts again
                    timing.waiting = False
                    timing.deadline = time.monotonic() + self.timeout
                    timing.connection.send(_TIME)
            running = [w for w in self._pool if w.job is not None and not w.waiting]
            left = max(0.0, min(w.deadline for w in running) - time.monotonic())
            ready = wait([w.connection for w in running], timeout=left)
            for worker in running:
                index = worker.job
                if worker.connection in ready:
                    try:
                        result = worker.connection.recv()
                    except (EOFError, OSError):
                        worker.process.join(1)
                        result = MeasureResult(error=f"the worker crashed (exit code "
                                                     f"{worker.process.exitcode})")
                    if result == _MAY_I_TIME:
                        worker.waiting = True
                        continue
                elif time.monotonic() >= worker.deadline:
                    result = MeasureResult(error=f"timed out after {self.timeout:g} s")
                else:
                    continue
                if worker is timing:
                    timing = None
                if result.error is not None and result.error.startswith(("the worker crashed",
                                                                         "timed out")):
                    self._replace(worker)
                else:
                    worker.job = None
                yield index, result

    def close(self) -> None:
        """Stop the workers."""
        for worker in self._pool:
            try:
                worker.connection.send(None)
            except OSError:
                pass
            worker.process.join(5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        self._pool.clear()
