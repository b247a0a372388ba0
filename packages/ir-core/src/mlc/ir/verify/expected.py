"""`--verify-diagnostics`: check emitted diagnostics against `// expected-...` comments.

MLIR's convention, read as mlir-opt-22 reads it: a line holding
`expected-error {{text}}` (or `warning`, `note`, `remark`), the `}}` ending the line,
expects a diagnostic of that severity on that line whose message contains `text`.
A designator points elsewhere: `@+N` and `@-N` N lines down or up, `@above` at the
closest line above holding no expectation, `@below` at the closest such line below,
`@unknown` at a diagnostic without a file location. `expected-error-re` reads each
`{{...}}` inside the text as a regular expression. The expectations of the whole file
are read once, also with --split-input-file (an offset may point into another chunk).
An expectation is met by every diagnostic it matches; every diagnostic, notes
included, must be expected.

Where mlc is stricter than mlir-opt: mlir-opt ignores a line that starts an
expectation but is not one (`expected-error@x {{...}}`, `expected-error {{text` with
no closing `}}`), so a typo silently turns the check off; mlc reports such a line as
an error, and the run fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mlc.ir.core.attributes import file_line_col
from mlc.ir.diagnostics import Diagnostic, SourceFile

# MLIR's own pattern (mlir/lib/IR/Diagnostics.cpp), applied to each line without its
# trailing blanks: the text runs from the first `{{` to the `}}` ending the line.
_EXPECTATION_RE = re.compile(
    r"expected-(?P<severity>error|note|remark|warning)(?P<regex>-re)? *"
    r"(?:@(?P<designator>[+-][0-9]+|above|below|unknown))? *\{\{(?P<text>.*)\}\}$")
# A line that starts an expectation: anything matching this but not the pattern above
# is malformed.
_ATTEMPT_RE = re.compile(r"expected-(?:error|note|remark|warning)(?:-re)? *(?P<next>@|\{\{)")
_DESIGNATOR_RE = re.compile(r"@(?:[+-][0-9]+|above|below|unknown)(?= |\{\{|$)")
_LLVM_BLANKS = " \t\n\v\f\r"
# POSIX bracket classes of ERE (what llvm::Regex speaks) in Python's `re` spelling.
_POSIX_CLASSES = {
    "[:alnum:]": "0-9A-Za-z", "[:alpha:]": "A-Za-z", "[:blank:]": " \\t",
    "[:cntrl:]": "\\x00-\\x1f\\x7f", "[:digit:]": "0-9", "[:graph:]": "!-~",
    "[:lower:]": "a-z", "[:print:]": " -~", "[:punct:]": "!-/:-@\\[-`{-~",
    "[:space:]": " \\t\\n\\r\\f\\v", "[:upper:]": "A-Z", "[:xdigit:]": "0-9A-Fa-f",
}


@dataclass
class Expectation:
    """One `expected-<severity>` comment: what it expects, and on which line."""

    severity: str
    line: int | None  # None: `@unknown`, a diagnostic without a file location
    text: str
    pattern: re.Pattern[str] | None  # for `expected-<severity>-re`
    offset: int  # of `expected-` in the file, where problems with it are reported
    met: bool = False

    def matches(self, message: str) -> bool:
        if self.pattern is not None:
            return self.pattern.search(message) is not None
        return self.text in message


class ExpectedDiagnostics:
    """The expectations written in one input file, checked against the diagnostics of
    every chunk of it. `problems` starts with the malformed expectations; `check` and
    `finish` return what they find wrong, as error diagnostics to report."""

    def __init__(self, source: SourceFile):
        self.source = source
        self.expectations: list[Expectation] = []
        self.problems: list[Diagnostic] = []
        self._read()

    def _read(self) -> None:
        text = self.source.text
        starts = self.source.line_starts
        last_plain_line = 0  # the last line holding no expectation (0: none yet)
        waiting_below: list[Expectation] = []
        for index, start in enumerate(starts):
            line = index + 1
            end = text.find("\n", start)
            line_text = text[start:end if end != -1 else len(text)].rstrip(_LLVM_BLANKS)
            m = _EXPECTATION_RE.search(line_text)
            if m is None:
                for expectation in waiting_below:
                    expectation.line = line
                waiting_below.clear()
                last_plain_line = line
                self._check_malformed(line_text, start)
                continue
            expectation = Expectation(m["severity"], line, m["text"], None, start + m.start())
            if m["regex"] and not self._compile(expectation):
                continue
            designator = m["designator"]
            if designator is None:
                pass
            elif designator[0] in "+-":
                expectation.line = line + int(designator)
            elif designator == "unknown":
                expectation.line = None
            elif designator == "above":
                expectation.line = max(last_plain_line, 1)
            else:
                # Until a line without expectations follows, the last line (as MLIR).
                expectation.line = len(starts)
                waiting_below.append(expectation)
            self.expectations.append(expectation)

    def _check_malformed(self, line_text: str, line_start: int) -> None:
        attempt = _ATTEMPT_RE.search(line_text)
        if attempt is None:
            return
        where = line_start + attempt.start("next")
        if attempt["next"] == "@":
            designator = _DESIGNATOR_RE.match(line_text, where - line_start)
            if designator is None:
                word = re.match(r"@[^ {]*", line_text[where - line_start:])[0]
                self._problem(f"invalid designator '{word}': expected @+N, @-N, @above, "
                              "@below or @unknown", where, len(word))
                return
            rest = line_text[designator.end():]
            where = line_start + designator.end() + len(rest) - len(rest.lstrip(" "))
            if not rest.lstrip(" ").startswith("{{"):
                self._problem(f"expected '{{{{' after '{line_text[attempt.start():designator.end()]}'",
                              where)
                return
        self._problem("the expected text must end its line with '}}'", where, 2)

    def _compile(self, expectation: Expectation) -> bool:
        """MLIR's `-re` text: `{{...}}` blocks are regular expressions, the rest literal."""
        parts = []
        rest = expectation.text
        while rest:
            open_at = rest.find("{{")
            if open_at == -1:
                parts.append(re.escape(rest))
                break
            parts.append(re.escape(rest[:open_at]))
            rest = rest[open_at + 2:]
            close_at = rest.find("}}")
            if close_at == -1:
                self._problem("found start of regex with no end '}}'", expectation.offset,
                              len(expectation.text))
                return False
            block = rest[:close_at]
            for posix, spelled in _POSIX_CLASSES.items():
                block = block.replace(posix, spelled)
            try:
                re.compile(block)
            except re.error as exc:
                self._problem(f"invalid regex: {exc}", expectation.offset, len(expectation.text))
                return False
            parts.append(f"({block})")
            rest = rest[close_at + 2:]
        expectation.pattern = re.compile("".join(parts))
        return True

    def _problem(self, message: str, offset: int, length: int = 0) -> None:
        self.problems.append(Diagnostic("error", message, self.source.loc(offset), length=length))

    def check(self, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        """The diagnostics (and their notes) nothing expected: an error each."""
        problems: list[Diagnostic] = []
        for diag in diagnostics:
            for one in (diag, *diag.notes):
                problem = self._check_one(one)
                if problem is not None:
                    problems.append(problem)
        return problems

    def _check_one(self, diag: Diagnostic) -> Diagnostic | None:
        position = file_line_col(diag.loc) if diag.loc is not None else None
        if position is None:
            candidates = [e for e in self.expectations if e.line is None]
        elif position.filename == self.source.name:
            candidates = [e for e in self.expectations if e.line == position.line]
        else:
            candidates = []
        near_miss = None
        for expectation in candidates:
            if expectation.matches(diag.message):
                if expectation.severity == diag.severity:
                    expectation.met = True
                    return None
                near_miss = expectation
        if near_miss is not None:
            return Diagnostic("error", f"'{diag.severity}' diagnostic emitted when expecting a "
                                       f"'{near_miss.severity}'", self.source.loc(near_miss.offset))
        return Diagnostic("error", f"unexpected {diag.severity}: {diag.message}", diag.loc)

    def finish(self) -> list[Diagnostic]:
        """The expectations no diagnostic met: an error each, at the expectation."""
        # As MLIR: those of the file first, then those of `@unknown`.
        unmet = sorted((e for e in self.expectations if not e.met), key=lambda e: e.line is None)
        return [Diagnostic("error", f"expected {e.severity} \"{e.text}\" was not produced",
                           self.source.loc(e.offset), length=len(e.text))
                for e in unmet]
