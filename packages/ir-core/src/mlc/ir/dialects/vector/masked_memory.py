"""`vector` ops that touch memory under a mask, with MLIR 22's syntax and verifier
messages: `vector.maskedload`/`vector.maskedstore` (consecutive elements, each
enabled by its mask bit), `vector.expandload`/`vector.compressstore` (the enabled
lanes take consecutive elements), `vector.gather`/`vector.scatter` (each lane at
base + its index), plus `vector.type_cast` (a memref of scalars seen as one of a
vector) and `vector.print`.
"""

from __future__ import annotations

from mlc.ir.core.attributes import MemRefType, VectorType
from mlc.ir.dialects.memref.ops import Index, check_alignment
from mlc.ir.dialects.vector.masks import MaskVector, i1
from mlc.ir.dialects.vector.ops import AnyVector, vector
from mlc.ir.interfaces.side_effects import MemoryEffects, Read, Write
from mlc.ir.opdef.constraints import AnyMemRef, StrAttr, TypeMatches
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import Pure

TensorOrMemRef = TypeMatches(lambda t: isinstance(t, MemRefType) or
                             type(t).__name__ == "RankedTensorType",
                             "Tensor or MemRef of any type values")
IntOrIndexVector = TypeMatches(lambda t: isinstance(t, VectorType), "vector of integer or index "
                                                                    "values")


def _verify_base(op, base, vector_type: VectorType, what: str) -> None:
    check_alignment(op)
    if getattr(op, "fixed_length", False):
        # expandload and compressstore take no scalable vectors (their operand
        # constraint in MLIR; the class-level operand declarations are shared here).
        for index, value in enumerate(op.operands):
            if isinstance(value.type, VectorType) and any(value.type.scalable):
                what_kind = ("1-bit signless integer" if value.type.element_type == i1
                             else "any type")
                raise VerificationError(f"operand #{index} must be fixed-length vector of "
                                        f"{what_kind} values, but got '{value.type}'")
    if base.element_type != vector_type.element_type:
        raise VerificationError(f"base and {what} element type should match")
    if len(op.indices) != base.rank:
        raise VerificationError(f"requires {base.rank} indices")


class _MaskedRead(Op):
    """What maskedload and expandload share."""

    base = OperandDef(AnyMemRef, doc="the buffer read")
    indices = OperandDef(Index, variadic=True, doc="where the first element is")
    mask = OperandDef(MaskVector, doc="the lanes read")
    pass_thru = OperandDef(AnyVector, doc="the lanes not read")
    result = ResultDef(AnyVector, doc="the vector read")
    alignment = AttrDef(optional=True, doc="the access's alignment in bytes")
    traits = (MemoryEffects(Read("base")),)
    fixed_length = False
    assembly_format = ("$base `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` "
                       "type($base) `,` type($mask) `,` type($pass_thru) `into` type($result)")
    shape_message = "expected result shape to match mask shape"

    def verify_custom(self) -> None:
        result = self.result.type
        _verify_base(self, self.base.type, result, "result")
        if self.mask.type.shape != result.shape:
            raise VerificationError(self.shape_message)
        if self.pass_thru.type != result:
            raise VerificationError("expected pass_thru of same type as result type")


class _MaskedWrite(Op):
    """What maskedstore and compressstore share."""

    base = OperandDef(AnyMemRef, doc="the buffer written")
    indices = OperandDef(Index, variadic=True, doc="where the first element goes")
    mask = OperandDef(MaskVector, doc="the lanes written")
    valueToStore = OperandDef(AnyVector, doc="the vector written")  # noqa: N815
    alignment = AttrDef(optional=True, doc="the access's alignment in bytes")
    traits = (MemoryEffects(Write("base")),)
    assembly_format = ("$base `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` "
                       "type($base) `,` type($mask) `,` type($valueToStore)")
    shape_message = "expected valueToStore shape to match mask shape"

    def verify_custom(self) -> None:
        value = self.valueToStore.type
        _verify_base(self, self.base.type, value, "valueToStore")
        if self.mask.type.shape != value.shape:
            raise VerificationError(self.shape_message)


@vector.op
class MaskedLoadOp(_MaskedRead):
    """Loads consecutive elements where the mask is set

    Lane `i` is `base[indices + i]` if `mask[i]`, else `pass_thru[i]` (a masked-off
    lane is not read, so it may lie out of bounds):

        %v = vector.maskedload %m[%i], %mask, %pt : memref<?xf32>, vector<16xi1>,
               vector<16xf32> into vector<16xf32>
    """

    name = "vector.maskedload"


@vector.op
class MaskedStoreOp(_MaskedWrite):
    """Stores consecutive elements where the mask is set

        vector.maskedstore %m[%i], %mask, %v : memref<?xf32>, vector<16xi1>, vector<16xf32>
    """

    name = "vector.maskedstore"


@vector.op
class ExpandLoadOp(_MaskedRead):
    """Reads consecutive elements into the enabled lanes

    The `k`-th enabled lane gets `base[indices + k]`; the others `pass_thru`'s:

        %v = vector.expandload %m[%i], %mask, %pt : memref<?xf32>, vector<16xi1>,
               vector<16xf32> into vector<16xf32>
    """

    name = "vector.expandload"
    fixed_length = True
    shape_message = "expected result dim to match mask dim"


@vector.op
class CompressStoreOp(_MaskedWrite):
    """Writes the enabled lanes to consecutive elements

        vector.compressstore %m[%i], %mask, %v : memref<?xf32>, vector<16xi1>, vector<16xf32>
    """

    name = "vector.compressstore"
    fixed_length = True
    shape_message = "expected valueToStore dim to match mask dim"


@vector.op
class GatherOp(Op):
    """Reads the element at an offset per lane

    Lane `i` is `base[offsets..., + index_vec[i]]` (along the last dim, past its end
    too, as memory runs) if `mask[i]`, else `pass_thru[i]`:

        %v = vector.gather %m[%c0][%idx], %mask, %pt : memref<?xf32>, vector<16xi32>,
               vector<16xi1>, vector<16xf32> into vector<16xf32>
    """

    name = "vector.gather"
    base = OperandDef(TensorOrMemRef, doc="the buffer read")
    offsets = OperandDef(Index, variadic=True, doc="where the lanes' offsets start")
    index_vec = OperandDef(IntOrIndexVector, doc="each lane's offset")
    mask = OperandDef(MaskVector, doc="the lanes read")
    pass_thru = OperandDef(AnyVector, doc="the lanes not read")
    result = ResultDef(AnyVector, doc="the vector read")
    alignment = AttrDef(optional=True, doc="the access's alignment in bytes")
    traits = (MemoryEffects(Read("base")),)
    assembly_format = ("$base `[` $offsets `]` `[` $index_vec `]` `,` $mask `,` $pass_thru "
                       "attr-dict `:` type($base) `,` type($index_vec) `,` type($mask) `,` "
                       "type($pass_thru) `into` type($result)")

    @property
    def indices(self):
        return self.offsets

    def verify_custom(self) -> None:
        result = self.result.type
        _verify_base(self, self.base.type, result, "result")
        if self.index_vec.type.shape != result.shape:
            raise VerificationError("expected result dim to match indices dim")
        if self.mask.type.shape != result.shape:
            raise VerificationError("expected result dim to match mask dim")
        if self.pass_thru.type != result:
            raise VerificationError("expected pass_thru of same type as result type")


@vector.op
class ScatterOp(Op):
    """Writes each enabled lane at its offset

        vector.scatter %m[%c0][%idx], %mask, %v : memref<?xf32>, vector<16xi32>,
          vector<16xi1>, vector<16xf32>
    """

    name = "vector.scatter"
    base = OperandDef(TensorOrMemRef, doc="the buffer written")
    offsets = OperandDef(Index, variadic=True, doc="where the lanes' offsets start")
    index_vec = OperandDef(IntOrIndexVector, doc="each lane's offset")
    mask = OperandDef(MaskVector, doc="the lanes written")
    valueToStore = OperandDef(AnyVector, doc="the vector written")  # noqa: N815
    result = ResultDef(optional=True, doc="the updated tensor (on a tensor base)")
    alignment = AttrDef(optional=True, doc="the access's alignment in bytes")
    traits = (MemoryEffects(Write("base")),)
    assembly_format = ("$base `[` $offsets `]` `[` $index_vec `]` `,` $mask `,` $valueToStore "
                       "attr-dict `:` type($base) `,` type($index_vec) `,` type($mask) `,` "
                       "type($valueToStore) (`->` type($result)^)?")

    @property
    def indices(self):
        return self.offsets

    def verify_custom(self) -> None:
        value = self.valueToStore.type
        _verify_base(self, self.base.type, value, "valueToStore")
        if self.index_vec.type.shape != value.shape:
            raise VerificationError("expected valueToStore dim to match indices dim")
        if self.mask.type.shape != value.shape:
            raise VerificationError("expected valueToStore dim to match mask dim")


@vector.op
class TypeCastOp(Op):
    """Views a statically shaped memref of scalars as a memref of one vector

        %v = vector.type_cast %m : memref<8x8xf32> to memref<vector<8x8xf32>>
    """

    name = "vector.type_cast"
    memref = OperandDef(AnyMemRef, doc="the memref of scalars")
    result = ResultDef(AnyMemRef, doc="the same memory as a memref of one vector")
    traits = (Pure,)
    assembly_format = "$memref attr-dict `:` type($memref) `to` type($result)"

    def verify_custom(self) -> None:
        source, result = self.memref.type, self.result.type
        if any(d < 0 for d in source.shape):
            raise VerificationError("expects a static shape")
        if source.layout is not None:
            raise VerificationError("expects operand to be a memref with identity layout")
        expected = VectorType(source.shape, source.element_type)
        if result.shape != () or result.element_type != expected:
            raise VerificationError(f"expects result type memref<{expected}>")


@vector.op
class PrintOp(Op):
    """Prints a value to stdout (a debugging aid)

        vector.print %v : vector<4xf32>
        vector.print str "done\\n"
    """

    name = "vector.print"
    source = OperandDef(optional=True, doc="the value printed")
    stringLiteral = AttrDef(StrAttr, optional=True, doc="a string printed instead")  # noqa: N815
    traits = (MemoryEffects(Write()),)
    assembly_format = "($source^ `:` type($source))? (`str` $stringLiteral^)? attr-dict"

    def verify_custom(self) -> None:
        if self.source is None and self.attributes.get("stringLiteral") is None:
            raise VerificationError("`source` or `punctuation` are not set when printing "
                                    "strings")


__all__ = ["CompressStoreOp", "ExpandLoadOp", "GatherOp", "MaskedLoadOp", "MaskedStoreOp",
           "PrintOp", "ScatterOp", "TypeCastOp"]
