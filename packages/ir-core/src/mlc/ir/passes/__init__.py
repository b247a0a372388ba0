"""Passes: declaration and registry, PassContext, pipelines, instruments, analyses."""
