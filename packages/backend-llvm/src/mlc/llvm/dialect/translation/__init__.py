"""Translation of the `llvm` dialect to LLVM IR, one op to one instruction, through
`llvmlite.ir` (MLIR's `mlir-translate --mlir-to-llvmir`).

Each op's translation is registered against its class, beside the others of its
family (:mod:`.arith`, :mod:`.atomics`, :mod:`.control`, :mod:`.values`, :mod:`.memory`, :mod:`.intrinsics`), over the
shared machinery of :mod:`.core`. Blocks become basic blocks in a
dominance-respecting order (reverse post-order), block arguments become phi nodes, and
a branch that reaches the same block twice with different arguments goes through a
forwarding block (LLVM allows one phi entry per predecessor).

    text = translate_to_llvm_ir(module)       # LLVM IR text, verified by the caller's parse
"""

from __future__ import annotations

from llvmlite import ir

from mlc.ir.core.attributes import ArrayAttr, StringAttr
from mlc.ir.core.ir import Operation
from mlc.ir.dialects.builtin import ModuleOp
from mlc.llvm.dialect.ops_control import LLVMFuncOp
from mlc.llvm.dialect.translation import (  # noqa: F401 (register the families' translations)
    arith,
    atomics,
    control,
    intrinsics,
    memory,
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
from mlc.llvm.dialect.translation.symbols import attribute_groups, quoted
from mlc.llvm.limits import native_limit_problems


def translate_module(module: Operation, name: str = "mlc", *,
                     check_limits: bool = True) -> ir.Module:
    """`module` (a builtin.module of llvm ops) as an llvmlite module; raises
    TranslationError naming the first op that has no LLVM IR counterpart, or every
    size LLVM cannot be given (mlc.llvm.limits; `check_limits=False` when the module
    was checked before it was lowered to llvm)."""
    if not isinstance(module, ModuleOp):
        raise translation_error(f"'{module.name}' op can not be translated to an LLVMIR module",
                                module.loc)
    problems = native_limit_problems(module) if check_limits else None
    if problems:
        raise TranslationError(problems)
    t = ModuleTranslation(ir.Module(name=name))
    _module_attributes(t.module, module)
    top = [op for block in module.regions[0].blocks for op in block.ops()]
    # Every symbol first, so a body may refer to a function or global defined after it.
    for op in top:
        handler = module_level_handler(op)
        if handler is None:
            raise translation_error(f"'{op.name}' cannot be converted to LLVM IR (expected "
                                    "llvm.func or llvm.mlir.global at the top of the module)",
                                    op.loc)
        handler(t, op)
    for finish in t.deferred:
        finish()
    for op in top:
        if isinstance(op, LLVMFuncOp) and not op.is_declaration:
            FunctionTranslation(t, t.symbols[op.sym_name.value], op).translate()
    return t.module


def _module_attributes(target: ir.Module, module: Operation) -> None:
    """What the module's attributes say for the whole of LLVM's module: `llvm.data_layout`,
    `llvm.target_triple` (none: LLVM's default, not llvmlite's "unknown-unknown-unknown"),
    `llvm.ident`, `llvm.commandline`, `llvm.dependent_libraries`, and the module flags
    mlir-translate always writes."""
    attrs = module.attributes
    layout, triple = attrs.get("llvm.data_layout"), attrs.get("llvm.target_triple")
    target.data_layout = layout.value if isinstance(layout, StringAttr) else ""
    target.triple = triple.value if isinstance(triple, StringAttr) else ""
    for key, name in (("llvm.ident", "llvm.ident"), ("llvm.commandline", "llvm.commandline")):
        text = attrs.get(key)
        if isinstance(text, StringAttr):
            target.add_named_metadata(name, [ir.MetaDataString(target, text.value)])
    libraries = attrs.get("llvm.dependent_libraries")
    if isinstance(libraries, ArrayAttr):
        for library in libraries:
            if isinstance(library, StringAttr):
                target.add_named_metadata("llvm.dependent-libraries",
                                          [ir.MetaDataString(target, library.value)])
    i32 = ir.IntType(32)
    target.add_named_metadata("llvm.module.flags", [
        ir.Constant(i32, 2), ir.MetaDataString(target, "Debug Info Version"), ir.Constant(i32, 3)])
    if target.triple.endswith("-windows-msvc"):
        # As MLIR: MSVC's debuggers read CodeView.
        target.add_named_metadata("llvm.module.flags", [
            ir.Constant(i32, 2), ir.MetaDataString(target, "CodeView"), ir.Constant(i32, 1)])


def module_assembly(module: Operation) -> str:
    """The module-level inline assembly of `llvm.module_asm` (an array of strings) as
    LLVM IR's `module asm` lines, which llvmlite cannot write."""
    lines = module.attributes.get("llvm.module_asm")
    if lines is None:
        return ""
    if not isinstance(lines, ArrayAttr):
        raise translation_error("expected an array attribute for a module level asm", module.loc)
    if not all(isinstance(line, StringAttr) for line in lines):
        raise translation_error("expected a string attribute for each entry of a module level "
                                "asm", module.loc)
    return "".join(f"module asm {quoted(line.value)}\n" for line in lines)


def translate_to_llvm_ir(module: Operation, name: str = "mlc", *,
                         check_limits: bool = True) -> str:
    """LLVM IR text of `module` (see translate_module)."""
    translated = translate_module(module, name, check_limits=check_limits)
    # `module asm` after the header (LLVM reads the target lines first).
    header, _, body = str(translated).partition("\n\n")
    text = f"{header}\n{module_assembly(module)}\n{body}{attribute_groups(translated)}"
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


def llvm_ir_as_printed(llvm_module) -> str:
    """LLVM's own text of a parsed module (an llvmlite `ModuleRef`), as mlir-translate
    prints it: opaque pointers, attribute groups, and local values and blocks numbered
    (%0, %1, ...) rather than named as llvmlite names them (%".3")."""
    text_end = "\n"
    for function in llvm_module.functions:
        for argument in function.arguments:
            argument.name = ""
        for block in function.blocks:
            block.name = ""
            for instruction in block.instructions:
                instruction.name = ""
    text = str(llvm_module)
    return text if text.endswith(text_end) else text + text_end


__all__ = ["TranslationError", "translate_module", "translate_to_llvm_ir", "llvm_type",
           "constant", "registered_translations", "llvm_ir_as_printed"]
