"""The example networks as native code, single thread: mlc's compile time per stage
and latency beside onnxruntime's on the same ONNX models.

    .venv/bin/python benchmarks/native_networks.py                       # all four
    .venv/bin/python benchmarks/native_networks.py --networks resnet18 --runs 20
    .venv/bin/python benchmarks/native_networks.py --no-onnxruntime      # mlc only

Each network is built with onnx.helper (`mlc.onnx.examples`, seeded weights) and
written to `benchmarks/.work/<name>.onnx`; mlc imports it (`import_onnx`), compiles it
with `mlc.llvm.build` (graph-optimize, lowering to loops and the standard dialects,
the AOT entry, convert-to-llvm, translation, LLVM -O3 and code generation for the host
CPU), checks the outputs against the graph interpreter, and times `--runs` calls.
onnxruntime (`intra_op_num_threads=1`, every graph optimisation on) runs the same file
in its own venv (`ort_venv.py`: `benchmarks/.work/ort-venv`, created on the first run) — never a
dependency of mlc. mlc's kernels are compiled without schedules here (the loop nests
graph-lower-to-loop writes), which is what this measures: the path, not tuned code.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from ort_venv import ort_python, run_json  # noqa: E402

BENCH_DIR = Path(__file__).resolve().parent
WORK_DIR = BENCH_DIR / ".work"
NETWORKS = ("mlp", "resnet18", "mobilenet_v2_blocks", "transformer_encoder")

_ORT_SCRIPT = """
import json, sys, time, statistics
import numpy as np, onnxruntime as ort
path, runs, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
options = ort.SessionOptions()
if threads:  # 0: onnxruntime's default, a thread per core
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
began = time.perf_counter()
session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
setup = time.perf_counter() - began
feeds = {}
rng = np.random.default_rng(0)
for i in session.get_inputs():
    feeds[i.name] = rng.standard_normal(i.shape).astype(np.float32)
session.run(None, feeds)
times = []
for _ in range(runs):
    began = time.perf_counter()
    session.run(None, feeds)
    times.append(time.perf_counter() - began)
print(json.dumps({"setup": setup, "median": statistics.median(times), "min": min(times),
                  "version": ort.__version__}))
"""


def _onnxruntime(path: Path, runs: int, threads: int = 1) -> dict | str:
    """onnxruntime's latency on `path` with `threads` intra-op threads (0: its default)."""
    python = ort_python()
    if isinstance(python, str):
        return python
    return run_json(python, _ORT_SCRIPT, str(path), str(runs), str(threads), threads=threads)


def _mlc(name: str, path: Path, runs: int, num_threads: int = 1) -> dict:
    """mlc's compile times and latency on `path`, built for `num_threads` threads."""
    from mlc.graph.interpreter import evaluate
    from mlc.llvm.build import build
    from mlc.onnx import import_onnx

    began = time.perf_counter()
    module = import_onnx(str(path))
    imported = time.perf_counter() - began
    model = build(module, num_threads=num_threads)
    fn = next(op for op in module.regions[0].blocks[0].ops() if op.name == "func.func"
              and op.attributes["sym_name"].value == "main")
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(t.shape).astype(np.float32)
              for t in fn.attributes["function_type"].value.inputs]
    got = model(*inputs)
    got = got if isinstance(got, tuple) else (got,)
    want = evaluate(module, inputs)
    error = max(float(np.max(np.abs(g - w)) / max(1.0, float(np.max(np.abs(w)))))
                for g, w in zip(got, want))
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        model(*inputs)
        times.append(time.perf_counter() - t0)
    return {"import": imported, "stages": model.timings.stages, "compile": model.timings.total,
            "median": statistics.median(times), "min": min(times), "error": error}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--networks", nargs="+", default=list(NETWORKS), choices=NETWORKS)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--no-onnxruntime", action="store_true")
    args = parser.parse_args(argv)
    from mlc.onnx import examples

    WORK_DIR.mkdir(exist_ok=True)
    rows = []
    for name in args.networks:
        path = WORK_DIR / f"{name}.onnx"
        import onnx

        onnx.save(getattr(examples, name)(), str(path))
        mlc = _mlc(name, path, args.runs)
        ort = "skipped" if args.no_onnxruntime else _onnxruntime(path, args.runs)
        rows.append((name, mlc, ort))
        print(f"\n{name}: compile {mlc['compile'] * 1000:.0f} ms (import "
              f"{mlc['import'] * 1000:.0f} ms), max relative error vs interpreter "
              f"{mlc['error']:.1e}")
        for stage, seconds in mlc["stages"]:
            print(f"  {stage:<36} {seconds * 1000:9.1f} ms")
    print(f"\nlatency, single thread (median / min of {args.runs} runs), ms")
    print(f"  {'network':<22} {'mlc':>18} {'onnxruntime':>18}")
    for name, mlc, ort in rows:
        theirs = (f"{ort['median'] * 1000:8.2f} / {ort['min'] * 1000:7.2f}"
                  if isinstance(ort, dict) else ort)
        print(f"  {name:<22} {mlc['median'] * 1000:8.2f} / {mlc['min'] * 1000:7.2f} {theirs:>18}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
