"""Named pipelines of the graph dialect."""

from mlc.ir.passes import register_pipeline

register_pipeline(
    "graph-optimize",
    "graph-simplify-inference,canonicalize,graph-fold-constant,"
    "graph-fold-scale-axis,cse,dce,graph-fuse-ops",
    "The default graph pipeline: inference simplification, canonicalization, constant "
    "folding, scale folding, CSE, DCE, then operator fusion.")
