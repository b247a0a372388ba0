"""`mlc-opt`: read MLIR text, verify it, run a pass pipeline, print the result.

    mlc-opt input.mlir                               # parse, verify, print
    mlc-opt input.mlir -p 'func.func(cse),canonicalize'
    mlc-opt input.mlir --canonicalize --cse          # the same as -p 'canonicalize,cse'
    mlc-opt cases.mlir --split-input-file --verify-diagnostics
    mlc-opt model.onnx --input-shape input=1,3,224,224 -p graph-optimize

Errors are diagnostics (`file:line:col: error: ...` with the source line and a caret)
and exit status 1; Python tracebacks never reach the user.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys
import time

from mlc.tools.module_input import NotUTF8, read_input
from mlc.tools.onnx_input import (
    FrontendMissing,
    OnnxInputError,
    import_model,
    is_onnx_path,
    load_constant_inputs,
    module_text,
    parse_input_shapes,
)
from mlc.tools.output import ToolArgumentParser, internal_error, write_output
from mlc.tools.split_input import SPLIT_MARKER, ChunkDiagnostics, input_chunks

DEFAULT_OPT_LEVEL = 3


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mlc-tools")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0"




class _VersionAction(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(f"mlc-opt {_version()}\n")
        sys.exit(0)


def _csv(text: str) -> list[str]:
    return [part for part in text.split(",") if part]


def seed(text: str) -> int:
    """A random seed: a non-negative integer (argparse reports anything else)."""
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def build_arg_parser(with_passes: bool = False) -> argparse.ArgumentParser:
    from mlc.ir.text.printer import PrintOptions

    parser = ToolArgumentParser(
        prog="mlc-opt",
        description="Parse, verify, transform and print MLIR-syntax IR with mlc.",
        epilog="Passes can also be named as flags (--canonicalize, "
               "--canonicalize='max-iterations=3'); --list-passes shows them.",
    )
    add = parser.add_argument
    add("input", nargs="?", default="-",
        help="input file ('-' for stdin); a .onnx file is an ONNX model, imported")
    add("-o", dest="output", metavar="FILE", default="-",
        help="output file, written only on success ('-' for stdout)")
    # Each also under mlir-opt's name (`--mlir-print-op-generic`), for its users.
    group = parser.add_argument_group("output")
    group.add_argument("--print-op-generic", "--mlir-print-op-generic", action="store_true",
                       help="print every op in MLIR's generic form")
    group.add_argument("--print-debuginfo", "--mlir-print-debuginfo", action="store_true", help="print op locations")
    group.add_argument("--print-local-scope", "--mlir-print-local-scope", action="store_true",
                       help="print affine maps and sets where they are used, not as "
                            "#map/#set aliases")
    group.add_argument("--elide-elementsattrs-if-larger", "--mlir-elide-elementsattrs-if-larger", type=int, metavar="N",
                       help="print dense constants with more than N elements as "
                            "dense_resource<__elided__>")
    group.add_argument("--print-elementsattrs-with-hex-if-larger", "--mlir-print-elementsattrs-with-hex-if-larger", type=int, metavar="N",
                       default=PrintOptions.hex_if_larger,
                       help="print dense constants with more than N elements as hex "
                            f"(default {PrintOptions.hex_if_larger}, as mlir-opt; -1: never)")
    group = parser.add_argument_group("input")
    group.add_argument("--allow-unregistered-dialect", action="store_true",
                       help="accept ops, types and attributes of unknown dialects")
    group.add_argument("--split-input-file", action="store_true",
                       help=f"process each chunk between '{SPLIT_MARKER}' lines separately")
    group.add_argument("--verify-diagnostics", action="store_true",
                       help="check diagnostics against // expected-error {{...}} comments")
    group.add_argument("--verify-roundtrip", action="store_true",
                       help="after parsing, print the IR (generic and custom forms), parse it "
                            "back and fail unless the same IR comes back (as mlir-opt)")
    group.add_argument("--no-verify", action="store_true",
                       help="skip verifying the input after parsing")
    group = parser.add_argument_group("ONNX input (a .onnx file; see mlc-import)")
    group.add_argument("--input-shape", action="append", default=[], metavar="NAME=D0,D1,...",
                       help="the shape of the model's input NAME, binding its dynamic "
                            "dimensions (repeatable; NAME= for a scalar)")
    group.add_argument("--constant-input", action="append", default=[],
                       metavar="NAME=FILE.npy",
                       help="bind graph input NAME of the ONNX model to the array in FILE.npy "
                            "(repeatable)")
    group.add_argument("--keep-params", action="store_true",
                       help="the model's initializers become parameters of @main, not constants")
    group = parser.add_argument_group("passes")
    group.add_argument("-p", "--pass-pipeline", metavar="PIPELINE",
                       help="e.g. 'builtin.module(func.func(cse,canonicalize{max-iterations=3}))'")
    group.add_argument("--opt-level", type=int, default=DEFAULT_OPT_LEVEL, metavar="N",
                       help=f"passes above this level are skipped (default {DEFAULT_OPT_LEVEL})")
    group.add_argument("--disable-pass", action="append", type=_csv, default=[], metavar="NAMES",
                       help="never run these passes (comma-separated, repeatable; "
                            "an unknown name is an error)")
    group.add_argument("--pass-config", action="append", default=[], metavar="KEY=VALUE",
                       help="set a PassContext config key (repeatable)")
    group.add_argument("--dump-pass-pipeline", action="store_true",
                       help="print the pipeline, every option spelled out, to stderr")
    group.add_argument("--verify-each", nargs="?", const="true", default="true",
                       choices=["true", "false"], help="verify after every pass (default true)")
    group.add_argument("--crash-reproducer", metavar="FILE",
                       help="on failure, write the input IR and the pipeline to FILE")
    group.add_argument("--run-reproducer", action="store_true",
                       help="run the pipeline recorded in the input (a crash reproducer)")
    group = parser.add_argument_group("instrumentation")
    group.add_argument("--print-ir-before", type=_csv, default=[], metavar="PASSES")
    group.add_argument("--print-ir-after", type=_csv, default=[], metavar="PASSES")
    group.add_argument("--print-ir-before-all", action="store_true")
    group.add_argument("--print-ir-after-all", action="store_true")
    group.add_argument("--print-ir-after-change", action="store_true",
                       help="print the IR after a pass only if the pass changed it")
    group.add_argument("--print-ir-after-failure", action="store_true")
    group.add_argument("--print-pass-skips", action="store_true",
                       help="say when a pass is skipped (opt level, disabled) and why")
    group.add_argument("--fusion-remarks", action="store_true",
                       help="graph-fuse-ops reports, as remarks, why each refused fusion was "
                            "refused (sets the config key graph.fuse-ops.remarks)")
    group.add_argument("--timing", action="store_true",
                       help="print a time report (parse, passes, verify, print) to stderr")
    group.add_argument("--print-schedule", action="store_true",
                       help="loop-default-schedule reports, as a remark per kernel, the "
                            "schedule it applied as the Python that replays it (sets the "
                            "config key loop.default-schedule.print)")
    group.add_argument("--pass-statistics", action="store_true",
                       help="print the counters each pass declares to stderr")
    group.add_argument("--check-semantics", nargs="?", const=0, default=None, type=seed,
                       metavar="SEED",
                       help="run each public function in the interpreter on seeded random "
                            "arguments (seed SEED, default 0) before the pipeline and after "
                            "every pass; fail at the first pass that changes a result")
    group = parser.add_argument_group("information")
    group.add_argument("--list-ops", action="store_true", help="list every installed op")
    group.add_argument("--op-docs", metavar="DIALECT",
                       help="print the markdown op reference of DIALECT")
    group.add_argument("--list-passes", action="store_true",
                       help="list passes and named pipelines with their options")
    group.add_argument("--list-patterns", action="store_true",
                       help="list canonicalization patterns (declarative ones as DAGs)")
    group.add_argument("--version", action=_VersionAction, nargs=0, help="print the version")
    if with_passes:
        from mlc.ir.passes.registry import PASSES, load_pass_plugins

        load_pass_plugins()
        group = parser.add_argument_group("pass flags (--NAME or --NAME='opt=value ...')")
        for name in sorted(PASSES):
            group.add_argument(f"--{name}", nargs="?", const="", metavar="OPTIONS",
                               help=PASSES[name].info.summary)
    return parser


def _split_pass_flags(argv: list[str]) -> tuple[list[str], list[str]]:
    """Separate `--pass-name[=options]` flags (kept in order) from the rest. As in
    mlir-opt, a long flag may be written with one dash (`-canonicalize`,
    `-split-input-file`); short flags with their value attached (`-ofile`) stay short."""
    from mlc.ir.passes.registry import PASSES, PIPELINES, load_pass_plugins

    parser = build_arg_parser()
    known = {opt for action in parser._actions for opt in action.option_strings}
    rest, passes = [], []
    for arg in argv:
        if len(arg) > 2 and arg[0] == "-" and arg[1].isalpha():
            name = arg[1:].split("=", 1)[0]
            if f"--{name}" not in known:
                load_pass_plugins(name)
            if f"--{name}" in known or name in PASSES or name in PIPELINES:
                arg = "-" + arg
        name, _, options = arg[2:].partition("=") if arg.startswith("--") else ("", "", "")
        if arg.startswith("--") and arg.split("=", 1)[0] not in known:
            load_pass_plugins(name)
            if name in PASSES or name in PIPELINES:
                passes.append(f"{name}{{{options}}}" if options else name)
                continue
        rest.append(arg)
    return rest, passes


_REPRODUCER_RE = re.compile(r'\{-#(?:(?!#-\}).)*?mlir_reproducer:\s*\{[^}]*?pipeline:\s*"((?:[^"\\]|\\.)*)"',
                            re.S)


def reproducer_text(ir_text: str, pipeline: str) -> str:
    """The IR followed by MLIR's reproducer metadata naming the pipeline."""
    escaped = pipeline.replace("\\", "\\\\").replace('"', '\\"')
    return (ir_text.rstrip("\n") + "\n\n{-#\n  external_resources: {\n    mlir_reproducer: {\n"
            f'      pipeline: "{escaped}",\n      disable_threading: true,\n'
            "      verify_each: true\n    }\n  }\n#-}\n")


def _list_passes() -> str:
    from mlc.ir.passes.context import CONFIG_KEYS
    from mlc.ir.passes.registry import PASSES, PIPELINES

    lines = ["Passes:"]
    for name in sorted(PASSES):
        info = PASSES[name].info
        runs_on = info.runs_on()
        where = "" if runs_on == "any op" else f", on {runs_on}"
        lines.append(f"  {name}  (opt level {info.opt_level}{where})  {info.summary}")
        for spec in info.option_specs:
            doc = f"  {spec.doc}" if spec.doc else ""
            lines.append(f"      {spec.name}: {spec.describe()}{doc}")
        if info.required:
            lines.append(f"      requires: {', '.join(info.required)}")
    lines.append("Pipelines:")
    for name in sorted(PIPELINES):
        text, summary = PIPELINES[name]
        lines.append(f"  {name}  {summary}")
        lines.append(f"      = {text}")
    lines.append("Config keys (--pass-config KEY=VALUE):")
    for name in sorted(CONFIG_KEYS):
        key = CONFIG_KEYS[name]
        lines.append(f"  {name}: {key.describe()}" + (f"  {key.doc}" if key.doc else ""))
    return "\n".join(lines) + "\n"


def _list_patterns(ctx) -> str:
    from mlc.ir.passes.generic.canonicalize import canonicalization_patterns
    from mlc.ir.rewrite.drr import DagPattern

    lines = []
    for pattern in sorted(canonicalization_patterns(ctx), key=lambda p: (p.root or "", p.name)):
        if isinstance(pattern, DagPattern):
            lines.append(str(pattern))
        else:
            lines.append(f"{pattern.name}: <code pattern on {pattern.root or 'any op'}> "
                         f"{pattern.describe()}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace, pass_flags: list[str]) -> int:
    from mlc.ir.core.attributes import UnknownLoc
    from mlc.ir.core.dialect_registry import Context
    from mlc.ir.diagnostics import Diagnostic, DiagnosticError, SourceManager
    from mlc.ir.text.printer import PrintOptions, print_op
    from mlc.ir.verify.verifier import Verifier

    if args.list_ops or args.op_docs or args.list_passes or args.list_patterns:
        ctx = Context()
        ctx.load_all_available()
        if args.list_ops:
            from mlc.ir.opdef.docs import list_ops

            sys.stdout.write(list_ops(list(ctx.dialects.values())))
        if args.op_docs:
            from mlc.ir.opdef.docs import dialect_markdown

            if args.op_docs not in ctx.dialects:
                sys.stderr.write(f"mlc-opt: error: no dialect named '{args.op_docs}'; installed: "
                                 f"{', '.join(sorted(ctx.dialects))}\n")
                return 1
            sys.stdout.write(dialect_markdown(ctx.dialects[args.op_docs]))
        if args.list_passes or args.list_patterns:
            from mlc.ir.passes.registry import load_pass_plugins

            load_pass_plugins()
            sys.stdout.write(_list_passes() if args.list_passes else _list_patterns(ctx))
        return 0

    onnx_input = is_onnx_path(args.input)
    if onnx_input:
        text_only = [flag for flag, given in (("--split-input-file", args.split_input_file),
                                              ("--verify-diagnostics", args.verify_diagnostics),
                                              ("--run-reproducer", args.run_reproducer)) if given]
        if text_only:
            verb = "reads" if len(text_only) == 1 else "read"
            sys.stderr.write(f"mlc-opt: error: {', '.join(text_only)} {verb} MLIR text, not an "
                             f"ONNX model ('{args.input}')\n")
            return 1
        try:
            input_shapes = parse_input_shapes(args.input_shape)
            constant_inputs = load_constant_inputs(args.constant_input)
        except ValueError as exc:
            sys.stderr.write(f"mlc-opt: error: {exc}\n")
            return 1
    elif args.input_shape or args.keep_params or args.constant_input:
        sys.stderr.write("mlc-opt: error: --input-shape, --constant-input and --keep-params "
                         f"apply to ONNX models (.onnx files), not to '{args.input}'\n")
        return 1

    sources = SourceManager()
    try:
        text, filename = ("", args.input) if onnx_input else read_input(args.input)
    except OSError as exc:
        sys.stderr.write(f"mlc-opt: error: cannot read '{args.input}': {exc.strerror}\n")
        return 1
    except NotUTF8 as exc:
        sys.stderr.write(exc.render())
        return 1
    source = sources.add(filename, text)

    # The pipeline: -p, or pass flags in command-line order, or a reproducer's.
    pipeline_text = args.pass_pipeline
    if args.run_reproducer:
        m = _REPRODUCER_RE.search(text)
        if m is None:
            sys.stderr.write(f"mlc-opt: error: '{filename}' holds no mlir_reproducer pipeline\n")
            return 1
        pipeline_text = m.group(1).replace('\\"', '"').replace("\\\\", "\\")
    if pass_flags:
        if pipeline_text is not None:
            sys.stderr.write("mlc-opt: error: give passes with -p or as flags, not both\n")
            return 1
        pipeline_text = ",".join(pass_flags)
    pipeline = None
    if pipeline_text is not None:
        from mlc.ir.passes.pipeline import PIPELINE_SOURCE, parse_pipeline

        sources.add(PIPELINE_SOURCE, pipeline_text)
        try:
            pipeline = parse_pipeline(pipeline_text)
        except DiagnosticError as exc:
            for diag in exc.diagnostics:
                sys.stderr.write(sources.render(diag))
            return 1

    instruments = []
    timing = statistics = None
    if args.timing:
        from mlc.ir.passes.instruments import Timing

        timing = Timing()
        instruments.append(timing)
    if args.pass_statistics:
        from mlc.ir.passes.instruments import Statistics

        statistics = Statistics()
        instruments.append(statistics)
    options = PrintOptions(generic=args.print_op_generic, debuginfo=args.print_debuginfo,
                           local_scope=args.print_local_scope,
                           elide_large_elements=args.elide_elementsattrs_if_larger,
                           hex_if_larger=None if args.print_elementsattrs_with_hex_if_larger < 0
                           else args.print_elementsattrs_with_hex_if_larger)
    if (args.print_ir_before or args.print_ir_after or args.print_ir_before_all
            or args.print_ir_after_all or args.print_ir_after_change
            or args.print_ir_after_failure):
        from mlc.ir.passes.instruments import PrintIR

        instruments.append(PrintIR(lambda op: print_op(op, options).rstrip("\n"),
                                   set(args.print_ir_before), set(args.print_ir_after),
                                   args.print_ir_before_all, args.print_ir_after_all,
                                   args.print_ir_after_change, args.print_ir_after_failure))
    if args.print_pass_skips:
        from mlc.ir.passes.instruments import SkipReporter

        instruments.append(SkipReporter())
    if args.check_semantics is not None:
        from mlc.ir.passes.check_semantics import CheckSemantics

        instruments.append(CheckSemantics(seed=args.check_semantics))

    if args.print_ir_before or args.print_ir_after:
        from mlc.ir.passes.options import did_you_mean
        from mlc.ir.passes.registry import PASSES, load_pass_plugins

        load_pass_plugins()
        for name in [*args.print_ir_before, *args.print_ir_after]:
            if name not in PASSES:
                sys.stderr.write(f"mlc-opt: error: --print-ir-before/after: no pass named "
                                 f"'{name}'{did_you_mean(name, PASSES)}\n")
                return 1
    context = None
    if args.fusion_remarks:
        args.pass_config.append("graph.fuse-ops.remarks=true")
    if args.print_schedule:
        args.pass_config.append("loop.default-schedule.print=true")
    disabled = [name for group in args.disable_pass for name in group]
    if pipeline is not None or args.pass_config or disabled:
        from mlc.ir.passes.context import ConfigError, PassContext
        from mlc.ir.passes.registry import load_pass_plugins

        if args.pass_config or disabled:
            load_pass_plugins()  # every pass's config keys, and every name to check against

        config = {}
        for item in args.pass_config:
            key, sep, value = item.partition("=")
            if not sep:
                sys.stderr.write(f"mlc-opt: error: --pass-config takes KEY=VALUE, got '{item}'\n")
                return 1
            config[key] = value
        try:
            context = PassContext(opt_level=args.opt_level, required=(), disabled=disabled,
                                  config=config, instruments=instruments)
        except ConfigError as exc:
            sys.stderr.write(f"mlc-opt: error: {exc}\n")
            return 1
    if pipeline is not None and args.dump_pass_pipeline:
        sys.stderr.write(f"Pass Manager with {sum(1 for _ in pipeline.passes())} passes:\n"
                         f"{pipeline.text(context)}\n")

    outputs: list[str] = []
    reporter = ChunkDiagnostics(sources, source, verify=args.verify_diagnostics)
    imported = None
    if onnx_input:
        began = time.perf_counter()
        try:
            imported = import_model(args.input, input_shapes, args.keep_params,
                                    constant_inputs)
        except OnnxInputError as exc:
            sys.stderr.write(f"{exc}\n")
            return 1
        except FrontendMissing as exc:
            sys.stderr.write(f"mlc-opt: error: {exc}\n")
            return 1
        if timing:
            timing.record("Import", time.perf_counter() - began)
    for start, end in input_chunks(text, args.split_input_file):
        ctx = Context(allow_unregistered=args.allow_unregistered_dialect)
        diagnostics: list[Diagnostic] = []
        output = None
        try:
            if imported is not None:
                from mlc.ir.passes.manager import context_of

                module, ctx = imported, context_of(imported)
            else:
                began = time.perf_counter()
                module = _parse_frozen(text[start:end], ctx, source, start)
                if timing:
                    timing.record("Parser", time.perf_counter() - began)
            if not args.no_verify:
                began = time.perf_counter()
                diagnostics = Verifier().verify(module)
                if timing:
                    timing.record("Verifier", time.perf_counter() - began)
            if not diagnostics and args.verify_roundtrip:
                from mlc.ir.verify.roundtrip import verify_roundtrip

                diagnostics = verify_roundtrip(module, ctx)
            if not diagnostics and pipeline is not None:
                began = time.perf_counter()
                row = len(timing.rows) if timing else 0
                # A crash reproducer of an ONNX model holds the imported module.
                input_text = (module_text(module) if imported is not None and args.crash_reproducer
                              else text[start:end])
                diagnostics = _run_pipeline(pipeline, module, ctx, context, args, input_text)
                if timing:
                    timing.rows.insert(row, (0, "Pipeline", time.perf_counter() - began, ""))
            if not any(d.severity == "error" for d in diagnostics):
                began = time.perf_counter()
                if imported is not None and args.elide_elementsattrs_if_larger is None:
                    output = module_text(module, options)  # weights as blobs, as mlc-import
                else:
                    output = print_op(module, options, ctx.resources)
                if timing:
                    timing.record("Output", time.perf_counter() - began)
        except DiagnosticError as exc:
            diagnostics = exc.diagnostics
        # An imported model has no text to point into: what is not at a node is
        # about the model, and says so as the importer's own errors do.
        reporter.report(diagnostics, lambda diag: (
            f"{filename}: " if imported is not None and (diag.loc is None or isinstance(
                diag.loc, UnknownLoc)) else "") + sources.render(diag))
        # As mlir-opt: a chunk that fails prints nothing, the others print.
        outputs.append(output or "")
    failed = reporter.finish()
    if statistics is not None:
        sys.stderr.write(statistics.report())
    if timing is not None:
        sys.stderr.write(timing.report())
    if failed and args.output != "-":
        return 1  # nothing is written to a file on failure
    try:
        write_output(args.output, (SPLIT_MARKER + "\n").join(outputs))
    except OSError as exc:
        sys.stderr.write(f"mlc-opt: error: cannot write '{args.output}': {exc.strerror}\n")
        return 1
    return 1 if failed else 0


def _parse_frozen(text: str, ctx, source, base_offset: int):
    """Parse, then move everything parsed out of the cyclic collector's reach: the
    module lives until the tool exits, and rescanning it at every later collection
    costs as much as parsing did (a process-lifetime trade a library must not make)."""
    from mlc.ir import parse_module

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return parse_module(text, ctx, source=source, base_offset=base_offset)
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def _run_pipeline(pipeline, module, ctx, context, args, chunk_text: str):
    from mlc.ir.passes.manager import PassManager

    def write_reproducer() -> None:
        if not args.crash_reproducer:
            return
        try:
            write_output(args.crash_reproducer, reproducer_text(chunk_text, pipeline.text(context)))
        except OSError as exc:  # the pass's own failure is reported after this
            sys.stderr.write(f"mlc-opt: error: cannot write the crash reproducer to "
                             f"'{args.crash_reproducer}': {exc.strerror}\n")

    try:
        with context:
            result = PassManager(pipeline, verify_each=args.verify_each == "true", ctx=ctx).run(module)
    except Exception:
        write_reproducer()
        raise
    if not result.success:
        write_reproducer()
    return result.diagnostics


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if "-h" in argv or "--help" in argv:
            build_arg_parser(with_passes=True).parse_args(argv)
        rest, pass_flags = _split_pass_flags(argv)
        args = build_arg_parser().parse_args(rest)
        return run(args, pass_flags)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except RecursionError:
        sys.stderr.write("mlc-opt: error: the input nests too deeply\n")
        return 1
    except Exception as exc:  # an internal error is a bug: say so, without a traceback
        return internal_error("mlc-opt", exc)


def entry() -> None:
    """The console script: `main`, with the cyclic GC off (a short-lived process whose
    IR is freed by exiting), no teardown of the IR at exit, and a thread with a large
    stack so deeply nested types and attributes are not limited by recursion."""
    import gc
    import threading

    gc.disable()
    sys.setrecursionlimit(200_000)
    threading.stack_size(512 * 1024 * 1024)
    outcome: list[int] = []

    def run_main() -> None:
        try:
            outcome.append(main())
        except SystemExit as exc:  # argparse's --help, --version and usage errors
            outcome.append(exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1))

    worker = threading.Thread(target=run_main)
    worker.start()
    worker.join()
    code = outcome[0] if outcome else 2
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        code = code or 1
    os._exit(code)


if __name__ == "__main__":
    entry()
