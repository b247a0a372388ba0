"""Grouping the forward graph into fused kernels: TVM's GraphPartitioner.

Every node starts in its own group. Three phases then walk the nodes in post-DFS
order (producers before consumers) and try to fuse each node into the group of its
immediate post-dominator — the one node all its uses lead to — when the node's kind,
the relation to the post-dominator, and every node on every path between them allow
it (`_check_path`). Fusing merges every node on those paths into the post-dominator's
group (`_commit_fuse`), so groups stay convex: no path leaves a group and re-enters it.

- Phase 0 fuses the complex anchors (conv2d, dense: out-elemwise-fusable) into the
  elementwise tail that follows them, and elementwise/broadcast ops into what follows.
- Phase 1 repeats the elementwise/broadcast rule and now also fuses injective ops and
  tuples — deferred so that phase 0 finished growing each anchor's group first.
- Phase 2 lets injective ops join a tuple that was itself fused into later injective
  ops (concat's operands flow into the concat's kernel).

Groups are a union-find; a group's `pattern` is its root's, and when a group with an
anchor merges into another, the anchor and its (larger) pattern go to the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlc.graph.fusion.dominator import DominatorInfo, post_dominators
from mlc.graph.fusion.forward_graph import ForwardGraph, Node
from mlc.graph.op_base import PatternKind
from mlc.graph.ops.constant import ConstantOp

ELEMWISE = PatternKind.ELEMWISE
BROADCAST = PatternKind.BROADCAST
INJECTIVE = PatternKind.INJECTIVE
COMM_REDUCE = PatternKind.COMM_REDUCE
OUT_ELEMWISE_FUSABLE = PatternKind.OUT_ELEMWISE_FUSABLE
TUPLE = PatternKind.TUPLE
OPAQUE = PatternKind.OPAQUE


class Group:
    """A union-find set of nodes that will become one kernel."""

    __slots__ = ("parent", "pattern", "anchor", "num_nodes", "root_node")

    def __init__(self, node: Node):
        self.parent: Group | None = None
        self.pattern = node.pattern
        self.root_node = node
        # The node whose schedule the kernel follows (conv2d in conv2d+add+relu).
        self.anchor: Node | None = node if node.pattern == OUT_ELEMWISE_FUSABLE else None
        self.num_nodes = 1

    def find_root(self) -> Group:
        root = self
        while root.parent is not None:
            root = root.parent
        current = self
        while current.parent is not None:  # path compression
            current.parent, current = root, current.parent
        return root


@dataclass
class Remark:
    """Why a node was not fused in one phase: the node, its post-dominator (if any),
    and, when a path check failed, the node that refused and the path to it."""

    phase: int
    node: Node
    message: str
    target: Node | None = None
    path: list[Node] = field(default_factory=list)
    blame: Node | None = None  # the node or edge target that refused

    def render(self) -> str:
        text = f"phase {self.phase}: {self.node.describe()} not fused"
        if self.target is not None:
            text += f" into its post-dominator {self.target.describe()}"
        text += f": {self.message}"
        if self.path:
            text += " (path " + " -> ".join(n.describe() for n in self.path) + ")"
        return text


@dataclass
class Partition:
    """The result: the group root of every node, and the remarks collected."""

    graph: ForwardGraph
    groups: list[Group]
    remarks: list[Remark]

    def group_of(self, node: Node) -> Group:
        return self.groups[node.index].find_root()


class _Partitioner:
    def __init__(self, graph: ForwardGraph, max_depth: int, remarks: bool):
        self.graph = graph
        self.max_depth = max_depth
        self.want_remarks = remarks
        self.remarks: list[Remark] = []
        self.groups = [Group(node) for node in graph.nodes]

    def remark(self, phase: int, node: Node, message, target: Node | None = None,
               path: list[Node] | None = None, blame: Node | None = None) -> None:
        """Record why `node` did not fuse; `message` is text or a function giving it
        (built only when remarks are wanted)."""
        # Parameters and constants are never fused on their own account; remarks about
        # them would only be noise.
        if self.want_remarks and node.kind == "op" and not isinstance(node.op, ConstantOp):
            text = message() if callable(message) else message
            self.remarks.append(Remark(phase, node, text, target, path or [], blame))

    # -- the path checks

    def _check_path(self, src: Node, sink: Node, allowed) -> tuple[Node, list[Node]] | None:
        """Check `allowed(group pattern, is_sink)` on every node on every path from
        src's consumers to `sink`; on failure, the refusing node and the path to it."""
        visited: set[int] = set()
        stack: list[tuple[Node, tuple]] = [(edge.node, (src,)) for edge in reversed(src.outputs)]
        while stack:
            node, path = stack.pop()
            if node.index in visited:
                continue
            visited.add(node.index)
            group = self.groups[node.index].find_root()
            if not allowed(group.pattern, node is sink):
                return node, [*path, node]
            if node is sink:
                continue
            stack.extend((edge.node, (*path, node)) for edge in reversed(node.outputs))
        return None

    def _nodes_up_to(self, src: Node, sink: Node) -> list[Node]:
        """`src` and every node on the paths from it to `sink`, `sink` excluded."""
        seen: set[int] = set()
        order: list[Node] = []
        stack = [src]
        while stack:
            node = stack.pop()
            if node is sink or node.index in seen:
                continue
            seen.add(node.index)
            order.append(node)
            stack.extend(edge.node for edge in node.outputs)
        return order

    def _count_with_new_child(self, child: Node, dom_parent: Node) -> int:
        """Nodes in the post-dominator's group once `child` and the paths between join."""
        total = self.groups[dom_parent.index].find_root().num_nodes
        for node in self._nodes_up_to(child, dom_parent):
            total += self.groups[node.index].num_nodes
        return total

    def _merge(self, child: Group, parent: Group) -> None:
        child, parent = child.find_root(), parent.find_root()
        if child is parent:
            return
        parent.num_nodes += child.num_nodes
        child.parent = parent
        if child.anchor is not None:
            # A group holds at most one anchor: the conditions above never fuse two.
            parent.anchor = child.anchor
            parent.pattern = max(child.pattern, parent.pattern)

    def _commit_fuse(self, src: Node, sink: Node) -> None:
        target = self.groups[sink.index]
        for node in self._nodes_up_to(src, sink):
            self._merge(self.groups[node.index], target)

    # -- the phases

    def run(self, dom: DominatorInfo, phase: int) -> None:
        for node in self.graph.nodes:
            self._visit(dom, phase, node)

    def _visit(self, dom: DominatorInfo, phase: int, node: Node) -> None:
        group = self.groups[node.index]
        # TVM reads the pattern of the node's own group object, not of its root:
        # it differs once the node's group absorbed an anchor (then it is
        # out-elemwise-fusable) and so decides which rule applies below.
        if group.pattern == OPAQUE:
            if phase == 0:
                self.remark(phase, node, "it is opaque: opaque ops are never fused")
            return
        parent = dom.parent[node.index]
        if parent is None:
            # A node nothing in the function reads has nowhere to fuse to; one that is
            # read was refused because its uses never meet (or it also leaves).
            if phase == 0 and node.outputs:
                why = ("its result is also used outside its block (returned, or read by "
                       "another block or inside a region)" if node.extern_ref
                       else "its uses never meet at one op")
                self.remark(phase, node, f"it has no post-dominator: {why}")
            return
        if self._count_with_new_child(node, parent) > self.max_depth:
            self.remark(phase, node, f"the group would exceed max-depth {self.max_depth}",
                        parent)
            return
        if phase == 2:
            self._run_phase_two(node, group, parent)
            return
        parent_group = self.groups[parent.index]
        if group.find_root() is parent_group.find_root():
            return  # already fused together
        if parent_group.pattern == TUPLE:
            self.remark(phase, node, "nodes do not fuse into a tuple in phases 0 and 1", parent)
            return
        relation = dom.pattern[node.index]
        if group.pattern == OUT_ELEMWISE_FUSABLE:
            if phase != 0:
                return  # anchors only ever fuse in phase 0
            # conv2d fuses into its elementwise tail: the relation must be
            # elementwise and everything in between at most broadcast.
            if relation != ELEMWISE:
                self.remark(phase, node, lambda: "the relation to the post-dominator is "
                            f"{self._relation(dom, node)}; an out-elemwise-fusable op "
                            "needs elemwise", parent, blame=dom.culprit[node.index])
                return
            self._try(phase, node, parent, lambda kind, is_sink: kind <= BROADCAST,
                      "needs <= broadcast")
        elif group.pattern <= BROADCAST:
            # An elementwise op fuses forward into injective or reduction sinks; the
            # sink may already hold an anchor (conv2d + add, then this add joins).
            if not (relation <= INJECTIVE or relation == COMM_REDUCE):
                self.remark(phase, node, lambda: "the relation to the post-dominator is "
                            f"{self._relation(dom, node)}; an elemwise/broadcast op needs "
                            "<= injective or comm-reduce", parent, blame=dom.culprit[node.index])
                return

            def allowed(kind, is_sink):
                if not is_sink:
                    return kind <= INJECTIVE
                return kind <= BROADCAST or kind in (COMM_REDUCE, INJECTIVE,
                                                     OUT_ELEMWISE_FUSABLE)

            self._try(phase, node, parent, allowed,
                      "needs <= injective on the way and a sink <= broadcast, injective, "
                      "comm-reduce or out-elemwise-fusable")
        elif group.pattern in (INJECTIVE, TUPLE):
            if phase != 1:
                return  # deferred to phase 1 so anchors finish fusing first
            self._try(phase, node, parent, lambda kind, is_sink: kind <= INJECTIVE,
                      "needs <= injective")
        elif phase == 0:  # comm-reduce
            self.remark(phase, node, "comm-reduce ops never start a fusion", parent)

    @staticmethod
    def _relation(dom: DominatorInfo, node: Node) -> str:
        text = dom.pattern[node.index].label
        culprit = dom.culprit[node.index]
        return f"{text} (set by the edge into {culprit.describe()})" if culprit is not None else text

    def _run_phase_two(self, node: Node, group: Group, parent: Node) -> None:
        # Injective-or-lower nodes join an intermediate tuple that was itself fused
        # into the injective ops after it.
        if group.pattern > INJECTIVE:
            return
        parent_group = self.groups[parent.index]
        parent_root = parent_group.find_root()
        if parent_root.pattern == TUPLE:
            return  # the tuple did not fuse onwards; its fields stay apart
        if parent_group.pattern == TUPLE and parent_root.pattern <= INJECTIVE:
            self._try(2, node, parent, lambda kind, is_sink: kind <= INJECTIVE,
                      "needs <= injective")

    def _try(self, phase: int, node: Node, parent: Node, allowed, requirement: str) -> None:
        failure = self._check_path(node, parent, allowed)
        if failure is None:
            self._commit_fuse(node, parent)
            return
        refusing, path = failure
        kind = self.groups[refusing.index].find_root().pattern
        where = "the post-dominator" if refusing is parent else "path node"
        name = kind.label
        article = "an" if name[0] in "aeiou" else "a"
        self.remark(phase, node, lambda: f"{where} {refusing.describe()} is in {article} "
                    f"{name} group; {requirement}", parent, path, refusing)


def partition(graph: ForwardGraph, *, opt_level: int, max_depth: int = 256,
              remarks: bool = False) -> Partition:
    """Group `graph`'s nodes into kernels. At opt level 0 every node stays alone."""
    partitioner = _Partitioner(graph, max_depth, remarks)
    if opt_level > 0:
        dom = post_dominators(graph)
        for phase in range(3):
            partitioner.run(dom, phase)
    result = Partition(graph, partitioner.groups, partitioner.remarks)
    # A refusal a later phase overcame (a field joining its tuple in phase 2) is not
    # why anything stayed apart: only the refusals that stand are reported.
    result.remarks = [r for r in result.remarks if r.target is None
                      or result.group_of(r.node) is not result.group_of(r.target)]
    return result
