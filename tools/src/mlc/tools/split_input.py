"""What mlc-opt and mlc-translate share for test inputs: `--split-input-file` (the chunks
between `// -----` lines, each processed alone) and `--verify-diagnostics` (each chunk's
diagnostics checked against the file's `expected-*` comments, see
:mod:`mlc.ir.verify.expected`, instead of printed).

    reporter = ChunkDiagnostics(sources, source, verify=args.verify_diagnostics)
    for start, end in input_chunks(text, args.split_input_file):
        ...
        reporter.report(diagnostics)
    failed = reporter.finish()
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

SPLIT_MARKER = "// -----"


def input_chunks(text: str, split: bool) -> list[tuple[int, int]]:
    """(start, end) offsets of each input chunk: the whole text unless `split`, else the
    pieces between `// -----` lines (the marker lines belong to none)."""
    if not split:
        return [(0, len(text))]
    chunks = []
    start = pos = 0
    for line in text.splitlines(keepends=True):
        if line.strip() == SPLIT_MARKER:
            chunks.append((start, pos))
            start = pos + len(line)
        pos += len(line)
    chunks.append((start, len(text)))
    return chunks


class ChunkDiagnostics:
    """Where a tool's diagnostics go, chunk by chunk: rendered to stderr, or, with
    `verify`, checked against the expectations written in `source` (read once from the
    whole file, as mlir-opt reads them, so an offset may point into another chunk).
    `failed` says whether the run must exit non-zero."""

    def __init__(self, sources, source, verify: bool):
        from mlc.ir.verify.expected import ExpectedDiagnostics

        self.sources = sources
        self.expected = ExpectedDiagnostics(source) if verify else None
        self.failed = False
        if self.expected is not None:
            self._write(self.expected.problems)

    @property
    def verifying(self) -> bool:
        return self.expected is not None

    def _write(self, problems: Iterable, render: Callable | None = None) -> None:
        problems = list(problems)
        for problem in problems:
            sys.stderr.write((render or self.sources.render)(problem))
        self.failed |= bool(problems)

    def report(self, diagnostics: list, render: Callable | None = None) -> None:
        """One chunk's diagnostics: checked (what nothing expected is an error), or
        printed with `render` (default: the source manager's), errors failing the run."""
        if self.expected is not None:
            self._write(self.expected.check(diagnostics))
            return
        for diag in diagnostics:
            sys.stderr.write((render or self.sources.render)(diag))
        self.failed |= any(d.severity == "error" for d in diagnostics)

    def finish(self) -> bool:
        """After the last chunk: the expectations nothing met are errors. Whether the
        run failed."""
        if self.expected is not None:
            self._write(self.expected.finish())
        return self.failed
