"""Dominator trees of a region's block graph.

The iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance
Algorithm"): number blocks in reverse post-order, then intersect predecessor
dominators until nothing changes. Edges come from each block's terminator successors.
"""

from __future__ import annotations

from mlc.ir.core.ir import Block, Region


class DominatorTree:
    """Immediate dominators of the blocks reachable from the region's entry."""

    def __init__(self, blocks: list[Block], idom: dict[Block, Block | None],
                 unreachable: frozenset = frozenset()):
        self.blocks = blocks
        self.idom = idom
        self.unreachable = unreachable
        self.children: dict[Block, list[Block]] = {b: [] for b in blocks}
        for block in blocks:
            parent = idom.get(block)
            if parent is not None:
                self.children[parent].append(block)

    def dominates(self, a: Block, b: Block) -> bool:
        """True if every path from the entry to `b` passes through `a`."""
        if a is b:
            return True
        if b not in self.idom:
            return False
        if b in self.unreachable:
            return True  # no path reaches b: vacuously, every block dominates it
        current = self.idom.get(b)
        while current is not None:
            if current is a:
                return True
            current = self.idom.get(current)
        return False

    def preorder(self) -> list[tuple[Block, Block | None]]:
        """(block, immediate dominator) in a pre-order walk of the tree."""
        roots = [b for b in self.blocks if self.idom.get(b) is None]
        order = []
        stack = list(reversed(roots))
        while stack:
            block = stack.pop()
            order.append((block, self.idom.get(block)))
            stack.extend(reversed(self.children[block]))
        return order


def postorder(entry: Block, successors=lambda block: block.successors) -> list[Block]:
    """The blocks reachable from `entry`, each after its successors (iterative DFS;
    `successors(block)` gives the edges, by default the terminator's successors)."""
    order: list[Block] = []
    seen = {entry}
    stack = [(entry, iter(successors(entry)))]
    while stack:
        block, children = stack[-1]
        for child in children:
            if child not in seen:
                seen.add(child)
                stack.append((child, iter(successors(child))))
                break
        else:
            stack.pop()
            order.append(block)
    return order


def reverse_postorder(entry: Block, successors=lambda block: block.successors) -> list[Block]:
    """The blocks reachable from `entry` in reverse post-order: each block after every
    block that dominates it."""
    order = postorder(entry, successors)
    order.reverse()
    return order


def compute_idoms(entry: Block, successors, predecessors) -> dict[Block, Block | None]:
    """Immediate dominators (entry -> None) of the blocks reachable from `entry`."""
    order = reverse_postorder(entry, successors)
    number = {b: i for i, b in enumerate(order)}
    idom: dict[Block, Block] = {entry: entry}
    changed = True
    while changed:
        changed = False
        for block in order[1:]:
            new_idom = None
            for pred in predecessors(block):
                if pred not in idom:
                    continue
                if new_idom is None:
                    new_idom = pred
                    continue
                a, b = pred, new_idom
                while a is not b:
                    while number[a] > number[b]:
                        a = idom[a]
                    while number[b] > number[a]:
                        b = idom[b]
                new_idom = a
            if new_idom is not None and idom.get(block) is not new_idom:
                idom[block] = new_idom
                changed = True
    result: dict[Block, Block | None] = {b: (None if b is entry else idom[b]) for b in order}
    return result


def dominator_tree(region: Region) -> DominatorTree:
    """The dominator tree of `region`'s blocks (unreachable blocks become roots)."""
    blocks = region.blocks
    if len(blocks) <= 1:
        return DominatorTree(list(blocks), {b: None for b in blocks})
    preds: dict[Block, list[Block]] = {b: [] for b in blocks}
    for block in blocks:
        for succ in block.successors:
            if succ in preds:
                preds[succ].append(block)
    idom = compute_idoms(blocks[0], lambda b: [s for s in b.successors if s in preds],
                         lambda b: preds[b])
    unreachable = frozenset(b for b in blocks if b not in idom)
    for block in blocks:
        idom.setdefault(block, None)
    return DominatorTree(list(blocks), idom, unreachable)


def post_dominator_tree(nodes, successors) -> DominatorTree:
    """The post-dominator tree of a graph given by its nodes and successor function.

    Generic over node kinds: blocks of a region, or the nodes of fusion's dataflow
    graph. Nodes without successors are exits; a virtual exit after all of them is
    the root, so a node's immediate post-dominator is None when only the virtual exit
    post-dominates it.
    """
    nodes = list(nodes)
    exit_node = _VirtualExit()
    preds: dict = {n: [] for n in nodes}
    succs: dict = {}
    for node in nodes:
        out = [s for s in successors(node) if s in preds]
        succs[node] = out
        for s in out:
            preds[s].append(node)
    exits = [n for n in nodes if not succs[n]]
    # Reverse graph: edges point from a node to its predecessors; the virtual exit
    # leads to every exit.
    reverse_succ = {n: preds[n] for n in nodes}
    reverse_succ[exit_node] = exits
    reverse_pred = {n: succs[n] or [exit_node] for n in nodes}
    reverse_pred[exit_node] = []
    idom = compute_idoms(exit_node, lambda n: reverse_succ[n], lambda n: reverse_pred[n])
    result: dict = {}
    for node in nodes:
        parent = idom.get(node, None)
        result[node] = None if parent is exit_node else parent
    return DominatorTree(nodes, result, frozenset(n for n in nodes if n not in idom))


class _VirtualExit:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<exit>"
