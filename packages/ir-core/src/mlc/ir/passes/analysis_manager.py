"""Analyses requested from the pass manager, cached per op, invalidated after a pass
unless it preserves them."""

from __future__ import annotations

from mlc.ir.analysis.dominance import DominatorTree, dominator_tree, post_dominator_tree
from mlc.ir.core.ir import Block, Operation, Region


class AnalysisManager:
    """`get(cls, op)` computes `cls(op)` once until invalidated."""

    def __init__(self):
        self.cache: dict[tuple[type, Operation], object] = {}
        self.computed = 0

    def get(self, cls: type, op: Operation):
        key = (cls, op)
        analysis = self.cache.get(key)
        if analysis is None:
            analysis = self.cache[key] = cls(op)
            self.computed += 1
        return analysis

    def invalidate(self, preserved: tuple[type, ...] = ()) -> None:
        """Drop every cached analysis whose class is not in `preserved`."""
        if not self.cache:
            return
        self.cache = {k: v for k, v in self.cache.items() if k[0] in preserved}


class DominanceInfo:
    """Dominator trees of the regions under an op, computed per region on demand."""

    def __init__(self, op: Operation):
        self.op = op
        self.trees: dict[Region, DominatorTree] = {}

    def tree(self, region: Region) -> DominatorTree:
        tree = self.trees.get(region)
        if tree is None:
            tree = self.trees[region] = dominator_tree(region)
        return tree

    def block_dominates(self, a: Block, b: Block) -> bool:
        """Whether block `a` dominates block `b` (blocks of one region, or `b` nested
        in a block that `a` dominates)."""
        region = a.parent
        while b is not None and b.parent is not region:
            parent = b.parent_op
            b = parent.parent if parent is not None else None
        if b is None or region is None:
            return False
        return self.tree(region).dominates(a, b)


class PostDominanceInfo:
    """Post-dominator trees of the regions under an op."""

    def __init__(self, op: Operation):
        self.op = op
        self.trees: dict[Region, DominatorTree] = {}

    def tree(self, region: Region) -> DominatorTree:
        tree = self.trees.get(region)
        if tree is None:
            blocks = region.blocks
            tree = self.trees[region] = post_dominator_tree(
                blocks, lambda b: [s for s in b.successors if s.parent is region])
        return tree

    def block_post_dominates(self, a: Block, b: Block) -> bool:
        if a.parent is not b.parent or a.parent is None:
            return False
        return self.tree(a.parent).dominates(a, b)
