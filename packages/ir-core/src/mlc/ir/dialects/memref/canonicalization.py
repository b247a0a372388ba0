"""Canonicalization patterns of the `memref` dialect, as MLIR's: a buffer that is only
written and freed is never allocated, constant sizes and subview arguments become
static (with a `memref.cast` back to the type users expect, which their folders then
look through), and a copy of a buffer onto itself goes. The folders (casts looked
through, `dim` of a known size, trivial subviews and reshapes) are on the ops.

The entry point of the dialect names this module, so the dialect it gives is complete.
"""

from __future__ import annotations

from mlc.ir.core.attributes import (
    DYNAMIC,
    ArrayAttr,
    IntegerAttr,
    MemRefType,
    StridedLayoutAttr,
    i64,
)
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects.arith.constants import constant_value_of
from mlc.ir.dialects.index_lists import DYNAMIC_INDEX, static_array
from mlc.ir.dialects.memref.ops import (
    AllocaOp,
    AllocOp,
    CastOp,
    CollapseShapeOp,
    CopyOp,
    DeallocOp,
    ExpandShapeOp,
    StoreOp,
    SubViewOp,
    dropped_dims,
    memref,
    reassociation_groups,
    strides_and_offset,
    subview_type,
    verify_in_bounds,
)
from mlc.ir.interfaces.side_effects import EffectKind, own_effects
from mlc.ir.opdef.declare import VerificationError
from mlc.ir.rewrite.pattern import RewritePattern

__all__ = ["memref"]


def _constant_index(value: Value) -> int | None:
    attr = constant_value_of(value)
    return attr.value if isinstance(attr, IntegerAttr) else None


def _only_writes(user: Operation, buffer: Value) -> bool:
    """`user` does nothing to `buffer` but write into it (a store of another value,
    a vector store...) or free it: without readers, such uses need no buffer."""
    if isinstance(user, DeallocOp):
        return True
    if isinstance(user, StoreOp):
        return user.value is not buffer
    effects = own_effects(user)
    return effects is not None and len(effects) == 1 and \
        effects[0].kind is EffectKind.WRITE and effects[0].value is buffer


class SimplifyDeadAlloc(RewritePattern):
    """An alloc whose buffer is only written into and freed is never read: erase it
    and its users (MLIR's SimplifyDeadAlloc)."""

    root = AllocOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        buffer = op.memref
        users = [use.owner for use in buffer.uses]
        if not all(_only_writes(user, buffer) for user in users):
            return rewriter.notify_match_failure(op, "the buffer is read or escapes")
        for user in dict.fromkeys(users):
            rewriter.erase_op(user)
        rewriter.erase_op(op)
        return True


class SimplifyAllocConst(RewritePattern):
    """An alloc whose dynamic sizes include constants allocates a type with those
    sizes static, cast back to the original type (MLIR's SimplifyAllocConst)."""

    root = AllocOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        type_ = op.memref.type
        sizes = iter(op.dynamicSizes)
        shape, remaining = [], []
        for size in type_.shape:
            if size != DYNAMIC:
                shape.append(size)
                continue
            operand = next(sizes)
            constant = _constant_index(operand)
            if constant is not None and constant >= 0:
                shape.append(constant)
            else:
                shape.append(DYNAMIC)
                remaining.append(operand)
        if len(remaining) == len(op.dynamicSizes):
            return rewriter.notify_match_failure(op, "no dynamic size is a constant")
        new_type = MemRefType(tuple(shape), type_.element_type, type_.layout, type_.memory_space)
        alloc = rewriter.create(type(op), remaining, list(op.symbolOperands),
                                result_types=[new_type], alignment=op.alignment, loc=op.loc)
        rewriter.replace_op_with_new(op, CastOp, alloc.results[0], result_types=[type_])
        return True


class SimplifyDeadAlloca(SimplifyDeadAlloc):
    """An alloca whose buffer is only written into is never read: erase it and its
    users."""

    root = AllocaOp


class SimplifyAllocaConst(SimplifyAllocConst):
    """An alloca whose dynamic sizes include constants allocates those sizes
    statically, cast back to the original type."""

    root = AllocaOp


class FoldSelfCopy(RewritePattern):
    """A copy of a buffer onto itself changes nothing."""

    root = CopyOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        if op.source is not op.target:
            return rewriter.notify_match_failure(op, "source and target differ")
        rewriter.erase_op(op)
        return True


def _fold_constants(values: tuple[int, ...], operands: list[Value],
                    non_negative: bool) -> tuple[list[int], list[Value]]:
    """The static entries with constant operands folded in (negative ones kept
    dynamic where the list forbids them), and the operands still dynamic."""
    dynamic = iter(operands)
    static, remaining = [], []
    for value in values:
        if value != DYNAMIC_INDEX:
            static.append(value)
            continue
        operand = next(dynamic)
        constant = _constant_index(operand)
        if constant is not None and (constant >= 0 or not non_negative):
            static.append(constant)
        else:
            static.append(DYNAMIC_INDEX)
            remaining.append(operand)
    return static, remaining


def _drop_dims(type_: MemRefType, dropped: list[int]) -> MemRefType:
    layout = strides_and_offset(type_)
    assert layout is not None
    strides, offset = layout
    keep = [i for i in range(type_.rank) if i not in dropped]
    return MemRefType(tuple(type_.shape[i] for i in keep), type_.element_type,
                      StridedLayoutAttr(tuple(strides[i] for i in keep), offset),
                      type_.memory_space)


class SubViewConstantArguments(RewritePattern):
    """A subview whose offsets, sizes or strides are constant values takes them as
    static entries; its new result type is cast back to the old one (MLIR's
    OpWithOffsetSizesAndStridesConstantArgumentFolder)."""

    root = SubViewOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        offsets, new_offsets = _fold_constants(tuple(op.static_offsets.values),
                                               list(op.offsets), True)
        sizes, new_sizes = _fold_constants(tuple(op.static_sizes.values), list(op.sizes), True)
        strides, new_strides = _fold_constants(tuple(op.static_strides.values),
                                               list(op.strides), False)
        if (len(new_offsets), len(new_sizes), len(new_strides)) == (
                len(op.offsets), len(op.sizes), len(op.strides)):
            return rewriter.notify_match_failure(op, "no dynamic entry is a constant")
        source = op.source.type
        old_inferred = subview_type(source, op.static_offsets.values, op.static_sizes.values,
                                    op.static_strides.values)
        dropped = dropped_dims(old_inferred, op.result.type)
        if dropped is None:
            return rewriter.notify_match_failure(op, "the rank reduction is not by shape")
        try:
            verify_in_bounds(source, offsets, sizes, strides)
        except VerificationError:
            return rewriter.notify_match_failure(op, "the constants run out of bounds")
        new_type = _drop_dims(subview_type(source, offsets, sizes, strides), dropped)
        view = rewriter.create(SubViewOp, op.source, new_offsets, new_sizes, new_strides,
                               result_types=[new_type], static_offsets=static_array(offsets),
                               static_sizes=static_array(sizes),
                               static_strides=static_array(strides), loc=op.loc)
        if new_type == op.result.type:
            rewriter.replace_op(op, view)
        else:
            rewriter.replace_op_with_new(op, CastOp, view.results[0],
                                         result_types=[op.result.type])
        return True


def _more_static(source: MemRefType, target: MemRefType) -> bool:
    """Whether a cast from `source` to `target` only forgets static facts (MLIR's
    CastOp::canFoldIntoConsumerOp): a consumer may then use the source instead."""
    if source.rank != target.rank or source.element_type != target.element_type:
        return False
    if any(s == DYNAMIC and t != DYNAMIC for s, t in zip(source.shape, target.shape)):
        return False
    a, b = strides_and_offset(source), strides_and_offset(target)
    if a is None or b is None:
        return False
    return not any(x is None and y is not None
                   for x, y in zip([*a[0], a[1]], [*b[0], b[1]]))


class SubViewOfCast(RewritePattern):
    """A subview of a cast that only forgot static facts views the cast's source,
    its more static type cast back to the old one (MLIR's
    SubViewOpMemRefCastFolder)."""

    root = SubViewOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        cast = op.source.defining_op
        if not isinstance(cast, CastOp) or not isinstance(cast.source.type, MemRefType) or \
                not _more_static(cast.source.type, cast.dest.type):
            return rewriter.notify_match_failure(op, "the source is no cast from a more "
                                                 "static type")
        offsets, sizes, strides = (op.static_offsets.values, op.static_sizes.values,
                                   op.static_strides.values)
        dropped = dropped_dims(subview_type(op.source.type, offsets, sizes, strides),
                               op.result.type)
        if dropped is None:
            return rewriter.notify_match_failure(op, "the rank reduction is not by shape")
        new_type = _drop_dims(subview_type(cast.source.type, offsets, sizes, strides), dropped)
        view = rewriter.create(SubViewOp, cast.source, list(op.offsets), list(op.sizes),
                               list(op.strides), result_types=[new_type],
                               static_offsets=op.static_offsets, static_sizes=op.static_sizes,
                               static_strides=op.static_strides, loc=op.loc)
        if new_type == op.result.type:
            rewriter.replace_op(op, view)
        else:
            rewriter.replace_op_with_new(op, CastOp, view.results[0],
                                         result_types=[op.result.type])
        return True


def _groups_attr(groups: list[list[int]]) -> ArrayAttr:
    return ArrayAttr(tuple(ArrayAttr(tuple(IntegerAttr(d, i64) for d in g)) for g in groups))


def _compose(first: ArrayAttr, then: ArrayAttr) -> list[list[int]]:
    """The groups of two reshapes in one: each group of `first` (over the middle
    dims) with every middle dim replaced by its group in `then`."""
    inner = reassociation_groups(then)
    return [[d for mid in group for d in inner[mid]] for group in reassociation_groups(first)]


class ComposeCollapses(RewritePattern):
    """A collapse of a collapse is one collapse, its groups the inner groups merged
    (MLIR's ComposeReassociativeReshapeOps)."""

    root = CollapseShapeOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        inner = op.src.defining_op
        if not isinstance(inner, CollapseShapeOp):
            return rewriter.notify_match_failure(op, "the source is no collapse")
        groups = _compose(op.reassociation, inner.reassociation)
        rewriter.replace_op_with_new(op, CollapseShapeOp, inner.src,
                                     result_types=[op.result.type],
                                     reassociation=_groups_attr(groups), loc=op.loc)
        return True


class ComposeExpands(RewritePattern):
    """An expand of an expand is one expand, its groups the outer groups of each
    inner group's dims (MLIR's ComposeReassociativeReshapeOps)."""

    root = ExpandShapeOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        inner = op.src.defining_op
        if not isinstance(inner, ExpandShapeOp):
            return rewriter.notify_match_failure(op, "the source is no expand")
        groups = _compose(inner.reassociation, op.reassociation)
        rewriter.replace_op_with_new(op, ExpandShapeOp, inner.src, list(op.output_shape),
                                     result_types=[op.result.type],
                                     reassociation=_groups_attr(groups),
                                     static_output_shape=op.static_output_shape, loc=op.loc)
        return True


memref.add_canonicalization_patterns([
    SubViewOfCast(), ComposeCollapses(), ComposeExpands(),
    SimplifyDeadAlloc(), SimplifyDeadAlloca(), SimplifyAllocConst(), SimplifyAllocaConst(),
    FoldSelfCopy(), SubViewConstantArguments(),
])
