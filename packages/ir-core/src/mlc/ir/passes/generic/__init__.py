"""The generic passes: canonicalize, cse, dce, symbol-dce, print-ir,
reconcile-unrealized-casts. Importing this package registers them."""

from mlc.ir.passes.generic import canonicalize, cse, dce, print_ir, reconcile_casts, symbol_dce
