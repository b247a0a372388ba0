"""vector → llvm for 1-D vectors (MLIR's VectorToLLVM, the subset loop-lower emits).

`vector.load`/`store` on a memref whose last dim is contiguous become one LLVM vector
load/store at the first element's address; `broadcast` of a scalar an insertelement
plus a zero-mask shufflevector; `fma` `llvm.intr.fmuladd`; `reduction` LLVM's vector
reduction intrinsics (ordered for floats unless the op allows reassociation, as LLVM
defines them); `extract`/`insert` at constant positions extract/insertelement;
`shuffle`, `interleave` and `deinterleave` shufflevectors; `from_elements` and
`to_elements` insert/extractelements; `bitcast` `llvm.bitcast`. The pass
`convert-vector-to-llvm` applies these alone.
"""

from __future__ import annotations

from mlc.ir.core.attributes import FloatType, MemRefType, Type, VectorType, i32, i64
from mlc.ir.dialects import vector
from mlc.ir.dialects.arith import FastMath
from mlc.ir.dialects.index_lists import DYNAMIC_INDEX
from mlc.ir.dialects.vector.compute import FMAOp, Kind, ReductionOp
from mlc.ir.dialects.vector.elements import (
    BitCastOp,
    DeinterleaveOp,
    FromElementsOp,
    InterleaveOp,
    ShuffleOp,
    ToElementsOp,
)
from mlc.ir.dialects.vector.memory import LoadOp, StoreOp
from mlc.ir.dialects.vector.slicing import POISON_INDEX, ExtractOp, InsertOp
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.conversion import ConversionPattern, ConversionRewriter
from mlc.llvm.conversion.builders import LLVMBuilder
from mlc.llvm.conversion.common import LLVMTypeConverter, memref_strides, to_llvm_patterns
from mlc.llvm.conversion.memref_to_llvm import element_address, element_bytes, llvm_element
from mlc.llvm.conversion.one_to_one import convert_dialect_to_llvm
from mlc.llvm.dialect import ops_arith as L
from mlc.llvm.dialect import ops_intrinsics as I
from mlc.llvm.dialect import ops_values as V
from mlc.llvm.dialect.types import LLVMFastMathFlags


def _is_1d(type_: Type) -> bool:
    return isinstance(type_, VectorType) and len(type_.shape) == 1 and not any(type_.scalable)


def llvm_fastmath(op) -> LLVMFastMathFlags:
    """An arith-style `fastmath` attribute of `op` as LLVM's flags."""
    flags = getattr(op, "fastmath", None)
    return LLVMFastMathFlags(flags.flags if flags is not None else FastMath(0))


class _VectorAccess(ConversionPattern):
    def address(self, op, base, indices, rewriter) -> tuple[LLVMBuilder, object] | None:
        type_ = op.base.type
        strides = memref_strides(type_) if isinstance(type_, MemRefType) else None
        if strides is None or (strides and strides[-1] != 1):
            return None
        build = LLVMBuilder(rewriter, op.loc)
        element = llvm_element(self.type_converter, type_.element_type)
        return build, element_address(build, base, indices, strides, element)


class VectorLoadToLLVM(_VectorAccess):
    root = LoadOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not _is_1d(op.result.type):
            return rewriter.notify_match_failure(op, "only 1-D vectors are lowered")
        base, *indices = adaptor.operands
        found = self.address(op, base, indices, rewriter)
        if found is None:
            return rewriter.notify_match_failure(op, "the memref's last dim is not contiguous")
        build, address = found
        type_ = llvm_element(self.type_converter, op.result.type)
        rewriter.replace_op(op, [build.load(address, type_, element_bytes(type_.element_type))])
        return True


class VectorStoreToLLVM(_VectorAccess):
    root = StoreOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not _is_1d(op.valueToStore.type):
            return rewriter.notify_match_failure(op, "only 1-D vectors are lowered")
        value, base, *indices = adaptor.operands
        found = self.address(op, base, indices, rewriter)
        if found is None:
            return rewriter.notify_match_failure(op, "the memref's last dim is not contiguous")
        build, address = found
        build.store(value, address, element_bytes(value.type.element_type))
        rewriter.erase_op(op)
        return True


class BroadcastToLLVM(ConversionPattern):
    root = vector.BroadcastOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        result = op.vector.type
        if not _is_1d(result) or isinstance(op.source.type, VectorType):
            return rewriter.notify_match_failure(op, "only scalars to 1-D vectors are lowered")
        build = LLVMBuilder(rewriter, op.loc)
        type_ = llvm_element(self.type_converter, result)
        poison = build.poison(type_)
        zero = build.constant(0, i32)
        single = build.value(V.InsertElementOp.build(poison, adaptor.operands[0], zero))
        splat = build.value(V.ShuffleVectorOp.create_shuffle(single, poison,
                                                             [0] * type_.shape[0]))
        rewriter.replace_op(op, [splat])
        return True


class FMAToLLVM(ConversionPattern):
    root = FMAOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not _is_1d(op.result.type):
            return rewriter.notify_match_failure(op, "only 1-D vectors are lowered")
        value = LLVMBuilder(rewriter, op.loc).value(I.FmuladdOp.build(*adaptor.operands))
        rewriter.replace_op(op, [value])
        return True


# Each kind's reduction intrinsic and the op combining its result with an accumulator.
_INT_REDUCTIONS = {Kind.ADD: (I.VectorReduceAddOp, L.AddOp),
                   Kind.MUL: (I.VectorReduceMulOp, L.MulOp),
                   Kind.AND: (I.VectorReduceAndOp, L.AndOp),
                   Kind.OR: (I.VectorReduceOrOp, L.OrOp),
                   Kind.XOR: (I.VectorReduceXorOp, L.XOrOp),
                   Kind.MAXSI: (I.VectorReduceSmaxOp, I.SmaxOp),
                   Kind.MINSI: (I.VectorReduceSminOp, I.SminOp),
                   Kind.MAXUI: (I.VectorReduceUmaxOp, I.UmaxOp),
                   Kind.MINUI: (I.VectorReduceUminOp, I.UminOp)}
_FLOAT_REDUCTIONS = {Kind.MAXNUMF: (I.VectorReduceFmaxOp, I.MaxnumOp),
                     Kind.MINNUMF: (I.VectorReduceFminOp, I.MinnumOp),
                     Kind.MAXIMUMF: (I.VectorReduceFmaximumOp, I.MaximumOp),
                     Kind.MINIMUMF: (I.VectorReduceFminimumOp, I.MinimumOp)}


class ReductionToLLVM(ConversionPattern):
    root = ReductionOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        source = op.vector.type
        if not _is_1d(source):
            return rewriter.notify_match_failure(op, "only 1-D vectors are lowered")
        build = LLVMBuilder(rewriter, op.loc)
        kind = op.kind.value
        vector_value, *acc = adaptor.operands
        element = llvm_element(self.type_converter, source.element_type)
        fastmath = {"fastmathFlags": llvm_fastmath(op)}
        if isinstance(element, FloatType) and kind in (Kind.ADD, Kind.MUL):
            # LLVM's fadd/fmul reductions take their start value as an operand.
            start = acc[0] if acc else build.constant(0.0 if kind is Kind.ADD else 1.0, element)
            reduction = I.VectorReduceFaddOp if kind is Kind.ADD else I.VectorReduceFmulOp
            rewriter.replace_op(op, [build.value(reduction.build(
                start, vector_value, result_types=[element], **fastmath))])
            return True
        table = _FLOAT_REDUCTIONS if isinstance(element, FloatType) else _INT_REDUCTIONS
        if kind not in table:
            return rewriter.notify_match_failure(op, f"no LLVM reduction for {kind.value}")
        reduction, combine = table[kind]
        attrs = fastmath if isinstance(element, FloatType) else {}
        value = build.value(reduction.build(vector_value, result_types=[element], **attrs))
        if acc:
            value = build.value(combine.build(acc[0], value, **attrs))
        rewriter.replace_op(op, [value])
        return True


def _position_index(op, adaptor, build: LLVMBuilder, value_operands: int):
    """The one position of an extract/insert in a 1-D vector as an i64 value: its
    constant, or its `index` operand (already i64); None for poison or more dims."""
    position = op.static_position.values
    if len(position) != 1:
        return None
    if position[0] == DYNAMIC_INDEX:
        return adaptor.operands[value_operands]
    return build.constant(position[0], i64) if position[0] >= 0 else None


class ExtractToLLVM(ConversionPattern):
    root = ExtractOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not _is_1d(op.source.type) or len(op.static_position.values) != 1 \
                or op.static_position.values[0] == POISON_INDEX:
            return rewriter.notify_match_failure(op, "only one position in a 1-D vector")
        build = LLVMBuilder(rewriter, op.loc)
        index = _position_index(op, adaptor, build, 1)
        value = build.value(V.ExtractElementOp.build(adaptor.operands[0], index))
        rewriter.replace_op(op, [value])
        return True


class InsertToLLVM(ConversionPattern):
    root = InsertOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not _is_1d(op.dest.type) or len(op.static_position.values) != 1 \
                or op.static_position.values[0] == POISON_INDEX:
            return rewriter.notify_match_failure(op, "only one position in a 1-D vector")
        build = LLVMBuilder(rewriter, op.loc)
        index = _position_index(op, adaptor, build, 2)
        value_to_store, dest = adaptor.operands[:2]
        value = build.value(V.InsertElementOp.build(dest, value_to_store, index))
        rewriter.replace_op(op, [value])
        return True


class ShuffleToLLVM(ConversionPattern):
    """A shuffle of two 1-D vectors of one size is `llvm.shufflevector`."""

    root = ShuffleOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not (_is_1d(op.v1.type) and op.v1.type == op.v2.type):
            return rewriter.notify_match_failure(op, "only two 1-D vectors of one type")
        build = LLVMBuilder(rewriter, op.loc)
        value = build.value(V.ShuffleVectorOp.create_shuffle(*adaptor.operands,
                                                             list(op.mask.values)))
        rewriter.replace_op(op, [value])
        return True


class InterleaveToLLVM(ConversionPattern):
    """Interleaving two 1-D vectors is the shuffle `0, n, 1, n + 1, ...`."""

    root = InterleaveOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not _is_1d(op.lhs.type):
            return rewriter.notify_match_failure(op, "only 1-D vectors are lowered")
        size = op.lhs.type.shape[0]
        mask = [k for i in range(size) for k in (i, size + i)]
        build = LLVMBuilder(rewriter, op.loc)
        rewriter.replace_op(op, [build.value(V.ShuffleVectorOp.create_shuffle(
            *adaptor.operands, mask))])
        return True


class DeinterleaveToLLVM(ConversionPattern):
    """The even and the odd elements of a 1-D vector: two shuffles of it."""

    root = DeinterleaveOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not _is_1d(op.source.type):
            return rewriter.notify_match_failure(op, "only 1-D vectors are lowered")
        size = op.source.type.shape[0]
        build = LLVMBuilder(rewriter, op.loc)
        source = adaptor.operands[0]
        poison = build.poison(source.type)
        halves = [build.value(V.ShuffleVectorOp.create_shuffle(
            source, poison, list(range(start, size, 2)))) for start in (0, 1)]
        rewriter.replace_op(op, halves)
        return True


class FromElementsToLLVM(ConversionPattern):
    """A 1-D vector from its elements: insertelements into a poison vector."""

    root = FromElementsOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not _is_1d(op.dest.type):
            return rewriter.notify_match_failure(op, "only 1-D vectors are lowered")
        build = LLVMBuilder(rewriter, op.loc)
        value = build.poison(llvm_element(self.type_converter, op.dest.type))
        for index, element in enumerate(adaptor.operands):
            value = build.value(V.InsertElementOp.build(value, element,
                                                        build.constant(index, i64)))
        rewriter.replace_op(op, [value])
        return True


class ToElementsToLLVM(ConversionPattern):
    """The elements of a 1-D vector: one extractelement each."""

    root = ToElementsOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not _is_1d(op.source.type):
            return rewriter.notify_match_failure(op, "only 1-D vectors are lowered")
        build = LLVMBuilder(rewriter, op.loc)
        source = adaptor.operands[0]
        # Only the elements used are extracted (as MLIR); an unused result takes any.
        used = [bool(result.uses) for result in op.results]
        if not any(used):
            rewriter.erase_op(op)
            return True
        values = {i: build.value(V.ExtractElementOp.build(source, build.constant(i, i64)))
                  for i, is_used in enumerate(used) if is_used}
        some = next(iter(values.values()))
        rewriter.replace_op(op, [values.get(i, some) for i in range(len(used))])
        return True


class BitCastToLLVM(ConversionPattern):
    """A bitcast of 1-D vectors is `llvm.bitcast`."""

    root = BitCastOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not (_is_1d(op.source.type) and _is_1d(op.result.type)):
            return rewriter.notify_match_failure(op, "only 1-D vectors are lowered")
        type_ = llvm_element(self.type_converter, op.result.type)
        build = LLVMBuilder(rewriter, op.loc)
        rewriter.replace_op(op, [build.value(L.BitcastOp.build(adaptor.operands[0],
                                                               result_types=[type_]))])
        return True


@to_llvm_patterns("vector")
def vector_to_llvm_patterns(converter: LLVMTypeConverter):
    """The patterns lowering 1-D vector ops."""
    return [cls(converter) for cls in (VectorLoadToLLVM, VectorStoreToLLVM, BroadcastToLLVM,
                                       FMAToLLVM, ReductionToLLVM, ExtractToLLVM, InsertToLLVM,
                                       ShuffleToLLVM, InterleaveToLLVM, DeinterleaveToLLVM,
                                       FromElementsToLLVM, ToElementsToLLVM, BitCastToLLVM)]


@register_pass("convert-vector-to-llvm", opt_level=0, dialects=("llvm",),
               summary="Lower 1-D vector ops to the llvm dialect; other ops stay, with "
                       "unrealized casts between the two.")
class ConvertVectorToLLVM(Pass):
    def run(self, op, run) -> None:
        converter = LLVMTypeConverter()
        convert_dialect_to_llvm(op, vector_to_llvm_patterns(converter), converter)
