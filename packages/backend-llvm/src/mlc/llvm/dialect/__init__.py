"""The `llvm` dialect (MLIR's names and syntax), everything about its ops in one place:

- :mod:`.ops`: the dialect's entry point, which declares the op families
  :mod:`.ops_control` (functions, calls, branches), :mod:`.ops_arith` (arithmetic,
  comparisons, casts), :mod:`.ops_values` (constants, globals, memory, aggregates) and
  :mod:`.ops_intrinsics`;
- :mod:`.types` (types and attributes), :mod:`.constraints` (operand and attribute
  constraints), :mod:`.param_attrs` (argument and result attributes);
- :mod:`.semantics`: what the interpreter runs for llvm ops;
- :mod:`.translation`: each op's translation to LLVM IR, registered against its class;
- `llvm.md`: the op reference, generated from the declarations (`mlc-opt --op-docs llvm`).

What lowers other dialects to this one is :mod:`mlc.llvm.conversion`; what compiles,
loads and runs the result is the rest of :mod:`mlc.llvm`.
"""
