"""What the `vector` ops do, for the reference interpreter: the ops that take vectors
apart and put them together, those that touch memory (`vector.load`, `vector.store`,
`vector.transfer_read`, `vector.transfer_write`) and those that compute
(`vector.fma`, `vector.reduction`); see :mod:`mlc.ir.interpreter` for the value model.
A reduction combines elements in order with the scalar handlers of the arith ops
:data:`~mlc.ir.dialects.vector.compute.KIND_OPS` names, so its rounding and NaN rules
are theirs.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from mlc.ir.core.attributes import FloatType, IndexType, Type, VectorType
from mlc.ir.core.ir import Operation
from mlc.ir.dialects.arith.ops import MulFOp, MulIOp
from mlc.ir.dialects.index_lists import DYNAMIC_INDEX
from mlc.ir.dialects.math.ops import FmaOp
from mlc.ir.dialects.memref.semantics import ArithCombine, check_writable
from mlc.ir.dialects.vector.compute import FMAOp, ReductionOp, combining_op
from mlc.ir.dialects.vector.contraction import ContractionOp, MultiDimReductionOp, OuterProductOp
from mlc.ir.dialects.vector.elements import (
    DeinterleaveOp,
    FromElementsOp,
    InterleaveOp,
    ShuffleOp,
    StepOp,
    ToElementsOp,
    TransposeOp,
    VectorScaleOp,
)
from mlc.ir.dialects.vector.masks import ConstantMaskOp, CreateMaskOp, MaskOp, YieldOp, box_mask, i1
from mlc.ir.dialects.vector.memory import (
    LoadOp,
    StoreOp,
    TransferReadOp,
    TransferWriteOp,
    map_dims,
)
from mlc.ir.dialects.vector.ops import BroadcastOp
from mlc.ir.dialects.vector.slicing import (
    ExtractOp,
    ExtractStridedSliceOp,
    InsertOp,
    InsertStridedSliceOp,
    ShapeCastOp,
)
from mlc.ir.interpreter import (
    POISON,
    Interpreter,
    UndefinedBehavior,
    UnsupportedOperation,
    Yield,
    canonical_int,
    handler_for,
    impl,
    load_element,
    map_elements,
    normalize,
    store_element,
    to_signed,
)


def _positions(shape: tuple[int, ...]):
    return itertools.product(*(range(n) for n in shape))


@impl(LoadOp)
def _load(interp: Interpreter, op: Operation, operands: list) -> list:
    """Row-major elements from the indices on, along the trailing dims."""
    buffer, *indices = operands
    shape = op.results[0].type.shape
    lead = len(indices) - len(shape)
    element = op.results[0].type.element_type
    return [tuple(load_element(buffer, [*indices[:lead], *(i + p for i, p in zip(
        indices[lead:], position))], element) for position in _positions(shape))]


@impl(StoreOp)
def _store(interp: Interpreter, op: Operation, operands: list) -> list:
    value, buffer, *indices = operands
    check_writable(buffer)
    shape = op.operands[0].type.shape
    lead = len(indices) - len(shape)
    for element, position in zip(value, _positions(shape)):
        store_element(buffer, [*indices[:lead], *(i + p for i, p in zip(indices[lead:],
                                                                          position))], element)
    return []


def _transfer_places(op: Operation, shape: tuple[int, ...], indices: list, mask):
    """For each vector position in row-major order: the buffer index it maps to and
    whether it is masked on."""
    dims = map_dims(op.attributes["permutation_map"].value)
    masked = sorted((d, k) for k, d in enumerate(dims) if d is not None)
    mask_shape = tuple(shape[k] for _, k in masked)
    for position in _positions(shape):
        index = list(indices)
        for k, dim in enumerate(dims):
            if dim is not None:
                index[dim] += position[k]
        on = True
        if mask is not None:
            flat = 0
            for (_, k), size in zip(masked, mask_shape):
                flat = flat * size + position[k]
            on = bool(mask[flat])
        yield index, on


def _in_bounds(buffer, index: list[int]) -> bool:
    return all(0 <= i < n for i, n in zip(index, buffer.shape))


def _check_promised(op: Operation, buffer, index: list[int]) -> None:
    """An out-of-bounds access along a dim `in_bounds` promised is undefined."""
    dims = map_dims(op.attributes["permutation_map"].value)
    promised = [a.value for a in op.attributes["in_bounds"].elements]
    for dim, inside in zip(dims, promised):
        if dim is not None and inside and not 0 <= index[dim] < buffer.shape[dim]:
            raise UndefinedBehavior(f"'{op.name}' leaves the bounds along dim {dim}, which "
                                    "in_bounds says it does not")


@impl(TransferReadOp)
def _transfer_read(interp: Interpreter, op: Operation, operands: list) -> list:
    buffer = operands[0]
    rank = op.operands[0].type.rank
    indices, padding = operands[1:1 + rank], operands[1 + rank]
    mask = operands[2 + rank] if len(operands) > 2 + rank else enclosing_mask(op)
    vector_type = op.results[0].type
    values = []
    for index, on in _transfer_places(op, vector_type.shape, indices, mask):
        if on and _in_bounds(buffer, index):
            values.append(load_element(buffer, index, vector_type.element_type))
        else:
            if on:
                _check_promised(op, buffer, index)
            values.append(padding)
    return [tuple(values)]


@impl(TransferWriteOp)
def _transfer_write(interp: Interpreter, op: Operation, operands: list) -> list:
    value, buffer = operands[0], operands[1]
    rank = op.operands[1].type.rank
    indices = operands[2:2 + rank]
    mask = operands[2 + rank] if len(operands) > 2 + rank else enclosing_mask(op)
    check_writable(buffer)
    shape = op.operands[0].type.shape
    for element, (index, on) in zip(value, _transfer_places(op, shape, indices, mask)):
        if not on:
            continue
        if _in_bounds(buffer, index):
            store_element(buffer, index, element)
        else:
            _check_promised(op, buffer, index)
    return []


@impl(FMAOp)
def _fma(interp: Interpreter, op: Operation, operands: list) -> list:
    """math.fma on each element: one rounding."""
    return map_elements(interp, handler_for(FmaOp), op, operands)


def combine_all(interp: Interpreter, kind, element: Type, values: list, fastmath=None):
    """`values` combined left to right under `kind` with the scalar handler of its
    arith op (so its rounding and NaN rules); poison if any is."""
    if any(v is POISON for v in values):
        return POISON
    op_class = combining_op(kind, element)
    combine = ArithCombine(op_class.op_def.name, element,
                           fastmath if isinstance(element, FloatType) else None)
    handler = handler_for(op_class)
    result = values[0]
    for value in values[1:]:
        result = handler(interp, combine, [result, value])[0]
    return result


@impl(ReductionOp)
def _reduction(interp: Interpreter, op: Operation, operands: list) -> list:
    """acc (if any), then each element (each enabled one, under vector.mask),
    combined left to right."""
    values = list(operands[0])
    mask = enclosing_mask(op)
    if mask is not None:
        values = [v for v, on in zip(values, mask) if on]
    if len(operands) > 1:
        values.insert(0, operands[1])
    if not values:
        raise UnsupportedOperation("a masked reduction of no element and no accumulator "
                                   "(its neutral value) is not modelled")
    return [combine_all(interp, op.attributes["kind"].value, op.results[0].type, values,
                        op.attributes.get("fastmath"))]


@impl(MultiDimReductionOp)
def _multi_reduction(interp: Interpreter, op: Operation, operands: list) -> list:
    """For each kept position: acc's element, then the source's elements along the
    reduced dims in row-major order, combined left to right."""
    source_type = op.operands[0].type
    source = _as_array(operands[0], source_type)
    reduced = sorted(op.attributes["reduction_dims"].values)
    kept = [d for d in range(source_type.rank) if d not in reduced]
    arranged = np.transpose(source, kept + reduced)
    kept_shape = tuple(source_type.shape[d] for d in kept)
    rows = arranged.reshape(math.prod(kept_shape), -1)
    acc_type = op.operands[1].type
    acc = list(_as_array(operands[1], acc_type).reshape(-1)) if kept else [operands[1]]
    kind, element = op.attributes["kind"].value, source_type.element_type
    results = [combine_all(interp, kind, element, [a, *row]) for a, row in zip(acc, rows)]
    return [tuple(results) if kept else results[0]]


def _product(interp: Interpreter, element: Type, lhs, rhs):
    op_class = MulFOp if isinstance(element, FloatType) else MulIOp
    if lhs is POISON or rhs is POISON:
        return POISON
    return handler_for(op_class)(interp, ArithCombine(op_class.op_def.name, element),
                                 [lhs, rhs])[0]


@impl(ContractionOp)
def _contract(interp: Interpreter, op: Operation, operands: list) -> list:
    """For each acc element: itself, then the products (lhs times rhs, in the acc's
    element type, one rounding each) over the reduction dims in row-major order,
    combined left to right by `kind` (what MLIR's lowering through
    elementwise products and an ordered reduction computes)."""
    lhs_type, rhs_type, acc_type = (v.type for v in op.operands)
    lhs, rhs = _as_array(operands[0], lhs_type), _as_array(operands[1], rhs_type)
    acc = _as_array(operands[2], acc_type)
    maps = [a.value for a in op.attributes["indexing_maps"].elements]
    lhs_dims, rhs_dims, acc_dims = ([r.position for r in m.results] for m in maps)
    sizes = op.iteration_shape()
    parallel = [d for d in range(len(sizes)) if d in acc_dims]
    reduced = [d for d in range(len(sizes)) if d not in acc_dims]
    element = acc_type.element_type if isinstance(acc_type, VectorType) else acc_type
    kind = op.attributes["kind"].value
    result = np.empty(acc.shape if isinstance(acc, np.ndarray) else (), dtype=object)
    for outer in _positions(tuple(sizes[d] for d in parallel)):
        point = dict(zip(parallel, outer))
        acc_index = tuple(point[d] for d in acc_dims)
        values = [acc[acc_index] if isinstance(acc, np.ndarray) else acc]
        for inner in _positions(tuple(sizes[d] for d in reduced)):
            point.update(zip(reduced, inner))
            a = lhs[tuple(point[d] for d in lhs_dims)]
            b = rhs[tuple(point[d] for d in rhs_dims)]
            values.append(_product(interp, element, _promote(a, lhs_type, element),
                                   _promote(b, rhs_type, element)))
        result[acc_index] = combine_all(interp, kind, element, values)
    if isinstance(acc_type, VectorType):
        return [_from_array(result, acc_type)]
    return [result[()]]


def _promote(value, type_: VectorType, element: Type):
    """An lhs/rhs element in the acc's element type (signed integers are extended,
    as MLIR's lowering does with arith.extsi)."""
    source = type_.element_type
    if value is POISON or source == element:
        return value
    if isinstance(element, FloatType):
        return value
    return canonical_int(to_signed(value, source), element)


@impl(OuterProductOp)
def _outerproduct(interp: Interpreter, op: Operation, operands: list) -> list:
    """lhs[i] * rhs[j] (or * rhs, a scalar), then combined into acc by kind."""
    result_type = op.results[0].type
    element = result_type.element_type
    lhs = operands[0]
    rhs = operands[1]
    if isinstance(op.operands[1].type, VectorType):
        products = [_product(interp, element, a, b) for a in lhs for b in rhs]
    else:
        products = [_product(interp, element, a, rhs) for a in lhs]
    if len(operands) > 2:
        kind = op.attributes["kind"].value
        products = [combine_all(interp, kind, element, [acc, p])
                    for acc, p in zip(operands[2], products)]
    return [tuple(products)]


def _as_array(value, type_: Type):
    """A vector value as a numpy object array of its shape (a scalar as itself; a
    poison vector as one of poison elements)."""
    if not isinstance(type_, VectorType):
        return value
    array = np.empty(math.prod(type_.shape), dtype=object)
    array[:] = [POISON] * len(array) if value is POISON else list(value)
    return array.reshape(type_.shape)


def poison_of(type_: Type):
    """The poison value of `type_`: POISON, or a vector of POISON elements."""
    if isinstance(type_, VectorType):
        return (POISON,) * math.prod(type_.shape)
    return POISON


def _from_array(array, type_: Type):
    if not isinstance(type_, VectorType):
        return array
    return tuple(array.reshape(-1).tolist())


def _array_attr_ints(attr) -> list[int]:
    return [a.value for a in attr.elements]


def _position(op: Operation, dynamic: list, dims: tuple[int, ...]) -> tuple[int, ...] | None:
    """The position of an extract or insert, its `index` operands filled in; None when
    an entry is poison (-1) or lies outside its dim (a dynamic one: MLIR gives poison)."""
    values = iter(dynamic)
    position = tuple(next(values) if v == DYNAMIC_INDEX else v
                     for v in op.attributes["static_position"].values)
    if any(v is POISON or not 0 <= v < n for v, n in zip(position, dims)):
        return None
    return position


@impl(ExtractOp, handles_poison=True)
def _vector_extract(interp: Interpreter, op: Operation, operands: list) -> list:
    """The element or sub-vector at the position (poison at a position out of range)."""
    source_type = op.operands[0].type
    position = _position(op, operands[1:], source_type.shape)
    if position is None:
        return [poison_of(op.results[0].type)]
    array = _as_array(operands[0], source_type)
    return [_from_array(array[position], op.results[0].type)]


@impl(InsertOp, handles_poison=True)
def _vector_insert(interp: Interpreter, op: Operation, operands: list) -> list:
    """The dest with the element or sub-vector at the position replaced (poison at a
    position out of range)."""
    dest_type = op.operands[1].type
    position = _position(op, operands[2:], dest_type.shape)
    if position is None:
        return [poison_of(dest_type)]
    array = _as_array(operands[1], dest_type).copy()
    array[position] = _as_array(operands[0], op.operands[0].type)
    return [_from_array(array, op.results[0].type)]


@impl(ExtractStridedSliceOp)
def _vector_extract_strided_slice(interp: Interpreter, op: Operation, operands: list) -> list:
    """The slice at `offsets` of `sizes`, every `strides`-th element."""
    offsets, sizes, strides = (_array_attr_ints(op.attributes[k])
                               for k in ("offsets", "sizes", "strides"))
    array = _as_array(operands[0], op.operands[0].type)
    index = tuple(slice(o, o + n * s, s) for o, n, s in zip(offsets, sizes, strides))
    return [_from_array(array[index], op.results[0].type)]


@impl(InsertStridedSliceOp)
def _vector_insert_strided_slice(interp: Interpreter, op: Operation, operands: list) -> list:
    """The dest with the slice at `offsets` replaced by the source."""
    source_type, dest_type = op.operands[0].type, op.operands[1].type
    offsets = _array_attr_ints(op.attributes["offsets"])
    strides = [1] * (len(dest_type.shape) - len(source_type.shape)) + \
        _array_attr_ints(op.attributes["strides"])
    sizes = [1] * (len(dest_type.shape) - len(source_type.shape)) + list(source_type.shape)
    array = _as_array(operands[1], dest_type).copy()
    index = tuple(slice(o, o + n * s, s) for o, n, s in zip(offsets, sizes, strides))
    array[index] = _as_array(operands[0], source_type).reshape(sizes)
    return [_from_array(array, op.results[0].type)]


@impl(ShapeCastOp)
def _vector_shape_cast(interp: Interpreter, op: Operation, operands: list) -> list:
    """The same elements in the same order."""
    return [operands[0]]


@impl(BroadcastOp)
def _vector_broadcast(interp: Interpreter, op: Operation, operands: list) -> list:
    """numpy's broadcast of the source to the result shape."""
    result_type = op.results[0].type
    source = _as_array(operands[0], op.operands[0].type)
    array = np.empty(1, dtype=object)
    array[0] = source
    source = source if isinstance(op.operands[0].type, VectorType) else array.reshape(())
    return [_from_array(np.broadcast_to(source, result_type.shape), result_type)]


__all__: list[str] = []



# ------------------------------------------------------------ rearranging elements


@impl(TransposeOp, handles_poison=True)
def _vector_transpose(interp: Interpreter, op: Operation, operands: list) -> list:
    """numpy's transpose by the permutation."""
    array = _as_array(operands[0], op.operands[0].type)
    permutation = list(op.attributes["permutation"].values)
    return [_from_array(np.transpose(array, permutation), op.results[0].type)]


@impl(ShuffleOp, handles_poison=True)
def _vector_shuffle(interp: Interpreter, op: Operation, operands: list) -> list:
    """The leading-dim slices of v1 then v2, picked by the mask (-1: a poison slice)."""
    v1_type, v2_type = op.operands[0].type, op.operands[1].type
    result_type = op.results[0].type
    slices = []
    for value, type_ in zip(operands, (v1_type, v2_type)):
        array = _as_array(value, type_)
        slices.extend([array] if type_.rank == 0 else list(array))
    poison_slice = _as_array(poison_of(result_type), result_type)[0]
    picked = [slices[p] if p != -1 else poison_slice for p in op.attributes["mask"].values]
    return [_from_array(np.array(picked, dtype=object).reshape(result_type.shape), result_type)]


@impl(FromElementsOp, handles_poison=True)
def _vector_from_elements(interp: Interpreter, op: Operation, operands: list) -> list:
    return [tuple(operands)]


@impl(ToElementsOp, handles_poison=True)
def _vector_to_elements(interp: Interpreter, op: Operation, operands: list) -> list:
    return list(_as_array(operands[0], op.operands[0].type).reshape(-1))


@impl(InterleaveOp, handles_poison=True)
def _vector_interleave(interp: Interpreter, op: Operation, operands: list) -> list:
    """lhs and rhs alternating along the trailing dim."""
    type_ = op.operands[0].type
    lhs, rhs = (_as_array(v, type_) for v in operands)
    joined = np.stack([lhs, rhs], axis=-1)
    return [_from_array(joined, op.results[0].type)]


@impl(DeinterleaveOp, handles_poison=True)
def _vector_deinterleave(interp: Interpreter, op: Operation, operands: list) -> list:
    """The even, then the odd elements of the trailing dim."""
    array = _as_array(operands[0], op.operands[0].type)
    type_ = op.results[0].type
    return [_from_array(array[..., 0::2], type_), _from_array(array[..., 1::2], type_)]


@impl(StepOp)
def _vector_step(interp: Interpreter, op: Operation, operands: list) -> list:
    return [tuple(range(op.results[0].type.shape[0]))]


@impl(VectorScaleOp)
def _vector_vscale(interp: Interpreter, op: Operation, operands: list) -> list:
    """The interpreter's scalable vectors hold their base size: vscale is 1."""
    return [1]


# ------------------------------------------------------------------------ masks


def _mask_value(sizes: list[int], type_: VectorType) -> tuple:
    return tuple(normalize(bit, i1) for bit in box_mask(sizes, type_))


@impl(ConstantMaskOp)
def _vector_constant_mask(interp: Interpreter, op: Operation, operands: list) -> list:
    """True where every index is below its dim's size."""
    return [_mask_value(list(op.attributes["mask_dim_sizes"].values), op.results[0].type)]


@impl(CreateMaskOp, handles_poison=True)
def _vector_create_mask(interp: Interpreter, op: Operation, operands: list) -> list:
    """As constant_mask, the sizes being the operands' values."""
    if any(v is POISON for v in operands):
        return [poison_of(op.results[0].type)]
    return [_mask_value([to_signed(v, IndexType()) for v in operands], op.results[0].type)]


def _enabled(mask) -> list[bool]:
    return [bool(bit) for bit in mask]


_ENCLOSING_MASKS: dict[Operation, tuple] = {}
"""The mask of the `vector.mask` being run, by the op it masks (its handler reads it)."""


def enclosing_mask(op: Operation):
    """The mask a `vector.mask` applies to `op` while it runs, or None."""
    return _ENCLOSING_MASKS.get(op)


@impl(MaskOp, handles_poison=True)
def _vector_mask(interp: Interpreter, op: Operation, operands: list) -> list:
    """Runs the region, its op under the mask (transfers read and write only the
    enabled elements; a reduction combines only those); the result's masked-off
    elements are passthru's if given."""
    mask = operands[0]
    masked = op.masked_op
    if masked is not None:
        if not isinstance(masked, (TransferReadOp, TransferWriteOp, ReductionOp)):
            raise UnsupportedOperation(f"'{masked.name}' under vector.mask is not interpreted")
        _ENCLOSING_MASKS[masked] = mask
    try:
        results = interp.run_region(op.regions[0], [])
    finally:
        _ENCLOSING_MASKS.pop(masked, None)
    if len(operands) > 1 and results:
        results[0] = tuple(r if on else p for r, p, on in
                           zip(results[0], operands[1], (bool(b) for b in mask)))
    return results


@impl(YieldOp, handles_poison=True)
def _vector_yield(interp: Interpreter, op: Operation, operands: list):
    return Yield(list(operands))
