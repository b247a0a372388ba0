"""Analyses of IR: dominance and post-dominance."""
