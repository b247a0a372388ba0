"""Driving the grammar's LALR tables over a :class:`~mlc.ir.text.lexer.TokenStream`
in one tight loop.

lark builds the LALR(1) tables (:mod:`~mlc.ir.text.grammar` turns them into plain data
and one reduce function per rule); this is lark's shift/reduce loop with each row
pre-resolved to (size, function) pairs, so a parse spends its time in mlc's callbacks.

A parse may cover a prefix of the remaining text (`prefix=True`): it stops when the
next token cannot continue the start symbol, and leaves that token unread. That is how
the parse functions of custom op forms hand a region, a type or an attribute back to
the grammar and take the stream back afterwards.
"""

from __future__ import annotations

from mlc.ir.text.lexer import LexError, Tok, TokenStream

_SHIFT = 0
_OTHER_READING = {"VALUE_USE": "VALUE_ID", "VALUE_ID": "VALUE_USE"}


class ParseFailure(Exception):
    """No action for a token: the token, the terminals the state accepts, the state."""

    def __init__(self, token, expected: set[str], state: int):
        super().__init__(f"unexpected {token.type}")
        self.token = token
        self.expected = expected
        self.state = state


class LALRDriver:
    """The grammar's tables with each reduce action resolved to its function."""

    def __init__(self, tables, callbacks, direct_callbacks: dict | None = None):
        """`direct_callbacks` replaces the reduce function of a rule by one taking the
        rule's unfiltered children (for hot rules whose value needs no shaping)."""
        direct_callbacks = direct_callbacks or {}
        reducers, self.terminal_callbacks = tables.bind(callbacks)
        self.items = tables.items  # per state, for error messages
        self.start_states = tables.start_states
        self.end_states = tables.end_states
        rule_info = [(size, origin, direct_callbacks.get(origin, reducer))
                     for (size, origin), reducer in zip(tables.rules, reducers)]
        self.table = {
            state: {symbol: (_SHIFT, arg) if action == 0 else (1, rule_info[arg])
                    for symbol, (action, arg) in row.items()}
            for state, row in tables.states.items()}

    def parse(self, stream: TokenStream, start: str, observer=None, prefix: bool = False):
        """Parse from rule `start` at `stream.pos`. `observer.value_stack` is set to the
        value stack so callbacks can see the enclosing, unfinished rules. With `prefix`,
        stop before the first token that cannot continue `start`."""
        table = self.table
        terminal_callbacks = self.terminal_callbacks
        state_stack = [self.start_states[start]]
        value_stack: list = []
        saved_stack = None
        if observer is not None:
            saved_stack = observer.value_stack
            observer.value_stack = value_stack
        lex_error = None
        try:
            while True:
                row = table[state_stack[-1]]
                try:
                    token = stream.next_token(row)
                except LexError as exc:
                    # Text the grammar cannot read may still follow a complete prefix
                    # (the custom parser that asked for it reads on); if the prefix is
                    # not complete, this is the error to report.
                    if not prefix:
                        raise
                    lex_error = exc
                    token = Tok("$END", "", stream.skip())
                    stream.pos = token.start_pos
                ttype = token.type
                if ttype == "$END":
                    break
                while True:
                    entry = table[state_stack[-1]].get(ttype)
                    if entry is None:
                        # The stream chose between a use and a definition of a value in
                        # the state before LALR's default reductions; after them, the
                        # other reading may be the one the parser takes.
                        other = _OTHER_READING.get(ttype)
                        if other is not None and other in table[state_stack[-1]]:
                            token.type = ttype = other
                            continue
                        if prefix:
                            break
                        raise ParseFailure(token, set(table[state_stack[-1]]),
                                           self._context_state(state_stack))
                    if entry[0] is _SHIFT:
                        state_stack.append(entry[1])
                        stream.last_end = stream.pos
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
                if entry is None:  # a prefix ends before this token: leave it unread
                    stream.pos = token.start_pos
                    break
            try:
                return self._finish(state_stack, value_stack, start, token, observer)
            except ParseFailure:
                if lex_error is not None:
                    raise lex_error from None
                raise
        finally:
            if observer is not None:
                observer.value_stack = saved_stack

    def _context_state(self, state_stack: list) -> int:
        """The state a failure is reported from: the failing state after its default
        reductions (a state that can reduce by one rule only reduces by it, whatever
        comes next, as yacc's tables do), so that its items name the construct being
        read, as a recursive-descent parser would, not a finished part of it."""
        table = self.table
        stack = list(state_stack)
        while True:
            row = table[stack[-1]]
            rules = {id(entry[1]): entry[1] for entry in row.values() if entry[0] is not _SHIFT}
            if len(rules) != 1:
                return stack[-1]
            size, origin, _ = next(iter(rules.values()))
            if size:
                del stack[-size:]
            goto = table[stack[-1]].get(origin) if stack else None
            if goto is None:
                return state_stack[-1]
            stack.append(goto[1])

    def _finish(self, state_stack: list, value_stack: list, start: str, token, observer=None):
        table = self.table
        end_state = self.end_states[start]
        end = Tok("$END", "", token.start_pos)
        while True:
            entry = table[state_stack[-1]].get("$END")
            if entry is None or entry[0] is _SHIFT:
                raise ParseFailure(token if token.type != "$END" else end,
                                   set(table[state_stack[-1]]), self._context_state(state_stack))
            size, origin, callback = entry[1]
            if size:
                args = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                args = []
            if observer is not None:
                observer.raw_args = args
            value_stack.append(callback(args))
            state_stack.append(table[state_stack[-1]][origin][1])
            if state_stack[-1] == end_state:
                return value_stack[-1]
