"""Canonicalization patterns of the `scf` dialect (placeholder, filled below)."""

from mlc.ir.dialects.scf import scf

__all__ = ["scf"]
