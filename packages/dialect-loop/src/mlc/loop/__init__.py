"""mlc.loop: not yet implemented (a later issue builds it)."""
