"""math to llvm (MLIR's MathToLLVM): each math op LLVM has an intrinsic for becomes
that intrinsic, fast-math flags carried over; `rsqrt` becomes `1 / sqrt(x)`, `log1p`
`log(1 + x)` and `expm1` `exp(x) - 1` (as MLIR's).

`math.erf` has no LLVM intrinsic: it is left, for convert-to-llvm's C library patterns
(math_to_libm: a call of `erff`) or the conversion's diagnostic. The intrinsics of vectors (and the C library's
functions) are scalarized by LLVM: `mlc.llvm.build` and `compile_module` therefore run
`math-polynomial-approximation` first, which rewrites f32 exp, exp2, expm1, log, log2,
log1p, tanh, erf, sin and cos (scalars and vectors) as arith and fmas, as MLIR's
pipelines do before this conversion.
"""

from __future__ import annotations

from mlc.ir.core.attributes import DenseElementsAttr, FloatAttr, VectorType
from mlc.ir.dialects import math as M
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.conversion import ConversionPattern, ConversionRewriter
from mlc.ir.rewrite.pattern import RewritePattern
from mlc.llvm.conversion.common import LLVMTypeConverter, to_llvm_patterns
from mlc.llvm.conversion.one_to_one import (
    convert_dialect_to_llvm,
    converted_type,
    fastmath_flags,
    one_to_one,
)
from mlc.llvm.dialect import ops_arith as L
from mlc.llvm.dialect import ops_intrinsics as I
from mlc.llvm.dialect import ops_values as V

_INTRINSICS = [
    (M.AbsFOp, I.FabsOp), (M.SinOp, I.SinOp), (M.CosOp, I.CosOp), (M.ExpOp, I.ExpOp),
    (M.Exp2Op, I.Exp2Op), (M.LogOp, I.LogOp), (M.Log2Op, I.Log2Op), (M.TanhOp, I.TanhOp),
    (M.SqrtOp, I.SqrtOp), (M.FloorOp, I.FloorOp), (M.CeilOp, I.CeilOp), (M.RoundOp, I.RoundOp),
    (M.PowFOp, I.PowOp), (M.CopySignOp, I.CopysignOp), (M.FmaOp, I.FmaOp),
    (M.TanOp, I.TanOp), (M.AsinOp, I.AsinOp), (M.AcosOp, I.AcosOp), (M.AtanOp, I.AtanOp),
    (M.SinhOp, I.SinhOp), (M.CoshOp, I.CoshOp), (M.RoundEvenOp, I.RoundevenOp),
]


class _LowerThroughOne(ConversionPattern):
    """A math op computed from its operand and the constant 1.0 by llvm ops that all
    carry the op's fast-math flags (MLIR's lowerings of rsqrt, log1p and expm1, which
    LLVM has no intrinsic for)."""

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        operand = adaptor.operands[0]
        type_ = converted_type(self.type_converter, op.result_types[0])
        if type_ is None or operand.type != type_:
            return rewriter.notify_match_failure(op, "a type the llvm dialect has no "
                                                     "instruction on")
        if isinstance(type_, VectorType):
            one = DenseElementsAttr.from_array(1.0, type_)
        else:
            one = FloatAttr.from_value(1.0, type_)
        flags = fastmath_flags(op)
        constant = rewriter.insert(V.ConstantOp.create_from_flat([], {"value": one}, [type_],
                                                                 op.loc)).results[0]

        def apply(op_class, *operands):
            return rewriter.insert(op_class.create_from_flat(list(operands), dict(flags),
                                                             [type_], op.loc)).results[0]

        rewriter.replace_op(op, [self.compute(apply, operand, constant)])
        return True


class LowerRsqrt(_LowerThroughOne):
    """`rsqrt(x)` is `1.0 / sqrt(x)`."""

    root = M.RsqrtOp

    @staticmethod
    def compute(apply, x, one):
        return apply(L.FDivOp, one, apply(I.SqrtOp, x))


class LowerLog1p(_LowerThroughOne):
    """`log1p(x)` is `log(1.0 + x)`. That loses the precision log1p exists for (x near
    0), so where the C library's patterns are there too (convert-to-llvm), its `log1p`
    comes first: this pattern's benefit is below theirs."""

    root = M.Log1pOp
    benefit = -1

    @staticmethod
    def compute(apply, x, one):
        return apply(I.LogOp, apply(L.FAddOp, one, x))


class LowerExpm1(_LowerThroughOne):
    """`expm1(x)` is `exp(x) - 1.0`; below the C library's `expm1` as LowerLog1p."""

    root = M.Expm1Op
    benefit = -1

    @staticmethod
    def compute(apply, x, one):
        return apply(L.FSubOp, apply(I.ExpOp, x), one)


def math_to_llvm_patterns(converter: LLVMTypeConverter) -> list[RewritePattern]:
    """The patterns lowering math to llvm with `converter` (MLIR's
    populateMathToLLVMConversionPatterns)."""
    patterns: list[RewritePattern] = [one_to_one(root, target, fastmath_flags)(converter)
                                      for root, target in _INTRINSICS]
    patterns += [LowerRsqrt(converter), LowerLog1p(converter), LowerExpm1(converter)]
    return patterns


to_llvm_patterns("math")(math_to_llvm_patterns)


@register_pass("convert-math-to-llvm", opt_level=0, dialects=("llvm",),
               summary="Lower math ops LLVM has intrinsics for to the llvm dialect.")
class ConvertMathToLLVM(Pass):
    def run(self, op, run) -> None:
        converter = LLVMTypeConverter()
        convert_dialect_to_llvm(op, math_to_llvm_patterns(converter), converter)
