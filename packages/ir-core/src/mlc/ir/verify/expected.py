"""`--verify-diagnostics`: check emitted diagnostics against `// expected-...` comments.

MLIR's convention: `// expected-error {{message}}` on the line the diagnostic points
at, or `@+N`, `@-N`, `@above`, `@below` to point elsewhere; `warning`, `note` and
`remark` likewise. Each expectation must be met by a diagnostic of that severity on
that line whose message contains the text, and every diagnostic (notes included) must
be expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mlc.ir.core.attributes import file_line_col
from mlc.ir.diagnostics import Diagnostic, SourceFile

_EXPECTED_RE = re.compile(
    r"expected-(?P<severity>error|warning|note|remark)"
    r"(?:@(?P<offset>[+-][0-9]+|above|below))?\s*\{\{(?P<message>.*?)\}\}")


@dataclass
class Expectation:
    severity: str
    line: int
    message: str
    comment_line: int
    met: bool = False


def collect_expectations(source: SourceFile, start: int = 0, end: int | None = None) -> list[Expectation]:
    """The expectations written in `source.text[start:end]`."""
    text = source.text[start:end]
    first_line, _ = source.line_col(start)
    expectations = []
    for index, line_text in enumerate(text.split("\n")):
        for m in _EXPECTED_RE.finditer(line_text):
            line = first_line + index
            offset = m.group("offset")
            target = line
            if offset == "above":
                target = line - 1
            elif offset == "below":
                target = line + 1
            elif offset:
                target = line + int(offset)
            expectations.append(Expectation(m.group("severity"), target, m.group("message"), line))
    return expectations


def check_diagnostics(diagnostics: list[Diagnostic], expectations: list[Expectation],
                      source: SourceFile) -> list[Diagnostic]:
    """Problems found: unexpected diagnostics and unmet expectations, as errors."""
    problems: list[Diagnostic] = []
    flat: list[Diagnostic] = []
    for diag in diagnostics:
        flat.append(diag)
        flat.extend(diag.notes)
    for diag in flat:
        position = file_line_col(diag.loc) if diag.loc is not None else None
        line = position.line if position is not None and position.filename == source.name else None
        for expectation in expectations:
            if (not expectation.met and expectation.severity == diag.severity
                    and expectation.line == line and expectation.message in diag.message):
                expectation.met = True
                break
        else:
            where = diag.loc if line is not None else None
            problems.append(Diagnostic("error", f"unexpected {diag.severity}: {diag.message}", where))
    for expectation in expectations:
        if not expectation.met:
            problems.append(Diagnostic(
                "error",
                f"expected {expectation.severity} \"{expectation.message}\" was not produced",
                source.loc(source.line_starts[expectation.comment_line - 1])))
    return problems
