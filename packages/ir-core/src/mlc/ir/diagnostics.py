"""Diagnostics: severity, location, message and notes, rendered as compilers do.

    input.mlir:3:8: error: 'arith.addf' op requires the same type for all operands and results
      %1 = arith.addf %0, %a : f32
           ^

Every error mlc reports to a user travels as a :class:`Diagnostic`; the tools render
them with :class:`SourceManager` and never show a Python traceback.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mlc.ir.core.attributes import (
    FileLineColLoc,
    Location,
    UnknownLoc,
    call_stack,
    file_line_col,
)

SEVERITIES = ("error", "warning", "note", "remark")


@dataclass
class Diagnostic:
    """One message about the IR, with notes that point at related places. `length` is
    how many characters from `loc` on the message is about: more than one is drawn
    under the source line as `^~~~`, as LLVM's SourceMgr draws a range."""

    severity: str
    message: str
    loc: Location | None = None
    notes: list[Diagnostic] = field(default_factory=list)
    length: int = 0

    def add_note(self, message: str, loc: Location | None = None) -> Diagnostic:
        self.notes.append(Diagnostic("note", message, loc))
        return self


class DiagnosticError(Exception):
    """Carries diagnostics out of a failed parse, verification or pass."""

    def __init__(self, diagnostics: Diagnostic | Sequence[Diagnostic]):
        self.diagnostics = [diagnostics] if isinstance(diagnostics, Diagnostic) else list(diagnostics)
        super().__init__(self.diagnostics[0].message if self.diagnostics else "error")

    def __str__(self) -> str:
        """The diagnostics as compilers print them, one per line without the source
        (`input.mlir:3:8: error: ...`), so a bare `str(exc)` says where."""
        return "\n".join(_headline(d) for d in self.diagnostics) or "error"


def _headline(diag: Diagnostic) -> str:
    position = file_line_col(diag.loc) if diag.loc is not None else None
    if position is not None:
        where = f"{position.filename}:{position.line}:{position.column}: "
    elif diag.loc is not None and not isinstance(diag.loc, UnknownLoc):
        where = f"{diag.loc}: "
    else:
        where = ""
    return f"{where}{diag.severity}: {diag.message}"


def error(message: str, loc: Location | None = None) -> DiagnosticError:
    """A ready-to-raise error diagnostic."""
    return DiagnosticError(Diagnostic("error", message, loc))


class SourceFile:
    """The text of one input, with a line index for offset -> (line, column)."""

    def __init__(self, name: str, text: str):
        self.name = name
        self.text = text
        self._line_starts: list[int] | None = None

    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            pos = find("\n")
            while pos != -1:
                starts.append(pos + 1)
                pos = find("\n", pos + 1)
            self._line_starts = starts
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        starts = self.line_starts
        line = bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    def loc(self, offset: int) -> FileLineColLoc:
        line, col = self.line_col(offset)
        return FileLineColLoc(self.name, line, col)

    def line_text(self, line: int) -> str | None:
        starts = self.line_starts
        if not 1 <= line <= len(starts):
            return None
        end = self.text.find("\n", starts[line - 1])
        return self.text[starts[line - 1]: end if end != -1 else len(self.text)]


class SourceManager:
    """The inputs diagnostics may point into, by file name."""

    def __init__(self):
        self.files: dict[str, SourceFile] = {}

    def add(self, name: str, text: str) -> SourceFile:
        source = SourceFile(name, text)
        self.files[name] = source
        return source

    def render(self, diag: Diagnostic) -> str:
        """`file:line:col: severity: message`, the source line with a caret, a "called
        from" note for each caller when the location is a call site, then notes."""
        lines: list[str] = []
        self._render_one(diag, lines)
        for caller in call_stack(diag.loc) if diag.loc is not None else ():
            self._render_one(Diagnostic("note", "called from", caller), lines)
        for note in diag.notes:
            self._render_one(note, lines)
        return "\n".join(lines) + "\n"

    def _render_one(self, diag: Diagnostic, lines: list[str]) -> None:
        position = file_line_col(diag.loc) if diag.loc is not None else None
        lines.append(_headline(diag))
        if position is None:
            return
        source = self.files.get(position.filename)
        text = source.line_text(position.line) if source is not None else None
        if text is None:
            return
        # Characters a terminal would not show (NUL, control characters, a BOM) as one
        # visible replacement character each, so the caret stays under its column.
        lines.append("".join(c if c.isprintable() or c == "\t" else "\ufffd" for c in text))
        caret_pad = "".join(c if c == "\t" else " " for c in text[: max(position.column - 1, 0)])
        lines.append(caret_pad + "^" + "~" * (diag.length - 1))


DiagnosticHandler = Callable[[Diagnostic], None]
