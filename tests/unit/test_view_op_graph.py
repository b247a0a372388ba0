"""view-op-graph: the DOT it writes, checked against mlir-opt-22's for the same input
and read back by Graphviz's own parser.

- The same IR gives mlc and mlir-opt the same graph: the same clusters nested the same
  way, the same nodes in them (ids included: both number nodes and clusters in the
  order they write them, which follows the IR), the same fill colours and the same
  edges (data flow, control flow, clipped at the same cluster boundaries). Only the
  label texts and port names differ. These tests are skipped without mlir-opt, except
  under CI=true, where they fail.
- Graphviz's `dot` reads every graph without an error or a warning (record labels
  included) and lays out as many nodes and clusters as the reader below finds; skipped
  without `dot`, except under CI=true. The reader below also checks what a parser
  library would: balanced braces and brackets, every edge endpoint a declared node,
  every port a field of its node's record, every clipped edge's cluster one that holds
  the node it is clipped at.
- Labels: escaping, truncation at max-label-len, elided large attributes, the options.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from mlc.ir import Context, parse_module
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.generic.view_op_graph import ViewOpGraphOptions, escape_label, op_graph_dot
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins

MLC_OPT = Path(sys.executable).parent / "mlc-opt"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# ------------------------------------------------------------------ a DOT reader

_TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|(->)|([A-Za-z_][A-Za-z_0-9]*|-?[0-9.]+)|(\S))', re.S)


@dataclass
class DotGraph:
    """What a DOT text declares: nodes (id -> attributes, innermost cluster), clusters
    (name -> enclosing cluster), edges in order, and each cluster's `label`."""

    nodes: dict[str, dict[str, str]] = field(default_factory=dict)
    node_cluster: dict[str, str | None] = field(default_factory=dict)
    clusters: dict[str, str | None] = field(default_factory=dict)
    cluster_labels: dict[str, str] = field(default_factory=dict)
    edges: list[dict] = field(default_factory=list)

    def holds(self, cluster: str, node: str) -> bool:
        """Whether `node` lies in `cluster` (directly or in a cluster nested in it)."""
        inner = self.node_cluster[node]
        while inner is not None:
            if inner == cluster:
                return True
            inner = self.clusters[inner]
        return False


def _tokens(text: str) -> list[str]:
    tokens, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        assert match is not None, f"cannot read DOT at offset {pos}: {text[pos:pos + 40]!r}"
        tokens.append(next(group for group in match.groups() if group is not None))
        pos = match.end()
    return tokens


def read_dot(text: str) -> DotGraph:
    """Parse the DOT subset both tools write (a digraph of subgraphs, node, edge and
    attribute statements); AssertionError on anything else or anything unbalanced."""
    tokens = _tokens(text)
    pos = 0

    def peek(ahead: int = 0) -> str:
        assert pos + ahead < len(tokens), "unexpected end of the DOT text"
        return tokens[pos + ahead]

    def take(expected: str | None = None) -> str:
        nonlocal pos
        token = peek()
        assert expected is None or token == expected, f"expected {expected!r}, got {token!r}"
        pos += 1
        return token

    def attribute_list() -> dict[str, str]:
        attributes: dict[str, str] = {}
        take("[")
        while peek() != "]":
            key = take()
            take("=")
            attributes[key] = take()
            if peek() in (",", ";"):
                take()
        take("]")
        return attributes

    def endpoint() -> tuple[str, str | None]:
        node = take()
        port = None
        if pos < len(tokens) and tokens[pos] == ":":
            take(":")
            port = take()
            if peek() == ":":
                take(":")
                assert take() in ("n", "s", "e", "w"), "a compass point"
        return node, port

    graph = DotGraph()
    take("digraph")
    take()
    take("{")
    stack: list[str | None] = [None]
    while stack:
        token = peek()
        if token == "}":
            take()
            stack.pop()
        elif token == "subgraph":
            take()
            name = take()
            take("{")
            assert name not in graph.clusters, f"cluster {name} declared twice"
            graph.clusters[name] = stack[-1]
            stack.append(name)
        elif peek(1) == "=":
            key = take()
            take("=")
            value = take()
            if key == "label" and stack[-1] is not None:
                graph.cluster_labels[stack[-1]] = value
            take(";")
        else:
            tail, tail_port = endpoint()
            if peek() == "->":
                take()
                head, head_port = endpoint()
                attributes = attribute_list() if peek() == "[" else {}
                graph.edges.append({"tail": tail, "tail_port": tail_port, "head": head,
                                    "head_port": head_port, **attributes})
            else:
                assert tail_port is None, "a node statement has no port"
                assert tail not in graph.nodes, f"node {tail} declared twice"
                graph.nodes[tail] = attribute_list() if peek() == "[" else {}
                graph.node_cluster[tail] = stack[-1]
            take(";")
    assert pos == len(tokens), f"text after the graph: {tokens[pos:pos + 5]}"
    return graph


def _record_ports(label: str) -> set[str]:
    # `<name>` opens a field's port; an escaped `\<` is text.
    return set(re.findall(r"(?<!\\)<([^<>]*)>", label))


def check_well_formed(graph: DotGraph) -> None:
    """Every edge joins declared nodes, at ports their records have, clipped (lhead,
    ltail) at clusters that hold the node the edge ends at."""
    for edge in graph.edges:
        for end in ("tail", "head"):
            node = edge[end]
            assert node in graph.nodes, f"edge {edge} from or to undeclared node {node}"
            port = edge[f"{end}_port"]
            if port is not None:
                assert port in _record_ports(graph.nodes[node]["label"]), (node, port)
        for clip, end in (("ltail", "tail"), ("lhead", "head")):
            if clip in edge:
                assert graph.holds(edge[clip], edge[end]), f"{edge} clipped at a cluster " \
                    "not holding its node"


def structure(graph: DotGraph) -> dict:
    """The graph without label texts and port names: what mlc and mlir-opt must agree on."""
    return {
        "clusters": graph.clusters,
        "nodes": {node: (graph.node_cluster[node], attrs.get("shape"), attrs.get("fillcolor"))
                  for node, attrs in graph.nodes.items()},
        "edges": Counter((e["tail"], e["tail_port"] is not None, e["head"],
                          e["head_port"] is not None, e.get("style"), e.get("ltail"),
                          e.get("lhead")) for e in graph.edges),
    }


# ------------------------------------------------------------------ running the tools

def _context() -> Context:
    ctx = Context(allow_unregistered=True)
    ctx.load_all_available()  # graph ops, and test.for (an scf.for under another name)
    return ctx


def mlc_dot(text: str, options: dict) -> str:
    """mlc's DOT of `text` (in process: the CLI is checked on its own below)."""
    return op_graph_dot(parse_module(text, _context()), ViewOpGraphOptions(**options))


def mlir_dot(mlir_opt: str, path: Path, options: str) -> str:
    flag = f"--view-op-graph={options}" if options else "--view-op-graph"
    result = subprocess.run([mlir_opt, "--allow-unregistered-dialect", flag, str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stderr


@pytest.fixture(scope="session")
def graphviz_dot() -> str:
    """Graphviz's `dot`, the reference DOT parser: a test using it is skipped when it is
    not installed, and fails instead under CI=true (.ci/run installs it)."""
    path = shutil.which("dot")
    if path is None:
        message = "Graphviz's dot is not on PATH; install it: `apt-get install graphviz`"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


# ------------------------------------------------------------------ inputs

# Functions calling each other, constants, arith ops with attributes, a value used twice
# by one op, an op whose result is unused.
ARITH_FUNC = """\
func.func @scale(%a: i32, %b: i32) -> i32 {
  %c42 = arith.constant 42 : i32
  %0 = arith.addi %a, %b : i32
  %1 = arith.muli %0, %c42 : i32
  %2 = arith.muli %1, %1 : i32
  %3 = arith.subi %2, %a : i32
  %4 = arith.cmpi slt, %3, %b : i32
  %5 = arith.select %4, %3, %b : i32
  return %5 : i32
}
func.func private @twice(%x: f32) -> f32 {
  %0 = arith.addf %x, %x fastmath<fast> : f32
  %1 = arith.negf %0 : f32
  return %0 : f32
}
func.func @caller(%x: f32, %i: i32) -> (f32, i32) {
  %0 = func.call @twice(%x) : (f32) -> f32
  %1 = func.call @scale(%i, %i) : (i32, i32) -> i32
  return %0, %1 : f32, i32
}
"""

# An op with a region using values from outside it, results of an op with regions used
# outside, several results, several blocks, successors with operands, large attributes.
REGIONS_AND_BLOCKS = """\
func.func @loop(%lb: index, %ub: index, %x: f32) -> f32 {
  %c1 = arith.constant 1 : index
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<4x5xf32>
  %s = arith.constant dense<2.0> : tensor<400x500xf32>
  %r = "test.for"(%lb, %ub, %c1, %x) ({
  ^bb0(%i: index, %acc: f32):
    %y = arith.addf %acc, %x : f32
    "test.yield"(%y) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  %p:2 = "foo.pair"(%r, %w, %s) {arr = [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]} : (f32, tensor<4x5xf32>, tensor<400x500xf32>) -> (f32, i1)
  "foo.cond_br"(%p#1, %p#0) [^bb1, ^bb2] : (i1, f32) -> ()
^bb1:
  %q = "foo.wrap"(%p#0) ({
    "foo.inner"(%r) : (f32) -> ()
  }, {
  ^bb0(%z: f32):
    "foo.inner"(%z, %x) : (f32, f32) -> ()
  }) : (f32) -> f32
  return %q : f32
^bb2(%v: f32):
  return %v : f32
}
"""

# mlir-opt's spelling of the options, and the same options for mlc.
OPTION_SETS = [
    ("", {}),
    ("print-control-flow-edges=true", {"print_control_flow_edges": True}),
    ("print-data-flow-edges=false print-control-flow-edges=true",
     {"print_data_flow_edges": False, "print_control_flow_edges": True}),
    ("print-attrs=false print-result-types=false max-label-len=3",
     {"print_attrs": False, "print_result_types": False, "max_label_len": 3}),
]


def _fused_example() -> str:
    """examples/fusion.mlir after graph-fuse-ops, in generic form (mlir-opt has no
    graph dialect)."""
    from mlc.ir import PrintOptions, print_op

    load_pass_plugins()
    module = parse_module((EXAMPLES / "fusion.mlir").read_text(), _context())
    with PassContext(opt_level=3):
        assert run_pipeline(module, "graph-fuse-ops").success
    return print_op(module, PrintOptions(generic=True))


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, tuple[str, Path]]:
    """The inputs both tools read, by name: (text, path of a file holding it)."""
    directory = tmp_path_factory.mktemp("view-op-graph")
    cases = {"arith_func": ARITH_FUNC, "regions_and_blocks": REGIONS_AND_BLOCKS,
             "fused": _fused_example()}
    result = {}
    for name, text in cases.items():
        path = directory / f"{name}.mlir"
        path.write_text(text)
        result[name] = (text, path)
    return result


# ------------------------------------------------------------------ against mlir-opt

@pytest.mark.parametrize("mlir_options,options", OPTION_SETS)
def test_same_graph_as_mlir_opt(mlir_opt, inputs, mlir_options, options):
    for name, (text, path) in inputs.items():
        ours = read_dot(mlc_dot(text, options))
        theirs = read_dot(mlir_dot(mlir_opt, path, mlir_options))
        assert structure(ours) == structure(theirs), name
        # What the brief counts, said plainly: nodes, clusters, data-flow edges.
        solid = [sum(e.get("style") == "solid" for e in g.edges) for g in (ours, theirs)]
        assert (len(ours.nodes), len(ours.clusters), solid[0]) == \
            (len(theirs.nodes), len(theirs.clusters), solid[1])
        assert solid[0] > 0 or options.get("print_data_flow_edges") is False


def test_fused_functions_are_named_clusters(inputs):
    graph = read_dot(mlc_dot(inputs["fused"][0], {}))
    labels = sorted(label.split(" : ")[0].strip('"') for label in graph.cluster_labels.values()
                    if label.startswith('"func.func'))
    assert labels == ["func.func @fused_conv2d", "func.func @fused_relu_transpose_add",
                      "func.func @main"]
    calls = [attrs["label"] for attrs in graph.nodes.values() if "func.call" in attrs["label"]]
    assert [re.search(r"func\.call (@\w+)", label).group(1) for label in calls] == \
        ["@fused_conv2d", "@fused_relu_transpose_add"]
    # The symbol is in the headline, so not listed again as an attribute.
    assert not any("sym_name" in label or "callee" in label
                   for label in [*graph.cluster_labels.values(), *calls])
    kernels = {name: label for name, label in graph.cluster_labels.items()
               if "graph.primitive" in label}
    assert len(kernels) == 2
    for cluster, label in kernels.items():  # each kernel's ops are inside its cluster
        held = sorted(re.search(r"\|(graph\.\w+)", a["label"]).group(1)
                      for n, a in graph.nodes.items()
                      if graph.holds(cluster, n) and "|graph." in a["label"])
        expected = (["graph.conv2d"] if "@fused_conv2d " in label
                    else ["graph.add", "graph.relu", "graph.transpose"])
        assert held == expected, label


# ------------------------------------------------------------------ well-formed DOT

def _graphviz_layout(dot: str, text: str) -> dict:
    result = subprocess.run([dot, "-Tjson"], input=text, capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("mlir_options,options", OPTION_SETS)
def test_graphviz_reads_every_graph(graphviz_dot, inputs, mlir_options, options):
    for name, (text, _) in inputs.items():
        dot = mlc_dot(text, options)
        graph = read_dot(dot)
        check_well_formed(graph)
        laid_out = _graphviz_layout(graphviz_dot, dot)
        objects = laid_out["objects"]
        assert sum(o["name"].startswith("cluster_") for o in objects) == len(graph.clusters), name
        assert sum(not o["name"].startswith("cluster_") for o in objects) == len(graph.nodes)
        assert len(laid_out.get("edges", [])) == len(graph.edges)


def test_graphviz_shows_labels_needing_escapes_as_written(graphviz_dot):
    text = op_graph_dot(_parse(AWKWARD), ViewOpGraphOptions(max_label_len=200))
    check_well_formed(read_dot(text))
    _graphviz_layout(graphviz_dot, text)
    # What a reader sees: the attribute as MLIR text, every character of it.
    svg = subprocess.run([graphviz_dot, "-Tsvg"], input=text, capture_output=True, text=True,
                         check=True).stdout
    shown = [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]
    assert 's: "\\22q\\22 \\\\ {|}<> \\0A"' in shown
    assert "foo.awkward" in shown and "%0 i32" in shown


def test_reader_rejects_broken_dot():
    good = op_graph_dot(_parse(ARITH_FUNC))
    check_well_formed(read_dot(good))
    with pytest.raises(AssertionError):
        read_dot(good.rstrip().rstrip("}"))  # unbalanced
    dangling = good.replace("-> v", "-> v999", 1)
    with pytest.raises(AssertionError):
        check_well_formed(read_dot(dangling))


# ------------------------------------------------------------------ labels

AWKWARD = """\
func.func @f(%a: i32) -> i32 {
  %0 = "foo.awkward"(%a) {s = "\\"q\\" \\\\ {|}<> \\0A"} : (i32) -> i32
  return %0 : i32
}
"""


def _parse(text: str):
    return parse_module(text, Context(allow_unregistered=True))


def _node_labels(text: str) -> list[str]:
    return [attrs["label"] for attrs in read_dot(text).nodes.values()
            if attrs.get("shape") == "Mrecord"]


def test_escape_label():
    assert escape_label('a"b\\c\n{|}<>\t', record=True) == 'a\\"b\\\\c\\l\\{\\|\\}\\<\\>\\\\09'
    assert escape_label('a"b\\c\n{|}<>', record=False) == 'a\\"b\\\\c\\l{|}<>'


def test_labels_escape_quotes_backslashes_and_record_syntax():
    # The attribute prints as MLIR text ("\22q\22 \\ {|}<> \0A"), then is escaped for DOT.
    [_, label, _] = _node_labels(op_graph_dot(_parse(AWKWARD), ViewOpGraphOptions(max_label_len=200)))
    assert label == ('"{{<in0> %a}|foo.awkward\\l\\ls: \\"\\\\22q\\\\22 \\\\\\\\ \\{\\|\\}\\<\\> '
                     '\\\\0A\\"\\l|{<out0> %0 i32}}"')


def test_max_label_len_cuts_attributes_and_types():
    module = _parse('func.func @f(%a: tensor<1x2x3x4x5xf32>) {\n'
                    '  "foo.op"(%a) {s = "abcdefghij"} : (tensor<1x2x3x4x5xf32>) -> ()\n'
                    '  return\n}\n')
    labels = _node_labels(op_graph_dot(module, ViewOpGraphOptions(max_label_len=5)))
    assert labels[0] == '"<out0> %a tenso..."'
    assert 's: \\"abcd...\\l' in labels[1]
    labels = _node_labels(op_graph_dot(module, ViewOpGraphOptions(max_label_len=0)))
    assert labels[0] == '"<out0> %a ..."' and "s: ...\\l" in labels[1]
    # Value and symbol names are never cut.
    graph = read_dot(op_graph_dot(module, ViewOpGraphOptions(max_label_len=0)))
    assert '"func.func @f : ()\\lfunction_type: ...\\l"' in graph.cluster_labels.values()


def test_large_attributes_are_elided_as_mlir_does():
    module = _parse(
        "func.func @f() {\n"
        '  "foo.op"() {big = dense<[[1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 5, 6, 7, 8, 9]]>'
        " : tensor<2x9xi32>, small = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]>"
        " : tensor<16xi8>, splat = dense<1.5> : tensor<1000x1000xf32>,"
        " long = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],"
        " short = [1, 2]} : () -> ()\n"
        "  return\n}\n")
    [label, _] = _node_labels(op_graph_dot(module))
    assert "big: [[...]] : tensor\\<2x9xi32\\>\\l" in label
    assert "small: dense\\<[1, 2, 3, 4, 5...\\l" in label  # 16 elements: printed, then cut
    assert "splat: dense\\<1.500000e+00\\> : tensor\\<1000x1000xf32\\>\\l" in label  # in full
    assert "long: [...]\\l" in label
    assert "short: [1, 2]\\l" in label


def test_options_leave_out_attributes_types_and_edges():
    module = _parse(ARITH_FUNC)
    bare = read_dot(op_graph_dot(module, ViewOpGraphOptions(print_attrs=False,
                                                            print_result_types=False)))
    assert '"func.func @scale"' in bare.cluster_labels.values()
    assert '"{arith.constant\\l|{<out0> %c42}}"' in [a["label"] for a in bare.nodes.values()]
    no_edges = read_dot(op_graph_dot(module, ViewOpGraphOptions(print_data_flow_edges=False)))
    assert no_edges.edges == []
    control = read_dot(op_graph_dot(module, ViewOpGraphOptions(print_data_flow_edges=False,
                                                               print_control_flow_edges=True)))
    # One dashed edge per pair of consecutive ops in each block: 2 between the
    # functions, 7 + 2 + 2 in them.
    assert [e["style"] for e in control.edges] == ["dashed"] * 13


# ------------------------------------------------------------------ behaviour

def test_output_is_deterministic_and_follows_the_ir():
    first = op_graph_dot(_parse(REGIONS_AND_BLOCKS))
    assert op_graph_dot(_parse(REGIONS_AND_BLOCKS)) == first
    from mlc.ir import print_op

    assert op_graph_dot(_parse(print_op(_parse(REGIONS_AND_BLOCKS)))) == first


def test_a_value_from_outside_the_drawn_op_has_no_edge():
    module = _parse(REGIONS_AND_BLOCKS)
    loop = next(op for op in module.walk() if op.name == "test.for")
    graph = read_dot(op_graph_dot(loop))
    check_well_formed(graph)
    # Inside: %acc -> addf -> yield; %x comes from outside the loop and has no node.
    assert len(graph.edges) == 2


def test_deep_nesting_is_not_limited_by_recursion():
    depth = 1500
    assert depth > sys.getrecursionlimit()
    text = '"test.wrap"() ({\n' * depth + '"test.leaf"() : () -> ()\n' + "}) : () -> ()\n" * depth
    graph = read_dot(op_graph_dot(_parse(text)))
    assert len(graph.clusters) == 2 * depth + 2  # each op and each block, and the module's


def test_pass_writes_file_whole_or_not_at_all(tmp_path):
    load_pass_plugins()
    module = _parse(ARITH_FUNC)
    target = tmp_path / "graph.dot"
    with PassContext():
        result = run_pipeline(module, f"view-op-graph{{output={target}}}")
    assert result.success
    assert target.read_text() == op_graph_dot(module)
    # A target that cannot be replaced (a directory): the pass fails, saying why, and
    # leaves no temporary file behind.
    blocked = tmp_path / "blocked.dot"
    blocked.mkdir()
    with PassContext():
        result = run_pipeline(module, f"view-op-graph{{output={blocked}}}")
    assert not result.success
    assert "view-op-graph: cannot write" in result.diagnostics[0].message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocked.dot", "graph.dot"]


def test_cli_keeps_ir_on_stdout_and_dot_on_stderr(tmp_path):
    path = tmp_path / "in.mlir"
    path.write_text(ARITH_FUNC)
    plain = subprocess.run([str(MLC_OPT), str(path)], capture_output=True, text=True, check=True)
    viewed = subprocess.run([str(MLC_OPT), str(path), "-p", "view-op-graph"],
                            capture_output=True, text=True, check=True)
    assert viewed.stdout == plain.stdout
    assert viewed.stderr == op_graph_dot(_parse(ARITH_FUNC))
