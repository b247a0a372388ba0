"""Is a kernel timed alone what it costs inside its network? Each distinct kernel of a
network (the default rules' schedule) is timed alone as mlc.tune times a candidate
(`MeasureJob`: compiled by itself, seeded inputs), with warm caches and with its arrays
flushed before each call (`--flush-cache`'s measure), beside its time per call inside
the built network (`CompiledModel.profile`, best of `--runs`). Issue 24's suspect: a
candidate timed warm looks faster than it runs in the network, whose weights stream
from memory; the ratio columns say by how much, kernel by kernel.

    .venv/bin/python benchmarks/kernel_alone.py                      # resnet18
    .venv/bin/python benchmarks/kernel_alone.py --network transformer_encoder --runs 20

Each figure is the minimum of `--runs` measurements, taken round-robin (alone warm,
alone cold, the network) so that a busy moment of the shared machine hits all three.
"""

from __future__ import annotations

import argparse
import os
import sys

import native_networks

from mlc.ir import print_op
from mlc.llvm.build import build
from mlc.llvm.profile import Profile
from mlc.llvm.target import Target
from mlc.onnx import import_onnx
from mlc.tune.measure import MeasureJob
from mlc.tune.space import default_trace
from mlc.tune.tuner import model_kernels
from mlc.tune.workload import model_workloads


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--network", default="resnet18", choices=native_networks.NETWORKS)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--top", type=int, default=12, help="the heaviest kernels shown")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    target = Target()
    module = import_onnx(str(native_networks.write_model(args.network)))
    model = build(module, num_threads=1)
    inputs = native_networks.random_inputs(module)
    model(*inputs)
    workloads = model_workloads(model_kernels(module, target))
    jobs = {}
    for workload in workloads:
        trace = default_trace(workload.module, target.schedule_target).as_json()
        for cold in (False, True):
            jobs[workload.name, cold] = MeasureJob(
                print_op(workload.module), workload.name, trace,
                (target.cpu, target.features, target.opt_level), repeat=3, flush_cache=cold)
    alone: dict = {key: float("inf") for key in jobs}
    profiles = []
    for _ in range(args.runs):
        for key, job in jobs.items():
            result = job.run()
            if result.error is None:
                alone[key] = min(alone[key], min(result.times))
        profiles.append(model.profile(*inputs, runs=1, warmup=0))
    network = {row.name: row.per_call for row in Profile.best_of(profiles).kernels}
    rows = []
    for workload in workloads:
        inside = min((network[name] for name in workload.names if name in network),
                     default=None)
        if inside:
            rows.append((inside * workload.calls, workload, inside))
    rows.sort(key=lambda row: -row[0])
    print(f"{args.network}: {target.describe()}; min of {args.runs} round-robin runs; "
          f"load {os.getloadavg()[0]:.2f}")
    print(f"{'kernel':<34} {'calls':>5} {'network ms':>10} {'alone warm':>10} "
          f"{'alone cold':>10} {'net/warm':>8} {'net/cold':>8}")
    for _, workload, inside in rows[:args.top]:
        warm, cold = alone[workload.name, False], alone[workload.name, True]
        print(f"{workload.name[:34]:<34} {workload.calls:>5} {inside * 1e3:>10.3f} "
              f"{warm * 1e3:>10.3f} {cold * 1e3:>10.3f} {inside / warm:>8.2f} "
              f"{inside / cold:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
