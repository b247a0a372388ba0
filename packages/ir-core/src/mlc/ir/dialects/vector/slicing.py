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
from mlc.ir.dialects.vector.ops import AnyVector, BroadcastOp, vector
from mlc.ir.interfaces.infer_type import InferType, TypeInferenceError
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
    """MLIR's position checks; `what` is "" for an extract, "dest " for an insert."""
    position = tuple(op.static_position.values)
    if sum(v == DYNAMIC_INDEX for v in position) != len(op.dynamic_position):
        raise VerificationError("mismatch between dynamic and static positions")
    if len(position) > len(source.shape):
        raise VerificationError(f"expected position attribute of rank no greater than {what}"
                                f"vector rank")
    for axis, (index, size) in enumerate(zip(position, source.shape)):
        if index != DYNAMIC_INDEX and index != POISON_INDEX and not 0 <= index < size:
            ending = "dest vector dimension" if what else "vector dimension or poison (-1)"
            raise VerificationError(f"expected position attribute #{axis + 1} "
                                    f"to be a non-negative integer smaller than the "
                                    f"corresponding {ending}")


def _check_rank(source: VectorType, attributes) -> None:
    if len(attributes["static_position"].values) > source.rank:
        raise TypeInferenceError("vector.extract", "expected position attribute of rank no "
                                                   "greater than vector rank")


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
        _check_rank(source, attributes)
        rank = len(attributes["static_position"].values)
        return [_element_or_vector(source.shape[rank:], source.element_type)]

    def verify_custom(self) -> None:
        source = self.source.type
        position = tuple(self.static_position.values)
        if isinstance(self.result.type, VectorType) and self.result.type.rank == 0:
            raise VerificationError("expected a scalar instead of a 0-d vector as the result "
                                    "type")
        _check_positions(self, source, "")
        expected = _element_or_vector(source.shape[len(position):], source.element_type)
        if self.result.type != expected:
            raise VerificationError(f"expected result type {expected}, got {self.result.type}")

    def fold(self, operands):
        if POISON_INDEX in self.static_position.values or is_poison(operands[0]):
            return POISON
        # extract(broadcast(x)) is x when it takes out a whole copy of x.
        broadcast = self.source.defining_op
        if isinstance(broadcast, BroadcastOp) and broadcast.source.type == self.result.type:
            return broadcast.source
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
        value = self.value_to_store.type
        if isinstance(value, VectorType) and value.rank == 0:
            raise VerificationError("expected a scalar instead of a 0-d vector as the source "
                                    "operand")
        if len(position) <= dest.rank:
            if isinstance(value, VectorType) and value.rank + len(position) != dest.rank:
                raise VerificationError("expected position attribute rank + source rank to "
                                        "match dest vector rank")
            if not isinstance(value, VectorType) and len(position) != dest.rank:
                raise VerificationError("expected position attribute rank to match the dest "
                                        "vector rank")
        _check_positions(self, dest, "dest ")
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
        offsets, sizes, strides = (_ints(attributes[k]) for k in ("offsets", "sizes", "strides"))
        if not len(offsets) == len(sizes) == len(strides):
            raise TypeInferenceError(cls.name, "expected offsets, sizes and strides attributes "
                                               "of same size")
        if len(offsets) > source.rank:
            raise TypeInferenceError(cls.name, "expected offsets attribute of rank no greater "
                                               "than vector rank")
        return [_sliced_type(source, sizes)]

    def verify_custom(self) -> None:
        # MLIR's order: every offset, then every size, then the strides, then the sums.
        source = self.source.type
        offsets, sizes, strides = _ints(self.offsets), _ints(self.sizes), _ints(self.strides)
        for axis, (offset, dim) in enumerate(zip(offsets, source.shape)):
            if not 0 <= offset < dim:
                raise VerificationError(f"expected offsets dimension {axis} to be confined "
                                        f"to [0, {dim})")
        for axis, (size, dim) in enumerate(zip(sizes, source.shape)):
            if not 1 <= size <= dim:
                raise VerificationError(f"expected sizes dimension {axis} to be confined to "
                                        f"[1, {dim + 1})")
        if any(stride != 1 for stride in strides):
            raise VerificationError("expected strides to be confined to [1, 2)")
        for axis, (offset, size, dim) in enumerate(zip(offsets, sizes, source.shape)):
            if offset + size > dim:
                raise VerificationError(f"expected sum(offsets, sizes) dimension {axis} to be "
                                        f"confined to [1, {dim + 1})")
        scalable = source.scalable or (False,) * source.rank
        for axis, size in enumerate(sizes):
            if scalable[axis] and size != source.shape[axis]:
                raise VerificationError(f"expected size at idx={axis} to match the "
                                        f"corresponding base size from the input vector "
                                        f"({size} vs {source.shape[axis]})")


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
        if len(offsets) != dest.rank:
            raise VerificationError("expected offsets of same size as destination vector rank")
        if len(strides) != source.rank:
            raise VerificationError("expected strides of same size as source vector rank")
        if source.rank > dest.rank:
            raise VerificationError("expected source rank to be no greater than destination "
                                    "rank")
        for axis, (offset, dim) in enumerate(zip(offsets, dest.shape)):
            if not 0 <= offset < dim:
                raise VerificationError(f"expected offsets dimension {axis} to be confined "
                                        f"to [0, {dim})")
        if any(stride != 1 for stride in strides):
            raise VerificationError("expected strides to be confined to [1, 2)")
        rank_gap = dest.rank - source.rank
        padded = (0,) * rank_gap + source.shape
        for axis, (offset, size, dim) in enumerate(zip(offsets, padded, dest.shape)):
            if not 1 <= offset + size <= dim:
                raise VerificationError(f"expected sum(offsets, source vector shape) dimension "
                                        f"{axis} to be confined to [1, {dim + 1})")
        source_scalable = source.scalable or (False,) * source.rank
        dest_scalable = dest.scalable or (False,) * dest.rank
        for axis in range(source.rank):
            if source_scalable[axis] != dest_scalable[axis + rank_gap]:
                raise VerificationError(f"mismatching scalable flags (at source vector "
                                        f"idx={axis})")
            if source_scalable[axis] and source.shape[axis] != dest.shape[axis + rank_gap]:
                raise VerificationError(f"expected size at idx={axis} to match the "
                                        f"corresponding base size from the input vector "
                                        f"({source.shape[axis]} vs {dest.shape[axis + rank_gap]})")
        if source.element_type != dest.element_type:
            raise VerificationError("failed to verify that all of {valueToStore, dest} have "
                                    "same element type")
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
        if is_poison(operands[0]):
            return POISON
        scalars = constant_scalars(operands[0])
        if scalars is not None:  # a splat keeps its one value in any shape
            return make_constant(self.result.type, scalars[1])
        inner = self.source.defining_op
        if isinstance(inner, ShapeCastOp):  # shape_cast(shape_cast(x)): one cast of x
            self.set_operand(0, inner.source)
            return self.source if inner.source.type == self.result.type else self.result
        if isinstance(inner, BroadcastOp) and inner.source.type == self.result.type:
            return inner.source  # what was broadcast, shaped back
        return None


__all__ = ["POISON_INDEX", "ExtractOp", "ExtractStridedSliceOp", "InsertOp",
           "InsertStridedSliceOp", "ShapeCastOp", "i64_array", "positions", "static_positions"]
