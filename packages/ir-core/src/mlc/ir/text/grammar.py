"""The grammar of MLIR's generic syntax and its LALR tables.

lark reads the grammar and builds the LALR(1) tables; this module turns them into
plain data the driver runs on — rows of (shift, state) and (reduce, rule) actions — and
generates one small reduce function per rule that shapes its children the way lark's
parse-tree builder would (punctuation dropped, `[optional]` placeholders as None,
`_inlined` rules spliced, `?rule` with one child passed through) and calls the
transformer's method. The result is cached on disk, keyed by the grammar and the
Python version, so a process that parses needs neither lark nor a table build.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import sys
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from mlc.ir.text.lexer import DECLARED_TERMINALS, LexerConfig

_FORMAT_VERSION = 5  # bump when the cached data's layout changes
START_SYMBOLS = ("start", "type_start", "attribute_start", "location_start", "region_start",
                 "dict_start")


def grammar_text() -> str:
    base = resources.files("mlc.ir.text").joinpath("base_grammar.lark").read_text()
    return base + "\n%declare " + " ".join(DECLARED_TERMINALS) + "\n"


def cache_dir() -> Path:
    """Where LALR tables are cached: $MLC_CACHE_DIR, else ~/.cache/mlc, else a temp dir."""
    configured = os.environ.get("MLC_CACHE_DIR")
    candidates = [Path(configured)] if configured else []
    candidates += [Path.home() / ".cache" / "mlc", Path(tempfile.gettempdir()) / "mlc-cache"]
    for candidate in candidates:
        try:
            candidate.mkdir(parents=True, exist_ok=True)
            if os.access(candidate, os.W_OK):
                return candidate
        except OSError:
            continue
    return Path(tempfile.gettempdir())


@dataclass
class ParseTables:
    """Everything the driver needs, as plain data."""

    states: dict[int, dict[str, tuple[int, int]]]  # (0, next state) or (1, rule index)
    rules: list[tuple[int, str]]  # (number of symbols, origin rule name)
    start_states: dict[str, int]
    end_states: dict[str, int]
    keywords: dict[str, list[str]]
    punctuation: dict[str, str]
    reducers: bytes  # marshalled code of `bind(callbacks) -> [reduce function per rule]`
    terminal_methods: tuple[str, ...]
    # Per state, its LR items as (rule, the symbols before the dot joined by spaces,
    # the symbol after it or None at the end): what construct a parse that fails in the
    # state was reading. A rule lark made for a repetition is named as its own rule; a
    # terminal that is literal text is named by its text.
    items: dict[int, tuple[tuple[str, str, str | None], ...]]

    def lexer_config(self) -> LexerConfig:
        return LexerConfig(self.keywords, self.punctuation)

    def bind(self, callbacks: Any) -> tuple[list, dict]:
        """The reduce functions (by rule index) and terminal callbacks of `callbacks`."""
        namespace: dict[str, Any] = {}
        exec(marshal.loads(self.reducers), namespace)  # noqa: S102 - our own generated code
        reducers = namespace["bind"](callbacks)
        terminals = {name: getattr(callbacks, name) for name in self.terminal_methods}
        return reducers, terminals


def load_tables(callbacks_class: type) -> ParseTables:
    """The tables for the grammar and `callbacks_class` (the transformer whose method
    names the reduce functions call), from the cache or built with lark."""
    text = grammar_text()
    methods = sorted(n for n in dir(callbacks_class) if not n.startswith("__"))
    key = hashlib.sha256("\0".join([text, *methods, str(_FORMAT_VERSION), sys.version])
                         .encode()).hexdigest()[:20]
    path = cache_dir() / f"grammar-{key}.tables"
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError):
        pass
    tables = _build_tables(text, set(methods))
    try:
        temp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(temp, "wb") as f:
            pickle.dump(tables, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temp, path)
    except OSError:
        pass  # an unwritable cache only costs the next process a rebuild
    return tables


def _build_tables(text: str, methods: set[str]) -> ParseTables:
    from lark import Lark
    from lark.lexer import Lexer, PatternStr
    from lark.parse_tree_builder import maybe_create_child_filter
    from lark.parsers.lalr_analysis import IntParseTable, LALR_Analyzer, Shift

    class _CollectingLexer(Lexer):
        """lark's lexer slot: mlc lexes itself, so this only records terminals."""

        __future_interface__ = 2

        def __init__(self, lexer_conf):
            self.lexer_conf = lexer_conf

        def lex(self, lexer_state, parser_state):  # pragma: no cover - never called
            raise NotImplementedError

    lark = Lark(text, parser="lalr", lexer=_CollectingLexer, start=list(START_SYMBOLS),
                maybe_placeholders=True)
    keywords: dict[str, list[str]] = {}
    punctuation: dict[str, str] = {}
    for terminal in lark.terminals:
        pattern = terminal.pattern
        if isinstance(pattern, PatternStr):
            if pattern.value[:1].isalpha() or pattern.value[:1] == "_":
                keywords.setdefault(pattern.value, []).append(terminal.name)
            else:
                punctuation[pattern.value] = terminal.name
    # lark's own table forgets each state's LR items; an analysis kept in its debug form
    # (states keyed by their item sets) has them, and numbers states the same way.
    analysis = LALR_Analyzer(lark.parser.parser_conf, debug=True)
    analysis.compute_lalr()
    parse_table = IntParseTable.from_ParseTable(analysis.parse_table)
    literal = {t.name: t.pattern.value for t in lark.terminals if isinstance(t.pattern, PatternStr)}

    def symbol(sym) -> str:
        return literal.get(sym.name) or _rule_name(sym.name)

    items = {
        index: tuple(sorted({(_rule_name(rp.rule.origin.name),
                              " ".join(map(symbol, rp.rule.expansion[:rp.index])),
                              None if rp.is_satisfied else symbol(rp.next))
                             for rp in closure}, key=str))
        for index, closure in enumerate(analysis.parse_table.states)}
    rule_index: dict[Any, int] = {}
    rules: list[tuple[int, str]] = []
    functions: list[str] = []
    used_methods: set[str] = set()
    states: dict[int, dict[str, tuple[int, int]]] = {}
    for state, row in parse_table.states.items():
        out = {}
        for symbol, (action, arg) in row.items():
            symbol = str(symbol)  # lark's Token is a str subclass: keep plain strings
            if action is Shift:
                out[symbol] = (0, arg)
                continue
            index = rule_index.get(arg)
            if index is None:
                index = rule_index[arg] = len(rules)
                rules.append((len(arg.expansion), str(arg.origin.name)))
                functions.append(_reducer_source(index, arg, methods, used_methods,
                                                 maybe_create_child_filter))
            out[symbol] = (1, index)
        states[state] = out
    lines = ["def bind(cb):"]
    lines += [f"    m_{name} = cb.{name}" for name in sorted(used_methods)]
    lines += functions
    lines.append(f"    return [{', '.join(f'r{i}' for i in range(len(rules)))}]")
    code = compile("\n".join(lines) + "\n", "<mlc grammar reducers>", "exec")
    return ParseTables(states, rules,
                       {str(k): v for k, v in parse_table.start_states.items()},
                       {str(k): v for k, v in parse_table.end_states.items()},
                       {str(k): [str(t) for t in v] for k, v in keywords.items()},
                       {str(k): str(v) for k, v in punctuation.items()},
                       marshal.dumps(code),
                       tuple(n for n in DECLARED_TERMINALS if n in methods), items)


def _rule_name(name: str) -> str:
    """The grammar's name of a rule: lark's `__block_args_star_3` is `block_args`."""
    if name.startswith("__") and "_star_" in name:
        return name[2:name.rindex("_star_")]
    return name


def _reducer_source(index: int, rule, methods: set[str], used: set[str],
                    child_filter) -> str:
    """One reduce function: children shaped as lark's parse-tree builder shapes them,
    then the transformer's method (or, for an `_inlined` rule, the list to splice)."""
    name = rule.alias or rule.origin.name
    expansion = rule.expansion
    made = child_filter(expansion, rule.options.keep_all_tokens, False,
                        rule.options.empty_indices)
    if made is None:
        to_include, trailing = [(i, False, 0) for i in range(len(expansion))], 0
    elif len(made.args) == 1:  # no placeholders: (index, to_expand) pairs
        to_include, trailing = [(i, x, 0) for i, x in made.args[0]], 0
    else:
        to_include, trailing = made.args
    parts = []
    for i, expand, nones in to_include:
        parts += ["None"] * nones
        parts.append(f"*c[{i}]" if expand else f"c[{i}]")
    parts += ["None"] * trailing
    children = "[" + ", ".join(parts) + "]"
    if name in methods:
        used.add(name)
        call = f"m_{name}(f)"
    elif name.startswith("_"):
        call = "f"  # spliced into the parent's children
    elif rule.options.expand1 and len(to_include) == 1:
        call = "f[0]"  # `?rule` whose one child always stands for it
    else:
        raise ValueError(f"grammar rule '{name}' has no callback")
    body = [f"    def r{index}(c):", f"        f = {children}"]
    if rule.options.expand1:
        body.append("        if len(f) == 1: return f[0]")
    body.append(f"        return {call}")
    return "\n".join(body)
