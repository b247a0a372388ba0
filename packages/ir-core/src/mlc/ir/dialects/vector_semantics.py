"""Interpreter handlers of the `vector` ops that touch memory or reduce
(`vector.load`, `vector.store`, `vector.transfer_read`, `vector.transfer_write`,
`vector.fma`, `vector.reduction`); see :mod:`mlc.ir.interpreter` for the value model.
A reduction combines elements in order with the scalar handlers of the arith ops
:data:`~mlc.ir.dialects.vector_compute.KIND_OPS` names, so its rounding and NaN rules
are theirs.
"""

from __future__ import annotations

import itertools

from mlc.ir.core.ir import Operation
from mlc.ir.dialects.memref_semantics import ArithCombine, check_writable
from mlc.ir.interpreter import (
    OP_HANDLERS,
    POISON,
    Interpreter,
    UndefinedBehavior,
    _map_elements,
    load_element,
    register_handler,
    store_element,
)


def _positions(shape: tuple[int, ...]):
    return itertools.product(*(range(n) for n in shape))


@register_handler("vector.load")
def _load(interp: Interpreter, op: Operation, operands: list) -> list:
    """Row-major elements from the indices on, along the trailing dims."""
    buffer, *indices = operands
    shape = op.results[0].type.shape
    lead = len(indices) - len(shape)
    element = op.results[0].type.element_type
    return [tuple(load_element(buffer, [*indices[:lead], *(i + p for i, p in zip(
        indices[lead:], position))], element) for position in _positions(shape))]


@register_handler("vector.store")
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
    from mlc.ir.dialects.vector_memory import map_dims

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
    from mlc.ir.dialects.vector_memory import map_dims

    dims = map_dims(op.attributes["permutation_map"].value)
    promised = [a.value for a in op.attributes["in_bounds"].elements]
    for dim, inside in zip(dims, promised):
        if dim is not None and inside and not 0 <= index[dim] < buffer.shape[dim]:
            raise UndefinedBehavior(f"'{op.name}' leaves the bounds along dim {dim}, which "
                                    "in_bounds says it does not")


@register_handler("vector.transfer_read")
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


@register_handler("vector.transfer_write")
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


@register_handler("vector.fma")
def _fma(interp: Interpreter, op: Operation, operands: list) -> list:
    """math.fma on each element: one rounding."""
    return _map_elements(interp, OP_HANDLERS["math.fma"], op, operands)


@register_handler("vector.reduction")
def _reduction(interp: Interpreter, op: Operation, operands: list) -> list:
    """acc (if any), then each element, combined left to right."""
    from mlc.ir.dialects.vector_compute import combining_op

    element = op.results[0].type
    name = combining_op(op.attributes["kind"].value, element)
    combine = ArithCombine(name, element, op.attributes.get("fastmath") if name.endswith("f")
                       else None)
    values = list(operands[0])
    if len(operands) > 1:
        values.insert(0, operands[1])
    if any(v is POISON for v in values):
        return [POISON]
    result = values[0]
    handler = OP_HANDLERS[name]
    for value in values[1:]:
        result = handler(interp, combine, [result, value])[0]
    return [result]


__all__: list[str] = []

