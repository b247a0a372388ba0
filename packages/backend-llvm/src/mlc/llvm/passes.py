"""The llvm backend's passes; importing this module registers them (the `mlc.passes`
entry point of mlc-backend-llvm)."""

from __future__ import annotations

from mlc.llvm import target as _target  # noqa: F401 (loop-default-schedule's host)
from mlc.llvm.conversion import arith_to_llvm as _arith  # noqa: F401 (registers)
from mlc.llvm.conversion import cf_to_llvm as _cf  # noqa: F401 (registers)
from mlc.llvm.conversion import convert_to_llvm as _convert_to_llvm  # noqa: F401 (registers)
from mlc.llvm.conversion import func_to_llvm as _func  # noqa: F401 (registers)
from mlc.llvm.conversion import math_to_llvm as _math  # noqa: F401 (registers)
from mlc.llvm.conversion import memref_to_llvm as _memref  # noqa: F401 (registers)
from mlc.llvm.conversion import scf_parallel_to_gomp as _gomp  # noqa: F401 (registers)
from mlc.llvm.conversion import ub_to_llvm as _ub  # noqa: F401 (registers)
from mlc.llvm.conversion import vector_to_llvm as _vector  # noqa: F401 (registers)
from mlc.llvm.dialect import mem2reg as _mem2reg  # noqa: F401 (llvm.alloca's promotable slots)
