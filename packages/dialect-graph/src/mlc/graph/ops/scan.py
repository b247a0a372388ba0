"""Scans along an axis: cumsum and cumprod (ONNX CumSum and CumProd)."""

from __future__ import annotations

import numpy as np

from mlc.graph.attributes import flag, integer
from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp, PatternKind
from mlc.graph.ops.compute import accumulator, rounded
from mlc.graph.ops.transform import normalize_axis
from mlc.graph.types import NumericTensor
from mlc.ir import FloatType
from mlc.ir.opdef import OperandDef, ResultDef, SameOperandsAndResultType


class Scan(GraphOp):
    """A running combination along `axis`: element i of the result combines the
    elements up to i (`exclusive`: before i; `reverse`: from the end). `fn` is numpy's
    cumulative function, `identity` what an empty prefix gives, `combiner` te's
    reduction of the same combination."""

    x = OperandDef(NumericTensor)
    result = ResultDef(NumericTensor)
    axis = integer(0, "the axis scanned along (negative counts from the end)")
    exclusive = flag(False, "leave out element i itself (the first result is the identity)")
    reverse = flag(False, "scan from the last element toward the first")
    # TVM's cumsum is opaque: each element depends on a whole prefix of the axis.
    pattern = PatternKind.OPAQUE
    traits = (SameOperandsAndResultType,)
    assembly_format = "$x attr-dict `:` type($result)"
    identity = 0
    combiner = "sum"

    @staticmethod
    def fn(x: np.ndarray, axis: int) -> np.ndarray:  # pragma: no cover - each op sets it
        raise NotImplementedError

    @classmethod
    def infer(cls, types, attrs):
        normalize_axis(attrs["axis"], types[0].rank)
        return [types[0]]

    @classmethod
    def reference(cls, attrs, x):
        axis = normalize_axis(attrs["axis"], x.ndim)
        # Floats accumulate in float64 and are rounded once; integers in 64 bits, which
        # wrap as the element type would once stored.
        wide = {"f": np.float64, "i": np.int64, "u": np.uint64}[x.dtype.kind]
        x = x.astype(wide)
        if attrs["reverse"]:
            x = np.flip(x, axis)
        out = cls.fn(x, axis=axis)
        if attrs["exclusive"]:
            # Shifted one place along the axis, the identity in front.
            first = np.full_like(np.take(out, [0], axis=axis), cls.identity)
            out = np.concatenate([first, np.take(out, range(x.shape[axis] - 1), axis=axis)],
                                 axis=axis)
        return np.flip(out, axis) if attrs["reverse"] else out

    @classmethod
    def compute(cls, te, attrs, x):
        """Each element a reduction over the whole axis, the elements outside its prefix
        replaced by the identity (TVM's scan is sequential code, which a te stage cannot
        say; this does n² work for the same result). The reduction walks the prefix in
        the reference's order (from the end when `reverse`), in the accumulator type;
        a float sum starts from -0.0, its exact identity, so a prefix of -0.0s sums to
        -0.0 as in the reference."""
        axis = normalize_axis(attrs["axis"], len(x.shape))
        n = x.shape[axis]
        acc = accumulator(x.dtype)
        float_sum = cls.combiner == "sum" and isinstance(acc, FloatType)
        identity = te.const(-0.0 if float_sum else cls.identity, acc)

        def element(*index):
            k = te.reduce_axis(n, name="k")
            # The k-th element of the walk, and whether it is in the prefix of index[axis].
            along = (n - 1) - k if attrs["reverse"] else k
            step = te.cast(k, "int64")
            end = te.cast((n - 1) - index[axis] if attrs["reverse"] else index[axis], "int64")
            inside = step < end if attrs["exclusive"] else step <= end
            value = te.cast(x[(*index[:axis], along, *index[axis + 1:])], acc)
            reducer = getattr(te, cls.combiner)
            return reducer(te.if_then_else(inside, value, identity), axis=k,
                           identity=-0.0 if float_sum else None)

        result = te.compute(x.shape, element, name=f"T_{cls.combiner}_scan")
        if not (float_sum and attrs["exclusive"]):
            return rounded(te, result, x.dtype, f"T_{cls.combiner}_scan_round")
        # The empty prefix is the reference's identity, +0.0, not the -0.0 it sums from.
        first = n - 1 if attrs["reverse"] else 0
        return te.compute(x.shape, lambda *index: te.cast(te.if_then_else(
            te.equal(te.cast(index[axis], "int64"), first), te.const(0.0, acc),
            result[index]), x.dtype), name=f"T_{cls.combiner}_scan_round")


@graph.op
class CumSumOp(Scan):
    """Running sum along `axis` (ONNX CumSum).

    Integers: wraps modulo 2^bits.

    NaN: from a NaN on, the sums are NaN; floats are accumulated in float64."""

    name = "graph.cumsum"
    fn = staticmethod(np.cumsum)


@graph.op
class CumProdOp(Scan):
    """Running product along `axis` (ONNX CumProd).

    Integers: wraps modulo 2^bits.

    NaN: from a NaN on, the products are NaN; floats are accumulated in float64
    (0 · inf is NaN)."""

    name = "graph.cumprod"
    fn = staticmethod(np.cumprod)
    combiner = "prod"
    identity = 1
