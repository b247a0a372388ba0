"""Neural-network ONNX ops: convolution, pooling, Gemm/MatMul, normalisation, softmax."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from mlc.ir import Value
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


def _two_dimensional(node: Node, x: Value, build: Callable[[Value, int], Value]) -> Value:
    """Run a 2-D window op on `x`: 2-D as it is, 1-D through an extent-1 height axis."""
    rank = len(x.type.shape)
    if rank == 4:
        return build(x, 2)
    if rank == 3:
        result = build(node.b.expand_dims(x, axis=2), 1)
        return node.b.squeeze(result, axes=[2])
    raise node.unsupported(f"{rank - 2}-D windows are not supported (1-D and 2-D are)")


def _as_2d(values: Sequence[int], spatial_rank: int, fill: int) -> list[int]:
    """Per-axis attribute values of a 1-D window extended to 2-D (height first)."""
    return list(values) if spatial_rank == 2 else [fill, *values]


def _pads_2d(pads: Sequence[int], spatial_rank: int) -> list[int]:
    """ONNX pads (begins, then ends) as the graph ops' (top, left, bottom, right)."""
    if spatial_rank == 2:
        return list(pads)
    return [0, pads[0], 0, pads[1]]


@converter("Conv", 11)
def conv(node: Node) -> Value:
    x, weight, bias = node.input(0), node.input(1), node.optional_input(2)
    spatial = x.type.shape[2:]
    rank = len(spatial)
    kernel = node.attr("kernel_shape", list(weight.type.shape[2:]))
    strides = node.attr("strides", [1] * rank)
    dilations = node.attr("dilations", [1] * rank)
    pads = _window_padding(node, spatial, kernel, strides, dilations)
    group = node.attr("group", 1)

    def build(x2: Value, spatial_rank: int) -> Value:
        w2 = weight if spatial_rank == 2 else node.b.expand_dims(weight, axis=2)
        return node.b.conv2d(x2, w2, strides=_as_2d(strides, spatial_rank, 1),
                             padding=_pads_2d(pads, spatial_rank),
                             dilation=_as_2d(dilations, spatial_rank, 1), groups=group)

    y = _two_dimensional(node, x, build)
    return y if bias is None else node.b.bias_add(y, bias, axis=1)


def _pool(node: Node, graph_op: str, **extra) -> Value:
    x = node.input(0)
    spatial = x.type.shape[2:]
    rank = len(spatial)
    kernel = node.attr("kernel_shape")
    strides = node.attr("strides", [1] * rank)
    dilations = node.attr("dilations", [1] * rank)
    pads = _window_padding(node, spatial, kernel, strides, dilations)
    ceil_mode = bool(node.attr("ceil_mode", 0))

    def build(x2: Value, spatial_rank: int) -> Value:
        return node.b.op(graph_op, x2, pool_size=_as_2d(kernel, spatial_rank, 1),
                         strides=_as_2d(strides, spatial_rank, 1),
                         padding=_pads_2d(pads, spatial_rank),
                         dilation=_as_2d(dilations, spatial_rank, 1), ceil_mode=ceil_mode, **extra)

    return _two_dimensional(node, x, build)


@converter("MaxPool", 12)
def max_pool(node: Node) -> Value:
    node.check(len(node.proto.output) < 2 or not node.proto.output[1],
               "the Indices output is not supported")
    node.check(node.attr("storage_order", 0) == 0, "storage_order=1 is not supported")
    return _pool(node, "max_pool2d")


@converter("AveragePool", 11)
def average_pool(node: Node) -> Value:
    return _pool(node, "avg_pool2d", count_include_pad=bool(node.attr("count_include_pad", 0)))


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
