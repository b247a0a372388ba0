"""Canonicalization patterns of graph ops, for the core `canonicalize` pass.

Each module here holds a family of declarative patterns (`PATTERNS`, a list of
DagPattern or RewritePattern); they are indexed once by root op name, and every graph
op class contributes the patterns rooted at it (`GraphOp.canonicalization_patterns`).
"""

from __future__ import annotations

from collections import defaultdict
from importlib import import_module

FAMILIES = ("algebra", "layout")

_BY_ROOT: dict[str, list] | None = None


def patterns_rooted_at(op_name: str) -> list:
    """The canonicalization patterns whose root is `op_name`."""
    global _BY_ROOT
    if _BY_ROOT is None:
        by_root: dict[str, list] = defaultdict(list)
        for family in FAMILIES:
            for pattern in import_module(f"{__name__}.{family}").PATTERNS:
                by_root[pattern.root].append(pattern)
        _BY_ROOT = dict(by_root)
    return _BY_ROOT.get(op_name, [])
