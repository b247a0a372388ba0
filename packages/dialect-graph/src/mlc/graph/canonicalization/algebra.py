"""Algebraic simplifications of graph ops (x*1, x+0, identity casts...)."""

PATTERNS: list = []
