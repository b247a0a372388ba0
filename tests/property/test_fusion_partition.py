"""Properties of fusion's analysis and grouping on random dataflow graphs, checked
against brute force: the post-dominator tree and its combined patterns, and the
invariants every partition must keep (convex groups, one anchor per group, max-depth,
opt level 0 fuses nothing)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mlc.graph.fusion.dominator import post_dominators
from mlc.graph.fusion.forward_graph import Edge, ForwardGraph, Node
from mlc.graph.fusion.partition import partition
from mlc.graph.op_base import PatternKind

KINDS = [PatternKind.ELEMWISE, PatternKind.BROADCAST, PatternKind.INJECTIVE,
         PatternKind.COMM_REDUCE, PatternKind.OUT_ELEMWISE_FUSABLE, PatternKind.OPAQUE]


@st.composite
def forward_graphs(draw) -> ForwardGraph:
    """A random DAG in post-DFS-compatible order: node i reads only nodes < i."""
    count = draw(st.integers(2, 14))
    nodes = [Node(0, "param", PatternKind.OPAQUE)]
    nodes[0].extern_ref = True
    for i in range(1, count):
        kind = draw(st.sampled_from(KINDS))
        node = Node(i, "op", kind)
        sources = draw(st.lists(st.integers(0, i - 1), min_size=1, max_size=3))
        for s in sources:
            edge_kind = kind
            if kind == PatternKind.BROADCAST and draw(st.booleans()):
                edge_kind = PatternKind.ELEMWISE  # an operand of the result's own shape
            nodes[s].outputs.append(Edge(node, edge_kind))
        nodes.append(node)
    # Whatever nobody reads is returned; a few others are returned too.
    for node in nodes:
        if not node.outputs or draw(st.integers(0, 9)) == 0:
            node.extern_ref = True
    return ForwardGraph(nodes, {})


def _exit_paths_avoid(graph: ForwardGraph, start: Node, blocker: Node) -> bool:
    """True if some path from `start` leaves the function without passing `blocker`."""
    stack, seen = [start], set()
    while stack:
        node = stack.pop()
        if node is blocker or node.index in seen:
            continue
        seen.add(node.index)
        if node.extern_ref:
            return True
        stack.extend(e.node for e in node.outputs)
    return False


def _brute_ipdom(graph: ForwardGraph, node: Node) -> Node | None:
    if node.extern_ref:
        return None
    candidates = [p for p in graph.nodes if p is not node
                  and not _exit_paths_avoid(graph, node, p) and _reaches(node, p)]
    # The immediate one is the post-dominator every other one post-dominates.
    for p in candidates:
        if all(q is p or not _exit_paths_avoid(graph, p, q) for q in candidates):
            return p
    return None


def _reaches(src: Node, dst: Node) -> bool:
    stack, seen = [src], set()
    while stack:
        node = stack.pop()
        if node is dst:
            return True
        if node.index not in seen:
            seen.add(node.index)
            stack.extend(e.node for e in node.outputs)
    return False


def _max_edge_pattern(src: Node, sink: Node) -> PatternKind:
    """The largest pattern of any edge on any path from `src` to `sink`."""
    best = PatternKind.ELEMWISE
    stack, seen = [src], set()
    while stack:
        node = stack.pop()
        if node is sink or node.index in seen:
            continue
        seen.add(node.index)
        for edge in node.outputs:
            best = max(best, edge.pattern)
            stack.append(edge.node)
    return best


@given(forward_graphs())
def test_post_dominators_match_brute_force(graph):
    info = post_dominators(graph)
    for node in graph.nodes:
        expected = _brute_ipdom(graph, node)
        assert info.parent[node.index] is expected, node
        if expected is not None:
            # The combined pattern is the join of every edge between node and its
            # post-dominator.
            assert info.pattern[node.index] == _max_edge_pattern(node, expected)


def _groups(graph, result):
    members: dict[int, list[Node]] = {}
    for node in graph.nodes:
        members.setdefault(id(result.group_of(node)), []).append(node)
    return list(members.values())


@given(forward_graphs(), st.integers(1, 6))
def test_partition_invariants(graph, max_depth):
    result = partition(graph, opt_level=2, max_depth=max_depth)
    group_id = {node.index: id(result.group_of(node)) for node in graph.nodes}
    for members in _groups(graph, result):
        gid = group_id[members[0].index]
        # Convex: no path leaves the group and comes back into it.
        outside = [e.node for n in members for e in n.outputs if group_id[e.node.index] != gid]
        stack, seen = list(outside), set()
        while stack:
            node = stack.pop()
            if node.index in seen:
                continue
            seen.add(node.index)
            assert group_id[node.index] != gid, "a path re-enters its group"
            stack.extend(e.node for e in node.outputs)
        # At most one anchor, and opaque nodes stay alone.
        anchors = [n for n in members if n.pattern == PatternKind.OUT_ELEMWISE_FUSABLE]
        assert len(anchors) <= 1
        if len(members) > 1:
            assert all(n.pattern != PatternKind.OPAQUE for n in members)
            assert len(members) <= max_depth


@given(forward_graphs())
def test_opt_level_zero_fuses_nothing(graph):
    result = partition(graph, opt_level=0)
    roots = {id(result.group_of(n)) for n in graph.nodes}
    assert len(roots) == len(graph.nodes)
