"""mlc.graph: not yet implemented (a later issue builds it)."""
