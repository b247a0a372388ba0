"""The tokenizer of MLIR text: one compiled regex over a cursor that both parsers share.

Two readers consume the same text: the LALR driver (MLIR's generic syntax: ops in
generic form, regions, blocks, builtin types and attributes) and the
:class:`~mlc.ir.text.asm_parser.AsmParser` that runs the parse functions of custom op
forms, dialect types and dialect attributes (generated from assembly formats or
written by hand). They hand the text back and forth through a :class:`TokenStream`,
whose `pos` is where the next token starts.

For the LALR driver the stream classifies each match in the context of what the parser
accepts in its current state (found in the parse table):

- a bare identifier is a keyword (`tensor`, `loc`, `true`...) where the parser accepts
  that keyword, an op name (`CUSTOM_OP`) where an op may start, else a `BARE_ID`;
- `2x?x4x` is a `DIMS` token only where a shape may start.

Literal bodies whose contents have their own small syntax (`array<...>`,
`dense_resource<...>`) are single tokens holding the balanced text; `dense<...>`,
`sparse<...>`, `affine_map<...>`, `affine_set<...>` and `strided<...>` are tokens of
their keyword, whose callback reads the body. A
dialect type or attribute (`!llvm.ptr`, `#arith.fastmath`) is a token of its name
only: its body is read by the dialect's parse function, straight from the stream.
"""

from __future__ import annotations

import re

BARE_ID_RE = r"[A-Za-z_][\w$.]*"
SUFFIX_ID_RE = r"(?:[0-9]+|[A-Za-z_$.\-][\w$.\-]*)"
SKIP_RE = r"(?:[ \t\r\n]+|//[^\n]*)*+"
"""Whitespace and comments, skipped possessively: a failed match never backtracks
into a comment and finds tokens there."""

# Bare identifiers followed directly by a `<...>` body of their own syntax: a token of
# the balanced text, or (the keywords of STREAM_BODY_KEYWORDS) of the keyword alone,
# whose callback reads the body from the stream as MLIR's parser reads it, token by
# token, so that a body with an unclosed bracket is reported where the parse fails.
RAW_BODY_KEYWORDS = {
    "dense": "DENSE",
    "dense_resource": "DENSE_RESOURCE",
    "array": "DENSE_ARRAY",
    "affine_map": "OPAQUE_BUILTIN",
    "affine_set": "OPAQUE_BUILTIN",
    "strided": "OPAQUE_BUILTIN",
    "sparse": "SPARSE",
}
STREAM_BODY_KEYWORDS = frozenset({"dense", "sparse", "affine_map", "affine_set", "strided"})

SIMPLE_TYPE_RE = re.compile(
    r"(?:[su]?i(?:0|[1-9][0-9]*)|f16|bf16|f32|f64|f80|f128|tf32|index|none"
    r"|f4E2M1FN|f6E2M3FN|f6E3M2FN|f8E5M2|f8E4M3|f8E4M3FN|f8E5M2FNUZ|f8E4M3FNUZ"
    r"|f8E4M3B11FNUZ|f8E3M4|f8E8M0FNU)\Z")

# MLIR lexes these as integer types, never as identifiers: no op is named `i32`.
_INTEGER_TYPE_RE = re.compile(r"[su]?i[0-9]+\Z")

# Terminals the stream produces itself (declared in the grammar with %declare).
DECLARED_TERMINALS = (
    "VALUE_ID", "VALUE_USE", "CARET_ID", "SYMBOL", "STRING", "INT", "HEX", "FLOAT", "BARE_ID",
    "SIMPLE_TYPE", "DIMS", "DIALECT_TYPE", "TYPE_ALIAS", "DIALECT_ATTR", "ATTR_ALIAS", "DENSE",
    "DENSE_RESOURCE", "DENSE_ARRAY", "OPAQUE_BUILTIN", "SPARSE", "FILE_METADATA", "CUSTOM_OP",
)


class Tok:
    """A token: the driver reads `type`; callbacks read `value` and `start_pos`."""

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


class OpTok(Tok):
    """The head of an op in custom form (`%a, %b:2 = name`): the token starts at the
    results; `value` is the name, at `name_pos`."""

    __slots__ = ("results", "name_pos")

    def __init__(self, name: str, start_pos: int, name_pos: int,
                 results: list[tuple[str, int, int]]):
        super().__init__("CUSTOM_OP", name, start_pos)
        self.name_pos = name_pos
        self.results = results  # (name, count, offset)


class LexError(Exception):
    """A character sequence that is no token; carries its offset."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message = message
        self.offset = offset


_OPENERS = {"<": ">", "(": ")", "[": "]", "{": "}"}
_CLOSERS = frozenset(_OPENERS.values())


# What MLIR says when the body of a builtin attribute is not closed.
_UNCLOSED_BODY = {"dense_resource": "expected '>'",
                  "array": "expected '>' to close an array attribute"}


def find_balanced_end(text: str, start: int, unclosed: str | None = None) -> int:
    """Offset just past the bracket closing the one at `start`, skipping strings and
    `->`; a LexError saying `unclosed` if it is not closed on the same line. Without
    `unclosed` the text is a dialect body, whose brackets must nest (a bracket may not
    close another's opening), and the error is MLIR's (naming the innermost open one)."""
    openers: list[str] = []
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "-" and i + 1 < n and text[i + 1] == ">":
            i += 1
        elif c in _OPENERS:
            openers.append(c)
        elif openers and c == _OPENERS[openers[-1]]:
            openers.pop()
            if not openers:
                return i + 1
        elif openers and c in _CLOSERS and unclosed is None:
            break  # MLIR's dialect bodies nest their brackets properly
        elif c == "\n" and not openers:
            break
        i += 1
    innermost = openers[-1] if openers else text[start]
    raise LexError(unclosed or f"unbalanced '{innermost}' character in pretty dialect name", start)


# What MLIR's lexer says of a sigil that no identifier follows.
_SIGIL_ERRORS = {"%": "invalid SSA name", "^": "invalid block name",
                 "#": "invalid attribute name", "!": "invalid type identifier"}
_SUFFIX_START = re.compile(r"[0-9A-Za-z_$.\-]")


def malformed_token(text: str, pos: int) -> LexError | None:
    """The error MLIR's lexer reports for the text at `pos` (after whitespace), if it
    starts no token: a lone or double `.`, a sigil without its identifier, `@` before
    something that is no identifier nor string. A parser that expected something
    there reports this instead, as MLIR's lexer speaks before its parser."""
    pos = _SKIP.match(text, pos).end()
    char = text[pos:pos + 1]
    if char == "." and not text.startswith("...", pos):
        return LexError("expected three consecutive dots for an ellipsis", pos + 1)
    if char == "@":
        following = text[pos + 1:pos + 2]
        if following != '"' and not (following.isalpha() or following == "_"):
            return LexError("@ identifier expected to start with letter or '_'", pos + 1)
    if char in _SIGIL_ERRORS and not _SUFFIX_START.match(text, pos + 1) and not (
            char == "#" and text.startswith("#-}", pos)):
        return LexError(_SIGIL_ERRORS[char], pos)
    return None


def quoted_char(char: str) -> str:
    """`'x'` for a printable character, `U+0000` for one a terminal would not show."""
    return f"'{char}'" if char.isprintable() else f"U+{ord(char):04X}"


def unterminated_string_error(text: str, pos: int) -> LexError:
    """The error for a `"` that starts no well-formed string."""
    end = text.find("\n", pos)
    if end == -1:
        end = len(text)
    if text.find('"', pos + 1, end) == -1:
        return LexError("expected '\"' in string literal", pos)
    return LexError("unexpected character '\"'", pos)


class LexerConfig:
    """The keyword and punctuation terminals of one grammar, and the master regex."""

    def __init__(self, keywords: dict[str, list[str]], punctuation: dict[str, str]):
        self.keyword_terminals = keywords
        self.punctuation_terminals = punctuation
        puncts = sorted(punctuation, key=len, reverse=True)
        self.master_re = re.compile(SKIP_RE + r"(?:" + "|".join([
            r"(?P<end>\Z)",
            r"(?P<value>%" + SUFFIX_ID_RE + r"(?:#[0-9]+|:[0-9]+)?)",
            r"(?P<caret>\^" + SUFFIX_ID_RE + r")",
            r'(?P<symbol>@(?:"(?:[^"\\\n]|\\.)*"|[A-Za-z_][\w$.\-]*))',
            r'(?P<string>"(?:[^"\\\n]|\\.)*")',
            r"(?P<hex>-?0x[0-9a-fA-F]+)",
            r"(?P<float>-?[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?)",
            r"(?P<int>-?[0-9]+)",
            r"(?P<bare>" + BARE_ID_RE + r")",
            r"(?P<bang>!" + BARE_ID_RE + r")",
            r"(?P<hash>#" + BARE_ID_RE + r")",
            r"(?P<metadata>\{-\#)",
            r"(?P<dimstart>[?*](?=[ \t\n]*x)|\[(?=[0-9]+\][ \t\n]*x))",
            r"(?P<punct>" + "|".join(re.escape(p) for p in puncts) + r")" if puncts
            else r"(?P<punct>(?!))",
        ]) + ")")


_SKIP = re.compile(SKIP_RE)
_RESULT = r"%" + SUFFIX_ID_RE + r"(?::[0-9]+)?"
# A custom op's name: an identifier that is not an integer type.
_OP_NAME = r"(?![su]?i[0-9]+(?![\w$.]))" + BARE_ID_RE
_OP_HEAD = re.compile("(" + _RESULT + "(?:" + SKIP_RE + "," + SKIP_RE + _RESULT + ")*)" + SKIP_RE
                      + "=" + SKIP_RE + "(" + _OP_NAME + ")")
_RESULT_NAME = re.compile("(%" + SUFFIX_ID_RE + r")(?::([0-9]+))?")
_NEXT_OP = re.compile(SKIP_RE + "(?:(" + _RESULT + "(?:" + SKIP_RE + "," + SKIP_RE + _RESULT + ")*)"
                      + SKIP_RE + "=" + SKIP_RE + ")?(" + _OP_NAME + ")")


def _op_tok(names: str | None, pos: int, name: str, name_pos: int) -> OpTok:
    if not names:
        return OpTok(name, name_pos, name_pos, [])
    if "," in names or ":" in names:
        results = [(r.group(1), int(r.group(2) or 1), pos + r.start())
                   for r in _RESULT_NAME.finditer(names)]
    else:
        results = [(names, 1, pos)]
    return OpTok(name, pos, name_pos, results)


def next_op_head(text: str, pos: int) -> tuple[OpTok, int] | None:
    """The head of an op in custom form at `pos` (after whitespace), and where it ends;
    None if the next thing is not one. Only for places where an op may start."""
    m = _NEXT_OP.match(text, pos)
    if m is None:
        return None
    return _op_tok(m.group(1), m.start(1), m.group(2), m.start(2)), m.end()
# MLIR allows spaces around each `x` (`vector<4 x i32>`).
_DIMS_RE = re.compile(r"\*[ \t\n]*x[ \t\n]*|(?:(?:[0-9]+|\?|\[[0-9]+\])[ \t\n]*x[ \t\n]*)+")
_SIMPLE_TYPE_CANDIDATES = ["SIMPLE_TYPE"]
_SCALABLE_DIM_RE = re.compile(r"\[[ \t\n]*[0-9]+[ \t\n]*(?=[^ \t\n\]0-9])")


class TokenStream:
    """A cursor over MLIR text. `pos` is where the next token (or the whitespace
    before it) starts; `last_end` is where the last consumed token ended, which is
    where MLIR reports "expected ..." errors whose next token is on a later line."""

    __slots__ = ("text", "pos", "last_end", "config")

    def __init__(self, text: str, config: LexerConfig, pos: int = 0):
        self.text = text
        self.pos = pos
        self.last_end = pos
        self.config = config

    def skip(self) -> int:
        """Offset of the next token (after whitespace and comments)."""
        return _SKIP.match(self.text, self.pos).end()

    def next_token_start(self, offset: int) -> int:
        """Where the first token at or after `offset` starts (past whitespace and
        comments)."""
        return _SKIP.match(self.text, offset).end()

    def take_balanced(self) -> str:
        """The balanced `<...>` (or `(...)`...) body starting at the next token; ''
        when no bracket follows directly."""
        text, pos = self.text, self.pos
        if pos < len(text) and text[pos] in _OPENERS:
            end = find_balanced_end(text, pos)
            self.pos = self.last_end = end
            return text[pos:end]
        return ""

    def next_token(self, accepted: dict) -> Tok:
        """The next token, classified for a parser state that accepts `accepted`
        (a mapping whose keys are terminal names). At the end: a `$END` token."""
        text = self.text
        pos = self.pos
        m = self.config.master_re.match(text, pos)
        if m is None:
            start = _SKIP.match(text, pos).end()
            if text[start] == '"':
                raise unterminated_string_error(text, start)
            raise malformed_token(text, start) or LexError(
                f"unexpected character {quoted_char(text[start])}", start)
        kind = m.lastgroup
        pos = m.start(kind)
        end = m.end()
        if kind == "value":
            head = _OP_HEAD.match(text, pos) if "CUSTOM_OP" in accepted else None
            if head is not None:
                # `%a, %b:2 = name`: the head of an op in custom form, in one token.
                tok = _op_tok(head.group(1), pos, head.group(2), head.start(2))
                end = head.end()
            else:
                # A use where the parser takes one, else a definition (`%x` or `%x:2`).
                tok = Tok("VALUE_USE" if "VALUE_USE" in accepted else "VALUE_ID", m.group(kind),
                          pos)
        elif kind == "bare":
            value = m.group(kind)
            raw = RAW_BODY_KEYWORDS.get(value)
            if raw is not None and (text.startswith("<", end) or (
                    # As in MLIR, a body read from the stream may follow a space, where
                    # the parser takes the keyword.
                    value in STREAM_BODY_KEYWORDS and raw in accepted
                    and text.startswith("<", self.next_token_start(end)))):
                if value not in STREAM_BODY_KEYWORDS:
                    end = find_balanced_end(text, end, _UNCLOSED_BODY.get(
                        value, f"unbalanced '<' in '{value}' body"))
                tok = Tok(raw, text[pos:end], pos)
            else:
                kind_name = self._classify_word(value, accepted)
                tok = OpTok(value, pos, pos, []) if kind_name == "CUSTOM_OP" else Tok(kind_name, value, pos)
        elif kind == "punct":
            value = m.group(kind)
            if value == "[" and "DIMS" in accepted:
                scalable = _SCALABLE_DIM_RE.match(text, pos)
                if scalable is not None:  # `[4` not closed where a shape is read
                    raise LexError("missing ']' closing scalable dimension", scalable.end())
            if value in "?*" and "DIMS" in accepted:
                dims = _DIMS_RE.match(text, pos)
                if dims is not None:
                    end = dims.end()
                    tok = Tok("DIMS", text[pos:end], pos)
                else:
                    tok = Tok(self.config.punctuation_terminals[value], value, pos)
            else:
                tok = Tok(self.config.punctuation_terminals[value], value, pos)
        elif kind in ("int", "hex", "float", "dimstart") and "DIMS" in accepted \
                and _DIMS_RE.match(text, pos):
            end = _DIMS_RE.match(text, pos).end()
            tok = Tok("DIMS", text[pos:end], pos)
        elif kind == "int":
            tok = Tok("INT", m.group(kind), pos)
        elif kind == "float":
            tok = Tok("FLOAT", m.group(kind), pos)
        elif kind == "string":
            tok = Tok("STRING", m.group(kind), pos)
        elif kind == "caret":
            tok = Tok("CARET_ID", m.group(kind), pos)
        elif kind == "symbol":
            tok = Tok("SYMBOL", m.group(kind), pos)
        elif kind == "hex":
            tok = Tok("HEX", m.group(kind), pos)
        elif kind == "bang":
            value = m.group(kind)
            # `!dialect.name` (its body is the dialect's to read) or `!alias`.
            if "." in value or (end < len(text) and text[end] == "<"):
                tok = Tok("DIALECT_TYPE", value, pos)
            else:
                tok = Tok("TYPE_ALIAS", value, pos)
        elif kind == "hash":
            value = m.group(kind)
            if "." in value or (end < len(text) and text[end] == "<"):
                tok = Tok("DIALECT_ATTR", value, pos)
            else:
                tok = Tok("ATTR_ALIAS", value, pos)
        elif kind == "metadata":  # its contents are read by the callback, from the stream
            tok = Tok("FILE_METADATA", "{-#", pos)
        elif kind == "dimstart":
            value = m.group(kind)
            punct = self.config.punctuation_terminals.get(value)
            if punct is None:
                raise LexError(f"unexpected character '{value}'", pos)
            end = pos + 1
            tok = Tok(punct, value, pos)
        else:  # end of input
            tok = Tok("$END", "", len(text))
            end = len(text)
        self.pos = end
        return tok

    def _classify_word(self, value: str, accepted: dict) -> str:
        candidates = self.config.keyword_terminals.get(value)
        if candidates is None and SIMPLE_TYPE_RE.match(value):
            candidates = _SIMPLE_TYPE_CANDIDATES
        if candidates is not None:
            for candidate in candidates:
                if candidate in accepted:
                    return candidate
        if "CUSTOM_OP" in accepted and not _INTEGER_TYPE_RE.match(value):
            return "CUSTOM_OP"
        if candidates is None or "BARE_ID" in accepted:
            return "BARE_ID"
        return candidates[0]
