"""The `llvm` dialect's ops (MLIR's names and syntax), the dialect's entry point. Its
types and attributes are in :mod:`mlc.llvm.types`; the ops are declared by family:
functions and control flow (:mod:`~mlc.llvm.ops_control`), arithmetic, comparisons and
casts (:mod:`~mlc.llvm.ops_arith`), constants, globals, memory and aggregates
(:mod:`~mlc.llvm.ops_values`) and intrinsics (:mod:`~mlc.llvm.ops_intrinsics`).
"""

from __future__ import annotations

from mlc.llvm import (  # noqa: F401 (declare)
    ops_arith,
    ops_control,
    ops_intrinsics,
    ops_values,
    semantics,  # noqa: F401 (the interpreter runs llvm's integer arithmetic)
)
from mlc.llvm.types import llvm

__all__ = ["llvm"]
