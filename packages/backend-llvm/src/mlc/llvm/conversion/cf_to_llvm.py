"""cf to llvm (MLIR's ControlFlowToLLVM): `cf.br`, `cf.cond_br` and `cf.switch` become
their llvm twins on the converted operands, their successors' block arguments
converted too; `cf.assert` splits its block, branching on the condition to the ops
after it or to a block that prints the message with `puts` and calls `abort`:

    llvm.cond_br %ok, ^continue, ^failed
    ^failed:
      %0 = llvm.mlir.addressof @assert_msg : !llvm.ptr
      %1 = llvm.getelementptr %0[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<5 x i8>
      llvm.call @puts(%1) : (!llvm.ptr) -> ()
      llvm.call @abort() : () -> ()
      llvm.unreachable

The message is a private constant global (`@assert_msg`, `@assert_msg_0`, ...), and
`puts` and `abort` are declared in the module unless they are there already.
"""

from __future__ import annotations

from mlc.ir.core.attributes import (
    DenseArrayAttr,
    DenseElementsAttr,
    RankedTensorType,
    StringAttr,
    TypeAttr,
    i8,
    i32,
    unit,
)
from mlc.ir.core.ir import Block, Operation, Region
from mlc.ir.dialects import cf
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.conversion import ConversionPattern, ConversionRewriter
from mlc.ir.rewrite.pattern import RewritePattern
from mlc.llvm.conversion.common import LLVMTypeConverter, to_llvm_patterns
from mlc.llvm.conversion.one_to_one import convert_dialect_to_llvm
from mlc.llvm.dialect import ops_control as LC
from mlc.llvm.dialect import ops_values as V
from mlc.llvm.dialect.constraints import is_llvm_compatible
from mlc.llvm.dialect.types import Linkage, LinkageAttr, LLVMArrayType, LLVMFunctionType, ptr, void


class _BranchLowering(ConversionPattern):
    """A cf branch as the llvm one with the same successors, operand groups and
    attributes; each successor's block arguments get the converted types."""

    target: type

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not all(is_llvm_compatible(v.type) for v in adaptor.operands):
            return rewriter.notify_match_failure(op, "an operand of a type the llvm dialect "
                                                     "has no value of")
        for block in op.successors:
            rewriter.convert_block_signature(block, self.type_converter)
        # The converted values of each declared operand group (1:N conversions expanded).
        groups, start = [], 0
        for size in (len(g) for g in op.op_def.operand_groups(op)):
            groups.append([v for g in adaptor.operand_groups[start:start + size] for v in g])
            start += size
        attributes = dict(op.attributes)
        if "operandSegmentSizes" in attributes:
            attributes["operandSegmentSizes"] = DenseArrayAttr(
                i32, tuple(len(g) for g in groups))
        new = rewriter.insert(self.target.create(
            [v for g in groups for v in g], (), attributes, (), list(op.successors), op.loc))
        rewriter.replace_op(op, new)
        return True


class LowerBranch(_BranchLowering):
    root = cf.BranchOp
    target = LC.BrOp


class LowerCondBranch(_BranchLowering):
    root = cf.CondBranchOp
    target = LC.CondBrOp


class LowerSwitch(_BranchLowering):
    root = cf.SwitchOp
    target = LC.SwitchOp


def _unique_symbol(module: Operation, base: str) -> str:
    """`base`, or `base_0`, `base_1`... whichever no symbol of `module` has (MLIR's
    naming of the globals it creates)."""
    taken = {op.attributes["sym_name"].value for op in module.regions[0].blocks[0].ops()
             if "sym_name" in op.attributes}
    if base not in taken:
        return base
    index = 0
    while f"{base}_{index}" in taken:
        index += 1
    return f"{base}_{index}"


def _declared_function(rewriter: ConversionRewriter, module: Operation, name: str,
                       fn_type: LLVMFunctionType) -> None:
    """Declare `llvm.func @name` at the start of `module` unless a symbol has that name."""
    for op in module.regions[0].blocks[0].ops():
        symbol = op.attributes.get("sym_name")
        if symbol is not None and symbol.value == name:
            return
    with rewriter.insertion_point():
        rewriter.set_insertion_point_to_start(module.regions[0].blocks[0])
        rewriter.insert(LC.LLVMFuncOp.create_function(name, fn_type, declaration=True))


class LowerAssert(ConversionPattern):
    """`cf.assert`: a conditional branch to the rest of the block, or to a new block
    at the end of the region that prints the message and aborts (MLIR's lowering
    with `abortOnFailedAssert`)."""

    root = cf.AssertOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        module = op.parent_op
        while module is not None and not isinstance(module, ModuleOp):
            module = module.parent_op
        if module is None:
            return rewriter.notify_match_failure(op, "no module to declare abort in")
        block = op.parent
        region = block.parent
        continuation = region.insert(region.blocks.index(block) + 1, Block())
        failure = region.append(Block())
        rewriter.on_rollback(_remove_blocks, region, [continuation, failure])
        following = []
        cursor = op.next_op
        while cursor is not None:
            following.append(cursor)
            cursor = cursor.next_op
        for moved in following:
            rewriter.move_op_before(moved, continuation, None)

        message = op.msg.value.encode("utf-8") + b"\0"
        array = LLVMArrayType(len(message), i8)
        name = _unique_symbol(module, "assert_msg")
        with rewriter.insertion_point():
            rewriter.set_insertion_point_to_start(module.regions[0].blocks[0])
            rewriter.insert(V.GlobalOp.build(
                constant=unit, global_type=TypeAttr(array), linkage=LinkageAttr(Linkage.private),
                sym_name=StringAttr(name), value=DenseElementsAttr.from_array(
                    list(message), RankedTensorType((len(message),), i8)),
                regions=[Region()], loc=op.loc))
        _declared_function(rewriter, module, "puts", LLVMFunctionType(void, (ptr,)))
        _declared_function(rewriter, module, "abort", LLVMFunctionType(void, ()))

        with rewriter.insertion_point():
            rewriter.set_insertion_point_to_end(failure)
            address = rewriter.insert(V.AddressOfOp.create_address(name))
            element = V.GEPOp.create_gep(address.results[0], [0], array)
            element.loc = op.loc
            rewriter.insert(element)
            rewriter.insert(LC.CallOp.create_call("puts", [element.results[0]]))
            rewriter.insert(LC.CallOp.create_call("abort", []))
            rewriter.insert(LC.UnreachableOp.build(loc=op.loc))
        rewriter.insert(LC.CondBrOp.build(adaptor.operands[0], [], [],
                                          successors=[continuation, failure], loc=op.loc))
        rewriter.erase_op(op)
        return True


def _remove_blocks(region, blocks) -> None:
    for block in blocks:
        if block.parent is region:
            region.blocks.remove(block)
            block.parent = None


def cf_to_llvm_patterns(converter: LLVMTypeConverter) -> list[RewritePattern]:
    """The patterns lowering cf to llvm with `converter` (MLIR's
    populateControlFlowToLLVMConversionPatterns and the assert lowering)."""
    return [LowerBranch(converter), LowerCondBranch(converter), LowerSwitch(converter),
            LowerAssert(converter)]


to_llvm_patterns("cf")(cf_to_llvm_patterns)


@register_pass("convert-cf-to-llvm", opt_level=0, dialects=("llvm",),
               summary="Lower cf branches and asserts to the llvm dialect.")
class ConvertControlFlowToLLVM(Pass):
    def run(self, op, run) -> None:
        converter = LLVMTypeConverter()
        convert_dialect_to_llvm(op, cf_to_llvm_patterns(converter), converter)


__all__ = ["cf_to_llvm_patterns", "LowerAssert", "LowerBranch", "LowerCondBranch",
           "LowerSwitch"]
