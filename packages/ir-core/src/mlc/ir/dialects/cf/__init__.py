"""The `cf` dialect (documented in `cf.md`): unstructured control flow. `ops.py`
declares the ops, `canonicalization.py` their patterns, `semantics.py` what they
do in the interpreter.
"""

from mlc.ir.core.moved_modules import attributes_of

# Importing these registers their ops, interfaces and patterns on the dialect.
from mlc.ir.dialects.cf import canonicalization  # noqa: F401
from mlc.ir.dialects.cf import ops as _ops
from mlc.ir.dialects.cf.ops import *  # noqa: F403

# Every other name of `ops.py` (private helpers, names beyond its `__all__`), as the
# flat module gave them.
__getattr__ = attributes_of(_ops, __name__)
