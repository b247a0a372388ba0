"""Reading `affine_map<...>` and `affine_set<...>` text.

A small recursive-descent reader in MLIR's grammar (AffineParser.cpp): a dimension list
`(i, j)`, an optional symbol list `[N]` (any bare identifiers), then `-> (results)` for a
map or `: (constraints)` for a set, where a constraint is `e >= f`, `e <= f` or `e == f`.
Expressions have two precedence levels (`+ -` below `* floordiv ceildiv mod`, all left
associative) and a prefix `-` that binds tighter still; they are built with the
simplifying operators of :mod:`mlc.ir.core.affine_expr`, so `(d0 + d0)` reads as
`d0 * 2`, as in mlir-opt. Parentheses are handled with an explicit stack, so nesting
depth is not limited by Python's recursion.

Errors raise :class:`AffineParseError` (a ValueError) with the offset of the offending
token in the text, worded as mlir-opt-22 words them.
"""

from __future__ import annotations

import re

from mlc.ir.core.affine_expr import AffineExpr, constant, dim, symbol
from mlc.ir.core.affine_map import AffineMap, AffineMapAttr, IntegerSet, IntegerSetAttr
from mlc.ir.text.lexer import quoted_char

_INT64_MAX = (1 << 63) - 1
_HIGH_OPS = ("*", "floordiv", "ceildiv", "mod")

_TOKEN_RE = re.compile(r"""
    (?:[ \t\r\n]+|//[^\n]*)*+
    (?: (?P<ssa>%(?:[0-9]+|[A-Za-z_$.\-][\w$.\-]*))
      | (?P<id>[A-Za-z_][\w$.]*)
      | (?P<float>[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?)
      | (?P<int>0x[0-9A-Fa-f]+|[0-9]+)
      | (?P<punct>->|[()\[\],+\-*:<>=])
      | (?P<end>\Z)
    )""", re.VERBOSE)


_SKIP_RE = re.compile(r"(?:[ \t\r\n]+|//[^\n]*)*+")


class AffineParseError(ValueError):
    """A malformed affine map or integer set; `offset` locates the problem in the
    text."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message = message
        self.offset = offset


def parse_affine_attribute(text: str) -> AffineMapAttr | IntegerSetAttr:
    """The attribute spelled `affine_map<...>` or `affine_set<...>` (all of `text`)."""
    attr, end = read_affine_attribute(text, 0)
    if text[end:].strip():
        raise AffineParseError("encountered unexpected token", end)
    return attr


def read_affine_attribute(text: str, start: int) -> tuple[AffineMapAttr | IntegerSetAttr, int]:
    """The `affine_map<...>` or `affine_set<...>` at `start` in `text`, and the offset
    just past its closing `>`. Tokens are read as far as the attribute goes, so an
    unclosed bracket is reported where MLIR's parser finds it, not at the end of text."""
    is_map = text.startswith("affine_map", start)
    if not is_map and not text.startswith("affine_set", start):
        raise AffineParseError("expected 'affine_map' or 'affine_set'", start)
    what = "affine map" if is_map else "integer set"
    reader = _Reader(text, start + len("affine_map"))
    reader.expect("<", f"expected '<' in {what}")
    result = reader.structure("map" if is_map else "set")
    reader.expect(">", f"expected '>' in {what}")
    end = reader.tokens[reader.index - 1][2] + 1
    return (AffineMapAttr(result) if is_map else IntegerSetAttr(result)), end


def parse_affine_map(text: str) -> AffineMap:
    """An affine map from its body, e.g. `(d0)[s0] -> (d0 + s0)`."""
    reader = _Reader(text, 0)
    result = reader.structure("map")
    reader.expect_end()
    return result


def parse_affine_exprs_of_ssa_ids(text: str, start: int, end: int,
                                  ssa_ids: dict[str, AffineExpr]) -> list[AffineExpr]:
    """The comma-separated affine expressions in `text[start:end]` whose identifiers are
    SSA values (`%i * 4 + %j, %k`), as MLIR's affine.load writes its indices. Each value
    not yet in `ssa_ids` becomes the next dimension there (in order of first use), so
    several lists read with one dictionary share their dimensions."""
    reader = _Reader(text, start, end, ssa_ids)
    exprs = [reader.expr()]
    while reader.consume_if(","):
        exprs.append(reader.expr())
    reader.expect_end()
    return exprs


def parse_integer_set(text: str) -> IntegerSet:
    """An integer set from its body, e.g. `(d0) : (d0 >= 0)`."""
    reader = _Reader(text, 0)
    result = reader.structure("set")
    reader.expect_end()
    return result


class _Reader:
    __slots__ = ("text", "tokens", "index", "names", "next_pos", "end", "ssa_ids")

    def __init__(self, text: str, start: int, end: int | None = None,
                 ssa_ids: dict[str, AffineExpr] | None = None):
        """Read from `start` (up to `end`); with `ssa_ids`, identifiers are SSA values
        (`%i`), each a dimension, new ones added to the dictionary."""
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []  # read on demand, see peek
        self.end = len(text) if end is None else end
        self.ssa_ids = ssa_ids
        self.next_pos = start
        self.index = 0
        self.names: dict[str, AffineExpr] = {}

    # ------------------------------------------------------------ tokens

    def peek(self) -> tuple[str, str, int]:
        # The text may go on well past the attribute (a whole file): tokens are read
        # only as the parse asks for them.
        while self.index >= len(self.tokens):
            token, self.next_pos = _next_token(self.text, self.next_pos, self.end,
                                               self.ssa_ids is not None)
            self.tokens.append(token)
        return self.tokens[self.index]

    def at(self, value: str) -> bool:
        kind, text, _ = self.peek()
        return text == value and kind != "end"

    def consume_if(self, value: str) -> bool:
        if self.at(value):
            self.index += 1
            return True
        return False

    def expect(self, value: str, message: str) -> None:
        if not self.consume_if(value):
            raise self.wrong_token(message)

    def expect_end(self) -> None:
        if self.peek()[0] != "end":
            raise self.error("encountered unexpected token")

    def error(self, message: str) -> AffineParseError:
        """An error at the current token."""
        return AffineParseError(message, self.peek()[2])

    def wrong_token(self, message: str) -> AffineParseError:
        """An error about an unexpected token, placed where MLIR places it: just after
        the text before it (after the previous token, not at the next one)."""
        offset = self.peek()[2]
        before = len(self.text[:offset].rstrip(" \t\r\n"))
        return AffineParseError(message, before if before else offset)

    # ------------------------------------------------------------ structure

    def structure(self, expected: str) -> AffineMap | IntegerSet:
        start = self.peek()[2]
        num_dims = self.id_list("(", ")", " in dimensional identifier list", dim)
        num_symbols = self.id_list("[", "]", " in symbol list", symbol) if self.at("[") else 0
        if self.consume_if("->"):
            results = self.comma_list(" in affine map range", self.expr)
            if expected != "map":
                raise AffineParseError("expected IntegerSet, but got AffineMap", start)
            return AffineMap(num_dims, num_symbols, tuple(results))
        if not self.consume_if(":"):
            raise self.wrong_token("expected '->' or ':'")
        constraints = self.comma_list(" in integer set constraint list", self.constraint)
        if expected != "set":
            raise AffineParseError("expected AffineMap, but got IntegerSet", start)
        if not constraints:
            return IntegerSet.universe(num_dims, num_symbols)
        return IntegerSet(num_dims, num_symbols, tuple(c[0] for c in constraints),
                          tuple(c[1] for c in constraints))

    def comma_list(self, context: str, element) -> list:
        self.expect("(", "expected '('" + context)
        items = []
        if self.consume_if(")"):
            return items
        items.append(element())
        while self.consume_if(","):
            items.append(element())
        self.expect(")", "expected ')'" + context)
        return items

    def id_list(self, open_: str, close: str, context: str, make) -> int:
        count = 0

        def definition() -> None:
            nonlocal count
            kind, name, offset = self.peek()
            if kind != "id":
                raise self.wrong_token("expected bare identifier")
            if name in self.names:
                raise AffineParseError(f"redefinition of identifier '{name}'", offset)
            self.index += 1
            self.names[name] = make(count)
            count += 1

        self.expect(open_, f"expected '{open_}'" + context)
        if not self.consume_if(close):
            definition()
            while self.consume_if(","):
                definition()
            self.expect(close, f"expected '{close}'" + context)
        return count

    def constraint(self) -> tuple[AffineExpr, bool]:
        lhs = self.expr()
        # The same token checks, in the same order, as MLIR's parseAffineConstraint.
        if self.consume_if(">") and self.consume_if("="):
            return lhs - self.expr(), False
        if self.consume_if("<") and self.consume_if("="):
            return self.expr() - lhs, False
        if self.consume_if("=") and self.consume_if("="):
            return lhs - self.expr(), True
        raise self.error("expected '== affine-expr' or '>= affine-expr' at end of affine constraint")

    # ------------------------------------------------------------ expressions

    def expr(self) -> AffineExpr:
        """One expression, by operator precedence with explicit stacks.

        `operators` holds pending binary operators `(op, offset)` and open parentheses
        `("(", negations)`; a primary is negated as soon as it is complete, the way
        MLIR's parser applies a prefix `-` to one operand."""
        values: list[AffineExpr] = []
        operators: list[tuple[str, int]] = []
        negations = 0
        open_parens = 0
        after_operator = False  # for MLIR's "missing right/left operand" wording
        while True:
            # An operand: a run of `-` and `(`, then an identifier or an integer.
            kind, text, offset = self.peek()
            if kind == "punct" and text == "-":
                self.index += 1
                negations += 1
                continue
            if kind == "punct" and text == "(":
                self.index += 1
                if self.at(")"):
                    raise self.error("no expression inside parentheses")
                operators.append(("(", negations))
                open_parens += 1
                negations, after_operator = 0, False
                continue
            if kind == "ssa":
                value = self.ssa_ids.get(text)
                if value is None:
                    value = self.ssa_ids[text] = dim(len(self.ssa_ids))
            elif kind == "id":
                value = self.names.get(text)
                if value is None:
                    raise self.wrong_token("use of undeclared identifier")
            elif kind == "int":
                number = int(text, 16) if text.startswith("0x") else int(text)
                if number > _INT64_MAX:
                    raise self.error("constant too large for index")
                value = constant(number)
            elif after_operator or (kind == "punct" and text in "+*"):
                raise self.error("missing right operand of binary operator" if after_operator
                                 else "missing left operand of binary operator")
            else:
                raise self.error("expected affine expression")
            self.index += 1
            values.append(_negate(value, negations))
            negations = 0
            # Operators and closing parentheses, until the next operand.
            while True:
                kind, text, offset = self.peek()
                if kind == "punct" and text in "+-":
                    self.reduce(values, operators, low=True)
                elif kind in ("punct", "id") and text in _HIGH_OPS:
                    self.reduce(values, operators, low=False, trigger=offset)
                elif kind == "punct" and text == ")" and open_parens:
                    self.index += 1
                    self.reduce(values, operators, low=True)
                    _, paren_negations = operators.pop()
                    open_parens -= 1
                    values.append(_negate(values.pop(), paren_negations))
                    continue
                else:
                    if open_parens:
                        raise self.wrong_token("expected ')'")
                    self.reduce(values, operators, low=True)
                    return values[0]
                self.index += 1
                operators.append((text, offset))
                after_operator = True
                break

    def reduce(self, values: list[AffineExpr], operators: list[tuple[str, int]], low: bool,
               trigger: int | None = None) -> None:
        """Apply the pending operators back to the innermost open parenthesis: all of
        them before a `+`/`-` or the end, the high-precedence ones before another
        high-precedence operator. MLIR reports a non-affine product of `a * b * c` at the
        operator that follows it, so `trigger` is that location."""
        while operators:
            op, offset = operators[-1]
            if op == "(" or (not low and op in "+-"):
                return
            operators.pop()
            rhs = values.pop()
            lhs = values.pop()
            values.append(_apply(op, lhs, rhs, offset if trigger is None else trigger))


def _negate(value: AffineExpr, count: int) -> AffineExpr:
    for _ in range(count):
        value = constant(-1) * value
    return value


def _apply(op: str, lhs: AffineExpr, rhs: AffineExpr, offset: int) -> AffineExpr:
    try:
        if op == "+":
            return lhs + rhs
        if op == "-":
            return lhs - rhs
        if op == "*":
            return lhs * rhs
        if op == "floordiv":
            return lhs.floordiv(rhs)
        if op == "ceildiv":
            return lhs.ceildiv(rhs)
        return lhs.mod(rhs)
    except ValueError as exc:
        raise AffineParseError(str(exc), offset) from None


def _next_token(text: str, pos: int, end: int, allow_ssa: bool = False
                ) -> tuple[tuple[str, str, int], int]:
    """The token at `pos` (after whitespace and comments, before `end`) and where it
    ends; SSA names only where `allow_ssa`."""
    m = _TOKEN_RE.match(text, pos, end)
    if m is None or (m.lastgroup == "ssa" and not allow_ssa):
        skipped = _SKIP_RE.match(text, pos).end()
        char = text[skipped]
        # MLIR's lexer reads `%` as the start of an SSA name, whatever follows.
        message = "invalid SSA name" if char == "%" else f"unexpected character {quoted_char(char)}"
        raise AffineParseError(message, skipped)
    kind = m.lastgroup
    return (kind, m.group(kind), m.start(kind)), m.end()
