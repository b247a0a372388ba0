"""Canonicalization patterns of the `memref` dialect, as MLIR's (placeholder)."""

from __future__ import annotations

from mlc.ir.dialects.memref import memref

__all__ = ["memref"]
