"""Interpreter handlers of the `memref` dialect (see :mod:`mlc.ir.interpreter`).

A memref is a numpy array: `alloc`/`alloca` make a fresh one (zeros: MLIR leaves the
contents undefined, and a program reading them has no defined result), the views
(`subview`, `cast`, `expand_shape`, `collapse_shape`, `reinterpret_cast`) are numpy
views of the same memory, so a store through one is seen through all. A global's
array is made once per interpreter run, on its first `get_global`; a constant
global's array is read-only, and writing it is undefined behaviour.
"""

from __future__ import annotations

import math

import numpy as np

from mlc.ir.core.attributes import (
    DenseElementsAttr,
    DenseResourceElementsAttr,
    MemRefType,
    Type,
    UnitAttr,
)
from mlc.ir.core.ir import Operation
from mlc.ir.dialects import arith
from mlc.ir.dialects.index_lists import mixed_values
from mlc.ir.dialects.memref.ops import (
    AllocaOp,
    AllocOp,
    AtomicRMWOp,
    CastOp,
    CollapseShapeOp,
    CopyOp,
    DeallocOp,
    DimOp,
    ExpandShapeOp,
    GetGlobalOp,
    LoadOp,
    ReinterpretCastOp,
    StoreOp,
    SubViewOp,
    ViewOp,
)
from mlc.ir.interpreter import (
    Interpreter,
    UndefinedBehavior,
    UnsupportedOperation,
    buffer_dtype,
    handler_for,
    impl,
    load_element,
    store_element,
)


def _fresh_buffer(op: Operation, sizes: list[int]) -> list:
    type_ = op.results[0].type
    dynamic = iter(sizes)
    shape = [next(dynamic) if d < 0 else d for d in type_.shape]
    if any(d < 0 for d in shape):
        raise UndefinedBehavior(f"'{op.name}' of a negative size {shape}")
    return [np.zeros(shape, dtype=buffer_dtype(type_.element_type))]


@impl(AllocOp, AllocaOp)
def _alloc(interp: Interpreter, op: Operation, operands: list) -> list:
    """A new zeroed buffer; the operands are the dynamic sizes."""
    return _fresh_buffer(op, operands[:len(op.dynamicSizes)])


@impl(DeallocOp)
def _dealloc(interp: Interpreter, op: Operation, operands: list) -> list:
    """Freeing is not modelled: the array lives on while referenced."""
    return []


@impl(LoadOp)
def _load(interp: Interpreter, op: Operation, operands: list) -> list:
    return [load_element(operands[0], operands[1:], op.results[0].type)]


def check_writable(buffer: np.ndarray) -> None:
    """A constant global's buffer is read-only: writing it is undefined."""
    if not buffer.flags.writeable:
        raise UndefinedBehavior("a store into a constant global")


@impl(StoreOp)
def _store(interp: Interpreter, op: Operation, operands: list) -> list:
    value, buffer, *indices = operands
    check_writable(buffer)
    store_element(buffer, indices, value)
    return []


class ArithCombine:
    """A binary arith op of one element type, as a scalar handler sees it (what an
    atomic update and a vector reduction combine elements with)."""

    __slots__ = ("name", "attributes", "operands", "results")

    def __init__(self, name: str, element: Type, fastmath=None):
        typed = type("Typed", (), {"type": element})
        self.name = name
        self.attributes = {"fastmath": fastmath} if fastmath is not None else {}
        self.operands = [typed, typed]
        self.results = [typed]


# The arith op each kind of memref.atomic_rmw combines with (`assign` takes the value).
ATOMIC_KIND_OPS = {"addf": arith.AddFOp, "addi": arith.AddIOp, "andi": arith.AndIOp,
                   "maximumf": arith.MaximumFOp, "maxnumf": arith.MaxNumFOp,
                   "maxs": arith.MaxSIOp, "maxu": arith.MaxUIOp, "minimumf": arith.MinimumFOp,
                   "minnumf": arith.MinNumFOp, "mins": arith.MinSIOp, "minu": arith.MinUIOp,
                   "mulf": arith.MulFOp, "muli": arith.MulIOp, "ori": arith.OrIOp,
                   "xori": arith.XOrIOp}


@impl(AtomicRMWOp)
def _atomic_rmw(interp: Interpreter, op: Operation, operands: list) -> list:
    """The interpreter runs one thread: read, combine, write; the old element."""
    value, buffer, *indices = operands
    check_writable(buffer)
    element = op.results[0].type
    old = load_element(buffer, indices, element)
    kind = op.kind_name
    if kind == "assign":
        new = value
    else:
        op_class = ATOMIC_KIND_OPS[kind]
        new = handler_for(op_class)(interp, ArithCombine(op_class.op_def.name, element),
                                    [old, value])[0]
    store_element(buffer, indices, new)
    return [old]


@impl(CopyOp)
def _copy(interp: Interpreter, op: Operation, operands: list) -> list:
    source, target = operands
    if source.shape != target.shape:
        raise UndefinedBehavior(f"memref.copy between shapes {list(source.shape)} and "
                                f"{list(target.shape)}")
    check_writable(target)
    target[...] = source
    return []


@impl(DimOp)
def _dim(interp: Interpreter, op: Operation, operands: list) -> list:
    buffer, index = operands
    if not 0 <= index < buffer.ndim:
        raise UndefinedBehavior(f"memref.dim of dim {index} of a rank-{buffer.ndim} buffer")
    return [int(buffer.shape[index])]


@impl(CastOp)
def _cast(interp: Interpreter, op: Operation, operands: list) -> list:
    """The same array; a static size of the target type it lacks is undefined."""
    target = op.results[0].type
    if isinstance(target, MemRefType):
        buffer = operands[0]
        if any(d >= 0 and d != n for d, n in zip(target.shape, buffer.shape)):
            raise UndefinedBehavior(f"memref.cast of a buffer of shape {list(buffer.shape)} "
                                    f"to {target}")
    return [operands[0]]


def _entries(op: Operation, static: str, dynamic: str, env_values: list) -> list[int]:
    """The values of a mixed static/dynamic list, its dynamic operands' values being
    `env_values` (in order)."""
    values = iter(env_values)
    return [next(values) if not isinstance(v, int) else v
            for v in mixed_values(op.attributes[static], getattr(op, dynamic))]


def _operand_values(op: Operation, operands: list, group: str) -> list:
    """The values of the operand group `group` among `operands`."""
    start, size = op.op_def.operand_segment(op, [d.name for d in op.op_def.operands].index(group))
    return operands[start:start + size]


@impl(SubViewOp)
def _subview(interp: Interpreter, op: Operation, operands: list) -> list:
    """A numpy view: a slice per dim, then the dims the result type drops indexed
    away."""
    from mlc.ir.dialects.memref.ops import dropped_dims, subview_type

    buffer = operands[0]
    offsets = _entries(op, "static_offsets", "offsets", _operand_values(op, operands, "offsets"))
    sizes = _entries(op, "static_sizes", "sizes", _operand_values(op, operands, "sizes"))
    strides = _entries(op, "static_strides", "strides", _operand_values(op, operands, "strides"))
    for dim, (offset, size, stride, limit) in enumerate(zip(offsets, sizes, strides,
                                                            buffer.shape)):
        if offset < 0 or size < 0 or stride < 1 or (size and offset + (size - 1) * stride >= limit):
            raise UndefinedBehavior(f"memref.subview out of bounds along dim {dim}")
    view = buffer[tuple(slice(o, o + (n - 1) * s + 1, s) if n else slice(o, o)
                        for o, n, s in zip(offsets, sizes, strides))]
    inferred = subview_type(op.operands[0].type, op.static_offsets.values,
                            op.static_sizes.values, op.static_strides.values)
    dropped = dropped_dims(inferred, op.results[0].type) or []
    return [view[tuple(0 if i in dropped else slice(None) for i in range(view.ndim))]]


def _reshaped(buffer: np.ndarray, shape: list[int]) -> np.ndarray:
    """A view of `buffer` with `shape` (never a copy: the verifier allows only
    reshapes of contiguous groups, which numpy can view)."""
    view = buffer.view()
    try:
        view.shape = tuple(shape)
    except AttributeError as exc:  # numpy would need to copy
        raise UnsupportedOperation(f"cannot view a buffer of strides {buffer.strides} with "
                                   f"shape {shape}") from exc
    return view


@impl(CollapseShapeOp)
def _collapse_shape(interp: Interpreter, op: Operation, operands: list) -> list:
    from mlc.ir.dialects.memref.ops import reassociation_groups

    buffer = operands[0]
    groups = reassociation_groups(op.reassociation)
    return [_reshaped(buffer, [int(np.prod([buffer.shape[d] for d in g])) for g in groups])]


@impl(ExpandShapeOp)
def _expand_shape(interp: Interpreter, op: Operation, operands: list) -> list:
    shape = _entries(op, "static_output_shape", "output_shape", operands[1:])
    if int(np.prod(shape)) != operands[0].size:
        raise UndefinedBehavior(f"memref.expand_shape to {shape} of {operands[0].size} elements")
    return [_reshaped(operands[0], shape)]


def _allocation(buffer: np.ndarray) -> tuple[np.ndarray, int]:
    """The array a view was taken from (its whole allocation) and the view's offset
    in it, in elements."""
    base = buffer
    while isinstance(base.base, np.ndarray):
        base = base.base
    start = buffer.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return base, start // buffer.itemsize


@impl(ReinterpretCastOp)
def _reinterpret_cast(interp: Interpreter, op: Operation, operands: list) -> list:
    """The source's allocation seen from `offset` with `sizes` and `strides`."""
    dynamic = operands[1:]
    offsets = _entries(op, "static_offsets", "offsets", _operand_values(op, operands, "offsets"))
    sizes = _entries(op, "static_sizes", "sizes", _operand_values(op, operands, "sizes"))
    strides = _entries(op, "static_strides", "strides", _operand_values(op, operands, "strides"))
    del dynamic
    base, _ = _allocation(operands[0])
    flat = base.reshape(-1) if base.flags.c_contiguous else None
    if flat is None:
        raise UnsupportedOperation("memref.reinterpret_cast of a non-contiguous allocation")
    last = offsets[0] + sum((n - 1) * s for n, s in zip(sizes, strides) if n)
    if offsets[0] < 0 or any(n and s < 0 for n, s in zip(sizes, strides)) or \
            (all(sizes) and last >= flat.size):
        raise UndefinedBehavior("memref.reinterpret_cast out of the bounds of its allocation")
    view = np.lib.stride_tricks.as_strided(
        flat[offsets[0]:], shape=tuple(sizes), strides=tuple(s * flat.itemsize for s in strides),
        writeable=flat.flags.writeable)
    return [view]


@impl(GetGlobalOp)
def _get_global(interp: Interpreter, op: Operation, operands: list) -> list:
    """The global's array, made on first use in this run from its initial value."""
    from mlc.ir.dialects.func.ops import lookup_symbol

    ref = op.attributes["name"]
    globals_ = interp.state.setdefault("memref.global", {})
    found = globals_.get(ref.root)
    if found is None:
        definition = lookup_symbol(op, ref)
        if definition is None:
            raise UnsupportedOperation(f"no memref.global @{ref.root}")
        found = globals_[ref.root] = _global_array(definition)
    return [found]


def _global_array(definition: Operation) -> np.ndarray:
    type_ = definition.attributes["type"].value
    dtype = buffer_dtype(type_.element_type)
    init = definition.attributes.get("initial_value")
    if init is None:
        raise UnsupportedOperation(f"memref.global @{definition.attributes['sym_name'].value} "
                                   "is external (it has no initial value)")
    if isinstance(init, UnitAttr):
        array = np.zeros(type_.shape, dtype=dtype)
    elif isinstance(init, DenseElementsAttr):
        array = np.array(np.broadcast_to(init.array, type_.shape), dtype=dtype)
    elif isinstance(init, DenseResourceElementsAttr) and init.array() is not None:
        array = np.array(init.array(), dtype=dtype)  # a copy: the blob stays read-only
    else:
        raise UnsupportedOperation(f"initial value {init} is not supported")
    if definition.attributes.get("constant") is not None:
        array.flags.writeable = False
    return array


@impl(ViewOp)
def _view(interp: Interpreter, op: Operation, operands: list) -> list:
    """The bytes from the shift on, seen as an array of the result type (a numpy
    view: writes go to the storage); a view past the storage's end is undefined."""
    storage, shift, *sizes = operands
    target = op.results[0].type
    dtype = buffer_dtype(target.element_type)
    sizes = iter(sizes)
    shape = tuple(next(sizes) if d < 0 else d for d in target.shape)
    count = math.prod(shape) * dtype.itemsize
    if dtype == np.dtype(object) or shift < 0 or shift + count > storage.shape[0] \
            or shift % dtype.itemsize:
        raise UndefinedBehavior(f"memref.view of {count} bytes at byte {shift} of a "
                                f"{storage.shape[0]}-byte buffer (as {target})")
    return [storage[shift:shift + count].view(dtype).reshape(shape)]
