"""mlc.loop: the `loop` dialect (TensorIR-like loop nests on buffers), the compute
definition API that builds kernels, and their interpreter semantics."""
