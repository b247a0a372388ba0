"""The `func` dialect (documented in `func.md`): functions, calls and returns.
`ops.py` declares the ops, `conversion.py` the signature conversion patterns of
dialect conversion, `semantics.py` what the ops do in the interpreter.
"""

from mlc.ir.core.moved_modules import attributes_of
from mlc.ir.dialects.func import ops as _ops
from mlc.ir.dialects.func.ops import *  # noqa: F403

# Every other name of `ops.py` (private helpers, names beyond its `__all__`), as the
# flat module gave them.
__getattr__ = attributes_of(_ops, __name__)
