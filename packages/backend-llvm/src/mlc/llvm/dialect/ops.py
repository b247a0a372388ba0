"""The `llvm` dialect's ops (MLIR's names and syntax), the dialect's entry point. Its
types and attributes are in :mod:`mlc.llvm.dialect.types`; the ops are declared by family:
functions and control flow (:mod:`~mlc.llvm.dialect.ops_control`), arithmetic, comparisons and
casts (:mod:`~mlc.llvm.dialect.ops_arith`), constants, globals, memory and aggregates
(:mod:`~mlc.llvm.dialect.ops_values`) and intrinsics (:mod:`~mlc.llvm.dialect.ops_intrinsics`).
"""

from __future__ import annotations

from mlc.llvm.dialect import (  # noqa: F401 (declare)
    function_attrs,
    ops_arith,
    ops_control,
    ops_intrinsics,
    ops_values,
    semantics,  # noqa: F401 (the interpreter runs llvm's integer arithmetic)
)
from mlc.llvm.dialect.types import llvm

__all__ = ["llvm"]
