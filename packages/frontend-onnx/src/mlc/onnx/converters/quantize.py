"""ONNX's linear quantization: QuantizeLinear, DequantizeLinear, and the integer ops of
quantized models (MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv), with
integer element types (int8/uint8/int16/uint16 and int32 accumulators).

Scales and zero points may be known only at run time; they apply to the whole tensor,
per slice along `axis`, or per block of `block_size` along it. Integer products are
accumulated in float64, where they are exact (integers below 2^53), and the requantized
result is rounded half to even and saturated to the output type, as ONNX's reference
and onnxruntime compute it.
"""

from __future__ import annotations

import numpy as np

from mlc.graph import windows
from mlc.ir import FloatType, IntegerType, Type, Value, f32, f64
from mlc.onnx.converters.nn import _window
from mlc.onnx.node import Node
from mlc.onnx.registry import converter
from mlc.onnx.types import UnsupportedType, element_type


def _range(element: Type) -> tuple[int, int]:
    if not isinstance(element, IntegerType) or element.width not in (8, 16, 32):
        raise ValueError(f"{element} is not an integer type")
    if element.signedness == "unsigned":
        return 0, (1 << element.width) - 1
    return -(1 << (element.width - 1)), (1 << (element.width - 1)) - 1


def _along(node: Node, param: Value, shape: tuple[int, ...], axis: int, block: int) -> Value:
    """A scale or zero point laid out to broadcast against a tensor of `shape`: one
    value for all, one per slice along `axis`, or one per `block` elements along it."""
    b = node.b
    rank = len(shape)
    axis = axis + rank if axis < 0 else axis
    dims = param.type.shape
    if len(dims) == 0 or (len(dims) == 1 and dims[0] == 1 and (rank == 0 or shape[axis] != 1)
                          and not block):
        return b.reshape(param, shape=[]) if dims else param
    node.check(0 <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    if block:
        node.check(len(dims) == rank and all(d == s for i, (d, s) in enumerate(zip(dims, shape))
                                              if i != axis)
                   and dims[axis] == -(-shape[axis] // block),
                   f"a blocked scale of shape {list(dims)} does not fit {list(shape)} in blocks "
                   f"of {block} along axis {axis}")
        spread = b.expand_dims(param, axis=axis + 1)
        wide = [*dims[:axis], dims[axis], block, *dims[axis + 1:]]
        spread = b.broadcast_to(spread, shape=wide)
        spread = b.reshape(spread, shape=[*dims[:axis], dims[axis] * block, *dims[axis + 1:]])
        if dims[axis] * block != shape[axis]:
            spread = b.slice(spread, starts=[0], ends=[shape[axis]], axes=[axis], steps=[1])
        return spread
    node.check(len(dims) == 1 and dims[0] == shape[axis],
               f"a scale of shape {list(dims)} does not fit axis {axis} of {list(shape)}")
    return b.reshape(param, shape=[dims[0], *[1] * (rank - axis - 1)])


def _as(node: Node, value: Value, element: Type) -> Value:
    return value if value.type.element_type == element else node.b.cast(value, dtype=element)


def _saturated(node: Node, value: Value, element: Type) -> Value:
    """A float `value` of whole numbers clamped to `element`'s range and converted."""
    low, high = _range(element)
    return node.b.cast(node.b.clip(value, min=float(low), max=float(high)), dtype=element)


def _quantize(node: Node, x: Value, scale: Value, zero: Value | None, output: Type,
              axis: int, block: int) -> Value:
    b = node.b
    compute = x.type.element_type
    shape = x.type.shape
    scaled = b.divide(x, _as(node, _along(node, scale, shape, axis, block), compute))
    rounded = b.round(scaled)
    # NaN has no integer: it quantizes to the zero point.
    rounded = b.where(b.isnan(rounded), b.const(np.array(0.0), dtype=compute), rounded)
    if zero is not None:
        rounded = b.add(rounded, _as(node, _along(node, zero, shape, axis, block), compute))
    return _saturated(node, rounded, output)


def _attr_type(node: Node, name: str) -> Type | None:
    """The element type attribute `name` names (None: absent or 0)."""
    if not node.attr(name, 0):
        return None
    try:
        return element_type(node.attr(name))
    except UnsupportedType as exc:
        raise node.unsupported(f"{name}: {exc}") from None


def _output_type(node: Node, zero: Value | None) -> Type:
    if zero is not None:
        return zero.type.element_type
    return _attr_type(node, "output_dtype") or IntegerType(8, "unsigned")


@converter("QuantizeLinear", 10)
def quantize_linear(node: Node) -> Value:
    x, scale, zero = node.input(0), node.input(1), node.optional_input(2)
    node.check(isinstance(x.type.element_type, FloatType), "X must be a float tensor")
    output = _output_type(node, zero)
    node.check(isinstance(output, IntegerType) and output.width in (8, 16),
               f"quantizing to {output} is not supported (8- and 16-bit integers are)")
    precision = _attr_type(node, "precision")
    if precision is not None:
        x = _as(node, x, precision)
    return _quantize(node, x, scale, zero, output, node.attr("axis", 1),
                     node.attr("block_size", 0))


@converter("DequantizeLinear", 10)
def dequantize_linear(node: Node) -> Value:
    x, scale, zero = node.input(0), node.input(1), node.optional_input(2)
    node.check(isinstance(x.type.element_type, IntegerType),
               f"dequantizing {x.type.element_type} is not supported (integers are)")
    axis, block = node.attr("axis", 1), node.attr("block_size", 0)
    shape = x.type.shape
    value = _as(node, x, f32)
    if zero is not None:
        value = node.b.subtract(value, _as(node, _along(node, zero, shape, axis, block), f32))
    output = _attr_type(node, "output_dtype") or scale.type.element_type
    scaled = node.b.multiply(value, _as(node, _along(node, scale, shape, axis, block), f32))
    return _as(node, scaled, output)


def _centred(node: Node, x: Value, zero: Value | None, zero_axis: int | None = None) -> Value:
    """x - zero point in float64 (exact for the integer types); a 1-D zero point of
    more than one element runs along `zero_axis`."""
    value = _as(node, x, f64)
    if zero is None:
        return value
    zero = _as(node, zero, f64)
    dims = zero.type.shape
    if len(dims) == 1 and dims[0] != 1 and zero_axis is not None:
        rank = len(x.type.shape)
        axis = zero_axis + rank if zero_axis < 0 else zero_axis
        zero = node.b.reshape(zero, shape=[dims[0], *[1] * (rank - axis - 1)])
    elif dims and int(np.prod(dims)) == 1:
        zero = node.b.reshape(zero, shape=[])
    return node.b.subtract(value, zero)


def _requantized(node: Node, accumulator: Value, multiplier: Value, zero: Value | None,
                 output: Type) -> Value:
    """round(accumulator · multiplier) + zero point, saturated to `output` (float64)."""
    b = node.b
    value = b.round(b.multiply(accumulator, _as(node, multiplier, f64)))
    if zero is not None:
        value = b.add(value, _as(node, b.reshape(zero, shape=[]) if zero.type.shape else zero, f64))
    return _saturated(node, value, output)


def _scalar(node: Node, value: Value) -> Value:
    return node.b.reshape(value, shape=[]) if value.type.shape else value


@converter("MatMulInteger", 10)
def matmul_integer(node: Node) -> Value:
    a = _centred(node, node.input(0), node.optional_input(2), zero_axis=-2)
    b = _centred(node, node.input(1), node.optional_input(3), zero_axis=-1)
    return node.b.cast(node.b.matmul(a, b), dtype=IntegerType(32))


@converter("QLinearMatMul", 10)
def qlinear_matmul(node: Node) -> Value:
    b = node.b
    a_scale, b_scale, y_scale = node.input(1), node.input(4), node.input(6)
    zero = node.optional_input(7)
    accumulator = b.matmul(_centred(node, node.input(0), node.optional_input(2), zero_axis=-2),
                           _centred(node, node.input(3), node.optional_input(5), zero_axis=-1))
    # The multiplier in the scales' own type, as onnxruntime and the reference.
    multiplier = b.divide(b.multiply(_scalar(node, a_scale), _scalar(node, b_scale)),
                          _scalar(node, y_scale))
    output = zero.type.element_type if zero is not None else node.input(0).type.element_type
    return _requantized(node, accumulator, multiplier, zero, output)


def _convolution(node: Node, x: Value, w: Value) -> Value:
    _, strides, pads, dilations = _window(node, x, w.type.shape[2:])
    return windows.convolution(node.b, x, w, strides, pads, dilations, node.attr("group", 1))


@converter("ConvInteger", 10)
def conv_integer(node: Node) -> Value:
    x = _centred(node, node.input(0), node.optional_input(2))
    w = _centred(node, node.input(1), node.optional_input(3), zero_axis=0)
    return node.b.cast(_convolution(node, x, w), dtype=IntegerType(32))


@converter("QLinearConv", 10)
def qlinear_conv(node: Node) -> Value:
    b = node.b
    x = _centred(node, node.input(0), node.input(2))
    w = _centred(node, node.input(3), node.input(5), zero_axis=0)
    accumulator = _convolution(node, x, w)
    bias = node.optional_input(8)
    if bias is not None:
        accumulator = b.bias_add(accumulator, _as(node, bias, f64), axis=1)
    x_scale, w_scale, y_scale = node.input(1), node.input(4), node.input(6)
    w_scale = _scalar(node, w_scale) if int(np.prod(w_scale.type.shape)) == 1 else \
        b.reshape(w_scale, shape=[w_scale.type.shape[0], *[1] * (len(x.type.shape) - 2)])
    multiplier = b.divide(b.multiply(_scalar(node, x_scale), w_scale), _scalar(node, y_scale))
    zero = node.optional_input(7)
    output = zero.type.element_type if zero is not None else node.input(0).type.element_type
    return _requantized(node, accumulator, multiplier, zero, output)

