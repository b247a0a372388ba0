"""The example networks as native code with the default schedules, single thread:
mlc's latency beside onnxruntime's on the same ONNX models, in one run, with mlc's
compile time (cold, and a second build from the build cache).

    .venv/bin/python benchmarks/native_networks.py                       # everything
    .venv/bin/python benchmarks/native_networks.py --networks resnet18 --runs 20
    .venv/bin/python benchmarks/native_networks.py --no-onnxruntime      # mlc only
    .venv/bin/python benchmarks/native_networks.py --no-schedule         # the plain nests

Each network is built with onnx.helper (`mlc.onnx.examples`, seeded weights; the
matmuls are one MatMul node with both operands inputs) and written to
`benchmarks/.work/<name>.onnx`; mlc imports it (`import_onnx`) and compiles it with
`mlc.llvm.build` for the host CPU and one thread, as a user does (graph-optimize with
the layouts the rules want, the default schedules, lowering, LLVM -O3), into an empty
cache folder so the first build is cold; a second build then comes from the build
cache. The outputs are checked against the graph interpreter, and `--runs` calls are
timed. onnxruntime (`intra_op_num_threads=1`, every graph optimisation on) runs the
same file in its own venv, `benchmarks/.work/ort-venv`, created on the first run — it
is never a dependency of mlc. For the matmuls, numpy (one OpenBLAS thread) is timed
too. The 1-minute load average is printed beside every row: the machines are shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from ort_venv import ort_python, run_json  # noqa: E402

BENCH_DIR = Path(__file__).resolve().parent
WORK_DIR = BENCH_DIR / ".work"
NETWORKS = ("mlp", "matmul128", "matmul512", "resnet18", "mobilenet_v2_blocks",
            "transformer_encoder")
MATMULS = {"matmul128": 128, "matmul512": 512}

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


def load() -> float:
    """The 1-minute load average."""
    return os.getloadavg()[0]


def matmul_model(n: int):
    """`Y = A @ B` as an ONNX model, both operands inputs."""
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("MatMul", ["A", "B"], ["Y"])], f"matmul{n}",
        [helper.make_tensor_value_info(name, TensorProto.FLOAT, [n, n]) for name in "AB"],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [n, n])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    return model


def write_model(name: str) -> Path:
    """benchmarks/.work/NAME.onnx, written afresh."""
    import onnx

    from mlc.onnx import examples

    WORK_DIR.mkdir(exist_ok=True)
    path = WORK_DIR / f"{name}.onnx"
    model = matmul_model(MATMULS[name]) if name in MATMULS else getattr(examples, name)()
    onnx.save(model, str(path))
    return path


def _timed(call, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return statistics.median(times), min(times)


def _mlc(name: str, path: Path, runs: int, num_threads: int = 1,
         schedule: str | None = "default") -> dict:
    """mlc's compile times (cold and from the build cache) and latency on `path`, built
    for `num_threads` threads."""
    from mlc.graph.interpreter import evaluate
    from mlc.llvm.build import build
    from mlc.llvm.jit import clear_compile_cache
    from mlc.onnx import import_onnx

    began = time.perf_counter()
    module = import_onnx(str(path))
    imported = time.perf_counter() - began
    model = build(module, num_threads=num_threads, schedule=schedule)
    clear_compile_cache()  # the second build reads the disk, as a new process would
    began = time.perf_counter()
    build(import_onnx(str(path)), num_threads=num_threads, schedule=schedule)
    cached = time.perf_counter() - began
    inputs = random_inputs(module)
    got = model(*inputs)
    got = got if isinstance(got, tuple) else (got,)
    want = evaluate(module, inputs)
    error = max(float(np.max(np.abs(g - w)) / max(1.0, float(np.max(np.abs(w)))))
                for g, w in zip(got, want))
    median, best = _timed(lambda: model(*inputs), runs)
    return {"import": imported, "stages": model.timings.stages, "compile": model.timings.total,
            "cached": cached, "median": median, "min": best, "error": error, "load": load()}


def random_inputs(module) -> list[np.ndarray]:
    """Seeded float32 inputs for the imported model's @main."""
    fn = next(op for op in module.regions[0].blocks[0].ops() if op.name == "func.func"
              and op.attributes["sym_name"].value == "main")
    rng = np.random.default_rng(0)
    return [rng.standard_normal(t.shape).astype(np.float32)
            for t in fn.attributes["function_type"].value.inputs]


def _numpy_matmul(n: int, runs: int) -> dict:
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((n, n), dtype=np.float32) for _ in range(2))
    np.matmul(a, b)
    median, best = _timed(lambda: np.matmul(a, b), runs)
    return {"median": median, "min": best}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--networks", nargs="+", default=list(NETWORKS), choices=NETWORKS)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--no-onnxruntime", action="store_true")
    parser.add_argument("--no-schedule", action="store_true",
                        help="build without schedules (the loop nests as lowered)")
    args = parser.parse_args(argv)
    from mlc.llvm.target import Target

    os.environ["MLC_CACHE_DIR"] = tempfile.mkdtemp(prefix="mlc-bench-cache-")
    schedule = None if args.no_schedule else "default"
    rows = []
    for name in args.networks:
        path = write_model(name)
        mlc = _mlc(name, path, args.runs, schedule=schedule)
        ort = "skipped" if args.no_onnxruntime else _onnxruntime(path, args.runs)
        blas = _numpy_matmul(MATMULS[name], args.runs) if name in MATMULS else None
        rows.append((name, mlc, ort, blas))
        print(f"\n{name}: compile {mlc['compile'] * 1000:.0f} ms (import "
              f"{mlc['import'] * 1000:.0f} ms; a second build from the cache "
              f"{mlc['cached'] * 1000:.0f} ms with its import), max relative error vs "
              f"interpreter {mlc['error']:.1e}")
        for stage, seconds in mlc["stages"]:
            print(f"  {stage:<40} {seconds * 1000:9.1f} ms")
    print(f"\nlatency, single thread, median / min of {args.runs} runs, ms "
          f"({Target().describe()}; schedules: {schedule or 'none'})")
    print(f"  {'network':<21} {'mlc':>17} {'onnxruntime':>17} {'numpy':>17} "
          f"{'mlc/ORT':>8}  load")
    for name, mlc, ort, blas in rows:
        theirs = (f"{ort['median'] * 1000:8.3f} / {ort['min'] * 1000:6.3f}"
                  if isinstance(ort, dict) else ort)
        numpy = (f"{blas['median'] * 1000:8.3f} / {blas['min'] * 1000:6.3f}"
                 if blas else "")
        ratio = f"{mlc['min'] / ort['min']:7.2f}x" if isinstance(ort, dict) else ""
        print(f"  {name:<21} {mlc['median'] * 1000:8.3f} / {mlc['min'] * 1000:6.3f} "
              f"{theirs:>17} {numpy:>17} {ratio:>8}  {mlc['load']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
