"""`vector` ops that rearrange or reinterpret elements, with MLIR 22's syntax and
verifier messages: `vector.transpose`, `vector.shuffle`, `vector.from_elements`,
`vector.to_elements`, `vector.interleave`, `vector.deinterleave`, `vector.bitcast`,
`vector.step` and `vector.vscale`.
"""

from __future__ import annotations

import math

from mlc.ir.core.attributes import (
    DenseArrayAttr,
    FloatType,
    IndexType,
    IntegerType,
    Type,
    VectorType,
    i64,
)
from mlc.ir.dialects.arith.constants import constant_scalars, dense_of, make_constant
from mlc.ir.dialects.memref.ops import Index
from mlc.ir.dialects.ub.ops import POISON, is_poison
from mlc.ir.dialects.vector.ops import AnyVector, vector
from mlc.ir.interfaces.infer_type import InferType
from mlc.ir.opdef.constraints import DenseArrayOf, IntAttrOf, TypeMatches
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import AllTypesMatch, Pure
from mlc.ir.text.asm_parser import AsmParser
from mlc.ir.text.printer import Printer

FixedVector = TypeMatches(lambda t: isinstance(t, VectorType) and not any(t.scalable),
                          "fixed-length vector of any type values")
IndexVector1D = TypeMatches(lambda t: isinstance(t, VectorType) and t.rank == 1
                            and isinstance(t.element_type, IndexType),
                            "vector of index values of ranks 1")
NonZeroRankVector = TypeMatches(lambda t: isinstance(t, VectorType) and t.rank > 0,
                                "vector of any type values")


def vector_of(shape, element: Type, scalable=None) -> VectorType:
    """`vector<shape x element>`, scalable where `scalable` says (if it says so anywhere)."""
    shape = tuple(shape)
    if scalable is not None and any(scalable):
        return VectorType(shape, element, tuple(scalable))
    return VectorType(shape, element)


def _scalable(type_: VectorType) -> tuple[bool, ...]:
    return tuple(type_.scalable) if type_.scalable else (False,) * type_.rank


@vector.op
class TransposeOp(Op):
    """Permutes the dims of a vector

    Result dim `i` is source dim `permutation[i]`:

        %t = vector.transpose %v, [1, 0] : vector<3x7xf32> to vector<7x3xf32>
    """

    name = "vector.transpose"
    vector = OperandDef(AnyVector, doc="the vector transposed")
    result = ResultDef(AnyVector, doc="the transposed vector")
    permutation = AttrDef(DenseArrayOf(i64), doc="which source dim each result dim is")
    traits = (Pure,)
    assembly_format = "$vector `,` $permutation attr-dict `:` type($vector) `to` type($result)"

    def verify_custom(self) -> None:
        source, result = self.vector.type, self.result.type
        rank = result.rank
        if source.rank != rank:
            raise VerificationError(f"vector result rank mismatch: {rank}")
        permutation = self.permutation.values
        if len(permutation) != rank:
            raise VerificationError(f"transposition length mismatch: {len(permutation)}")
        seen = set()
        for index, dim in enumerate(permutation):
            if not 0 <= dim < rank:
                raise VerificationError(f"transposition index out of range: {dim}")
            if dim in seen:
                raise VerificationError(f"duplicate position index: {dim}")
            seen.add(dim)
            if result.shape[index] != source.shape[dim]:
                raise VerificationError(f"dimension size mismatch at: {dim}")

    def fold(self, operands):
        if list(self.permutation.values) == sorted(self.permutation.values):
            return self.vector
        if is_poison(operands[0]):
            return POISON
        scalars = constant_scalars(operands[0])
        if scalars is not None:
            return make_constant(self.result.type, scalars[1])
        # transpose(transpose(x)) is one transpose of x by the composed permutation
        # (x itself when they undo each other), folded in place.
        inner = self.vector.defining_op
        if isinstance(inner, TransposeOp):
            first, second = inner.permutation.values, self.permutation.values
            composed = [first[p] for p in second]
            if composed == sorted(first):
                return inner.vector
            self.set_operand(0, inner.vector)
            self.permutation = positions_array(composed)
            return self.result
        return None


@vector.op
class ShuffleOp(Op):
    """Picks elements of two vectors along their leading dim

    Entry `i` of `mask` says which leading-dim slice of `v1` then `v2` (numbered on
    from `v1`'s) is result slice `i`; -1 gives poison:

        %s = vector.shuffle %a, %b [0, 3, -1] : vector<2xf32>, vector<2xf32>
    """

    name = "vector.shuffle"
    v1 = OperandDef(FixedVector, doc="the first vector")
    v2 = OperandDef(FixedVector, doc="the second vector")
    vector = ResultDef(AnyVector, doc="the picked slices")
    mask = AttrDef(DenseArrayOf(i64), doc="the slice of v1 ++ v2 each result slice is")
    traits = (Pure, InferType())
    assembly_format = "operands $mask attr-dict `:` type(operands)"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        v1 = operand_types[0]
        mask = attributes["mask"].values
        return [vector_of((max(1, len(mask)), *v1.shape[1:]), v1.element_type)]

    def verify_custom(self) -> None:
        v1, v2, result = self.v1.type, self.v2.type, self.vector.type
        if v1.element_type != result.element_type:
            raise VerificationError("failed to verify that first operand v1 and result have "
                                    "same element type")
        if v2.element_type != result.element_type:
            raise VerificationError("failed to verify that second operand v2 and result "
                                    "have same element type")
        zero_d = v1.rank == 0 and v2.rank == 0 and result.rank == 1
        if not zero_d and not (v1.rank == result.rank == v2.rank):
            raise VerificationError("rank mismatch")
        if v1.shape[1:] != v2.shape[1:] or v1.shape[1:] != result.shape[1:]:
            raise VerificationError("dimension mismatch")
        mask = self.mask.values
        if not mask:
            raise VerificationError("invalid mask length")
        if len(mask) != result.shape[0]:
            raise VerificationError("mask length mismatch")
        size = (v1.shape[0] if v1.rank else 1) + (v2.shape[0] if v2.rank else 1)
        for index, position in enumerate(mask):
            if position != -1 and not 0 <= position < size:
                raise VerificationError(f"mask index #{index + 1} out of range")

    def fold(self, operands):
        v1 = self.v1.type
        mask = list(self.mask.values)
        if v1.rank and mask == list(range(v1.shape[0])) and v1 == self.vector.type:
            return self.v1
        if v1.rank and mask == list(range(v1.shape[0], 2 * v1.shape[0])) \
                and self.v2.type == self.vector.type:
            return self.v2
        if all(p == -1 for p in mask) or (is_poison(operands[0]) and is_poison(operands[1])):
            return POISON
        return None


def _parse_elements(p: AsmParser, cls):
    operands = p.parse_operand_list()
    attributes = p.parse_optional_attr_dict()
    p.parse_punctuation(":")
    pos = p.current_pos()
    type_ = p.parse_type()
    if not isinstance(type_, VectorType):
        raise p.error(f"invalid kind of type specified: expected builtin.vector, but found "
                      f"'{type_}'", pos)
    return operands, attributes, type_


@vector.op
class FromElementsOp(Op):
    """Builds a vector from scalars

    One operand per element, in row-major order:

        %v = vector.from_elements %a, %b : vector<2xf32>
    """

    name = "vector.from_elements"
    elements = OperandDef(variadic=True, doc="the elements, row-major")
    dest = ResultDef(AnyVector, doc="the vector")
    traits = (Pure,)

    def verify_custom(self) -> None:
        dest = self.dest.type
        if len(self.elements) != math.prod(dest.shape) or any(
                v.type != dest.element_type for v in self.elements):
            raise VerificationError("failed to verify that operand types match result "
                                    "element type")

    @classmethod
    def parse(cls, p: AsmParser) -> FromElementsOp:
        """`%a, %b attr-dict : vector<2xf32>`."""
        operands, attributes, type_ = _parse_elements(p, cls)
        count = math.prod(type_.shape)
        if len(operands) != count:
            raise p.error(f"number of operands and types do not match: got "
                          f"{len(operands)} operands and {count} types")
        values = p.resolve_operands(operands, [type_.element_type] * count)
        return cls.create(values, [type_], attributes)  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        p.write(" ")
        p.value_list(self.elements)
        p.attr_dict(self, set())
        p.write(" : ")
        p.type(self.dest.type)

    def fold(self, operands):
        # from_elements of a vector's every element, in order, is that vector.
        source = None
        for index, element in enumerate(self.elements):
            extract = element.defining_op
            if type(extract).__name__ != "ExtractOp" or extract.source.type != self.dest.type:
                return None
            if source is None:
                source = extract.source
            if extract.source is not source or list(extract.static_position.values) != \
                    _row_major_position(index, self.dest.type.shape):
                return None
        return source


def _row_major_position(index: int, shape: tuple[int, ...]) -> list[int]:
    position = []
    for size in reversed(shape):
        position.append(index % size)
        index //= size
    return position[::-1]


@vector.op
class ToElementsOp(Op):
    """Takes a vector apart into scalars

    One result per element, in row-major order:

        %a, %b = vector.to_elements %v : vector<2xf32>
    """

    name = "vector.to_elements"
    source = OperandDef(AnyVector, doc="the vector")
    elements = ResultDef(variadic=True, doc="its elements, row-major")
    traits = (Pure,)

    def verify_custom(self) -> None:
        source = self.source.type
        if len(self.elements) != math.prod(source.shape) or any(
                v.type != source.element_type for v in self.elements):
            raise VerificationError("failed to verify that result types match source "
                                    "element type")

    @classmethod
    def parse(cls, p: AsmParser) -> ToElementsOp:
        """`%v attr-dict : vector<2xf32>`."""
        source = p.parse_operand()
        attributes = p.parse_optional_attr_dict()
        p.parse_punctuation(":")
        type_ = p.parse_type()
        value = p.resolve_operand(source, type_)
        count = math.prod(type_.shape) if isinstance(type_, VectorType) else 0
        element = type_.element_type if isinstance(type_, VectorType) else type_
        return cls.create([value], [element] * count, attributes)  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        p.write(" ")
        p.value(self.source)
        p.attr_dict(self, set())
        p.write(" : ")
        p.type(self.source.type)


@vector.op
class InterleaveOp(Op):
    """Interleaves two vectors along their trailing dim

    `lhs[0], rhs[0], lhs[1], rhs[1], ...`; a 0-D pair gives a 2-element vector:

        %v = vector.interleave %a, %b : vector<4xf32> -> vector<8xf32>
    """

    name = "vector.interleave"
    lhs = OperandDef(AnyVector, doc="the elements at even positions")
    rhs = OperandDef(AnyVector, doc="the elements at odd positions")
    result = ResultDef(AnyVector, doc="the interleaved vector")
    traits = (Pure, AllTypesMatch(("lhs", "rhs")), InferType())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        lhs = operand_types[0]
        if lhs.rank == 0:
            return [vector_of((2,), lhs.element_type)]
        return [vector_of((*lhs.shape[:-1], 2 * lhs.shape[-1]), lhs.element_type,
                        _scalable(lhs))]


@vector.op
class DeinterleaveOp(Op):
    """Splits a vector's trailing dim into its even and odd elements

        %even, %odd = vector.deinterleave %v : vector<8xf32> -> vector<4xf32>
    """

    name = "vector.deinterleave"
    source = OperandDef(NonZeroRankVector, doc="the interleaved vector")
    res1 = ResultDef(AnyVector, doc="the elements at even positions")
    res2 = ResultDef(AnyVector, doc="the elements at odd positions")
    traits = (Pure, AllTypesMatch(("res1", "res2")))
    assembly_format = "$source attr-dict `:` type($source) `->` type($res1)"

    def verify_custom(self) -> None:
        source, result = self.source.type, self.res1.type
        if self.res2.type != result:
            raise VerificationError("failed to verify that all of {res1, res2} have same type")
        if source.shape[-1] % 2:
            raise VerificationError("failed to verify that the trailing dimension of the "
                                    "source vector has an even number of elements")
        if result.rank != source.rank or result.shape[:-1] != source.shape[:-1] \
                or 2 * result.shape[-1] != source.shape[-1] \
                or result.element_type != source.element_type \
                or _scalable(result) != _scalable(source):
            raise VerificationError("failed to verify that the trailing dimension of the "
                                    "results is half the width of source trailing dimension")


def bit_width(type_: Type) -> int:
    """The bits of a scalar element type (index as 64, as mlc lowers it)."""
    if isinstance(type_, (IntegerType, FloatType)):
        return type_.width
    return 64


@vector.op
class BitCastOp(Op):
    """Reinterprets a vector's bits as another element type

    The trailing dim changes so the bits of each 1-D row are kept:

        %v = vector.bitcast %a : vector<4xf32> to vector<8xf16>
    """

    name = "vector.bitcast"
    source = OperandDef(AnyVector, doc="the vector reinterpreted")
    result = ResultDef(AnyVector, doc="the same bits")
    traits = (Pure,)
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def verify_custom(self) -> None:
        source, result = self.source.type, self.result.type
        if source.rank != result.rank:
            raise VerificationError("failed to verify that all of {source, result} have "
                                    "same rank")
        for index in range(source.rank - 1):
            if source.shape[index] != result.shape[index]:
                raise VerificationError(f"dimension size mismatch at: {index}")
        source_bits, result_bits = bit_width(source.element_type), bit_width(result.element_type)
        if source.rank == 0:
            if source_bits != result_bits:
                raise VerificationError("source/result bitwidth of the 0-D vector element "
                                        "types must be equal")
        elif source_bits * source.shape[-1] != result_bits * result.shape[-1]:
            raise VerificationError("source/result bitwidth of the minor 1-D vectors must "
                                    "be equal")

    def fold(self, operands):
        if self.source.type == self.result.type:
            return self.source
        inner = self.source.defining_op
        if isinstance(inner, BitCastOp) and inner.source.type == self.result.type:
            return inner.source
        return None


@vector.op
class StepOp(Op):
    """The vector `[0, 1, 2, ...]` of indices

        %s = vector.step : vector<4xindex>
    """

    name = "vector.step"
    result = ResultDef(IndexVector1D, doc="0, 1, ..., n - 1")
    traits = (Pure,)
    assembly_format = "attr-dict `:` type($result)"

    def fold(self, operands):
        type_ = self.result.type
        if any(type_.scalable):
            return None
        return dense_of(list(range(type_.shape[0])), type_)


@vector.op
class VectorScaleOp(Op):
    """The multiple of a scalable vector's base size on this target

    A scalable dim `[4]` holds `4 * vscale` elements (mlc's interpreter takes
    vscale = 1):

        %vs = vector.vscale
    """

    name = "vector.vscale"
    res = ResultDef(Index, doc="vscale")
    traits = (Pure,)
    assembly_format = "attr-dict"


@vector.op
class ScalableInsertOp(Op):
    """Inserts a fixed-length vector into a scalable one at a static position

        %r = vector.scalable.insert %sub, %v[4] : vector<4xf32> into vector<[8]xf32>
    """

    name = "vector.scalable.insert"
    valueToStore = OperandDef(AnyVector, doc="the fixed-length vector")  # noqa: N815
    dest = OperandDef(AnyVector, doc="the scalable vector")
    res = ResultDef(AnyVector, doc="dest with valueToStore at pos")
    pos = AttrDef(IntAttrOf(i64), doc="where it goes (a multiple of its length)")
    traits = (Pure, AllTypesMatch(("dest", "res")))
    assembly_format = ("$valueToStore `,` $dest `[` $pos `]` attr-dict `:` type($valueToStore) "
                       "`into` type($dest)")


@vector.op
class ScalableExtractOp(Op):
    """Extracts a fixed-length vector from a scalable one at a static position

        %r = vector.scalable.extract %v[4] : vector<4xf32> from vector<[8]xf32>
    """

    name = "vector.scalable.extract"
    source = OperandDef(AnyVector, doc="the scalable vector")
    res = ResultDef(AnyVector, doc="the fixed-length part at pos")
    pos = AttrDef(IntAttrOf(i64), doc="where it starts (a multiple of its length)")
    traits = (Pure,)
    assembly_format = "$source `[` $pos `]` attr-dict `:` type($res) `from` type($source)"


def positions_array(values) -> DenseArrayAttr:
    """A DenseI64ArrayAttr (a permutation, a shuffle mask)."""
    return DenseArrayAttr(i64, tuple(int(v) for v in values))


__all__ = ["BitCastOp", "DeinterleaveOp", "FromElementsOp", "InterleaveOp", "ScalableExtractOp",
           "ScalableInsertOp", "ShuffleOp",
           "StepOp", "ToElementsOp", "TransposeOp", "VectorScaleOp", "bit_width",
           "positions_array", "vector_of"]
