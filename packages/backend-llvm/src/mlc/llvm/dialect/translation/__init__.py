"""Translation of the `llvm` dialect to LLVM IR, one op to one instruction, through
`llvmlite.ir` (MLIR's `mlir-translate --mlir-to-llvmir`).

Each op's translation is registered against its class, beside the others of its
family (:mod:`.arith`, :mod:`.atomics`, :mod:`.control`, :mod:`.values`, :mod:`.intrinsics`), over the
shared machinery of :mod:`.core`. Blocks become basic blocks in a
dominance-respecting order (reverse post-order), block arguments become phi nodes, and
a branch that reaches the same block twice with different arguments goes through a
forwarding block (LLVM allows one phi entry per predecessor).

    text = translate_to_llvm_ir(module)       # LLVM IR text, verified by the caller's parse
"""

from __future__ import annotations

from llvmlite import ir

from mlc.ir.core.ir import Operation
from mlc.llvm.dialect.ops_control import LLVMFuncOp
from mlc.llvm.dialect.translation import (  # noqa: F401 (register the families' translations)
    arith,
    atomics,
    control,
    intrinsics,
    values,
)
from mlc.llvm.dialect.translation.core import (
    FunctionTranslation,
    ModuleTranslation,
    TranslationError,
    constant,
    llvm_type,
    module_level_handler,
    registered_translations,
    translation_error,
)
from mlc.llvm.limits import native_limit_problems


def translate_module(module: Operation, name: str = "mlc", *,
                     check_limits: bool = True) -> ir.Module:
    """`module` (a builtin.module of llvm ops) as an llvmlite module; raises
    TranslationError naming the first op that has no LLVM IR counterpart, or every
    size LLVM cannot be given (mlc.llvm.limits; `check_limits=False` when the module
    was checked before it was lowered to llvm)."""
    problems = native_limit_problems(module) if check_limits else None
    if problems:
        raise TranslationError(problems)
    t = ModuleTranslation(ir.Module(name=name))
    top = [op for block in module.regions[0].blocks for op in block.ops()]
    # Every symbol first, so a body may refer to a function or global defined after it.
    for op in top:
        handler = module_level_handler(op)
        if handler is None:
            raise translation_error(f"cannot translate '{op.name}' to LLVM IR (expected "
                                    "llvm.func or llvm.mlir.global at the top of the module)",
                                    op.loc)
        handler(t, op)
    for op in top:
        if isinstance(op, LLVMFuncOp) and not op.is_declaration:
            FunctionTranslation(t, t.symbols[op.sym_name.value], op).translate()
    return t.module


def translate_to_llvm_ir(module: Operation, name: str = "mlc", *,
                         check_limits: bool = True) -> str:
    """LLVM IR text of `module` (see translate_module)."""
    translated = translate_module(module, name, check_limits=check_limits)
    text = str(translated)
    _dismantle(translated)
    return text


def _dismantle(module: ir.Module) -> None:
    """Unlink a printed llvmlite module's functions, blocks and instructions, which
    refer to each other both ways: freed by reference counting, not left to Python's
    cyclic collector (tens of thousands of objects for a network)."""
    for function in module.functions:
        for block in function.blocks:
            block.instructions.clear()
        function.blocks.clear()


__all__ = ["TranslationError", "translate_module", "translate_to_llvm_ir", "llvm_type",
           "constant", "registered_translations"]
