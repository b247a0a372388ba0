"""Time parse / verify / (pass) / print of one file inside one Python process.

    python phases.py mlc  FILE [--repeat N] [--pass NAME]   # with mlc's venv
    python phases.py xdsl FILE [--repeat N] [--pass NAME]   # with xdsl's venv

Prints one JSON object: the best time in seconds of each phase over `--repeat` runs,
and the library version. Before timing, a small module (`WARM_UP`) goes through all
phases once, so one-time set-up (imports, parser tables, pass and pattern
registration, plugin loading) is not counted.

With `--pass NAME` (`canonicalize`, `cse`) a `pass` phase runs that pass between
verify and print, each run on a freshly parsed module:

* mlc: `run_pipeline(module, "builtin.module(NAME)", verify_each=False)` inside
  `PassContext(opt_level=3)`, the pipeline mlc-opt builds for `--NAME`;
* xdsl: `get_all_passes()[NAME]()().apply(ctx, module)`, which is what
  `xdsl-opt -p NAME` calls (`CanonicalizePass`, `CommonSubexpressionElimination`).

Neither verifies inside the timed pass phase (the command-line tools do verify
after the pass; the verify phase here is the one after parsing).

This file is run by other interpreters than the benchmark's (xdsl lives in its own
venv), so it uses only the standard library and the library it measures.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

# Goes through all phases once before timing. It uses the dialects of the workloads,
# so that per-dialect set-up (mlc builds its parser for the loaded dialects) is done,
# and has something for each pass to do (constants to fold and to deduplicate, x*1.0,
# x-0.0, a dead op), so that their patterns and folders are loaded.
WARM_UP = """func.func @f(%a: f32) -> f32 {
  %0 = arith.constant 2.500000e+00 : f32
  %1 = arith.addf %a, %0 : f32
  %2 = arith.mulf %1, %a : f32
  %3 = arith.subf %2, %0 : f32
  %4 = arith.constant 2.500000e+00 : f32
  %5 = arith.mulf %4, %0 : f32
  %6 = arith.constant 1.000000e+00 : f32
  %7 = arith.mulf %3, %6 : f32
  %8 = arith.constant 0.000000e+00 : f32
  %9 = arith.subf %7, %8 : f32
  %10 = arith.addf %9, %5 : f32
  %11 = arith.addf %a, %a : f32
  func.return %10 : f32
}
"""


@dataclass
class Library:
    """The phases of a round trip, for one IR library, and its passes."""

    version: str
    parse: Callable[[str, str], Any]
    verify: Callable[[Any], None]
    print: Callable[[Any], str]
    # The pass called NAME, as a function that applies it to a module in place.
    get_pass: Callable[[str], Callable[[Any], None]]


def _version(*distributions: str) -> str:
    for name in distributions:
        try:
            return version(name)
        except PackageNotFoundError:
            continue
    return "unknown"


def mlc_library() -> Library:
    from mlc.ir import Context, parse_module, print_op, verify

    return Library(
        version=_version("mlc-ir-core", "mlc-ir", "mlc-tools"),
        parse=lambda text, name: parse_module(text, Context(), filename=name),
        verify=verify,
        print=print_op,
        get_pass=_mlc_pass,
    )


def _mlc_pass(name: str) -> Callable[[Any], None]:
    """mlc's pass `name` as mlc-opt runs it for `--NAME` (the pipeline text is
    parsed here, outside the timed phase)."""
    from mlc.ir.passes.context import PassContext
    from mlc.ir.passes.manager import run_pipeline
    from mlc.ir.passes.pipeline import parse_pipeline

    pipeline = parse_pipeline(f"builtin.module({name})")

    def apply(module: Any) -> None:
        with PassContext(opt_level=3):
            result = run_pipeline(module, pipeline, verify_each=False)
        if not result.success:
            messages = "; ".join(d.message for d in result.diagnostics) or "no message"
            raise RuntimeError(f"pass {name} failed: {messages}")

    return apply


def _xdsl_context() -> Any:
    """An xdsl context with builtin, func and arith, across xdsl versions."""
    try:
        from xdsl.context import Context
    except ImportError:
        try:
            from xdsl.context import MLContext as Context
        except ImportError:  # xdsl before 0.21
            from xdsl.ir import MLContext as Context
    from xdsl.dialects.arith import Arith
    from xdsl.dialects.builtin import Builtin
    from xdsl.dialects.func import Func

    ctx = Context()
    for dialect in (Builtin, Func, Arith):
        ctx.load_dialect(dialect)
    return ctx


def xdsl_library() -> Library:
    from xdsl.parser import Parser
    from xdsl.printer import Printer

    def parse(text: str, name: str) -> Any:
        return Parser(_xdsl_context(), text, name).parse_module()

    def print_module(module: Any) -> str:
        stream = io.StringIO()
        Printer(stream=stream).print_op(module)
        return stream.getvalue()

    return Library(
        version=_version("xdsl"),
        parse=parse,
        verify=lambda module: module.verify(),
        print=print_module,
        get_pass=_xdsl_pass,
    )


def _xdsl_pass(name: str) -> Callable[[Any], None]:
    """xdsl's pass `name` from the registry xdsl-opt's `-p` uses, applied with a
    context like xdsl-opt's: the workload dialects loaded, all others registered."""
    from xdsl.transforms import get_all_passes

    ctx = _xdsl_context()
    try:
        from xdsl.universe import Universe

        for dialect_name, factory in Universe.get_multiverse().all_dialects.items():
            try:
                ctx.register_dialect(dialect_name, factory)
            except Exception:  # already loaded (builtin, func, arith)
                pass
    except ImportError:  # older xdsl: the three dialects are enough for these passes
        pass
    pass_ = get_all_passes()[name]()()
    return lambda module: pass_.apply(ctx, module)


LIBRARIES: dict[str, Callable[[], Library]] = {"mlc": mlc_library, "xdsl": xdsl_library}


def _timed(function: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def measure(library: Library, text: str, name: str, repeat: int,
            pass_name: str | None = None) -> dict[str, float]:
    """Best time of each phase over `repeat` parse-verify-(pass-)print runs."""
    apply_pass = library.get_pass(pass_name) if pass_name else None
    warm_up = library.parse(WARM_UP, "warm-up.mlir")
    library.verify(warm_up)
    if apply_pass:
        apply_pass(warm_up)
    library.print(warm_up)
    del warm_up
    phases = ["parse", "verify", "print"]
    if apply_pass:
        phases.insert(2, "pass")
    best = dict.fromkeys(phases, float("inf"))
    for _ in range(repeat):
        gc.collect()
        times = {}
        times["parse"], module = _timed(library.parse, text, name)
        times["verify"], _ = _timed(library.verify, module)
        if apply_pass:
            times["pass"], _ = _timed(apply_pass, module)
        times["print"], output = _timed(library.print, module)
        if not output:
            raise RuntimeError("the printer returned no text")
        for phase, seconds in times.items():
            best[phase] = min(best[phase], seconds)
        del module, output
    return best


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", choices=sorted(LIBRARIES))
    parser.add_argument("file")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pass", dest="pass_name", metavar="NAME",
                        help="also time this pass (canonicalize, cse) after verify")
    args = parser.parse_args(argv)
    library = LIBRARIES[args.library]()
    with open(args.file, encoding="utf-8") as f:
        text = f.read()
    times = measure(library, text, args.file, args.repeat, args.pass_name)
    json.dump({**times, "version": library.version}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
