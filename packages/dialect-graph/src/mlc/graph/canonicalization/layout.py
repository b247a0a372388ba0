"""Layout-change simplifications: a transform to the same layout is the identity, a
transform undone by the next one cancels, and two transforms in a row compose.

graph-alter-op-layout runs these after its conversion so that each boundary between
layouts keeps one transform; they are also part of `canonicalize`. A layout captured
twice ($a, $b below) must be the same layout both times.
"""

from __future__ import annotations

from mlc.graph.dialect import graph
from mlc.graph.ops.transform import LayoutTransformOp
from mlc.ir import StringAttr
from mlc.ir.rewrite import A, Check, Dag, DagPattern, V


def different_layouts(a: StringAttr, b: StringAttr) -> bool:
    """The two layouts differ."""
    return a != b


def _transform(x, src: A, dst: A) -> Dag:
    return Dag(LayoutTransformOp, x, src_layout=src, dst_layout=dst)


PATTERNS: list = [
    DagPattern("LayoutTransformIdentity",
               _transform(V("x"), A("a"), A("a")),
               V("x"),
               doc="layout_transform(x, A->A) -> x"),
    DagPattern("LayoutTransformInverse",
               _transform(_transform(V("x"), A("a"), A("b")), A("b"), A("a")),
               V("x"),
               doc="layout_transform(layout_transform(x, A->B), B->A) -> x"),
    # With C == A this is the inverse pair, which needs no new transform.
    DagPattern("LayoutTransformCompose",
               _transform(_transform(V("x"), A("a"), A("b")), A("b"), A("c")),
               _transform(V("x"), A("a"), A("c")),
               [Check(different_layouts, "a", "c")],
               doc="layout_transform(layout_transform(x, A->B), B->C) -> layout_transform(x, A->C)"),
]

graph.add_canonicalization_patterns(PATTERNS)
