"""view-op-graph: a Graphviz DOT picture of an op's data flow, as mlir-opt draws it.

The shape is mlir-opt-22's, so the two read alike and can be compared:

- an op with regions is a cluster (`subgraph cluster_N`) labelled with its name, result
  types and attributes; inside it, each block of its regions is a cluster holding a
  node per block argument and per op;
- an op without regions is a record node: its operands on top, its name and attributes
  in the middle, its results (name and type) below, each operand and result a port;
- data-flow edges run from the port of a value's producer to the port of the operand
  using it. DOT draws edges between nodes only, so each cluster holds an invisible
  anchor node, and an edge from or to an op with regions starts or ends at its
  cluster's boundary (`ltail`, `lhead`);
- control-flow edges (off by default) join consecutive ops of a block, dashed;
- ops of one name share a fill colour, hues spread over the names in the IR.

mlc adds one thing for reading fused graphs: an op defining a symbol shows it after its
name (`func.func @fused_conv2d_add_relu`), and so does a call (`func.call
@fused_conv2d_add_relu`), so after graph-fuse-ops each primitive function is a cluster
named like the calls to it. That attribute is then not repeated in the attribute list.

Node and cluster ids count up in the order they are written, which follows the IR, so
the same IR gives the same text. Labels are escaped for DOT (quotes, backslashes, and
in record labels the field syntax `{ } | < >`; line ends become `\\l`). As in MLIR, an
attribute or type text longer than `max-label-len` is cut there and ends with `...`, an
elements attribute of more than 16 elements shows as `[[...]] : tensor<...>` (a splat in
full) and an array of more than 16 as `[...]`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from mlc.ir.core.attributes import (
    ArrayAttr,
    AsmWriter,
    Attribute,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    StringAttr,
    SymbolRefAttr,
    Type,
    write_symbol_name,
)
from mlc.ir.core.ir import Block, Operation, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.text.printer import Printer, indentation

LARGE_ATTRIBUTE_LIMIT = 16
"""Elements and array attributes larger than this are elided (MLIR's default)."""

SYMBOL_ATTRIBUTE = "sym_name"
CALLEE_ATTRIBUTE = "callee"


@dataclass(frozen=True)
class ViewOpGraphOptions:
    """mlir-opt's options, with its defaults, and where to write the DOT."""

    max_label_len: int = option(20, min=0, doc="longest attribute or type text in a label; "
                                "longer ones are cut and end with '...'")
    print_attrs: bool = option(True, doc="list each op's attributes in its label")
    print_control_flow_edges: bool = option(False, doc="dashed edges between consecutive ops "
                                            "of a block")
    print_data_flow_edges: bool = option(True, doc="edges from each value's producer to its "
                                         "users")
    print_result_types: bool = option(True, doc="show the types of results and block "
                                      "arguments")
    output: str = option("", doc="write the DOT to this file instead of stderr (whole, then "
                         "renamed into place); a nested run writes it once per op")


@dataclass(frozen=True)
class _Node:
    """A DOT node: an op's or block argument's, or the anchor of a cluster."""

    id: int
    cluster: int | None = None  # the cluster this node anchors

    def endpoint(self, port: str | None, compass: str) -> str:
        # An edge to a cluster's anchor is clipped at the cluster's boundary; a port
        # there would pin it to the invisible anchor instead.
        if port is None or self.cluster is not None:
            return f"v{self.id}"
        return f"v{self.id}:{port}:{compass}"


class _BlockProgress:
    """The last op node written in a block, for control-flow edges."""

    __slots__ = ("previous",)

    def __init__(self) -> None:
        self.previous: _Node | None = None


def escape_label(text: str, record: bool) -> str:
    """`text` as the inside of a quoted DOT label: quotes and backslashes escaped, each
    line ended by `\\l` (left-aligned), other control characters shown as `\\XX`; in a
    record label (`record`) also the field syntax `{ } | < >`."""
    out = []
    for char in text:
        if char == "\n":
            out.append("\\l")
        elif char in '"\\' or (record and char in "{}|<>"):
            out.append("\\" + char)
        elif char < " " or char == "\x7f":
            out.append(f"\\\\{ord(char):02X}")
        else:
            out.append(char)
    return "".join(out)


def _attribute_list(entries: dict[str, str]) -> str:
    """`[key = value, ...]` with keys sorted, as mlir-opt writes them."""
    return "[" + ", ".join(f"{key} = {entries[key]}" for key in sorted(entries)) + "]"


class OpGraphWriter:
    """Writes the DOT of one op and everything nested in it (see the module docstring);
    `op_graph_dot` is the one-call form."""

    def __init__(self, options: ViewOpGraphOptions = ViewOpGraphOptions()):
        self.options = options
        self._start()

    def _start(self) -> None:
        self.lines: list[str] = []
        self.counter = 0
        self.names: dict[Value, str] = {}
        self.colors: dict[str, str] = {}
        self.value_nodes: dict[Value, tuple[_Node, str]] = {}
        self.uses: list[tuple[Value, _Node, str]] = []  # (value, user, operand port)
        self.control_edges: list[str] = []

    def write(self, root: Operation) -> str:
        """The DOT text of `root`'s graph (each call starts afresh)."""
        self._start()
        printer = Printer()
        printer.assign_names(root)
        self.names = printer.names
        self._assign_colors(root)
        self.lines = ["digraph G {", "  compound = true;"]
        self._write_ops(root)
        self.lines.extend(f"  {edge};" for edge in self.control_edges)
        if self.options.print_data_flow_edges:
            for value, user, port in self.uses:
                producer = self.value_nodes.get(value)
                if producer is not None:  # a value from outside the drawn op has no node
                    self.lines.append("  " + self._edge(producer[0], producer[1], user, port,
                                                        "solid") + ";")
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"

    # ---------------------------------------------------------------- walking the IR

    def _write_ops(self, root: Operation) -> None:
        # An explicit stack, so nesting depth is not bounded by Python's recursion.
        stack: list[tuple] = [("op", root, 1, None)]
        while stack:
            item = stack.pop()
            kind = item[0]
            if kind == "op":
                _, op, depth, progress = item
                if not op.regions:
                    self._finish_op(op, self._op_node(op, depth), progress)
                    continue
                node = self._open_cluster(depth, escape_label(self._cluster_label(op), False))
                stack.append(("end-op", op, node, depth, progress))
                for region in reversed(op.regions):
                    stack.extend(("block", block, depth + 1) for block in reversed(region.blocks))
            elif kind == "block":
                _, block, depth = item
                self._open_cluster(depth, "")
                self._block_argument_nodes(block, depth + 1)
                progress = _BlockProgress()
                stack.append(("close", depth))
                stack.extend(("op", op, depth + 1, progress) for op in block.ops_reversed())
            elif kind == "end-op":
                _, op, node, depth, progress = item
                self.lines.append(indentation(depth) + "}")
                self._finish_op(op, node, progress)
            else:
                self.lines.append(indentation(item[1]) + "}")

    def _finish_op(self, op: Operation, node: _Node, progress: _BlockProgress | None) -> None:
        """Record what edges `op` needs, once its node (or cluster) is written."""
        for index, operand in enumerate(op.operands):
            self.uses.append((operand, node, f"in{index}"))
        for index, result in enumerate(op.results):
            self.value_nodes[result] = (node, f"out{index}")
        if progress is None:
            return
        if self.options.print_control_flow_edges and progress.previous is not None:
            self.control_edges.append(self._edge(progress.previous, None, node, None, "dashed"))
        progress.previous = node

    # ---------------------------------------------------------------- statements

    def _next_id(self) -> int:
        self.counter += 1
        return self.counter

    def _node_statement(self, depth: int, attributes: dict[str, str]) -> _Node:
        node = _Node(self._next_id())
        self.lines.append(f"{indentation(depth)}v{node.id} {_attribute_list(attributes)};")
        return node

    def _open_cluster(self, depth: int, escaped_label: str) -> _Node:
        cluster = self._next_id()
        self.lines.append(f"{indentation(depth)}subgraph cluster_{cluster} {{")
        anchor = self._node_statement(depth + 1, {"label": '" "', "shape": "plain"})
        self.lines.append(f'{indentation(depth + 1)}label = "{escaped_label}";')
        return _Node(anchor.id, cluster)

    def _block_argument_nodes(self, block: Block, depth: int) -> None:
        for arg in block.args:
            field = f"{self._name(arg)}{self._type_suffix(arg.type)}"
            label = f"<out0> {escape_label(field, True)}"
            node = self._node_statement(depth, {"label": f'"{label}"', "shape": "Mrecord"})
            self.value_nodes[arg] = (node, "out0")

    def _op_node(self, op: Operation, depth: int) -> _Node:
        fields = []
        if op.operands:
            ports = "|".join(f"<in{i}> {escape_label(self._name(v), True)}"
                             for i, v in enumerate(op.operands))
            fields.append("{" + ports + "}")
        fields.append(escape_label(self._node_text(op), True))
        if op.results:
            ports = "|".join(f"<out{i}> {escape_label(self._name(r) + self._type_suffix(r.type), True)}"
                             for i, r in enumerate(op.results))
            fields.append("{" + ports + "}")
        label = "{" + "|".join(fields) + "}"
        return self._node_statement(depth, {"fillcolor": self.colors[op.name],
                                            "label": f'"{label}"', "shape": "Mrecord",
                                            "style": "filled"})

    def _edge(self, tail: _Node, tail_port: str | None, head: _Node, head_port: str | None,
              style: str) -> str:
        attributes = {"style": style}
        if tail.cluster is not None:
            attributes["ltail"] = f"cluster_{tail.cluster}"
        if head.cluster is not None:
            attributes["lhead"] = f"cluster_{head.cluster}"
        return (f"{tail.endpoint(tail_port, 's')} -> {head.endpoint(head_port, 'n')} "
                f"{_attribute_list(attributes)}")

    # ---------------------------------------------------------------- label text

    def _assign_colors(self, root: Operation) -> None:
        # As MLIR: one hue per op name, in the order names first appear in post-order,
        # spread evenly round the colour wheel, pale enough for black text.
        names = list(dict.fromkeys(op.name for op in root.walk(post_order=True)))
        self.colors = {name: f'"{index / len(names):f} 0.3 0.95"'
                       for index, name in enumerate(names)}

    def _name(self, value: Value) -> str:
        return self.names.get(value, "%<unnamed>")

    def _truncate(self, text: str) -> str:
        limit = self.options.max_label_len
        return text if len(text) <= limit else text[:limit] + "..."

    def _type_suffix(self, type_: Type) -> str:
        return " " + self._truncate(str(type_)) if self.options.print_result_types else ""

    def _headline(self, op: Operation) -> tuple[str, set[str]]:
        """The op's name with the symbol it defines or calls, and the attributes that
        says, so the attribute list need not repeat them."""
        text, shown = op.name, set()
        symbol = op.attributes.get(SYMBOL_ATTRIBUTE)
        if isinstance(symbol, StringAttr):
            w = AsmWriter()
            write_symbol_name(w, symbol.value)
            text += " " + w.text()
            shown.add(SYMBOL_ATTRIBUTE)
        callee = op.attributes.get(CALLEE_ATTRIBUTE)
        if isinstance(callee, SymbolRefAttr):
            text += f" {callee}"
            shown.add(CALLEE_ATTRIBUTE)
        return text, shown

    def _attribute_lines(self, op: Operation, shown: set[str]) -> str:
        entries = dict(op.attributes)
        if op.properties:
            entries.update(op.properties)
        return "".join(f"{name}: {self._attribute_text(entries[name])}\n"
                       for name in sorted(entries) if name not in shown)

    def _cluster_label(self, op: Operation) -> str:
        text, shown = self._headline(op)
        if self.options.print_result_types:
            text += " : (" + self._truncate(", ".join(str(t) for t in op.result_types)) + ")"
        if self.options.print_attrs:
            text += "\n" + self._attribute_lines(op, shown)
        return text

    def _node_text(self, op: Operation) -> str:
        text, shown = self._headline(op)
        text += "\n"
        if self.options.print_attrs:
            attributes = self._attribute_lines(op, shown)
            if attributes:
                text += "\n" + attributes
        return text

    def _attribute_text(self, attr: Attribute) -> str:
        if isinstance(attr, DenseElementsAttr) and attr.is_splat():
            return str(attr)
        if isinstance(attr, (DenseElementsAttr, DenseResourceElementsAttr)) \
                and attr.type.num_elements > LARGE_ATTRIBUTE_LIMIT:
            rank = attr.type.rank
            return f"{'[' * rank}...{']' * rank} : {attr.type}"
        if isinstance(attr, ArrayAttr) and len(attr) > LARGE_ATTRIBUTE_LIMIT:
            return "[...]"
        return self._truncate(str(attr))


def op_graph_dot(op: Operation, options: ViewOpGraphOptions = ViewOpGraphOptions()) -> str:
    """The Graphviz DOT text picturing `op` and everything nested in it."""
    return OpGraphWriter(options).write(op)


@register_pass("view-op-graph", opt_level=0, options=ViewOpGraphOptions,
               summary="Write a Graphviz DOT picture of the op's data flow to stderr (or to "
               "the file `output`); the IR is left unchanged.")
class ViewOpGraph(Pass):
    """The pass: `op_graph_dot` of the op it runs on, to stderr or the `output` file."""

    def run(self, op: Operation, run) -> None:
        from mlc.ir.core.files import write_text_file

        dot = op_graph_dot(op, run.options)
        path = run.options.output
        if not path:
            sys.stderr.write(dot)
        else:
            try:
                write_text_file(path, dot)
            except OSError as exc:
                raise PassFailure([Diagnostic(
                    "error", f"view-op-graph: cannot write '{path}': {exc.strerror}",
                    self.loc or op.loc)]) from None
        run.mark_all_analyses_preserved()
