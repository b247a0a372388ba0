"""`mlc-model`: build one of the built-in example networks, run a pass pipeline on it,
and report what happened — op counts, kernels after fusion, time, and whether the
interpreter still computes the same outputs.

    mlc-model --list
    mlc-model resnet18                               # graph-optimize, with a summary
    mlc-model mlp -p 'graph-fuse-ops{opt-level=0}' --print
    mlc-model transformer --check                    # evaluate before and after, compare
    mlc-model resnet18 --emit resnet18.mlir          # the module as text, weights as blobs
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter

from mlc.tools.output import ToolArgumentParser


def build_arg_parser() -> argparse.ArgumentParser:
    parser = ToolArgumentParser(prog="mlc-model", description=__doc__.split("\n\n")[0])
    parser.add_argument("network", nargs="?", help="an example network (see --list)")
    parser.add_argument("-p", "--pass-pipeline", default="graph-optimize", metavar="PIPELINE",
                        help="pipeline to run (default graph-optimize; '' for none)")
    parser.add_argument("--opt-level", type=int, default=3, metavar="N",
                        help="PassContext opt level (default 3)")
    parser.add_argument("--fusion-remarks", action="store_true",
                        help="print graph-fuse-ops' remarks on refused fusions")
    parser.add_argument("--check", action="store_true",
                        help="evaluate the network before and after on random inputs and compare")
    parser.add_argument("--print", action="store_true", dest="print_ir",
                        help="print the resulting module (large constants elided)")
    parser.add_argument("--emit", metavar="FILE",
                        help="write the network (before the pipeline) as MLIR text, large "
                             "constants as dense_resource blobs; '-' for stdout")
    parser.add_argument("--list", action="store_true", help="list the example networks")
    return parser


def _op_counts(fn) -> Counter:
    return Counter(op.name for op in fn.entry_block.ops() if op.name != "func.return")


def _summary(counts: Counter) -> str:
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def main(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    try:
        from mlc.graph.examples import EXAMPLES
    except ImportError:  # pragma: no cover - mlc-dialect-graph not installed
        sys.stderr.write("mlc-model: error: the graph dialect (mlc-dialect-graph) is not installed\n")
        return 1
    if args.list:
        for name, build in EXAMPLES.items():
            doc = (build.__doc__ or "").strip().splitlines()
            sys.stdout.write(f"{name:14} {doc[0] if doc else ''}\n")
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
    from mlc.ir.passes.context import ConfigError, PassContext
    from mlc.ir.passes.manager import run_pipeline
    from mlc.ir.passes.pipeline import PIPELINE_SOURCE, parse_pipeline
    from mlc.ir.passes.registry import load_pass_plugins

    began = time.perf_counter()
    example = EXAMPLES[args.network]()
    module = example.module
    built = time.perf_counter() - began
    before = _op_counts(example.main)
    out = sys.stdout
    out.write(f"{args.network}: {sum(before.values())} ops in @main ({_summary(before)}); "
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
    reference = evaluate(module, inputs) if args.check else None

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
            sys.stderr.write(sources.render(diagnostic) + "\n")
        if not result.success:
            return 1
        out.write(f"pipeline {args.pass_pipeline}: {elapsed * 1000:.0f} ms\n")
        after = _op_counts(example.main)
        kernels = [op for op in module.regions[0].ops() if op.name == "func.func" and is_primitive(op)]
        if kernels:
            shapes = Counter(re.sub(r"_\d+$", "", k.sym_name.value) for k in kernels)
            out.write(f"{len(kernels)} kernels:\n")
            for name, n in sorted(shapes.items(), key=lambda kv: (-kv[1], kv[0])):
                out.write(f"  {n:4}  {name}\n")
        else:
            out.write(f"after: {sum(after.values())} ops in @main ({_summary(after)})\n")
    if args.check:
        import numpy as np

        outputs = evaluate(module, inputs)
        worst = max(float(np.max(np.abs(a - b) / (np.abs(b) + 1e-3))) for a, b in zip(outputs, reference))
        same = all(np.allclose(a, b, rtol=1e-4, atol=1e-4) for a, b in zip(outputs, reference))
        out.write(f"check: outputs {'match' if same else 'DIFFER'} before/after "
                  f"(rtol=atol=1e-4; worst relative difference {worst:.1e})\n")
        if not same:
            return 1
    if args.print_ir:
        out.write(print_op(module, PrintOptions(elide_large_elements=16)) + "\n")
    return 0


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
