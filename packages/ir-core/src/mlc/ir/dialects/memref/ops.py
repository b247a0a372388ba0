"""The `memref` dialect: buffers in memory (`memref<4x?xf32, strided<[?, 1]>>`) and the
ops that allocate, access, view and free them, with MLIR 22's names, syntax, verifier
messages and memory effects.

A memref's layout is its strides and offset (in elements): the identity layout is
row-major, a `strided<[...], offset: ...>` layout says them outright, `?` for what is
known only at run time. :func:`strides_and_offset` reads them from a type; the views
(`subview`, `cast`, `expand_shape`, `collapse_shape`, `reinterpret_cast`) compute
their result layouts with it, as MLIR does.

Folders and canonicalization patterns are in `canonicalization.py` (the package
imports it); what the ops compute, for the interpreter, in `semantics.py`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from mlc.ir.core.affine_map import AffineMapAttr
from mlc.ir.core.attributes import (
    DYNAMIC,
    ArrayAttr,
    Attribute,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    FloatType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    RankedTensorType,
    StridedLayoutAttr,
    StringAttr,
    Type,
    TypeAttr,
    UnitAttr,
    UnrankedMemRefType,
    i64,
)
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects.arith.ops import ArithConstantsDialect
from mlc.ir.dialects.index_lists import (
    DYNAMIC_INDEX,
    DynamicIndexList,
    mixed_values,
    static_or_none,
)
from mlc.ir.interfaces.infer_type import InferType
from mlc.ir.interfaces.side_effects import (
    Allocate,
    ConditionallySpeculatable,
    Free,
    MemoryEffects,
    Read,
    Resource,
    Speculatability,
    Write,
)
from mlc.ir.opdef.constraints import (
    AnyMemRef,
    ArrayAttrConstraint,
    DenseArrayOf,
    FlatSymbolRefAttr,
    IntAttrOf,
    IntEnum,
    StrAttr,
    SymbolNameAttr,
    TypeAttrOf,
    TypeIs,
    TypeMatches,
    UnitAttrConstraint,
)
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import (
    AttrSizedOperandSegments,
    NoMemoryEffect,
    Pure,
    Symbol,
    TypesMatchWith,
    constant_value,
)

memref = ArithConstantsDialect("memref", "Buffers in memory: allocation, element access and views.",
                               semantics="mlc.ir.dialects.memref.semantics")
memref.directive(DynamicIndexList())

AUTOMATIC_ALLOCATION_SCOPE = Resource("AutomaticAllocationScope")
"""The stack frame `memref.alloca` allocates in (MLIR's AutomaticAllocationScopeResource)."""

RankedMemRef = TypeMatches(lambda t: isinstance(t, MemRefType), "ranked memref")
StridedMemRef = TypeMatches(lambda t: isinstance(t, MemRefType) and
                            strides_and_offset(t) is not None, "strided memref")
I64Array = DenseArrayOf(i64)
VALUE_IS_ELEMENT = TypesMatchWith("value", "memref", lambda t: t.element_type,
                                  "type of 'value' matches element type of 'memref'")
Index = TypeIs(IndexType(), "index")  # one type, so custom forms need not spell it


# ------------------------------------------------------------------ layouts


def row_major_strides(shape: Sequence[int]) -> list[int | None]:
    """The strides of a contiguous row-major buffer of `shape`: a dim left of a
    dynamic one has a dynamic stride (None)."""
    strides: list[int | None] = []
    running: int | None = 1
    for size in reversed(shape):
        strides.append(running)
        running = None if running is None or size == DYNAMIC else running * size
    return strides[::-1]


def strides_and_offset(type_: MemRefType) -> tuple[list[int | None], int | None] | None:
    """(strides, offset) of a memref type, None for dynamic ones; None if its layout
    is not strided (an affine map other than the identity)."""
    layout = type_.layout
    if layout is None or (isinstance(layout, AffineMapAttr) and layout.value.is_identity()):
        return row_major_strides(type_.shape), 0
    if isinstance(layout, StridedLayoutAttr):
        return list(layout.strides), layout.offset
    return None


def _times(a: int | None, b: int | None) -> int | None:
    # As MLIR's saturated arithmetic: anything times zero is zero, even a dynamic value.
    if a == 0 or b == 0:
        return 0
    return None if a is None or b is None else a * b


def _plus(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def is_cast_compatible(source: Type, target: Type) -> bool:
    """Whether `memref.cast` may go from `source` to `target` (MLIR's
    CastOp::areCastCompatible): the same element type and memory space; ranked to
    ranked with each size, stride and the offset equal or dynamic on one side;
    ranked to unranked or back, not unranked to unranked."""
    if isinstance(source, UnrankedMemRefType) and isinstance(target, UnrankedMemRefType):
        return False
    if not isinstance(source, (MemRefType, UnrankedMemRefType)) or \
            not isinstance(target, (MemRefType, UnrankedMemRefType)):
        return False
    if source.element_type != target.element_type or source.memory_space != target.memory_space:
        return False
    if not (isinstance(source, MemRefType) and isinstance(target, MemRefType)):
        return True
    if source.rank != target.rank:
        return False
    if source.layout != target.layout:
        a, b = strides_and_offset(source), strides_and_offset(target)
        if a is None or b is None:
            return False
        for x, y in zip([*a[0], a[1]], [*b[0], b[1]]):
            if x is not None and y is not None and x != y:
                return False
    return all(a == b or DYNAMIC in (a, b) for a, b in zip(source.shape, target.shape))


def fold_memref_casts(op: Operation, keep: Value | None = None) -> bool:
    """Let `op` read through `memref.cast`s of ranked memrefs: each operand a cast
    defines (but `keep`, a stored value) becomes the cast's source (MLIR's
    foldMemRefCast). Whether any did."""
    changed = False
    for i, value in enumerate(op.operands):
        cast = value.defining_op
        if isinstance(cast, CastOp) and value is not keep and isinstance(cast.source.type, MemRefType):
            op.set_operand(i, cast.source)
            changed = True
    return changed


# ------------------------------------------------------------------ allocation


def check_alignment(op: Operation) -> None:
    """An `alignment` attribute, where given, is a positive power of two."""
    alignment = op.attributes.get("alignment")
    if isinstance(alignment, IntegerAttr) and (alignment.value <= 0 or
                                               alignment.value & (alignment.value - 1)):
        raise VerificationError("attribute 'alignment' failed to satisfy constraint: 64-bit "
                                "signless integer attribute whose value is positive and whose "
                                "value is a power of two > 0")


def _verify_alloc(op: Operation) -> None:
    type_ = op.memref.type
    dynamic = sum(1 for d in type_.shape if d == DYNAMIC)
    if len(op.dynamicSizes) != dynamic:
        raise VerificationError(f"incorrect number of dynamic sizes, has "
                                f"{len(op.dynamicSizes)}, expected {dynamic}")
    layout = type_.layout
    if isinstance(layout, AffineMapAttr):
        symbols = layout.value.num_symbols
    elif isinstance(layout, StridedLayoutAttr):
        # A strided layout is a map with a symbol per dynamic stride and offset.
        symbols = [*layout.strides, layout.offset].count(None)
    else:
        symbols = 0
    if len(op.symbolOperands) != symbols:
        raise VerificationError(f"symbol operand count does not equal memref symbol count: "
                                f"expected {symbols}, got {len(op.symbolOperands)}")
    check_alignment(op)


_ALLOC_FORMAT = ("`(` $dynamicSizes `)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` "
                 "type($memref)")


@memref.op
class AllocOp(Op):
    """Allocates a buffer on the heap

    A new buffer of the result type; `dynamicSizes` gives the size of each `?` dim,
    in order. Its contents are undefined until written; `memref.dealloc` frees it:

        %m = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf32>
    """

    name = "memref.alloc"
    dynamicSizes = OperandDef(Index, variadic=True, doc="the size of each dynamic dim")  # noqa: N815
    symbolOperands = OperandDef(Index, variadic=True,  # noqa: N815
                                doc="the symbols of an affine-map layout")
    memref = ResultDef(RankedMemRef, doc="the new buffer")
    alignment = AttrDef(IntAttrOf(i64), optional=True, doc="the buffer's alignment in bytes")
    traits = (AttrSizedOperandSegments, MemoryEffects(Allocate("memref")))
    assembly_format = _ALLOC_FORMAT

    def asm_result_name(self) -> str:
        return "alloc"

    def verify_custom(self) -> None:
        _verify_alloc(self)


@memref.op
class AllocaOp(Op):
    """Allocates a buffer on the stack

    As `memref.alloc`, but the buffer lives until the enclosing function (the
    automatic allocation scope) returns, and is never freed by hand:

        %m = memref.alloca() : memref<4xf32>
    """

    name = "memref.alloca"
    dynamicSizes = OperandDef(Index, variadic=True, doc="the size of each dynamic dim")  # noqa: N815
    symbolOperands = OperandDef(Index, variadic=True,  # noqa: N815
                                doc="the symbols of an affine-map layout")
    memref = ResultDef(RankedMemRef, doc="the new buffer")
    alignment = AttrDef(IntAttrOf(i64), optional=True, doc="the buffer's alignment in bytes")
    traits = (AttrSizedOperandSegments,
              MemoryEffects(Allocate("memref", resource=AUTOMATIC_ALLOCATION_SCOPE)))
    assembly_format = _ALLOC_FORMAT

    def asm_result_name(self) -> str:
        return "alloca"

    def verify_custom(self) -> None:
        _verify_alloc(self)


@memref.op
class DeallocOp(Op):
    """Frees a buffer

    Frees the buffer `memref.alloc` made; using it afterwards is undefined:

        memref.dealloc %m : memref<?x4xf32>
    """

    name = "memref.dealloc"
    memref = OperandDef(AnyMemRef, doc="the buffer to free")
    traits = (MemoryEffects(Free("memref")),)
    assembly_format = "$memref attr-dict `:` type($memref)"

    def fold(self, operands):
        return [] if fold_memref_casts(self) else None


# ------------------------------------------------------------------ element access


@memref.op
class LoadOp(Op):
    """Loads an element

    The element of `memref` at `indices`, one per dim; an index out of bounds is
    undefined behaviour:

        %v = memref.load %m[%i, %j] : memref<4x4xf32>
    """

    name = "memref.load"
    memref = OperandDef(RankedMemRef, doc="the buffer read")
    indices = OperandDef(Index, variadic=True, doc="where, one index per dim")
    result = ResultDef(doc="the element")
    nontemporal = AttrDef(optional=True, doc="a hint that the access has no reuse")
    alignment = AttrDef(IntAttrOf(i64), optional=True, doc="the access's alignment in bytes")
    traits = (MemoryEffects(Read("memref")), InferType())
    assembly_format = "$memref `[` $indices `]` attr-dict `:` type($memref)"

    def fold(self, operands):
        return self.result if fold_memref_casts(self) else None

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        return [operand_types[0].element_type]

    def verify_custom(self) -> None:
        check_alignment(self)
        rank = self.memref.type.rank
        if len(self.indices) != rank:
            raise VerificationError(f"incorrect number of indices for load, expected {rank} "
                                    f"but got {len(self.indices)}")
        if self.result.type != self.memref.type.element_type:
            raise VerificationError("result type must match element type of memref")


@memref.op
class StoreOp(Op):
    """Stores an element

    Writes `value` at `indices` of `memref`:

        memref.store %v, %m[%i, %j] : memref<4x4xf32>
    """

    name = "memref.store"
    value = OperandDef(doc="the element written")
    memref = OperandDef(RankedMemRef, doc="the buffer written")
    indices = OperandDef(Index, variadic=True, doc="where, one index per dim")
    nontemporal = AttrDef(optional=True, doc="a hint that the access has no reuse")
    alignment = AttrDef(IntAttrOf(i64), optional=True, doc="the access's alignment in bytes")
    traits = (MemoryEffects(Write("memref")), VALUE_IS_ELEMENT)
    assembly_format = "$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)"

    def fold(self, operands):
        return [] if fold_memref_casts(self, keep=self.value) else None

    def verify_custom(self) -> None:
        check_alignment(self)
        if len(self.indices) != self.memref.type.rank:
            raise VerificationError("store index operand count not equal to memref rank")


AtomicRMWKind = IntEnum("AtomicRMWKind", (
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu", "minimumf",
    "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori"))
"""MLIR's `arith::AtomicRMWKind`, numbered as MLIR stores it."""

FLOAT_ATOMIC_KINDS = frozenset({"addf", "maximumf", "maxnumf", "minimumf", "minnumf", "mulf"})


@memref.op
class AtomicRMWOp(Op):
    """Atomically reads, combines and writes an element

    Reads the element of `memref` at `indices`, combines it with `value` by `kind`
    (`assign` replaces it) and writes the result, as one indivisible step with respect
    to every other atomic access of the element; the result is the element as it was
    before. A float kind takes a float element, an integer kind an integer:

        %old = memref.atomic_rmw addi %one, %m[%i] : (i64, memref<4xi64>) -> i64
    """

    name = "memref.atomic_rmw"
    kind = AttrDef(AtomicRMWKind, doc="how the element and `value` combine")
    value = OperandDef(doc="the operand of the combination")
    memref = OperandDef(RankedMemRef, doc="the buffer")
    indices = OperandDef(Index, variadic=True, doc="where, one index per dim")
    result = ResultDef(doc="the element before the write")
    traits = (MemoryEffects(Read("memref"), Write("memref")),
              TypesMatchWith("value", "memref", lambda t: t.element_type,
                             "value type matches element type of memref"),
              TypesMatchWith("result", "memref", lambda t: t.element_type,
                             "result type matches element type of memref"))
    assembly_format = ("$kind $value `,` $memref `[` $indices `]` attr-dict `:` `(` type($value) "
                       "`,` type($memref) `)` `->` type($result)")

    @property
    def kind_name(self) -> str:
        return AtomicRMWKind.keyword(self.attributes["kind"])

    def verify_custom(self) -> None:
        if len(self.indices) != self.memref.type.rank:
            raise VerificationError("expects the number of subscripts to be equal to memref rank")
        kind = self.kind_name
        if kind in FLOAT_ATOMIC_KINDS and not isinstance(self.value.type, FloatType):
            raise VerificationError(f"with kind '{kind}' expects a floating-point type")
        if kind not in FLOAT_ATOMIC_KINDS and kind != "assign" and \
                not isinstance(self.value.type, IntegerType):
            raise VerificationError(f"with kind '{kind}' expects an integer type")


@memref.op
class CopyOp(Op):
    """Copies a buffer into another

    Every element of `source` to the same place of `target`, of the same shape and
    element type (the layouts may differ):

        memref.copy %a, %b : memref<4xf32> to memref<4xf32, strided<[2]>>
    """

    name = "memref.copy"
    source = OperandDef(AnyMemRef, doc="the buffer read")
    target = OperandDef(AnyMemRef, doc="the buffer written")
    traits = (MemoryEffects(Read("source"), Write("target")),)
    assembly_format = "$source `,` $target attr-dict `:` type($source) `to` type($target)"

    def fold(self, operands):
        return [] if fold_memref_casts(self) else None

    def verify_custom(self) -> None:
        source, target = self.source.type, self.target.type
        if source.element_type != target.element_type:
            raise VerificationError("requires the same element type for all operands")
        if isinstance(source, MemRefType) and isinstance(target, MemRefType) and (
                source.rank != target.rank or any(a != b and DYNAMIC not in (a, b)
                                                  for a, b in zip(source.shape, target.shape))):
            raise VerificationError("requires the same shape for all operands")


# ------------------------------------------------------------------ shape queries


@memref.op
class DimOp(Op):
    """The size of a dim

    The size of dim `index` of `source` (undefined if `index` is out of range):

        %n = memref.dim %m, %c0 : memref<?x4xf32>
    """

    name = "memref.dim"
    source = OperandDef(TypeMatches(
        lambda t: isinstance(t, UnrankedMemRefType) or isinstance(t, MemRefType) and t.rank > 0,
        "unranked.memref of any type values or non-0-ranked.memref of any type values"),
        doc="the buffer")
    index = OperandDef(Index, doc="which dim")
    result = ResultDef(Index, doc="its size")
    traits = (NoMemoryEffect, ConditionallySpeculatable())
    assembly_format = "attr-dict $source `,` $index `:` type($source)"

    def speculatability(self) -> Speculatability:
        """Speculatable only for a ranked buffer and a constant index within its rank
        (an index out of range is undefined behaviour)."""
        index = constant_value(self.index)
        if (isinstance(self.source.type, MemRefType) and isinstance(index, IntegerAttr)
                and 0 <= index.value < self.source.type.rank):
            return Speculatability.SPECULATABLE
        return Speculatability.NOT_SPECULATABLE

    def fold(self, operands):
        index = operands[1]
        source = self.source
        if not isinstance(index, IntegerAttr) or not isinstance(source.type, MemRefType):
            return None
        dim = index.value
        if not 0 <= dim < source.type.rank:
            return None  # undefined: left for a runtime to trip on
        size = source.type.shape[dim]
        if size != DYNAMIC:
            return IntegerAttr(size, IndexType())
        producer = source.defining_op
        if isinstance(producer, (AllocOp, AllocaOp)):
            return producer.dynamicSizes[source.type.shape[:dim].count(DYNAMIC)]
        if isinstance(producer, SubViewOp):
            inferred = subview_type(producer.source.type, producer.static_offsets.values,
                                    producer.static_sizes.values, producer.static_strides.values)
            dropped = dropped_dims(inferred, source.type) or []
            kept = [i for i in range(inferred.rank) if i not in dropped]
            entry = mixed_values(producer.static_sizes, producer.sizes)[kept[dim]]
            return entry if not isinstance(entry, int) else IntegerAttr(entry, IndexType())
        if isinstance(producer, CastOp):
            self.set_operand(0, producer.source)  # the cast keeps every size
            return self.result
        return None

    def asm_result_name(self) -> str:
        return "dim"


# ------------------------------------------------------------------ casts and views


@memref.op
class ViewOp(Op):
    """Views bytes as a typed buffer

    A buffer of the result type over the 1-D `i8` buffer `source`, starting
    `byte_shift` bytes in; `sizes` give the result's dynamic sizes. The result has the
    identity layout (memory planning's shared storage):

        %v = memref.view %storage[%c0][] : memref<2048xi8> to memref<16x32xf32>
    """

    name = "memref.view"
    source = OperandDef(TypeMatches(
        lambda t: isinstance(t, MemRefType) and t.rank == 1 and t.element_type == IntegerType(8),
        "1D memref of 8-bit signless integer values"), doc="the bytes")
    byte_shift = OperandDef(Index, doc="where the view starts, in bytes")
    sizes = OperandDef(Index, variadic=True, doc="the result's dynamic sizes")
    result = ResultDef(RankedMemRef, doc="the typed view")
    traits = (Pure,)
    assembly_format = ("$source `[` $byte_shift `]` `` `[` $sizes `]` attr-dict `:` "
                       "type($source) `to` type($result)")

    def verify_custom(self) -> None:
        result = self.result.type
        if result.layout is not None and not (isinstance(result.layout, AffineMapAttr)
                                              and result.layout.value.is_identity()):
            raise VerificationError(f"unsupported map for result memref type '{result}'",
                                    names_op=False)
        if result.memory_space != self.source.type.memory_space:
            raise VerificationError("different memory spaces specified for base memref type "
                                    f"'{self.source.type}' and view memref type '{result}'")
        dynamic = sum(1 for d in result.shape if d == DYNAMIC)
        if len(self.sizes) != dynamic:
            raise VerificationError(f"incorrect number of dynamic sizes, has {len(self.sizes)}, "
                                    f"expected {dynamic}")

    def asm_result_name(self) -> str:
        return "view"



@memref.op
class CastOp(Op):
    """Casts a buffer to a compatible type

    The same buffer seen with a type that agrees with its own where both are static:
    a static size, stride or offset may become dynamic or back (checked at run time),
    a ranked memref unranked or back:

        %d = memref.cast %m : memref<4x4xf32> to memref<?x?xf32>
    """

    name = "memref.cast"
    source = OperandDef(AnyMemRef, doc="the buffer")
    dest = ResultDef(AnyMemRef, doc="the same buffer, of the new type")
    traits = (NoMemoryEffect,)
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"

    def fold(self, operands):
        if self.source.type == self.dest.type:
            return self.source
        inner = self.source.defining_op
        if isinstance(inner, CastOp) and isinstance(inner.source.type, MemRefType) and \
                is_cast_compatible(inner.source.type, self.dest.type):
            self.set_operand(0, inner.source)
            return self.result
        return None

    def asm_result_name(self) -> str:
        return "cast"

    def verify_custom(self) -> None:
        source, dest = self.source.type, self.dest.type
        if not is_cast_compatible(source, dest):
            raise VerificationError(f"operand type '{source}' and result type '{dest}' are "
                                    "cast incompatible")


def _check_static_entries(kind: str, values: Sequence[int], non_negative: bool) -> None:
    for value in values:
        if value != DYNAMIC_INDEX and non_negative and value < 0:
            raise VerificationError(f"expected {kind} to be non-negative, but got {value}")


def subview_type(source: MemRefType, offsets: Sequence[int], sizes: Sequence[int],
                 strides: Sequence[int]) -> MemRefType:
    """The result type of a subview (before rank reduction), as MLIR infers it: sizes
    as given, strides the source's times the subview's, offset the source's plus each
    offset times its stride; dynamic where any part is. Static entries are ints,
    dynamic ones :data:`DYNAMIC_INDEX`."""
    layout = strides_and_offset(source)
    assert layout is not None
    source_strides, offset = layout
    result_strides = []
    for off, stride, source_stride in zip(offsets, strides, source_strides):
        off_v = None if off == DYNAMIC_INDEX else off
        stride_v = None if stride == DYNAMIC_INDEX else stride
        offset = _plus(offset, _times(off_v, source_stride))
        result_strides.append(_times(stride_v, source_stride))
    shape = tuple(DYNAMIC if s == DYNAMIC_INDEX else s for s in sizes)
    return MemRefType(shape, source.element_type,
                      StridedLayoutAttr(tuple(result_strides), offset), source.memory_space)


def rank_reduction_mask(shape: Sequence[int], reduced: Sequence[int]) -> list[int] | None:
    """The dims of `shape` dropped to get `reduced` (each a static 1), matching from
    the left as MLIR's computeRankReductionMask; None if `reduced` is not such."""
    dropped = []
    j = 0
    for i, size in enumerate(shape):
        if j < len(reduced) and reduced[j] == size:
            j += 1
        elif size == 1:
            dropped.append(i)
        else:
            return None
    return dropped if j == len(reduced) else None


def verify_in_bounds(source: MemRefType, offsets, sizes, strides) -> None:
    """MLIR's check that a slice's static entries stay within the static sizes."""
    for dim, (size_limit, off, size, stride) in enumerate(zip(source.shape, offsets, sizes,
                                                              strides)):
        if DYNAMIC_INDEX in (off, size, stride) or size_limit == DYNAMIC:
            continue
        if off >= size_limit and size > 0:
            raise VerificationError(f"offset {dim} is out-of-bounds: {off} >= {size_limit}",
                                    names_op=False)
        if size > 0 and off + (size - 1) * stride >= size_limit:
            raise VerificationError(f"slice along dimension {dim} runs out-of-bounds: "
                                    f"{off + (size - 1) * stride} >= {size_limit}",
                                    names_op=False)


@memref.op
class SubViewOp(Op):
    """A strided view of part of a buffer

    The elements of `source` from `offsets`, `sizes` many along each dim, every
    `strides`-th; each entry static or an index value. The result type's layout is the
    one MLIR infers (see :func:`subview_type`); dims of size 1 may be dropped
    from it (a rank-reducing subview):

        %v = memref.subview %m[%i, 0] [2, 4] [1, 1]
            : memref<8x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    """

    name = "memref.subview"
    source = OperandDef(RankedMemRef, doc="the buffer viewed")
    offsets = OperandDef(Index, variadic=True, doc="the dynamic offsets")
    sizes = OperandDef(Index, variadic=True, doc="the dynamic sizes")
    strides = OperandDef(Index, variadic=True, doc="the dynamic strides")
    result = ResultDef(RankedMemRef, doc="the view")
    static_offsets = AttrDef(I64Array, doc="every offset, dynamic ones as INT64_MIN")
    static_sizes = AttrDef(I64Array, doc="every size, dynamic ones as INT64_MIN")
    static_strides = AttrDef(I64Array, doc="every stride, dynamic ones as INT64_MIN")
    traits = (AttrSizedOperandSegments, Pure)
    assembly_format = ("$source `` custom<DynamicIndexList>($offsets, $static_offsets) "
                       "custom<DynamicIndexList>($sizes, $static_sizes) "
                       "custom<DynamicIndexList>($strides, $static_strides) attr-dict `:` "
                       "type($source) `to` type($result)")

    def fold(self, operands):
        # The whole of the source, seen as it is.
        source, result = self.source.type, self.result.type
        if source != result or not source.has_static_shape():
            return None
        if self.offsets or self.sizes or self.strides:
            return None
        if all(v == 0 for v in self.static_offsets.values) and \
                tuple(self.static_sizes.values) == source.shape and \
                all(v == 1 for v in self.static_strides.values):
            return self.source
        return None

    def asm_result_name(self) -> str:
        return "subview"

    def verify_custom(self) -> None:
        source, result = self.source.type, self.result.type
        offsets, sizes, strides = (tuple(a.values) for a in (
            self.static_offsets, self.static_sizes, self.static_strides))
        verify_mixed_lists(self, source.rank, offsets, sizes, strides)
        if strides_and_offset(source) is None:
            raise VerificationError(f"base type '{source}' is not strided", names_op=False)
        if result.rank > source.rank:
            raise VerificationError(f"expected result rank to be smaller or equal to the source "
                                    f"rank, but got '{result}'")
        expected = subview_type(source, offsets, sizes, strides)
        mismatch = subview_mismatch(expected, result)
        if mismatch == "mismatch of result element type":
            raise VerificationError(f"expected result element type to be "
                                    f"'{source.element_type}', but got '{result}'",
                                    names_op=False)
        if mismatch == "mismatch of result memory space":
            raise VerificationError(f"expected result and source memory spaces to match, but "
                                    f"got '{result}'", names_op=False)
        if mismatch is not None:
            raise VerificationError(f"expected result type to be '{expected}' or a "
                                    f"rank-reduced version. ({mismatch}), but got '{result}'",
                                    names_op=False)
        verify_in_bounds(source, offsets, sizes, strides)


def dropped_dims(expected: MemRefType, result: MemRefType) -> list[int] | None:
    """Which unit dims of `expected` (a subview's inferred type) `result` drops: a
    choice leaving its shape and layout (MLIR's computeMemRefRankReductionMask, which
    decides by strides where the shape alone is ambiguous); None if none does."""
    layout = strides_and_offset(result)
    expected_strides, expected_offset = strides_and_offset(expected)  # type: ignore[misc]
    units = [i for i, size in enumerate(expected.shape) if size == 1]
    extra = expected.rank - result.rank
    if extra < 0 or layout is None:
        return None
    for dropped in itertools.combinations(units, extra):
        kept = [i for i in range(expected.rank) if i not in dropped]
        if [expected.shape[i] for i in kept] == list(result.shape) and \
                layout[1] == expected_offset and layout[0] == [expected_strides[i] for i in kept]:
            return list(dropped)
    return None


def subview_mismatch(expected: MemRefType, result: MemRefType) -> str | None:
    """Why `result` is neither `expected` nor a rank reduction of it (in MLIR's
    words), or None."""
    if result.rank > expected.rank:
        return "rank of result greater than rank of source"
    if rank_reduction_mask(expected.shape, result.shape) is None:
        return "mismatch of result sizes"
    if expected.element_type != result.element_type:
        return "mismatch of result element type"
    if expected.memory_space != result.memory_space:
        return "mismatch of result memory space"
    if dropped_dims(expected, result) is None:
        return "mismatch of result layout"
    return None


def verify_mixed_lists(op: Operation, rank: int, offsets: Sequence[int], sizes: Sequence[int],
                       strides: Sequence[int]) -> None:
    """MLIR's checks of an offsets/sizes/strides op: one entry per dim of `rank`, as
    many dynamic operands as dynamic entries, none negative."""
    if len(offsets) != len(sizes):
        raise VerificationError(f"expected mixed offsets rank to match mixed sizes rank "
                                f"({len(offsets)} vs {len(sizes)}) so the rank of the result "
                                f"type is well-formed.", names_op=False)
    if len(sizes) != len(strides):
        raise VerificationError(f"expected mixed sizes rank to match mixed strides rank "
                                f"({len(sizes)} vs {len(strides)}) so the rank of the result "
                                f"type is well-formed.", names_op=False)
    for kind, values, operands in (("offset", offsets, op.offsets), ("size", sizes, op.sizes),
                                   ("stride", strides, op.strides)):
        if rank >= 0 and len(values) != rank:
            raise VerificationError(f"expected {rank} {kind} values")
        count = sum(1 for v in values if v == DYNAMIC_INDEX)
        if count != len(operands):
            raise VerificationError(f"expected the number of '{kind}s' to match the number of "
                                    f"dynamic entries in 'static_{kind}s' ({len(operands)} vs "
                                    f"{count})")
    _check_static_entries("offsets", offsets, True)
    _check_static_entries("sizes", sizes, True)


def _shown(value: int | None) -> str:
    return "dynamic" if value is None else str(value)


@memref.op
class ReinterpretCastOp(Op):
    """Sees a buffer with another shape and strides

    The buffer's underlying memory seen from `offset` (from the start of the
    allocation, not of the view) with `sizes` and `strides`:

        %r = memref.reinterpret_cast %m to offset: [0], sizes: [16], strides: [1]
            : memref<4x4xf32> to memref<16xf32>
    """

    name = "memref.reinterpret_cast"
    source = OperandDef(AnyMemRef, doc="the buffer")
    offsets = OperandDef(Index, variadic=True, doc="the dynamic offset")
    sizes = OperandDef(Index, variadic=True, doc="the dynamic sizes")
    strides = OperandDef(Index, variadic=True, doc="the dynamic strides")
    result = ResultDef(RankedMemRef, doc="the view")
    static_offsets = AttrDef(I64Array, doc="the offset, INT64_MIN if dynamic")
    static_sizes = AttrDef(I64Array, doc="every size, dynamic ones as INT64_MIN")
    static_strides = AttrDef(I64Array, doc="every stride, dynamic ones as INT64_MIN")
    traits = (AttrSizedOperandSegments, Pure)
    assembly_format = ("$source `to` `offset` `` `:` custom<DynamicIndexList>($offsets, "
                       "$static_offsets) `` `,` `sizes` `` `:` custom<DynamicIndexList>($sizes, "
                       "$static_sizes) `` `,` `strides` `` `:` custom<DynamicIndexList>($strides, "
                       "$static_strides) attr-dict `:` type($source) `to` type($result)")

    def asm_result_name(self) -> str:
        return "reinterpret_cast"

    def verify_custom(self) -> None:
        source, result = self.source.type, self.result.type
        if source.memory_space != result.memory_space:
            raise VerificationError(f"different memory spaces specified for source type "
                                    f"'{source}' and result type '{result}'")
        if source.element_type != result.element_type:
            raise VerificationError(f"different element types specified for source type "
                                    f"'{source}' and result type '{result}'")
        offsets, sizes, strides = (tuple(a.values) for a in (
            self.static_offsets, self.static_sizes, self.static_strides))
        if len(sizes) != len(strides):
            raise VerificationError(f"expected mixed sizes rank to match mixed strides rank "
                                    f"({len(sizes)} vs {len(strides)}) so the rank of the result "
                                    f"type is well-formed.", names_op=False)
        if len(offsets) != 1:
            raise VerificationError(f"expected 1 offset values, got {len(offsets)}")
        if len(sizes) != result.rank or len(strides) != result.rank:
            raise VerificationError(f"expected {result.rank} size and stride values")
        for dim, (size, expected) in enumerate(zip(result.shape, sizes)):
            if (size == DYNAMIC) != (expected == DYNAMIC_INDEX) or (
                    expected != DYNAMIC_INDEX and size != expected):
                raise VerificationError(
                    f"expected result type with size = "
                    f"{_shown(None if expected == DYNAMIC_INDEX else expected)} instead of "
                    f"{_shown(None if size == DYNAMIC else size)} in dim = {dim}")
        layout = strides_and_offset(result)
        if layout is None:
            raise VerificationError(f"expected result type to have strided layout but found "
                                    f"'{result}'")
        result_strides, result_offset = layout
        static_offset = None if offsets[0] == DYNAMIC_INDEX else offsets[0]
        if result_offset != static_offset:
            raise VerificationError(f"expected result type with offset = {_shown(static_offset)} "
                                    f"instead of {_shown(result_offset)}")
        for dim, (stride, expected) in enumerate(zip(result_strides, strides)):
            expected_stride = None if expected == DYNAMIC_INDEX else expected
            if stride != expected_stride:
                raise VerificationError(f"expected result type with stride = "
                                        f"{_shown(expected_stride)} instead of {_shown(stride)} "
                                        f"in dim = {dim}")


# ------------------------------------------------------------------ reshapes


Reassociation = ArrayAttrConstraint


def reassociation_groups(attr: ArrayAttr) -> list[list[int]]:
    """The dim groups of a reassociation attribute (`[[0, 1], [2]]`)."""
    return [[i.value for i in group.elements] for group in attr.elements]


def verify_reshape(groups: list[list[int]], collapsed: MemRefType,
                   expanded: MemRefType) -> None:
    """MLIR's checks of a reshape's reassociation (verifyReshapeLikeTypes): one
    group per collapsed dim, covering the expanded dims in order, each collapsed size
    its group's product (dynamic exactly when one of the group is)."""
    if collapsed.rank == 0:
        if any(size != 1 for size in expanded.shape):
            raise VerificationError("rank 0 memrefs can only be extended/collapsed with/from "
                                    "ones")
        return
    if len(groups) != collapsed.rank:
        raise VerificationError(f"invalid number of reassociation groups: found {len(groups)}, "
                                f"expected {collapsed.rank}")
    next_dim = 0
    for dim, group in enumerate(groups):
        for expanded_dim in group:
            if expanded_dim != next_dim:
                raise VerificationError("reassociation indices must be contiguous")
            next_dim += 1
            if expanded_dim >= expanded.rank:
                raise VerificationError(f"reassociation index {expanded_dim} is out of bounds")
        sizes = [expanded.shape[d] for d in group]
        if (DYNAMIC in sizes) != (collapsed.shape[dim] == DYNAMIC):
            raise VerificationError(f"collapsed dim ({dim}) must be dynamic if and only if "
                                    "reassociation group is dynamic")
        if DYNAMIC not in sizes and collapsed.shape[dim] != math.prod(sizes):
            raise VerificationError(f"collapsed dim size ({collapsed.shape[dim]}) must equal "
                                    f"reassociation group size ({math.prod(sizes)})")
    if next_dim != expanded.rank:
        raise VerificationError(f"expanded rank ({expanded.rank}) inconsistent with number of "
                                f"reassociation indices ({next_dim})")


def _size(size: int) -> int | None:
    return None if size == DYNAMIC else size


def collapsed_layout(source: MemRefType, groups: list[list[int]]
                     ) -> tuple[list[int | None], int | None] | None:
    """The strides and offset of a collapse of `source` (MLIR's
    computeCollapsedLayoutMap): each group's stride its innermost non-unit dim's
    (dynamic when that dim's size is); None if a group is plainly not contiguous
    (a dynamic stride is assumed to be)."""
    layout = strides_and_offset(source)
    if layout is None:
        return None
    strides, offset = layout
    result_strides: list[int | None] = []
    for group in groups:
        inner = list(group)
        while len(inner) > 1 and source.shape[inner[-1]] == 1:
            inner.pop()
        if source.shape[inner[-1]] != DYNAMIC or len(inner) == 1:
            result_strides.append(strides[inner[-1]])
        else:
            result_strides.append(None)
    for group, stride in zip(groups, result_strides):
        running = stride
        for outer, idx in zip(reversed(group[:-1]), reversed(group[1:])):
            running = _times(running, _size(source.shape[idx]))
            if source.shape[outer] == 1:
                continue
            if running is not None and strides[outer] is not None and running != strides[outer]:
                return None
    return result_strides, offset


def collapsed_type(source: MemRefType, groups: list[list[int]]) -> MemRefType | None:
    """The type `memref.collapse_shape` infers (MLIR's): each group's sizes
    multiplied; an identity layout stays one, another becomes the strided layout of
    :func:`collapsed_layout`. None if a group is not contiguous."""
    shape = []
    for group in groups:
        sizes = [source.shape[d] for d in group]
        shape.append(DYNAMIC if DYNAMIC in sizes else math.prod(sizes))
    if source.layout is None:
        return MemRefType(tuple(shape), source.element_type, None, source.memory_space)
    layout = collapsed_layout(source, groups)
    if layout is None:
        return None
    return MemRefType(tuple(shape), source.element_type,
                      StridedLayoutAttr(tuple(layout[0]), layout[1]), source.memory_space)


def expanded_type(source: MemRefType, shape: Sequence[int],
                  groups: list[list[int]]) -> MemRefType | None:
    """The type `memref.expand_shape` infers for result sizes `shape` (MLIR's): an
    identity layout stays one; otherwise each group's innermost dim keeps the source
    dim's stride, the outer ones that times the sizes inside them."""
    if source.layout is None:
        return MemRefType(tuple(shape), source.element_type, None, source.memory_space)
    layout = strides_and_offset(source)
    if layout is None:
        return None
    strides, offset = layout
    result: list[int | None] = [None] * len(shape)
    for group, stride in zip(groups, strides):
        running = stride
        for idx in reversed(group):
            result[idx] = running
            running = _times(running, _size(shape[idx]))
    return MemRefType(tuple(shape), source.element_type,
                      StridedLayoutAttr(tuple(result), offset), source.memory_space)


@memref.op
class CollapseShapeOp(Op):
    """Merges groups of contiguous dims

    A view of `src` whose dims are the groups of `reassociation` merged, each group
    contiguous in memory:

        %f = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
    """

    name = "memref.collapse_shape"
    src = OperandDef(RankedMemRef, doc="the buffer")
    result = ResultDef(RankedMemRef, doc="the view")
    reassociation = AttrDef(Reassociation, doc="the source dims of each result dim")
    traits = (Pure,)
    assembly_format = "$src $reassociation attr-dict `:` type($src) `into` type($result)"

    def fold(self, operands):
        if self.src.type == self.result.type:
            return self.src  # a reshape to the same type changes nothing
        # Undoing the reshape that made the source gives back its source.
        inverse = self.src.defining_op
        if isinstance(inverse, ExpandShapeOp) and inverse.src.type == self.result.type and \
                inverse.reassociation == self.reassociation:
            return inverse.src
        return None

    def asm_result_name(self) -> str:
        return "collapse_shape"

    def verify_custom(self) -> None:
        source, result = self.src.type, self.result.type
        if source.rank < result.rank:
            raise VerificationError(f"has source rank {source.rank} and result rank "
                                    f"{result.rank}. This is not a collapse ({source.rank} < "
                                    f"{result.rank})")
        groups = reassociation_groups(self.reassociation)
        verify_reshape(groups, result, source)
        expected = collapsed_type(source, groups)
        if expected is None:
            raise VerificationError("invalid source layout map or collapsing non-contiguous "
                                    "dims")
        if expected != result:
            raise VerificationError(f"expected collapsed type to be '{expected}' but found "
                                    f"'{result}'")


@memref.op
class ExpandShapeOp(Op):
    """Splits dims into groups

    A view of `src` whose dims are each split into the group of `reassociation`,
    of the sizes `output_shape` gives:

        %e = memref.expand_shape %m [[0, 1]] output_shape [2, 2]
            : memref<4xf32> into memref<2x2xf32>
    """

    name = "memref.expand_shape"
    src = OperandDef(RankedMemRef, doc="the buffer")
    output_shape = OperandDef(Index, variadic=True, doc="the dynamic result sizes")
    result = ResultDef(RankedMemRef, doc="the view")
    reassociation = AttrDef(Reassociation, doc="the result dims of each source dim")
    static_output_shape = AttrDef(I64Array, doc="every result size, dynamic ones as INT64_MIN")
    traits = (Pure,)
    assembly_format = ("$src $reassociation `output_shape` "
                       "custom<DynamicIndexList>($output_shape, $static_output_shape) "
                       "attr-dict `:` type($src) `into` type($result)")

    def fold(self, operands):
        if self.src.type == self.result.type:
            return self.src  # a reshape to the same type changes nothing
        # Undoing the reshape that made the source gives back its source.
        inverse = self.src.defining_op
        if isinstance(inverse, CollapseShapeOp) and inverse.src.type == self.result.type and \
                inverse.reassociation == self.reassociation:
            return inverse.src
        return None

    def asm_result_name(self) -> str:
        return "expand_shape"

    def verify_custom(self) -> None:
        source, result = self.src.type, self.result.type
        if source.rank > result.rank:
            raise VerificationError(f"has source rank {source.rank} and result rank "
                                    f"{result.rank}. This is not an expansion ({source.rank} > "
                                    f"{result.rank})")
        groups = reassociation_groups(self.reassociation)
        verify_reshape(groups, source, result)
        shape = list(self.static_output_shape.values)
        if len(shape) != result.rank:
            raise VerificationError(f"expected number of static shape bounds to be equal to "
                                    f"the output rank ({result.rank}) but found {len(shape)} "
                                    f"inputs instead")
        if sum(1 for v in shape if v == DYNAMIC_INDEX) != len(self.output_shape):
            raise VerificationError("mismatch in dynamic dims in output_shape and "
                                    "static_output_shape: static_output_shape has "
                                    f"{sum(1 for v in shape if v == DYNAMIC_INDEX)} dynamic "
                                    f"dims while output_shape has {len(self.output_shape)} values")
        for dim, (size, static) in enumerate(zip(result.shape, static_or_none(
                self.static_output_shape))):
            if static is not None and size != DYNAMIC and size != static:
                raise VerificationError(f"invalid output shape provided at pos {dim}")
        expected = expanded_type(source, result.shape, groups)
        if expected is None:
            raise VerificationError("invalid source layout map")
        if expected != result:
            raise VerificationError(f"expected expanded type to be '{expected}' but found "
                                    f"'{result}'")


# ------------------------------------------------------------------ globals


@memref.op
class GlobalOp(Op):
    """Declares or defines a global buffer

    A buffer of static shape living as long as the program, named by a symbol;
    `memref.get_global` gives it. Its initial value, a dense constant, is optional
    (`uninitialized`: defined, with undefined contents; nothing: an external
    declaration). A `constant` global is never written:

        memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]>
    """

    name = "memref.global"
    sym_name = AttrDef(SymbolNameAttr, doc="the symbol")
    sym_visibility = AttrDef(StrAttr, optional=True,
                             doc="`private` (only its module uses it), `nested` or public")
    type = AttrDef(TypeAttrOf(MemRefType, "memref type attribute"), doc="the buffer's type")
    initial_value = AttrDef(optional=True, doc="a dense constant, or unit for uninitialized")
    constant = AttrDef(UnitAttrConstraint, optional=True, doc="whether it is read-only")
    alignment = AttrDef(IntAttrOf(i64), optional=True, doc="its alignment in bytes")
    traits = (Symbol,)

    @property
    def memref_type(self) -> MemRefType:
        return self.type.value

    @property
    def tensor_type(self) -> RankedTensorType:
        """The type of the initial value: a tensor of the buffer's shape."""
        t = self.memref_type
        return RankedTensorType(t.shape, t.element_type)

    def verify_custom(self) -> None:
        visibility = self.sym_visibility
        if visibility is not None and visibility.value not in ("public", "private", "nested"):
            raise VerificationError(f'visibility expected to be one of ["public", "private", '
                                    f'"nested"], but got "{visibility.value}"')
        t = self.memref_type
        if not t.has_static_shape():
            raise VerificationError(f"type should be static shaped memref, but got '{t}'")
        init = self.initial_value
        if init is not None and not isinstance(init, UnitAttr):
            if not isinstance(init, (DenseElementsAttr, DenseResourceElementsAttr)):
                raise VerificationError(f"initial value should be a unit or elements attribute, "
                                        f"but got '{init}'")
            if init.type.shape != t.shape:
                raise VerificationError(
                    f"initial value shape expected to be {', '.join(map(str, t.shape))} but "
                    f"was {', '.join(map(str, init.type.shape))}")
            if init.type.element_type != t.element_type:
                raise VerificationError(f"initial value element expected to be of type "
                                        f"'{t.element_type}', but was of type "
                                        f"'{init.type.element_type}'")
        check_alignment(self)

    @classmethod
    def parse(cls, p) -> GlobalOp:
        """`"private"? constant? @name : type (= dense<...> | = uninitialized)?`."""
        attrs: dict[str, Attribute] = {}
        visibility = p.parse_optional_string()
        if visibility is not None:
            attrs["sym_visibility"] = StringAttr(visibility)
        if p.parse_optional_keyword("constant"):
            attrs["constant"] = UnitAttr()
        attrs["sym_name"] = StringAttr(p.parse_symbol_name())
        p.parse_colon()
        pos = p.current_pos()
        type_ = p.parse_type()
        if not isinstance(type_, MemRefType):
            raise p.error(f"type should be static shaped memref, but got '{type_}'", pos)
        attrs["type"] = TypeAttr(type_)
        if p.parse_optional_punctuation("="):
            if p.parse_optional_keyword("uninitialized"):
                attrs["initial_value"] = UnitAttr()
            else:
                attrs["initial_value"] = _parse_initial_value(
                    p, RankedTensorType(type_.shape, type_.element_type))
        for name, attr in p.parse_optional_attr_dict().items():
            attrs.setdefault(name, attr)
        return cls.build(**attrs)  # type: ignore[return-value]

    def print(self, p) -> None:
        if self.sym_visibility is not None:
            p.write(f' "{self.sym_visibility.value}"')
        if self.constant is not None:
            p.write(" constant")
        p.write(" ")
        p.symbol_name(self.sym_name.value)
        p.write(" : ")
        p.type(self.memref_type)
        init = self.initial_value
        if isinstance(init, UnitAttr):
            p.write(" = uninitialized")
        elif init is not None:
            p.write(" = ")
            p.write(_elements_without_type(p, init))
        p.attr_dict(self, {"sym_visibility", "constant", "sym_name", "type", "initial_value"})


def _parse_initial_value(p, tensor_type: RankedTensorType) -> Attribute:
    """`dense<...>` with the global's tensor type implied (a `: type` may follow)."""
    from mlc.ir.text.parser import parse_attribute

    pos = p.current_pos()
    keyword = p.parse_optional_keyword(("dense",))
    if keyword is None:
        attr = p.parse_attribute()
    else:
        body = p.take_balanced_body()
        if p.parse_optional_punctuation(":"):
            explicit = p.parse_type()
            text = f"dense{body} : {explicit}"
        else:
            text = f"dense{body} : {tensor_type}"
        try:
            attr = parse_attribute(text)
        except Exception as exc:  # a malformed constant: say so at its place
            message = getattr(exc, "message", None) or str(exc).splitlines()[0]
            raise p.error(message, pos) from None
    return attr


def _elements_without_type(p, attr: Attribute) -> str:
    """An elements attribute as the global prints it: without its `: type`."""
    text = p._attr_text(attr)
    suffix = f" : {attr.type}"
    return text[:-len(suffix)] if text.endswith(suffix) else text


@memref.op
class GetGlobalOp(Op):
    """The buffer of a global

    The buffer `memref.global @name` defines (the same one each time):

        %t = memref.get_global @table : memref<2xf32>
    """

    name = "memref.get_global"
    global_name = AttrDef(FlatSymbolRefAttr, attr_name="name", doc="the global's symbol")
    result = ResultDef(RankedMemRef, doc="the global's buffer")
    traits = (Pure,)
    assembly_format = "$name `:` type($result) attr-dict"

    def verify_custom(self) -> None:
        from mlc.ir.dialects.func.ops import lookup_symbol

        ref = self.global_name
        found = lookup_symbol(self, ref)
        if not isinstance(found, GlobalOp):
            raise VerificationError(f"'{ref.root}' does not reference a valid global memref")
        if found.memref_type != self.result.type:
            raise VerificationError(f"result type '{self.result.type}' does not match type "
                                    f"'{found.memref_type}' of the global memref @{ref.root}")


__all__ = [
    "AtomicRMWKind", "AtomicRMWOp",
    "AUTOMATIC_ALLOCATION_SCOPE", "AllocOp", "AllocaOp", "CastOp", "CollapseShapeOp", "CopyOp",
    "DeallocOp", "DimOp", "dropped_dims", "ExpandShapeOp", "fold_memref_casts", "GetGlobalOp", "GlobalOp", "LoadOp",
    "ReinterpretCastOp", "StoreOp", "SubViewOp", "collapsed_type", "is_cast_compatible",
    "memref", "rank_reduction_mask", "row_major_strides", "strides_and_offset",
    "subview_type", "verify_in_bounds", "expanded_type",
]
