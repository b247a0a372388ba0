"""func → llvm (MLIR's FuncToLLVM with the bare-pointer calling convention).

`func.func` becomes `llvm.func` (a memref argument is one pointer; several results are
returned as one struct), `func.return` `llvm.return`, `func.call` `llvm.call`. Argument
and result attributes (`llvm.noalias`...) and `sym_visibility` are carried over, and an
`llvm.linkage` attribute becomes the function's linkage (as MLIR's FuncToLLVM).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlc.ir.core.attributes import MemRefType, Type
from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects.func import CallOp, FuncOp, ReturnOp
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.conversion import ConversionPattern, ConversionRewriter
from mlc.llvm.conversion.builders import LLVMBuilder
from mlc.llvm.conversion.common import LLVMTypeConverter, to_llvm_patterns
from mlc.llvm.conversion.one_to_one import convert_dialect_to_llvm
from mlc.llvm.dialect.ops_control import LLVMFuncOp
from mlc.llvm.dialect.ops_control import ReturnOp as LLVMReturnOp
from mlc.llvm.dialect.ops_values import ExtractValueOp, InsertValueOp
from mlc.llvm.dialect.types import Linkage, LinkageAttr, LLVMFunctionType, LLVMStructType, void

LINKAGE_ATTR = "llvm.linkage"
"""A func.func attribute (`#llvm.linkage<internal>`) giving its llvm.func that linkage."""


def _packed_result(results: list[Type]) -> Type:
    """The one LLVM result type of a function returning `results`."""
    if not results:
        return void
    return results[0] if len(results) == 1 else LLVMStructType(tuple(results))


def _converted_one_to_one(converter: LLVMTypeConverter, types) -> list[Type] | None:
    converted = [converter.convert_type(t) for t in types]
    if any(len(c) != 1 for c in converted):
        return None
    return [c[0] for c in converted]


class FuncToLLVM(ConversionPattern):
    """func.func → llvm.func with the converted signature and the same body."""

    root = FuncOp

    def match_and_rewrite(self, op: FuncOp, adaptor, rewriter: ConversionRewriter) -> bool:
        converter = self.type_converter
        inputs = _converted_one_to_one(converter, op.type.inputs)
        results = _converted_one_to_one(converter, op.type.results)
        if inputs is None or results is None:
            return rewriter.notify_match_failure(op, "a type of the signature has no LLVM type")
        linkage = op.attributes.get(LINKAGE_ATTR)  # MLIR's way to give a func.func a linkage
        new = LLVMFuncOp.create_function(
            op.sym_name.value, LLVMFunctionType(_packed_result(results), tuple(inputs)),
            linkage.linkage if isinstance(linkage, LinkageAttr) else Linkage.external,
            declaration=True)
        # The other attributes carry over (arg_attrs, sym_visibility, discardable ones),
        # but result attributes only while the results are not packed into one struct.
        skipped = {"sym_name", "function_type", LINKAGE_ATTR, *(("res_attrs",) if len(results) > 1 else ())}
        new.attributes.update((name, value) for name, value in op.attributes.items()
                              if name not in skipped)
        new.loc = op.loc
        rewriter.insert(new)
        if not op.is_declaration:
            rewriter.inline_region_before(op.body, new.regions[0])
            blocks = new.regions[0].blocks
            # Only the entry block: the other blocks' arguments belong to the branches
            # that reach them, which convert them when they are lowered (as MLIR's).
            rewriter.apply_signature_conversion(blocks[0], [[t] for t in inputs])
        rewriter.erase_op(op)
        return True


class ReturnToLLVM(ConversionPattern):
    """func.return → llvm.return (several values packed into a struct)."""

    root = ReturnOp

    def match_and_rewrite(self, op: ReturnOp, adaptor, rewriter: ConversionRewriter) -> bool:
        build = LLVMBuilder(rewriter, op.loc)
        values = adaptor.operands
        if len(values) > 1:
            struct = LLVMStructType(tuple(v.type for v in values))
            packed = build.poison(struct)
            for i, value in enumerate(values):
                packed = build.value(InsertValueOp.create_insert(packed, value, [i]))
            values = [packed]
        build.insert(LLVMReturnOp.build(values[0] if values else None))
        rewriter.erase_op(op)
        return True


class CallToLLVM(ConversionPattern):
    """func.call → llvm.call (several results unpacked from the returned struct)."""

    root = CallOp

    def match_and_rewrite(self, op: CallOp, adaptor, rewriter: ConversionRewriter) -> bool:
        results = _converted_one_to_one(self.type_converter, op.result_types)
        if results is None:
            return rewriter.notify_match_failure(op, "a result type has no LLVM type")
        build = LLVMBuilder(rewriter, op.loc)
        packed = _packed_result(results)
        call = build.call(op.attributes["callee"].root, adaptor.operands,
                          packed if results else None)
        if len(results) > 1:
            values = [build.value(ExtractValueOp.create_extract(call.results[0], [i]))
                      for i in range(len(results))]
        else:
            values = list(call.results)
        rewriter.replace_op(op, values)
        return True


@to_llvm_patterns("func")
def func_to_llvm_patterns(converter: LLVMTypeConverter):
    """The patterns lowering func.func, func.return and func.call."""
    return [FuncToLLVM(converter), ReturnToLLVM(converter), CallToLLVM(converter)]


def _memref_in_signature(module: Operation) -> Operation | None:
    """The first function whose signature has a memref, if any."""
    for op in module.walk():
        if isinstance(op, FuncOp) and any(isinstance(t, MemRefType)
                                          for t in (*op.type.inputs, *op.type.results)):
            return op
    return None


@dataclass(frozen=True)
class ConvertFuncToLLVMOptions:
    use_bare_ptr_memref_call_conv: bool = option(
        False, doc="pass each statically shaped memref as one pointer to its first element "
                   "(mlc's only convention: false, MLIR's default, is refused where a "
                   "signature has a memref)")


@register_pass("convert-func-to-llvm", opt_level=0, dialects=("llvm",),
               options=ConvertFuncToLLVMOptions,
               summary="Lower func.func, func.call and func.return to the llvm dialect "
                       "(index as i64; other ops stay, with unrealized casts).")
class ConvertFuncToLLVM(Pass):
    def run(self, op: Operation, run) -> None:
        if not run.options.use_bare_ptr_memref_call_conv:
            function = _memref_in_signature(op)
            if function is not None:
                raise PassFailure([Diagnostic(
                    "error", "mlc lowers memrefs in signatures to bare pointers only (MLIR's "
                    "memref descriptors are not implemented): use "
                    "convert-func-to-llvm{use-bare-ptr-memref-call-conv=1}", function.loc)])
        converter = LLVMTypeConverter()
        convert_dialect_to_llvm(op, func_to_llvm_patterns(converter), converter)
