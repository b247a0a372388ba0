"""The llvm backend's passes; importing this module registers them (the `mlc.passes`
entry point of mlc-backend-llvm)."""

from __future__ import annotations

from mlc.llvm.conversion import convert_to_llvm as _convert_to_llvm  # noqa: F401 (registers)
