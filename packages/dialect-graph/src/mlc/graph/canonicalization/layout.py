"""Layout-change simplifications: a transform to the same layout is the identity, a
transform undone by the next one cancels, and two transforms in a row compose.

graph-alter-op-layout runs these after its conversion so that each boundary between
layouts keeps one transform; they are also part of `canonicalize`.
"""

from __future__ import annotations

from mlc.ir.core.attributes import StringAttr
from mlc.ir.rewrite.drr import A, Check, Dag, DagPattern, V, constraint


@constraint("graph_same_layout")
def _same_layout(a: StringAttr, b: StringAttr) -> bool:
    return a == b


@constraint("graph_different_layouts")
def _different_layouts(a: StringAttr, b: StringAttr) -> bool:
    return a != b


def _transform(x, src: A, dst: A) -> Dag:
    return Dag("graph.layout_transform", x, src_layout=src, dst_layout=dst)


PATTERNS: list = [
    DagPattern("LayoutTransformIdentity",
               _transform(V("x"), A("a"), A("b")),
               V("x"),
               [Check("graph_same_layout", "a", "b")],
               doc="layout_transform(x, A->A) -> x"),
    DagPattern("LayoutTransformInverse",
               _transform(_transform(V("x"), A("a"), A("b")), A("b2"), A("a2")),
               V("x"),
               [Check("graph_same_layout", "b", "b2"), Check("graph_same_layout", "a", "a2")],
               doc="layout_transform(layout_transform(x, A->B), B->A) -> x"),
    # With C == A this is the inverse pair, which needs no new transform.
    DagPattern("LayoutTransformCompose",
               _transform(_transform(V("x"), A("a"), A("b")), A("b2"), A("c")),
               _transform(V("x"), A("a"), A("c")),
               [Check("graph_same_layout", "b", "b2"), Check("graph_different_layouts", "a", "c")],
               doc="layout_transform(layout_transform(x, A->B), B->C) -> layout_transform(x, A->C)"),
]
