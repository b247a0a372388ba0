"""`mlc-opt`: read MLIR text, verify it, run a pipeline, print the result.

    mlc-opt input.mlir                       # parse, verify, print (custom form)
    mlc-opt input.mlir --print-op-generic    # generic form, as mlir-opt reads it
    mlc-opt cases.mlir --split-input-file --verify-diagnostics

Errors are diagnostics (`file:line:col: error: ...` with the source line and a caret)
and exit status 1; Python tracebacks never reach the user.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import PackageNotFoundError, version

SPLIT_MARKER = "// -----"


def _version() -> str:
    try:
        return version("mlc-tools")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0"


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own errors, as one diagnostic line
        self.print_usage(sys.stderr)
        sys.stderr.write(f"mlc-opt: error: {message}\n")
        sys.exit(1)


def build_arg_parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(
        prog="mlc-opt",
        description="Parse, verify, transform and print MLIR-syntax IR with mlc.",
    )
    parser.add_argument("input", nargs="?", default="-", help="input file ('-' for stdin)")
    parser.add_argument("-o", dest="output", metavar="FILE", default="-",
                        help="output file, written only on success ('-' for stdout)")
    parser.add_argument("--print-op-generic", action="store_true",
                        help="print every op in MLIR's generic form")
    parser.add_argument("--print-debuginfo", action="store_true",
                        help="print op locations (loc(...))")
    parser.add_argument("--elide-elementsattrs-if-larger", type=int, metavar="N",
                        help="print dense constants with more than N elements as "
                             "dense_resource<__elided__>")
    parser.add_argument("--print-elementsattrs-with-hex-if-larger", type=int, metavar="N",
                        help="print dense constants with more than N elements as hex")
    parser.add_argument("--allow-unregistered-dialect", action="store_true",
                        help="accept ops, types and attributes of unknown dialects "
                             "(kept in generic form)")
    parser.add_argument("--split-input-file", action="store_true",
                        help=f"process each chunk between '{SPLIT_MARKER}' lines separately")
    parser.add_argument("--verify-diagnostics", action="store_true",
                        help="check diagnostics against // expected-error {{...}} comments")
    parser.add_argument("--no-verify", action="store_true",
                        help="skip verifying the input after parsing")
    parser.add_argument("--list-ops", action="store_true",
                        help="list every op of every installed dialect and exit")
    parser.add_argument("--op-docs", metavar="DIALECT",
                        help="print the markdown op reference of DIALECT and exit")
    parser.add_argument("--version", action="version", version=f"mlc-opt {_version()}")
    return parser


def _read_input(path: str) -> tuple[str, str]:
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    with open(path, encoding="utf-8") as f:
        return f.read(), path


def _chunks(text: str, split: bool) -> list[tuple[int, int]]:
    """(start, end) offsets of each input chunk."""
    if not split:
        return [(0, len(text))]
    chunks = []
    start = 0
    pos = 0
    for line in text.splitlines(keepends=True):
        if line.strip() == SPLIT_MARKER:
            chunks.append((start, pos))
            start = pos + len(line)
        pos += len(line)
    chunks.append((start, len(text)))
    return chunks


def _write_output(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    if os.path.exists(path) and not os.path.isfile(path):
        # A device or pipe (/dev/null, /dev/stdout): write to it; never replace it.
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    # Write then rename: a failed run never leaves a partial or clobbered output.
    directory = os.path.dirname(os.path.abspath(path))
    temp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(temp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def run(args: argparse.Namespace) -> int:
    from mlc.ir.diagnostics import DiagnosticError, SourceManager
    from mlc.ir.dialect import Context
    from mlc.ir.text.parser import parse_module
    from mlc.ir.text.printer import PrintOptions, print_op
    from mlc.ir.verify.expected import check_diagnostics, collect_expectations
    from mlc.ir.verify.verifier import Verifier

    if args.list_ops or args.op_docs:
        ctx = Context()
        ctx.load_all_available()
        if args.list_ops:
            from mlc.ir.opdef.docs import list_ops

            sys.stdout.write(list_ops(list(ctx.dialects.values())))
        else:
            from mlc.ir.opdef.docs import dialect_markdown

            if args.op_docs not in ctx.dialects:
                sys.stderr.write(f"mlc-opt: error: no dialect named '{args.op_docs}'; installed: "
                                 f"{', '.join(sorted(ctx.dialects))}\n")
                return 1
            sys.stdout.write(dialect_markdown(ctx.dialects[args.op_docs]))
        return 0

    try:
        text, filename = _read_input(args.input)
    except OSError as exc:
        sys.stderr.write(f"mlc-opt: error: cannot read '{args.input}': {exc.strerror}\n")
        return 1
    except UnicodeDecodeError as exc:
        sys.stderr.write(f"mlc-opt: error: '{args.input}' is not UTF-8 text: {exc.reason}\n")
        return 1
    sources = SourceManager()
    source = sources.add(filename, text)
    options = PrintOptions(generic=args.print_op_generic, debuginfo=args.print_debuginfo,
                           elide_large_elements=args.elide_elementsattrs_if_larger,
                           hex_if_larger=args.print_elementsattrs_with_hex_if_larger)
    outputs: list[str] = []
    failed = False
    for start, end in _chunks(text, args.split_input_file):
        ctx = Context(allow_unregistered=args.allow_unregistered_dialect)
        diagnostics = []
        output = None
        try:
            module = parse_module(text[start:end], ctx, source=source, base_offset=start)
            if not args.no_verify:
                diagnostics = Verifier().verify(module)
            if not diagnostics:
                output = print_op(module, options, ctx.resources)
        except DiagnosticError as exc:
            diagnostics = exc.diagnostics
        if args.verify_diagnostics:
            expectations = collect_expectations(source, start, end)
            problems = check_diagnostics(diagnostics, expectations, source)
            for problem in problems:
                sys.stderr.write(sources.render(problem))
            failed |= bool(problems)
        else:
            for diag in diagnostics:
                sys.stderr.write(sources.render(diag))
            failed |= bool(diagnostics)
        if output is not None:
            outputs.append(output)
    if failed and not args.verify_diagnostics:
        return 1
    _write_output(args.output, (SPLIT_MARKER + "\n").join(outputs))
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # an internal error is a bug: say so, without a traceback
        if os.environ.get("MLC_DEBUG"):
            raise
        sys.stderr.write(f"mlc-opt: internal error: {type(exc).__name__}: {exc}\n"
                         "This is a bug in mlc; rerun with MLC_DEBUG=1 for a traceback and "
                         "report it.\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
