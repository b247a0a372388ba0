"""`mlc-model`: build one of the built-in example networks, run a pass pipeline on it,
and report what happened — op counts, kernels after fusion, time, and whether the
interpreter still computes the same outputs.

    mlc-model --list                                 # the networks and their parameters
    mlc-model resnet18                               # graph-optimize, with a summary
    mlc-model deep_convnet --param blocks=4 --param width=16
    mlc-model mlp -p 'graph-fuse-ops{opt-level=0}' --print
    mlc-model transformer --check                    # evaluate before and after, compare
    mlc-model resnet18 --emit resnet18.mlir          # the module as text, weights as blobs
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from mlc.tools.output import (
    ToolArgumentParser,
    UsageError,
    resolved_threads,
    run_count,
    thread_count,
    tolerance,
    warnings_as_lines,
)

# The default tolerance of --check: float32 results of reordered arithmetic (folded
# scales, fused kernels) stay well inside it on every example network (at most a tenth
# of it is used), while a wrong rewrite is orders of magnitude outside.
DEFAULT_RTOL = 1e-4
DEFAULT_ATOL = 1e-5


def build_arg_parser() -> argparse.ArgumentParser:
    parser = ToolArgumentParser(prog="mlc-model", description=__doc__.split("\n\n")[0])
    parser.add_argument("network", nargs="?", help="an example network (see --list)")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="set a parameter of the network (repeatable; --list shows "
                             "each network's parameters and defaults)")
    parser.add_argument("-p", "--pass-pipeline", default="graph-optimize", metavar="PIPELINE",
                        help="pipeline to run (default graph-optimize; '' for none)")
    parser.add_argument("--opt-level", type=int, default=3, metavar="N",
                        help="PassContext opt level (default 3)")
    parser.add_argument("--fusion-remarks", action="store_true",
                        help="print graph-fuse-ops' remarks on refused fusions")
    parser.add_argument("--check", action="store_true",
                        help="evaluate the network before and after the pipeline on seeded "
                             "random inputs; fail unless every output element is within "
                             "atol + rtol * |before| of the unoptimised program's")
    parser.add_argument("--rtol", type=tolerance, default=DEFAULT_RTOL, metavar="R",
                        help=f"relative tolerance of --check (default {DEFAULT_RTOL:g})")
    parser.add_argument("--atol", type=tolerance, default=DEFAULT_ATOL, metavar="A",
                        help=f"absolute tolerance of --check (default {DEFAULT_ATOL:g})")
    parser.add_argument("--print", action="store_true", dest="print_ir",
                        help="print the resulting module (large constants elided)")
    parser.add_argument("--print-debuginfo", action="store_true",
                        help="with --print, print each op's location (its layer's name)")
    parser.add_argument("--emit", metavar="FILE",
                        help="write the network (before the pipeline) as MLIR text, large "
                             "constants as dense_resource blobs; '-' for stdout (the "
                             "report then goes to stderr)")
    parser.add_argument("--run", action="store_true",
                        help="compile the network to native code (mlc.llvm.build), run it on "
                             "the seeded inputs and compare with the interpreter (within "
                             "--rtol/--atol); report the compile time of each stage")
    parser.add_argument("--benchmark", type=run_count, metavar="N",
                        help="with --run: time N native runs, report median and min latency")
    parser.add_argument("--threads", type=thread_count, metavar="N",
                        help="with --run: threads the parallel loops run on (default: "
                             "MLC_NUM_THREADS, else the cores this process may use; 1: "
                             "serial code)")
    parser.add_argument("--list", action="store_true", help="list the example networks")
    return parser


@dataclass(frozen=True)
class Comparison:
    """How the outputs after a pipeline compare with the outputs before it."""

    passed: bool
    message: str


@dataclass(frozen=True)
class ComparedSides:
    """The words a comparison's message uses for its two sides: how each set of
    outputs was computed (`got`, `expected`), the reference's owner, and the symbol of
    its value in the allowance `atol + rtol * |symbol|`."""

    got: str
    expected: str
    reference: str
    symbol: str


PIPELINE_SIDES = ComparedSides("after the pipeline", "before", "the unoptimised program's",
                               "before")


def compare_outputs(after: Sequence, before: Sequence, rtol: float, atol: float,
                    sides: ComparedSides | None = None) -> Comparison:
    """Whether every element of every output after the pipeline is within
    `atol + rtol * |before|` of the one before (numpy's `isclose`; NaN matches NaN
    only), said in a sentence that cannot be misread; `sides` names what is compared
    (default: the outputs after the pipeline and before it)."""
    got, expected, reference, symbol = dataclasses.astuple(sides or PIPELINE_SIDES)
    import numpy as np

    tolerance = f"rtol={_number(rtol)}, atol={_number(atol)}"
    if len(after) != len(before):
        return Comparison(False, f"check FAILED: {len(after)} outputs {got}, "
                                 f"{len(before)} {expected}")
    worst_difference = worst_share = 0.0
    for index, (a, b) in enumerate(zip(after, before)):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return Comparison(False, f"check FAILED: output #{index} has shape {a.shape} "
                                     f"{got}, {b.shape} {expected}")
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        close = np.isclose(a64, b64, rtol=rtol, atol=atol, equal_nan=True)
        same = (a64 == b64) | (np.isnan(a64) & np.isnan(b64))  # equal infinities too
        with np.errstate(invalid="ignore", divide="ignore"):
            difference = np.where(same, 0.0, np.abs(a64 - b64))
            share = np.where(difference == 0, 0.0, difference / (atol + rtol * np.abs(b64)))
        if not close.all():
            outside = int(close.size - np.count_nonzero(close))
            details = [f"{outside} of {close.size} elements of output #{index} are not within "
                       f"atol + rtol * |{symbol}|"]
            numeric = difference[~np.isnan(difference)]
            if numeric.size and numeric.max() > 0:
                details.append(f"max abs difference {float(numeric.max()):.1e}")
            one_sided_nan = int(np.count_nonzero(np.isnan(a64) != np.isnan(b64)))
            if one_sided_nan:
                details.append(f"{one_sided_nan} NaN on one side only")
            return Comparison(False, f"check FAILED: outputs differ from {reference} "
                                     f"beyond {tolerance} ({'; '.join(details)})")
        worst_difference = max(worst_difference, float(difference.max(initial=0.0)))
        worst_share = max(worst_share, float(share.max(initial=0.0)))
    if worst_difference == 0:
        return Comparison(True, f"check passed: outputs equal {reference} "
                                f"within {tolerance} (every element identical)")
    return Comparison(True, (
        f"check passed: outputs equal {reference} within {tolerance} "
        f"(max abs difference {worst_difference:.1e}; no element uses more than "
        f"{worst_share:.0%} of its allowance atol + rtol * |{symbol}|)"))


def _number(value: float) -> str:
    """A tolerance as people write it: 1e-5, 0.0015, 0.1, 0."""
    short = f"{value:.0e}"
    if 0 < value < 1e-2 and float(short) == value:
        mantissa, exponent = short.split("e")
        return f"{mantissa}e{int(exponent)}"
    return f"{value:g}"


def _parse_params(texts: list[str]) -> dict[str, int | str]:
    """`--param NAME=VALUE` options: values that read as integers become ints, the
    others are passed on for the network to refuse by name."""
    params: dict[str, int | str] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"--param takes NAME=VALUE, got '{text}'")
        if name in params:
            raise ValueError(f"--param {name} is given twice")
        try:
            params[name] = int(value)
        except ValueError:
            params[name] = value
    return params


def _list_networks(examples) -> str:
    lines = []
    for name, network in examples.items():
        lines.append(f"{name:14} {network.summary}")
        for parameter in network.parameters:
            setting = f"{parameter.name}={parameter.default}"
            lines.append(f"    {setting:20} {parameter.doc} (>= {parameter.minimum})")
    lines.append("(--param NAME=VALUE sets a parameter; the defaults are shown)")
    return "\n".join(lines) + "\n"


def _op_counts(fn) -> Counter:
    from mlc.ir.dialects.func import ReturnOp

    return Counter(op.name for op in fn.entry_block.ops() if not isinstance(op, ReturnOp))


def _summary(counts: Counter) -> str:
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def main(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    try:
        from mlc.graph.examples import EXAMPLES, NetworkParameterError
    except ImportError:  # pragma: no cover - mlc-dialect-graph not installed
        sys.stderr.write("mlc-model: error: the graph dialect (mlc-dialect-graph) is not installed\n")
        return 1
    if args.list:
        sys.stdout.write(_list_networks(EXAMPLES))
        return 0
    if args.network is None:
        sys.stderr.write("mlc-model: error: name a network (--list shows them)\n")
        return 1
    if args.network not in EXAMPLES:
        sys.stderr.write(f"mlc-model: error: no example network '{args.network}'; known: "
                         + ", ".join(EXAMPLES) + "\n")
        return 1

    from mlc.graph import evaluate
    from mlc.graph.fusion.outline import is_primitive
    from mlc.ir import PrintOptions, print_op
    from mlc.ir.diagnostics import DiagnosticError, SourceManager
    from mlc.ir.dialects.func import FuncOp
    from mlc.ir.passes.context import ConfigError, PassContext
    from mlc.ir.passes.manager import run_pipeline
    from mlc.ir.passes.pipeline import PIPELINE_SOURCE, parse_pipeline
    from mlc.ir.passes.registry import load_pass_plugins

    network = EXAMPLES[args.network]
    began = time.perf_counter()
    try:
        example = network(**_parse_params(args.param))
    except (NetworkParameterError, ValueError) as exc:
        sys.stderr.write(f"mlc-model: error: {exc}\n")
        return 1
    module = example.module
    built = time.perf_counter() - began
    before = _op_counts(example.main)
    # With `--emit -` stdout holds the module, for the next tool of a pipe: the report
    # goes to stderr then.
    out = sys.stderr if args.emit == "-" else sys.stdout
    defaults = {p.name: p.default for p in network.parameters}
    changed = [f"{k}={v}" for k, v in example.parameters.items() if v != defaults[k]]
    title = f"{args.network} ({', '.join(changed)})" if changed else args.network
    out.write(f"{title}: {sum(before.values())} ops in @main ({_summary(before)}); "
              f"built in {built:.2f} s\n")
    if args.emit:
        from mlc.graph.resources import module_text_with_resources
        from mlc.tools.output import write_output

        try:
            write_output(args.emit, module_text_with_resources(module))
        except OSError as exc:
            sys.stderr.write(f"mlc-model: error: cannot write {args.emit}: {exc.strerror}\n")
            return 1
    inputs = example.inputs()
    reference = evaluate(module, inputs) if args.check or args.run else None
    if args.benchmark is not None and not args.run:
        sys.stderr.write("mlc-model: error: --benchmark N takes --run\n")
        return 1
    if args.threads is not None and not args.run:
        sys.stderr.write("mlc-model: error: --threads N takes --run\n")
        return 1
    if args.run:
        status = _run_natively(module, inputs, reference, args, out)
        if status:
            return status

    if args.pass_pipeline:
        load_pass_plugins()
        config = {"graph.fuse-ops.remarks": True} if args.fusion_remarks else {}
        sources = SourceManager()
        sources.add(PIPELINE_SOURCE, args.pass_pipeline)
        try:
            pipeline = parse_pipeline(args.pass_pipeline)
        except DiagnosticError as exc:
            for diagnostic in exc.diagnostics:
                sys.stderr.write(sources.render(diagnostic))
            return 1
        try:
            with PassContext(opt_level=args.opt_level, config=config):
                began = time.perf_counter()
                result = run_pipeline(module, pipeline)
                elapsed = time.perf_counter() - began
        except (ConfigError, DiagnosticError, ValueError) as exc:
            sys.stderr.write(f"mlc-model: error: {exc}\n")
            return 1
        for diagnostic in result.diagnostics:
            sys.stderr.write(sources.render(diagnostic))
        if not result.success:
            return 1
        out.write(f"pipeline {args.pass_pipeline}: {elapsed * 1000:.0f} ms\n")
        after = _op_counts(example.main)
        kernels = [op for op in module.regions[0].ops()
                   if isinstance(op, FuncOp) and is_primitive(op)]
        if kernels:
            shapes = Counter(re.sub(r"_\d+$", "", k.sym_name.value) for k in kernels)
            out.write(f"{len(kernels)} kernels:\n")
            for name, n in sorted(shapes.items(), key=lambda kv: (-kv[1], kv[0])):
                out.write(f"  {n:4}  {name}\n")
        else:
            out.write(f"after: {sum(after.values())} ops in @main ({_summary(after)})\n")
    if args.check:
        comparison = compare_outputs(evaluate(module, inputs), reference, args.rtol, args.atol)
        out.write(comparison.message + "\n")
        if not comparison.passed:
            return 1
    if args.print_ir:
        options = PrintOptions(elide_large_elements=16, debuginfo=args.print_debuginfo)
        out.write(print_op(module, options) + "\n")
    return 0


def _run_natively(module, inputs, reference, args, out) -> int:
    """--run: the network as one native entry point, checked against the interpreter."""
    from mlc.ir.diagnostics import DiagnosticError

    try:
        from mlc.llvm.build import build
        from mlc.llvm.timing import time_evaluator
    except ImportError as exc:
        sys.stderr.write(f"mlc-model: error: the LLVM backend cannot be loaded: {exc}\n")
        return 1
    try:
        threads = resolved_threads(args.threads)
    except UsageError as exc:
        sys.stderr.write(f"mlc-model: error: {exc}\n")
        return 1
    try:
        with warnings_as_lines("mlc-model"):
            model = build(module, num_threads=threads)
    except DiagnosticError as exc:
        sys.stderr.write(f"mlc-model: error: cannot compile the network: {exc}\n")
        return 1
    out.write(f"compiled to native code ({model.target.describe()}) in "
              f"{model.timings.total * 1000:.0f} ms:\n{model.timings.report()}\n")
    def call():
        return model(**inputs) if isinstance(inputs, dict) else model(*inputs)

    outputs = call()
    outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
    comparison = compare_outputs(outputs, reference, args.rtol, args.atol)
    out.write(comparison.message.replace("after the pipeline", "natively")
              .replace("the unoptimised program's", "the interpreter's") + "\n")
    if args.benchmark:
        latency = time_evaluator(call, number=1, repeat=args.benchmark, warmup=0)()
        threads = f"{model.num_threads} thread{'s' if model.num_threads > 1 else ''}"
        out.write(f"latency over {args.benchmark} runs ({threads}): median "
                  f"{latency.median * 1000:.3f} ms, min {latency.min * 1000:.3f} ms\n")
    return 0 if comparison.passed else 1


def entry() -> None:
    """The console script: `main`, with internal errors reported as such."""
    from mlc.tools.output import internal_error

    try:
        code = main()
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:
        code = 1
    except Exception as exc:  # a bug: say so, without a traceback
        code = internal_error("mlc-model", exc)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()
