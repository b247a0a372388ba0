"""Rewrite patterns and the sets drivers apply.

A pattern names the op it is rooted at (its op class, or its name; None for any op),
a benefit (higher is tried first) and implements `match_and_rewrite(op, rewriter)`,
returning whether it changed the IR; every change goes through the rewriter. A
pattern that does not apply can say why with `rewriter.notify_match_failure(op,
reason)`.

    class FoldDoubleNegation(RewritePattern):
        root = NegFOp
        def match_and_rewrite(self, op, rewriter): ...
"""

from __future__ import annotations

from collections.abc import Iterable

from mlc.ir.core.ir import Operation
from mlc.ir.rewrite.rewriter import PatternRewriter


class PatternError(ValueError):
    """A pattern that cannot be right, found when it is built (an unknown op, a wrong
    operand count, a capture never bound...); the message names the pattern."""


class RewritePattern:
    """Base of code patterns; declarative ones are :class:`~mlc.ir.rewrite.drr.DagPattern`.

    A subclass may declare `root` as an op class: it is kept as the op's name, with the
    class in `root_op`."""

    root: str | None = None
    root_op: type | None = None
    benefit: int = 1
    # MLIR's hasBoundedRewriteRecursion: the pattern may apply to ops it produced
    # itself (each time on something smaller, so it ends: a loop's nested loops).
    bounded_recursion: bool = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        root = cls.__dict__.get("root")
        if isinstance(root, type):
            op_def = getattr(root, "op_def", None)
            if op_def is None:
                raise PatternError(f"pattern '{cls.__name__}': root {root.__name__} is not "
                                   "a declared op class")
            cls.root, cls.root_op = op_def.name, root

    @property
    def name(self) -> str:
        return type(self).__name__

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        """Rewrite `op` through `rewriter` if the pattern applies; whether it did."""
        raise NotImplementedError

    def describe(self) -> str:
        """A one-line description for `--list-patterns`."""
        doc = (type(self).__doc__ or "").strip().splitlines()
        return doc[0] if doc else ""


class PatternSet:
    """Patterns indexed by root op name, each list in decreasing benefit (stable)."""

    def __init__(self, patterns: Iterable[RewritePattern] = ()):
        self.patterns: list[RewritePattern] = []
        self.by_root: dict[str, list[RewritePattern]] = {}
        self.any_root: list[RewritePattern] = []
        self._merged: dict[str, list[RewritePattern]] = {}
        for pattern in patterns:
            self.add(pattern)

    def add(self, pattern: RewritePattern) -> None:
        self.patterns.append(pattern)
        if pattern.root is None:
            self.any_root.append(pattern)
        else:
            self.by_root.setdefault(pattern.root, []).append(pattern)
        self._merged.clear()

    def for_op(self, name: str) -> list[RewritePattern]:
        """Patterns to try on an op named `name`, best first."""
        merged = self._merged.get(name)
        if merged is None:
            candidates = self.by_root.get(name, []) + self.any_root
            merged = sorted(candidates, key=lambda p: -p.benefit)
            self._merged[name] = merged
        return merged

    def filtered(self, enabled: Iterable[str] = (), disabled: Iterable[str] = ()) -> PatternSet:
        """A copy keeping only `enabled` (if given) and dropping `disabled`, by name."""
        enabled, disabled = set(enabled), set(disabled)
        return PatternSet(p for p in self.patterns
                          if (not enabled or p.name in enabled) and p.name not in disabled)

    def __len__(self) -> int:
        return len(self.patterns)

    def __iter__(self):
        return iter(self.patterns)
