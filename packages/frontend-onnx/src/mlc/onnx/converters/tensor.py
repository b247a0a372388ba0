"""ONNX ops that move, select or make tensors: shapes, layouts, slicing, constants."""

from __future__ import annotations

import math

import numpy as np

from mlc.graph.ops.transform import PAD_MODES
from mlc.ir import Value
from mlc.onnx.node import Node
from mlc.onnx.registry import converter
from mlc.onnx.types import element_type, numpy_dtype


def _dtype_of(value: Value) -> np.dtype:
    from mlc.ir import element_dtype

    return element_dtype(value.type.element_type)


def _axis(node: Node, axis: int, rank: int) -> int:
    node.check(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


# -- constants


@converter("Constant", 12)
def constant(node: Node) -> Value:
    for name, dtype in (("value", None), ("value_float", np.float32), ("value_floats", np.float32),
                        ("value_int", np.int64), ("value_ints", np.int64)):
        if node.has_attr(name):
            return node.b.const(np.asarray(node.attr(name), dtype))
    raise node.unsupported("only tensor and numeric Constant values are supported "
                           "(not sparse_value or strings)")


@converter("Constant", 1)
def constant_1(node: Node) -> Value:
    return node.b.const(np.asarray(node.attr("value")))


@converter("ConstantOfShape", 9)
def constant_of_shape(node: Node) -> Value:
    shape = [int(d) for d in node.constant(0)]
    node.check(all(d >= 0 for d in shape), f"shape {shape} has a negative extent")
    value = node.attr("value", np.zeros(1, np.float32)).reshape(())
    # A splat, however large: graph ops and fold-constant keep splats as one element.
    return node.b.const(np.broadcast_to(value, shape))


@converter("Range", 11)
def range_(node: Node) -> Value:
    start, limit, delta = (node.constant(i) for i in range(3))
    node.check(all(v.size == 1 for v in (start, limit, delta)),
               "start, limit and delta must be scalars")
    start, limit, delta = (v.reshape(()) for v in (start, limit, delta))
    node.check(delta != 0, "delta is zero")
    python = int if start.dtype.kind in "iu" else float
    return node.b.range(start=python(start), limit=python(limit), delta=python(delta),
                        dtype=node.type(0).element_type)


@converter("Shape", 15)
def shape_(node: Node) -> Value:
    shape = node.shape(0)
    start, end = node.attr("start", 0), node.attr("end", len(shape))
    return node.b.const(np.array(shape[slice(start, end)], np.int64).reshape(-1))


@converter("Shape", 1)
def shape_1(node: Node) -> Value:
    return node.b.const(np.array(node.shape(0), np.int64).reshape(-1))


@converter("Size", 1)
def size(node: Node) -> Value:
    return node.b.const(np.array(math.prod(node.shape(0)), np.int64))


# -- casts


@converter("Cast", 6)
def cast(node: Node) -> Value:
    to = node.attr("to")
    numpy_dtype(to)  # an unsupported target type is named here
    return _cast_to(node, node.input(0), element_type(to))


@converter("CastLike", 15)
def cast_like(node: Node) -> Value:
    return _cast_to(node, node.input(0), node.type(1).element_type)


def _cast_to(node: Node, x: Value, element) -> Value:
    return x if x.type.element_type == element else node.b.cast(x, dtype=element)


@converter("BitCast", 26)
def bitcast(node: Node) -> Value:
    to = node.attr("to")
    numpy_dtype(to)  # an unsupported target type is named here
    x, element = node.input(0), element_type(to)
    return x if x.type.element_type == element else node.b.bitcast(x, dtype=element)


@converter("EyeLike", 9)
def eye_like(node: Node) -> Value:
    """Ones on the diagonal shifted by `k`, zeros elsewhere, of the input's shape: a
    constant (shapes are static)."""
    x = node.input(0)
    node.check(len(x.type.shape) == 2, f"the input must be 2-D, got shape {list(x.type.shape)}")
    dtype = numpy_dtype(node.attr("dtype")) if node.attr("dtype", 0) else _dtype_of(x)
    rows, columns = x.type.shape
    return node.b.const(np.eye(rows, columns, k=node.attr("k", 0), dtype=dtype))


@converter("TensorScatter", 24)
def tensor_scatter(node: Node) -> Value:
    """The cache with each batch entry's update written along `axis` from its write
    index on (linear), or wrapping around the axis (circular)."""
    b = node.b
    cache, update, starts = node.input(0), node.input(1), node.optional_input(2)
    shape, rank = cache.type.shape, len(cache.type.shape)
    axis = _axis(node, node.attr("axis", -2), rank)
    node.check(axis > 0, "axis 0 is the batch axis")
    mode = node.attr("mode", "linear")
    node.check(mode in ("linear", "circular"), f"mode '{mode}' is not supported")
    count, extent = update.type.shape[axis], shape[axis]
    steps = np.arange(count, dtype=np.int64).reshape([count if a == axis else 1
                                                      for a in range(rank)])
    index = b.const(steps)
    if starts is not None:
        per_entry = b.reshape(_cast_to(node, starts, element_type(7)),
                              shape=[shape[0], *[1] * (rank - 1)])
        index = b.add(index, per_entry)
    if mode == "circular":
        index = b.mod(index, b.const(np.array(extent, np.int64)))
    index = b.broadcast_to(index, shape=list(update.type.shape))
    return b.scatter_elements(cache, index, update, axis=axis)


# -- shapes and layouts


@converter("Reshape", 5)
def reshape(node: Node) -> Value:
    return reshape_to(node, node.input(0), [int(d) for d in node.constant(1)],
                      bool(node.attr("allowzero", 0)))


def reshape_to(node: Node, x: Value, target: list[int], allow_zero: bool) -> Value:
    """`x` reshaped to ONNX's `target` (0 copies the input's extent unless
    `allow_zero`; one -1 takes what is left)."""
    shape = [x.type.shape[i] if d == 0 and not allow_zero else d for i, d in enumerate(target)]
    if -1 in shape:
        node.check(shape.count(-1) == 1, "the shape has more than one -1")
        known = math.prod(d for d in shape if d != -1)
        node.check(known != 0 and math.prod(x.type.shape) % known == 0,
                   f"cannot reshape {list(x.type.shape)} to {target}")
        shape[shape.index(-1)] = math.prod(x.type.shape) // known
    node.check(math.prod(shape) == math.prod(x.type.shape),
               f"cannot reshape {list(x.type.shape)} to {target}")
    return node.b.reshape(x, shape=shape, allowzero=allow_zero and 0 in shape)


@converter("Flatten", 1)
def flatten(node: Node) -> Value:
    x = node.input(0)
    rank = len(x.type.shape)
    axis = node.attr("axis", 1)
    node.check(-rank <= axis <= rank, f"axis {axis} is out of range for rank {rank}")
    return node.b.flatten(x, axis=axis + rank if axis < 0 else axis)


@converter("Transpose", 1)
def transpose(node: Node) -> Value:
    x = node.input(0)
    perm = node.attr("perm", list(reversed(range(len(x.type.shape)))))
    return node.b.transpose(x, axes=list(perm))


@converter("Squeeze", 13)
def squeeze(node: Node) -> Value:
    axes = node.optional_constant(1)
    return _squeeze(node, [] if axes is None else [int(a) for a in axes])


@converter("Squeeze", 1)
def squeeze_1(node: Node) -> Value:
    return _squeeze(node, list(node.attr("axes", [])))


def _squeeze(node: Node, axes: list[int]) -> Value:
    x = node.input(0)
    rank = len(x.type.shape)
    axes = [_axis(node, a, rank) for a in axes]
    for a in axes:
        node.check(x.type.shape[a] == 1, f"axis {a} has extent {x.type.shape[a]}, not 1")
    return node.b.squeeze(x, axes=sorted(axes))


@converter("Unsqueeze", 13)
def unsqueeze(node: Node) -> Value:
    return _unsqueeze(node, [int(a) for a in node.constant(1).reshape(-1)])


@converter("Unsqueeze", 1)
def unsqueeze_1(node: Node) -> Value:
    return _unsqueeze(node, list(node.attr("axes")))


def _unsqueeze(node: Node, axes: list[int]) -> Value:
    x = node.input(0)
    rank = len(x.type.shape) + len(axes)
    axes = sorted(_axis(node, a, rank) for a in axes)
    node.check(len(set(axes)) == len(axes), "axes repeat")
    shape, source = [], iter(x.type.shape)
    for i in range(rank):
        shape.append(1 if i in axes else next(source))
    return node.b.reshape(x, shape=shape)


@converter("Concat", 4)
def concat(node: Node) -> Value:
    inputs = [v for v in node.inputs if v is not None]
    axis = _axis(node, node.attr("axis"), len(inputs[0].type.shape))
    return node.b.concat(inputs, axis=axis)


@converter("Expand", 8)
def expand(node: Node) -> Value:
    x, shape = node.input(0), [int(d) for d in node.constant(1)]
    try:
        result = np.broadcast_shapes(x.type.shape, tuple(shape))
    except ValueError:
        raise node.unsupported(f"shape {shape} does not broadcast with {list(x.type.shape)}") from None
    if tuple(result) == x.type.shape:
        return x
    return node.b.broadcast_to(x, shape=list(result))


@converter("Tile", 6)
def tile(node: Node) -> Value:
    return node.b.tile(node.input(0), repeats=[int(r) for r in node.constant(1)])


# -- selection


@converter("Gather", 11)
def gather(node: Node) -> Value:
    data = node.input(0)
    return node.b.gather(data, node.input(1), axis=_axis(node, node.attr("axis", 0), len(data.type.shape)))


@converter("GatherElements", 11)
def gather_elements(node: Node) -> Value:
    data = node.input(0)
    axis = _axis(node, node.attr("axis", 0), len(data.type.shape))
    return node.b.gather_elements(data, node.input(1), axis=axis)


@converter("Trilu", 14)
def trilu(node: Node) -> Value:
    """The upper (or lower) triangle of the last two axes, from diagonal k; zeros elsewhere."""
    x = node.input(0)
    node.check(len(x.type.shape) >= 2, "the input needs at least two axes")
    k = node.optional_constant(1)
    k = 0 if k is None else int(k)
    rows, columns = x.type.shape[-2:]
    ones = np.ones((rows, columns), np.bool_)
    keep = np.triu(ones, k) if node.attr("upper", 1) else np.tril(ones, k)
    zeros = np.zeros((), _dtype_of(x))
    return node.b.where(node.b.const(keep), x, node.b.const(zeros, dtype=x.type.element_type))


@converter("Where", 9)
def where(node: Node) -> Value:
    return node.b.where(node.input(0), node.input(1), node.input(2))


@converter("Slice", 10)
def slice_(node: Node) -> Value:
    x = node.input(0)
    starts = [int(v) for v in node.constant(1)]
    ends = [int(v) for v in node.constant(2)]
    axes = node.optional_constant(3)
    steps = node.optional_constant(4)
    rank = len(x.type.shape)
    axes = list(range(len(starts))) if axes is None else [_axis(node, int(a), rank) for a in axes]
    steps = [1] * len(starts) if steps is None else [int(s) for s in steps]
    node.check(0 not in steps, "a step is zero")
    return node.b.slice(x, starts=starts, ends=ends, axes=axes, steps=steps)


@converter("Split", 18)
def split(node: Node) -> list[Value]:
    return _split(node, node.optional_constant(1), node.attr("num_outputs", None))


@converter("Split", 13)
def split_13(node: Node) -> list[Value]:
    return _split(node, node.optional_constant(1), None)


@converter("Split", 2)
def split_2(node: Node) -> list[Value]:
    return _split(node, node.attr("split", None), None)


def _split(node: Node, sizes, num_outputs: int | None) -> list[Value]:
    x = node.input(0)
    axis = _axis(node, node.attr("axis", 0), len(x.type.shape))
    extent = x.type.shape[axis]
    if sizes is not None:
        sections = [int(s) for s in np.asarray(sizes).reshape(-1)]
    else:
        parts = num_outputs or len(node.proto.output)
        chunk = math.ceil(extent / parts)  # ONNX 18: the last piece is the smaller one
        sections = [min(chunk, extent - i * chunk) for i in range(parts)]
    node.check(sum(sections) == extent and all(s >= 0 for s in sections),
               f"split sizes {sections} do not add up to the extent {extent}")
    result = node.b.split(x, sections=sections, axis=axis)
    return result if isinstance(result, list) else [result]


@converter("Pad", 11)
def pad(node: Node) -> Value:
    x = node.input(0)
    rank = len(x.type.shape)
    pads = [int(p) for p in node.constant(1)]
    value = node.optional_constant(2)
    axes = node.optional_constant(3)
    axes = list(range(rank)) if axes is None else [_axis(node, int(a), rank) for a in axes]
    node.check(len(pads) == 2 * len(axes), f"pads has {len(pads)} values for {len(axes)} axes")
    full = [0] * 2 * rank
    for i, axis in enumerate(axes):
        full[axis], full[rank + axis] = pads[i], pads[len(axes) + i]
    fill = 0.0 if value is None or value.size == 0 else float(value.reshape(-1)[0])
    return _pad(node, x, full, node.attr("mode", "constant"), fill)


@converter("Pad", 2)
def pad_2(node: Node) -> Value:
    return _pad(node, node.input(0), list(node.attr("pads")), node.attr("mode", "constant"),
                float(node.attr("value", 0.0)))


def _pad(node: Node, x: Value, pads: list[int], mode: str, fill: float) -> Value:
    """ONNX's pads (begins, then ends; negative ones crop) in `mode`: the crops as a
    slice first, then the padding."""
    node.check(mode in PAD_MODES, f"mode '{mode}' is not supported ({', '.join(PAD_MODES)} are)")
    rank = len(x.type.shape)
    crops = [(axis, -pads[axis], x.type.shape[axis] + pads[rank + axis]) for axis in range(rank)
             if pads[axis] < 0 or pads[rank + axis] < 0]
    if crops:
        starts = [max(start, 0) for _, start, _ in crops]
        ends = [max(end, start) for (_, _, end), start in zip(crops, starts)]
        x = node.b.slice(x, starts=starts, ends=ends, axes=[a for a, _, _ in crops],
                         steps=[1] * len(crops))
        pads = [max(p, 0) for p in pads]
    if not any(pads):
        return x
    return node.b.pad(x, pads=pads, value=fill, mode=mode)
