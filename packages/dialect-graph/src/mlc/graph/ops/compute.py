"""Building blocks of the graph ops' compute rules (`compute(te, attrs, *inputs)`, see
`mlc.graph.op_base`): the types they accumulate and compare in, the final rounding,
and TOPI's reduction stage. A rule accumulates floats in its op's own precision, as
TVM's kernels and native code do (float32 for float32 tensors), where the op's numpy
reference computes in float64 and rounds once: the two agree within a float32
tolerance, not bit for bit.

`te` is `mlc.loop.te`, passed in by the caller, so this package does not import the
loop level."""

from __future__ import annotations

from types import ModuleType

from mlc.graph.types import tensor
from mlc.ir import FloatType, Type, f32, i1, i8


def result_shape(op_class, attrs, *inputs) -> tuple[int, ...]:
    """The shape of the first result of `op_class` on te tensors `inputs` (its shape
    inference on their types)."""
    types = [tensor(t.shape, t.dtype) for t in inputs]
    return tuple(op_class.infer(types, attrs)[0].shape)


def accumulator(element: Type) -> Type:
    """The type a sum or product of `element`s accumulates in: the element type itself
    (TOPI's default `out_dtype`) for f32, f64 and integers (the references' 64-bit
    integer accumulation wraps to the same bits once stored); float32 for the 16-bit
    floats, whose 8 or 11 significant bits would lose most of a long sum (and which
    native code computes in float32 anyway)."""
    if isinstance(element, FloatType) and element.width < 32:
        return f32
    return element


def ordered(element: Type) -> Type:
    """The type `element`s are compared in: i8 for i1, where a signed comparison would
    make true (-1) the smaller; the element type otherwise."""
    return i8 if element == i1 else element


def rounded(te: ModuleType, tensor, element: Type, name: str):
    """`tensor` converted once to `element` (itself when it has that type already)."""
    if tensor.dtype == element:
        return tensor
    return te.compute(tensor.shape, lambda *index: te.cast(tensor[index], element), name=name)


def reduction_index(rank: int, axes, keepdims: bool, out_index, reduce_axes) -> tuple:
    """The index into a reduced operand of rank `rank`: the reduce axes at the sorted
    `axes`, the output's indices elsewhere (skipping the kept extent-1 ones)."""
    outputs, reduced = iter(out_index), iter(reduce_axes)
    index = []
    for d in range(rank):
        if d in axes:
            index.append(next(reduced))
            if keepdims:
                next(outputs)
        else:
            index.append(next(outputs))
    return tuple(index)


def reduced_shape(shape, axes, keepdims: bool) -> tuple[int, ...]:
    """`shape` with `axes` dropped, or kept with extent 1."""
    if keepdims:
        return tuple(1 if d in axes else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in axes)


def reduce_stage(te: ModuleType, x, axes, keepdims: bool, combiner: str, dtype: Type,
                 name: str):
    """The `combiner` ("sum", "prod", "max" or "min") of `x`'s elements converted to
    `dtype` over `axes`: TOPI's reduction stage. Without axes, the converted elements."""
    axes = sorted(axes)
    reducer = getattr(te, combiner)

    def element(*out_index):
        reduce_axes = [te.reduce_axis(x.shape[a], name=f"k{a}") for a in axes]
        value = te.cast(x[reduction_index(len(x.shape), axes, keepdims, out_index,
                                          reduce_axes)], dtype)
        return reducer(value, axis=reduce_axes) if reduce_axes else value

    return te.compute(reduced_shape(x.shape, axes, keepdims), element, name=name)


def row_major_offset(index, shape) -> object:
    """The position of `index` in a row-major walk of `shape` (TOPI's ravel)."""
    offset = 0
    for i, extent in zip(index, shape):
        offset = offset * extent + i
    return offset


def row_major_index(offset, shape) -> tuple:
    """The index of `shape` at position `offset` of a row-major walk (TOPI's
    unravel_index); `offset` is in bounds, so the first axis needs no modulo."""
    index = []
    stride = 1
    for n, extent in reversed(list(enumerate(shape))):
        quotient = offset // stride if stride > 1 else offset
        index.append(quotient if n == 0 else quotient % extent)
        stride *= extent
    return tuple(reversed(index))


def from_end(te: ModuleType, value, extent: int):
    """An index `value` read from a tensor, a negative one counted from the end of an
    axis of `extent` (ONNX's indices). One outside [-extent, extent) stays outside:
    the access reports it, as the references do."""
    return te.if_then_else(value < 0, value + extent, value)
