"""What the `loop` dialect's ops do, for :mod:`mlc.ir.interpreter`.

Buffers are the interpreter's memrefs (numpy arrays shared by reference). A
`loop.for` runs its body once per value of its variable, whatever its kind (the
kind says how a compiler may run the iterations, not what they compute); a
`loop.block` binds its iteration variables from the loop variables and runs its body
where its predicate holds;
`loop.init` runs when every reduce variable of its block is 0; `loop.check_index` raises
UndefinedBehavior for an index outside its bound; `loop.constant` gives a
fresh copy of its elements. A new buffer is
filled with NaN (floats) or a recognisable pattern (integers), so a kernel that reads
storage it never wrote gives visibly wrong results instead of plausible zeros.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from mlc.graph.ops.constant import constant_array
from mlc.ir.core.ir import Operation
from mlc.ir.interpreter import (
    Interpreter,
    UndefinedBehavior,
    UnsupportedOperation,
    buffer_dtype,
    impl,
    load_element,
    normalize,
    store_element,
)
from mlc.loop.block_band import band_plan, run_band
from mlc.loop.block_vectorized import NotVectorizable, run_nest_vectorized, vectorized_plan
from mlc.loop.ops import (
    AllocBufferOp,
    BlockOp,
    CheckIndexOp,
    ConstantOp,
    ForOp,
    InitOp,
    LoadOp,
    StoreOp,
    ViewOp,
)

UNINITIALISED_INT = 0x5A  # repeated in every byte of a new integer buffer


@impl(AllocBufferOp)
def _alloc_buffer(interp: Interpreter, op: Operation, operands: list) -> list:
    type_ = op.results[0].type
    dtype = buffer_dtype(type_.element_type)
    if dtype.kind == "f":
        return [np.full(type_.shape, np.nan, dtype)]
    if dtype.kind == "b":
        return [np.ones(type_.shape, dtype)]
    if dtype.kind in "iu":
        return [np.full(type_.shape, 0x5A5A5A5A5A5A5A5A, np.uint64).astype(dtype)]
    return [np.full(type_.shape, UNINITIALISED_INT, dtype)]


@impl(ConstantOp)
def _constant(interp: Interpreter, op: Operation, operands: list) -> list:
    # A copy: the attribute's elements are shared (and read-only), a buffer is not.
    type_ = op.results[0].type
    return [np.array(np.broadcast_to(constant_array(op.attributes["value"]), type_.shape),
                     dtype=buffer_dtype(type_.element_type), order="C")]


VECTORIZED = True
"""Whether loop nests that allow it run in bulk with numpy (:mod:`mlc.loop.block_vectorized`);
False runs every iteration on the scalar path (what the tests compare it with)."""


@contextmanager
def scalar_loops() -> Iterator[None]:
    """Run loop nests one iteration at a time while inside (the reference the fast path
    is checked against)."""
    global VECTORIZED
    saved, VECTORIZED = VECTORIZED, False
    try:
        yield
    finally:
        VECTORIZED = saved


@impl(ForOp)
def _for(interp: Interpreter, op: ForOp, operands: list) -> list:
    if VECTORIZED:
        plan = vectorized_plan(interp, op)
        if plan is not None:
            try:
                run_nest_vectorized(interp, plan)
                return []
            except NotVectorizable:
                pass  # found before anything ran: the scalar path below
        else:
            band = band_plan(interp, op)
            if band is not None and run_band(interp, band):
                return []
    body = op.regions[0]
    for value in range(op.extent.value):
        interp.run_region(body, [value])
    return []


@impl(BlockOp)
def _block(interp: Interpreter, op: BlockOp, operands: list) -> list:
    if not op.predicate_holds(operands):
        return []
    values = op.binding_map.value.evaluate(operands)
    interp.run_region(op.regions[0], list(values))
    return []


@impl(InitOp)
def _init(interp: Interpreter, op: InitOp, operands: list) -> list:
    block = op.parent_op
    env = interp.env
    if all(env[v] == 0 for v, kind in zip(block.iteration_variables, block.kinds)
           if kind == "R"):
        interp.run_region(op.regions[0], [])
    return []


@impl(LoadOp)
def _load(interp: Interpreter, op: LoadOp, operands: list) -> list:
    buffer = operands[0]
    indices = op.index_map.evaluate(operands[1:])
    padding = op.attributes.get("padding")
    if padding is not None and not all(0 <= i < n for i, n in zip(indices, buffer.shape)):
        return [normalize(padding.value, op.results[0].type)]
    return [load_element(buffer, indices, op.results[0].type)]


@impl(StoreOp)
def _store(interp: Interpreter, op: StoreOp, operands: list) -> list:
    store_element(operands[1], op.index_map.evaluate(operands[2:]), operands[0])
    return []


@impl(CheckIndexOp)
def _check_index(interp: Interpreter, op: Operation, operands: list) -> list:
    bound = op.attributes["bound"].value
    if not 0 <= operands[0] < bound:
        raise UndefinedBehavior(f"index {operands[0]} is out of range [0, {bound}) in "
                                f"{op.attributes['target'].value}")
    return [operands[0]]


@impl(ViewOp)
def _view(interp: Interpreter, op: Operation, operands: list) -> list:
    type_ = op.results[0].type
    dtype = buffer_dtype(type_.element_type)
    count = int(np.prod(type_.shape, dtype=np.int64))
    storage = operands[0]
    if dtype == np.dtype(object):
        raise UnsupportedOperation(f"views of {type_.element_type} are not supported")
    return [storage[:count * dtype.itemsize].view(dtype).reshape(type_.shape)]
