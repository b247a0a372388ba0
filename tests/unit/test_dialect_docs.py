"""The markdown op references beside each dialect are generated from the declarations."""

from pathlib import Path

import pytest

from mlc.ir import Context
from mlc.ir.opdef.docs import dialect_markdown

ROOT = Path(__file__).resolve().parents[2]
# Each dialect's reference lives beside its declarations.
DOCS = {
    "builtin": ROOT / "packages/ir-core/src/mlc/ir/dialects/builtin/builtin.md",
    "func": ROOT / "packages/ir-core/src/mlc/ir/dialects/func/func.md",
    "arith": ROOT / "packages/ir-core/src/mlc/ir/dialects/arith/arith.md",
    "math": ROOT / "packages/ir-core/src/mlc/ir/dialects/math/math.md",
    "ub": ROOT / "packages/ir-core/src/mlc/ir/dialects/ub/ub.md",
    "vector": ROOT / "packages/ir-core/src/mlc/ir/dialects/vector/vector.md",
    "cf": ROOT / "packages/ir-core/src/mlc/ir/dialects/cf/cf.md",
    "memref": ROOT / "packages/ir-core/src/mlc/ir/dialects/memref/memref.md",
    "scf": ROOT / "packages/ir-core/src/mlc/ir/dialects/scf/scf.md",
    "graph": ROOT / "packages/dialect-graph/src/mlc/graph/graph.md",
    "loop": ROOT / "packages/dialect-loop/src/mlc/loop/loop.md",
    "llvm": ROOT / "packages/backend-llvm/src/mlc/llvm/dialect/llvm.md",
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


def test_every_graph_op_documents_its_integer_and_nan_semantics():
    """An op that takes integers says what it does with them (truncation, wrapping,
    what is undefined) and one that takes floats what it does with NaN."""
    from mlc.ir import f32, i32

    def accepts(cls, element) -> bool:
        from mlc.ir.core.attributes import RankedTensorType

        tensor = RankedTensorType((2,), element)
        return any(o.constraint.check(tensor) for o in cls.op_def.operands)

    missing = []
    for name, cls in sorted(Context(["graph"]).dialects["graph"].ops.items()):
        text = cls.op_def.description
        if name != "graph.constant" and not cls.op_def.operands:
            continue
        takes_integers = name == "graph.constant" or accepts(cls, i32)
        takes_floats = name == "graph.constant" or accepts(cls, f32)
        if takes_integers and "Integers" not in text:
            missing.append(f"{name}: integers")
        if takes_floats and "NaN" not in text:
            missing.append(f"{name}: NaN")
    assert missing == []
