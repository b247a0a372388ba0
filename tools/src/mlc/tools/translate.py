"""`mlc-translate`: a module of the llvm dialect as LLVM IR, assembly or an object file
(MLIR's `mlir-translate --mlir-to-llvmir`, then LLVM's `llc`).

    mlc-translate kernels.mlir                       # LLVM IR, translated 1:1 (-O0)
    mlc-translate kernels.mlir -O3                   # ... optimised for the host CPU
    mlc-translate kernels.mlir --emit-asm -o k.s     # assembly
    mlc-translate kernels.mlir --emit-obj -o k.o     # an object file (ELF on Linux)
    mlc-translate kernels.mlir --target-cpu skylake --target-features=-avx512f --emit-asm
    mlc-translate cases.mlir --split-input-file --verify-diagnostics

The input is MLIR text of the llvm dialect (`mlc-opt -p convert-scf-to-cf,convert-to-llvm`
produces it). The LLVM IR is verified by LLVM's own parser and verifier; optimisation
is LLVM's new pass manager at the -O level, code generation for the target CPU (the
host's by default). `--timing` reports each stage on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time

from mlc.tools.output import (
    ToolArgumentParser,
    run_tool,
    with_long_options_spelled,
    write_binary_output,
    write_output,
)
from mlc.tools.split_input import SPLIT_MARKER, ChunkDiagnostics, input_chunks


def build_arg_parser() -> argparse.ArgumentParser:
    parser = ToolArgumentParser(
        prog="mlc-translate",
        description="Translate the llvm dialect to LLVM IR, assembly or object code.")
    parser.add_argument("input", nargs="?", default="-", help="MLIR file ('-' for stdin)")
    parser.add_argument("-o", dest="output", metavar="FILE", default="-",
                        help="output file, written only on success ('-' for stdout)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--mlir-to-llvmir", dest="mode", action="store_const", const="llvmir",
                      help="print LLVM IR (the default)")
    mode.add_argument("--emit-asm", dest="mode", action="store_const", const="asm",
                      help="print the target's assembly")
    mode.add_argument("--emit-obj", dest="mode", action="store_const", const="obj",
                      help="write an object file")
    parser.add_argument("-O", dest="opt_level", type=int, choices=range(4), default=None,
                        metavar="N", help="optimisation level 0-3 (default: 0 for LLVM IR, "
                                          "3 for assembly and objects)")
    parser.add_argument("--target-cpu", metavar="CPU", help="the CPU to generate code for "
                                                           "(default: this machine's)")
    parser.add_argument("--target-features", metavar="FEATURES",
                        help="CPU features, e.g. '+avx2,-avx512f' (default: this machine's)")
    parser.add_argument("--allow-unregistered-dialect", action="store_true",
                        help="accept ops of dialects mlc does not know (they fail to translate)")
    parser.add_argument("--no-implicit-module", action="store_true",
                        help="do not wrap the input in a module: its one top-level op must be "
                             "a builtin.module")
    parser.add_argument("--split-input-file", action="store_true",
                        help=f"translate each chunk between '{SPLIT_MARKER}' lines separately")
    parser.add_argument("--verify-diagnostics", action="store_true",
                        help="check the diagnostics against the input's expected-error/"
                             "-warning/-note/-remark comments instead of printing them")
    parser.add_argument("--timing", action="store_true", help="report the time of each stage")
    return parser


def run(args: argparse.Namespace) -> int:
    from mlc.tools.module_input import InputError, read_text_input

    mode = args.mode or "llvmir"
    opt_level = args.opt_level if args.opt_level is not None else (0 if mode == "llvmir" else 3)
    if mode == "obj" and args.split_input_file:
        sys.stderr.write("mlc-translate: error: --split-input-file writes LLVM IR or assembly, "
                         "not object files\n")
        return 1
    try:
        from mlc.llvm.target import Target, TargetError
    except ImportError as exc:  # llvmlite missing or broken
        sys.stderr.write(f"mlc-translate: error: the LLVM backend cannot be loaded: {exc}\n")
        return 1
    try:
        target = Target(cpu=args.target_cpu, features=args.target_features, opt_level=opt_level)
    except TargetError as exc:
        sys.stderr.write(f"mlc-translate: error: {exc}\n")
        return 1
    from mlc.ir.diagnostics import SourceManager

    try:
        text, filename = read_text_input(args.input)
    except InputError as exc:
        sys.stderr.write(str(exc))
        return 1
    sources = SourceManager()
    source = sources.add(filename, text)
    reporter = ChunkDiagnostics(sources, source, verify=args.verify_diagnostics)
    stages: list[tuple[str, float]] = []
    outputs: list[str | bytes] = []
    for start, end in input_chunks(text, args.split_input_file):
        translated = _translate_chunk(args, text, start, end, source, reporter, target, mode,
                                      opt_level, stages)
        if isinstance(translated, int):
            return translated
        outputs.append(translated or "")
    failed = reporter.finish()
    if failed and (args.output != "-" or mode == "obj"):
        return 1  # nothing is written to a file on failure
    try:
        if mode == "obj":
            if args.output == "-" and sys.stdout.isatty():
                sys.stderr.write("mlc-translate: error: an object file is binary; write it "
                                 "with -o FILE\n")
                return 1
            write_binary_output(args.output, outputs[0])  # type: ignore[arg-type]
        else:
            write_output(args.output, "".join(outputs))  # type: ignore[arg-type]
    except OSError as exc:
        sys.stderr.write(f"mlc-translate: error: cannot write '{args.output}': {exc.strerror}\n")
        return 1
    if args.timing:
        width = max(len(name) for name, _ in stages)
        sys.stderr.write(f"===== mlc-translate timing ({target.describe()}) =====\n")
        for name, seconds in stages:
            sys.stderr.write(f"  {name:<{width}}  {seconds * 1000:9.2f} ms\n")
        sys.stderr.write(f"  {'total':<{width}}  {sum(s for _, s in stages) * 1000:9.2f} ms\n")
    # As mlir-translate: the chunks that translate are printed, the run fails.
    return 1 if failed else 0


def _translate_chunk(args, text: str, start: int, end: int, source, reporter, target, mode: str,
                     opt_level: int, stages: list) -> str | bytes | int | None:
    """One chunk of the input as LLVM IR, assembly or object code; None when its
    diagnostics were reported (the run fails unless they were expected), an exit
    status when LLVM rejects what mlc wrote (an internal error)."""
    from mlc.ir.core.dialect_registry import Context
    from mlc.ir.diagnostics import DiagnosticError
    from mlc.ir.text.parser import parse_module
    from mlc.ir.verify.verifier import Verifier
    from mlc.llvm.dialect.translation import (
        TranslationError,
        llvm_ir_as_printed,
        translate_to_llvm_ir,
    )
    from mlc.llvm.jit import optimize_module, parse_llvm_ir

    began = time.perf_counter()
    try:
        module = parse_module(text[start:end], Context(allow_unregistered=args.allow_unregistered_dialect),
                              source=source, base_offset=start,
                              implicit_module=not args.no_implicit_module)
    except DiagnosticError as exc:
        reporter.report(exc.diagnostics)
        return None
    diagnostics = Verifier().verify(module)
    if any(d.severity == "error" for d in diagnostics):
        reporter.report(diagnostics)
        return None
    stages.append(("parse and verify MLIR", time.perf_counter() - began))
    began = time.perf_counter()
    try:
        ir_text = translate_to_llvm_ir(module)
    except TranslationError as exc:
        reporter.report(exc.diagnostics)
        if not reporter.verifying and any(not op.name.startswith("llvm.") for op in module.walk()
                                          if op is not module):
            sys.stderr.write("note: mlc-translate reads the llvm dialect; lower a module "
                             "first with mlc-opt -p convert-scf-to-cf,convert-to-llvm\n")
        return None
    reporter.report(diagnostics)  # warnings and remarks of the verifier, if any
    stages.append(("translation to LLVM IR", time.perf_counter() - began))
    began = time.perf_counter()
    try:
        llvm_module = parse_llvm_ir(ir_text, args.input)
    except DiagnosticError as exc:
        sys.stderr.write("mlc-translate: internal error: LLVM rejects the translation:\n"
                         + "".join(f"{d.message}\n" for d in exc.diagnostics))
        return 2
    stages.append(("LLVM parse and verify", time.perf_counter() - began))
    if opt_level:
        began = time.perf_counter()
        optimize_module(llvm_module, target, jit=False)
        stages.append((f"LLVM optimisation -O{opt_level}", time.perf_counter() - began))
    began = time.perf_counter()
    if mode == "llvmir":
        # LLVM's own printing (opaque pointers, attribute groups, numbered values), as
        # mlir-translate prints, whatever llvmlite's text looked like.
        output: str | bytes = llvm_ir_as_printed(llvm_module)
    else:
        machine = target.target_machine(jit=False)
        output = (machine.emit_assembly(llvm_module) if mode == "asm"
                  else machine.emit_object(llvm_module))
    stages.append(("code generation" if mode != "llvmir" else "printing",
                   time.perf_counter() - began))
    return output


def main(argv: list[str] | None = None) -> int:
    """Run mlc-translate on `argv` (default: the command line); the exit status."""
    parser = build_arg_parser()
    argv = sys.argv[1:] if argv is None else argv
    return run_tool("mlc-translate", parser, run, with_long_options_spelled(parser, argv))


def entry() -> None:
    """The console script."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    entry()
