"""Neural-network ONNX ops: convolution, pooling, Gemm/MatMul, normalisation, softmax."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mlc.graph import windows
from mlc.ir import FloatType, Value, f32
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
def max_pool(node: Node) -> Value:
    node.check(len(node.proto.output) < 2 or not node.proto.output[1],
               "the Indices output is not supported")
    node.check(node.attr("storage_order", 0) == 0, "storage_order=1 is not supported")
    x = node.input(0)
    if not isinstance(x.type.element_type, FloatType):
        # 8-bit integers (the only others MaxPool takes) are exact in float32.
        node.check(x.type.element_type.width <= 16,
                   f"MaxPool of {x.type.element_type} is not supported")
        pooled = _pool(node, "max", node.b.cast(x, dtype=f32))
        return node.b.cast(pooled, dtype=x.type.element_type)
    return _pool(node, "max", x)


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


@converter("BatchNormalization", 15)
def batch_norm(node: Node) -> Value:
    node.check(not node.attr("training_mode", 0), "training_mode=1 is not supported")
    return node.b.batch_norm(*(node.input(i) for i in range(5)), axis=1,
                             epsilon=node.attr("epsilon", 1e-5))


@converter("BatchNormalization", 9)
def batch_norm_9(node: Node) -> Value:
    node.check(len([o for o in node.proto.output if o]) == 1,
               "the training outputs (mean, var, saved statistics) are not supported")
    return node.b.batch_norm(*(node.input(i) for i in range(5)), axis=1,
                             epsilon=node.attr("epsilon", 1e-5))


def _softmax(node: Node, graph_op: str, coerce_2d: bool) -> Value:
    x = node.input(0)
    rank = len(x.type.shape)
    axis = node.attr("axis", 1 if coerce_2d else -1)
    axis = axis + rank if axis < 0 else axis
    node.check(0 <= axis < max(rank, 1), f"axis {node.attr('axis', axis)} is out of range")
    if not coerce_2d or axis == rank - 1:
        return node.b.op(graph_op, x, axis=axis)
    # Before opset 13 the input is seen as 2-D: axes before `axis`, axes from it on.
    shape = x.type.shape
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    flat = node.b.reshape(x, shape=[outer, int(np.prod(shape[axis:], dtype=np.int64))])
    return node.b.reshape(node.b.op(graph_op, flat, axis=1), shape=list(shape))


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
