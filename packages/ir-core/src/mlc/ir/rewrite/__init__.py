"""Rewriting IR: the rewriter API, patterns (code and declarative), and the drivers."""
