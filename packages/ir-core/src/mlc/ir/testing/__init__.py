"""The `test` dialect and test passes: small ops that exercise the rewriting and
conversion drivers from lit tests (as MLIR's own test dialect does)."""
