"""The parser API of custom assembly: what an op's, a type's or an attribute's parse
function reads its text with (MLIR's OpAsmParser and DialectAsmParser in one).

Parse functions generated from assembly formats and parse functions written by hand
use this same API, so a dialect author can write what a format cannot say:

    @classmethod
    def parse(cls, p: AsmParser) -> Operation:          # on an Op class
        iv = p.parse_argument()                          # %i (binds a new name)
        p.parse_punctuation("=")
        lower = p.parse_operand()
        p.parse_keyword("to")
        upper = p.parse_operand()
        iv.type = index
        body = p.parse_region([iv])
        attrs = p.parse_optional_attr_dict()
        index_ = p.resolve_operand(lower, IndexType())
        ...
        return cls.build(...)

Every method reads from the current position, skipping whitespace and comments; the
`parse_optional_*` forms return None (or False) and consume nothing when the next
token is not what they look for. Errors are diagnostics located as MLIR locates them:
"expected ..." points just after the previous token.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mlc.ir.core.affine_expr import AffineExpr
from mlc.ir.core.attributes import Attribute, Location, Type
from mlc.ir.core.ir import Block, Region, Value
from mlc.ir.diagnostics import DiagnosticError
from mlc.ir.text.affine_parser import AffineParseError, parse_affine_exprs_of_ssa_ids
from mlc.ir.text.lexer import (
    BARE_ID_RE,
    SKIP_RE,
    SUFFIX_ID_RE,
    LexerConfig,
    TokenStream,
    find_balanced_end,
    malformed_token,
)

if TYPE_CHECKING:
    from mlc.ir.text.parser import _ParseState

UnresolvedOperand = tuple  # (placeholder-or-value, offset): a use not yet given its type

_S = SKIP_RE
_SKIP = re.compile(_S)
_VALUE = re.compile(_S + r"(%" + SUFFIX_ID_RE + r")(?:#([0-9]+))?")
_BARE = re.compile(_S + r"(" + BARE_ID_RE + r")")
_DIMENSION = re.compile(_S + r"([0-9]+)" + _S + "x")
_INTEGER = re.compile(_S + r"(-?(?:0x[0-9a-fA-F]+|[0-9]+))(?![\w.])")
_STRING = re.compile(_S + r'("(?:[^"\\\n]|\\.)*")')
_SYMBOL = re.compile(_S + r'@("(?:[^"\\\n]|\\.)*"|[A-Za-z_][\w$.\-]*)')
_CARET = re.compile(_S + r"(\^" + SUFFIX_ID_RE + r")")
_SIMPLE_TYPE = re.compile(
    _S + r"((?:[su]?i(?:0|[1-9][0-9]*)|f16|bf16|f32|f64|f80|f128|tf32|index|none))(?![\w$.<])")
# Shaped types of builtin element types, no encoding or layout: read once per spelling.
_PLAIN_SHAPED = re.compile(_S + r"((?:tensor|vector|memref)<[0-9?x\[\]*]*[a-z][a-z0-9]*>)")
# `2.5 : f32`, `7 : i64`: the commonest attributes, read without the grammar.
_NUMBER_ATTR = re.compile(_S + r"(-?[0-9]+(\.[0-9]*(?:[eE][-+]?[0-9]+)?)?)" + _S + ":" + _S
                          + r"((?:[su]?i[0-9]+|f16|bf16|f32|f64|index))(?![\w$.<])")
_TYPE_START = re.compile(_S + r"(?:[!(]|(?:tensor|memref|vector|tuple|complex)\b"
                         r"|[su]?i[0-9]|f[0-9]|bf16|tf32|index\b|none\b)")
_ATTR_START = re.compile(
    _S + r"(?:[\[{\"@#!(0-9]|-[0-9]|(?:true|false|unit|dense|dense_resource|sparse|array|affine_map"
    r"|affine_set|strided|loc|tensor|memref|vector|tuple|complex|index|none|[su]?i[0-9]"
    r"|f[0-9]|bf16|tf32)\b)")
_PUNCT_CACHE: dict[str, re.Pattern] = {}
_KEYWORD_CACHE: dict[str, re.Pattern] = {}

_type_cache: dict[str, Type] = {}


def punctuation_matcher(text: str):
    """A `match(string, pos)` for punctuation `text` after whitespace and comments."""
    pattern = _PUNCT_CACHE.get(text)
    if pattern is None:
        pattern = _PUNCT_CACHE[text] = re.compile(_S + re.escape(text))
    return pattern.match


def keyword_matcher(text: str):
    """A `match(string, pos)` for keyword `text` as a whole word."""
    pattern = _KEYWORD_CACHE.get(text)
    if pattern is None:
        pattern = _KEYWORD_CACHE[text] = re.compile(_S + re.escape(text) + r"(?![\w$.\-])")
    return pattern.match


class Argument:
    """A region argument as written where it is bound: `%name: type {attrs} loc(...)`."""

    __slots__ = ("name", "pos", "type", "attrs", "loc")

    def __init__(self, name: str, pos: int, type_: Type | None = None,
                 attrs: Attribute | None = None, loc: Location | None = None):
        self.name = name
        self.pos = pos
        self.type = type_
        self.attrs = attrs
        self.loc = loc


class AsmParser(TokenStream):
    """The cursor parse functions read with (see the module docstring)."""

    __slots__ = ("state", "op_name")

    def __init__(self, text: str, config: LexerConfig, state: _ParseState, pos: int = 0):
        super().__init__(text, config, pos)
        self.state = state
        self.op_name: str | None = None  # the op whose custom form is being read

    # ------------------------------------------------------------ positions, errors

    def current_pos(self) -> int:
        """Offset of the next token."""
        return _SKIP.match(self.text, self.pos).end()

    def location(self, pos: int | None = None) -> Location:
        """The location of offset `pos` (default: the next token)."""
        return self.state.loc(self.current_pos() if pos is None else pos)

    def error(self, message: str, pos: int | None = None) -> DiagnosticError:
        """An error at `pos` (default: the next token), to raise. Inside an op's custom
        form it names the op, as MLIR's messages do."""
        if self.op_name is not None:
            message = f"custom op '{self.op_name}' {message}"
        return self.state.error(message, self.current_pos() if pos is None else pos)

    def expected(self, what: str) -> DiagnosticError:
        """"expected <what>", located as MLIR locates it: just after the text before the
        next token (so a missing `: type` at the end of a line points at that line).
        Text there that is no token is reported instead, as MLIR's lexer would."""
        malformed = malformed_token(self.text, self.pos)
        if malformed is not None:
            return self.state.error(malformed.message, malformed.offset)
        return self.state.error(f"expected {what}", self.error_pos_before(self.current_pos()))

    def error_pos_before(self, pos: int) -> int:
        """Where an error about the token at `pos` is reported: the end of the last
        non-blank, non-comment text before it."""
        text = self.text
        end = pos if pos < len(text) else max(len(text) - 1, 0)
        while True:
            while end > 0 and text[end - 1] in " \t":
                end -= 1
            if end == 0:
                return pos
            if text[end - 1] not in "\r\n":
                return end
            end -= 1
            line_start = max(text.rfind("\n", 0, end), text.rfind("\r", 0, end)) + 1
            comment = text.find("//", line_start, end)
            if comment != -1:
                end = comment

    # -------------------------------------------------------- punctuation, keywords

    def parse_punctuation(self, text: str) -> None:
        """Consume punctuation `text` (`,`, `->`, `(`...), or fail with "expected"."""
        m = punctuation_matcher(text)(self.text, self.pos)
        if m is None:
            raise self.expected(f"'{text}'")
        self.pos = self.last_end = m.end()

    def parse_optional_punctuation(self, text: str) -> bool:
        """Consume punctuation `text` if it is next."""
        m = punctuation_matcher(text)(self.text, self.pos)
        if m is None:
            return False
        self.pos = self.last_end = m.end()
        return True

    def parse_comma(self) -> None:
        self.parse_punctuation(",")

    def parse_optional_comma(self) -> bool:
        return self.parse_optional_punctuation(",")

    def parse_colon(self) -> None:
        self.parse_punctuation(":")

    def parse_arrow(self) -> None:
        self.parse_punctuation("->")

    def parse_optional_arrow(self) -> bool:
        return self.parse_optional_punctuation("->")

    def parse_equal(self) -> None:
        self.parse_punctuation("=")

    def parse_keyword(self, keyword: str | None = None) -> str:
        """Consume keyword `keyword` (or any bare identifier when None)."""
        found = self.parse_optional_keyword(keyword)
        if found is None:
            raise self.expected(f"'{keyword}'" if keyword else "keyword")
        return found

    def parse_optional_keyword(self, keyword: str | Sequence[str] | None = None) -> str | None:
        """Consume the next bare identifier if it is `keyword` (or one of several, or
        any when None); return it."""
        if isinstance(keyword, str):
            m = keyword_matcher(keyword)(self.text, self.pos)
            if m is None:
                return None
            self.pos = self.last_end = m.end()
            return keyword
        m = _BARE.match(self.text, self.pos)
        if m is None or (keyword is not None and m.group(1) not in keyword):
            return None
        self.pos = self.last_end = m.end()
        return m.group(1)

    # -------------------------------------------------------------------- literals

    def parse_optional_integer(self) -> int | None:
        """An integer literal (decimal or hex, optionally negative)."""
        m = _INTEGER.match(self.text, self.pos)
        if m is None:
            return None
        self.pos = self.last_end = m.end()
        return int(m.group(1), 0) if "x" in m.group(1) else int(m.group(1))

    def parse_integer(self) -> int:
        value = self.parse_optional_integer()
        if value is None:
            raise self.expected("integer value")
        return value

    def parse_dimension(self) -> int:
        """A size followed by `x`, as in a shape (`4x`, `4 x`): MLIR's lexer reads
        `2x!llvm.ptr` as the size 2, then `x`."""
        m = _DIMENSION.match(self.text, self.pos)
        if m is None:
            raise self.expected("integer value")
        self.pos = self.last_end = m.end()
        return int(m.group(1))

    def parse_optional_string(self) -> str | None:
        """A string literal's value."""
        m = _STRING.match(self.text, self.pos)
        if m is None:
            return None
        self.pos = self.last_end = m.end()
        return self.state.string_value_at(m.group(1), m.start(1))

    def parse_string(self) -> str:
        value = self.parse_optional_string()
        if value is None:
            raise self.expected("string")
        return value

    def parse_optional_symbol_name(self) -> str | None:
        """`@name` (or `@"quoted name"`): the name."""
        m = _SYMBOL.match(self.text, self.pos)
        if m is None:
            return None
        self.pos = self.last_end = m.end()
        name = m.group(1)
        return self.state.string_value_at(name, m.start(1)) if name.startswith('"') else name

    def parse_symbol_name(self) -> str:
        name = self.parse_optional_symbol_name()
        if name is None:
            raise self.expected("valid '@'-identifier for symbol name")
        return name

    # ---------------------------------------------------------- types, attributes

    def parse_type(self) -> Type:
        """Any type."""
        text, pos = self.text, self.pos
        # Builtin scalar types and plain shaped types are read once per spelling.
        m = _SIMPLE_TYPE.match(text, pos) or _PLAIN_SHAPED.match(text, pos)
        if m is not None:
            spelled = m.group(1)
            type_ = _type_cache.get(spelled)
            if type_ is None:
                self.pos = m.start(1)
                type_ = self.state.sub_parse(self, "type_start")
                if len(_type_cache) > 4096:
                    _type_cache.clear()
                _type_cache[spelled] = type_
            self.pos = self.last_end = m.end()
            return type_
        if _TYPE_START.match(text, pos) is None:
            raise self.expected("non-function type")
        return self.state.sub_parse(self, "type_start")

    def parse_optional_type(self) -> Type | None:
        if _TYPE_START.match(self.text, self.pos) is None:
            return None
        return self.parse_type()

    def parse_colon_type(self) -> Type:
        """`: type`."""
        self.parse_punctuation(":")
        return self.parse_type()

    def parse_type_list(self) -> list[Type]:
        """Zero or more types separated by commas."""
        first = self.parse_optional_type()
        if first is None:
            return []
        types = [first]
        while self.parse_optional_punctuation(","):
            types.append(self.parse_type())
        return types

    def parse_function_type(self):
        """`(inputs) -> results`."""
        from mlc.ir.core.attributes import FunctionType

        start = self.current_pos()
        type_ = self.parse_type()
        if not isinstance(type_, FunctionType):
            raise self.error("invalid kind of type specified: expected builtin.function, but "
                             f"found '{type_}'", start)
        return type_

    def parse_attribute(self) -> Attribute:
        """Any attribute (with its type where it has one: `5 : i32`)."""
        attr = self.parse_optional_attribute()
        if attr is None:
            raise self.expected("attribute value")
        return attr

    def parse_optional_attribute(self) -> Attribute | None:
        text, pos = self.text, self.pos
        m = _NUMBER_ATTR.match(text, pos)
        if m is not None:
            self.pos = m.start(3)
            type_ = self.parse_type()
            return self.state.number_attribute(m.group(1), m.start(1), m.group(2) is not None,
                                               type_)
        if _ATTR_START.match(text, pos) is None:
            return None
        return self.state.sub_parse(self, "attribute_start")

    def parse_optional_attr_dict(self, into: dict[str, Attribute] | None = None) -> dict[str, Attribute]:
        """`{name = value, ...}` if present: its entries, added to `into` when given."""
        entries = {} if into is None else into
        text = self.text
        pos = _SKIP.match(text, self.pos).end()
        if pos < len(text) and text[pos] == "{":
            self.pos = pos
            entries.update(self.state.sub_parse(self, "dict_start").entries)
        return entries

    def parse_optional_attr_dict_with_keyword(self, into: dict[str, Attribute] | None = None
                                              ) -> dict[str, Attribute]:
        """`attributes {name = value, ...}` if present."""
        entries = {} if into is None else into
        if self.parse_optional_keyword("attributes") is not None:
            pos = self.current_pos()
            if not self.text.startswith("{", pos):
                raise self.expected("'{'")
            self.pos = pos
            entries.update(self.state.sub_parse(self, "dict_start").entries)
        return entries

    def parse_dialect_body(self, cls: type) -> Attribute:
        """The body of a dialect type or attribute of class `cls` (what follows its
        `!dialect.name` / `#dialect.name`), as its declaration spells it."""
        from mlc.ir.text.format import body_parser

        return body_parser(cls)(self)

    def take_balanced_body(self) -> str:
        """The balanced `<...>` right at the cursor (no whitespace), or ''."""
        text, pos = self.text, self.pos
        if pos < len(text) and text[pos] == "<":
            end = find_balanced_end(text, pos)
            self.pos = self.last_end = end
            return text[pos:end]
        return ""

    # ------------------------------------------------------------------ SSA values

    def parse_optional_operand(self) -> UnresolvedOperand | None:
        """A use of a value (`%x`, `%x#1`), to be given its type by `resolve_operand`."""
        m = _VALUE.match(self.text, self.pos)
        if m is None:
            return None
        self.pos = self.last_end = m.end()
        number = m.group(2)
        return self.state.use_name(m.group(1), int(number) if number else 0, m.start(1))

    def parse_operand(self) -> UnresolvedOperand:
        m = _VALUE.match(self.text, self.pos)
        if m is None:
            raise self.expected("SSA operand")
        self.pos = self.last_end = m.end()
        number = m.group(2)
        return self.state.use_name(m.group(1), int(number) if number else 0, m.start(1))

    def parse_operand_list(self) -> list[UnresolvedOperand]:
        """Zero or more operands separated by commas."""
        first = self.parse_optional_operand()
        if first is None:
            return []
        operands = [first]
        while self.parse_optional_punctuation(","):
            operands.append(self.parse_operand())
        return operands

    def resolve_operand(self, operand: UnresolvedOperand, type_: Type) -> Value:
        """The value of `operand`, checked (or, for a forward use, set) to `type_`."""
        return self.state.resolve_operand(operand, type_)

    def resolve_operands(self, operands: Sequence[UnresolvedOperand], types: Sequence[Type]
                         ) -> list[Value]:
        """`resolve_operand` over two lists of one length (an error otherwise)."""
        if len(operands) != len(types):
            pos = operands[0][1] if operands else self.current_pos()
            raise self.error(f"number of operands and types do not match: got {len(operands)} "
                             f"operands and {len(types)} types", pos)
        resolve = self.state.resolve_operand
        return [resolve(o, t) for o, t in zip(operands, types)]

    def parse_optional_argument(self, allow_type: bool = False, allow_attrs: bool = False,
                                allow_loc: bool = False) -> Argument | None:
        """A new value name bound by the op (`%i`), with `: type`, an attribute
        dictionary and `loc(...)` where allowed."""
        m = _VALUE.match(self.text, self.pos)
        if m is None:
            return None
        if m.group(2) is not None:
            raise self.error("expected identifier without '#' result number", m.start(1))
        self.pos = self.last_end = m.end()
        argument = Argument(m.group(1), m.start(1))
        if allow_type:
            argument.type = self.parse_colon_type()
        if allow_attrs:
            text = self.text
            pos = _SKIP.match(text, self.pos).end()
            if text.startswith("{", pos):
                self.pos = pos
                attrs = self.state.sub_parse(self, "dict_start")
                argument.attrs = attrs if attrs.entries else None
        if allow_loc and self.parse_optional_keyword("loc") is not None:
            self.pos = _SKIP.match(self.text, self.pos).end()
            argument.loc = self.state.sub_parse_location(self)
        return argument

    def parse_argument(self, allow_type: bool = False, allow_attrs: bool = False,
                       allow_loc: bool = False) -> Argument:
        argument = self.parse_optional_argument(allow_type, allow_attrs, allow_loc)
        if argument is None:
            raise self.expected("SSA identifier")
        return argument

    def parse_affine_exprs_of_ssa_ids(self, close: str, ssa_ids: dict[str, AffineExpr],
                                      operands: list[UnresolvedOperand]) -> list[AffineExpr]:
        """`%i * 4 + %j, %k]`: comma-separated affine expressions over SSA values, as
        MLIR's affine ops write indices, up to and including `close` (the opening
        bracket is the caller's). A value met for the first time becomes the next
        dimension in `ssa_ids` and its use is appended to `operands` (to resolve as
        `index`), so one dictionary can serve several lists. The list may be empty
        (`%x[]`: a rank-0 buffer's indices)."""
        if self.parse_optional_punctuation(close):
            return []
        start = self.pos
        end = closing_bracket(self.text, start, close)
        if end < 0:
            raise self.expected(f"'{close}'")
        known = len(ssa_ids)
        try:
            exprs = parse_affine_exprs_of_ssa_ids(self.text, start, end, ssa_ids)
        except AffineParseError as exc:
            raise self.error(exc.message, exc.offset) from None
        for name in list(ssa_ids)[known:]:
            found = re.compile(re.escape(name) + r"(?![\w$.\-])").search(self.text, start, end)
            operands.append(self.state.use_name(name, 0, found.start()))
        self.pos = self.last_end = end + 1
        return exprs

    # --------------------------------------------------------- regions, successors

    def parse_region(self, arguments: Sequence[Argument] = (), op_class: type | None = None
                     ) -> Region:
        """`{ ... }`: a region whose entry block gets `arguments` (each with its type).
        `op_class` is the op the region belongs to (its traits decide whether names
        from outside are visible, and its default dialect)."""
        text = self.text
        pos = _SKIP.match(text, self.pos).end()
        if not text.startswith("{", pos):
            raise self.expected("'{' to begin a region")
        self.pos = pos
        return self.state.parse_region_at(self, arguments, op_class)

    def parse_optional_region(self, arguments: Sequence[Argument] = (),
                              op_class: type | None = None) -> Region | None:
        pos = _SKIP.match(self.text, self.pos).end()
        # `{-#` opens the file's metadata (resources), not a region.
        if not self.text.startswith("{", pos) or self.text.startswith("{-#", pos):
            return None
        return self.parse_region(arguments, op_class)

    def parse_optional_successor(self) -> Block | None:
        """`^label`: the block it names (possibly defined later)."""
        m = _CARET.match(self.text, self.pos)
        if m is None:
            return None
        self.pos = self.last_end = m.end()
        return self.state.block_for_label(m.group(1), m.start(1), defining=False)

    def parse_successor(self) -> Block:
        block = self.parse_optional_successor()
        if block is None:
            raise self.expected("block name")
        return block


def closing_bracket(text: str, start: int, close: str) -> int:
    """The offset of the `close` ending a bracketed list whose contents start at
    `start` (parentheses inside balanced), or -1 if there is none before a brace."""
    depth = 0
    for offset in range(start, len(text)):
        char = text[offset]
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif char == close and not depth:
            return offset
        elif char in "{}":
            return -1
    return -1


__all__ = ["AsmParser", "Argument", "UnresolvedOperand", "closing_bracket", "punctuation_matcher",
           "keyword_matcher"]
