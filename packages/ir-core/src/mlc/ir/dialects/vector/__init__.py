"""The `vector` dialect (documented in `vector.md`): ops on `vector<...>` values.
`ops.py` declares the dialect and `vector.broadcast`, `slicing.py` the ops that take
vectors apart and put them together, `memory.py` those that load and store,
`compute.py` fma and the reductions, `semantics.py` what they all do in the
interpreter.
"""

from mlc.ir.core.moved_modules import attributes_of

# Importing these registers their ops, interfaces and patterns on the dialect.
from mlc.ir.dialects.vector import (  # noqa: F401
    compute,
    contraction,
    elements,
    masked_memory,
    masks,
    memory,
    slicing,
)
from mlc.ir.dialects.vector import ops as _ops
from mlc.ir.dialects.vector.ops import *  # noqa: F403

# Every other name of `ops.py` (private helpers, names beyond its `__all__`), as the
# flat module gave them.
__getattr__ = attributes_of(_ops, __name__)
