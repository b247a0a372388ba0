"""`vector` ops that combine along dims, with MLIR 22's syntax and verifier messages:
`vector.contract` (a generalised matrix product over an iteration space whose dims
the `indexing_maps` place in lhs, rhs and acc), `vector.outerproduct`,
`vector.multi_reduction` (a reduction over some dims) and `vector.scan` (a prefix
reduction along one dim).
"""

from __future__ import annotations

import enum
from typing import Annotated

from mlc.ir.core.affine_expr import AffineExprKind
from mlc.ir.core.attributes import (
    ArrayAttr,
    DialectAttribute,
    DictionaryAttr,
    IntegerType,
    StringAttr,
    Type,
    VectorType,
    i64,
)
from mlc.ir.dialects.vector.compute import CombiningKind, Kind, combining_op
from mlc.ir.dialects.vector.elements import vector_of
from mlc.ir.dialects.vector.masks import i1
from mlc.ir.dialects.vector.ops import AnyVector, vector
from mlc.ir.interfaces.infer_type import InferType
from mlc.ir.opdef.constraints import DenseArrayOf, IntAttrOf
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.spelling import EnumSpelling
from mlc.ir.opdef.traits import Pure, TypesMatchWith
from mlc.ir.text.asm_parser import AsmParser
from mlc.ir.text.printer import Printer


class IteratorType(enum.Enum):
    """Whether a dim of a contraction's iteration space is kept or reduced."""

    PARALLEL = "parallel"
    REDUCTION = "reduction"


@vector.attribute
class IteratorTypeAttr(DialectAttribute):
    """`#vector.iterator_type<parallel>`."""

    name = "vector.iterator_type"
    value: Annotated[IteratorType, EnumSpelling.of_enum(IteratorType)] = IteratorType.PARALLEL
    assembly_format = "`<` $value `>`"


def _shape(type_: Type) -> tuple[int, ...]:
    return type_.shape if isinstance(type_, VectorType) else ()


def _element(type_: Type) -> Type:
    return type_.element_type if isinstance(type_, VectorType) else type_


def _dims(map_) -> list[int]:
    return [r.position for r in map_.results]


_TRAIT_NAMES = ("indexing_maps", "iterator_types", "kind")


@vector.op
class ContractionOp(Op):
    """Contracts two vectors into an accumulator

    For every point of the iteration space (one dim per `iterator_types` entry), the
    product of the lhs and rhs elements the `indexing_maps` place it at is combined
    (by `kind`) into the acc element; reduction dims appear in lhs and rhs only:

        %r = vector.contract {indexing_maps = [#lhs, #rhs, #acc],
                              iterator_types = ["parallel", "parallel", "reduction"],
                              kind = #vector.kind<add>}
               %a, %b, %c : vector<4x8xf32>, vector<8x16xf32> into vector<4x16xf32>
    """

    name = "vector.contract"
    lhs = OperandDef(AnyVector, doc="the left factor")
    rhs = OperandDef(AnyVector, doc="the right factor")
    acc = OperandDef(doc="the accumulator (a vector or a scalar)")
    result = ResultDef(doc="acc with the products combined in")
    indexing_maps = AttrDef(doc="the iteration point's place in lhs, rhs and acc")
    iterator_types = AttrDef(doc="parallel or reduction, per iteration dim")
    kind = AttrDef(CombiningKind, default=CombiningKind(Kind.ADD),
                   doc="how products combine into acc")
    traits = (Pure,)

    @property
    def maps(self):
        return [a.value for a in self.indexing_maps.elements]

    @property
    def iterators(self) -> list[IteratorType]:
        return [a.value for a in self.iterator_types.elements]

    def iteration_shape(self) -> list[int]:
        """The size of each iteration dim, read off the operand shapes."""
        sizes = [1] * len(self.iterators)
        for map_, type_ in zip(self.maps, (self.lhs.type, self.rhs.type, self.acc.type)):
            for dim, size in zip(_dims(map_), _shape(type_)):
                sizes[dim] = size
        return sizes

    def iteration_mask_type(self) -> VectorType:
        """The mask a `vector.mask` around it takes: one bit per iteration point."""
        scalable = [False] * len(self.iterators)
        for map_, type_ in zip(self.maps, (self.lhs.type, self.rhs.type, self.acc.type)):
            if isinstance(type_, VectorType) and type_.scalable:
                for dim, flag in zip(_dims(map_), type_.scalable):
                    scalable[dim] = scalable[dim] or flag
        return vector_of(self.iteration_shape(), i1, scalable)

    @classmethod
    def parse(cls, p: AsmParser) -> ContractionOp:
        """`{trait} %lhs, %rhs, %acc attr-dict : lhs-type, rhs-type into acc-type`."""
        trait = p.parse_attribute()
        if not isinstance(trait, DictionaryAttr):
            raise p.error("expected a dictionary of contraction attributes")
        attributes = trait.as_dict()
        operands = [p.parse_operand()]
        for _ in range(2):
            p.parse_punctuation(",")
            operands.append(p.parse_operand())
        p.parse_optional_attr_dict(attributes)
        p.parse_punctuation(":")
        lhs_type = p.parse_type()
        p.parse_punctuation(",")
        rhs_type = p.parse_type()
        p.parse_keyword("into")
        result_type = p.parse_type()
        iterators = attributes.get("iterator_types")
        if not isinstance(iterators, ArrayAttr):
            raise p.error('expected "iterator_types" array attribute')
        attributes["iterator_types"] = ArrayAttr(tuple(
            IteratorTypeAttr(IteratorType(a.value)) if isinstance(a, StringAttr) else a
            for a in iterators.elements))
        attributes.setdefault("kind", CombiningKind(Kind.ADD))
        values = p.resolve_operands(operands, [lhs_type, rhs_type, result_type])
        return cls.create(values, [result_type], attributes)  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        trait = []
        for name in sorted(_TRAIT_NAMES):
            value = self.attributes.get(name)
            if value is None:
                continue
            if name == "iterator_types":
                value = ArrayAttr(tuple(StringAttr(a.value.value) for a in value.elements))
            trait.append((name, value))
        p.write(" ")
        p.attr(DictionaryAttr.from_dict(dict(trait)))
        p.write(" ")
        p.value_list([self.lhs, self.rhs, self.acc])
        p.attr_dict(self, set(_TRAIT_NAMES))
        p.write(" : ")
        p.type_list([self.lhs.type, self.rhs.type])
        p.write(" into ")
        p.type(self.result.type)

    def verify_custom(self) -> None:
        lhs, rhs, acc = self.lhs.type, self.rhs.type, self.acc.type
        if lhs.element_type != rhs.element_type:
            raise VerificationError("failed to verify that lhs and rhs have same element type")
        if acc != self.result.type:
            raise VerificationError("failed to verify that third operand acc and result have "
                                    "same type")
        maps = self.maps
        iterators = self.iterators
        if len(maps) != 3:
            raise VerificationError("expected an indexing map for each vector operand")
        for index, (map_, type_) in enumerate(zip(maps, (lhs, rhs, acc))):
            if map_.num_symbols or map_.num_dims != len(iterators):
                raise VerificationError(f"expected indexing map {index} to have no symbols")
            if any(r.kind is not AffineExprKind.DIM for r in map_.results):
                raise VerificationError(f"expected indexing map {index} to be a projected "
                                        "permutation of its inputs")
            if len(map_.results) != len(_shape(type_)):
                raise VerificationError(f"expected indexing map {index} to have "
                                        f"{len(_shape(type_))} number of inputs")
        lhs_dims, rhs_dims, acc_dims = (set(_dims(m)) for m in maps)
        contracting = [d for d in lhs_dims & rhs_dims if d not in acc_dims]
        if not contracting:
            raise VerificationError("expected at least one contracting dimension pair")
        for dim in contracting:
            if iterators[dim] is not IteratorType.REDUCTION:
                raise VerificationError("invalid contracting dimension map")
        if any(d not in lhs_dims | rhs_dims for d in range(len(iterators))):
            raise VerificationError("expected all dimensions to be either a LHS or a RHS "
                                    "dimension")
        sizes: dict[int, int] = {}
        for map_, type_ in zip(maps[:2], (lhs, rhs)):
            for dim, size in zip(_dims(map_), type_.shape):
                if sizes.setdefault(dim, size) != size:
                    raise VerificationError("invalid contracting dimension map")
        expected = tuple(sizes[d] for d in _dims(maps[2]))
        if expected != _shape(acc):
            raise VerificationError("invalid accumulator/result vector shape")
        if combining_op(self.kind.value, _element(acc)) is None:
            raise VerificationError("unsupported contraction type")


@vector.op
class OuterProductOp(Op):
    """Outer product of two 1-D vectors (or a vector and a scalar: AXPY)

    `result[i, j] = lhs[i] * rhs[j]`, combined into `acc` by `kind` if given:

        %r = vector.outerproduct %a, %b, %c : vector<4xf32>, vector<8xf32>
    """

    name = "vector.outerproduct"
    lhs = OperandDef(AnyVector, doc="the left factor (1-D)")
    rhs = OperandDef(doc="the right factor: a 1-D vector, or a scalar")
    acc = OperandDef(AnyVector, optional=True, doc="the accumulator")
    result = ResultDef(AnyVector, doc="the products, combined into acc")
    kind = AttrDef(CombiningKind, default=CombiningKind(Kind.ADD),
                   doc="how products combine into acc")
    traits = (Pure,)

    @classmethod
    def parse(cls, p: AsmParser) -> OuterProductOp:
        """`%lhs, %rhs [, %acc] attr-dict : lhs-type, rhs-type`."""
        operands = [p.parse_operand()]
        while p.parse_optional_comma():
            operands.append(p.parse_operand())
        attributes = p.parse_optional_attr_dict()
        p.parse_punctuation(":")
        lhs_type = p.parse_type()
        p.parse_punctuation(",")
        rhs_type = p.parse_type()
        if not isinstance(lhs_type, VectorType):
            raise p.error("expected vector type for operand #1")
        if isinstance(rhs_type, VectorType):
            result_type = vector_of((lhs_type.shape[0], rhs_type.shape[0]),
                                    lhs_type.element_type,
                                    (_scalable_at(lhs_type, 0), _scalable_at(rhs_type, 0)))
        else:
            result_type = lhs_type
        attributes.setdefault("kind", CombiningKind(Kind.ADD))
        types = [lhs_type, rhs_type, result_type][:len(operands)]
        values = p.resolve_operands(operands, types)
        return cls.create(values, [result_type], attributes)  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        p.write(" ")
        p.value_list([v for v in (self.lhs, self.rhs, self.acc) if v is not None])
        p.attr_dict(self, set())
        p.write(" : ")
        p.type_list([self.lhs.type, self.rhs.type])

    def verify_custom(self) -> None:
        lhs, rhs, result = self.lhs.type, self.rhs.type, self.result.type
        if lhs.rank != 1:
            raise VerificationError("expected 1-d vector for operand #1")
        if isinstance(rhs, VectorType):
            if rhs.rank != 1:
                raise VerificationError("expected 1-d vector for operand #2")
            if result.rank != 2:
                raise VerificationError("expected 2-d vector result")
            if lhs.shape[0] != result.shape[0]:
                raise VerificationError("expected #1 operand dim to match result dim #1")
            if rhs.shape[0] != result.shape[1]:
                raise VerificationError("expected #2 operand dim to match result dim #2")
        elif result.rank != 1 or lhs.shape[0] != result.shape[0]:
            raise VerificationError("expected #1 operand dim to match result dim #1")
        if self.acc is not None and self.acc.type != result:
            raise VerificationError("expected operand #3 of same type as result type")
        if combining_op(self.kind.value, result.element_type) is None:
            raise VerificationError("unsupported outerproduct type")


def _scalable_at(type_: VectorType, index: int) -> bool:
    return bool(type_.scalable) and type_.scalable[index]


@vector.op
class MultiDimReductionOp(Op):
    """Reduces a vector over some of its dims

    The elements along `reduction_dims` are combined, by `kind`, into the matching
    element of `acc` (whose shape is the source's with those dims dropped):

        %r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    """

    name = "vector.multi_reduction"
    kind = AttrDef(CombiningKind, doc="how elements combine")
    source = OperandDef(AnyVector, doc="the vector reduced")
    acc = OperandDef(doc="the accumulator")
    dest = ResultDef(doc="acc with the reduced elements combined in")
    reduction_dims = AttrDef(DenseArrayOf(i64), doc="the dims reduced")
    traits = (Pure, TypesMatchWith("acc", "dest", lambda t: t, "all of {dest, acc} have same "
                                                               "type"))
    assembly_format = ("$kind `,` $source `,` $acc attr-dict $reduction_dims `:` "
                       "type($source) `to` type($dest)")

    def kept_shape(self) -> tuple[int, ...]:
        reduced = set(self.reduction_dims.values)
        return tuple(n for d, n in enumerate(self.source.type.shape) if d not in reduced)

    def verify_custom(self) -> None:
        source, dest = self.source.type, self.dest.type
        for dim in self.reduction_dims.values:
            if not 0 <= dim < source.rank:
                raise VerificationError(f"reduction dimension {dim} out of range")
        kept = self.kept_shape()
        if _shape(dest) != kept or _element(dest) != source.element_type or \
                (not kept and isinstance(dest, VectorType)):
            raise VerificationError(f"destination type '{dest}' is incompatible with source "
                                    f"type '{source}'")
        if self.acc.type != dest:
            raise VerificationError("failed to verify that all of {dest, acc} have same type")
        if combining_op(self.kind.value, source.element_type) is None:
            raise VerificationError(f"unsupported reduction type '{source.element_type}' for "
                                    f"kind '{self.kind.value.value}'")


@vector.op
class ScanOp(Op):
    """Prefix reduction along one dim

    Along `reduction_dim`, element `i` of `dest` combines (by `kind`) the initial
    value and elements `0..i` (`0..i-1` when not `inclusive`);
    `accumulated_value` is the last such combination:

        %d, %a = vector.scan <add>, %v, %init {reduction_dim = 1 : i64, inclusive = true}
                   : vector<4x8xf32>, vector<4xf32>
    """

    name = "vector.scan"
    kind = AttrDef(CombiningKind, doc="how elements combine")
    source = OperandDef(AnyVector, doc="the vector scanned")
    initial_value = OperandDef(doc="the start of each scan (source without that dim)")
    dest = ResultDef(AnyVector, doc="the prefix combinations")
    accumulated_value = ResultDef(doc="the last combination of each scan")
    reduction_dim = AttrDef(IntAttrOf(i64), doc="the dim scanned")
    inclusive = AttrDef(IntAttrOf(IntegerType(1)),
                        doc="whether element i is in the i-th combination")
    traits = (Pure, InferType())
    assembly_format = ("$kind `,` $source `,` $initial_value attr-dict `:` type($source) `,` "
                       "type($initial_value)")

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [operand_types[0], operand_types[1]]

    def verify_custom(self) -> None:
        source, initial = self.source.type, self.initial_value.type
        dim = self.reduction_dim.value
        if dim >= source.rank:
            raise VerificationError(f"reduction dimension {dim} has to be less than "
                                    f"{source.rank}")
        if self.dest.type != source:
            raise VerificationError("expected dest type to match source type")
        expected = source.shape[:dim] + source.shape[dim + 1:]
        if _shape(initial) != expected or _element(initial) != source.element_type:
            raise VerificationError("incompatible input/initial value shapes")
        if self.accumulated_value.type != initial:
            raise VerificationError("expected accumulated value type to match initial value "
                                    "type")
        element = source.element_type
        if combining_op(self.kind.value, element) is None:
            raise VerificationError(f"unsupported reduction type '{element}' for kind "
                                    f"'{self.kind.value.value}'")


__all__ = ["ContractionOp", "IteratorType", "IteratorTypeAttr", "MultiDimReductionOp",
           "OuterProductOp", "ScanOp"]
