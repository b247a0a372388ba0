"""The `llvm` dialect's ops (MLIR's names and syntax). Its types and attributes are in
:mod:`mlc.llvm.types`."""

from __future__ import annotations

from mlc.llvm.types import llvm

__all__ = ["llvm"]
