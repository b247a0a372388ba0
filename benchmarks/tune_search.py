"""What the cost model is worth: the best latency found against trials, random search
beside evolutionary search guided by the learned model, on the same kernel, space and
machine, each in a fresh work directory.

    .venv/bin/python benchmarks/tune_search.py                       # mm_relu 256, 64 trials
    .venv/bin/python benchmarks/tune_search.py --kernel matmul --size 512 --trials 128 \\
        --plot curve.png

The kernel is the MLC course's mm_relu (or a plain matmul) of `--size`, searched in the
default rules' space (mlc.loop.rules.decisions); each strategy's best time after each
trial is printed every `--batch` trials, with the default schedule's time and the
load, and `--plot` draws both curves. The two searches run one after the other on a
machine others may share, so the default schedule and both bests are then measured
again side by side, in `--rounds` interleaved rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile

from mlc.ir.dialects.builtin import ModuleOp
from mlc.loop import te
from mlc.tune import tune_kernel


def kernel(name: str, size: int) -> ModuleOp:
    """mm_relu (Y = A @ B, C = relu(Y)) or matmul (C = A @ B), square f32 of `size`."""
    A = te.placeholder((size, size), "float32", name="A")
    B = te.placeholder((size, size), "float32", name="B")
    k = te.reduce_axis(size, name="k")
    Y = te.compute((size, size), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k),
                   name="Y" if name == "mm_relu" else "C")
    tensors = [A, B, Y]
    if name == "mm_relu":
        tensors.append(te.compute((size, size), lambda i, j: te.maximum(Y[i, j], 0.0),
                                  name="C"))
        tensors.pop(2)
    module = ModuleOp.build()
    module.body.append(te.create_prim_func(tensors, name=name))
    return module


def search(module: ModuleOp, strategy: str, trials: int, batch: int, repeat: int, seed: int):
    with tempfile.TemporaryDirectory() as work_dir:
        return tune_kernel(module, trials=trials, work_dir=work_dir, strategy=strategy,
                           batch=batch, repeat=repeat, seed=seed)


def remeasure(module: ModuleOp, traces: dict[str, list], rounds: int) -> dict[str, float]:
    """The median over `rounds` interleaved rounds of each trace's time: the searches'
    own figures were taken minutes apart, on a machine others share."""
    from mlc.ir import print_op
    from mlc.llvm.target import Target
    from mlc.tune.measure import LocalExecutor, MeasureJob

    target = Target()
    name = next(op for op in module.walk() if op.name == "func.func").attributes[
        "sym_name"].value
    jobs = [(label, MeasureJob(print_op(module), name, trace,
                               (target.cpu, target.features, target.opt_level), repeat=3))
            for _ in range(rounds) for label, trace in traces.items()]
    times: dict[str, list[float]] = {label: [] for label in traces}
    with LocalExecutor() as executor:
        for index, result in executor.map(job for _, job in jobs):
            times[jobs[index][0]].append(statistics.median(result.times))
    return {label: statistics.median(values) for label, values in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernel", choices=("mm_relu", "matmul"), default="mm_relu")
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--trials", type=int, default=64)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=5,
                        help="interleaved rounds re-measuring the default and both bests")
    parser.add_argument("--plot", metavar="PNG")
    args = parser.parse_args(argv)
    if args.size < 1 or args.trials < 1 or args.batch < 1 or args.repeat < 1:
        parser.error("--size, --trials, --batch and --repeat take whole numbers >= 1")
    module = kernel(args.kernel, args.size)
    results = {s: search(module, s, args.trials, args.batch, args.repeat, args.seed)
               for s in ("random", "evolutionary")}
    default = results["random"].default.median
    print(f"{args.kernel} {args.size} f32, default schedule {default * 1e3:.4f} ms, "
          f"load {os.getloadavg()[0]:.2f}")
    print(f"{'trials':>6}  " + "  ".join(f"{s + ' ms':>16}" for s in results))
    longest = max(len(r.history) for r in results.values())
    for n in [*range(args.batch, longest + 1, args.batch), longest]:
        cells = [f"{r.history[min(n, len(r.history)) - 1] * 1e3:16.4f}" if r.history
                 else f"{'-':>16}" for r in results.values()]
        print(f"{n:6d}  " + "  ".join(cells))
        if n == longest:
            break
    for strategy, result in results.items():
        print(f"{strategy}: best {result.best.median * 1e3:.4f} ms after {result.trials} "
              f"trials ({result.speedup:.2f}x its run's default schedule)")
    again = remeasure(module, {"default": results["random"].default.trace,
                               **{s: r.best.trace for s, r in results.items()}}, args.rounds)
    print("re-measured side by side (median of " + str(args.rounds) + " rounds): " +
          ", ".join(f"{label} {seconds * 1e3:.4f} ms" for label, seconds in again.items()) +
          f"; load {os.getloadavg()[0]:.2f}")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot

        figure, axes = pyplot.subplots(figsize=(6, 4))
        for strategy, result in results.items():
            axes.plot(range(1, len(result.history) + 1), [t * 1e3 for t in result.history],
                      label=strategy)
        axes.axhline(default * 1e3, color="gray", linestyle=":", label="default schedule")
        axes.set_xlabel("trials")
        axes.set_ylabel("best time found (ms)")
        axes.set_title(f"{args.kernel} {args.size} f32")
        axes.legend()
        figure.tight_layout()
        figure.savefig(args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
