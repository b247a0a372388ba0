"""The lark grammar of MLIR's generic syntax and its LALR tables (built once, then
loaded from the on-disk cache)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from importlib import resources
from pathlib import Path

from lark import Lark
from lark.lexer import Lexer

from mlc.ir.text.lexer import DECLARED_TERMINALS, LexerConfig


def _base_grammar() -> str:
    return resources.files("mlc.ir.text").joinpath("base_grammar.lark").read_text()


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


class GrammarSpec:
    """The grammar text of MLIR's generic syntax (fixed: custom forms are parse
    functions, not grammar rules), with its digest for the table cache."""

    def __init__(self):
        self.text = "\n".join([_base_grammar(), "%declare " + " ".join(DECLARED_TERMINALS)]) + "\n"
        self.digest = hashlib.sha256(self.text.encode()).hexdigest()[:16]


class GrammarLexer(Lexer):
    """The lexer lark builds with the grammar: it only collects the keyword and
    punctuation terminals lark named (the driver lexes with a TokenStream)."""

    __future_interface__ = 2

    def __init__(self, lexer_conf):
        from lark.lexer import PatternStr

        keywords: dict[str, list[str]] = {}
        punctuation: dict[str, str] = {}
        for terminal in lexer_conf.terminals:
            pattern = terminal.pattern
            if not isinstance(pattern, PatternStr):
                continue
            if pattern.value[:1].isalpha() or pattern.value[:1] == "_":
                keywords.setdefault(pattern.value, []).append(terminal.name)
            else:
                punctuation[pattern.value] = terminal.name
        self.config = LexerConfig(keywords, punctuation)
        self.lexer_conf = lexer_conf

    def lex(self, lexer_state, parser_state):  # pragma: no cover - the driver lexes
        raise NotImplementedError


def build_lark(spec: GrammarSpec, transformer) -> Lark:
    """The LALR parser for `spec`, with `transformer`'s methods as inline callbacks
    (tables cached on disk, keyed by the grammar's text)."""
    cache_file = cache_dir() / f"grammar-{spec.digest}.lark-cache"
    lark = Lark(
        spec.text,
        parser="lalr",
        lexer=GrammarLexer,
        start=["start", "type_start", "attribute_start", "location_start", "region_start",
               "dict_start"],
        transformer=transformer,
        maybe_placeholders=True,
        cache=str(cache_file),
    )
    # lark maps transformer methods to terminal callbacks only for terminals it defines;
    # ours come from %declare, so register them in the (shared) callback table.
    for name in DECLARED_TERMINALS:
        method = getattr(transformer, name, None)
        if method is not None:
            lark._callbacks[name] = method
    return lark
