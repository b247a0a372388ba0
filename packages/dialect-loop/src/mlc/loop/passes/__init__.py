"""The loop level's passes; importing this module registers them (the `mlc.passes`
entry point of mlc-dialect-loop)."""
from mlc.loop.passes import lower_graph  # noqa: F401
