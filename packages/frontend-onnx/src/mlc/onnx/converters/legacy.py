"""The first definitions of ONNX ops (opsets 1 to 8), as the models of ONNX's model zoo
and of its own test folders (many at opset 6) use them.

Most differ from their later definitions only in attributes that no longer matter at
inference (`consumed_inputs`, `is_test`): those reuse the later converter. Arithmetic
before opset 7 broadcast only when asked (`broadcast=1`), aligning the second operand
at `axis` rather than at the end; those get a converter of their own here. ONNX's
version converter would do the same by rewriting the model, but its adapters get the
legacy broadcast wrong for an operand aligned in the middle (it unsqueezes one axis
too many), so mlc reads these opsets itself.
"""

from __future__ import annotations

from mlc.ir import Value
from mlc.onnx.converters import elementwise, nn, tensor
from mlc.onnx.node import Node
from mlc.onnx.registry import converter, find_converter


def _same_as(op_type: str, since: int, later: int) -> None:
    """Register `op_type` from opset `since` with the converter of opset `later`."""
    converter(op_type, since)(find_converter(op_type, later).convert)


for _op in ("Abs", "Neg", "Exp", "Log", "Sqrt", "Reciprocal", "Floor", "Ceil", "Relu",
            "Sigmoid", "Tanh", "LeakyRelu", "Elu", "Selu", "HardSigmoid"):
    _same_as(_op, 1, 6)
for _op, _later in (("Conv", 11), ("MaxPool", 12), ("AveragePool", 11), ("Gather", 11),
                    ("MatMul", 9), ("Gemm", 11), ("Sum", 8), ("Max", 8), ("Min", 8),
                    ("Mean", 8), ("Tile", 6)):
    _same_as(_op, 1, _later)


def _legacy_broadcast(node: Node, graph_op: str) -> Value:
    """A binary op before opset 7: without `broadcast` the operands have one shape; with
    it the second is matched against the first's axes from `axis` on (the trailing
    ones by default)."""
    a, b = node.input(0), node.input(1)
    if node.attr("broadcast", 0):
        rank_a, rank_b = len(a.type.shape), len(b.type.shape)
        axis = node.attr("axis", rank_a - rank_b)
        axis = axis + rank_a if axis < 0 else axis
        node.check(0 <= axis and axis + rank_b <= rank_a,
                   f"axis {node.attr('axis', axis)} does not place a rank-{rank_b} operand in "
                   f"a rank-{rank_a} one")
        node.check(all(d in (1, e) for d, e in zip(b.type.shape, a.type.shape[axis:])),
                   f"shape {list(b.type.shape)} does not match {list(a.type.shape)} from "
                   f"axis {axis}")
        trailing = rank_a - axis - rank_b
        if trailing:
            b = node.b.reshape(b, shape=[*b.type.shape, *[1] * trailing])
    else:
        node.check(a.type.shape == b.type.shape,
                   f"shapes {list(a.type.shape)} and {list(b.type.shape)} differ and broadcast "
                   "is not set")
    return node.b.op(graph_op, a, b)


for _op, _graph_op in (("Add", "add"), ("Sub", "subtract"), ("Mul", "multiply"),
                       ("Div", "divide"), ("Equal", "equal"), ("Greater", "greater"),
                       ("Less", "less"), ("And", "logical_and"), ("Or", "logical_or"),
                       ("Xor", "logical_xor"), ("Pow", "power")):
    def _convert(node: Node, graph_op=_graph_op) -> Value:
        return _legacy_broadcast(node, graph_op)
    converter(_op, 1)(_convert)


@converter("PRelu", 1)
def prelu_1(node: Node) -> Value:
    """PRelu before opset 9: the slope broadcasts as numpy's (unidirectionally), but
    before opset 7 a 1-D slope of one value per channel runs along axis 1 (as PyTorch
    exported nn.PReLU(num_parameters=C))."""
    x, slope = node.input(0), node.input(1)
    shape = x.type.shape
    if node.opset < 7 and len(slope.type.shape) == 1 and len(shape) > 2 \
            and slope.type.shape[0] == shape[1]:
        slope = node.b.reshape(slope, shape=[shape[1], *[1] * (len(shape) - 2)])
    return node.b.prelu(x, slope)


@converter("BatchNormalization", 1)
def batch_norm_1(node: Node) -> Value:
    node.check(node.attr("spatial", 1) == 1, "spatial=0 is not supported")
    node.check(node.attr("is_test", 1) == 1 or node.opset >= 7,
               "is_test=0 (training) is not supported")
    return nn.batch_norm_9(node)


@converter("Dropout", 1)
def dropout_1(node: Node) -> list[Value]:
    return elementwise.dropout_7(node)


@converter("Concat", 1)
def concat_1(node: Node) -> Value:
    inputs = [v for v in node.inputs if v is not None]
    return node.b.concat(inputs, axis=tensor._axis(node, node.attr("axis", 1),
                                                   len(inputs[0].type.shape)))


@converter("Reshape", 1)
def reshape_1(node: Node) -> Value:
    return tensor.reshape_to(node, node.input(0), [int(d) for d in node.attr("shape")], False)


@converter("Slice", 1)
def slice_1(node: Node) -> Value:
    x = node.input(0)
    starts, ends = list(node.attr("starts")), list(node.attr("ends"))
    rank = len(x.type.shape)
    axes = [tensor._axis(node, a, rank) for a in node.attr("axes", range(len(starts)))]
    return node.b.slice(x, starts=starts, ends=ends, axes=axes, steps=[1] * len(starts))


@converter("Clip", 1)
def clip_1(node: Node) -> Value:
    return elementwise.clip_6(node)


@converter("TopK", 1)
def top_k_1(node: Node) -> list[Value]:
    return node.b.top_k(node.input(0), k=int(node.attr("k")), axis=node.attr("axis", -1),
                        largest=True)
