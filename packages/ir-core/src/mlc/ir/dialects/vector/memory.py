"""`vector` ops that move vectors between memrefs and registers: `vector.load` and
`vector.store` (a vector's elements at consecutive positions of the trailing dims),
`vector.transfer_read` and `vector.transfer_write` (through a permutation map, with
padding for what lies out of bounds and an optional mask), with MLIR 22's syntax and
verifier messages. Each reads through `memref.cast`s as MLIR's folders do. The
transfer ops also take a ranked tensor: a read of it has no memory effect (and may be
speculated), a write gives the updated tensor as its result.
"""

from __future__ import annotations

import math

from mlc.ir.core.affine_expr import AffineExprKind
from mlc.ir.core.affine_map import AffineMap, AffineMapAttr
from mlc.ir.core.attributes import (
    ArrayAttr,
    BoolAttr,
    IntegerType,
    MemRefType,
    RankedTensorType,
    ShapedType,
    VectorType,
)
from mlc.ir.dialects.memref.ops import Index, check_alignment, fold_memref_casts, strides_and_offset
from mlc.ir.dialects.vector.elements import bit_width
from mlc.ir.dialects.vector.ops import AnyVector, vector
from mlc.ir.interfaces.side_effects import (
    ConditionallySpeculatable,
    EffectInstance,
    EffectKind,
    MemoryEffects,
    Read,
    Speculatability,
    Write,
)
from mlc.ir.opdef.constraints import AnyMemRef, AnyRankedTensor, ArrayAttrConstraint, TypeMatches
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import AttrSizedOperandSegments, TypesMatchWith

# What the transfer ops move vectors from and to: a memref or a ranked tensor.
TransferBase = TypeMatches(lambda t: isinstance(t, (MemRefType, RankedTensorType)),
                           "shaped of any type values")


def _transfer_effects(op, kind: EffectKind) -> list[EffectInstance]:
    """A transfer's effect on its base: `kind` on a memref, none on a tensor (a value)."""
    return [EffectInstance(kind, op.base)] if isinstance(op.base.type, MemRefType) else []


def _transfer_speculatability(op) -> Speculatability:
    """A transfer on a tensor reads no memory and cannot trap (out of bounds is padding)."""
    if isinstance(op.base.type, RankedTensorType):
        return Speculatability.SPECULATABLE
    return Speculatability.NOT_SPECULATABLE


def transferred_rank(base: ShapedType, vector_type: VectorType) -> int:
    """How many vector dims the permutation map places: all of them, but for a base
    whose elements are vectors, not the trailing dims those elements fill."""
    element = base.element_type
    return vector_type.rank - (element.rank if isinstance(element, VectorType) else 0)


def _check_indices(op, base: ShapedType) -> None:
    if len(op.indices) != base.rank:
        raise VerificationError(f"requires {base.rank} indices")


def _verify_load_store(op, base: MemRefType, vector_type: VectorType, what: str) -> None:
    """MLIR's checks of vector.load and vector.store."""
    layout = strides_and_offset(base)
    # One element (a 0-D vector, or a size-1 one) is a scalar access: any stride goes.
    one_element = not any(vector_type.scalable) and math.prod(vector_type.shape) == 1
    if not one_element and layout is not None and base.rank and layout[0][-1] != 1:
        raise VerificationError("most minor memref dim must have unit stride")
    element = base.element_type
    if isinstance(element, VectorType):
        if element != vector_type:
            raise VerificationError(f"base memref and {what} vector types should match")
        element = element.element_type
    if element != vector_type.element_type:
        raise VerificationError(f"base and {what} element type"
                                f"{'s' if what == 'result' else ''} should match")
    if base.rank < vector_type.rank:
        raise VerificationError(f"{'destination' if what == 'result' else 'source'} memref has "
                                f"lower rank than the {'result vector' if what == 'result' else 'vector to store'}")
    _check_indices(op, base)
    check_alignment(op)


@vector.op
class LoadOp(Op):
    """Reads a vector from memory

    The elements of `base` from `indices` on, as many along each trailing dim as the
    vector's shape says:

        %v = vector.load %m[%i, %j] : memref<4x8xf32>, vector<4xf32>
    """

    name = "vector.load"
    base = OperandDef(AnyMemRef, doc="the buffer read")
    indices = OperandDef(Index, variadic=True, doc="where the vector starts")
    result = ResultDef(AnyVector, doc="the vector read")
    nontemporal = AttrDef(optional=True, doc="a hint that the access has no reuse")
    alignment = AttrDef(optional=True, doc="the access's alignment in bytes")
    traits = (MemoryEffects(Read("base")),)
    assembly_format = "$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)"

    def verify_custom(self) -> None:
        _verify_load_store(self, self.base.type, self.result.type, "result")

    def fold(self, operands):
        return self.result if fold_memref_casts(self) else None


@vector.op
class StoreOp(Op):
    """Writes a vector to memory

    The elements of `valueToStore` into `base` from `indices` on:

        vector.store %v, %m[%i, %j] : memref<4x8xf32>, vector<4xf32>
    """

    name = "vector.store"
    valueToStore = OperandDef(AnyVector, doc="the vector written")  # noqa: N815
    base = OperandDef(AnyMemRef, doc="the buffer written")
    indices = OperandDef(Index, variadic=True, doc="where the vector starts")
    nontemporal = AttrDef(optional=True, doc="a hint that the access has no reuse")
    alignment = AttrDef(optional=True, doc="the access's alignment in bytes")
    traits = (MemoryEffects(Write("base")),)
    assembly_format = ("$valueToStore `,` $base `[` $indices `]` attr-dict `:` type($base) `,` "
                       "type($valueToStore)")

    def verify_custom(self) -> None:
        _verify_load_store(self, self.base.type, self.valueToStore.type, "valueToStore")

    def fold(self, operands):
        return [] if fold_memref_casts(self, keep=self.valueToStore) else None


# ------------------------------------------------------------------ transfers


def minor_identity(source_rank: int, vector_rank: int) -> AffineMap:
    """The default permutation map: the vector's dims are the trailing dims."""
    return AffineMap.minor_identity(source_rank, vector_rank)


def map_dims(permutation: AffineMap) -> list[int | None]:
    """For each vector dim, the source dim it runs along (None: a broadcast)."""
    return [None if r.kind is AffineExprKind.CONSTANT else r.position
            for r in permutation.results]


def mask_type(vector_type: VectorType, permutation: AffineMap) -> VectorType:
    """The mask's type: `i1`s of the vector dims that run along the source, in
    source-dim order (MLIR's inferTransferOpMaskType)."""
    dims = map_dims(permutation)
    order = sorted((d, i) for i, d in enumerate(dims) if d is not None)
    shape = tuple(vector_type.shape[i] for _, i in order)
    scalable = tuple(bool(vector_type.scalable) and vector_type.scalable[i] for _, i in order)
    if not shape:  # nothing placed (all broadcast): one bit, as MLIR
        return VectorType((1,), IntegerType(1))
    if any(scalable):
        return VectorType(shape, IntegerType(1), scalable)
    return VectorType(shape, IntegerType(1))


def _verify_transfer(op, source: ShapedType, vector_type: VectorType) -> None:
    _check_indices(op, source)
    permutation = op.permutation_map.value
    if permutation.num_dims != source.rank:
        raise VerificationError("requires a permutation_map with input dims of the same rank "
                                "as the source type")
    element = source.element_type
    if isinstance(element, VectorType):
        source_bits = bit_width(element.element_type) * (element.shape[-1] if element.rank else 1)
        result_bits = bit_width(vector_type.element_type) * (
            vector_type.shape[-1] if vector_type.rank else 1)
        if result_bits % source_bits:
            raise VerificationError("requires the bitwidth of the minor 1-D vector to be an "
                                    "integral multiple of the bitwidth of the minor 1-D vector "
                                    "of the source")
        if element.rank > vector_type.rank:
            raise VerificationError("requires source vector element and vector result ranks "
                                    "to match.")
    if permutation.num_results != transferred_rank(source, vector_type):
        raise VerificationError("requires a permutation_map with result dims of the same rank "
                                "as the vector type")
    if permutation.num_symbols:
        raise VerificationError("requires permutation_map without symbols")
    seen: set[int] = set()
    for result in permutation.results:
        if result.kind is AffineExprKind.CONSTANT and result.value == 0:
            continue
        if result.kind is not AffineExprKind.DIM:
            raise VerificationError("requires a projected permutation_map (at most one dim or "
                                    "the zero constant can appear in each result)")
        if result.position in seen:
            raise VerificationError("requires a permutation_map that is a permutation (found "
                                    "one dim used more than once)")
        seen.add(result.position)
    in_bounds = op.in_bounds
    if len(in_bounds.elements) != permutation.num_results:
        raise VerificationError(f"expects the in_bounds attr of same rank as permutation_map "
                                f"results: {op.permutation_map} vs inBounds of size: "
                                f"{len(in_bounds.elements)}")
    if not isinstance(element, VectorType) and element != vector_type.element_type:
        raise VerificationError("requires source vector element and vector result ranks to "
                                "match.")
    if op.mask is not None and op.mask.type != mask_type(vector_type, permutation):
        raise VerificationError(f"expects different type than prior uses: "
                                f"'{mask_type(vector_type, permutation)}' vs '{op.mask.type}'")


def _parse_transfer(cls, p, reading: bool):
    """`%v?, %base[%i...], %padding?, %mask? attr-dict : types` (the shared part)."""
    value = None if reading else p.parse_operand()
    if not reading:
        p.parse_comma()
    base = p.parse_operand()
    p.parse_punctuation("[")
    indices = [] if p.parse_optional_punctuation("]") else p.parse_operand_list()
    if indices:
        p.parse_punctuation("]")
    padding = None
    if reading:
        p.parse_comma()
        padding = p.parse_operand()
    mask = p.parse_operand() if p.parse_optional_comma() else None
    attrs = p.parse_optional_attr_dict()
    p.parse_colon()
    pos = p.current_pos()
    first = p.parse_type()
    p.parse_comma()
    second = p.parse_type()
    base_type, vector_type = (first, second) if reading else (second, first)
    if not isinstance(base_type, (MemRefType, RankedTensorType)):
        raise p.error("requires memref or ranked tensor type", pos)
    if not isinstance(vector_type, VectorType):
        raise p.error("requires vector type", pos)
    permutation = attrs.get("permutation_map")
    placed = transferred_rank(base_type, vector_type)
    if permutation is None and not 0 <= placed <= base_type.rank:
        raise p.error("expected a custom permutation_map when rank(source) != "
                      "rank(destination)", pos)
    if permutation is None:
        permutation = attrs["permutation_map"] = AffineMapAttr(
            minor_identity(base_type.rank, placed))
    if "in_bounds" not in attrs:
        attrs["in_bounds"] = ArrayAttr(tuple(BoolAttr(False)
                                             for _ in permutation.value.results))
    index = Index.buildable_type()
    base_value = p.resolve_operand(base, base_type)
    index_values = p.resolve_operands(indices, [index] * len(indices))
    mask_value = None
    if mask is not None:
        mask_value = p.resolve_operand(mask, mask_type(vector_type, permutation.value))
    if reading:
        operands = (base_value, index_values, p.resolve_operand(padding, base_type.element_type),
                    mask_value)
        return cls.build(*operands, result_types=[vector_type], **attrs)
    results = [base_type] if isinstance(base_type, RankedTensorType) else []
    return cls.build(p.resolve_operand(value, vector_type), base_value, index_values,
                     mask_value, result_types=results, **attrs)


def _print_transfer_attrs(p, op, base: ShapedType, vector_type: VectorType) -> None:
    elided = {"operandSegmentSizes"}
    placed = transferred_rank(base, vector_type)
    if 0 <= placed <= base.rank and op.permutation_map.value == minor_identity(base.rank, placed):
        elided.add("permutation_map")
    if not any(a.value for a in op.in_bounds.elements):
        elided.add("in_bounds")
    p.attr_dict(op, elided)


@vector.op
class TransferReadOp(Op):
    """Reads a vector from memory through a permutation map

    Vector dim `k` runs along the source dim the `permutation_map`'s result `k`
    names (the trailing dims by default), or repeats one element (a `0` result, a
    broadcast). Positions out of the source's bounds, or masked off, read `padding`;
    `in_bounds` promises a dim never leaves the bounds:

        %v = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true]}
            : memref<4x8xf32>, vector<4xf32>
    """

    name = "vector.transfer_read"
    base = OperandDef(TransferBase, doc="the buffer (or tensor) read")
    indices = OperandDef(Index, variadic=True, doc="where the vector starts")
    padding = OperandDef(doc="the value read out of bounds or masked off")
    mask = OperandDef(optional=True, doc="which elements to read (source-dim order)")
    vector = ResultDef(AnyVector, doc="the vector read")
    permutation_map = AttrDef(AffineMapAttr, doc="the source dim of each vector dim")
    in_bounds = AttrDef(ArrayAttrConstraint, doc="per vector dim: known to stay in bounds")
    traits = (AttrSizedOperandSegments, MemoryEffects(Read("base")), ConditionallySpeculatable(),
              TypesMatchWith("padding", "base", lambda t: t.element_type,
                             "type of 'padding' matches element type of 'base'"))

    def memory_effects(self) -> list[EffectInstance]:
        return _transfer_effects(self, EffectKind.READ)

    def speculatability(self) -> Speculatability:
        return _transfer_speculatability(self)

    def verify_custom(self) -> None:
        _verify_transfer(self, self.base.type, self.vector.type)

    def fold(self, operands):
        return self.vector if fold_memref_casts(self) else None

    @classmethod
    def parse(cls, p) -> TransferReadOp:
        """`%base[%i, ...], %padding (, %mask)? attr-dict : memref-type, vector-type`."""
        return _parse_transfer(cls, p, reading=True)

    def print(self, p) -> None:
        p.write(" ")
        p.value(self.base)
        p.write("[")
        p.value_list(self.indices)
        p.write("], ")
        p.value(self.padding)
        if self.mask is not None:
            p.write(", ")
            p.value(self.mask)
        _print_transfer_attrs(p, self, self.base.type, self.vector.type)
        p.write(" : ")
        p.type(self.base.type)
        p.write(", ")
        p.type(self.vector.type)


@vector.op
class TransferWriteOp(Op):
    """Writes a vector to memory through a permutation map

    As `vector.transfer_read`, the other way: positions out of bounds, or masked
    off, are not written:

        vector.transfer_write %v, %m[%i, %j] : vector<4xf32>, memref<4x8xf32>
    """

    name = "vector.transfer_write"
    valueToStore = OperandDef(AnyVector, doc="the vector written")  # noqa: N815
    base = OperandDef(TransferBase, doc="the buffer (or tensor) written")
    indices = OperandDef(Index, variadic=True, doc="where the vector starts")
    mask = OperandDef(optional=True, doc="which elements to write (source-dim order)")
    result = ResultDef(AnyRankedTensor, optional=True, doc="the tensor written (for a tensor)")
    permutation_map = AttrDef(AffineMapAttr, doc="the destination dim of each vector dim")
    in_bounds = AttrDef(ArrayAttrConstraint, doc="per vector dim: known to stay in bounds")
    traits = (AttrSizedOperandSegments, MemoryEffects(Write("base")), ConditionallySpeculatable())

    def memory_effects(self) -> list[EffectInstance]:
        return _transfer_effects(self, EffectKind.WRITE)

    def speculatability(self) -> Speculatability:
        return _transfer_speculatability(self)

    def verify_custom(self) -> None:
        base = self.base.type
        if isinstance(base, RankedTensorType) != (self.result is not None):
            raise VerificationError("should have a result of the tensor's type exactly when "
                                    "writing a tensor")
        if self.result is not None and self.result.type != base:
            raise VerificationError(f"result type {self.result.type} does not match the "
                                    f"tensor's type {base}")
        _verify_transfer(self, self.base.type, self.valueToStore.type)
        if any(r.kind is AffineExprKind.CONSTANT for r in self.permutation_map.value.results):
            raise VerificationError("should not have broadcast dimensions")

    def fold(self, operands):
        if self.result is not None:
            return None
        return [] if fold_memref_casts(self) else None

    @classmethod
    def parse(cls, p) -> TransferWriteOp:
        """`%vector, %base[%i, ...] (, %mask)? attr-dict : vector-type, memref-type`."""
        return _parse_transfer(cls, p, reading=False)

    def print(self, p) -> None:
        p.write(" ")
        p.value(self.valueToStore)
        p.write(", ")
        p.value(self.base)
        p.write("[")
        p.value_list(self.indices)
        p.write("]")
        if self.mask is not None:
            p.write(", ")
            p.value(self.mask)
        _print_transfer_attrs(p, self, self.base.type, self.valueToStore.type)
        p.write(" : ")
        p.type(self.valueToStore.type)
        p.write(", ")
        p.type(self.base.type)


__all__ = ["LoadOp", "StoreOp", "TransferReadOp", "TransferWriteOp", "map_dims", "mask_type",
           "minor_identity"]
