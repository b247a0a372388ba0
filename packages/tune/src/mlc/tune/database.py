"""The tuning database: workloads and tuning records in JSON lines, under a work
directory (TVM meta-schedule's JSONDatabase).

    work_dir/workloads.jsonl   {"key", "name", "ir"}: each kernel tuned, once
    work_dir/records.jsonl     one measured candidate a line (`Record`)
    work_dir/measurement.json  how its times were taken: {"flush_cache": bool}

The times of one work directory are all taken the same way (warm caches, or each
call after its arrays were flushed from them: `mlc.llvm.timing`), or they could not
be compared: `Database.check_measurement` refuses a search that would mix them.

A record holds the workload's key, the kernel's name when it was tuned, the trace as
data (`Trace.as_json`), the target's key, the measured times (seconds, one per
repeat; null when the candidate failed, with `error` saying why), the space it was
drawn from, mlc's version, and the machine's load and CPU clock while it ran.

A trace may be measured more than once: the tuner re-measures the best candidates
and the baseline side by side when a task is done ("confirm" records, see
mlc.tune.search), because measurements taken minutes apart on a shared machine
differ by more than the candidates do. A trace's latest record is its time, and once
a workload has confirmed traces its best is the fastest of those (`best_record`).

Every record is appended and flushed as soon as it is measured: an interrupted run
keeps all of them, and a rerun reads them back (and resumes). Several processes may
append to the same files (each line is one write); a line that does not parse (a
write cut short, a hand edit) is skipped with a warning, never the whole file.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import warnings
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from mlc.loop.schedule import Trace

__all__ = ["Database", "MeasurementMismatch", "Record", "mlc_version", "latest_by_trace",
           "best_record"]

RECORDS = "records.jsonl"
WORKLOADS = "workloads.jsonl"
MEASUREMENT = "measurement.json"


class MeasurementMismatch(ValueError):
    """A search would record times taken otherwise than the work directory's."""


def mlc_version() -> str:
    """The version of the mlc packages (mlc-ir-core's)."""
    try:
        return metadata.version("mlc-ir-core")
    except metadata.PackageNotFoundError:  # pragma: no cover - a source checkout
        return "unknown"


@dataclass
class Record:
    """One measured candidate (module docstring)."""

    workload: str
    kernel: str
    target: str
    trace: list
    times: list[float] | None = None
    error: str | None = None
    space: str = "default"
    origin: str = "search"
    """"default": the default rules' schedule (the baseline); "search": a candidate;
    "confirm": a trace measured again beside the best others (module docstring)."""
    mlc_version: str = field(default_factory=mlc_version)
    load: float | None = None
    cpu_mhz: float | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and bool(self.times)

    @property
    def median(self) -> float:
        """The median of the measured times (inf for a failed candidate)."""
        return statistics.median(self.times) if self.ok else float("inf")

    @property
    def trace_key(self) -> str:
        """What tells two candidates' schedules apart (`trace_key`)."""
        return trace_key(self.trace)

    def as_trace(self) -> Trace:
        return Trace.from_json(self.trace)


def trace_key(trace: list) -> str:
    """What tells two schedules apart: the trace's primitives (its sampling
    instructions left out: a decision that changes nothing is the same schedule),
    hashed."""
    from mlc.loop.schedule.trace import SAMPLING_PRIMITIVES

    applied = [entry for entry in trace if entry[0] not in SAMPLING_PRIMITIVES]
    return hashlib.sha256(json.dumps(applied, sort_keys=True).encode()).hexdigest()


_FIELDS = {f for f in Record.__dataclass_fields__}
_REQUIRED = {"workload", "kernel", "target", "trace"}


def _record(data: Any) -> Record:
    if not isinstance(data, dict) or not _REQUIRED <= set(data):
        raise ValueError(f"a record is an object with {', '.join(sorted(_REQUIRED))}")
    record = Record(**{k: v for k, v in data.items() if k in _FIELDS})
    Trace.from_json(record.trace)  # a trace that does not read back is corrupt too
    if record.times is not None and not (isinstance(record.times, list) and all(
            isinstance(t, int | float) and t > 0 for t in record.times)):
        raise ValueError("times are a list of positive seconds")
    return record


def latest_by_trace(records: list[Record]) -> list[Record]:
    """Each (workload, target, trace)'s last record among `records` (in their order):
    a later measurement of a trace supersedes the earlier ones (module docstring)."""
    latest: dict[tuple, Record] = {}
    for record in records:
        key = (record.workload, record.target, record.trace_key)
        latest.pop(key, None)  # re-inserted: the order follows the latest records
        latest[key] = record
    return list(latest.values())


def best_record(records: list[Record]) -> Record | None:
    """The fastest successful trace among `records` by its latest record; among the
    confirmed ones when there are (module docstring). None when none succeeded."""
    latest = [r for r in latest_by_trace(records) if r.ok]
    confirmed = [r for r in latest if r.origin == "confirm"]
    return min(confirmed or latest, key=lambda r: r.median, default=None)


class Database:
    """The records and workloads under `work_dir` (created when missing)."""

    def __init__(self, work_dir: str | os.PathLike):
        self.path = Path(work_dir)
        self.path.mkdir(parents=True, exist_ok=True)
        self.records_path = self.path / RECORDS
        self.workloads_path = self.path / WORKLOADS
        self.measurement_path = self.path / MEASUREMENT

    def check_measurement(self, flush_cache: bool) -> None:
        """Record how this search times candidates, or MeasurementMismatch when the
        directory's records were timed otherwise (module docstring)."""
        wanted = {"flush_cache": bool(flush_cache)}
        if self.measurement_path.exists():
            try:
                found = json.loads(self.measurement_path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                found = None
            if not isinstance(found, dict) or "flush_cache" not in found:
                raise MeasurementMismatch(f"{self.measurement_path}: not a measurement "
                                          "record (delete it if the directory is yours)")
            if bool(found["flush_cache"]) != wanted["flush_cache"]:
                how = "with" if found["flush_cache"] else "without"
                raise MeasurementMismatch(
                    f"{self.path} holds times measured {how} cache flushing; tune "
                    f"{how} it again (--flush-cache), or in another work directory")
            return
        if self.records_path.exists() and wanted["flush_cache"]:
            raise MeasurementMismatch(f"{self.path} holds times measured without cache "
                                      "flushing; tune without --flush-cache, or in another "
                                      "work directory")
        self.measurement_path.write_text(json.dumps(wanted) + "\n", encoding="utf-8")

    # ----------------------------------------------------------------- reading

    def _lines(self, path: Path) -> list[tuple[int, Any]]:
        if not path.exists():
            return []
        found = []
        with path.open(encoding="utf-8", errors="replace") as file:
            for number, line in enumerate(file, 1):
                if not line.strip():
                    continue
                try:
                    found.append((number, json.loads(line)))
                except json.JSONDecodeError as exc:
                    warnings.warn(f"{path}:{number}: skipped a corrupt line ({exc.msg})",
                                  stacklevel=3)
        return found

    def records(self, workload: str | None = None, target: str | None = None) -> list[Record]:
        """The records of `workload` on `target` (all when None), in file order;
        corrupt ones skipped with a warning."""
        found = []
        for number, data in self._lines(self.records_path):
            try:
                record = _record(data)
            except (TypeError, ValueError) as exc:
                warnings.warn(f"{self.records_path}:{number}: skipped a corrupt record ({exc})",
                              stacklevel=2)
                continue
            if (workload is None or record.workload == workload) and \
                    (target is None or record.target == target):
                found.append(record)
        return found

    def best(self, workload: str, target: str) -> Record | None:
        """The fastest successful trace of `workload` on `target` by its latest record
        (its median), or None."""
        return best_record(self.records(workload, target))

    def best_by_workload(self, target: str) -> dict[str, Record]:
        """The fastest successful trace of each workload on `target`, by its latest
        record."""
        by_workload: dict[str, list[Record]] = {}
        for record in self.records(target=target):
            by_workload.setdefault(record.workload, []).append(record)
        best = {key: best_record(records) for key, records in by_workload.items()}
        return {key: record for key, record in best.items() if record is not None}

    def workloads(self) -> dict[str, dict]:
        """The workloads tuned: {key: {"key", "name", "ir"}}."""
        return {data["key"]: data for _, data in self._lines(self.workloads_path)
                if isinstance(data, dict) and isinstance(data.get("key"), str)}

    # ----------------------------------------------------------------- writing

    def _append(self, path: Path, data: dict) -> None:
        line = json.dumps(data, separators=(",", ":")) + "\n"
        # One write of a whole line in append mode: lines of processes appending at
        # the same time do not interleave (POSIX O_APPEND), and a kill leaves at most
        # the last line cut short, which reading skips.
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)

    def commit_workload(self, key: str, name: str, ir: str) -> None:
        """Note a workload (once per key)."""
        if key not in self.workloads():
            self._append(self.workloads_path, {"key": key, "name": name, "ir": ir})

    def commit(self, record: Record) -> None:
        """Append `record` (module docstring)."""
        self._append(self.records_path, asdict(record))
