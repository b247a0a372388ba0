"""Operator fusion, TVM's FuseOps algorithm on the graph dialect.

1. :mod:`forward_graph` indexes a function's dataflow in post-DFS order, one node per
   op, parameter and tuple value, each edge labelled with the consumer's pattern kind;
2. :mod:`dominator` builds the post-dominator tree (the core's analysis) and combines
   the edge patterns on the way from each node to its immediate post-dominator;
3. :mod:`partition` runs the three phases of RunFuse over a union-find of groups;
4. :mod:`outline` turns each group into a private primitive `func.func @fused_...`
   called from the original function.
"""

from mlc.graph.fusion.forward_graph import ForwardGraph, Node, build_forward_graph
from mlc.graph.fusion.outline import outline_groups
from mlc.graph.fusion.partition import Remark, partition

__all__ = ["ForwardGraph", "Node", "build_forward_graph", "partition", "Remark", "outline_groups"]
