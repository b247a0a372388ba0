"""The graph passes; importing this module registers them (the `mlc.passes` entry
point of mlc-dialect-graph)."""
from mlc.graph.passes import (  # noqa: F401
    alter_op_layout,
    bind_params,
    fold_constant,
    fold_scale_axis,
    fuse_ops,
    pipelines,
    simplify_inference,
)
