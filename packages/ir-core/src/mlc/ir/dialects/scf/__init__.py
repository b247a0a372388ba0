"""The `scf` dialect (documented in `scf.md`): structured control flow. `ops.py`
declares the loops and conditionals, `forall.py` `scf.forall`, `canonicalization.py`
their patterns, `semantics.py` what they do in the interpreter (with `bulk.py`, its
fast path running the iterations of loop nests in lock-step).
"""

from mlc.ir.core.moved_modules import attributes_of

# Importing these registers their ops, interfaces and patterns on the dialect.
from mlc.ir.dialects.scf import canonicalization, forall  # noqa: F401
from mlc.ir.dialects.scf import ops as _ops
from mlc.ir.dialects.scf.ops import *  # noqa: F403

# Every other name of `ops.py` (private helpers, names beyond its `__all__`), as the
# flat module gave them.
__getattr__ = attributes_of(_ops, __name__)
