"""mlc.llvm: not yet implemented (a later issue builds it)."""
