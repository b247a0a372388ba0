"""ub to llvm (MLIR's UBToLLVM): `ub.poison` becomes `llvm.mlir.poison` of the
converted type."""

from __future__ import annotations

from mlc.ir.dialects.ub import PoisonOp
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.pattern import RewritePattern
from mlc.llvm.conversion.common import LLVMTypeConverter, to_llvm_patterns
from mlc.llvm.conversion.one_to_one import convert_dialect_to_llvm, one_to_one
from mlc.llvm.dialect import ops_values as V


def ub_to_llvm_patterns(converter: LLVMTypeConverter) -> list[RewritePattern]:
    """The pattern lowering ub to llvm with `converter`."""
    return [one_to_one(PoisonOp, V.PoisonOp)(converter)]


to_llvm_patterns("ub")(ub_to_llvm_patterns)


@register_pass("convert-ub-to-llvm", opt_level=0, dialects=("llvm",),
               summary="Lower ub.poison to llvm.mlir.poison.")
class ConvertUBToLLVM(Pass):
    def run(self, op, run) -> None:
        converter = LLVMTypeConverter()
        convert_dialect_to_llvm(op, ub_to_llvm_patterns(converter), converter)
