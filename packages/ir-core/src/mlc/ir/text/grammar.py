"""Assembling the lark grammar for a set of loaded dialects, and building (or loading
from the on-disk cache) its LALR tables."""

from __future__ import annotations

import hashlib
import os
import tempfile
from importlib import resources
from pathlib import Path

from lark import Lark

from mlc.ir.dialect import Context
from mlc.ir.text.lexer import DECLARED_TERMINALS, MLIRLexer


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
    """The grammar text for the ops with custom formats in a context, and the keyword
    spellings of each op's name."""

    def __init__(self, ctx: Context):
        from mlc.ir.text.directives import DIRECTIVES

        op_classes = sorted(ctx.op_classes.items())
        default_dialects = {"builtin"} | {
            cls.default_dialect for _, cls in op_classes if getattr(cls, "default_dialect", None)}
        rules: list[str] = []
        self.op_rules: dict[str, type] = {}
        declared = list(DECLARED_TERMINALS)
        terminals: list[str] = []
        index = 0
        for name, cls in op_classes:
            fmt = cls.op_def.format
            if fmt is None:
                continue
            rule_name, text = fmt.grammar(index)
            index += 1
            self.op_rules[rule_name] = cls
            # The op's name, and its short spelling where a default dialect allows it,
            # are string terminals: the lexer turns them into keywords.
            spellings = [name]
            if cls.op_def.dialect_name in default_dialects:
                spellings.append(cls.op_def.short_name)
            names = []
            for k, spelling in enumerate(spellings):
                terminal = fmt.op_terminal + ("" if k == 0 else f"_{k}")
                terminals.append(f'{terminal}: "{spelling}"')
                names.append(terminal)
            head = f"{rule_name}: {fmt.op_terminal} "
            assert text.startswith(head)
            rules.append(f"{rule_name}: ({' | '.join(names)}) " + text[len(head):])
        op_body = " | ".join(["generic_op", *self.op_rules])
        directive_rules = "\n".join(d.grammar for d in sorted(set(DIRECTIVES.values()),
                                                              key=lambda d: d.name))
        self.text = "\n".join([
            _base_grammar(),
            f"_op_body: {op_body}",
            directive_rules,
            *rules,
            *terminals,
            "%declare " + " ".join(declared),
        ]) + "\n"
        self.digest = hashlib.sha256(self.text.encode()).hexdigest()[:16]


class GrammarLexer(MLIRLexer):
    """The lexer lark builds for a generated grammar: keywords and punctuation come from
    the grammar's string terminals (op names among them)."""

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
        configured = MLIRLexer.configure(keywords, punctuation)
        self.keyword_terminals = configured.keyword_terminals
        self.punctuation_terminals = configured.punctuation_terminals
        self.master_re = configured.master_re
        self.lexer_conf = lexer_conf


def build_lark(spec: GrammarSpec, transformer) -> Lark:
    """The LALR parser for `spec`, with `transformer`'s methods as inline callbacks
    (tables cached on disk, keyed by the grammar's text)."""
    cache_file = cache_dir() / f"grammar-{spec.digest}.lark-cache"
    lark = Lark(
        spec.text,
        parser="lalr",
        lexer=GrammarLexer,
        start=["start", "type_start", "attribute_start", "location_start"],
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
