"""What the command-line tools share: argument errors as one diagnostic line,
writing an output file without ever losing the old one, reporting internal errors."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import warnings
from collections.abc import Iterator

MAX_BENCHMARK_RUNS = 1_000_000


def _checked(text: str, parse, valid, what: str):
    """`parse(text)` if it parses and is `valid`, else argparse's error: `what` the
    value must be."""
    try:
        value = parse(text)
    except ValueError:
        value = None
    if value is None or not valid(value):
        raise argparse.ArgumentTypeError(f"{what}, got '{text}'")
    return value


def tolerance(text: str) -> float:
    """An argparse type: a tolerance, a finite number >= 0 (not NaN)."""
    return _checked(text, float, lambda v: 0 <= v < float("inf"),
                    "a tolerance is a finite number >= 0")


def seed(text: str) -> int:
    """An argparse type: a random seed, an integer >= 0."""
    return _checked(text, int, lambda v: v >= 0, "a seed is an integer >= 0")


def run_count(text: str) -> int:
    """An argparse type: a number of timed runs, 1 to MAX_BENCHMARK_RUNS."""
    return _checked(text, int, lambda v: 1 <= v <= MAX_BENCHMARK_RUNS,
                    f"takes 1 to {MAX_BENCHMARK_RUNS:,} runs")


class ToolArgumentParser(argparse.ArgumentParser):
    """argparse with its errors as `prog: error: ...` after the usage, exit status 1."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(1)


def with_long_options_spelled(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """`argv` with each long option of `parser` written with one dash, as MLIR's tools
    accept them (`-split-input-file`, `-mlir-to-llvmir=...`), given its second dash."""
    known = {opt for action in parser._actions for opt in action.option_strings}
    return ["-" + arg if len(arg) > 2 and arg[0] == "-" and arg[1].isalpha()
            and f"-{arg.split('=', 1)[0]}" in known else arg for arg in argv]


def write_output(path: str, text: str) -> None:
    """Write `text` to `path` ('-' is stdout); a file is written whole, then renamed into
    place (see :func:`mlc.ir.core.files.write_text_file`), so a failed run never leaves
    a partial or clobbered output."""
    if path == "-":
        sys.stdout.write(text)
        return
    from mlc.ir.core.files import write_text_file  # lazily: `mlc.ir` costs start-up time

    write_text_file(path, text)


def write_binary_output(path: str, data: bytes) -> None:
    """Write `data` to `path` as write_output writes text ('-' is stdout's bytes)."""
    if path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        return
    from mlc.ir.core.files import write_file

    write_file(path, data)


def internal_error(tool: str, exc: BaseException) -> int:
    """Report an unexpected exception as the bug it is, without a traceback (unless
    MLC_DEBUG is set, then re-raise); the exit status for it."""
    if os.environ.get("MLC_DEBUG"):
        raise exc
    sys.stderr.write(f"{tool}: internal error: {type(exc).__name__}: {exc}\n"
                     "This is a bug in mlc; rerun with MLC_DEBUG=1 for a traceback and "
                     "report it.\n")
    return 2


class UsageError(Exception):
    """A problem with how a tool was called, said in one line (`tool: error: ...`)."""


def thread_count(text: str) -> int:
    """An argparse `type` for `--threads N`: a whole number from 1 to the most threads
    a build may use."""
    from mlc.llvm.openmp import MAX_THREADS  # lazily: the backend may not be installed

    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not 1 <= value <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"a whole number of threads from 1 to {MAX_THREADS} "
                                         f"is expected, not '{text}'")
    return value


def resolved_threads(threads: int | None) -> int:
    """`--threads` or its default (MLC_NUM_THREADS, else the cores this process may
    use); UsageError for a bad MLC_NUM_THREADS."""
    from mlc.llvm.openmp import resolve_num_threads

    try:
        return resolve_num_threads(threads)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


@contextlib.contextmanager
def warnings_as_lines(prog: str) -> Iterator[None]:
    """Within the block, a warning the library issues is one line on stderr,
    `prog: warning: message`, instead of Python's two-line report."""
    def show(message, category, filename, lineno, file=None, line=None):
        sys.stderr.write(f"{prog}: warning: {message}\n")

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


def run_tool(prog: str, parser: argparse.ArgumentParser, run, argv: list[str] | None) -> int:
    """Parse `argv` with `parser` and call `run(args)`; the exit status. A UsageError is
    one diagnostic line and status 1, running out of memory too, a warning one line (see
    warnings_as_lines), an interrupt 130, a closed pipe 1, and anything else an internal
    error (see internal_error), never a traceback."""
    args = parser.parse_args(argv)
    try:
        with warnings_as_lines(prog):
            return run(args)
    except UsageError as exc:
        sys.stderr.write(f"{prog}: error: {exc}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except MemoryError as exc:  # a resource, not a bug: say what could not be had
        sys.stderr.write(f"{prog}: error: out of memory{': ' + str(exc) if str(exc) else ''}\n")
        return 1
    except BrokenPipeError:
        return 1
    except Exception as exc:  # a bug: say so, without a traceback
        return internal_error(prog, exc)
