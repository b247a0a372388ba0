"""Reductions over axes: sum, mean, max, min, prod, argmax, argmin."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from mlc.graph.attributes import flag, integer, ints
from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp, PatternKind, UndefinedResultError, shape_check
from mlc.graph.ops.elementwise import divide
from mlc.graph.ops.transform import normalize_axes, normalize_axis
from mlc.graph.types import NumericTensor, Tensor, tensor
from mlc.ir import FloatType, Type, f64, i1, i8, i64
from mlc.ir.opdef import OperandDef, ResultDef

# ------------------------------------------------------------------ compute-rule helpers
# (shared with nn.py and norm.py: every op that accumulates does it as its reference)


def accumulator(element: Type) -> Type:
    """The type a sum or product of `element`s accumulates in, as the references do:
    float64 for floats (rounded once at the end), the element type itself for
    integers (the references' 64-bit accumulation wraps to the same bits once
    stored)."""
    return f64 if isinstance(element, FloatType) else element


def ordered(element: Type) -> Type:
    """The type `element`s are compared in: i8 for i1, where a signed comparison would
    make true (-1) the smaller; the element type otherwise."""
    return i8 if element == i1 else element


def rounded(te, tensor, element: Type, name: str):
    """`tensor` converted once to `element` (itself when it has that type already)."""
    if tensor.dtype == element:
        return tensor
    return te.compute(tensor.shape, lambda *index: te.cast(tensor[index], element), name=name)


def reduction_index(rank: int, axes, keepdims: bool, out_index, reduce_axes) -> tuple:
    """The index into a reduced operand of rank `rank`: the reduce axes at the sorted
    `axes`, the output's indices elsewhere (skipping the kept extent-1 ones)."""
    outputs, reduced = iter(out_index), iter(reduce_axes)
    index = []
    for d in range(rank):
        if d in axes:
            index.append(next(reduced))
            if keepdims:
                next(outputs)
        else:
            index.append(next(outputs))
    return tuple(index)


def reduced_shape(shape, axes, keepdims: bool) -> tuple[int, ...]:
    """`shape` with `axes` dropped, or kept with extent 1."""
    if keepdims:
        return tuple(1 if d in axes else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in axes)


def reduce_stage(te, x, axes, keepdims: bool, combiner: str, dtype: Type, name: str):
    """The `combiner` ("sum", "prod", "max" or "min") of `x`'s elements converted to
    `dtype` over `axes`: TOPI's reduction stage. Without axes, the converted elements."""
    axes = sorted(axes)
    reducer = getattr(te, combiner)

    def element(*out_index):
        reduce_axes = [te.reduce_axis(x.shape[a], name=f"k{a}") for a in axes]
        value = te.cast(x[reduction_index(len(x.shape), axes, keepdims, out_index,
                                          reduce_axes)], dtype)
        return reducer(value, axis=reduce_axes) if reduce_axes else value

    return te.compute(reduced_shape(x.shape, axes, keepdims), element, name=name)


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
        if cls.combiner in ("max", "min"):
            wide, combiner = ordered(element), cls.combiner
        elif cls.combiner == "mean" and not isinstance(element, FloatType):
            wide, combiner = (i64 if getattr(element, "width", 64) < 64 else element), "sum"
        else:
            wide, combiner = accumulator(element), cls.combiner.replace("mean", "sum")
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
