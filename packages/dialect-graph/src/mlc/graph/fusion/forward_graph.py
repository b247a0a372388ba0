"""The indexed forward dataflow graph fusion works on (TVM's IndexedForwardGraph).

Nodes are listed in post-DFS order from the function's results: every node comes
after all the nodes it reads, so a node's consumers always have larger indices — the
order RunFuse visits nodes in, and the reverse of the order the post-dominator tree is
built in.

mlc has no tuple values; where Relay has them, this graph adds the nodes Relay would
have so that TVM's tuple rules apply unchanged:
- the operand list of a variadic op (`graph.concat`) is a *tuple* node between the
  operands and the op (each field feeds it with an injective edge);
- each used result of a multi-result op (`graph.split`) is read through a
  *get-item* node (injective) between the op and that result's consumers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlc.graph.op_base import GraphOp, PatternKind
from mlc.ir import Block, BlockArgument, Operation, RankedTensorType, Value


@dataclass(eq=False)
class Edge:
    """A use: `node` reads the source, with the consumer's pattern for this operand."""

    node: Node
    pattern: PatternKind


@dataclass(eq=False)
class Node:
    """A vertex of the forward graph.

    `kind` is "op", "param", "tuple" or "get-item"; `op` is the op for "op" nodes (and
    the multi-result op for "get-item"), `value` the parameter or the result read.
    `extern_ref` marks a node whose value leaves the block (returned, read by another
    block, or inside the region of an op fusion does not look into); such a node has
    no post-dominator.
    """

    index: int
    kind: str
    pattern: PatternKind
    op: Operation | None = None
    value: Value | None = None
    outputs: list[Edge] = field(default_factory=list)
    extern_ref: bool = False

    def describe(self) -> str:
        """How remarks name the node."""
        if self.kind == "op":
            return f"'{self.op.name}'"
        if self.kind == "param":
            return f"parameter %{self.value.name_hint or self.value.index}"
        if self.kind == "tuple":
            return f"the operand tuple of '{self.op.name}'"
        return f"result #{self.value.index} of '{self.op.name}'"

    def __repr__(self) -> str:
        return f"Node({self.index}, {self.describe()}, {self.pattern.label})"


@dataclass
class ForwardGraph:
    """Nodes in post-DFS order; `node_of_op` finds an op's node."""

    nodes: list[Node]
    node_of_op: dict[Operation, Node]


def _op_pattern(op: Operation) -> PatternKind:
    if isinstance(op, GraphOp):
        return op.pattern_of(op)
    return PatternKind.OPAQUE


def _has_variadic_operands(op: Operation) -> bool:
    return isinstance(op, GraphOp) and any(d.variadic for d in op.op_def.operands)


def build_forward_graph(block: Block) -> ForwardGraph:
    """Index the dataflow of `block` (one block of a function body) in post-DFS order
    from its terminator's operands; ops the results do not reach are visited
    afterwards, in block order, so every op has a node. Values from outside the block
    (its arguments, other blocks' results) are parameters; a value also read outside
    it leaves it, as a returned one does."""
    nodes: list[Node] = []
    node_of_op: dict[Operation, Node] = {}
    node_of_value: dict[Value, Node] = {}  # params and get-item nodes
    tuple_of_op: dict[Operation, Node] = {}

    def add(kind: str, pattern: PatternKind, op=None, value=None) -> Node:
        node = Node(len(nodes), kind, pattern, op, value)
        nodes.append(node)
        return node

    # Post-order DFS without recursion (graphs are deep): an entry is (item, expanded).
    def visit(root: Value | Operation) -> None:
        stack: list[tuple[object, bool]] = [(root, False)]
        while stack:
            item, expanded = stack.pop()
            if isinstance(item, Value):
                if item in node_of_value:
                    continue
                if isinstance(item, BlockArgument) or item.defining_op.parent is not block:
                    node_of_value[item] = add("param", PatternKind.OPAQUE, value=item)
                    continue
                op = item.defining_op
                if len(op.results) > 1:
                    if expanded:
                        node_of_value[item] = add("get-item", PatternKind.INJECTIVE, op, item)
                    else:
                        stack.append((item, True))
                        stack.append((op, False))
                    continue
                stack.append((op, False))
            elif isinstance(item, tuple):  # ("tuple", op)
                op = item[1]
                if op in tuple_of_op:
                    continue
                if expanded:
                    tuple_of_op[op] = add("tuple", PatternKind.TUPLE, op)
                else:
                    stack.append((item, True))
                    stack.extend((v, False) for v in reversed(op.operands))
            else:
                op = item
                if op in node_of_op:
                    continue
                if expanded:
                    node_of_op[op] = add("op", _op_pattern(op), op)
                    continue
                stack.append((op, True))
                if _has_variadic_operands(op):
                    stack.append((("tuple", op), False))
                else:
                    stack.extend((v, False) for v in reversed(op.operands))

    terminator = block.terminator
    for value in terminator.operands if terminator is not None else ():
        visit(value)
    for op in block.ops():
        if op is not terminator and op not in node_of_op:
            visit(op)

    def source(value: Value) -> Node:
        if value in node_of_value:
            return node_of_value[value]
        return node_of_op[value.defining_op]

    # Edges, as TVM's creator adds them: each consumer tells its producers its pattern.
    for op, node in node_of_op.items():
        pattern = node.pattern
        result_type = op.results[0].type if len(op.results) == 1 else None
        if op in tuple_of_op:
            tuple_node = tuple_of_op[op]
            for value in op.operands:
                source(value).outputs.append(Edge(tuple_node, PatternKind.INJECTIVE))
            tuple_node.outputs.append(Edge(node, pattern))
            continue
        for value in op.operands:
            edge_pattern = pattern
            # A broadcast op reading an operand of the result's own shape reads it
            # elementwise.
            if (pattern == PatternKind.BROADCAST and isinstance(result_type, RankedTensorType)
                    and isinstance(value.type, RankedTensorType)
                    and value.type.shape == result_type.shape):
                edge_pattern = PatternKind.ELEMWISE
            source(value).outputs.append(Edge(node, edge_pattern))
    for value, node in node_of_value.items():
        if node.kind == "get-item":
            node_of_op[value.defining_op].outputs.append(Edge(node, PatternKind.INJECTIVE))
        else:
            node.extern_ref = True  # parameters come from outside the function
    if terminator is not None:
        for value in terminator.operands:
            source(value).extern_ref = True
    # A value read in another block, or inside the regions of an op fusion does not
    # look into, is used outside fusion's view, as a returned one is.
    for op in node_of_op:
        for result in op.results:
            if any(use.owner.parent is not block for use in result.uses):
                source(result).extern_ref = True
    return ForwardGraph(nodes, node_of_op)
