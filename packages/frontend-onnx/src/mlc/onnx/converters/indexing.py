"""ONNX ops that address elements by index: N-d gathers and scatters, one-hot, top-k,
and the cumulative scans."""

from __future__ import annotations

import numpy as np

from mlc.ir import IntegerType, Value
from mlc.onnx.node import Node
from mlc.onnx.registry import converter


@converter("GatherND", 12)
def gather_nd(node: Node) -> Value:
    return node.b.gather_nd(node.input(0), node.input(1), batch_dims=node.attr("batch_dims", 0))


@converter("ScatterND", 16)
def scatter_nd(node: Node) -> Value:
    return node.b.scatter_nd(node.input(0), node.input(1), node.input(2),
                             reduction=node.attr("reduction", "none"))


@converter("ScatterElements", 11)
@converter("Scatter", 9)  # ScatterElements under its old name
def scatter_elements(node: Node) -> Value:
    data = node.input(0)
    rank = len(data.type.shape)
    axis = node.attr("axis", 0)
    node.check(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    return node.b.scatter_elements(data, node.input(1), node.input(2), axis=axis % rank,
                                   reduction=node.attr("reduction", "none"))


@converter("OneHot", 11)
def one_hot(node: Node) -> Value:
    indices = node.input(0)
    if str(indices.type.element_type) not in ("i32", "i64"):  # ONNX: cast to int64
        indices = node.b.cast(indices, dtype=IntegerType(64))
    depth = int(node.constant(1).reshape(-1)[0])
    values = node.constant(2).reshape(-1)
    node.check(values.size == 2, f"values has {values.size} elements, not 2 (off, on)")
    python = int if values.dtype.kind in "iub" else float
    return node.b.one_hot(indices, depth=depth, axis=node.attr("axis", -1),
                          off_value=python(values[0]), on_value=python(values[1]),
                          dtype=node.type(2).element_type)


@converter("TopK", 11)
def top_k(node: Node) -> list[Value]:
    x = node.input(0)
    k = int(node.constant(1).reshape(-1)[0])
    return node.b.top_k(x, k=k, axis=node.attr("axis", -1), largest=bool(node.attr("largest", 1)))


def _scan(node: Node, graph_op: str) -> Value:
    x = node.input(0)
    axis = int(node.constant(1).reshape(-1)[0])
    rank = len(x.type.shape)
    node.check(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    return node.b.op(graph_op, x, axis=axis % rank, exclusive=bool(node.attr("exclusive", 0)),
                     reverse=bool(node.attr("reverse", 0)))


@converter("CumSum", 11)
def cumsum(node: Node) -> Value:
    return _scan(node, "cumsum")


@converter("CumProd", 26)
def cumprod(node: Node) -> Value:
    return _scan(node, "cumprod")


@converter("ReverseSequence", 10)
def reverse_sequence(node: Node) -> Value:
    """Each batch entry's first sequence_lens[b] steps along the time axis reversed, the
    rest as they are: a gather along the time axis from index len - 1 - t where t < len,
    t elsewhere (the lengths may be run-time values)."""
    b, x = node.b, node.input(0)
    shape = x.type.shape
    time_axis, batch_axis = node.attr("time_axis", 0), node.attr("batch_axis", 1)
    node.check(len(shape) >= 2 and {time_axis, batch_axis} == {0, 1},
               "time_axis and batch_axis must be 0 and 1 (either way) of an input of rank >= 2")
    lengths = b.cast(node.input(1), dtype=IntegerType(64))
    # Steps along the time axis and lengths along the batch axis, as a [2]-shaped grid.
    steps = b.range(start=0, limit=shape[time_axis], delta=1, dtype=IntegerType(64))
    grid = (-1, 1) if time_axis == 0 else (1, -1)
    steps = b.reshape(steps, shape=grid)
    lengths = b.reshape(lengths, shape=grid[::-1])
    reversed_step = b.subtract(b.subtract(lengths, b.const(np.int64(1))), steps)
    index = b.where(b.less(steps, lengths), reversed_step, steps)
    index = b.reshape(index, shape=tuple(shape[:2]) + (1,) * (len(shape) - 2))
    return b.gather_elements(x, b.broadcast_to(index, shape=shape), axis=time_axis)
