"""Where the time of each example network goes, kernel by kernel, with the default
schedules on one thread: each kernel's time, GFLOP/s and % of the CPU's peak.

    .venv/bin/python benchmarks/kernel_profile.py                        # resnet18, transformer
    .venv/bin/python benchmarks/kernel_profile.py --networks mobilenet_v2_blocks --runs 50
    .venv/bin/python benchmarks/kernel_profile.py --markdown             # for benchmarks/README.md

The network (benchmarks/native_networks.py's ONNX files) is built with `mlc.llvm.build`
and profiled `--runs` times one run at a time (`CompiledModel.profile(runs=1)`); each
kernel's row is its fastest run (`Profile.best_of`): the machines are shared, and the
minimum is what the kernel costs when nothing else takes its core. The sum of those
minima is printed beside the fastest whole run, with the load. FLOPs come from each
kernel's loop IR, the peak from a register-resident FMA loop measured once per machine
(mlc.llvm.peak).
"""

from __future__ import annotations

import argparse
import sys

import native_networks

from mlc.llvm.build import build
from mlc.llvm.profile import Profile
from mlc.onnx import import_onnx


def profile_network(name: str, runs: int, num_threads: int = 1) -> tuple[Profile, float]:
    """The best-of profile of `name` and its fastest whole run in seconds."""
    module = import_onnx(str(native_networks.write_model(name)))
    model = build(module, num_threads=num_threads)
    inputs = native_networks.random_inputs(module)
    model(*inputs)
    _, whole = native_networks._timed(lambda: model(*inputs), runs)
    profiles = [model.profile(*inputs, runs=1, warmup=0) for _ in range(runs)]
    return Profile.best_of(profiles), whole


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="+", default=["resnet18", "transformer_encoder"],
                        choices=native_networks.NETWORKS)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.threads < 1:
        parser.error("--runs and --threads take a whole number of at least 1")
    for name in args.networks:
        profile, whole = profile_network(name, args.runs, args.threads)
        print(f"\n{name}: sum of the kernels' fastest runs {profile.seconds_per_run * 1e3:.2f} ms; "
              f"fastest whole run {whole * 1e3:.2f} ms; {args.threads} thread(s); "
              f"load {native_networks.load():.2f}; {profile.target}")
        print(profile.markdown() if args.markdown else profile.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
