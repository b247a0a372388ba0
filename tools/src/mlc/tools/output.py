"""What the command-line tools share: argument errors as one diagnostic line,
writing an output file without ever losing the old one, reporting internal errors."""

from __future__ import annotations

import argparse
import os
import sys


class ToolArgumentParser(argparse.ArgumentParser):
    """argparse with its errors as `prog: error: ...` after the usage, exit status 1."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(1)


def write_output(path: str, text: str) -> None:
    """Write `text` to `path` ('-' is stdout). A regular file is written to a temporary
    file beside it and renamed into place, so a failed run never leaves a partial or
    clobbered output; a device or pipe (/dev/null) is written directly, never replaced."""
    if path == "-":
        sys.stdout.write(text)
        return
    if os.path.exists(path) and not os.path.isfile(path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    directory = os.path.dirname(os.path.abspath(path))
    temp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(temp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def internal_error(tool: str, exc: BaseException) -> int:
    """Report an unexpected exception as the bug it is, without a traceback (unless
    MLC_DEBUG is set, then re-raise); the exit status for it."""
    if os.environ.get("MLC_DEBUG"):
        raise exc
    sys.stderr.write(f"{tool}: internal error: {type(exc).__name__}: {exc}\n"
                     "This is a bug in mlc; rerun with MLC_DEBUG=1 for a traceback and "
                     "report it.\n")
    return 2
