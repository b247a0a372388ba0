"""Measurement on a Ray cluster: each candidate is a Ray task that builds and times it
on some node, its result coming back to the tuner, which writes the same database.

Ray is an optional extra (`pip install 'mlc-tune[ray]'`). Start a cluster with
`ray start --head` on one machine and `ray start --address=HEAD:6379` on the others,
then `mlc-tune ... --ray HEAD:6379` (or `tune_*(..., executor="ray:HEAD:6379")`);
with no address a local Ray instance starts (and stops with the run).

One measurement per node at a time: each task asks for as many CPUs as the smallest
node has, so Ray never runs two on a node and a timing never shares its cores with
another build. A task that raises, or whose worker dies, is a failed candidate; when
no task finishes for `timeout` seconds, the oldest ones (as many as the cluster runs
at once) are cancelled and recorded as timed out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from mlc.tune.measure import Executor, MeasureJob, MeasureResult

__all__ = ["RayExecutor"]


def _measure(job: MeasureJob) -> MeasureResult:
    try:
        return job.run()
    except Exception as exc:  # a failed candidate, as in a local worker
        return MeasureResult(error=f"{type(exc).__name__}: {exc}".strip())


class RayExecutor(Executor):
    """Runs measurement jobs as Ray tasks (module docstring)."""

    def __init__(self, address: str | None = None, timeout: float = 60.0):
        try:
            import ray
        except ImportError:
            raise ImportError("measuring on Ray needs ray (pip install 'mlc-tune[ray]')") \
                from None
        self._ray = ray
        self.timeout = timeout
        self._owns = not ray.is_initialized()
        if self._owns:
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     logging_level="ERROR")
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        cpus = [n["Resources"].get("CPU", 1) for n in nodes]
        self.slots = max(1, len(nodes))
        self._task = ray.remote(num_cpus=min(cpus) if cpus else 1, max_retries=0)(_measure)

    def map(self, jobs: Iterable[MeasureJob]) -> Iterator[tuple[int, MeasureResult]]:
        """Run `jobs` as Ray tasks, yielding (position, result) as each finishes."""
        ray = self._ray
        refs = {self._task.remote(job): n for n, job in enumerate(jobs)}
        while refs:
            ready, _ = ray.wait(list(refs), num_returns=1, timeout=self.timeout)
            if not ready:
                # Nothing finished for `timeout` seconds: the oldest tasks, as many as
                # the cluster runs at once, are the ones stuck.
                for ref in list(refs)[:self.slots]:
                    ray.cancel(ref, force=True)
                    yield refs.pop(ref), MeasureResult(
                        error=f"timed out after {self.timeout:g} s")
                continue
            [ref] = ready
            index = refs.pop(ref)
            try:
                result = ray.get(ref)
            except Exception as exc:  # the task's worker died (a crash in native code)
                result = MeasureResult(error=f"the Ray task failed: {type(exc).__name__}")
            yield index, result

    def close(self) -> None:
        if self._owns and self._ray.is_initialized():
            self._ray.shutdown()
