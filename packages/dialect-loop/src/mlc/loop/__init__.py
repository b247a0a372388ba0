"""mlc.loop: the `loop` dialect (TensorIR-like loop nests on buffers), the compute
definition API that builds kernels, and their interpreter semantics.

    from mlc.loop import BlockBuilder, te, topi   # Relax's BlockBuilder with emit_te
"""



def __getattr__(name: str):
    # BlockBuilder on first use: importing the dialect need not import the builder.
    if name == "BlockBuilder":
        from mlc.loop.builder import BlockBuilder

        return BlockBuilder
    raise AttributeError(f"module 'mlc.loop' has no attribute '{name}'")
