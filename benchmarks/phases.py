"""Time parse / verify / print of one file inside one Python process.

    python phases.py mlc  FILE [--repeat N]   # with mlc's venv
    python phases.py xdsl FILE [--repeat N]   # with xdsl's venv

Prints one JSON object: the best time in seconds of each phase over `--repeat` runs,
and the library version. Before timing, a small module (`WARM_UP`) goes through all
three phases once, so one-time set-up (imports, parser tables) is not counted.

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
# so that per-dialect set-up (mlc builds its parser for the loaded dialects) is done.
WARM_UP = """func.func @f(%a: f32) -> f32 {
  %0 = arith.constant 2.500000e+00 : f32
  %1 = arith.addf %a, %0 : f32
  %2 = arith.mulf %1, %a : f32
  %3 = arith.subf %2, %0 : f32
  func.return %3 : f32
}
"""


@dataclass
class Library:
    """The three phases of a round trip, for one IR library."""

    version: str
    parse: Callable[[str, str], Any]
    verify: Callable[[Any], None]
    print: Callable[[Any], str]


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
    )


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
    )


LIBRARIES: dict[str, Callable[[], Library]] = {"mlc": mlc_library, "xdsl": xdsl_library}


def _timed(function: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def measure(library: Library, text: str, name: str, repeat: int) -> dict[str, float]:
    """Best time of each phase over `repeat` parse-verify-print runs."""
    library.print(library.parse(WARM_UP, "warm-up.mlir"))
    best = {"parse": float("inf"), "verify": float("inf"), "print": float("inf")}
    for _ in range(repeat):
        gc.collect()
        parse_time, module = _timed(library.parse, text, name)
        verify_time, _ = _timed(library.verify, module)
        print_time, output = _timed(library.print, module)
        if not output:
            raise RuntimeError("the printer returned no text")
        for phase, seconds in (("parse", parse_time), ("verify", verify_time),
                               ("print", print_time)):
            best[phase] = min(best[phase], seconds)
        del module, output
    return best


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", choices=sorted(LIBRARIES))
    parser.add_argument("file")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    library = LIBRARIES[args.library]()
    with open(args.file, encoding="utf-8") as f:
        text = f.read()
    times = measure(library, text, args.file, args.repeat)
    json.dump({**times, "version": library.version}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
