"""How long a cold `mlc.llvm.build` takes, stage by stage and pass by pass, beside the
2 s target of issue 21 ("ResNet-18 from ONNX to a callable within 2 s").

    .venv/bin/python benchmarks/compile_time.py                      # ResNet-18, 3 builds
    .venv/bin/python benchmarks/compile_time.py --runs 5 --network transformer_encoder
    .venv/bin/python benchmarks/compile_time.py --jobs 1             # in one process

The network is written to `benchmarks/.work/NAME.onnx` (native_networks.write_model:
onnx.helper, seeded weights), imported once per build with `import_onnx`, and built
for the host CPU, one thread, the default schedules, with every cache off
(`MLC_CACHE=0`, and the in-process compile cache cleared), so each build runs every
stage: what a user's first build costs. The first build of a process also imports
the passes (`mlc.llvm.build` does that outside its timed stages); it is run once
before the timed builds for that reason.

For each stage (`model.timings.stages`) and each pass of the pipelines (timed by a
pass instrument), the minimum over the runs is printed, in wall time and in this
process's CPU time; the machine is shared, so the 1-minute load average is printed
too and CPU time is the steadier figure when it is high. A build compiles on every
core this process may use (mlc.llvm.compile_parts; `--jobs N` sets MLC_COMPILE_JOBS):
the CPU time then adds the worker processes' (their stages are listed per part), and
the pass table times the passes run in this process only.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import time
from collections import defaultdict

os.environ["MLC_CACHE"] = "0"

from native_networks import NETWORKS, load, write_model  # noqa: E402

TARGET_SECONDS = 2.0


class _Clock:
    """Wall and CPU time since it was made (`children`: with the CPU time of the child
    processes that ended meanwhile)."""

    def __init__(self, children: bool = False):
        self.children = children
        self.wall, self.cpu = time.perf_counter(), self._cpu()

    def _cpu(self) -> float:
        if not self.children:
            return time.process_time()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + usage.ru_utime + usage.ru_stime

    def elapsed(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, self._cpu() - self.cpu


def _pass_timer():
    """A pass instrument adding up each pass's wall and CPU seconds, by pass name."""
    from mlc.ir.passes.instruments import PassInstrument

    class PassTimes(PassInstrument):
        def __init__(self):
            self.seconds: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
            self._clock = None

        def run_before_pass(self, pass_, op) -> None:
            self._clock = _Clock()

        def run_after_pass(self, pass_, op) -> None:
            wall, cpu = self._clock.elapsed()
            totals = self.seconds[pass_.name]
            totals[0] += wall
            totals[1] += cpu

    return PassTimes()


def cold_build(path) -> dict:
    """One build of the ONNX file at `path` with nothing cached: its stages' wall
    seconds, each pass's (wall, CPU) seconds, and the whole build's (wall, CPU)."""
    from mlc.ir.passes.context import PassContext
    from mlc.llvm.build import build
    from mlc.llvm.jit import clear_compile_cache
    from mlc.onnx import import_onnx

    clear_compile_cache()
    clock = _Clock()
    module = import_onnx(str(path))
    imported = clock.elapsed()
    timer = _pass_timer()
    with PassContext.current().with_instruments(timer):
        clock = _Clock(children=True)
        model = build(module, num_threads=1)
        total = clock.elapsed()
    stages = dict(model.timings.stages)
    for i, part in enumerate(model.timings.parts, 1):
        stages.update({f"  part {i}: {name}": seconds for name, seconds in part})
    # What the build left for Python's cyclic collector to free (each erased op used to
    # be a cycle: see mlc.ir.core.ir.Operation.destroy) and what freeing it costs.
    del model, module
    clock = _Clock()
    garbage = gc.collect()
    return {"stages": stages, "passes": dict(timer.seconds), "total": total, "load": load(),
            "garbage": (garbage, clock.elapsed()[1]), "import": imported}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--network", default="resnet18", choices=NETWORKS)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None,
                        help="processes compiling a build (MLC_COMPILE_JOBS; default: "
                             "the cores this process may use)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.jobs is not None:
        if args.jobs < 1:
            parser.error("--jobs must be at least 1")
        os.environ["MLC_COMPILE_JOBS"] = str(args.jobs)
    from mlc.llvm.compile_parts import compile_jobs

    path = write_model(args.network)
    print(f"{args.network}: cold build (MLC_CACHE=0), one thread, default schedules, "
          f"compiled by up to {compile_jobs()} processes; load {load():.2f}")
    cold_build(path)  # imports the passes, fills Python's own caches
    runs = []
    for i in range(args.runs):
        runs.append(cold_build(path))
        wall, cpu = runs[-1]["total"]
        garbage, collect = runs[-1]["garbage"]
        print(f"  build {i + 1}: {wall * 1000:7.0f} ms wall, {cpu * 1000:7.0f} ms CPU (all processes) "
              f"(load {runs[-1]['load']:.2f}); then {garbage} objects left to the cyclic "
              f"collector ({collect * 1000:.0f} ms CPU to collect)")
    print(f"\nstages, min of {args.runs} (wall ms)")
    for stage in runs[0]["stages"]:
        best = min(run["stages"].get(stage, float("inf")) for run in runs)
        print(f"  {stage:<40} {best * 1000:8.1f}")
    print(f"\npasses, min of {args.runs} (wall ms / CPU ms)")
    for name in runs[0]["passes"]:
        wall = min(run["passes"][name][0] for run in runs)
        cpu = min(run["passes"][name][1] for run in runs)
        print(f"  {name:<40} {wall * 1000:8.1f} {cpu * 1000:8.1f}")
    wall = min(run["total"][0] for run in runs)
    cpu = min(run["total"][1] for run in runs)
    imported = min(run["import"][0] for run in runs)
    whole = min(run["total"][0] + run["import"][0] for run in runs)
    verdict = "within" if whole <= TARGET_SECONDS else "over"
    print(f"\nbuild, min of {args.runs}: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU; "
          f"import_onnx {imported * 1000:.0f} ms; ONNX file to a callable "
          f"{whole * 1000:.0f} ms: {verdict} the {TARGET_SECONDS * 1000:.0f} ms target "
          f"(load {load():.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
