"""Every graph op; importing this module registers them with the `graph` dialect."""

from mlc.graph.dialect import graph
from mlc.graph.ops import constant, elementwise, nn, norm, reduce, transform

__all__ = ["graph", "constant", "elementwise", "nn", "norm", "reduce", "transform"]
