"""Neural-network ONNX ops: convolution, pooling, Gemm/MatMul, normalisation, softmax."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from mlc.graph import windows
from mlc.graph.ops.nn import window_output
from mlc.ir import FloatType, Value, element_dtype, f32, i64
from mlc.onnx.node import Node
from mlc.onnx.registry import converter

# -- windows: convolution and pooling share the padding rules


def _window_padding(node: Node, spatial: Sequence[int], kernel: Sequence[int],
                    strides: Sequence[int], dilations: Sequence[int]) -> list[int]:
    """ONNX `pads` (begins, then ends) from `auto_pad` and `pads`."""
    auto_pad = node.attr("auto_pad", "NOTSET")
    rank = len(spatial)
    if auto_pad in ("NOTSET", ""):
        pads = list(node.attr("pads", [0] * 2 * rank))
        node.check(len(pads) == 2 * rank, f"pads has {len(pads)} values, expected {2 * rank}")
        return pads
    if auto_pad == "VALID":
        return [0] * 2 * rank
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        begins, ends = [], []
        for size, k, s, d in zip(spatial, kernel, strides, dilations):
            total = max(0, (math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size)
            small, large = total // 2, total - total // 2
            begins.append(small if auto_pad == "SAME_UPPER" else large)
            ends.append(large if auto_pad == "SAME_UPPER" else small)
        return begins + ends
    raise node.unsupported(f"auto_pad '{auto_pad}' is not supported")


def _window(node: Node, x: Value, kernel: Sequence[int] | None = None):
    """(kernel, strides, pads, dilations) of a window node on data `x`."""
    rank = len(x.type.shape) - 2
    node.check(rank >= 1, f"data of shape {list(x.type.shape)} has no spatial axis")
    kernel = list(node.attr("kernel_shape", kernel))
    strides = list(node.attr("strides", [1] * rank))
    dilations = list(node.attr("dilations", [1] * rank))
    node.check(len(kernel) == len(strides) == len(dilations) == rank,
               f"kernel_shape, strides and dilations need {rank} values each")
    return kernel, strides, _window_padding(node, x.type.shape[2:], kernel, strides, dilations), \
        dilations


@converter("Conv", 11)
def conv(node: Node) -> Value:
    x, weight, bias = node.input(0), node.input(1), node.optional_input(2)
    _, strides, pads, dilations = _window(node, x, weight.type.shape[2:])
    y = windows.convolution(node.b, x, weight, strides, pads, dilations, node.attr("group", 1))
    return y if bias is None else node.b.bias_add(y, bias, axis=1)


@converter("ConvTranspose", 11)
def conv_transpose(node: Node) -> Value:
    """Pads from `output_shape` and `auto_pad` as ONNX's reference computes them; an
    explicit `output_shape` with explicit pads extends (or cuts) the result at the end."""
    x, weight, bias = node.input(0), node.input(1), node.optional_input(2)
    rank = len(x.type.shape) - 2
    node.check(rank >= 1, f"data of shape {list(x.type.shape)} has no spatial axis")
    spatial = x.type.shape[2:]
    kernel = list(node.attr("kernel_shape", weight.type.shape[2:]))
    strides = list(node.attr("strides", [1] * rank))
    dilations = list(node.attr("dilations", [1] * rank))
    extra = list(node.attr("output_padding", [0] * rank))
    group = node.attr("group", 1)
    node.check(kernel == list(weight.type.shape[2:]),
               f"kernel_shape {kernel} differs from the weight's {list(weight.type.shape[2:])}")
    node.check(weight.type.shape[0] == x.type.shape[1] and x.type.shape[1] % group == 0,
               f"weight {list(weight.type.shape)} does not take {x.type.shape[1]} channels in "
               f"{group} groups")
    full = [s * (n - 1) + e + (k - 1) * d + 1
            for s, n, e, k, d in zip(strides, spatial, extra, kernel, dilations)]
    output = node.attr("output_shape", None)
    auto_pad = node.attr("auto_pad", "NOTSET")
    if auto_pad in ("SAME_UPPER", "SAME_LOWER") or (output is not None and not node.has_attr("pads")
                                                    and auto_pad not in ("NOTSET", "", "VALID")):
        output = list(output)[-rank:] if output is not None else [n * s for n, s in zip(spatial, strides)]
        total = [f - o for f, o in zip(full, output)]
        small = [t // 2 for t in total]
        large = [t - t // 2 for t in total]
        pads = small + large if auto_pad == "SAME_UPPER" else large + small
    else:
        node.check(auto_pad in ("NOTSET", "", "VALID"), f"auto_pad '{auto_pad}' is not supported")
        pads = list(node.attr("pads", [0] * 2 * rank)) if auto_pad != "VALID" else [0] * 2 * rank
        node.check(len(pads) == 2 * rank, f"pads has {len(pads)} values, expected {2 * rank}")
        output = list(output)[-rank:] if output is not None else \
            [f - b - e for f, b, e in zip(full, pads[:rank], pads[rank:])]
    node.check(all(o > 0 for o in output), f"the output would be empty ({output})")
    y = windows.transposed_convolution(node.b, x, weight, strides, pads, dilations, output, group)
    return y if bias is None else node.b.bias_add(y, bias, axis=1)


def _pool(node: Node, kind: str, x: Value, **extra) -> Value:
    kernel, strides, pads, dilations = _window(node, x)
    ceil_mode = bool(node.attr("ceil_mode", 0))
    return windows.pool(node.b, x, kind, kernel, strides, pads, dilations, ceil_mode, **extra)


@converter("MaxPool", 12)
def max_pool(node: Node) -> Value | list[Value]:
    x = node.input(0)
    if len(node.proto.output) > 1 and node.proto.output[1]:
        return _max_pool_with_indices(node, x)
    if not isinstance(x.type.element_type, FloatType):
        # 8-bit integers (the only others MaxPool takes) are exact in float32.
        node.check(x.type.element_type.width <= 16,
                   f"MaxPool of {x.type.element_type} is not supported")
        pooled = _pool(node, "max", node.b.cast(x, dtype=f32))
        return node.b.cast(pooled, dtype=x.type.element_type)
    return _pool(node, "max", x)


def _max_pool_with_indices(node: Node, x: Value) -> list[Value]:
    """MaxPool's values and Indices: each window's first maximum (in row-major order)
    and its position in the flattened input (row-major, or column-major over the
    spatial axes with storage_order=1), by a running maximum over the window's taps."""
    b = node.b
    rank = len(x.type.shape) - 2
    node.check(rank in (1, 2), f"the Indices output of {rank}-D windows is not supported "
                               "(1-D and 2-D are)")
    node.check(isinstance(x.type.element_type, FloatType),
               f"the Indices output of {x.type.element_type} is not supported")
    if rank == 1:
        outputs = _max_pool_with_indices_2d(node, b.expand_dims(x, axis=2), *_window_2d(node, x))
        return [b.squeeze(v, axes=[2]) for v in outputs]
    return _max_pool_with_indices_2d(node, x, *_window(node, x))


def _window_2d(node: Node, x: Value):
    """A 1-D window's attributes as those of a 2-D one with an extent-1 height."""
    kernel, strides, pads, dilations = _window(node, x)
    return [1, *kernel], [1, *strides], [0, pads[0], 0, pads[1]], [1, *dilations]


def _max_pool_with_indices_2d(node: Node, x: Value, kernel, strides, pads, dilations
                              ) -> list[Value]:
    b = node.b
    n, c, height, width = x.type.shape
    ceil_mode = bool(node.attr("ceil_mode", 0))
    column_major = bool(node.attr("storage_order", 0))
    out = [window_output(size, k, s, pads[i], pads[2 + i], d, ceil_mode)
           for i, (size, k, s, d) in enumerate(zip((height, width), kernel, strides, dilations))]
    reach = [(o - 1) * s + (k - 1) * d + 1 for o, s, k, d in zip(out, strides, kernel, dilations)]
    element = x.type.element_type
    # -inf in the padding and past it (ceil_mode's overhang); those taps are never taken.
    ends = [r - size - begin for r, size, begin in zip(reach, (height, width), pads[:2])]
    padded = b.pad(x, pads=[0, 0, pads[0], pads[1], 0, 0, max(ends[0], 0), max(ends[1], 0)],
                   value=float("-inf"))
    channel_base = (np.arange(n * c, dtype=np.int64) * height * width).reshape(n, c, 1, 1)
    rows = np.arange(out[0]).reshape(-1, 1) * strides[0] - pads[0]
    cols = np.arange(out[1]).reshape(1, -1) * strides[1] - pads[1]
    best = index = found = None
    for ky in range(kernel[0]):
        for kx in range(kernel[1]):
            h, w = rows + ky * dilations[0], cols + kx * dilations[1]
            inside = (h >= 0) & (h < height) & (w >= 0) & (w < width)
            if not inside.any():
                continue
            value = b.slice(padded, starts=[ky * dilations[0], kx * dilations[1]],
                            ends=[ky * dilations[0] + (out[0] - 1) * strides[0] + 1,
                                  kx * dilations[1] + (out[1] - 1) * strides[1] + 1],
                            axes=[2, 3], steps=list(strides))
            position = (h + w * height) if column_major else (h * width + w)
            tap_index = b.const(channel_base + np.where(inside, position, 0)[None, None])
            valid = b.const(np.broadcast_to(inside, (n, c, *out)))
            if best is None:
                best, index, found = value, tap_index, valid
                continue
            take = b.logical_and(valid, b.logical_or(b.logical_not(found),
                                                     b.greater(value, best)))
            best = b.where(take, value, best)
            index = b.where(take, tap_index, index)
            found = b.logical_or(found, valid)
    node.check(best is not None, "a window holds no input element")
    return [_as_type(node, best, element), index]


def _as_type(node: Node, value: Value, element) -> Value:
    return value if value.type.element_type == element else node.b.cast(value, dtype=element)


@converter("MaxUnpool", 9)
def max_unpool(node: Node) -> Value:
    """Zeros, with each value of X at the position its index names in the flattened
    output (MaxPool's Indices); `output_shape` extends the result at the ends."""
    b = node.b
    x, indices = node.input(0), node.input(1)
    shape = x.type.shape
    rank = len(shape) - 2
    kernel = list(node.attr("kernel_shape"))
    strides = list(node.attr("strides", [1] * rank))
    pads = list(node.attr("pads", [0] * 2 * rank))
    node.check(len(kernel) == len(strides) == rank and len(pads) == 2 * rank,
               f"kernel_shape, strides and pads do not fit {rank} spatial axes")
    inferred = [*shape[:2], *((size - 1) * s - pads[i] - pads[rank + i] + k
                              for i, (size, s, k) in enumerate(zip(shape[2:], strides, kernel)))]
    wanted = node.optional_constant(2)
    wanted = inferred if wanted is None else [int(d) for d in wanted]
    node.check(len(wanted) == len(inferred) and all(w >= i for w, i in zip(wanted, inferred)),
               f"output_shape {wanted} is smaller than the unpooled shape {inferred}")
    total = int(np.prod(inferred, dtype=np.int64))
    zeros = b.const(np.zeros(total, element_dtype(x.type.element_type)))
    flat_index = b.reshape(indices, shape=[int(np.prod(shape, dtype=np.int64))])
    if flat_index.type.element_type != i64:
        flat_index = b.cast(flat_index, dtype=i64)
    # An index outside the output has no place in it (ONNX leaves it undefined).
    flat_index = b.clip(flat_index, min=0, max=total - 1)
    scattered = b.scatter_elements(zeros, flat_index, b.reshape(x, shape=[flat_index.type.shape[0]]),
                                   axis=0)
    y = b.reshape(scattered, shape=inferred)
    extra = [w - i for w, i in zip(wanted, inferred)]
    return b.pad(y, pads=[0] * len(extra) + extra) if any(extra) else y


@converter("Col2Im", 18)
def col2im(node: Node) -> Value:
    """Sums the blocks of (N, C·prod(block), L) back into (N, C, *image): a transposed
    convolution whose grouped kernel puts each of a block's channels at its own tap."""
    b = node.b
    data = node.input(0)
    image = [int(d) for d in node.constant(1)]
    block = [int(d) for d in node.constant(2)]
    rank = len(image)
    dilations = list(node.attr("dilations", [1] * rank))
    pads = list(node.attr("pads", [0] * 2 * rank))
    strides = list(node.attr("strides", [1] * rank))
    n, channels_blocks, columns = data.type.shape
    taps = int(np.prod(block, dtype=np.int64))
    node.check(taps > 0 and channels_blocks % taps == 0,
               f"{channels_blocks} rows are not a whole number of blocks of {taps}")
    counts = [window_output(size, k, s, pads[i], pads[rank + i], d)
              for i, (size, k, s, d) in enumerate(zip(image, block, strides, dilations))]
    node.check(int(np.prod(counts, dtype=np.int64)) == columns,
               f"{columns} columns, but the image holds {counts} blocks")
    channels = channels_blocks // taps
    grid = b.reshape(data, shape=[n, channels_blocks, *counts])
    one_hot = np.eye(taps, dtype=element_dtype(data.type.element_type)).reshape(taps, 1, *block)
    kernel = b.const(np.tile(one_hot, (channels, 1, *[1] * rank)))
    return windows.transposed_convolution(b, grid, kernel, strides, pads, dilations, image,
                                          groups=channels)


@converter("AveragePool", 11)
def average_pool(node: Node) -> Value:
    return _pool(node, "avg", node.input(0), count_include_pad=bool(node.attr("count_include_pad", 0)))


@converter("LpPool", 11)
def lp_pool(node: Node) -> Value:
    x = node.input(0)
    kernel, strides, pads, dilations = _window(node, x)
    p = node.attr("p", 2)
    node.check(p > 0, f"p must be positive, got {p}")
    return windows.lp_pool(node.b, x, float(p), kernel, strides, pads, dilations,
                           bool(node.attr("ceil_mode", 0)))


def _global_pool(node: Node, graph_op: str, reduce_op: str) -> Value:
    x = node.input(0)
    if len(x.type.shape) == 4:
        return node.b.op(graph_op, x)
    return node.b.op(reduce_op, x, axes=list(range(2, len(x.type.shape))), keepdims=True)


@converter("GlobalAveragePool", 1)
def global_average_pool(node: Node) -> Value:
    return _global_pool(node, "global_avg_pool2d", "mean")


@converter("GlobalMaxPool", 1)
def global_max_pool(node: Node) -> Value:
    return _global_pool(node, "global_max_pool2d", "max")


# -- matrix products


@converter("MatMul", 9)
def matmul(node: Node) -> Value:
    return node.b.matmul(node.input(0), node.input(1))


@converter("Gemm", 11)
def gemm(node: Node) -> Value:
    """alpha·A'·B' + beta·C as dense (+ bias_add when C is a vector of the columns):
    the forms graph-optimize folds and fuses into one kernel."""
    a, b, c = node.input(0), node.input(1), node.optional_input(2)
    alpha, beta = node.attr("alpha", 1.0), node.attr("beta", 1.0)
    if node.attr("transA", 0):
        a = node.b.transpose(a, axes=[1, 0])
    if not node.attr("transB", 0):
        b = node.b.transpose(b, axes=[1, 0])  # dense takes the weight as (N, K)
    y = node.b.dense(a, b)
    element = y.type.element_type
    if alpha != 1.0:
        y = node.b.multiply(y, node.b.const(np.array(alpha), dtype=element))
    if c is None or beta == 0.0:
        return y
    if beta != 1.0:
        c = node.b.multiply(c, node.b.const(np.array(beta), dtype=element))
    if len(c.type.shape) == 1 and c.type.shape[0] == y.type.shape[1] != 1:
        return node.b.bias_add(y, c, axis=1)
    return node.b.add(y, c)


# -- normalisation


@converter("BatchNormalization", 14)
def batch_norm(node: Node) -> Value | list[Value]:
    """Inference, or with training_mode the batch's statistics: Y normalised with the
    mean and (biased) variance over every axis but the channels', and the running mean
    and variance updated with `momentum`."""
    epsilon = node.attr("epsilon", 1e-5)
    if not node.attr("training_mode", 0):
        return node.b.batch_norm(*(node.input(i) for i in range(5)), axis=1, epsilon=epsilon)
    b, x = node.b, node.input(0)
    rank = len(x.type.shape)
    axes = [0, *range(2, rank)]
    y, mean, variance = _normalized(node, x, axes, epsilon)
    y = b.add(b.multiply(y, _per_channel(node, node.input(1), rank)),
              _per_channel(node, node.input(2), rank))
    momentum = node.attr("momentum", 0.9)
    element = x.type.element_type

    def running(old: Value, batch: Value) -> Value:
        batch = b.reshape(batch, shape=[x.type.shape[1]])
        return b.add(b.multiply(old, b.const(np.array(momentum), dtype=element)),
                     b.multiply(batch, b.const(np.array(1 - momentum), dtype=element)))

    return [y, running(node.input(3), mean), running(node.input(4), variance)]


@converter("BatchNormalization", 9)
def batch_norm_9(node: Node) -> Value:
    node.check(len([o for o in node.proto.output if o]) == 1,
               "the training outputs (mean, var, saved statistics) are not supported")
    return node.b.batch_norm(*(node.input(i) for i in range(5)), axis=1,
                             epsilon=node.attr("epsilon", 1e-5))


def _softmax(node: Node, graph_op: str, coerce_2d: bool) -> Value:
    return _along_axis(node, coerce_2d, lambda x, axis: node.b.op(graph_op, x, axis=axis))


def _along_axis(node: Node, coerce_2d: bool, build: Callable[[Value, int], Value]) -> Value:
    """`build`(x, axis) for the softmax family's `axis`; before opset 13 (`coerce_2d`)
    on the input seen as 2-D: the axes before `axis`, and the axes from it on."""
    x = node.input(0)
    rank = len(x.type.shape)
    axis = node.attr("axis", 1 if coerce_2d else -1)
    axis = axis + rank if axis < 0 else axis
    node.check(0 <= axis < max(rank, 1), f"axis {node.attr('axis', axis)} is out of range")
    if not coerce_2d or axis == rank - 1:
        return build(x, axis)
    shape = x.type.shape
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    flat = node.b.reshape(x, shape=[outer, int(np.prod(shape[axis:], dtype=np.int64))])
    return node.b.reshape(build(flat, 1), shape=list(shape))


def _hardmax(node: Node, x: Value, axis: int) -> Value:
    """1 at the first maximum along `axis`, 0 elsewhere."""
    index = node.b.argmax(x, axis=axis, keepdims=False)
    return node.b.one_hot(index, depth=x.type.shape[axis], axis=axis, on_value=1.0,
                          off_value=0.0, dtype=x.type.element_type)


@converter("Hardmax", 13)
def hardmax(node: Node) -> Value:
    return _along_axis(node, False, lambda x, axis: _hardmax(node, x, axis))


@converter("Hardmax", 1)
def hardmax_1(node: Node) -> Value:
    return _along_axis(node, True, lambda x, axis: _hardmax(node, x, axis))


@converter("LpNormalization", 1)
def lp_normalization(node: Node) -> Value:
    """x / ||x||_p along `axis` (p 1 or 2); 0 where the norm is 0."""
    b, x = node.b, node.input(0)
    rank = len(x.type.shape)
    axis = node.attr("axis", -1)
    node.check(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    p = node.attr("p", 2)
    node.check(p in (1, 2), f"p={p} is not supported (1 and 2 are)")
    axes = [axis + rank if axis < 0 else axis]
    if p == 1:
        norm = b.sum(b.abs(x), axes=axes, keepdims=True)
    else:
        norm = b.sqrt(b.sum(b.multiply(x, x), axes=axes, keepdims=True))
    zero = b.const(np.array(0.0), dtype=x.type.element_type)
    one = b.const(np.array(1.0), dtype=x.type.element_type)
    is_zero = b.equal(norm, zero)
    return b.where(is_zero, zero, b.divide(x, b.where(is_zero, one, norm)))


def _per_channel(node: Node, value: Value, rank: int) -> Value:
    """A (C,) tensor shaped to broadcast along axis 1 of a rank-`rank` tensor."""
    return node.b.reshape(value, shape=[value.type.shape[0], *[1] * (rank - 2)])


def _normalized(node: Node, x: Value, axes: list[int], epsilon: float) -> tuple[Value, Value, Value]:
    """((x - mean) / sqrt(var + epsilon), mean, var) over `axes` (kept, extent 1)."""
    b = node.b
    mean = b.mean(x, axes=axes, keepdims=True)
    centred = b.subtract(x, mean)
    variance = b.mean(b.multiply(centred, centred), axes=axes, keepdims=True)
    eps = b.const(np.array(epsilon), dtype=x.type.element_type)
    return b.multiply(centred, b.rsqrt(b.add(variance, eps))), mean, variance


@converter("InstanceNormalization", 6)
def instance_norm(node: Node) -> Value:
    """Each (sample, channel) normalised over its spatial axes, then scaled and shifted
    per channel."""
    x, scale, bias = node.input(0), node.input(1), node.input(2)
    rank = len(x.type.shape)
    node.check(rank >= 3, f"X of shape {list(x.type.shape)} has no spatial axis")
    y, _, _ = _normalized(node, x, list(range(2, rank)), node.attr("epsilon", 1e-5))
    return node.b.add(node.b.multiply(y, _per_channel(node, scale, rank)),
                      _per_channel(node, bias, rank))


@converter("LRN", 1)
def lrn(node: Node) -> Value:
    """x / (bias + alpha/size · square_sum)^beta, square_sum the sum of the squares
    over the `size` channels around each one (a pool along the channels)."""
    b, x = node.b, node.input(0)
    shape = x.type.shape
    node.check(len(shape) >= 3, f"X of shape {list(shape)} has no spatial axis")
    size = node.attr("size")
    alpha, beta, bias = node.attr("alpha", 1e-4), node.attr("beta", 0.75), node.attr("bias", 1.0)
    element = x.type.element_type
    columns = int(np.prod(shape[2:], dtype=np.int64))
    squares = b.reshape(b.multiply(x, x), shape=[shape[0], 1, shape[1], columns])
    before, after = (size - 1) // 2, size - 1 - (size - 1) // 2
    mean = b.avg_pool2d(squares, pool_size=[size, 1], padding=[before, 0, after, 0],
                        count_include_pad=True)
    # mean · size · alpha / size: the sum scaled by alpha / size.
    scaled = b.multiply(b.reshape(mean, shape=list(shape)), b.const(np.array(alpha), dtype=element))
    base = b.add(scaled, b.const(np.array(bias), dtype=element))
    return b.divide(x, b.power(base, b.const(np.array(beta), dtype=element)))


@converter("Softmax", 13)
def softmax(node: Node) -> Value:
    return _softmax(node, "softmax", coerce_2d=False)


@converter("Softmax", 1)
def softmax_1(node: Node) -> Value:
    return _softmax(node, "softmax", coerce_2d=True)


@converter("LogSoftmax", 13)
def log_softmax(node: Node) -> Value:
    return _softmax(node, "log_softmax", coerce_2d=False)


@converter("LogSoftmax", 1)
def log_softmax_1(node: Node) -> Value:
    return _softmax(node, "log_softmax", coerce_2d=True)


@converter("LayerNormalization", 17)
def layer_norm(node: Node) -> list[Value]:
    """Y = (X - mean) / sqrt(var + epsilon) * scale + bias over axes [axis, rank); the
    optional Mean and InvStdDev outputs are computed beside it when asked for."""
    x, scale, bias = node.input(0), node.input(1), node.optional_input(2)
    rank = len(x.type.shape)
    axis = node.attr("axis", -1)
    node.check(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    axis = axis + rank if axis < 0 else axis
    epsilon = node.attr("epsilon", 1e-5)
    element = x.type.element_type
    if bias is None:
        bias = node.b.const(np.zeros(scale.type.shape, np.float32), dtype=element)
    if scale.type.shape != x.type.shape[axis:]:  # ONNX broadcasts them; layer_norm does not
        scale = node.b.broadcast_to(scale, shape=list(x.type.shape[axis:]))
    if bias.type.shape != x.type.shape[axis:]:
        bias = node.b.broadcast_to(bias, shape=list(x.type.shape[axis:]))
    outputs = [node.b.layer_norm(x, scale, bias, axis=axis, epsilon=epsilon)]
    wanted = [bool(name) for name in node.proto.output[1:]]
    if any(wanted):
        axes = list(range(axis, rank))
        mean = node.b.mean(x, axes=axes, keepdims=True)
        centred = node.b.subtract(x, mean)
        variance = node.b.mean(node.b.multiply(centred, centred), axes=axes, keepdims=True)
        eps = node.b.const(np.array(epsilon), dtype=element)
        outputs += [mean, node.b.rsqrt(node.b.add(variance, eps))][:len(wanted)]
    return outputs


@converter("Gelu", 20)
def gelu(node: Node) -> Value:
    approximate = node.attr("approximate", "none")
    node.check(approximate in ("none", "tanh"), f"approximate '{approximate}' is not supported")
    return node.b.gelu(node.input(0), approximate=approximate)


@converter("RMSNormalization", 23)
def rms_norm(node: Node) -> Value:
    """X / sqrt(mean(X², axes [axis, rank)) + epsilon) · scale."""
    x, scale = node.input(0), node.input(1)
    rank = len(x.type.shape)
    axis = node.attr("axis", -1)
    node.check(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    axes = list(range(axis + rank if axis < 0 else axis, rank))
    mean_square = node.b.mean(node.b.multiply(x, x), axes=axes, keepdims=True)
    epsilon = node.b.const(np.array(node.attr("epsilon", 1e-5)), dtype=x.type.element_type)
    return node.b.multiply(node.b.multiply(x, node.b.rsqrt(node.b.add(mean_square, epsilon))), scale)
