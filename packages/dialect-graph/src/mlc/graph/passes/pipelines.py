"""Named pipelines of the graph dialect."""

from mlc.ir.passes import register_pipeline

GRAPH_OPTIMIZE = ("graph-simplify-inference,canonicalize,graph-fold-constant,"
                  "graph-fold-scale-axis,cse,dce,graph-fuse-ops")
"""The default graph pipeline, as registered under the name `graph-optimize`."""

register_pipeline(
    "graph-optimize", GRAPH_OPTIMIZE,
    "The default graph pipeline: inference simplification, canonicalization, constant "
    "folding, scale folding, CSE, DCE, then operator fusion.")


def graph_optimize_with_layout(block: int) -> str:
    """`graph-optimize` with `graph-alter-op-layout{block=...}` before fusion (as TVM
    runs AlterOpLayout before FuseOps): what a build for a CPU with `block`-lane vectors
    runs, so convolutions work in NCHW{block}c and dense layers on transposed weights."""
    before, fuse = GRAPH_OPTIMIZE.rsplit(",cse,dce,graph-fuse-ops", 1)
    return f"{before},graph-alter-op-layout{{block={block}}},canonicalize,cse,dce,graph-fuse-ops{fuse}"
