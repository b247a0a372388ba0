"""The `builtin` dialect (documented in `builtin.md`): the top-level module and the
conversion cast, declared in `ops.py`.
"""

from mlc.ir.core.moved_modules import attributes_of
from mlc.ir.dialects.builtin import ops as _ops
from mlc.ir.dialects.builtin.ops import *  # noqa: F403

# Every other name of `ops.py` (private helpers, names beyond its `__all__`), as the
# flat module gave them.
__getattr__ = attributes_of(_ops, __name__)
