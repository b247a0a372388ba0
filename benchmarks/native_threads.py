"""Parallel loops on the OpenMP runtime: mlc's native code on one thread and on all the
cores this process may use, beside onnxruntime at its default thread count, in the
same run. The machines here share their cores with other jobs: the load average is
printed beside every figure.

    .venv/bin/python benchmarks/native_threads.py                    # matmul and networks
    .venv/bin/python benchmarks/native_threads.py --matmul-only --repeat 30
    .venv/bin/python benchmarks/native_threads.py --networks mlp --no-onnxruntime
    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/native_threads.py   # shared machines

1. A 512 x 512 f32 matmul scheduled by hand: benchmarks/native_matmul.py's register
   tile with its column panels in parallel (`sch.parallel(j0)`), compiled for 1 thread
   and for each count up to the cores, best of `--repeat` runs; onnxruntime runs the
   same product as a one-node ONNX model (MatMul) with its default threads.
2. The example networks (benchmarks/native_networks.py's ONNX files) built with
   `mlc.llvm.build` as a user builds them, on 1 thread and on all cores, whatever
   schedules build applies (its parallel loops are those of its default schedules),
   median of `--runs`; onnxruntime with its default threads.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import native_matmul  # noqa: E402
import native_networks  # noqa: E402

from mlc.llvm.openmp import available_cores  # noqa: E402


def load() -> str:
    """The 1-minute load average, to print beside a figure."""
    return f"load {native_networks.load():.2f}"


def bench_matmul(n: int, repeat: int, thread_counts: list[int], onnxruntime: bool) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    flops = 2.0 * n ** 3
    print(f"matmul {n}x{n} f32, register tile with parallel column panels "
          f"(best of {repeat})")
    print(f"  {'':<34} {'ms':>8} {'GFLOP/s':>8} {'speed-up':>9}  load")
    serial = None
    for threads in thread_counts:
        kernel = native_matmul.compile_scheduled(
            n, False, lambda sch: native_matmul.tiled_schedule(sch, parallel=True),
            num_threads=threads)
        c = np.empty((n, n), np.float32)
        kernel(a, b, c)
        np.testing.assert_allclose(c, expected, rtol=1e-3, atol=1e-3 * np.sqrt(n))
        seconds = native_matmul.best_time(kernel, (a, b, c), repeat)
        serial = serial or seconds
        label = f"mlc, {threads} thread{'s' if threads > 1 else ''}"
        print(f"  {label:<34} {seconds * 1e3:8.2f} {flops / seconds / 1e9:8.1f} "
              f"{serial / seconds:8.2f}x  {load()}")
    if onnxruntime:
        import onnx

        native_networks.WORK_DIR.mkdir(exist_ok=True)
        path = native_networks.WORK_DIR / f"matmul{n}.onnx"
        onnx.save(native_networks.matmul_model(n), str(path))
        ort = native_networks._onnxruntime(path, repeat, threads=0)
        if isinstance(ort, dict):
            print(f"  {'onnxruntime ' + ort['version'] + ', default threads':<34} "
                  f"{ort['min'] * 1e3:8.2f} {flops / ort['min'] / 1e9:8.1f} "
                  f"{serial / ort['min']:8.2f}x  {load()}")
        else:
            print(f"  onnxruntime: {ort}")


def bench_networks(names: list[str], runs: int, cores: int, onnxruntime: bool) -> None:
    print(f"\nnetworks as mlc.llvm.build compiles them, median / min of {runs} runs, ms; "
          "speed-up and mlc/ort from the minima (what a run costs when no other job takes "
          "its core)")
    print(f"  {'network':<22} {'mlc 1 thread':>16} {f'mlc {cores} threads':>16} "
          f"{'speed-up':>9} {'ort default':>16} {'mlc/ort':>8}  load")
    for name in names:
        path = native_networks.write_model(name)
        one = native_networks._mlc(name, path, runs, num_threads=1)
        every = native_networks._mlc(name, path, runs, num_threads=cores)
        ort = native_networks._onnxruntime(path, runs, threads=0) if onnxruntime else "skipped"
        theirs = _median_min(ort) if isinstance(ort, dict) else f"{'-':>16}"
        ratio = (f"{every['min'] / ort['min']:7.2f}x" if isinstance(ort, dict)
                 else f"{'-':>8}")
        print(f"  {name:<22} {_median_min(one)} {_median_min(every)} "
              f"{one['min'] / every['min']:8.2f}x {theirs} {ratio}  {load()}")
        if not isinstance(ort, dict) and ort != "skipped":
            print(f"    onnxruntime: {ort}")


def _median_min(times: dict) -> str:
    return f"{times['median'] * 1e3:7.3f} /{times['min'] * 1e3:8.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--networks", nargs="+", default=list(native_networks.NETWORKS),
                        choices=native_networks.NETWORKS)
    parser.add_argument("--matmul-only", action="store_true")
    parser.add_argument("--no-onnxruntime", action="store_true")
    args = parser.parse_args(argv)
    cores = available_cores()
    policy = os.environ.get("OMP_WAIT_POLICY", "unset: threads spin a while, then sleep")
    print(f"{cores} cores in this process's affinity mask, {os.cpu_count()} on the machine; "
          f"{load()} at the start; OMP_WAIT_POLICY {policy}\n")
    bench_matmul(args.size, args.repeat, sorted({1, 2, cores}), not args.no_onnxruntime)
    if not args.matmul_only:
        bench_networks(args.networks, args.runs, cores, not args.no_onnxruntime)
    return 0


if __name__ == "__main__":
    sys.exit(main())
