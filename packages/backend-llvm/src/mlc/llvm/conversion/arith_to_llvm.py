"""arith to llvm (MLIR's ArithToLLVM): each arith op becomes the LLVM instruction or
intrinsic computing it, on the converted types (`index` is `i64`).

- integer and float arithmetic, one instruction each, flags carried over
  (`overflow<nsw>`, `exact`, fast-math); the extrema become `llvm.intr.smax`...,
  `llvm.intr.maximum`/`maxnum`...;
- `cmpi`/`cmpf` become `icmp`/`fcmp` (the predicates are numbered alike), `select`
  `select`, `constant` `llvm.mlir.constant` (an `index` value keeps its attribute);
- the casts their instruction; `index_cast`/`index_castui` a `sext`/`zext`, a `trunc`,
  or nothing when the widths agree;
- `ceildivsi`, `ceildivui` and `floordivsi` are first expanded into arith ops (the
  `arith-expand` patterns), as MLIR's lowering does.

Left for the diagnostic, as they have no llvm op here: `addui_extended`,
`mulsi_extended`, `mului_extended`, the scaling casts, a `truncf` with a rounding mode,
and any op on an n-D vector or a tensor.
"""

from __future__ import annotations

from mlc.ir.core.attributes import IntegerType, VectorType
from mlc.ir.dialects import arith as A
from mlc.ir.dialects.arith import casts as C
from mlc.ir.passes.arith.expand_ops import ExpandCeilDivSI, ExpandCeilDivUI, ExpandFloorDivSI
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.conversion import ConversionPattern, ConversionRewriter
from mlc.ir.rewrite.pattern import RewritePattern
from mlc.llvm.conversion.common import LLVMTypeConverter, to_llvm_patterns
from mlc.llvm.conversion.one_to_one import (
    convert_dialect_to_llvm,
    converted_type,
    exact_flag,
    fastmath_flags,
    one_to_one,
    overflow_flags,
    same_attribute,
)
from mlc.llvm.dialect import ops_arith as L
from mlc.llvm.dialect import ops_intrinsics as I
from mlc.llvm.dialect import ops_values as V
from mlc.llvm.dialect.semantics import INTEGER_ARITHMETIC


def _compare_with_fastmath(op):
    return {**same_attribute("predicate")(op), **fastmath_flags(op)}


_INTEGER_FLAGS = {A.AddIOp: overflow_flags, A.SubIOp: overflow_flags, A.MulIOp: overflow_flags,
                  A.ShLIOp: overflow_flags, A.DivSIOp: exact_flag, A.DivUIOp: exact_flag,
                  A.ShRSIOp: exact_flag, A.ShRUIOp: exact_flag}

_ONE_TO_ONE = [
    # integer arithmetic
    *((source, target, _INTEGER_FLAGS.get(source)) for source, target in INTEGER_ARITHMETIC),
    # float arithmetic
    (A.AddFOp, L.FAddOp, fastmath_flags), (A.SubFOp, L.FSubOp, fastmath_flags),
    (A.MulFOp, L.FMulOp, fastmath_flags), (A.DivFOp, L.FDivOp, fastmath_flags),
    (A.RemFOp, L.FRemOp, fastmath_flags), (A.NegFOp, L.FNegOp, fastmath_flags),
    (A.MaximumFOp, I.MaximumOp, fastmath_flags), (A.MinimumFOp, I.MinimumOp, fastmath_flags),
    (A.MaxNumFOp, I.MaxnumOp, fastmath_flags), (A.MinNumFOp, I.MinnumOp, fastmath_flags),
    # comparisons and select
    (A.CmpIOp, L.ICmpOp, same_attribute("predicate")),
    (A.CmpFOp, L.FCmpOp, _compare_with_fastmath),
    (A.SelectOp, L.SelectOp, None),
    # casts
    (C.ExtSIOp, L.SExtOp, None), (C.ExtUIOp, L.ZExtOp, None),
    (C.TruncIOp, L.TruncOp, overflow_flags),
    (C.ExtFOp, L.FPExtOp, None),
    (C.SIToFPOp, L.SIToFPOp, None), (C.UIToFPOp, L.UIToFPOp, None),
    (C.FPToSIOp, L.FPToSIOp, None), (C.FPToUIOp, L.FPToUIOp, None),
    (C.BitcastOp, L.BitcastOp, None),
]


class LowerTruncF(ConversionPattern):
    """`truncf` without a rounding mode is `fptrunc` (with one, LLVM needs a
    constrained intrinsic mlc does not have)."""

    root = C.TruncFOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if op.attributes.get("roundingmode") is not None:
            return rewriter.notify_match_failure(op, "a rounding mode")
        return _lower_with(L.FPTruncOp, self, op, adaptor, rewriter)


def _lower_with(target, pattern, op, adaptor, rewriter, attrs=None) -> bool:
    converter = pattern.type_converter
    result_type = converted_type(converter, op.result_types[0])
    if result_type is None or any(converted_type(converter, v.type) != v.type
                                  for v in adaptor.operands):
        return rewriter.notify_match_failure(op, "a type the llvm dialect has no "
                                                 "instruction on")
    new = rewriter.insert(target.create_from_flat(adaptor.operands, attrs or {},
                                                  [result_type], op.loc))
    rewriter.replace_op(op, new)
    return True


class LowerConstant(ConversionPattern):
    """`arith.constant` is `llvm.mlir.constant` of the converted type; the attribute
    stays (`7 : index` becomes `llvm.mlir.constant(7 : index) : i64`, as MLIR)."""

    root = A.ConstantOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        return _lower_with(V.ConstantOp, self, op, adaptor, rewriter,
                           {"value": op.attributes["value"]})


def _width(type_) -> int:
    element = type_.element_type if isinstance(type_, VectorType) else type_
    return element.width if isinstance(element, IntegerType) else 0


class LowerIndexCast(ConversionPattern):
    """`index_cast` (signed) and `index_castui` (unsigned) between `index`, now
    `i64`, and another integer: an extension, a truncation, or the value itself."""

    root = C.IndexCastOp
    extension = L.SExtOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        converter = self.type_converter
        source = adaptor.operands[0]
        result_type = converted_type(converter, op.result_types[0])
        if result_type is None or converted_type(converter, source.type) != source.type:
            return rewriter.notify_match_failure(op, "a type the llvm dialect has no "
                                                     "instruction on")
        source_width, result_width = _width(source.type), _width(result_type)
        if source_width == result_width:
            rewriter.replace_op(op, [source])
            return True
        target = self.extension if result_width > source_width else L.TruncOp
        return _lower_with(target, self, op, adaptor, rewriter)


class LowerIndexCastUI(LowerIndexCast):
    root = C.IndexCastUIOp
    extension = L.ZExtOp


def arith_to_llvm_patterns(converter: LLVMTypeConverter) -> list[RewritePattern]:
    """The patterns lowering arith to llvm with `converter` (MLIR's
    populateArithToLLVMConversionPatterns, the rounding divisions' expansion included)."""
    patterns: list[RewritePattern] = [one_to_one(root, target, translate)(converter)
                                      for root, target, translate in _ONE_TO_ONE]
    patterns += [LowerTruncF(converter), LowerConstant(converter), LowerIndexCast(converter),
                 LowerIndexCastUI(converter)]
    patterns += [ExpandCeilDivSI(), ExpandCeilDivUI(), ExpandFloorDivSI()]
    return patterns


to_llvm_patterns("arith")(arith_to_llvm_patterns)


@register_pass("convert-arith-to-llvm", opt_level=0, dialects=("llvm",),
               summary="Lower arith to the llvm dialect (index as i64); other ops stay, with "
                       "unrealized casts between the two.")
class ConvertArithToLLVM(Pass):
    def run(self, op, run) -> None:
        converter = LLVMTypeConverter()
        convert_dialect_to_llvm(op, arith_to_llvm_patterns(converter), converter)

