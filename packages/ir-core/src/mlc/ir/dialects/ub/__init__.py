"""The `ub` dialect (documented in `ub.md`): the poison value, declared in `ops.py`;
`semantics.py` gives it to the interpreter.
"""

from mlc.ir.core.moved_modules import attributes_of
from mlc.ir.dialects.ub import ops as _ops
from mlc.ir.dialects.ub.ops import *  # noqa: F403

# Every other name of `ops.py` (private helpers, names beyond its `__all__`), as the
# flat module gave them.
__getattr__ = attributes_of(_ops, __name__)
