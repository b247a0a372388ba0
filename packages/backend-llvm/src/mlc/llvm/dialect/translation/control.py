"""Translation of the llvm dialect's functions and control flow
(:mod:`mlc.llvm.dialect.ops_control`): function declarations at the top of the module, calls,
returns and branches in their bodies."""

from __future__ import annotations

from llvmlite import ir

from mlc.ir.core.attributes import SymbolRefAttr
from mlc.ir.core.ir import Operation
from mlc.llvm.dialect import ops_control as C
from mlc.llvm.dialect.translation.core import (
    FunctionTranslation,
    ModuleTranslation,
    fastmath,
    llvm_type,
    translates,
    translates_at_module_level,
    translation_error,
    type_attr,
)
from mlc.llvm.dialect.translation.loop_metadata import loop_metadata
from mlc.llvm.dialect.translation.symbols import LLVMFunction, call_site_attributes
from mlc.llvm.dialect.types import LLVMFunctionType

# ------------------------------------------------------------------ functions

@translates_at_module_level(C.LLVMFuncOp)
def _declare_function(t: ModuleTranslation, op: Operation) -> None:
    """Declare the function with everything its op says about it (symbols.LLVMFunction);
    its body, if any, is translated once every symbol is known."""
    function_type = type_attr(op, "function_type")
    if not isinstance(function_type, LLVMFunctionType):
        raise translation_error("llvm.func's function_type must be an !llvm.func type", op.loc)
    name = op.attributes["sym_name"].value
    t.symbols[name] = LLVMFunction(t.module, llvm_type(function_type, op.loc), name, op)


@translates(C.CallOp)
def _call(t: FunctionTranslation, op: Operation, args: list) -> ir.Value | None:
    callee = op.attributes.get("callee")
    if not isinstance(callee, SymbolRefAttr):
        raise translation_error("indirect calls are not translated", op.loc)
    fn = t.module.symbol(callee.root, op)
    tail = op.attributes.get("TailCallKind")
    inst = t.builder.call(fn, args, fastmath=fastmath(op),
                          tail=tail.kind.value if tail is not None and tail.kind.value != "none"
                          else None)
    inst.attributes = call_site_attributes(op)
    return inst if op.results else None


@translates(C.ReturnOp)
def _return(t: FunctionTranslation, op: Operation, args: list) -> None:
    if args:
        t.builder.ret(args[0])
    else:
        t.builder.ret_void()


# ------------------------------------------------------------------ control flow


@translates(C.UnreachableOp)
def _unreachable(t: FunctionTranslation, op: Operation, args: list) -> None:
    t.builder.unreachable()


@translates(C.BrOp)
def _br(t: FunctionTranslation, op: Operation, args: list) -> None:
    (target,) = t.edges(op, args)
    _annotate_loop(t, op, t.builder.branch(target))


@translates(C.CondBrOp)
def _cond_br(t: FunctionTranslation, op: Operation, args: list) -> None:
    true_block, false_block = t.edges(op, args[1:])
    branch = t.builder.cbranch(args[0], true_block, false_block)
    _annotate_loop(t, op, branch)
    _branch_weights(t, op, branch)


def _annotate_loop(t: FunctionTranslation, op: Operation, branch: ir.Instruction) -> None:
    """The loop metadata of a latch branch's `loop_annotation`, if it has one."""
    annotation = op.attributes.get("loop_annotation")
    if annotation is not None:
        branch.set_metadata("llvm.loop", loop_metadata(t.module, annotation, op.loc))


def _branch_weights(t: FunctionTranslation, op: Operation, branch: ir.Instruction) -> None:
    """`branch_weights` as LLVM's `!prof !{!"branch_weights", i32 ...}`."""
    weights = op.attributes.get("branch_weights")
    if weights is not None and len(weights.values):
        module = t.module.module
        branch.set_metadata("prof", module.add_metadata(
            [ir.MetaDataString(module, "branch_weights"),
             *(ir.Constant(ir.IntType(32), w) for w in weights.values)]))


@translates(C.SwitchOp)
def _switch(t: FunctionTranslation, op: Operation, args: list) -> None:
    default, *cases = t.edges(op, args[1:])
    values = op.attributes.get("case_values")
    numbers = [] if values is None else [int(v) for v in values.array.reshape(-1)]
    inst = t.builder.switch(args[0], default)
    for number, block in zip(numbers, cases):
        inst.add_case(ir.Constant(args[0].type, number), block)
    _branch_weights(t, op, inst)
