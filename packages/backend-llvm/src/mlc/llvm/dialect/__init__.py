"""The `llvm` dialect: its ops, types and attributes, and their translation to LLVM IR."""
