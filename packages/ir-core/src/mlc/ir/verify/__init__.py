"""The verifier."""
