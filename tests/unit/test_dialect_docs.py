"""The markdown op references beside each dialect are generated from the declarations."""

from pathlib import Path

import pytest

from mlc.ir import Context
from mlc.ir.opdef.docs import dialect_markdown

ROOT = Path(__file__).resolve().parents[2]
# Each dialect's reference lives beside its declarations.
DOCS = {
    "builtin": ROOT / "packages/ir-core/src/mlc/ir/dialects/builtin.md",
    "func": ROOT / "packages/ir-core/src/mlc/ir/dialects/func.md",
    "arith": ROOT / "packages/ir-core/src/mlc/ir/dialects/arith.md",
    "graph": ROOT / "packages/dialect-graph/src/mlc/graph/graph.md",
}


@pytest.mark.parametrize("name", sorted(DOCS))
def test_checked_in_docs_are_current(name):
    ctx = Context([name])
    expected = dialect_markdown(ctx.dialects[name])
    checked_in = DOCS[name].read_text()
    assert checked_in == expected, f"regenerate with: mlc-opt --op-docs {name} > {DOCS[name]}"


def test_doc_facts_join_the_op_section():
    # The graph dialect's fusion pattern kind comes from GraphOp.doc_facts.
    markdown = dialect_markdown(Context(["graph"]).dialects["graph"])
    section = markdown.split("## `graph.softmax`")[1].split("\n## ")[0]
    assert "Fusion pattern: `opaque`" in section
    section = markdown.split("## `graph.sum`")[1].split("\n## ")[0]
    assert "Fusion pattern: `comm-reduce`" in section
    # Dialects without the hook get no such line.
    assert "Fusion pattern" not in dialect_markdown(Context(["arith"]).dialects["arith"])
