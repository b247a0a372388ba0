"""`mlc-tune`: tune every kernel of a model and keep the records for builds.

    mlc-tune model.onnx --trials 200 --work-dir tune            # search, then a table
    mlc-tune model.mlir --trials 64 --work-dir tune --plot curve.png
    mlc-run model.onnx --tuning-db tune --benchmark 100         # the tuned build

A progress bar follows the search (on stderr); then a table per task: calls, FLOPs,
default and best time, GFLOP/s, % of the target's peak and trials. Interrupted
(Ctrl-C), it keeps every record written so far, and the same command resumes.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import sys

from mlc.tools.output import (
    ToolArgumentParser,
    UsageError,
    run_tool,
    seed,
    write_binary_output,
)
from mlc.tune.search import STRATEGIES


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"a whole number >= 0 is expected, not '{text}'")
    return value


def _positive(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number >= 1 is expected, not '{text}'")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"a positive number of seconds is expected, "
                                         f"not '{text}'")
    return value


def build_arg_parser() -> argparse.ArgumentParser:
    parser = ToolArgumentParser(prog="mlc-tune", description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="the model: an ONNX file (.onnx) or a graph module (.mlir)")
    parser.add_argument("--trials", type=_count, required=True, metavar="N",
                        help="candidates to measure in all (spread over the kernels)")
    parser.add_argument("--work-dir", required=True, metavar="DIR",
                        help="the tuning database (created; a rerun resumes from it)")
    parser.add_argument("--target", metavar="CPU",
                        help="the CPU to tune for, as LLVM names it (znver4, x86-64-v3; "
                             "default: this machine's); it must run here")
    parser.add_argument("--target-features", metavar="FEATURES",
                        help="LLVM features added or removed for --target (+avx512f,...)")
    parser.add_argument("--strategy", choices=STRATEGIES, default="evolutionary",
                        help="evolutionary (a learned cost model; needs xgboost) or random")
    parser.add_argument("--batch", type=_positive, default=8, metavar="N",
                        help="candidates measured per round (default 8)")
    parser.add_argument("--repeat", type=_positive, default=3, metavar="N",
                        help="timed measurements per candidate, the median kept (default 3)")
    parser.add_argument("--workers", type=_positive, default=1, metavar="N",
                        help="processes building candidates side by side (default 1; "
                             "they time one at a time)")
    parser.add_argument("--timeout", type=_seconds, default=60.0, metavar="S",
                        help="seconds a candidate may take to build, and to be timed "
                             "(default 60)")
    parser.add_argument("--seed", type=seed, default=0, help="the search's seed (default 0)")
    parser.add_argument("--flush-cache", action="store_true",
                        help="time each call after flushing its arrays from the caches "
                             "(weights cold, as inside the network; every search of a "
                             "work directory must agree)")
    parser.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                        help="measure on a Ray cluster (ray start --head prints ADDRESS); "
                             "without ADDRESS, a local Ray instance")
    parser.add_argument("--plot", metavar="PNG",
                        help="plot the best time found against trials per task "
                             "(needs matplotlib)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def _target(args):
    from mlc.llvm.target import Target, TargetError

    if args.target_features is not None and args.target is None:
        raise UsageError("--target-features needs --target")
    try:
        return Target(args.target, args.target_features) if args.target else Target()
    except TargetError as exc:
        raise UsageError(str(exc)) from None


def _graph_module(path: str):
    from mlc.tools.module_input import InputError, LoadOptions, load_module

    if not os.path.isfile(path):
        raise UsageError(f"no model at '{path}'")
    try:
        module, _ = load_module(path, LoadOptions())
    except InputError as exc:
        sys.stderr.write(str(exc))
        return None
    return module


def plot(result, path: str) -> None:
    """Write the best time against trials of each task to the PNG `path`."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError("--plot needs matplotlib (pip install 'mlc-tune[plot]')") from None
    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(7, 4))
    for task in result.tasks:
        if task.history:
            axes.plot(range(1, len(task.history) + 1), [t * 1e3 for t in task.history],
                      label=task.workload.name)
    axes.set_xlabel("trials (this run)")
    axes.set_ylabel("best time (ms)")
    axes.set_yscale("log")
    axes.legend(fontsize="small")
    figure.tight_layout()
    png = io.BytesIO()
    figure.savefig(png, format="png")
    pyplot.close(figure)
    try:  # written whole, then renamed into place, as every -o of mlc's tools
        write_binary_output(path, png.getvalue())
    except OSError as exc:
        raise UsageError(f"cannot write '{path}': {exc.strerror or exc}") from None


def run(args: argparse.Namespace) -> int:
    from mlc.ir.diagnostics import DiagnosticError
    from mlc.llvm.peak import peak_flops
    from mlc.tune.database import MeasurementMismatch
    from mlc.tune.tuner import tune_model

    target = _target(args)
    if args.plot is not None and not args.plot.endswith(".png"):
        raise UsageError(f"--plot writes a PNG file (NAME.png), not '{args.plot}'")
    if args.plot is not None and not os.path.isdir(os.path.dirname(args.plot) or "."):
        # Said before the search, not after it.
        raise UsageError(f"--plot '{args.plot}': no directory '{os.path.dirname(args.plot)}'")
    if os.path.exists(args.work_dir) and not os.path.isdir(args.work_dir):
        raise UsageError(f"--work-dir '{args.work_dir}' is a file, not a directory")
    module = _graph_module(args.input)
    if module is None:
        return 1
    executor = "local" if args.ray is None else ("ray:" + args.ray if args.ray else "ray")
    logging.basicConfig(format="mlc-tune: %(message)s", level=logging.WARNING)
    try:
        result = tune_model(module, args.trials, args.work_dir, target=target,
                            strategy=args.strategy, batch=args.batch, repeat=args.repeat,
                            seed=args.seed, executor=executor, workers=args.workers,
                            timeout=args.timeout, progress=not args.no_progress,
                            flush_cache=args.flush_cache)
    except MeasurementMismatch as exc:
        raise UsageError(str(exc)) from None
    except DiagnosticError as exc:
        for diag in exc.diagnostics:
            sys.stderr.write(f"{args.input}: {diag.severity}: {diag.message}\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write(f"mlc-tune: interrupted; the records so far are in {args.work_dir}: "
                         "the same command resumes\n")
        return 130
    except ImportError as exc:  # an optional extra: ray
        raise UsageError(str(exc)) from None
    sys.stdout.write(f"target: {target.describe()}\n{result.table(peak_flops(target).flops)}\n")
    sys.stdout.write(f"records: {os.path.join(args.work_dir, 'records.jsonl')} "
                     f"(mlc-run MODEL --tuning-db {args.work_dir})\n")
    if args.plot is not None:
        plot(result, args.plot)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run mlc-tune on `argv` (default: the command line); the exit status."""
    return run_tool("mlc-tune", build_arg_parser(), run, argv)


def entry() -> None:
    """The console script."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    entry()
