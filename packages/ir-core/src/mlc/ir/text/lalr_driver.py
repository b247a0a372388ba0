"""Driving lark's LALR tables with mlc's lexer in one tight loop.

lark builds the grammar, the LALR(1) tables and the per-rule callbacks (which drop
punctuation and fill `[optional]` placeholders before calling mlc's transformer).
This loop feeds them: it is lark's shift/reduce loop with the table rows pre-resolved
to (size, callback) pairs, so a parse spends its time in mlc's callbacks.
"""

from __future__ import annotations

from lark.parsers.lalr_analysis import Shift

_SHIFT = 0
_OTHER_READING = {"VALUE_USE": "VALUE_ID", "VALUE_ID": "VALUE_USE"}


class ParseFailure(Exception):
    """No action for a token: the token, and the terminals the state accepts."""

    def __init__(self, token, expected: set[str]):
        super().__init__(f"unexpected {token.type}")
        self.token = token
        self.expected = expected


class _EndToken:
    __slots__ = ("type", "value", "start_pos")

    def __init__(self, pos: int):
        self.type = "$END"
        self.value = ""
        self.start_pos = pos


class LALRDriver:
    """Pre-resolved tables of one lark parser."""

    def __init__(self, lark):
        frontend = lark.parser
        parse_table = frontend.parser.parser.parse_table
        callbacks = lark._callbacks
        self.lexer = frontend.lexer
        self.raw_states = parse_table.states
        self.start_states = parse_table.start_states
        self.end_states = parse_table.end_states
        self.terminal_callbacks = {k: v for k, v in callbacks.items() if isinstance(k, str)}
        rule_info: dict = {}
        table: dict = {}
        for state, row in parse_table.states.items():
            fast_row = {}
            for symbol, (action, arg) in row.items():
                if action is Shift:
                    fast_row[symbol] = (_SHIFT, arg)
                else:
                    info = rule_info.get(arg)
                    if info is None:
                        info = rule_info[arg] = (len(arg.expansion), arg.origin.name, callbacks[arg])
                    fast_row[symbol] = (1, info)
            table[state] = fast_row
        self.table = table

    def parse(self, text: str, start: str, observer=None):
        """Parse `text` from rule `start`; `observer.value_stack` is set to the value
        stack so callbacks can see the enclosing, unfinished rules."""
        table = self.table
        terminal_callbacks = self.terminal_callbacks
        state_stack = [self.start_states[start]]
        value_stack: list = []
        if observer is not None:
            observer.value_stack = value_stack
        tokens = self.lexer.tokens(text, self.raw_states, state_stack)
        for token in tokens:
            ttype = token.type
            while True:
                entry = table[state_stack[-1]].get(ttype)
                if entry is None:
                    # The lexer chose between a use and a definition of a value in the
                    # state before LALR's default reductions; after them, the other
                    # reading may be the one the parser takes.
                    other = _OTHER_READING.get(ttype)
                    if other is not None and other in table[state_stack[-1]]:
                        token.type = ttype = other
                        continue
                    raise ParseFailure(token, set(table[state_stack[-1]]))
                if entry[0] is _SHIFT:
                    state_stack.append(entry[1])
                    callback = terminal_callbacks.get(ttype)
                    value_stack.append(token if callback is None else callback(token))
                    break
                size, origin, callback = entry[1]
                if size:
                    args = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    args = []
                if observer is not None:
                    observer.raw_args = args  # the unfiltered children, for positions
                value_stack.append(callback(args))
                state_stack.append(table[state_stack[-1]][origin][1])
        end = _EndToken(len(text.rstrip()))
        end_state = self.end_states[start]
        while True:
            entry = table[state_stack[-1]].get("$END")
            if entry is None:
                raise ParseFailure(end, set(table[state_stack[-1]]))
            if entry[0] is _SHIFT:  # pragma: no cover - $END is never shifted
                raise ParseFailure(end, set())
            size, origin, callback = entry[1]
            if size:
                args = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                args = []
            value_stack.append(callback(args))
            state_stack.append(table[state_stack[-1]][origin][1])
            if state_stack[-1] == end_state:
                return value_stack[-1]
