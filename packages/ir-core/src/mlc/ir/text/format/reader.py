"""Reading an assembly format (MLIR's ODS format language) into elements.

    $name                         an operand, result, attribute, region, successor
                                  (or a type's/attribute's parameter)
    `keyword`  `,`  ``            literals (the empty literal suppresses a space)
    type($x)  type(operands)      types
    functional-type(ins, outs)    `(ins) -> outs`
    attr-dict  attr-dict-with-keyword
    operands                      every operand
    ( ... $anchor^ ... )?         an optional group
    custom<Name>(params)          a named directive
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from mlc.ir.text.format.elements import (
    AllOperands,
    AllResults,
    AttrDict,
    Custom,
    Element,
    FormatError,
    FunctionalType,
    Group,
    Literal,
    TypeOf,
    Var,
    var_for,
)

_TOKEN_RE = re.compile(r"\s*(?:(?P<var>\$[A-Za-z_]\w*)|`(?P<lit>[^`]*)`|(?P<punct>[()?^,:<>])"
                       r"|(?P<word>[A-Za-z_][\w-]*))")


def _tokenize(owner: str, fmt: str) -> list[tuple[str, str]]:
    tokens = []
    pos = 0
    fmt = fmt.strip()
    while pos < len(fmt):
        m = _TOKEN_RE.match(fmt, pos)
        if m is None or m.end() == pos:
            raise FormatError(f"'{owner}' format: cannot read {fmt[pos:]!r}")
        kind = m.lastgroup
        tokens.append((kind, m.group(kind)))
        pos = m.end()
        while pos < len(fmt) and fmt[pos].isspace():
            pos += 1
    return tokens


class FormatReader:
    """Reads one format; `parts` maps `$name`s to declarations, `directive` finds a
    `custom<Name>` directive (or None)."""

    def __init__(self, owner: str, fmt: str, parts: dict[str, Any],
                 directive: Callable[[str], Any]):
        self.owner = owner
        self.tokens = _tokenize(owner, fmt)
        self.pos = 0
        self.parts = parts
        self.directive = directive

    def error(self, message: str) -> FormatError:
        return FormatError(f"'{self.owner}' format: {message}")

    def read(self) -> list[Element]:
        elements = self.elements()
        if self.pos != len(self.tokens):
            raise self.error(f"unexpected {self.tokens[self.pos][1]!r}")
        return elements

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, kind: str | None = None, value: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if tok is None or (kind and tok[0] != kind) or (value and tok[1] != value):
            got = "the end" if tok is None else repr(tok[1])
            raise self.error(f"expected {value or kind}, got {got}")
        self.pos += 1
        return tok

    def elements(self, until: str | None = None) -> list:
        out = []
        while True:
            tok = self.peek()
            if tok is None or (until and tok == ("punct", until)):
                return out
            out.append(self.element())

    def var(self) -> Var:
        _, text = self.take("var")
        definition = self.parts.get(text[1:])
        if definition is None:
            raise self.error(f"no operand, result, attribute, region, successor or parameter "
                             f"named {text!r}")
        return var_for(definition)

    def ref(self) -> Element:
        tok = self.peek()
        if tok == ("word", "operands"):
            self.pos += 1
            return AllOperands()
        if tok == ("word", "results"):
            self.pos += 1
            return AllResults()
        return self.var()

    def element(self):
        kind, text = self.take()
        if kind == "lit":
            return Literal(text)
        if kind == "var":
            self.pos -= 1
            return self._maybe_anchor(self.var())
        if kind == "word":
            if text == "type":
                self.take("punct", "(")
                target = self.ref()
                self.take("punct", ")")
                return self._maybe_anchor(TypeOf(target))
            if text == "functional-type":
                self.take("punct", "(")
                inputs = self.ref()
                self.take("punct", ",")
                results = self.ref()
                self.take("punct", ")")
                return FunctionalType(inputs, results)
            if text in ("attr-dict", "attr-dict-with-keyword"):
                return AttrDict(text == "attr-dict-with-keyword")
            if text == "operands":
                return self._maybe_anchor(AllOperands())
            if text == "custom":
                return self.custom()
            raise self.error(f"unknown directive {text!r}")
        if (kind, text) == ("punct", "("):
            return self.group()
        raise self.error(f"unexpected {text!r}")

    def custom(self) -> Custom:
        self.take("punct", "<")
        _, name = self.take("word")
        self.take("punct", ">")
        self.take("punct", "(")
        params: list[Element] = []
        while self.peek() != ("punct", ")"):
            tok = self.peek()
            if tok == ("word", "type"):
                self.pos += 1
                self.take("punct", "(")
                params.append(TypeOf(self.ref()))
                self.take("punct", ")")
            else:
                params.append(self.var())
            if self.peek() == ("punct", ","):
                self.pos += 1
        self.take("punct", ")")
        directive = self.directive(name)
        if directive is None:
            raise self.error(f"unknown custom directive {name!r}")
        return Custom(directive, params)

    def group(self) -> Group:
        inner = self.elements(until=")")
        self.take("punct", ")")
        self.take("punct", "?")
        anchor = None
        cleaned = []
        for element in inner:
            if isinstance(element, tuple):
                if anchor is not None:
                    raise self.error("an optional group has one anchor")
                anchor = element[1]
                element = element[1]
            cleaned.append(element)
        if anchor is None:
            raise self.error("optional group without anchor")
        if not cleaned:
            raise self.error("empty optional group")
        return Group(cleaned, anchor)

    def _maybe_anchor(self, element):
        if self.peek() == ("punct", "^"):
            self.pos += 1
            return ("anchor", element)
        return element
