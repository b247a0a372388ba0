"""The `arith` dialect (documented in `arith.md`): integer and floating-point arithmetic.

`ops.py` declares the dialect and its arithmetic, comparison and select ops,
`casts.py` the casts, `constants.py` the constant folding helpers, `int_ranges.py`
the ops' integer ranges, `canonicalization.py` and `cmpf_of_int.py` the
canonicalization patterns, `semantics.py` what the ops compute (the interpreter
imports it when it first runs an arith op). Importing the package gives the
complete dialect; its names are those of `ops.py`.
"""

from mlc.ir.core.moved_modules import attributes_of

# Importing these registers their ops, interfaces and patterns on the dialect.
from mlc.ir.dialects.arith import canonicalization, casts, cmpf_of_int, constants, int_ranges  # noqa: F401
from mlc.ir.dialects.arith import ops as _ops
from mlc.ir.dialects.arith.ops import *  # noqa: F403

# Every other name of `ops.py` (private helpers, names beyond its `__all__`), as the
# flat module gave them.
__getattr__ = attributes_of(_ops, __name__)
