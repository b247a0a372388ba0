"""`vector` ops that take vectors apart and put them together: `vector.extract` and
`vector.insert` (an element, or a sub-vector of the leading dims, at positions each
an integer, `-1` for poison, or an `index` value: `[0, %i]`),
`vector.extract_strided_slice` and `vector.insert_strided_slice`, and
`vector.shape_cast`, with MLIR's syntax and verifier rules. An extract folds as MLIR's
does through a chain of inserts and from a splat constant.
"""

from __future__ import annotations

import math

from mlc.ir.core.attributes import ArrayAttr, DenseArrayAttr, IntegerAttr, Type, VectorType, i64
from mlc.ir.dialects.arith.constants import constant_scalars, make_constant
from mlc.ir.dialects.index_lists import DYNAMIC_INDEX, DynamicIndexList, mixed_values
from mlc.ir.dialects.memref.ops import Index
from mlc.ir.dialects.ub.ops import POISON, is_poison
from mlc.ir.dialects.vector.elements import vector_of
from mlc.ir.dialects.vector.ops import AnyVector, vector
from mlc.ir.interfaces.infer_type import InferType
from mlc.ir.opdef.constraints import ArrayOf, DenseArrayConstraint, IntAttrOf
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import Pure

I64Array = ArrayOf(IntAttrOf(i64))


def i64_array(values) -> ArrayAttr:
    """MLIR's I64ArrayAttr: `[0, 1]`."""
    return ArrayAttr(tuple(IntegerAttr(int(v), i64) for v in values))


def positions(values) -> DenseArrayAttr:
    """MLIR's DenseI64ArrayAttr of static positions."""
    return DenseArrayAttr(i64, tuple(int(v) for v in values))


vector.directive(DynamicIndexList())


def _element_or_vector(shape: tuple[int, ...], element: Type) -> Type:
    return VectorType(shape, element) if shape else element


POISON_INDEX = -1
"""A static position that makes the result poison (MLIR's kPoisonIndex)."""


def _check_positions(op, source: VectorType, what: str) -> None:
    position = tuple(op.static_position.values)
    if sum(v == DYNAMIC_INDEX for v in position) != len(op.dynamic_position):
        raise VerificationError("mismatch between dynamic and static positions")
    if len(position) > len(source.shape):
        raise VerificationError(f"expected position attribute of rank no greater than {what} "
                                f"vector rank")
    for axis, (index, size) in enumerate(zip(position, source.shape)):
        if index != DYNAMIC_INDEX and index != POISON_INDEX and not 0 <= index < size:
            raise VerificationError(f"expected position attribute #{axis + 1} "
                                    f"to be a non-negative integer smaller than the "
                                    f"corresponding vector dimension or poison (-1)")


def static_positions(op) -> tuple[int, ...] | None:
    """The positions of an extract or insert when all are integers, else None."""
    position = tuple(op.static_position.values)
    return None if DYNAMIC_INDEX in position else position


@vector.op
class ExtractOp(Op):
    """The element (or the sub-vector of the trailing dims) of `source` at
    `static_position`, one index per leading dim."""

    name = "vector.extract"
    source = OperandDef(AnyVector)
    dynamic_position = OperandDef(Index, variadic=True, doc="the positions that are values")
    result = ResultDef()
    static_position = AttrDef(DenseArrayConstraint)
    traits = (Pure, InferType())
    assembly_format = ("$source `` custom<DynamicIndexList>($dynamic_position, $static_position) "
                       "attr-dict `:` type($result) `from` type($source)")

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        source = operand_types[0]
        rank = len(attributes["static_position"].values)
        return [_element_or_vector(source.shape[rank:], source.element_type)]

    def verify_custom(self) -> None:
        source = self.source.type
        position = tuple(self.static_position.values)
        _check_positions(self, source, "source")
        expected = _element_or_vector(source.shape[len(position):], source.element_type)
        if self.result.type != expected:
            raise VerificationError(f"expected result type {expected}, got {self.result.type}")

    def fold(self, operands):
        if POISON_INDEX in self.static_position.values:
            return POISON
        # A splat constant's every element is its one value.
        scalars = constant_scalars(operands[0])
        if scalars is not None and not is_poison(operands[0]):
            return make_constant(self.result.type, scalars[1])
        # Through a chain of inserts at other static positions of the same rank, to the
        # value inserted at this very position, or else to read the chain's first dest.
        position = mixed_values(self.static_position, self.dynamic_position)
        current = self.source
        while isinstance(insert := current.defining_op, InsertOp):
            inserted = mixed_values(insert.static_position, insert.dynamic_position)
            if _same_position(inserted, position):
                return insert.value_to_store
            if len(inserted) != len(position) or static_positions(insert) is None \
                    or static_positions(self) is None:
                break
            current = insert.dest
        if current is not self.source:
            self.set_operand(0, current)  # folded in place
            return self.result
        return None


def _same_position(a: list, b: list) -> bool:
    """Positions known equal: the same ints and the very same index values."""
    return len(a) == len(b) and all(x is y if not isinstance(x, int) else x == y
                                    for x, y in zip(a, b))


@vector.op
class InsertOp(Op):
    """`dest` with the element (or sub-vector of the trailing dims) at
    `static_position` replaced by `value_to_store`."""

    name = "vector.insert"
    value_to_store = OperandDef()
    dest = OperandDef(AnyVector)
    dynamic_position = OperandDef(Index, variadic=True, doc="the positions that are values")
    result = ResultDef(AnyVector)
    static_position = AttrDef(DenseArrayConstraint)
    traits = (Pure, InferType())
    assembly_format = ("$value_to_store `,` $dest custom<DynamicIndexList>($dynamic_position, "
                       "$static_position) attr-dict `:` type($value_to_store) `into` type($dest)")

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [operand_types[1]]

    def verify_custom(self) -> None:
        dest = self.dest.type
        position = tuple(self.static_position.values)
        _check_positions(self, dest, "dest")
        expected = _element_or_vector(dest.shape[len(position):], dest.element_type)
        if self.value_to_store.type != expected:
            raise VerificationError(f"expected value to store of type {expected}, got "
                                    f"{self.value_to_store.type}")
        if self.result.type != dest:
            raise VerificationError("expected the result type to be the dest type")


def _ints(attr: ArrayAttr) -> tuple[int, ...]:
    return tuple(a.value for a in attr.elements)


def _sliced_type(source: VectorType, sizes: tuple[int, ...]) -> VectorType:
    """The type of a slice of `sizes` of `source` (its scalable dims kept)."""
    return vector_of(sizes + source.shape[len(sizes):], source.element_type, source.scalable)


@vector.op
class ExtractStridedSliceOp(Op):
    """The slice of `source` starting at `offsets`, of `sizes`, every `strides`-th
    element, over its leading dims (the rest are kept whole)."""

    name = "vector.extract_strided_slice"
    source = OperandDef(AnyVector)
    result = ResultDef(AnyVector)
    offsets = AttrDef(I64Array)
    sizes = AttrDef(I64Array)
    strides = AttrDef(I64Array)
    traits = (Pure, InferType())
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        source = operand_types[0]
        sizes = _ints(attributes["sizes"])
        return [_sliced_type(source, sizes)]

    def verify_custom(self) -> None:
        source = self.source.type
        offsets, sizes, strides = _ints(self.offsets), _ints(self.sizes), _ints(self.strides)
        if not len(offsets) == len(sizes) == len(strides) <= len(source.shape):
            raise VerificationError("expected offsets, sizes and strides of one length, at "
                                    "most the source vector rank")
        for axis, (offset, size, stride, dim) in enumerate(
                zip(offsets, sizes, strides, source.shape)):
            if stride != 1:
                raise VerificationError("expected strides to be confined to [1, 2)")
            if not 0 <= offset < dim:
                raise VerificationError(f"expected offsets dimension {axis} to be confined "
                                        f"to [0, {dim})")
            if not 1 <= size <= dim:
                raise VerificationError(f"expected sizes dimension {axis} to be confined to "
                                        f"[1, {dim + 1})")
            if offset + size > dim:
                raise VerificationError(f"expected sum(offsets, sizes) dimension {axis} to be "
                                        f"confined to [1, {dim + 1})")
        expected = _sliced_type(source, sizes)
        if self.result.type != expected:
            raise VerificationError(f"expected result type {expected}, got {self.result.type}")


@vector.op
class InsertStridedSliceOp(Op):
    """`dest` with the slice starting at `offsets` (every `strides`-th element)
    replaced by `value_to_store`, whose dims are dest's trailing ones."""

    name = "vector.insert_strided_slice"
    value_to_store = OperandDef(AnyVector)
    dest = OperandDef(AnyVector)
    result = ResultDef(AnyVector)
    offsets = AttrDef(I64Array)
    strides = AttrDef(I64Array)
    traits = (Pure, InferType())
    assembly_format = ("$value_to_store `,` $dest attr-dict `:` type($value_to_store) `into` "
                       "type($dest)")

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [operand_types[1]]

    def verify_custom(self) -> None:
        source, dest = self.value_to_store.type, self.dest.type
        offsets, strides = _ints(self.offsets), _ints(self.strides)
        if len(offsets) != len(dest.shape) or len(strides) != len(source.shape):
            raise VerificationError("expected offsets of the dest rank and strides of the "
                                    "source rank")
        if source.element_type != dest.element_type or len(source.shape) > len(dest.shape):
            raise VerificationError("expected the source to be a sub-vector of the dest")
        padded = (1,) * (len(dest.shape) - len(source.shape)) + source.shape
        for offset, size, dim in zip(offsets, padded, dest.shape):
            if offset < 0 or offset + size > dim:
                raise VerificationError("expected offsets and source sizes to stay within "
                                        "the dest vector")
        if any(stride != 1 for stride in strides):
            raise VerificationError("expected strides to be confined to [1, 2)")
        if self.result.type != dest:
            raise VerificationError("expected the result type to be the dest type")


@vector.op
class ShapeCastOp(Op):
    """The same elements, in the same order, in another shape."""

    name = "vector.shape_cast"
    source = OperandDef(AnyVector)
    result = ResultDef(AnyVector)
    traits = (Pure,)
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def verify_custom(self) -> None:
        source, result = self.source.type, self.result.type
        if source.element_type != result.element_type:
            raise VerificationError("has different source and result element types")
        if math.prod(source.shape) != math.prod(result.shape):
            raise VerificationError(f"has different number of elements at source "
                                    f"({math.prod(source.shape)}) and result "
                                    f"({math.prod(result.shape)})")

    def fold(self, operands):
        if self.source.type == self.result.type:
            return self.source
        return None


__all__ = ["POISON_INDEX", "ExtractOp", "ExtractStridedSliceOp", "InsertOp",
           "InsertStridedSliceOp", "ShapeCastOp", "i64_array", "positions", "static_positions"]
