"""Elementwise and broadcasting ONNX ops: arithmetic, comparisons, logic, activations."""

from __future__ import annotations

import numpy as np

from mlc.ir import FloatType, IntegerType, Value
from mlc.onnx.node import Node
from mlc.onnx.registry import converter

# ONNX op -> graph op, for ops that are the same function under another name. The
# opset is where the current definition (types and broadcasting) begins; older
# opsets with `broadcast`/`axis` attributes or `consumed_inputs` are not read.
_UNARY = {
    "Abs": ("abs", 6), "Neg": ("neg", 6), "Exp": ("exp", 6), "Log": ("log", 6),
    "Sqrt": ("sqrt", 6), "Reciprocal": ("reciprocal", 6), "Floor": ("floor", 6),
    "Ceil": ("ceil", 6), "Relu": ("relu", 6), "Sigmoid": ("sigmoid", 6), "Tanh": ("tanh", 6),
    "Erf": ("erf", 9), "Sign": ("sign", 9), "Round": ("round", 11), "Not": ("logical_not", 1),
    "Softplus": ("softplus", 1), "Softsign": ("softsign", 1), "Mish": ("mish", 18),
    "HardSwish": ("hard_swish", 14), "Sin": ("sin", 7), "Cos": ("cos", 7), "Tan": ("tan", 7),
    "Asin": ("asin", 7), "Acos": ("acos", 7), "Atan": ("atan", 7), "Sinh": ("sinh", 9),
    "Cosh": ("cosh", 9), "Asinh": ("asinh", 9), "Acosh": ("acosh", 9), "Atanh": ("atanh", 9),
    "IsNaN": ("isnan", 9), "BitwiseNot": ("bitwise_not", 18),
}
_BINARY = {
    "Add": ("add", 7), "Sub": ("subtract", 7), "Mul": ("multiply", 7), "Div": ("divide", 7),
    "Equal": ("equal", 7), "Greater": ("greater", 7), "Less": ("less", 7),
    "And": ("logical_and", 7), "Or": ("logical_or", 7), "Xor": ("logical_xor", 7),
    "GreaterOrEqual": ("greater_equal", 12), "LessOrEqual": ("less_equal", 12),
    "PRelu": ("prelu", 9), "BitwiseAnd": ("bitwise_and", 18), "BitwiseOr": ("bitwise_or", 18),
    "BitwiseXor": ("bitwise_xor", 18),
}

# ONNX op -> graph op with the same float attributes (name, ONNX's default).
_UNARY_WITH_ATTRIBUTES = {
    "LeakyRelu": ("leaky_relu", 6, {"alpha": 0.01}),
    "Elu": ("elu", 6, {"alpha": 1.0}),
    "Selu": ("selu", 6, {"alpha": 1.67326319217681884765625, "gamma": 1.05070102214813232421875}),
    "Celu": ("celu", 12, {"alpha": 1.0}),
    "ThresholdedRelu": ("thresholded_relu", 10, {"alpha": 1.0}),
    "HardSigmoid": ("hard_sigmoid", 6, {"alpha": 0.2, "beta": 0.5}),
    "Swish": ("swish", 24, {"alpha": 1.0}),
    "Shrink": ("shrink", 9, {"lambd": 0.5, "bias": 0.0}),
}


def _register_same_function(table: dict[str, tuple[str, int]], arity: int) -> None:
    for onnx_op, (graph_op, since) in table.items():
        def convert(node: Node, graph_op=graph_op) -> Value:
            return node.b.op(graph_op, *(node.input(i) for i in range(arity)))
        converter(onnx_op, since)(convert)


_register_same_function(_UNARY, 1)
_register_same_function(_BINARY, 2)

for _onnx_op, (_graph_op, _since, _defaults) in _UNARY_WITH_ATTRIBUTES.items():
    def _convert(node: Node, graph_op=_graph_op, defaults=_defaults) -> Value:
        values = {name: float(node.attr(name, default)) for name, default in defaults.items()}
        return node.b.op(graph_op, node.input(0), **values)
    converter(_onnx_op, _since)(_convert)


@converter("Pow", 7)
def pow_(node: Node) -> Value:
    base, exponent = node.input(0), node.input(1)
    if exponent.type.element_type != base.type.element_type:  # Pow-12: any exponent type
        exponent = node.b.cast(exponent, dtype=base.type.element_type)
    return node.b.power(base, exponent)


@converter("Identity", 1)
def identity(node: Node) -> Value:
    return node.input(0)


def _variadic(node: Node, graph_op: str) -> Value:
    result = node.input(0)
    for i in range(1, len(node.inputs)):
        result = node.b.op(graph_op, result, node.input(i))
    return result


@converter("Sum", 8)
def sum_(node: Node) -> Value:
    return _variadic(node, "add")


@converter("Max", 8)
def max_(node: Node) -> Value:
    return _variadic(node, "maximum")


@converter("Min", 8)
def min_(node: Node) -> Value:
    return _variadic(node, "minimum")


@converter("Mean", 8)
def mean(node: Node) -> Value:
    total = _variadic(node, "add")
    count = np.array(len(node.inputs), dtype=np.float64)
    return node.b.divide(total, node.b.const(count, dtype=total.type.element_type))


@converter("Clip", 11)
def clip(node: Node) -> Value:
    x = node.input(0)
    return node.b.clip(x, min=_clip_bound(node, 1, "min", float("-inf")),
                       max=_clip_bound(node, 2, "max", float("inf")))


def _clip_bound(node: Node, index: int, name: str, default: float) -> float:
    """Clip's bound `name` (input `index`): a scalar, or a tensor of one element, which
    onnx.checker and onnxruntime accept and exporters write (shape [1])."""
    value = node.optional_constant(index)
    if value is None:
        return default
    node.check(value.size == 1, f"{name} must hold one value, got a tensor of shape "
                                f"{list(value.shape)}")
    return float(value.reshape(()))


@converter("Clip", 6)
def clip_6(node: Node) -> Value:
    low, high = node.attr("min", float("-inf")), node.attr("max", float("inf"))
    return node.b.clip(node.input(0), min=low, max=high)


@converter("Dropout", 12)
def dropout(node: Node) -> list[Value]:
    """Inference: the identity, and a mask of ones. So is training with a ratio of 0;
    training with another ratio drops at random, which mlc does not."""
    training = node.optional_constant(2)
    if training is not None and bool(training):
        ratio = node.optional_constant(1)
        node.check(ratio is not None and float(ratio) == 0.0,
                   "training_mode=true with a ratio other than 0 (random) is not supported")
    return _dropout_outputs(node)


@converter("Dropout", 7)
def dropout_7(node: Node) -> list[Value]:
    return _dropout_outputs(node)


def _dropout_outputs(node: Node) -> list[Value]:
    x = node.input(0)
    outputs = [x]
    if len(node.proto.output) > 1 and node.proto.output[1]:
        outputs.append(node.b.const(np.broadcast_to(np.True_, x.type.shape)))
    return outputs


@converter("IsInf", 10)
def isinf(node: Node) -> Value:
    return node.b.isinf(node.input(0), detect_positive=bool(node.attr("detect_positive", 1)),
                        detect_negative=bool(node.attr("detect_negative", 1)))


@converter("BitShift", 11)
def bit_shift(node: Node) -> Value:
    direction = node.attr("direction")
    node.check(direction in ("LEFT", "RIGHT"), f"direction '{direction}' is not LEFT or RIGHT")
    graph_op = "left_shift" if direction == "LEFT" else "right_shift"
    return node.b.op(graph_op, node.input(0), node.input(1))


@converter("Mod", 10)
def mod(node: Node) -> Value:
    """fmod=1: the remainder with the dividend's sign (C's fmod); fmod=0: with the
    divisor's sign (Python's %), which for floats (allowed from opset 28) is built on
    fmod as CPython's float remainder is: a non-zero remainder of the other sign gets
    the divisor added, a zero one the divisor's sign."""
    a, b = node.input(0), node.input(1)
    fmod = bool(node.attr("fmod", 0))
    if fmod or not isinstance(a.type.element_type, FloatType):
        return node.b.mod(a, b, fmod=fmod)
    return _float_modulo(node, a, b)


def _float_modulo(node: Node, a: Value, b: Value) -> Value:
    g = node.b
    element = a.type.element_type
    remainder = g.mod(a, b, fmod=True)
    zero = g.const(np.array(0.0), dtype=element)
    signed_zero = g.const(np.array(-0.0), dtype=element)
    bits = IntegerType(element.width)

    def negative(x: Value) -> Value:  # the sign bit: -0.0 too
        return g.less(g.bitcast(x, dtype=bits), g.const(np.array(0), dtype=bits))

    other_sign = g.logical_and(g.not_equal(remainder, zero),
                               g.not_equal(negative(remainder), negative(b)))
    adjusted = g.where(other_sign, g.add(remainder, b), remainder)
    signed = g.where(negative(b), signed_zero, zero)
    return g.where(g.equal(adjusted, zero), signed, adjusted)
