"""Every graph op; importing this module registers them with the `graph` dialect,
and then their canonicalization patterns (the graph entry point names this module)."""

from mlc.graph import canonicalization
from mlc.graph.dialect import graph
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

__all__ = ["graph", "canonicalization", "constant", "elementwise", "indexing", "nn", "norm",
           "reduce", "scan", "transform"]
