"""mlc's graph dialect: tensor ops with shape inference, numpy reference semantics
and fusion pattern kinds; the graph passes; operator fusion.

    from mlc.graph import GraphBuilder, evaluate

    b = GraphBuilder()
    x = b.param("x", (1, 784))
    y = b.relu(b.dense(x, b.const(weights)))
    module = b.module(y)
    [out] = evaluate(module, [x_value])
"""

from mlc.graph import canonicalization  # noqa: F401  (registers the graph ops' patterns)
from mlc.graph.builder import GraphBuilder
from mlc.graph.dialect import graph
from mlc.graph.interpreter import EvaluationError, evaluate
from mlc.graph.op_base import GraphOp, PatternKind, ShapeError
from mlc.graph.ops import (
    constant,
    elementwise,
    indexing,
    nn,
    norm,
    reduce,
    scan,
    transform,
)

__all__ = ["GraphBuilder", "GraphOp", "PatternKind", "ShapeError", "graph", "evaluate",
           "EvaluationError", "constant", "elementwise", "indexing", "nn", "norm", "reduce", "scan",
           "transform"]
