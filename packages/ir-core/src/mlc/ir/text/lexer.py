"""The tokenizer behind the lark parser: one compiled regex, contextual where MLIR's
syntax needs it.

lark's own lexers try each terminal's regex in turn, which dominates parse time on
large inputs. This lexer matches one master regex and classifies the match; only a few
token kinds depend on what the LALR parser accepts in its current state (the
contextual part), found in the parse table:

- a bare identifier is a keyword (an op name, `tensor`, `to`, a type like `f32`) when
  the parser accepts that keyword here, else a plain `BARE_ID`;
- `2x?x4x` is a `DIMS` token only where a shape may start;
- `<...>` is one `ATTR_BODY` token where an op's format expects a stripped dialect
  attribute (`fastmath<fast>`).

Bodies that other tools treat as opaque (`dense<...>`, `#dialect.attr<...>`,
`!dialect.type<...>`, `affine_map<...>`) are single tokens holding the balanced text;
their contents are parsed by the callbacks, which is much faster for large constants.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lark.lexer import Lexer

BARE_ID_RE = r"[A-Za-z_][\w$.]*"
_SUFFIX_ID = r"(?:[0-9]+|[A-Za-z_$.\-][\w$.\-]*)"

# Bare identifiers followed directly by a balanced `<...>` body kept as one token.
RAW_BODY_KEYWORDS = {
    "dense": "DENSE",
    "dense_resource": "DENSE_RESOURCE",
    "array": "DENSE_ARRAY",
    "affine_map": "OPAQUE_BUILTIN",
    "affine_set": "OPAQUE_BUILTIN",
    "strided": "OPAQUE_BUILTIN",
}

SIMPLE_TYPE_RE = re.compile(r"(?:[su]?i(?:0|[1-9][0-9]*)|f16|bf16|f32|f64|f80|f128|tf32|index|none)\Z")

# Terminals this lexer produces itself (declared in the grammar with %declare).
DECLARED_TERMINALS = (
    "VALUE_ID", "VALUE_USE", "CARET_ID", "SYMBOL", "STRING", "INT", "HEX", "FLOAT", "BARE_ID",
    "SIMPLE_TYPE", "DIMS", "ATTR_BODY", "DIALECT_TYPE", "TYPE_ALIAS", "DIALECT_ATTR",
    "ATTR_ALIAS", "DENSE", "DENSE_RESOURCE", "DENSE_ARRAY", "OPAQUE_BUILTIN", "FILE_METADATA",
)


class Tok:
    """A token: lark reads `type`; callbacks read `value` and `start_pos`."""

    __slots__ = ("type", "value", "start_pos")

    # lark copies these onto its end-of-input token; offsets are all mlc needs.
    line = column = end_line = end_column = None

    def __init__(self, type_: str, value: str, start_pos: int):
        self.type = type_
        self.value = value
        self.start_pos = start_pos

    @property
    def end_pos(self) -> int:
        return self.start_pos + len(self.value)

    def __repr__(self) -> str:
        return f"Tok({self.type}, {self.value!r})"


class LexError(Exception):
    """A character sequence that is no token; carries its offset."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message = message
        self.offset = offset


def find_balanced_end(text: str, start: int) -> int:
    """Offset just past the `>` closing the `<` at `start`, skipping strings and `->`."""
    depth = 0
    i = start
    n = len(text)
    opener = {"<": ">", "(": ")", "[": "]", "{": "}"}
    closers = []
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "-" and i + 1 < n and text[i + 1] == ">":
            i += 1
        elif c in opener:
            depth += 1
            closers.append(opener[c])
        elif closers and c == closers[-1]:
            closers.pop()
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == "\n" and depth == 0:
            break
        i += 1
    raise LexError("unbalanced '<' in dialect or elements body", start)


class MLIRLexer(Lexer):
    """The lark custom lexer (interface 2: it sees the parser's state)."""

    __future_interface__ = 2

    # Filled in by the grammar module once lark has named the literal terminals.
    keyword_terminals: dict[str, list[str]] = {}
    punctuation_terminals: dict[str, str] = {}
    master_re: re.Pattern = re.compile("")

    def __init__(self, lexer_conf):
        self.lexer_conf = lexer_conf

    @classmethod
    def configure(cls, keywords: dict[str, list[str]], punctuation: dict[str, str]) -> type[MLIRLexer]:
        """A lexer class for one grammar's keyword and punctuation terminals."""
        puncts = sorted(punctuation, key=len, reverse=True)
        # `*+`: whitespace and comments are skipped possessively, so a failed match
        # never backtracks into a comment and finds tokens there.
        pattern = r"(?:[ \t\r\n]+|//[^\n]*)*+(?:" + "|".join([
            r"(?P<end>\Z)",
            r"(?P<value>%" + _SUFFIX_ID + r"(?:#[0-9]+|:[0-9]+)?)",
            r"(?P<caret>\^" + _SUFFIX_ID + r")",
            r'(?P<symbol>@(?:"(?:[^"\\\n]|\\.)*"|[\w$.\-]+))',
            r'(?P<string>"(?:[^"\\\n]|\\.)*")',
            r"(?P<hex>0x[0-9a-fA-F]+)",
            r"(?P<float>-?[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?)",
            r"(?P<int>-?[0-9]+)",
            r"(?P<bare>" + BARE_ID_RE + r")",
            r"(?P<bang>!" + BARE_ID_RE + r")",
            r"(?P<hash>#" + BARE_ID_RE + r")",
            r"(?P<metadata>\{-\#)",
            r"(?P<dimstart>[?*](?=x)|\[(?=[0-9]+\]x))",
            r"(?P<punct>" + "|".join(re.escape(p) for p in puncts) + r")" if puncts else r"(?P<punct>(?!))",
        ]) + ")"
        return type(cls.__name__, (cls,), {
            "keyword_terminals": keywords,
            "punctuation_terminals": punctuation,
            "master_re": re.compile(pattern),
        })

    def lex(self, lexer_state, parser_state) -> Iterator[Tok]:
        text_slice = lexer_state.text
        text = text_slice.text if hasattr(text_slice, "text") else text_slice
        yield from self.tokens(text, parser_state.parse_conf.states, parser_state.state_stack)

    def tokens(self, text: str, states, stack: list) -> Iterator[Tok]:
        """Tokens of `text`; `states[stack[-1]]` is what the parser accepts next."""
        match_at = self.master_re.match
        keywords = self.keyword_terminals
        punctuation = self.punctuation_terminals
        dims_match = _DIMS_RE.match
        pos = 0
        n = len(text)
        while True:
            m = match_at(text, pos)
            if m is None:
                start = _SKIP_RE.match(text, pos).end()
                raise LexError(f"unexpected character '{text[start]}'", start)
            kind = m.lastgroup
            if kind == "end":
                return
            pos = m.start(kind)
            end = m.end()
            if kind == "value":
                # A use where the parser takes one, else a definition (`%x` or `%x:2`).
                yield Tok("VALUE_USE" if "VALUE_USE" in states[stack[-1]] else "VALUE_ID",
                          m.group(kind), pos)
            elif kind == "bare":
                value = m.group(kind)
                raw = RAW_BODY_KEYWORDS.get(value)
                if raw is not None and end < n and text[end] == "<":
                    end = find_balanced_end(text, end)
                    yield Tok(raw, text[pos:end], pos)
                else:
                    candidates = keywords.get(value)
                    if candidates is None and SIMPLE_TYPE_RE.match(value):
                        candidates = _SIMPLE_TYPE_CANDIDATES
                    kind_name = "BARE_ID"
                    if candidates is not None:
                        accepted = states[stack[-1]]
                        for candidate in candidates:
                            if candidate in accepted:
                                kind_name = candidate
                                break
                        else:
                            if "BARE_ID" not in accepted:
                                kind_name = candidates[0]
                    yield Tok(kind_name, value, pos)
            elif kind == "dimstart":
                # `?x`, `*x`, `[4]x` start a shape only where the parser takes one.
                dims = dims_match(text, pos)
                if dims is not None and "DIMS" in states[stack[-1]]:
                    end = dims.end()
                    yield Tok("DIMS", text[pos:end], pos)
                else:
                    value = m.group(kind)
                    if value not in punctuation:
                        raise LexError(f"unexpected character '{value}'", pos)
                    end = pos + 1
                    yield Tok(punctuation[value], value, pos)
            elif kind == "punct":
                value = m.group(kind)
                if value == "<" and "ATTR_BODY" in states[stack[-1]]:
                    end = find_balanced_end(text, pos)
                    yield Tok("ATTR_BODY", text[pos:end], pos)
                elif value in "?*" and "DIMS" in states[stack[-1]] and dims_match(text, pos):
                    end = dims_match(text, pos).end()
                    yield Tok("DIMS", text[pos:end], pos)
                else:
                    yield Tok(punctuation[value], value, pos)
            elif kind in ("int", "hex", "float") and "DIMS" in states[stack[-1]] \
                    and dims_match(text, pos):
                end = dims_match(text, pos).end()
                yield Tok("DIMS", text[pos:end], pos)
            elif kind == "int":
                yield Tok("INT", m.group(kind), pos)
            elif kind == "float":
                yield Tok("FLOAT", m.group(kind), pos)
            elif kind == "string":
                yield Tok("STRING", m.group(kind), pos)
            elif kind == "caret":
                yield Tok("CARET_ID", m.group(kind), pos)
            elif kind == "symbol":
                yield Tok("SYMBOL", m.group(kind), pos)
            elif kind == "hex":
                yield Tok("HEX", m.group(kind), pos)
            elif kind in ("bang", "hash"):
                value = m.group(kind)
                is_dialect = "." in value or (end < n and text[end] == "<")
                if end < n and text[end] == "<":
                    end = find_balanced_end(text, end)
                if kind == "bang":
                    yield Tok("DIALECT_TYPE" if is_dialect else "TYPE_ALIAS", text[pos:end], pos)
                else:
                    yield Tok("DIALECT_ATTR" if is_dialect else "ATTR_ALIAS", text[pos:end], pos)
            elif kind == "metadata":
                close = text.find("#-}", end)
                if close == -1:
                    raise LexError("unterminated '{-#' metadata section", pos)
                end = close + 3
                yield Tok("FILE_METADATA", text[pos:end], pos)
            pos = end


_SIMPLE_TYPE_CANDIDATES = ["SIMPLE_TYPE"]
_SKIP_RE = re.compile(r"(?:[ \t\r\n]+|//[^\n]*)*+")
_DIMS_RE = re.compile(r"\*x|(?:(?:[0-9]+|\?|\[[0-9]+\])x)+")
