"""The `math` dialect (documented in `math.md`): elementwise floating-point functions.
`ops.py` declares the ops and their folders, `semantics.py` what they compute in
the interpreter.
"""

from mlc.ir.core.moved_modules import attributes_of
from mlc.ir.dialects.math import ops as _ops
from mlc.ir.dialects.math.ops import *  # noqa: F403

# Every other name of `ops.py` (private helpers, names beyond its `__all__`), as the
# flat module gave them.
__getattr__ = attributes_of(_ops, __name__)
