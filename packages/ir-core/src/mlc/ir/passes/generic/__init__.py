"""The generic passes: canonicalize, cse, dce, loop-invariant-code-motion, mem2reg,
symbol-dce, print-ir, reconcile-unrealized-casts, view-op-graph. Importing this package
registers them."""

from mlc.ir.passes.generic import (
    canonicalize,
    cse,
    dce,
    licm,
    mem2reg,
    print_ir,
    reconcile_casts,
    symbol_dce,
    view_op_graph,
)
