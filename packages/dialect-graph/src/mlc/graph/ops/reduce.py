"""Reductions over axes: sum, mean, max, min, prod, argmax."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mlc.graph.dialect import (
    GraphOp,
    PatternKind,
    Tensor,
    flag,
    graph,
    integer,
    ints,
    shape_check,
    tensor,
)
from mlc.graph.ops.transform import normalize_axes, normalize_axis
from mlc.ir.core.attributes import Type, i64
from mlc.ir.opdef.declare import OperandDef, ResultDef


class Reduce(GraphOp):
    """A commutative reduction of one tensor over some of its axes; the reduced axes
    are dropped from the result, or kept with extent 1 under the subclass' `keepdims`."""

    x = OperandDef(Tensor)
    result = ResultDef(Tensor)
    pattern = PatternKind.COMM_REDUCE
    assembly_format = "$x attr-dict `:` type($x) `->` type($result)"
    result_element: Type | None = None  # None: the operand's element type
    needs_elements = False  # max, min and argmax have no value over an empty axis

    @classmethod
    def reduced_axes(cls, rank: int, attrs) -> tuple[int, ...]:
        """The normalized axes reduced over."""
        raise NotImplementedError

    @classmethod
    def infer(cls, types, attrs):
        x = types[0]
        axes = cls.reduced_axes(x.rank, attrs)
        if cls.needs_elements:
            for a in axes:
                shape_check(x.shape[a] > 0, f"cannot reduce axis {a} of extent 0: it has no "
                                            f"elements")
        if attrs["keepdims"]:
            shape = [1 if i in axes else d for i, d in enumerate(x.shape)]
        else:
            shape = [d for i, d in enumerate(x.shape) if i not in axes]
        return [tensor(shape, cls.result_element or x.element_type)]


class AxesReduce(Reduce):
    """A reduction over the axes in `axes` (every axis when it is empty); `fn` is its
    numpy semantics."""

    axes = ints((), "the reduced axes (negative ones count from the end); empty: all")
    keepdims = flag(False, "keep the reduced axes, with extent 1")

    @staticmethod
    def fn(x: np.ndarray, axis: tuple[int, ...], keepdims: bool) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    @classmethod
    def reduced_axes(cls, rank, attrs):
        return normalize_axes(attrs["axes"], rank) if attrs["axes"] else tuple(range(rank))

    @classmethod
    def reference(cls, attrs, x):
        # Sums and products of floats accumulate in float64, of integers in int64.
        wide = x.astype(np.float64) if np.issubdtype(x.dtype, np.floating) else \
            x.astype(np.int64) if np.issubdtype(x.dtype, np.integer) else x
        return cls.fn(wide, axis=cls.reduced_axes(x.ndim, attrs), keepdims=attrs["keepdims"])


def _reduce(op_name: str, fn: Callable, doc: str, needs_elements: bool = False) -> type:
    cls = type(op_name.split(".")[1].title() + "Op", (AxesReduce,),
               {"name": op_name, "__doc__": doc, "fn": staticmethod(fn),
                "needs_elements": needs_elements, "__module__": __name__})
    return graph.op(cls)


SumOp = _reduce("graph.sum", np.sum, "Sum over `axes`.")
MeanOp = _reduce("graph.mean", np.mean, "Arithmetic mean over `axes`.")
MaxOp = _reduce("graph.max", np.max, "Maximum over `axes`.", needs_elements=True)
MinOp = _reduce("graph.min", np.min, "Minimum over `axes`.", needs_elements=True)
ProdOp = _reduce("graph.prod", np.prod, "Product over `axes`.")


@graph.op
class ArgMaxOp(Reduce):
    """Index of the largest element along `axis`, as i64.

    On ties the first index wins, as in numpy."""

    name = "graph.argmax"
    axis = integer(0, "the axis searched (negative counts from the end)")
    keepdims = flag(False, "keep the reduced axis, with extent 1")
    result_element = i64
    needs_elements = True

    @classmethod
    def reduced_axes(cls, rank, attrs):
        return (normalize_axis(attrs["axis"], rank),)

    @classmethod
    def reference(cls, attrs, x):
        return np.argmax(x, axis=attrs["axis"], keepdims=attrs["keepdims"])
