"""Lowering the standard dialects to the `llvm` dialect (MLIR's convert-to-llvm).

One dialect conversion assembled from per-dialect pattern sets, as MLIR's
`populate<Dialect>ToLLVMConversionPatterns`: each `<dialect>_to_llvm.py` module
registers its patterns with :func:`~mlc.llvm.conversion.common.to_llvm_patterns`, and
the `convert-to-llvm` pass (:mod:`mlc.llvm.conversion.convert_to_llvm`) applies them all
with one :class:`~mlc.llvm.conversion.common.LLVMTypeConverter`.
"""
