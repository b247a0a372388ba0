"""The post-dominator tree of the forward graph, with TVM's combined edge patterns.

The tree itself is the core's analysis (:func:`mlc.ir.analysis.dominance.post_dominator_tree`)
run over the forward graph; a node whose value leaves the block (`extern_ref`) reaches
an extra exit node, so its only post-dominator is outside and it gets no parent.

What fusion adds is a pattern per tree edge: for node n with immediate
post-dominator p, the combination (maximum) of the pattern of every graph edge out of
n and of every tree node passed on the way from n's consumers up to p. It says how
p depends on n through all the paths between them; e.g. conv2d fuses into p only if
that relation is elementwise. (TVM computes the same while taking least common
ancestors.)
"""

from __future__ import annotations

from dataclasses import dataclass

from mlc.graph.fusion.forward_graph import ForwardGraph, Node
from mlc.graph.op_base import PatternKind
from mlc.ir.analysis.dominance import post_dominator_tree


class _Outside:
    """Where values that leave the function go."""

    def __repr__(self) -> str:
        return "<outside>"


@dataclass
class DominatorInfo:
    """Per node index: the immediate post-dominator (None when only the outside
    post-dominates it) and the combined pattern of the relation to it."""

    parent: list[Node | None]
    pattern: list[PatternKind]
    # The consumer whose incoming edge set the combined pattern: what a remark names
    # when that pattern refuses a fusion.
    culprit: list[Node | None]


def post_dominators(graph: ForwardGraph) -> DominatorInfo:
    """Immediate post-dominators and combined patterns of every node of `graph`."""
    outside = _Outside()

    def successors(node):
        if node is outside:
            return []
        out = [edge.node for edge in node.outputs]
        if node.extern_ref:
            out.append(outside)
        return out

    tree = post_dominator_tree([*graph.nodes, outside], successors)
    count = len(graph.nodes)
    parent: list[Node | None] = [None] * count
    for node in graph.nodes:
        idom = tree.idom.get(node)
        parent[node.index] = idom if isinstance(idom, Node) and not node.extern_ref else None
    pattern = [PatternKind.OPAQUE] * count
    culprit: list[Node | None] = [None] * count
    # Consumers have larger indices, so walking backwards finds every tree pattern on
    # the way up already computed.
    for node in reversed(graph.nodes):
        target = parent[node.index]
        if target is None:
            continue
        combined, blamed = PatternKind.ELEMWISE, None
        for edge in node.outputs:
            if edge.pattern > combined or blamed is None:
                combined, blamed = max(combined, edge.pattern), edge.node
            current = edge.node
            while current is not target:
                if pattern[current.index] > combined:
                    combined, blamed = pattern[current.index], culprit[current.index]
                current = parent[current.index]
        pattern[node.index] = combined
        culprit[node.index] = blamed
    return DominatorInfo(parent, pattern, culprit)
