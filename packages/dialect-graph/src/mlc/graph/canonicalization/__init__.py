"""Canonicalization patterns of graph ops, for the core `canonicalize` pass.

Each module here holds a family of declarative patterns (`PATTERNS`) and registers
them on the `graph` dialect where they are defined; the graph entry point module
(`mlc.graph`) imports this package, so a loaded graph dialect has them.
"""

from mlc.graph.canonicalization import algebra, empty, layout

__all__ = ["algebra", "empty", "layout"]
