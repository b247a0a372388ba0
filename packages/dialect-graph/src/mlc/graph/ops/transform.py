"""Injective ops: reshapes, transposes, slicing, padding, gathering and layout changes."""

from __future__ import annotations

import math

import numpy as np

from mlc.graph import layout
from mlc.graph.dialect import GraphOp, PatternKind, Tensor, graph, ints, shape_check, string, tensor
from mlc.ir.opdef.declare import OperandDef, ResultDef

_UNARY_FORMAT = "$x attr-dict `:` type($x) `->` type($result)"


class Injective(GraphOp):
    """An op of one tensor whose every output element is one input element."""

    x = OperandDef(Tensor)
    result = ResultDef(Tensor)
    pattern = PatternKind.INJECTIVE
    assembly_format = _UNARY_FORMAT


def reshape_target(shape: tuple[int, ...], newshape: tuple[int, ...]) -> tuple[int, ...]:
    """`newshape` with 0 (copy the input dimension) and one -1 (whatever is left)
    resolved, as Relay and ONNX read it."""
    out = [shape[i] if d == 0 and i < len(shape) else d for i, d in enumerate(newshape)]
    shape_check(out.count(-1) <= 1, f"at most one -1 in shape {list(newshape)}")
    shape_check(all(d >= 0 or d == -1 for d in out), f"invalid shape {list(newshape)}")
    total = math.prod(shape)
    if -1 in out:
        known = math.prod(d for d in out if d != -1)
        shape_check(known > 0 and total % known == 0,
                    f"cannot reshape {list(shape)} into {list(newshape)}")
        out[out.index(-1)] = total // known
    shape_check(math.prod(out) == total, f"cannot reshape {list(shape)} ({total} elements) into "
                                         f"{list(newshape)} ({math.prod(out)} elements)")
    return tuple(out)


@graph.op
class ReshapeOp(Injective):
    """Same elements, new shape; `shape` may hold one -1 (inferred) and 0s (copied)."""

    name = "graph.reshape"
    shape = ints(doc="the new shape")

    @classmethod
    def infer(cls, types, attrs):
        return [tensor(reshape_target(types[0].shape, attrs["shape"]), types[0].element_type)]

    @classmethod
    def reference(cls, attrs, x):
        return x.reshape(reshape_target(x.shape, attrs["shape"]))


@graph.op
class LayoutTransformOp(Injective):
    """Re-lays a tensor between NCHW and NCHW{n}c (or a kernel between OIHW and
    OIHW{i}i{o}o)."""

    name = "graph.layout_transform"
    src_layout = string(doc="layout of the operand")
    dst_layout = string(doc="layout of the result")

    @classmethod
    def infer(cls, types, attrs):
        return [tensor(layout.converted_shape(types[0].shape, attrs["src_layout"], attrs["dst_layout"]),
                       types[0].element_type)]

    @classmethod
    def reference(cls, attrs, x):
        return layout.convert(np.asarray(x), attrs["src_layout"], attrs["dst_layout"])
