"""MLIR's textual pass pipelines.

    builtin.module(func.func(cse,canonicalize{max-iterations=3}),symbol-dce)

An element is a registered pass (with `{key=value ...}` options), a named pipeline
(expanded in place), or `op-name(...)`: a nested pipeline run on each op of that name
directly inside the current op. An unanchored list (`cse,canonicalize`) means
`builtin.module(...)`; a pass anchored on another op is nested under it
implicitly. Errors are diagnostics with a caret into the pipeline string.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from mlc.ir.diagnostics import Diagnostic, DiagnosticError, SourceFile
from mlc.ir.passes.registry import PASSES, PIPELINES, Pass, load_pass_plugins, parse_option

ROOT_ANCHOR = "builtin.module"


@dataclass
class PipelineNode:
    """A pipeline anchored on ops named `anchor` (`None`: any op)."""

    anchor: str | None
    elements: list = field(default_factory=list)

    def text(self) -> str:
        """The canonical spelling, every option included."""
        inner = ",".join(e.text() if isinstance(e, PipelineNode) else e.pipeline_text()
                         for e in self.elements)
        return f"{self.anchor or 'any'}({inner})"

    def passes(self):
        for element in self.elements:
            if isinstance(element, PipelineNode):
                yield from element.passes()
            else:
                yield element


class PipelineError(DiagnosticError):
    """A malformed pipeline string."""


_NAME_RE = re.compile(r"[A-Za-z_][\w.\-]*")


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self.source = SourceFile("<pipeline>", text)

    def error(self, message: str, pos: int | None = None) -> PipelineError:
        return PipelineError(Diagnostic("error", message, self.source.loc(
            self.pos if pos is None else pos)))

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            found = f"'{self.peek()}'" if self.peek() else "end of pipeline"
            raise self.error(f"expected '{char}', found {found}")
        self.pos += 1

    def name(self) -> tuple[str, int]:
        self.skip_space()
        m = _NAME_RE.match(self.text, self.pos)
        if m is None:
            found = f"'{self.peek()}'" if self.peek() else "end of pipeline"
            raise self.error(f"expected a pass or op name, found {found}")
        self.pos = m.end()
        return m.group(), m.start()

    def options(self) -> list[tuple[str, str, int]]:
        """`{a=1 b=x,y c}` -> [(key, value, offset)], values may nest braces."""
        self.expect("{")
        items = []
        while True:
            self.skip_space()
            if self.peek() == "}":
                self.pos += 1
                return items
            key, start = self.name()
            value = ""
            if self.peek() == "=":
                self.pos += 1
                if self.pos < len(self.text) and self.text[self.pos] == '"':
                    close = self.text.find('"', self.pos + 1)
                    if close == -1:
                        raise self.error("unterminated string in pass options")
                    items.append((key, self.text[self.pos + 1:close], start))
                    self.pos = close + 1
                    continue
                begin = self.pos
                depth = 0
                while self.pos < len(self.text):
                    c = self.text[self.pos]
                    if c == "{":
                        depth += 1
                    elif c == "}":
                        if depth == 0:
                            break
                        depth -= 1
                    elif c.isspace() and depth == 0:
                        break
                    self.pos += 1
                value = self.text[begin:self.pos].strip()
                if value.startswith("{") and value.endswith("}"):
                    value = value[1:-1]
            items.append((key, value, start))
            if self.pos >= len(self.text):
                raise self.error("unterminated '{' in pass options")


def _make_pass(reader: _Reader, name: str, start: int, options) -> Pass:
    cls = PASSES[name]
    fields = {f.name: f for f in dataclasses.fields(cls.info.options)}
    values = {}
    for key, value, pos in options:
        field_name = key.replace("-", "_")
        if field_name not in fields:
            known = ", ".join(k.replace("_", "-") for k in fields) or "none"
            raise reader.error(f"pass '{name}' has no option '{key}' (options: {known})", pos)
        try:
            values[field_name] = parse_option(fields[field_name], value)
        except ValueError as exc:
            raise reader.error(f"invalid value for option '{key}' of '{name}': {exc}", pos) from None
    return cls(cls.info.options(**values))


def _elements(reader: _Reader, depth: int) -> list:
    elements: list = []
    if reader.peek() == ")":  # an empty nested pipeline, `func.func()`
        return elements
    while True:
        name, start = reader.name()
        if reader.peek() == "(":
            reader.pos += 1
            node = PipelineNode(None if name == "any" else name, _elements(reader, depth + 1))
            reader.expect(")")
            elements.append(node)
        elif name in PASSES:
            options = reader.options() if reader.peek() == "{" else []
            elements.append(_make_pass(reader, name, start, options))
        elif name in PIPELINES:
            if reader.peek() == "{":
                raise reader.error(f"named pipeline '{name}' takes no options")
            if depth > 32:
                raise reader.error(f"named pipeline '{name}' expands recursively", start)
            sub = _Reader(PIPELINES[name][0])
            expanded = _elements(sub, depth + 1)
            if sub.peek():
                raise sub.error("unexpected text after pipeline")
            elements.extend(expanded)
        else:
            raise reader.error(f"'{name}' does not refer to a registered pass or pass pipeline",
                               start)
        if reader.peek() == ",":
            reader.pos += 1
            continue
        return elements


def _nest_anchored(node: PipelineNode) -> PipelineNode:
    """Put passes anchored on another op under an implicit `op-name(...)`."""
    nested: list = []
    for element in node.elements:
        if isinstance(element, PipelineNode):
            nested.append(_nest_anchored(element))
            continue
        anchor = element.info.anchor
        if anchor is None or anchor == node.anchor:
            nested.append(element)
        elif nested and isinstance(nested[-1], PipelineNode) and nested[-1].anchor == anchor \
                and getattr(nested[-1], "implicit", False):
            nested[-1].elements.append(element)
        else:
            implicit = PipelineNode(anchor, [element])
            implicit.implicit = True  # type: ignore[attr-defined]
            nested.append(implicit)
    return PipelineNode(node.anchor, nested)


def parse_pipeline(text: str) -> PipelineNode:
    """Parse a pipeline string (see the module docstring)."""
    load_pass_plugins()
    reader = _Reader(text)
    if not reader.peek():
        return PipelineNode(ROOT_ANCHOR, [])
    elements = _elements(reader, 0)
    if reader.peek():
        raise reader.error(f"unexpected '{reader.peek()}' in pipeline")
    if len(elements) == 1 and isinstance(elements[0], PipelineNode) \
            and elements[0].anchor == ROOT_ANCHOR:
        root = elements[0]
    else:
        root = PipelineNode(ROOT_ANCHOR, elements)
    return _nest_anchored(root)


def pipeline_from_passes(passes: list[Pass]) -> PipelineNode:
    """A root pipeline of these passes (nesting anchored ones)."""
    return _nest_anchored(PipelineNode(ROOT_ANCHOR, list(passes)))
