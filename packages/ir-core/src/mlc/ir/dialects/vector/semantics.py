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

from mlc.ir.core.attributes import FloatType, Type, VectorType
from mlc.ir.core.ir import Operation
from mlc.ir.dialects.index_lists import DYNAMIC_INDEX
from mlc.ir.dialects.math.ops import FmaOp
from mlc.ir.dialects.memref.semantics import ArithCombine, check_writable
from mlc.ir.dialects.vector.compute import FMAOp, ReductionOp, combining_op
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
    handler_for,
    impl,
    load_element,
    map_elements,
    store_element,
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
    mask = operands[2 + rank] if len(operands) > 2 + rank else None
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
    mask = operands[2 + rank] if len(operands) > 2 + rank else None
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


@impl(ReductionOp)
def _reduction(interp: Interpreter, op: Operation, operands: list) -> list:
    """acc (if any), then each element, combined left to right."""
    element = op.results[0].type
    op_class = combining_op(op.attributes["kind"].value, element)
    combine = ArithCombine(op_class.op_def.name, element, op.attributes.get("fastmath")
                           if isinstance(element, FloatType) else None)
    values = list(operands[0])
    if len(operands) > 1:
        values.insert(0, operands[1])
    if any(v is POISON for v in values):
        return [POISON]
    result = values[0]
    handler = handler_for(op_class)
    for value in values[1:]:
        result = handler(interp, combine, [result, value])[0]
    return [result]


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

