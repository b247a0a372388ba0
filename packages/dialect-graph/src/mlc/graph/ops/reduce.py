"""Reductions over axes: sum, mean, max, min, prod, argmax, argmin."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from mlc.graph.attributes import flag, integer, ints
from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp, PatternKind, UndefinedResultError, shape_check
from mlc.graph.ops.compute import accumulator, ordered, reduce_stage, reduction_index, rounded
from mlc.graph.ops.elementwise import divide
from mlc.graph.ops.transform import normalize_axes, normalize_axis
from mlc.graph.types import NumericTensor, Tensor, tensor
from mlc.ir import FloatType, IntegerType, Type, i64
from mlc.ir.opdef import OperandDef, ResultDef


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
        # Floats accumulate in float64, integers in 64 bits (which wraps exactly as
        # the element type would, modulo its 2^bits, once stored).
        wide = {"f": np.float64, "i": np.int64, "u": np.uint64}.get(x.dtype.kind)
        return cls.fn(x if wide is None else x.astype(wide), axis=cls.reduced_axes(x.ndim, attrs),
                      keepdims=attrs["keepdims"])

    combiner = "sum"  # the te reducer of the compute rule: sum, prod, max, min or mean

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's reduction: one reduce stage in the accumulator type (integer means
        in 64 bits, as the reference), then the division of a mean and the rounding
        to the element type."""
        element, short = x.dtype, cls.op_def.name.split(".")[1]
        axes = cls.reduced_axes(len(x.shape), attrs)
        combiner = "sum" if cls.combiner == "mean" else cls.combiner
        if combiner in ("max", "min"):
            wide = ordered(element)
        elif cls.combiner == "mean" and isinstance(element, IntegerType) and element.width < 64:
            wide = i64  # the reference divides the sum taken in 64 bits
        else:
            wide = accumulator(element)
        total = reduce_stage(te, x, axes, attrs["keepdims"], combiner, wide, f"T_{short}_red")
        if cls.combiner != "mean":
            return rounded(te, total, element, f"T_{short}")
        count = math.prod(x.shape[a] for a in axes)
        # Integer division truncates toward zero, as the reference's.
        return te.compute(total.shape, lambda *i: te.cast(total[i] / count, element),
                          name=f"T_{short}")


def mean(x: np.ndarray, axis: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """The sum over `axis` divided by the count: IEEE for floats (0/0 = NaN over an
    empty axis), truncated toward zero for integers."""
    count = math.prod(x.shape[a] for a in axis)
    total = np.sum(x, axis=axis, keepdims=keepdims)
    if x.dtype.kind not in "iu":
        return total / count
    if count == 0:
        raise UndefinedResultError("the integer mean over an axis of extent 0 has no "
                                   "defined result")
    return divide(total, np.asarray(count, total.dtype))


def _reduce(op_name: str, fn: Callable, doc: str, needs_elements: bool = False,
            operand=NumericTensor) -> type:
    short = op_name.split(".")[1]
    cls = type(short.title() + "Op", (AxesReduce,),
               {"name": op_name, "__doc__": doc, "fn": staticmethod(fn),
                "needs_elements": needs_elements, "x": OperandDef(operand),
                "result": ResultDef(operand), "combiner": short, "__module__": __name__})
    return graph.op(cls)


_ACCUMULATED = "NaN: a NaN gives NaN; floats are accumulated in float64."
SumOp = _reduce("graph.sum", np.sum, f"""Sum over `axes`.

Integers: accumulated in 64 bits, so the sum wraps modulo 2^bits of the element
type. Over an axis of extent 0 the sum is 0.

{_ACCUMULATED}""")
MeanOp = _reduce("graph.mean", mean, f"""Arithmetic mean over `axes`.

Integers: the sum (accumulated in 64 bits, wrapping beyond them) divided by the
count, truncated toward zero; over an axis of extent 0 there is no defined result (the
interpreter reports it, graph-fold-constant does not fold it).

{_ACCUMULATED} Over an axis of extent 0 the float mean is NaN (0/0).""")
MaxOp = _reduce("graph.max", np.max, """Maximum over `axes`.

Integers: exact; on i1 it is "any". An axis of extent 0 is a verifier error.

NaN: a NaN gives NaN.""", needs_elements=True, operand=Tensor)
MinOp = _reduce("graph.min", np.min, """Minimum over `axes`.

Integers: exact; on i1 it is "all". An axis of extent 0 is a verifier error.

NaN: a NaN gives NaN.""", needs_elements=True, operand=Tensor)
ProdOp = _reduce("graph.prod", np.prod, f"""Product over `axes`.

Integers: wraps modulo 2^bits. Over an axis of extent 0 the product is 1.

{_ACCUMULATED} 0 · inf is NaN.""")


class ArgReduce(Reduce):
    """The index of an extreme element along `axis`, as i64; `fn` is numpy's argmax or
    argmin."""

    axis = integer(0, "the axis searched (negative counts from the end)")
    keepdims = flag(False, "keep the reduced axis, with extent 1")
    select_last_index = flag(False, "on ties, the last index wins instead of the first")
    result_element = i64
    needs_elements = True

    @staticmethod
    def fn(x: np.ndarray, axis: int) -> np.ndarray:  # pragma: no cover - each op sets it
        raise NotImplementedError

    @classmethod
    def reduced_axes(cls, rank, attrs):
        return (normalize_axis(attrs["axis"], rank),)

    @classmethod
    def reference(cls, attrs, x):
        axis = normalize_axis(attrs["axis"], x.ndim)
        if attrs["select_last_index"]:
            # The first winner of the reversed axis is the last one of the axis.
            index = x.shape[axis] - 1 - cls.fn(np.flip(x, axis), axis=axis)
        else:
            index = cls.fn(x, axis=axis)
        return np.expand_dims(index, axis) if attrs["keepdims"] else index

    extreme = "max"  # the te reducer finding the winning value

    @classmethod
    def compute(cls, te, attrs, x):
        """Two reduce stages (TVM folds them into one reduction of (index, value)
        pairs): the extreme value, NaN-propagating, then the first (or last) index
        holding it, a NaN matching a NaN."""
        short, rank = cls.op_def.name.split(".")[1], len(x.shape)
        axis, keepdims = normalize_axis(attrs["axis"], rank), attrs["keepdims"]
        extent, compared = x.shape[axis], ordered(x.dtype)
        extreme = reduce_stage(te, x, (axis,), keepdims, cls.extreme, compared,
                               f"T_{short}_value")
        last = attrs["select_last_index"]

        def index(*out_index):
            k = te.reduce_axis(extent, name="k")
            value = te.cast(x[reduction_index(rank, (axis,), keepdims, out_index, (k,))], compared)
            best = extreme[out_index]
            hit = te.equal(value, best)
            if isinstance(compared, FloatType):
                hit = te.if_then_else(te.isnan(best), te.isnan(value), hit)
            position = te.cast(k, i64)
            if last:
                return te.max(te.if_then_else(hit, position, -1), axis=k)
            return te.min(te.if_then_else(hit, position, extent), axis=k)

        return te.compute(extreme.shape, index, name=f"T_{short}")


@graph.op
class ArgMaxOp(ArgReduce):
    """Index of the largest element along `axis`, as i64 (ONNX ArgMax).

    On ties the first index wins, as in numpy, or the last with `select_last_index`.

    Integers: exact; on i1 true is the larger.

    NaN: counts as the largest value: the index of the first NaN (the last, with
    `select_last_index`) is the result.
    """

    name = "graph.argmax"
    fn = staticmethod(np.argmax)


@graph.op
class ArgMinOp(ArgReduce):
    """Index of the smallest element along `axis`, as i64 (ONNX ArgMin).

    On ties the first index wins, as in numpy, or the last with `select_last_index`.

    Integers: exact; on i1 false is the smaller.

    NaN: counts as the smallest value: the index of the first NaN (the last, with
    `select_last_index`) is the result.
    """

    name = "graph.argmin"
    fn = staticmethod(np.argmin)
    extreme = "min"
