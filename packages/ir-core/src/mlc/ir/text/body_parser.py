"""Reading the body of a dialect type or attribute: `<4 x i8>`, `<fast>`.

A dialect's `parse_body(parser)` uses this small cursor over the body text; nested
types and attributes go back through the main grammar.
"""

from __future__ import annotations

import re

from mlc.ir.core.attributes import Attribute, Type
from mlc.ir.diagnostics import DiagnosticError

_TOKEN_RE = re.compile(r'\s*(?:(?P<kw>[A-Za-z_][\w$.]*)|(?P<int>-?[0-9]+)|(?P<str>"(?:[^"\\]|\\.)*")'
                       r"|(?P<punct>->|::|[<>()\[\]{},=:?*+|]))")


class AsmBodyParser:
    """A cursor over a dialect body with MLIR's DialectAsmParser-style methods."""

    def __init__(self, text: str, state, offset: int):
        self.text = text
        self.state = state
        self.offset = offset
        self.pos = 0

    def error(self, message: str) -> DiagnosticError:
        return self.state.error(message, self.offset + self.pos)

    def _peek(self):
        m = _TOKEN_RE.match(self.text, self.pos)
        if m is None or m.end() == self.pos:
            return None
        return m

    def at_end(self) -> bool:
        return not self.text[self.pos:].strip()

    def expect_end(self) -> None:
        if not self.at_end():
            raise self.error(f"unexpected '{self.text[self.pos:].strip()[:20]}' in dialect body")

    def optional(self, punct: str) -> bool:
        """Consume `punct` if it is next."""
        m = self._peek()
        if m is not None and m.group("punct") == punct:
            self.pos = m.end()
            return True
        return False

    def expect(self, punct: str) -> None:
        if not self.optional(punct):
            raise self.error(f"expected '{punct}'")

    def optional_keyword(self) -> str | None:
        m = self._peek()
        if m is not None and m.group("kw"):
            self.pos = m.end()
            return m.group("kw")
        return None

    def keyword(self) -> str:
        word = self.optional_keyword()
        if word is None:
            raise self.error("expected a keyword")
        return word

    def integer(self) -> int:
        m = self._peek()
        if m is None or m.group("int") is None:
            raise self.error("expected an integer")
        self.pos = m.end()
        return int(m.group("int"))

    def string(self) -> str:
        from mlc.ir.text.literals import unescape_string

        m = self._peek()
        if m is None or m.group("str") is None:
            raise self.error("expected a string")
        self.pos = m.end()
        return unescape_string(m.group("str"))

    def _extent(self) -> tuple[int, int]:
        """The span of the next type/attribute: up to a top-level `,` `>` `)` or `]`."""
        start = self.pos
        while start < len(self.text) and self.text[start].isspace():
            start += 1
        depth = 0
        i = start
        while i < len(self.text):
            c = self.text[i]
            if c == '"':
                i += 1
                while i < len(self.text) and self.text[i] != '"':
                    i += 2 if self.text[i] == "\\" else 1
            elif c == "-" and self.text[i + 1:i + 2] == ">":
                i += 1
            elif c in "<([{":
                depth += 1
            elif c in ">)]}":
                if depth == 0:
                    break
                depth -= 1
            elif c == "," and depth == 0:
                break
            i += 1
        return start, i

    def type(self) -> Type:
        start, end = self._extent()
        result = self.state.sub_parse(self.text[start:end], "type_start", self.offset + start)
        self.pos = end
        return result

    def attribute(self) -> Attribute:
        start, end = self._extent()
        result = self.state.sub_parse(self.text[start:end], "attribute_start", self.offset + start)
        self.pos = end
        return result
