"""ONNX reductions: Reduce* (the composite ones written on graph reductions) and ArgMax."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mlc.ir import Value, element_dtype
from mlc.onnx.node import Node
from mlc.onnx.registry import converter

Reduction = Callable[[Node, Value, list[int], bool], Value]


def _plain(graph_op: str) -> Reduction:
    return lambda node, x, axes, keepdims: node.b.op(graph_op, x, axes=axes, keepdims=keepdims)


def _of_squares(node: Node, x: Value, axes: list[int], keepdims: bool) -> Value:
    return node.b.sum(node.b.multiply(x, x), axes=axes, keepdims=keepdims)


def _log_sum_exp(node: Node, x: Value, axes: list[int], keepdims: bool) -> Value:
    """log(sum(exp(x))) as m + log(sum(exp(x - m))), m the maximum: no overflow for
    large x. An infinite maximum is not subtracted (inf - inf is NaN): m is 0 then, so
    a slice holding +inf gives +inf and one of only -inf gives -inf, as onnxruntime
    and the definition give. Over no elements: log(0), -inf."""
    b = node.b
    if any(x.type.shape[a] == 0 for a in axes):
        return b.log(b.sum(b.exp(x), axes=axes, keepdims=keepdims))
    peak = b.max(x, axes=axes, keepdims=True)
    zero = b.const(np.zeros(peak.type.shape), dtype=peak.type.element_type)
    peak = b.where(b.isinf(peak), zero, peak)
    total = b.sum(b.exp(b.subtract(x, peak)), axes=axes, keepdims=True)
    result = b.add(b.log(total), peak)
    if keepdims:
        return result
    return b.squeeze(result, axes=axes)


# ONNX op -> how it reduces, and the opset from which `axes` is an input rather than
# an attribute (ReduceSum moved first, at 13; the others at 18).
_REDUCE: dict[str, tuple[Reduction, int]] = {
    "ReduceSum": (_plain("sum"), 13), "ReduceMean": (_plain("mean"), 18),
    "ReduceMax": (_plain("max"), 18), "ReduceMin": (_plain("min"), 18),
    "ReduceProd": (_plain("prod"), 18),
    "ReduceL1": (lambda n, x, axes, k: n.b.sum(n.b.abs(x), axes=axes, keepdims=k), 18),
    "ReduceL2": (lambda n, x, axes, k: n.b.sqrt(_of_squares(n, x, axes, k)), 18),
    "ReduceSumSquare": (_of_squares, 18),
    "ReduceLogSum": (lambda n, x, axes, k: n.b.log(n.b.sum(x, axes=axes, keepdims=k)), 18),
    "ReduceLogSumExp": (_log_sum_exp, 18),
}


# What a composite reduction computes of each element before summing: what is left of
# it when no axis is reduced. (LogSumExp's log(exp(x)) is x, infinities included.)
_ELEMENT_STEP = {
    _REDUCE["ReduceL1"][0]: lambda b, x: b.abs(x),
    _REDUCE["ReduceL2"][0]: lambda b, x: b.sqrt(b.multiply(x, x)),
    _REDUCE["ReduceSumSquare"][0]: lambda b, x: b.multiply(x, x),
    _REDUCE["ReduceLogSum"][0]: lambda b, x: b.log(x),
}


def _reduce(node: Node, reduction: Reduction, axes) -> Value:
    x = node.input(0)
    rank = len(x.type.shape)
    axes = [] if axes is None else [int(a) for a in axes]
    if not axes and node.attr("noop_with_empty_axes", 0):
        # Nothing is reduced, but a composite reduction's element step still applies
        # (x^2, |x|, log x ...), as the spec, onnxruntime and onnx.reference compute:
        # the reduction over no axis.
        step = _ELEMENT_STEP.get(reduction)
        return x if step is None else step(node.b, x)
    for a in axes:
        node.check(-rank <= a < rank, f"axis {a} is out of range for rank {rank}")
    axes = sorted({a + rank if a < 0 else a for a in axes}) or list(range(rank))
    keepdims = bool(node.attr("keepdims", 1))
    empty = _EMPTY_MAX_MIN.get(node.op_type)
    if empty is not None and any(x.type.shape[a] == 0 for a in axes):
        # The maximum of nothing is the type's lowest value, the minimum its highest.
        shape = [1 if a in axes else d for a, d in enumerate(x.type.shape)
                 if keepdims or a not in axes]
        dtype = element_dtype(x.type.element_type)
        limits = np.finfo(dtype) if dtype.kind == "f" else \
            (np.iinfo(dtype) if dtype.kind in "iu" else None)
        value = {"f": (-np.inf, np.inf)}.get(dtype.kind) or \
            ((limits.min, limits.max) if limits is not None else (False, True))
        return node.b.const(np.full(shape, value[empty], dtype), dtype=x.type.element_type)
    return reduction(node, x, axes, keepdims)


# Which end of the element type's range an empty ReduceMax or ReduceMin gives.
_EMPTY_MAX_MIN = {"ReduceMax": 0, "ReduceMin": 1}


for _onnx_op, (_reduction, _axes_as_input) in _REDUCE.items():
    def _with_input(node: Node, reduction=_reduction) -> Value:
        return _reduce(node, reduction, node.optional_constant(1))

    def _with_attribute(node: Node, reduction=_reduction) -> Value:
        return _reduce(node, reduction, node.attr("axes", None))

    converter(_onnx_op, _axes_as_input)(_with_input)
    converter(_onnx_op, 1)(_with_attribute)


def _arg_extremum(node: Node, graph_op: str) -> Value:
    x = node.input(0)
    rank = len(x.type.shape)
    axis = node.attr("axis", 0)
    node.check(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    return node.b.op(graph_op, x, axis=axis + rank if axis < 0 else axis,
                     keepdims=bool(node.attr("keepdims", 1)),
                     select_last_index=bool(node.attr("select_last_index", 0)))


@converter("ArgMax", 1)
def argmax(node: Node) -> Value:
    return _arg_extremum(node, "argmax")


@converter("ArgMin", 1)
def argmin(node: Node) -> Value:
    return _arg_extremum(node, "argmin")
