"""The graph passes; importing this module registers them (the `mlc.passes` entry
point of mlc-dialect-graph)."""
