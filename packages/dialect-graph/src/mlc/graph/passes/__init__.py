"""The graph passes; importing this module registers them (the `mlc.passes` entry
point of mlc-dialect-graph)."""
from mlc.graph.passes import fuse_ops  # noqa: F401
from mlc.graph.passes import pipelines  # noqa: F401
