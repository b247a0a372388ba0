"""memref → llvm for statically shaped memrefs, each one bare pointer.

A memref value is a pointer to its first element: a subview's pointer is its source's
advanced by the view's offset, so a memref's type (static sizes and strides) and its
pointer say everything. Loads and stores address `ptr + sum(index_i * stride_i)`
elements; `alloc` calls the C library's `aligned_alloc` (64-byte alignment, enough for
any vector load), `dealloc` `free`, `copy` `memcpy`; globals become LLVM globals
holding the constant's bytes. A memref with a dynamic size or stride has no single
pointer form here and is left for convert-to-llvm's diagnostic. `atomic_rmw` is an
`llvm.atomicrmw` (acq_rel, as MLIR's) at the element's address.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.core.attributes import (
    DenseElementsAttr,
    DenseResourceElementsAttr,
    FloatType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    RankedTensorType,
    Type,
    TypeAttr,
    UnitAttr,
    VectorType,
    i64,
)
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects import memref
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.conversion import ConversionPattern, ConversionRewriter
from mlc.llvm.conversion.builders import LLVMBuilder
from mlc.llvm.conversion.common import LLVMTypeConverter, memref_strides, to_llvm_patterns
from mlc.llvm.conversion.one_to_one import convert_dialect_to_llvm
from mlc.llvm.dialect.constraints import AtomicBinOp, AtomicOrdering
from mlc.llvm.dialect.ops_arith import AddOp, MulOp
from mlc.llvm.dialect.ops_control import LLVMFuncOp
from mlc.llvm.dialect.ops_values import AddressOfOp, AllocaOp, AtomicRMWOp, GlobalOp
from mlc.llvm.dialect.types import (
    EXTERNAL_LINKAGE,
    Linkage,
    LinkageAttr,
    LLVMArrayType,
    LLVMFunctionType,
    ptr,
    void,
)

ALLOCATION_ALIGNMENT = 64
_DYNAMIC = -(1 << 63)


def element_bytes(type_: Type) -> int:
    """The size in bytes of one element of `type_` as LLVM lays it out."""
    if isinstance(type_, IndexType):
        return 8
    if isinstance(type_, IntegerType):
        return max(1, (type_.width + 7) // 8)
    if isinstance(type_, FloatType):
        return type_.width // 8
    if isinstance(type_, VectorType):
        count = 1
        for size in type_.shape:
            count *= size
        return count * element_bytes(type_.element_type)
    raise TypeError(f"no byte size for {type_}")


def llvm_element(converter: LLVMTypeConverter, type_: Type) -> Type:
    (converted,) = converter.convert_type(type_)
    return converted


def element_address(build: LLVMBuilder, base: Value, indices: Sequence[Value],
                    strides: Sequence[int], element: Type) -> Value:
    """The address of `base[indices]` in a memref of `strides`, elements of `element`."""
    offset: Value | None = None
    for index, stride in zip(indices, strides):
        if stride == 0:
            continue
        term = index if stride == 1 else build.index_arith(MulOp, index, build.constant(stride, i64))
        offset = term if offset is None else build.index_arith(AddOp, offset, term)
    return base if offset is None else build.gep(base, offset, element)


class _MemRefPattern(ConversionPattern):
    """A pattern on an op whose memref operand must have a pointer form."""

    def strides(self, type_: Type) -> tuple[int, ...] | None:
        return memref_strides(type_) if isinstance(type_, MemRefType) else None


class LoadToLLVM(_MemRefPattern):
    root = memref.LoadOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        strides = self.strides(op.memref.type)
        if strides is None:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        build = LLVMBuilder(rewriter, op.loc)
        base, *indices = adaptor.operands
        element = llvm_element(self.type_converter, op.result.type)
        address = element_address(build, base, indices, strides, element)
        rewriter.replace_op(op, [build.load(address, element, element_bytes(element))])
        return True


class StoreToLLVM(_MemRefPattern):
    root = memref.StoreOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        strides = self.strides(op.memref.type)
        if strides is None:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        build = LLVMBuilder(rewriter, op.loc)
        value, base, *indices = adaptor.operands
        element = llvm_element(self.type_converter, op.memref.type.element_type)
        address = element_address(build, base, indices, strides, element)
        build.store(value, address, element_bytes(element))
        rewriter.erase_op(op)
        return True


# memref.atomic_rmw's kinds as llvm.atomicrmw's operations (MLIR's; `mulf` and `muli`
# have none: MLIR lowers them through memref.generic_atomic_rmw, which mlc has not).
ATOMIC_BIN_OPS = {"addf": "fadd", "addi": "add", "andi": "_and", "assign": "xchg",
                  "maximumf": "fmaximum", "maxnumf": "fmax", "maxs": "max", "maxu": "umax",
                  "minimumf": "fminimum", "minnumf": "fmin", "mins": "min", "minu": "umin",
                  "ori": "_or", "xori": "_xor"}


class AtomicRMWToLLVM(_MemRefPattern):
    root = memref.AtomicRMWOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        strides = self.strides(op.memref.type)
        if strides is None:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        operation = ATOMIC_BIN_OPS.get(op.kind_name)
        if operation is None:
            return rewriter.notify_match_failure(op, f"no llvm.atomicrmw does '{op.kind_name}'")
        build = LLVMBuilder(rewriter, op.loc)
        value, base, *indices = adaptor.operands
        element = llvm_element(self.type_converter, op.result.type)
        address = element_address(build, base, indices, strides, element)
        rewriter.replace_op(op, [build.value(AtomicRMWOp.build(
            address, value, result_types=[element], bin_op=AtomicBinOp.attr(operation),
            ordering=AtomicOrdering.attr("acq_rel")))])
        return True


def _byte_size(type_: MemRefType) -> int:
    count = 1
    for size in type_.shape:
        count *= size
    return count * element_bytes(type_.element_type)


def declare_c_function(rewriter: ConversionRewriter, anchor: Operation, name: str,
                       result: Type, params: tuple[Type, ...]) -> bool:
    """Declare the C library's `name` at the top of the module around `anchor`, once.
    False when the module defines another symbol of that name (a user function called
    `free`...), which a call of the C function would reach instead."""
    module = anchor
    while module.parent_op is not None and not isinstance(module, ModuleOp):
        module = module.parent_op
    block = module.regions[0].blocks[0]
    function_type = LLVMFunctionType(result, params)
    for op in block.ops():
        symbol = op.attributes.get("sym_name")
        if symbol is not None and symbol.value == name:
            return isinstance(op, LLVMFuncOp) and op.type == function_type and op.is_declaration
    declaration = LLVMFuncOp.create_function(name, function_type, declaration=True)
    declaration.loc = anchor.loc
    with rewriter.insertion_point():
        rewriter.set_insertion_point_to_start(block)
        rewriter.insert(declaration)
    return True


def _c_function_clash(rewriter: ConversionRewriter, op: Operation, name: str) -> bool:
    return rewriter.notify_match_failure(
        op, f"the module defines its own @{name}, which the C library's would be")


class AllocToLLVM(_MemRefPattern):
    """memref.alloc → aligned_alloc(64, size rounded up to 64)."""

    root = memref.AllocOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        type_ = op.memref.type
        if self.strides(type_) is None or op.operands:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        alignment = max(ALLOCATION_ALIGNMENT, op.alignment.value if op.alignment else 0)
        size = max(alignment, -(-_byte_size(type_) // alignment) * alignment)
        if not declare_c_function(rewriter, op, "aligned_alloc", ptr, (i64, i64)):
            return _c_function_clash(rewriter, op, "aligned_alloc")
        build = LLVMBuilder(rewriter, op.loc)
        call = build.call("aligned_alloc", (build.constant(alignment, i64),
                                            build.constant(size, i64)), ptr)
        rewriter.replace_op(op, [call.results[0]])
        return True


class AllocaToLLVM(_MemRefPattern):
    """memref.alloca → llvm.alloca of the buffer's bytes on the stack."""

    root = memref.AllocaOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        type_ = op.memref.type
        if self.strides(type_) is None or op.operands:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        build = LLVMBuilder(rewriter, op.loc)
        element = llvm_element(self.type_converter, type_.element_type)
        count = _byte_size(type_) // element_bytes(element)
        alignment = op.alignment.value if op.alignment else ALLOCATION_ALIGNMENT
        value = build.value(AllocaOp.create_alloca(build.constant(max(count, 1), i64), element,
                                                   alignment))
        rewriter.replace_op(op, [value])
        return True


class DeallocToLLVM(_MemRefPattern):
    root = memref.DeallocOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if self.strides(op.memref.type) is None:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        if not declare_c_function(rewriter, op, "free", void, (ptr,)):
            return _c_function_clash(rewriter, op, "free")
        LLVMBuilder(rewriter, op.loc).call("free", adaptor.operands)
        rewriter.erase_op(op)
        return True


class CopyToLLVM(_MemRefPattern):
    """memref.copy of two contiguous buffers → memcpy."""

    root = memref.CopyOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        source, target = op.source.type, op.target.type
        if not (_is_contiguous(source) and _is_contiguous(target)):
            return rewriter.notify_match_failure(op, "only contiguous buffers are copied")
        if not declare_c_function(rewriter, op, "memcpy", ptr, (ptr, ptr, i64)):
            return _c_function_clash(rewriter, op, "memcpy")
        build = LLVMBuilder(rewriter, op.loc)
        source_ptr, target_ptr = adaptor.operands
        build.call("memcpy", (target_ptr, source_ptr, build.constant(_byte_size(source), i64)),
                   ptr)
        rewriter.erase_op(op)
        return True


def _is_contiguous(type_: Type) -> bool:
    if not isinstance(type_, MemRefType):
        return False
    strides = memref_strides(type_)
    if strides is None:
        return False
    expected = 1
    for size, stride in zip(reversed(type_.shape), reversed(strides)):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return True


class SameAddressToLLVM(_MemRefPattern):
    """Views that keep the first element where it was: cast, expand_shape, collapse_shape."""

    root = None

    _VIEWS = (memref.CastOp, memref.ExpandShapeOp, memref.CollapseShapeOp)

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if not isinstance(op, self._VIEWS):
            return False
        if self.strides(op.results[0].type) is None or self.strides(op.operands[0].type) is None:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        rewriter.replace_op(op, [adaptor.operands[0]])
        return True


class SubViewToLLVM(_MemRefPattern):
    """memref.subview → the source pointer advanced by the view's offset."""

    root = memref.SubViewOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        strides = self.strides(op.source.type)
        if strides is None or self.strides(op.result.type) is None:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        build = LLVMBuilder(rewriter, op.loc)
        dynamic = iter(adaptor.operands[1:1 + len(op.offsets)])
        offsets = [next(dynamic) if o == _DYNAMIC else build.constant(o, i64)
                   for o in op.static_offsets.values]
        element = llvm_element(self.type_converter, op.source.type.element_type)
        rewriter.replace_op(op, [element_address(build, adaptor.operands[0], offsets, strides,
                                                 element)])
        return True


class ReinterpretCastToLLVM(_MemRefPattern):
    """memref.reinterpret_cast of a buffer with a static offset, to a static offset."""

    root = memref.ReinterpretCastOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        source, result = op.source.type, op.result.type
        if not isinstance(source, MemRefType) or self.strides(result) is None or op.operands[1:]:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        source_offset = _static_offset(source)
        if source_offset is None:
            return rewriter.notify_match_failure(op, "the source's offset is dynamic")
        shift = op.static_offsets.values[0] - source_offset
        build = LLVMBuilder(rewriter, op.loc)
        base = adaptor.operands[0]
        if shift:
            element = llvm_element(self.type_converter, source.element_type)
            base = build.gep(base, build.constant(shift, i64), element)
        rewriter.replace_op(op, [base])
        return True


def _static_offset(type_: MemRefType) -> int | None:
    layout = type_.layout
    if layout is None:
        return 0
    return getattr(layout, "offset", None)


class ViewToLLVM(_MemRefPattern):
    """memref.view → the byte buffer's pointer advanced by the byte shift."""

    root = memref.ViewOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if self.strides(op.result.type) is None or op.sizes:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        build = LLVMBuilder(rewriter, op.loc)
        base, shift = adaptor.operands[:2]
        rewriter.replace_op(op, [build.gep(base, shift, IntegerType(8))])
        return True


class DimToLLVM(_MemRefPattern):
    """memref.dim of a static size → the size."""

    root = memref.DimOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        type_ = op.source.type
        index = op.index.defining_op
        value = getattr(index, "attributes", {}).get("value") if index is not None else None
        if not isinstance(type_, MemRefType) or value is None or \
                not 0 <= value.value < len(type_.shape) or type_.shape[value.value] < 0:
            return rewriter.notify_match_failure(op, "the size is not static")
        rewriter.replace_op(op, [LLVMBuilder(rewriter, op.loc).constant(type_.shape[value.value],
                                                                        i64)])
        return True


def _array_type(converter: LLVMTypeConverter, type_: MemRefType) -> Type:
    element = llvm_element(converter, type_.element_type)
    for size in reversed(type_.shape):
        element = LLVMArrayType(size, element)
    return element


class GlobalToLLVM(_MemRefPattern):
    """memref.global → llvm.mlir.global of the nested array type, its value the constant."""

    root = memref.GlobalOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        type_ = op.type.value
        if self.strides(type_) is None:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        attributes = {"sym_name": op.sym_name,
                      "global_type": TypeAttr(_array_type(self.type_converter, type_)),
                      "alignment": IntegerAttr(op.alignment.value if op.alignment
                                               else ALLOCATION_ALIGNMENT, i64)}
        private = op.sym_visibility is not None and op.sym_visibility.value == "private"
        attributes["linkage"] = LinkageAttr(Linkage.internal) if private else EXTERNAL_LINKAGE
        if op.constant is not None:
            attributes["constant"] = UnitAttr()
        initial = op.initial_value
        if isinstance(initial, (DenseElementsAttr, DenseResourceElementsAttr)):
            attributes["value"] = initial
        elif initial is not None and not isinstance(initial, UnitAttr):
            return rewriter.notify_match_failure(op, "only dense initial values are lowered")
        elif isinstance(initial, UnitAttr):
            # A splat of zero: stored without materialising the shape.
            attributes["value"] = DenseElementsAttr.from_array(
                0, RankedTensorType(type_.shape, type_.element_type))
        rewriter.insert(GlobalOp.build(loc=op.loc, **attributes))
        rewriter.erase_op(op)
        return True


class GetGlobalToLLVM(_MemRefPattern):
    """memref.get_global → llvm.mlir.addressof."""

    root = memref.GetGlobalOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        if self.strides(op.result.type) is None:
            return rewriter.notify_match_failure(op, "the memref has no pointer form")
        value = LLVMBuilder(rewriter, op.loc).value(AddressOfOp.create_address(op.attributes["name"].root))
        rewriter.replace_op(op, [value])
        return True


@register_pass("finalize-memref-to-llvm", opt_level=0, dialects=("llvm",),
               summary="Lower memref ops on statically shaped buffers to the llvm dialect, "
                       "each buffer one pointer (mlc's convention; MLIR's descriptors are not "
                       "implemented); other ops stay, with unrealized casts.")
class FinalizeMemRefToLLVM(Pass):
    def run(self, op: Operation, run) -> None:
        converter = LLVMTypeConverter()
        convert_dialect_to_llvm(op, memref_to_llvm_patterns(converter), converter)


@to_llvm_patterns("memref")
def memref_to_llvm_patterns(converter: LLVMTypeConverter):
    """The patterns lowering memref ops on statically shaped buffers."""
    return [cls(converter) for cls in (
        LoadToLLVM, StoreToLLVM, AtomicRMWToLLVM, AllocToLLVM, AllocaToLLVM, DeallocToLLVM, CopyToLLVM,
        SameAddressToLLVM, SubViewToLLVM, ReinterpretCastToLLVM, ViewToLLVM, DimToLLVM,
        GlobalToLLVM, GetGlobalToLLVM)]
