"""ONNX reductions: Reduce* and ArgMax."""

from __future__ import annotations

import numpy as np

from mlc.ir import Value
from mlc.onnx.node import Node
from mlc.onnx.registry import converter

_INT64_MIN = -(2**63)

# ONNX op -> graph op, and the opset from which `axes` is an input rather than an
# attribute (ReduceSum moved first).
_REDUCE = {"ReduceSum": ("sum", 13), "ReduceMean": ("mean", 18), "ReduceMax": ("max", 18),
           "ReduceMin": ("min", 18), "ReduceProd": ("prod", 18)}


def _reduce(node: Node, graph_op: str, axes) -> Value:
    x = node.input(0)
    rank = len(x.type.shape)
    axes = [] if axes is None else [int(a) for a in axes]
    if not axes and node.attr("noop_with_empty_axes", 0):
        return x
    for a in axes:
        node.check(-rank <= a < rank, f"axis {a} is out of range for rank {rank}")
    axes = sorted({a + rank if a < 0 else a for a in axes}) or list(range(rank))
    return node.b.op(graph_op, x, axes=axes, keepdims=bool(node.attr("keepdims", 1)))


for _onnx_op, (_graph_op, _axes_as_input) in _REDUCE.items():
    def _with_input(node: Node, graph_op=_graph_op) -> Value:
        return _reduce(node, graph_op, node.optional_constant(1))

    def _with_attribute(node: Node, graph_op=_graph_op) -> Value:
        return _reduce(node, graph_op, node.attr("axes", None))

    converter(_onnx_op, _axes_as_input)(_with_input)
    converter(_onnx_op, 1)(_with_attribute)


@converter("ArgMax", 1)
def argmax(node: Node) -> Value:
    x = node.input(0)
    rank = len(x.type.shape)
    axis = node.attr("axis", 0)
    node.check(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    keepdims = bool(node.attr("keepdims", 1))
    if node.attr("select_last_index", 0):
        # The last maximum is the first one of the axis reversed, counted from its end.
        axis = axis + rank if axis < 0 else axis
        reversed_x = node.b.slice(x, starts=[-1], ends=[_INT64_MIN], axes=[axis], steps=[-1])
        index = node.b.argmax(reversed_x, axis=axis, keepdims=keepdims)
        last = node.b.const(np.array(x.type.shape[axis] - 1, np.int64))
        return node.b.subtract(last, index)
    return node.b.argmax(x, axis=axis, keepdims=keepdims)
