"""MLIR's textual pass pipelines.

    builtin.module(func.func(cse,canonicalize{max-iterations=3}),symbol-dce)

An element is a registered pass (with `{key=value ...}` options), a named pipeline
(expanded in place), or `op-name(...)`: a nested pipeline run on each op of that name
directly inside the current op (`any(...)`: on each op isolated from above).

A pipeline that is one `op-name(...)` runs on that op, as in mlir-opt: `func.func(cse)`
cannot run on a module. Any other list (`cse,func.func(dce)`) means
`builtin.module(...)`. A pass anchored on another op than its pipeline's is nested
under an implicit `op-name(...)` when its pipeline is on a symbol table or any op.

Everything that can be checked without the IR is checked here, each error located in
the pipeline text with a caret: the syntax, pass names, option names and values (type
and domain, even for passes that `--opt-level` will skip), repeated options, and
anchors — a pipeline on an op that is not isolated from above, a pass whose op lacks a
trait it needs (`func.func(symbol-dce)`), a pass anchored on an op it cannot be
nested under.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mlc.ir.core.attributes import Location
from mlc.ir.diagnostics import Diagnostic, DiagnosticError, SourceFile
from mlc.ir.opdef.traits import IsolatedFromAbove, SymbolTable
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.options import OptionError, describe_kind
from mlc.ir.passes.registry import PASSES, PIPELINES, Pass, load_pass_plugins, unknown_pass_message

ROOT_ANCHOR = "builtin.module"
PIPELINE_SOURCE = "<pipeline>"


@dataclass
class PipelineNode:
    """A pipeline anchored on ops named `anchor` (`None`: any op)."""

    anchor: str | None
    elements: list = field(default_factory=list)
    loc: Location | None = None  # where the pipeline text names the anchor
    implicit: bool = False  # made to nest a pass anchored on another op

    def text(self, pass_context: PassContext | None = None) -> str:
        """The canonical spelling, every option as a run under `pass_context` (default:
        the current one) uses it."""
        inner = ",".join(e.text(pass_context) if isinstance(e, PipelineNode)
                         else e.pipeline_text(pass_context) for e in self.elements)
        return f"{self.anchor or 'any'}({inner})"

    def passes(self):
        """Every pass of the pipeline, nested ones included, in order."""
        for element in self.elements:
            if isinstance(element, PipelineNode):
                yield from element.passes()
            else:
                yield element


class PipelineError(DiagnosticError):
    """A malformed pipeline string."""


_NAME_RE = re.compile(r"[A-Za-z_][\w.\-]*")


def _found(char: str) -> str:
    return f"'{char}'" if char else "end of pipeline"


class _Reader:
    """A cursor over pipeline text. A named pipeline's text is read by a reader whose
    diagnostics and locations are those of the place naming it."""

    def __init__(self, text: str, source: SourceFile, site: tuple[Location, str] | None = None):
        self.text = text
        self.pos = 0
        self.source = source
        self.site = site  # (location, pipeline name) of a named pipeline's use

    def loc(self, pos: int) -> Location:
        return self.site[0] if self.site else self.source.loc(pos)

    def error(self, message: str, pos: int | None = None) -> PipelineError:
        return PipelineError(self.diagnostic(message, pos))

    def diagnostic(self, message: str, pos: int | None = None) -> Diagnostic:
        if self.site:
            message = f"in named pipeline '{self.site[1]}': {message}"
        return Diagnostic("error", message, self.loc(self.pos if pos is None else pos))

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def name(self, what: str) -> tuple[str, int]:
        self.skip_space()
        m = _NAME_RE.match(self.text, self.pos)
        if m is None:
            raise self.error(f"expected {what}, found {_found(self.peek())}")
        self.pos = m.end()
        return m.group(), m.start()

    def options(self) -> list[tuple[str, int, str | None, int]]:
        """`{a=1 b=x,y c}` -> [(key, key offset, value or None, value offset)]; a value
        is `"quoted"`, `{braced}` (braces may nest), or runs to a space or `}`."""
        open_pos = self.pos
        self.pos += 1  # the '{'
        items = []
        while True:
            char = self.peek()
            if not char:
                raise self.error("unbalanced braces: this '{' is never closed", open_pos)
            if char == "}":
                self.pos += 1
                return items
            key, key_pos = self.name("an option name")
            if self.pos >= len(self.text) or self.text[self.pos] != "=":
                items.append((key, key_pos, None, key_pos))
                continue
            self.pos += 1
            value_pos = self.pos
            if self.text.startswith('"', self.pos):
                close = self.text.find('"', self.pos + 1)
                if close == -1:
                    raise self.error("unterminated '\"' in pass options", self.pos)
                items.append((key, key_pos, self.text[self.pos + 1:close], value_pos))
                self.pos = close + 1
                continue
            opened: list[int] = []
            while self.pos < len(self.text):
                char = self.text[self.pos]
                if char == "{":
                    opened.append(self.pos)
                elif char == "}":
                    if not opened:
                        break
                    opened.pop()
                elif char.isspace() and not opened:
                    break
                self.pos += 1
            if opened:
                raise self.error("unbalanced braces: this '{' is never closed", opened[-1])
            value = self.text[value_pos:self.pos]
            if value.startswith("{") and value.endswith("}"):
                value = value[1:-1]
            items.append((key, key_pos, value, value_pos))


class _Parser:
    def __init__(self, text: str):
        self.source = SourceFile(PIPELINE_SOURCE, text)
        self.expanding: list[str] = []  # named pipelines being expanded

    def pipeline(self) -> PipelineNode:
        reader = _Reader(self.source.text, self.source)
        if not reader.peek():
            return PipelineNode(ROOT_ANCHOR, [])
        elements, written = self.elements(reader, closing="")
        if len(written) == 1 and isinstance(written[0], PipelineNode):
            return written[0]  # `op-name(...)`: the pipeline runs on that op
        return PipelineNode(ROOT_ANCHOR, elements)

    def elements(self, reader: _Reader, closing: str) -> tuple[list, list]:
        """The elements of a list up to `closing` (not consumed; "" at the top) and
        those written in this text, before named pipelines are expanded."""
        elements: list = []
        written: list = []
        if closing and reader.peek() in (closing, ""):
            return elements, written  # an empty nested pipeline, `func.func()`
        while True:
            element = self.element(reader, elements)
            written.append(element)
            char = reader.peek()
            if char == ",":
                reader.pos += 1
                continue
            if char == closing or not char:
                return elements, written  # the caller reports a missing `closing`
            if char == ")":
                raise reader.error("unbalanced parentheses: ')' without a matching '('")
            if char == "}":
                raise reader.error("unbalanced braces: '}' without a matching '{'")
            expected = "',' or ')'" if closing else "',' between pipeline elements"
            raise reader.error(f"expected {expected}, found {_found(char)}")

    def element(self, reader: _Reader, out: list):
        """Parse one element, appending what it stands for to `out`; returns it as
        written (a named pipeline's name)."""
        name, start = reader.name("a pass or op name")
        if reader.peek() == "(":
            if name != "any" and "." not in name:
                raise reader.error(f"'{name}' is not an op name (dialect.op) or 'any': "
                                   "only ops have nested pipelines", start)
            open_pos = reader.pos
            reader.pos += 1
            elements, _ = self.elements(reader, closing=")")
            if reader.peek() != ")":
                raise reader.error("unbalanced parentheses: this '(' is never closed", open_pos)
            reader.pos += 1
            node = PipelineNode(None if name == "any" else name, elements, reader.loc(start))
            out.append(node)
            return node
        load_pass_plugins(name)
        if name in PASSES:
            options = reader.options() if reader.peek() == "{" else []
            pass_ = self.make_pass(reader, name, options)
            pass_.loc = reader.loc(start)
            out.append(pass_)
            return pass_
        if name in PIPELINES:
            if reader.peek() == "{":
                raise reader.error(f"named pipeline '{name}' takes no options")
            if name in self.expanding:
                raise reader.error(f"named pipeline '{name}' expands recursively", start)
            self.expanding.append(name)
            text = PIPELINES[name][0]
            sub = _Reader(text, SourceFile(f"<pipeline {name}>", text),
                          reader.site or (reader.loc(start), name))
            if sub.peek():
                elements, _ = self.elements(sub, closing="")
                out.extend(elements)
            self.expanding.pop()
            return name
        raise reader.error(unknown_pass_message(name), start)

    @staticmethod
    def make_pass(reader: _Reader, name: str, options) -> Pass:
        cls = PASSES[name]
        info = cls.info
        given: dict = {}
        where: dict[str, int] = {}
        for key, key_pos, text, value_pos in options:
            spec = info.option(key)
            if spec is None:
                raise reader.error(info.unknown_option_message(key), key_pos)
            if spec.field in where:
                error = reader.diagnostic(f"option '{spec.name}' of '{name}' is given twice", key_pos)
                error.add_note("first given here", reader.loc(where[spec.field]))
                raise PipelineError(error)
            where[spec.field] = key_pos
            if text is None:
                if spec.kind is not bool:
                    raise reader.error(f"option '{spec.name}' of '{name}' needs a value: "
                                       f"{describe_kind(spec.kind, spec.domain)}", key_pos)
                given[spec.field] = True
                continue
            try:
                given[spec.field] = spec.parse(text)
            except OptionError as exc:
                raise reader.error(f"invalid value for option '{spec.name}' of '{name}': {exc}",
                                   value_pos) from None
        return cls(**given)


def _op_class(anchor: str | None, ctx, loc: Location | None):
    """The registered op class named `anchor`, or None (any op, or an op of a dialect
    that is not installed). An unknown op of an installed dialect is an error."""
    if anchor is None:
        return None
    cls = ctx.get_op_class(anchor)
    if cls is None and "." in anchor and loc is not None:
        dialect = ctx.try_load(anchor.split(".", 1)[0])
        if dialect is not None:
            raise PipelineError(Diagnostic(
                "error", f"'{anchor}' is not an op of the '{dialect.name}' dialect", loc))
    return cls


def _traits(cls) -> frozenset:
    op_def = getattr(cls, "op_def", None)
    return op_def.trait_set if op_def is not None else frozenset()


def anchor_problem(pass_, op_name: str, traits) -> str | None:
    """Why `pass_` cannot run on an op named `op_name` with `traits`, or None."""
    missing = [t.name for t in pass_.info.op_traits if t not in traits]
    if not missing:
        return None
    return (f"pass '{pass_.name}' cannot run on '{op_name}': it needs an op with the "
            f"{', '.join(missing)} trait")


def _nest_and_check(node: PipelineNode, ctx) -> PipelineNode:
    """Put passes anchored on another op under an implicit `op-name(...)`, and reject
    what cannot run where it is placed."""
    cls = _op_class(node.anchor, ctx, node.loc)
    traits = _traits(cls)
    if cls is not None and node.loc is not None and IsolatedFromAbove not in traits:
        raise PipelineError(Diagnostic(
            "error", f"can't schedule passes on '{node.anchor}' ops: they are not marked "
            "'IsolatedFromAbove'", node.loc))
    nested: list = []
    for element in node.elements:
        if isinstance(element, PipelineNode):
            nested.append(_nest_and_check(element, ctx))
            continue
        anchor = element.info.anchor
        if anchor is None or anchor == node.anchor:
            if cls is not None and element.loc is not None:
                problem = anchor_problem(element, node.anchor, traits)
                if problem:
                    raise PipelineError(Diagnostic("error", problem, element.loc))
            nested.append(element)
            continue
        if cls is not None and SymbolTable not in traits and element.loc is not None:
            raise PipelineError(Diagnostic(
                "error", f"pass '{element.name}' runs on '{anchor}' ops; it cannot be nested in "
                f"a pipeline on '{node.anchor}'", element.loc))
        if nested and isinstance(nested[-1], PipelineNode) and nested[-1].anchor == anchor \
                and nested[-1].implicit:
            nested[-1].elements.append(element)
        else:
            nested.append(PipelineNode(anchor, [element], element.loc, implicit=True))
    for element in nested:
        if isinstance(element, PipelineNode) and element.implicit:
            _nest_and_check(element, ctx)  # checks the pass on its anchor op
    return PipelineNode(node.anchor, nested, node.loc, node.implicit)


def parse_pipeline(text: str, ctx=None) -> PipelineNode:
    """Parse and check a pipeline string (see the module docstring); `ctx` is the IR
    Context anchors are looked up in (default: a fresh one). PipelineError says what is
    wrong, where."""
    from mlc.ir.core.dialect_registry import Context

    root = _Parser(text).pipeline()
    return _nest_and_check(root, ctx if ctx is not None else Context())


def pipeline_from_passes(passes: list[Pass]) -> PipelineNode:
    """A root pipeline of these passes (nesting anchored ones)."""
    from mlc.ir.core.dialect_registry import Context

    return _nest_and_check(PipelineNode(ROOT_ANCHOR, list(passes)), Context())
