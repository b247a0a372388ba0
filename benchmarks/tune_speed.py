"""Issue 24's speed targets, side by side in one run: tuned kernels and networks
against the course's hand schedule, OpenBLAS and onnxruntime, single thread.

    .venv/bin/python benchmarks/tune_speed.py                          # everything
    .venv/bin/python benchmarks/tune_speed.py --only mm_relu matmul512 --trials 200
    .venv/bin/python benchmarks/tune_speed.py --only resnet18 --trials 2000
    .venv/bin/python benchmarks/tune_speed.py --trials 0 --write-readme  # measure what is tuned

- **mm_relu**: the MLC course's mm_relu (128 x 128 f32, `examples/course/
  tensor_program_abstraction.py`) tuned in the default space, beside the course's own
  hand schedule (split j by 4, k inside, C under the outer j), and the default rules.
- **matmul512**: `C = A @ B`, 512 f32, tuned, beside numpy with one OpenBLAS thread
  (`OPENBLAS_NUM_THREADS=1`, and threadpoolctl's limit when it is installed).
- **networks** (the MLP, ResNet-18, MobileNetV2's first blocks, the transformer
  encoder layer; `native_networks.py` writes their ONNX files): `tune_model` with
  `--trials` in all, then `mlc.llvm.build(..., tuning_db=...)` on one thread beside
  the default build and onnxruntime (`intra_op_num_threads=1`, its own venv:
  `ort_venv.py`).

Each target tunes into `benchmarks/.work/tune-speed/<name>` (`--work-dir`): a rerun
resumes there, the trials recorded before counting against `--trials`, so long
network searches can run in the background (`mlc-tune MODEL --trials N --work-dir
...` writes the same records) and this script then measures what they found. The
variants of a row are timed in `--rounds` interleaved rounds of `--runs` calls each
(median of the rounds' medians; onnxruntime in a process of its own each round); every
tuned result is checked against the default build's or numpy's first. The CPU, its
clock and the 1-minute load are printed with every row: the machines are shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# OpenBLAS's own kernel for this CPU unless --openblas-coretype says otherwise: a
# machine may force one in its environment (this one sets OPENBLAS_CORETYPE=Haswell,
# AVX2 kernels on an AVX-512 CPU: 2.5 ms for the matmul 512 instead of 1.3).
INHERITED_CORETYPE = os.environ.pop("OPENBLAS_CORETYPE", None)
if "--openblas-coretype" in sys.argv[:-1]:
    os.environ["OPENBLAS_CORETYPE"] = sys.argv[sys.argv.index("--openblas-coretype") + 1]

import numpy as np  # noqa: E402
from native_networks import WORK_DIR, _onnxruntime, random_inputs, write_model  # noqa: E402

BENCH_DIR = Path(__file__).resolve().parent
README = BENCH_DIR / "README.md"
BEGIN_MARKER = "<!-- tune-speed:begin -->"
END_MARKER = "<!-- tune-speed:end -->"
KERNELS = ("mm_relu", "matmul512")
NETWORKS = ("mlp", "resnet18", "mobilenet_v2_blocks", "transformer_encoder")
TITLES = {"mm_relu": "mm_relu 128 (the course's)", "matmul512": "matmul 512 f32",
          "mlp": "MLP 784-128-10", "resnet18": "ResNet-18 224",
          "mobilenet_v2_blocks": "MobileNetV2, first ten blocks",
          "transformer_encoder": "transformer encoder layer"}


def load() -> float:
    """The 1-minute load average."""
    return os.getloadavg()[0]


def cpu_clock() -> str:
    """The CPUs' current clocks in MHz, as the kernel reports them ('?' when it does not)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as stream:
            clocks = [float(line.split(":")[1]) for line in stream if line.startswith("cpu MHz")]
    except OSError:
        clocks = []
    return "/".join(f"{c:.0f}" for c in clocks) + " MHz" if clocks else "?"


def openblas_core() -> str:
    """The kernel OpenBLAS chose (its core name), by threadpoolctl when installed."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return os.environ.get("OPENBLAS_CORETYPE", "OpenBLAS's choice (threadpoolctl "
                                                   "not installed to name it)")
    return ", ".join(str(i.get("architecture")) for i in threadpool_info()
                     if i.get("internal_api") == "openblas") or "?"


def single_thread_blas() -> object:
    """threadpoolctl's one-thread limit on BLAS when installed (the environment variable
    set above does it otherwise); None when it is not."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    return threadpool_limits(limits=1, user_api="blas")


Timer = Callable[[int], float]
"""Given a number of calls, their median time in seconds."""


def calls_timer(call: Callable[[], object]) -> Timer:
    """A timer of `call` in this process (one warm-up call first)."""
    def timer(runs: int) -> float:
        call()
        times = []
        for _ in range(runs):
            began = time.perf_counter()
            call()
            times.append(time.perf_counter() - began)
        return statistics.median(times)

    return timer


def side_by_side(timers: dict[str, Timer], runs: int, rounds: int) -> dict[str, float]:
    """Each timer's time, seconds: the median over `rounds` interleaved rounds of the
    median of `runs` calls (on a shared machine the load moves between rounds; each
    variant sees the same)."""
    medians: dict[str, list[float]] = {name: [] for name in timers}
    for _ in range(rounds):
        for name, timer in timers.items():
            medians[name].append(timer(runs))
    return {name: statistics.median(values) for name, values in medians.items()}


def _course_mm_relu():
    sys.path.insert(0, str(BENCH_DIR.parent / "examples" / "course"))
    from tensor_program_abstraction import mm_relu_module, transformed

    return mm_relu_module, transformed


def _matmul512():
    from mlc.ir.dialects.builtin import ModuleOp
    from mlc.loop import te

    A = te.placeholder((512, 512), "float32", name="A")
    B = te.placeholder((512, 512), "float32", name="B")
    k = te.reduce_axis(512, name="k")
    C = te.compute((512, 512), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
    module = ModuleOp.build()
    module.body.append(te.create_prim_func([A, B, C], name="matmul"))
    return module


def _tune_kernel(module, name: str, args) -> object:
    from mlc.tune import tune_kernel

    return tune_kernel(module, trials=args.trials, work_dir=args.work_dir / name,
                       repeat=args.repeat, seed=args.seed, progress=args.progress)


def kernel_row(name: str, args) -> dict:
    """Tune kernel `name`, then time it beside its references."""
    from mlc.llvm.build import compile_module
    from mlc.loop.rules import default_schedule
    from mlc.loop.rules.target import ScheduleTarget

    rng = np.random.default_rng(0)
    if name == "mm_relu":
        make, hand = _course_mm_relu()
        fn_name, n = "mm_relu", 128
    else:
        make, hand, fn_name, n = _matmul512, None, "matmul", 512
    result = _tune_kernel(make(), name, args)
    a, b = (rng.standard_normal((n, n), dtype=np.float32) for _ in range(2))
    want = np.maximum(a @ b, 0) if name == "mm_relu" else a @ b
    default = make()
    default_schedule(default, ScheduleTarget.host())
    modules = {"tuned": result.mod, "default rules": default}
    if hand is not None:
        modules["course's schedule"] = hand(make()).mod
    calls = {}
    for label, module in modules.items():
        function = compile_module(module, num_threads=1)[fn_name]
        out = np.zeros((n, n), np.float32)
        function(a, b, out)
        np.testing.assert_allclose(out, want, rtol=1e-3, atol=1e-3 * n ** 0.5)
        calls[label] = calls_timer((lambda f, o: lambda: f(a, b, o))(function, out))
    if name == "matmul512":
        limit = single_thread_blas()
        calls["numpy (OpenBLAS, 1 thread)"] = calls_timer(lambda: np.matmul(a, b))
    times = side_by_side(calls, args.runs, args.rounds)
    if name == "matmul512" and limit is not None:
        limit.unregister()
    reference = "course's schedule" if name == "mm_relu" else "numpy (OpenBLAS, 1 thread)"
    return {"name": name, "times": times, "trials": result.trials, "reference": reference,
            "target": 1.0 if name == "mm_relu" else 0.95, "load": load(),
            "clock": cpu_clock(), "flops": 2 * n ** 3}


def network_row(name: str, args) -> dict:
    """Tune network `name`, then time the tuned build beside the default build and
    onnxruntime."""
    from mlc.llvm.build import build
    from mlc.onnx import import_onnx
    from mlc.tune import tune_model

    path = WORK_DIR / f"{name}.onnx"
    if not path.exists():
        path = write_model(name)
    work_dir = args.work_dir / name
    result = tune_model(str(path), trials=args.trials, work_dir=work_dir, repeat=args.repeat,
                        seed=args.seed, progress=args.progress)
    trials = sum(t.trials for t in result.tasks)
    module = import_onnx(str(path))
    inputs = random_inputs(module)
    tuned = build(import_onnx(str(path)), num_threads=1, tuning_db=work_dir)
    default = build(import_onnx(str(path)), num_threads=1)
    got, want = tuned(*inputs), default(*inputs)
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-3 * max(1.0, float(np.abs(w).max())))
    timers = {"tuned": calls_timer(lambda: tuned(*inputs)),
              "default rules": calls_timer(lambda: default(*inputs))}
    ort = _onnxruntime(path, 1)
    if isinstance(ort, dict):
        # Its own process each round (a session made, one warm-up run, `runs` timed).
        timers["onnxruntime (1 thread)"] = lambda runs: _onnxruntime(path, runs)["median"]
    else:
        print(f"{name}: {ort}", file=sys.stderr)
    times = side_by_side(timers, args.runs, args.rounds)
    return {"name": name, "times": times, "trials": trials, "tasks": len(result.tasks),
            "reference": "onnxruntime (1 thread)", "target": 1.0, "load": load(),
            "clock": cpu_clock()}


def verdict(row: dict) -> str:
    """'met'/'missed' with the tuned time's ratio to the reference's ('reference'
    time / tuned time: above 1, tuned is faster)."""
    reference = row["times"].get(row["reference"])
    if reference is None:
        return "no reference"
    ratio = reference / row["times"]["tuned"]
    return f"{ratio:.2f}x, {'met' if ratio >= row['target'] else 'missed'}"


def markdown(rows: list[dict], args) -> str:
    from mlc.llvm.target import Target

    lines = [f"Measured {time.strftime('%Y-%m-%d %H:%M')} UTC on {Target().describe()}, "
             f"OpenBLAS kernel {openblas_core()}, one thread; median of {args.rounds} interleaved rounds of the median of "
             f"{args.runs} calls; ms. \"vs reference\" is the reference's time over the "
             f"tuned one (the targets: above 1.00 for mm_relu against the course's schedule "
             f"and for the networks against onnxruntime, 0.95 for matmul 512 against "
             f"OpenBLAS).", "",
             "| target | trials | tuned | default rules | reference | vs reference | load | clock |",
             "|:---|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        times = row["times"]
        reference = times.get(row["reference"])
        lines.append(
            f"| {TITLES[row['name']]} | {row['trials']} | {times['tuned'] * 1e3:.3f} | "
            f"{times['default rules'] * 1e3:.3f} | "
            f"{'-' if reference is None else f'{reference * 1e3:.3f}'} ({row['reference']}) | "
            f"{verdict(row)} | {row['load']:.1f} | {row['clock']} |")
    return "\n".join(lines)


def write_readme(text: str) -> None:
    readme = README.read_text()
    begin, end = readme.index(BEGIN_MARKER) + len(BEGIN_MARKER), readme.index(END_MARKER)
    README.write_text(readme[:begin] + "\n" + text + "\n" + readme[end:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=KERNELS + NETWORKS,
                        default=list(KERNELS + NETWORKS))
    parser.add_argument("--trials", type=int, default=2000,
                        help="trials per kernel or network in all, earlier runs' included "
                             "(default 2000, the issue's bound per model)")
    parser.add_argument("--work-dir", type=Path, default=WORK_DIR / "tune-speed",
                        help="where each target's tuning database lives (a rerun resumes)")
    parser.add_argument("--repeat", type=int, default=3, help="the tuner's repeats per candidate")
    parser.add_argument("--runs", type=int, default=20, help="calls timed per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--progress", action="store_true", help="the tuner's progress bars")
    parser.add_argument("--openblas-coretype", metavar="NAME",
                        help="force OpenBLAS's kernel (its OPENBLAS_CORETYPE: Haswell, "
                             "SkylakeX, ...); default: OpenBLAS's choice for this CPU, "
                             "whatever the environment says")
    parser.add_argument("--write-readme", action="store_true",
                        help="write the table into benchmarks/README.md")
    args = parser.parse_args(argv)
    if args.trials < 0 or min(args.repeat, args.runs, args.rounds) < 1:
        parser.error("--trials takes a whole number >= 0; --repeat, --runs and --rounds >= 1")
    from mlc.llvm.target import Target

    print(f"{Target().describe()}; load {load():.2f}, clock {cpu_clock()}; OpenBLAS kernel: "
          f"{openblas_core()} (OPENBLAS_CORETYPE from the environment: "
          f"{INHERITED_CORETYPE or 'none'}, dropped)", flush=True)
    rows = []
    for name in args.only:
        row = kernel_row(name, args) if name in KERNELS else network_row(name, args)
        rows.append(row)
        print(f"{TITLES[name]} ({row['trials']} trials): " + ", ".join(
            f"{label} {seconds * 1e3:.4f} ms" for label, seconds in row["times"].items())
            + f"; {verdict(row)}; load {row['load']:.2f}, clock {row['clock']}", flush=True)
    text = markdown(rows, args)
    print("\n" + text)
    if args.write_readme:
        write_readme(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
