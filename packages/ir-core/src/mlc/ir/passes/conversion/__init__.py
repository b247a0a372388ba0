"""Passes that convert one dialect into others (MLIR's lib/Conversion):
convert-scf-to-cf. Importing this package registers them."""

from mlc.ir.passes.conversion import scf_to_cf  # noqa: F401
