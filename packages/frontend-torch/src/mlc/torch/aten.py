"""Converters of the ATen core ops that `torch.export` gives for Hugging Face
transformers (BERT, DistilBERT, GPT-2, T5, ViT) and torchvision's classification
models, beyond the layers of :mod:`mlc.torch.converters`: shape ops, comparisons and
masks, integer tensors (token ids, positions, indices), dtype conversions, tensor
factories, attention.

Shapes are static: factories (`arange`, `ones`, `full_like`) become constants, sizes
stay Python integers, so shape arithmetic folds at import.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from mlc.graph.builder import element_type_of_dtype
from mlc.ir import FloatType, Value, element_dtype
from mlc.torch.node import Node

Converter = Callable[[Node], object]
aten = torch.ops.aten


def _rank(x: Value) -> int:
    return len(x.type.shape)


def _axis(node: Node, axis: int, rank: int) -> int:
    node.check(-rank <= axis < rank, f"dimension {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def numpy_dtype(node: Node, dtype: torch.dtype) -> np.dtype:
    """The numpy dtype of torch `dtype` (Unsupported for one mlc has no type for)."""
    try:
        result = torch.empty((), dtype=dtype).numpy().dtype
        element_type_of_dtype(result)
        return result
    except (TypeError, ValueError, KeyError, RuntimeError):
        raise node.unsupported(f"dtype {dtype} is not supported") from None


def _constant(node: Node, array: np.ndarray) -> Value:
    return node.b.const(np.asarray(array), dtype=element_type_of_dtype(np.asarray(array).dtype))


def _as_tensor(node: Node, value, like: Value) -> Value:
    """`value` (a tensor, or a Python number) as a tensor: a number takes `like`'s
    element type, as torch's type promotion keeps a tensor's type against a scalar
    of its kind."""
    if isinstance(value, Value):
        return value
    node.check(isinstance(value, (int, float, bool)), f"operand {value!r} is not a number")
    dtype = element_dtype(like.type.element_type)
    if isinstance(value, float) and dtype.kind in "iub":
        dtype = np.dtype(np.float32)  # an integer tensor against a float: float (torch)
    return node.b.const(np.array(value, dtype), dtype=element_type_of_dtype(dtype))


def promoted(node: Node, a, b) -> tuple[Value, Value]:
    """Two operands, one of them maybe a number, with one element type: an integer
    tensor against a float operand becomes float (torch's promotion)."""
    like = a if isinstance(a, Value) else b
    a, b = _as_tensor(node, a, like), _as_tensor(node, b, like)
    ta, tb = a.type.element_type, b.type.element_type
    if ta != tb:
        if isinstance(tb, FloatType) and not isinstance(ta, FloatType):
            a = node.b.cast(a, dtype=tb)
        elif isinstance(ta, FloatType) and not isinstance(tb, FloatType):
            b = node.b.cast(b, dtype=ta)
        else:
            wide = ta if element_dtype(ta).itemsize >= element_dtype(tb).itemsize else tb
            a = a if ta == wide else node.b.cast(a, dtype=wide)
            b = b if tb == wide else node.b.cast(b, dtype=wide)
    return a, b


def _compare(graph_op: str, python: Callable) -> Converter:
    def convert(node: Node):
        a, b = node.arg(0, "input"), node.arg(1, "other")
        if not isinstance(a, Value) and not isinstance(b, Value):
            return python(a, b)
        return node.b.op(graph_op, *promoted(node, a, b))

    return convert


def _logical(graph_op: str, python: Callable) -> Converter:
    def convert(node: Node):
        a, b = node.arg(0, "input"), node.arg(1, "other")
        if not isinstance(a, Value) and not isinstance(b, Value):
            return python(a, b)
        a, b = promoted(node, a, b)
        if str(a.type.element_type) == "i1":
            return node.b.op("logical_" + graph_op, a, b)
        return node.b.op("bitwise_" + graph_op, a, b)

    return convert


def _elementwise(graph_op: str, python: Callable | None = None) -> Converter:
    def convert(node: Node):
        a, b = node.arg(0, "input"), node.arg(1, "other")
        if python is not None and not isinstance(a, Value) and not isinstance(b, Value):
            return python(a, b)
        return node.b.op(graph_op, *promoted(node, a, b))

    return convert


def _pow(node: Node):
    base, exponent = node.arg(0, "input"), node.arg(1, "exponent")
    if not isinstance(base, Value) and not isinstance(exponent, Value):
        return base ** exponent
    if isinstance(base, Value) and exponent == 2:
        return node.b.multiply(base, base)  # the usual square, exact
    if isinstance(base, Value) and exponent == 0.5 and isinstance(base.type.element_type, FloatType):
        return node.b.sqrt(base)
    return node.b.power(*promoted(node, base, exponent))


def floor_divide(node: Node):
    """a // b: of numbers in Python, of float tensors floor(a / b)."""
    a, b = node.arg(0, "input"), node.arg(1, "other")
    if not isinstance(a, Value) and not isinstance(b, Value):
        return a // b
    a, b = promoted(node, a, b)
    node.check(isinstance(a.type.element_type, FloatType),
               "floor division of integer tensors is not supported")
    return node.b.floor(node.b.divide(a, b))


def _unary(graph_op: str, **attributes) -> Converter:
    def convert(node: Node) -> Value:
        return node.b.op(graph_op, node.tensor(0, "input"), **attributes)

    return convert


def _identity(node: Node) -> Value:
    return node.tensor(0, "input")


def _nothing(node: Node) -> None:
    """Checks torch.export records about tensors (`_assert_tensor_metadata`): true of
    the traced program, so nothing to compute."""
    return None


# -- shapes


def _unsqueeze(node: Node) -> Value:
    x = node.tensor(0, "input")
    axis = _axis(node, node.arg(1, "dim"), _rank(x) + 1)
    return node.b.expand_dims(x, axis=axis)


def _squeeze(node: Node) -> Value:
    x = node.tensor(0, "input")
    dims = node.arg(1, "dim", None)
    rank = _rank(x)
    if dims is None:
        axes = [a for a, d in enumerate(x.type.shape) if d == 1]
    else:
        dims = [dims] if isinstance(dims, int) else list(dims)
        axes = sorted({_axis(node, d, max(rank, 1)) for d in dims})
        axes = [a for a in axes if a < rank and x.type.shape[a] == 1]  # torch skips others
    return node.b.squeeze(x, axes=axes) if axes else x


def _expand(node: Node) -> Value:
    x = node.tensor(0, "input")
    sizes = node.arg(1, "size")
    sizes = list(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)) else list(sizes)
    shape = x.type.shape
    lead = len(sizes) - len(shape)
    node.check(lead >= 0, f"cannot expand {list(shape)} to {sizes}")
    target = [shape[i - lead] if s == -1 else s for i, s in enumerate(sizes)]
    node.check(all(isinstance(s, int) and s >= 0 for s in target), f"sizes {sizes} are not static")
    if tuple(target) == shape:
        return x
    return node.b.broadcast_to(x, shape=target)


def _expand_as(node: Node) -> Value:
    x, other = node.tensor(0, "input"), node.tensor(1, "other")
    return x if x.type.shape == other.type.shape else \
        node.b.broadcast_to(x, shape=list(other.type.shape))


def _unflatten(node: Node) -> Value:
    x = node.tensor(0, "input")
    axis = _axis(node, node.arg(1, "dim"), _rank(x))
    sizes = list(node.arg(2, "sizes"))
    if -1 in sizes:
        known = math.prod(s for s in sizes if s != -1)
        sizes[sizes.index(-1)] = x.type.shape[axis] // max(known, 1)
    shape = [*x.type.shape[:axis], *sizes, *x.type.shape[axis + 1:]]
    node.check(math.prod(shape) == math.prod(x.type.shape), f"cannot unflatten to {sizes}")
    return node.b.reshape(x, shape=shape)


def _roll(node: Node) -> Value:
    x = node.tensor(0, "input")
    shifts, dims = node.arg(1, "shifts"), node.arg(2, "dims", [])
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = [dims] if isinstance(dims, int) else list(dims)
    node.check(len(dims) == len(shifts), "roll without dims is not supported")
    for shift, dim in zip(shifts, dims):
        axis = _axis(node, dim, _rank(x))
        extent = x.type.shape[axis]
        shift = shift % extent if extent else 0
        if shift:
            tail = node.b.slice(x, starts=[extent - shift], ends=[extent], axes=[axis], steps=[1])
            head = node.b.slice(x, starts=[0], ends=[extent - shift], axes=[axis], steps=[1])
            x = node.b.concat([tail, head], axis=axis)
    return x


def _slice_scatter(node: Node) -> Value:
    """aten.slice_scatter(input, src, dim, start, end, step): `input` with the slice
    [start:end:step] of axis `dim` replaced by `src` (what an in-place slice assignment,
    `x[:, a:b] = y`, exports as: Swin's shifted-window mask). Step 1 joins the pieces
    before and after `src` to it; another step scatters `src` to its positions."""
    x, source = node.tensor(0, "input"), node.tensor(1, "src")
    axis = _axis(node, node.arg(2, "dim", 0), _rank(x))
    extent = x.type.shape[axis]
    start, end, step = slice(node.arg(3, "start", None), node.arg(4, "end", None),
                             node.arg(5, "step", 1)).indices(extent)
    positions = np.arange(start, end, step)
    node.check(source.type.shape[axis] == positions.size,
               f"src has {source.type.shape[axis]} elements along dim {axis}, the slice "
               f"{positions.size}")
    if source.type.element_type != x.type.element_type:
        source = node.b.cast(source, dtype=x.type.element_type)
    if positions.size == 0:
        return x
    if step == 1:
        pieces = [node.b.slice(x, starts=[0], ends=[start], axes=[axis], steps=[1])] \
            if start > 0 else []
        pieces.append(source)
        if end < extent:
            pieces.append(node.b.slice(x, starts=[end], ends=[extent], axes=[axis], steps=[1]))
        return pieces[0] if len(pieces) == 1 else node.b.concat(pieces, axis=axis)
    shape = [1] * _rank(x)
    shape[axis] = positions.size
    index = node.b.broadcast_to(node.b.const(positions.reshape(shape).astype(np.int64)),
                                shape=list(source.type.shape))
    return node.b.scatter_elements(x, index, source, axis=axis)


def _einsum(node: Node) -> Value:
    """torch.einsum(equation, *operands) / aten.einsum(equation, operands):
    :func:`mlc.graph.einsum.einsum`."""
    from mlc.graph.einsum import EinsumError, einsum

    operands = node.arg(1, "tensors")
    operands = list(operands) if isinstance(operands, (list, tuple)) else \
        [node.tensor(i, "operand") for i in range(1, len(node.args))]
    node.check(all(isinstance(v, Value) for v in operands), "einsum's operands must be tensors")
    try:
        return einsum(node.b, node.arg(0, "equation"), operands)
    except EinsumError as exc:
        raise node.unsupported(str(exc)) from None


def _copy(node: Node) -> Value:
    """aten.copy(self, src): `src` broadcast to `self`'s shape in its element type (an
    assignment to a whole tensor, `x[:, 0:n] = y` over all n)."""
    x, source = node.tensor(0, "self"), node.tensor(1, "src")
    if source.type.element_type != x.type.element_type:
        source = node.b.cast(source, dtype=x.type.element_type)
    if source.type.shape != x.type.shape:
        source = node.b.broadcast_to(source, shape=list(x.type.shape))
    return source


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
              "circular": "wrap"}


def _pad(node: Node) -> Value:
    """F.pad / aten.pad: (before, after) pairs from the last axis backwards; negative
    amounts crop."""
    x = node.tensor(0, "input")
    pairs = list(node.arg(1, "pad"))
    mode = node.arg(2, "mode", "constant")
    value = node.arg(3, "value", None)
    node.check(mode in _PAD_MODES, f"mode {mode!r} is not supported")
    rank = _rank(x)
    node.check(len(pairs) % 2 == 0 and len(pairs) // 2 <= rank, f"pad {pairs} does not fit")
    pads = [0] * 2 * rank
    for i in range(len(pairs) // 2):
        axis = rank - 1 - i
        pads[axis], pads[rank + axis] = pairs[2 * i], pairs[2 * i + 1]
    if any(p < 0 for p in pads):
        starts = [max(-pads[a], 0) for a in range(rank)]
        ends = [x.type.shape[a] - max(-pads[rank + a], 0) for a in range(rank)]
        x = node.b.slice(x, starts=starts, ends=ends, axes=list(range(rank)), steps=[1] * rank)
        pads = [max(p, 0) for p in pads]
    if not any(pads):
        return x
    return node.b.pad(x, pads=pads, value=float(value or 0.0), mode=_PAD_MODES[mode])


# -- indexing


def _embedding(node: Node) -> Value:
    # aten.embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse)
    return node.b.gather(node.tensor(0, "weight"), node.tensor(1, "indices"), axis=0)


def _f_embedding(node: Node) -> Value:
    # F.embedding(input, weight, ...)
    return node.b.gather(node.tensor(1, "weight"), node.tensor(0, "input"), axis=0)


def _module_embedding(node: Node) -> Value:
    return node.b.gather(node.param("weight"), node.tensor(0, "input"), axis=0)


def _index(node: Node) -> Value:
    """aten.index.Tensor(x, [i0, None, i2, ...]): advanced indexing. One index tensor
    gathers along its axis; several on leading axes (broadcast together) pick
    elements by their tuples."""
    x = node.tensor(0, "input")
    indices = list(node.arg(1, "indices"))
    given = [(axis, i) for axis, i in enumerate(indices) if i is not None]
    node.check(all(isinstance(i, Value) for _, i in given), "indices must be tensors")
    node.check(all(str(i.type.element_type) not in ("i1",) for _, i in given),
               "boolean masks as indices are not supported (their result's shape depends on "
               "the data)")
    if len(given) == 1:
        axis, index = given[0]
        return node.b.gather(x, index, axis=axis)
    axes = [axis for axis, _ in given]
    node.check(axes == list(range(len(axes))),
               "several index tensors are supported on the leading axes only")
    shape = np.broadcast_shapes(*(i.type.shape for _, i in given))
    stacked = [node.b.expand_dims(i if i.type.shape == shape else
                                  node.b.broadcast_to(i, shape=list(shape)), axis=len(shape))
               for _, i in given]
    stacked = [node.b.cast(s, dtype=element_type_of_dtype(np.dtype(np.int64)))
               if str(s.type.element_type) != "i64" else s for s in stacked]
    return node.b.gather_nd(x, node.b.concat(stacked, axis=len(shape)))


def _gather(node: Node) -> Value:
    x = node.tensor(0, "input")
    axis = _axis(node, node.arg(1, "dim"), _rank(x))
    return node.b.gather_elements(x, node.tensor(2, "index"), axis=axis)


def _where(node: Node) -> Value:
    condition, a, b = node.tensor(0, "condition"), node.arg(1, "input"), node.arg(2, "other")
    like = a if isinstance(a, Value) else b
    node.check(isinstance(like, Value), "where of two numbers is not supported")
    a, b = promoted(node, a, b)
    return node.b.where(condition, a, b)


def _masked_fill(node: Node) -> Value:
    x, mask, value = node.tensor(0, "input"), node.tensor(1, "mask"), node.arg(2, "value")
    if isinstance(value, Value):
        value = value if value.type.element_type == x.type.element_type else \
            node.b.cast(value, dtype=x.type.element_type)
    else:
        value = node.b.const(np.array(value, element_dtype(x.type.element_type)),
                             dtype=x.type.element_type)
    return node.b.where(mask, value, x)


def _cumsum(node: Node) -> Value:
    x = node.tensor(0, "input")
    dtype = node.arg(2, "dtype", None)
    if dtype is not None:
        x = _cast(node, x, dtype)
    elif str(x.type.element_type) in ("i1", "i8", "i16", "i32"):
        x = _cast(node, x, torch.int64)  # torch sums small integers in int64
    return node.b.cumsum(x, axis=_axis(node, node.arg(1, "dim"), _rank(x)))


def _diff(node: Node) -> Value:
    x = node.tensor(0, "input")
    n, dim = node.arg(1, "n", 1), node.arg(2, "dim", -1)
    prepend, append = node.arg(3, "prepend", None), node.arg(4, "append", None)
    axis = _axis(node, dim, _rank(x))
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = node.b.concat(parts, axis=axis)
    for _ in range(n):
        extent = x.type.shape[axis]
        later = node.b.slice(x, starts=[1], ends=[extent], axes=[axis], steps=[1])
        earlier = node.b.slice(x, starts=[0], ends=[max(extent - 1, 0)], axes=[axis], steps=[1])
        x = node.b.logical_xor(later, earlier) if str(x.type.element_type) == "i1" \
            else node.b.subtract(later, earlier)
    return x


# -- dtypes and factories


def _cast(node: Node, x: Value, dtype: torch.dtype) -> Value:
    """`x` converted to `dtype`. A float outside an integer type's range (or NaN) has
    no defined conversion, in C and in graph.cast; torch gives whatever the machine
    does, and models compute such values only to discard them (T5's position buckets
    take log(0) = -inf, then `where` picks the other branch). Saturating first makes
    the conversion defined: NaN to 0, others to the nearest value of the type."""
    target = numpy_dtype(node, dtype)
    element = element_type_of_dtype(target)
    if x.type.element_type == element:
        return x
    source = element_dtype(x.type.element_type)
    if source.kind == "f" and target.kind in "iu":
        info = np.iinfo(target)
        high = np.nextafter(source.type(info.max), source.type(0))  # below 2^bits
        clipped = node.b.clip(x, min=float(info.min), max=float(min(high, info.max)))
        zero = node.b.const(np.array(0, source), dtype=x.type.element_type)
        x = node.b.where(node.b.isnan(x), zero, clipped)
    return node.b.cast(x, dtype=element)


def _to(node: Node):
    """aten.to / _to_copy / Tensor.to / .type: the dtype, if one is given; devices,
    layouts and memory formats are all one here."""
    x = node.tensor(0, "input")
    dtype = node.kwargs.get("dtype")
    for value in node.args[1:]:
        if isinstance(value, torch.dtype):
            dtype = value
        elif isinstance(value, Value):
            dtype = None
            return x if x.type.element_type == value.type.element_type else \
                node.b.cast(x, dtype=value.type.element_type)
    return x if dtype is None else _cast(node, x, dtype)


def _type_method(node: Node):
    return _to(node)


def _arange(node: Node) -> Value:
    numbers = [a for a in node.args if isinstance(a, (int, float))]
    node.check(len(numbers) == len(node.args), "arange takes numbers (static sizes)")
    if len(numbers) == 1:
        start, end, step = 0, numbers[0], 1
    elif len(numbers) == 2:
        (start, end), step = numbers, 1
    else:
        start, end, step = numbers[:3]
    start = node.kwargs.get("start", start)
    end = node.kwargs.get("end", end)
    step = node.kwargs.get("step", step)
    dtype = node.kwargs.get("dtype")
    if dtype is None:
        dtype = torch.int64 if all(isinstance(v, int) for v in (start, end, step)) \
            else torch.get_default_dtype()
    return _constant(node, torch.arange(start, end, step, dtype=dtype).numpy())


def _filled(node: Node, shape, value, dtype: torch.dtype | None, like: Value | None) -> Value:
    if dtype is None:
        dtype = None if like is None else None
    np_dtype = numpy_dtype(node, dtype) if dtype is not None else \
        element_dtype(like.type.element_type) if like is not None else \
        numpy_dtype(node, torch.get_default_dtype())
    shape = list(shape[0]) if len(shape) == 1 and isinstance(shape[0], (list, tuple)) else list(shape)
    node.check(all(isinstance(s, int) for s in shape), f"size {shape} is not static")
    return node.b.const(np.broadcast_to(np.array(value, np_dtype), shape),
                        dtype=element_type_of_dtype(np_dtype))


def _factory(value) -> Converter:
    """torch.ones / zeros (aten.ones, aten.zeros): a splat constant."""
    def convert(node: Node) -> Value:
        sizes = [a for a in node.args if not isinstance(a, torch.dtype)]
        return _filled(node, sizes, value, node.kwargs.get("dtype"), None)

    return convert


def _full(node: Node) -> Value:
    return _filled(node, [node.arg(0, "size")], node.arg(1, "fill_value"),
                   node.kwargs.get("dtype"), None)


def _new_factory(value) -> Converter:
    """x.new_ones(size) / new_zeros: x's dtype unless one is given."""
    def convert(node: Node) -> Value:
        x = node.tensor(0, "input")
        return _filled(node, [node.arg(1, "size")], value, node.kwargs.get("dtype"), x)

    return convert


def _new_full(node: Node) -> Value:
    x = node.tensor(0, "input")
    return _filled(node, [node.arg(1, "size")], node.arg(2, "fill_value"),
                   node.kwargs.get("dtype"), x)


def _like(value) -> Converter:
    """ones_like / zeros_like: x's shape and (unless given) dtype."""
    def convert(node: Node) -> Value:
        x = node.tensor(0, "input")
        return _filled(node, [x.type.shape], value, node.kwargs.get("dtype"), x)

    return convert


def _full_like(node: Node) -> Value:
    x = node.tensor(0, "input")
    return _filled(node, [x.type.shape], node.arg(1, "fill_value"), node.kwargs.get("dtype"), x)


def _fill(node: Node) -> Value:
    """aten.fill(x, value): x's shape and dtype, every element `value` (a 0-d tensor)."""
    x, value = node.tensor(0, "input"), node.arg(1, "value")
    if not isinstance(value, Value):
        return _filled(node, [x.type.shape], value, None, x)
    if value.type.element_type != x.type.element_type:
        value = node.b.cast(value, dtype=x.type.element_type)
    return node.b.broadcast_to(node.b.reshape(value, shape=[1] * _rank(x)),
                               shape=list(x.type.shape))


# -- reductions and arithmetic


def _dims(node: Node, x: Value, dims) -> list[int]:
    if dims is None or dims == []:
        return list(range(_rank(x)))
    dims = [dims] if isinstance(dims, int) else list(dims)
    return sorted({_axis(node, d, _rank(x)) for d in dims})


def _reduction(graph_op: str, integer_to_float: bool = False) -> Converter:
    def convert(node: Node) -> Value:
        x = node.tensor(0, "input")
        dims = node.arg(1, "dim", None)
        keepdim = bool(node.arg(2, "keepdim", False))
        dtype = node.kwargs.get("dtype", node.arg(3, "dtype", None)
                                if len(node.args) > 3 and isinstance(node.args[3], torch.dtype)
                                else None)
        if dtype is not None:
            x = _cast(node, x, dtype)
        elif integer_to_float:
            node.check(isinstance(x.type.element_type, FloatType),
                       "the mean of an integer tensor needs dtype=")
        return node.b.op(graph_op, x, axes=_dims(node, x, dims), keepdims=keepdim)

    return convert


def _addmm(node: Node) -> Value:
    bias, a, b = node.tensor(0, "input"), node.tensor(1, "mat1"), node.tensor(2, "mat2")
    beta, alpha = node.arg(3, "beta", 1), node.arg(4, "alpha", 1)
    product = node.b.matmul(a, b)
    if alpha != 1:
        product = node.b.multiply(product, _as_tensor(node, float(alpha), product))
    if beta == 0:
        return product
    if beta != 1:
        bias = node.b.multiply(bias, _as_tensor(node, float(beta), bias))
    return node.b.add(product, bias)


def _hardsigmoid(node: Node) -> Value:
    return node.b.hard_sigmoid(node.tensor(0, "input"), alpha=1 / 6, beta=0.5)


def _hardswish(node: Node) -> Value:
    return node.b.hard_swish(node.tensor(0, "input"))


def _clamp(node: Node) -> Value:
    x = node.tensor(0, "input")
    low, high = node.arg(1, "min", None), node.arg(2, "max", None)
    if isinstance(low, Value) or isinstance(high, Value):
        if low is not None:
            x = node.b.maximum(*promoted(node, x, low))
        if high is not None:
            x = node.b.minimum(*promoted(node, x, high))
        return x
    return node.b.clip(x, min=-math.inf if low is None else float(low),
                       max=math.inf if high is None else float(high))


# -- attention


def scaled_dot_product_attention(node: Node, q: Value, k: Value, v: Value, mask: Value | None,
                                 causal: bool, scale: float | None) -> Value:
    """softmax(q·kᵀ·scale + mask)·v, over the last two axes (the math of
    F.scaled_dot_product_attention): a boolean mask keeps where it is true, a float
    one is added; causal keeps the lower triangle."""
    b = node.b
    length, source = q.type.shape[-2], k.type.shape[-2]
    heads_q, heads_k = (q.type.shape[-3], k.type.shape[-3]) if _rank(q) >= 3 else (1, 1)
    if heads_q != heads_k and heads_k and heads_q % heads_k == 0:  # grouped-query attention
        repeat = heads_q // heads_k
        k = _repeat_heads(node, k, repeat)
        v = _repeat_heads(node, v, repeat)
    element = q.type.element_type
    dtype = element_dtype(element)
    scale = 1 / math.sqrt(q.type.shape[-1]) if scale is None else scale
    rank = _rank(k)
    perm = list(range(rank))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    scores = b.matmul(q, b.transpose(k, axes=perm))
    scores = b.multiply(scores, b.const(np.array(scale, dtype), dtype=element))
    lowest = b.const(np.array(-np.inf, dtype), dtype=element)
    if causal:
        keep = np.tril(np.ones((length, source), np.bool_))
        scores = b.where(b.const(keep), scores, lowest)
    if mask is not None:
        if str(mask.type.element_type) == "i1":
            scores = b.where(mask, scores, lowest)
        else:
            scores = b.add(scores, mask if mask.type.element_type == element
                           else b.cast(mask, dtype=element))
    return b.matmul(b.softmax(scores, axis=_rank(scores) - 1), v)


def _repeat_heads(node: Node, x: Value, repeat: int) -> Value:
    """x (..., H, S, E) with each head repeated `repeat` times in place (H·repeat)."""
    shape = list(x.type.shape)
    expanded = node.b.expand_dims(x, axis=len(shape) - 2)
    tiled = node.b.broadcast_to(expanded, shape=[*shape[:-2], repeat, *shape[-2:]])
    return node.b.reshape(tiled, shape=[*shape[:-3], shape[-3] * repeat, *shape[-2:]])


def _sdpa(node: Node) -> Value:
    q, k, v = node.tensor(0, "query"), node.tensor(1, "key"), node.tensor(2, "value")
    mask = node.optional_tensor(3, "attn_mask")
    dropout = node.arg(4, "dropout_p", 0.0)
    node.check(not dropout, "attention dropout (training) is not supported")
    return scaled_dot_product_attention(node, q, k, v, mask, bool(node.arg(5, "is_causal", False)),
                                        node.kwargs.get("scale", node.arg(6, "scale", None)))


def _module_multihead_attention(node: Node) -> Value:
    """nn.MultiheadAttention (batch_first or not, one projection or three), at
    inference: its attention output (the weights output is not computed)."""
    m: nn.MultiheadAttention = node.module
    query, key, value = (node.tensor(i, n) for i, n in enumerate(("query", "key", "value")))
    key_padding_mask = node.arg(3, "key_padding_mask", None)
    need_weights = node.arg(4, "need_weights", True)
    attn_mask = node.arg(5, "attn_mask", None)
    causal = node.arg(7, "is_causal", False)
    node.check(key_padding_mask is None, "key_padding_mask is not supported")
    node.check(m.bias_k is None and not m.add_zero_attn, "bias_k/add_zero_attn are not supported")
    node.check(not (m.training and m.dropout), "dropout in training mode is not supported")
    b = node.b
    if not m.batch_first:  # (L, N, E) -> (N, L, E)
        query, key, value = (b.transpose(t, axes=[1, 0, 2]) for t in (query, key, value))
    embed, heads = m.embed_dim, m.num_heads
    if m._qkv_same_embed_dim:
        weight = node.param("in_proj_weight")
        weights = b.split(weight, sections=[embed] * 3, axis=0)
    else:
        weights = [node.param(f"{n}_proj_weight") for n in ("q", "k", "v")]
    bias = node.param("in_proj_bias")
    biases = b.split(bias, sections=[embed] * 3, axis=0) if bias is not None else [None] * 3
    projected = []
    for t, w, bb in zip((query, key, value), weights, biases):
        y = b.dense(t, w)
        projected.append(y if bb is None else b.bias_add(y, bb, axis=2))
    heads_first = []
    for t in projected:
        n, length = t.type.shape[:2]
        split = b.reshape(t, shape=[n, length, heads, embed // heads])
        heads_first.append(b.transpose(split, axes=[0, 2, 1, 3]))
    out = scaled_dot_product_attention(node, *heads_first, attn_mask, bool(causal), None)
    n, _, length, _ = out.type.shape
    merged = b.reshape(b.transpose(out, axes=[0, 2, 1, 3]), shape=[n, length, embed])
    y = b.dense(merged, node.param("out_proj.weight"))
    if m.out_proj.bias is not None:
        y = b.bias_add(y, node.param("out_proj.bias"), axis=2)
    if not m.batch_first:
        y = b.transpose(y, axes=[1, 0, 2])
    del need_weights  # the weights output (averaged attention) is not computed: None
    return [y, None]


def _stochastic_depth(node: Node) -> Value:
    """torchvision.ops.stochastic_depth(input, p, mode, training): the identity at
    inference."""
    node.check(not node.arg(3, "training", True) or node.arg(1, "p") == 0,
               "stochastic depth in training mode is not supported (call .eval())")
    return node.tensor(0, "input")


def _module_stochastic_depth(node: Node) -> Value:
    node.check(not node.module.training or node.module.p == 0,
               "stochastic depth in training mode is not supported (call .eval())")
    return node.tensor(0, "input")


def _module_hardtanh(node: Node) -> Value:
    m = node.module
    return node.b.clip(node.tensor(0, "input"), min=float(m.min_val), max=float(m.max_val))


def function_map() -> dict[object, Converter]:
    """These converters by call_function target, call_method name and ATen packet."""
    entries: list[tuple[tuple, Converter]] = [
        ((aten.unsqueeze, torch.unsqueeze, "unsqueeze"), _unsqueeze),
        ((aten.squeeze, torch.squeeze, "squeeze"), _squeeze),
        ((aten.expand, "expand"), _expand),
        (("expand_as", aten.expand_as), _expand_as),
        ((aten.unflatten, torch.unflatten, "unflatten"), _unflatten),
        ((aten.roll, torch.roll, "roll"), _roll),
        ((aten.slice_scatter, torch.slice_scatter, "slice_scatter"), _slice_scatter),
        ((aten.copy,), _copy),
        ((aten.einsum, torch.einsum), _einsum),
        ((aten.pad, F.pad, aten.constant_pad_nd), _pad),
        ((aten.embedding,), _embedding),
        ((F.embedding,), _f_embedding),
        ((aten.index,), _index),
        ((aten.gather, torch.gather, "gather"), _gather),
        ((aten.where, torch.where), _where),
        ((aten.masked_fill, "masked_fill"), _masked_fill),
        ((aten.cumsum, torch.cumsum, "cumsum"), _cumsum),
        ((aten.diff, torch.diff, "diff"), _diff),
        ((aten.to, aten._to_copy, "to", "type", aten.type_as), _to),
        ((aten.arange, torch.arange), _arange),
        ((aten.ones, torch.ones), _factory(1)),
        ((aten.zeros, torch.zeros), _factory(0)),
        ((aten.full, torch.full), _full),
        ((aten.new_ones, "new_ones"), _new_factory(1)),
        ((aten.new_zeros, "new_zeros"), _new_factory(0)),
        ((aten.new_full, "new_full"), _new_full),
        ((aten.ones_like, torch.ones_like), _like(1)),
        ((aten.zeros_like, torch.zeros_like), _like(0)),
        ((aten.full_like, torch.full_like), _full_like),
        ((aten.fill,), _fill),
        ((aten._assert_tensor_metadata, aten._assert_scalar, aten.sym_constrain_range_for_size),
         _nothing),
        ((aten.lift_fresh_copy, aten.lift_fresh), _identity),
        ((aten.mean, torch.mean, "mean"), _reduction("mean", integer_to_float=True)),
        ((aten.sum, torch.sum, "sum"), _reduction("sum")),
        ((aten.amax, torch.amax, "amax"), _reduction("max")),
        ((aten.amin, torch.amin, "amin"), _reduction("min")),
        ((aten.addmm, torch.addmm), _addmm),
        ((aten.pow, torch.pow, operator.pow, "pow"), _pow),
        ((aten.floor_divide, torch.floor_divide, operator.floordiv, "floor_divide"),
         floor_divide),
        ((aten.ge, torch.ge, operator.ge, "ge"), _compare("greater_equal", operator.ge)),
        ((aten.gt, torch.gt, operator.gt, "gt"), _compare("greater", operator.gt)),
        ((aten.le, torch.le, operator.le, "le"), _compare("less_equal", operator.le)),
        ((aten.lt, torch.lt, operator.lt, "lt"), _compare("less", operator.lt)),
        ((aten.eq, torch.eq, operator.eq, "eq"), _compare("equal", operator.eq)),
        ((aten.ne, torch.ne, operator.ne, "ne"), _compare("not_equal", operator.ne)),
        ((aten.__and__, aten.bitwise_and, aten.logical_and, operator.and_, torch.logical_and),
         _logical("and", operator.and_)),
        ((aten.__or__, aten.bitwise_or, aten.logical_or, operator.or_, torch.logical_or),
         _logical("or", operator.or_)),
        ((aten.logical_not, aten.bitwise_not, torch.logical_not, operator.invert),
         _unary("logical_not")),
        ((aten.minimum, aten.min.other, torch.minimum), _elementwise("minimum")),
        ((aten.maximum, aten.max.other, torch.maximum), _elementwise("maximum")),
        ((aten.clamp, torch.clamp, "clamp", aten.clip, torch.clip), _clamp),
        ((aten.hardsigmoid, F.hardsigmoid), _hardsigmoid),
        ((aten.hardswish, F.hardswish), _hardswish),
        ((aten.scaled_dot_product_attention, F.scaled_dot_product_attention), _sdpa),
    ]
    for name, graph_op in (("abs", "abs"), ("log", "log"), ("exp", "exp"), ("sqrt", "sqrt"),
                           ("rsqrt", "rsqrt"), ("neg", "neg"), ("erf", "erf"), ("sin", "sin"),
                           ("cos", "cos"), ("reciprocal", "reciprocal"), ("floor", "floor"),
                           ("ceil", "ceil"), ("sign", "sign")):
        entries.append(((getattr(aten, name), getattr(torch, name), name), _unary(graph_op)))
    entries.append(((F.hardtanh,), _f_hardtanh))
    converters: dict[object, Converter] = {}
    for keys, convert in entries:
        for key in keys:
            if key is not None:
                converters[key] = convert
    return converters


def _f_hardtanh(node: Node) -> Value:
    return node.b.clip(node.tensor(0, "input"), min=float(node.arg(1, "min_val", -1.0)),
                       max=float(node.arg(2, "max_val", 1.0)))


def module_map() -> dict[type, Converter]:
    """These converters by called module class."""
    return {
        nn.ReLU6: _module_hardtanh, nn.Hardtanh: _module_hardtanh,
        nn.Hardswish: _hardswish, nn.Hardsigmoid: _hardsigmoid,
        nn.Embedding: _module_embedding,
        nn.MultiheadAttention: _module_multihead_attention,
    }


QUALIFIED_MAP: dict[str, Converter] = {
    "torchvision.ops.stochastic_depth.StochasticDepth": _module_stochastic_depth,
    "torchvision.ops.stochastic_depth.stochastic_depth": _stochastic_depth,
}
"""Converters of functions and module classes of other libraries, by qualified name
(`module.qualname`), so that mlc imports none of them: torchvision's stochastic depth."""
