"""Normalisation ops in their inference form: batch_norm (running statistics, one
result) and layer_norm (statistics over the trailing axes)."""

from __future__ import annotations

import math

import numpy as np

from mlc.graph.attributes import integer, real
from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp, PatternKind, shape_check
from mlc.graph.ops.compute import accumulator
from mlc.graph.ops.transform import normalize_axis
from mlc.graph.types import FloatTensor
from mlc.ir.opdef import OperandDef, ResultDef


def _check_elements(data, others, names) -> None:
    for name, t in zip(names, others):
        shape_check(t.element_type == data.element_type,
                    f"{name} has element type {t.element_type}, data has {data.element_type}")


@graph.op
class BatchNormOp(GraphOp):
    """Batch normalisation at inference, with the running statistics:

        (data - moving_mean) / sqrt(moving_var + epsilon) * gamma + beta

    each of gamma, beta, moving_mean and moving_var a vector of the channels (the
    extent of `axis`), broadcast along it. Relay's `nn.batch_norm` also returns the
    statistics; at inference only the normalised tensor is used, so this op has one
    result. graph-simplify-inference rewrites it into a multiply and an add.

    NaN: a NaN gives NaN; computed in float64 and rounded once.
    """

    name = "graph.batch_norm"
    data = OperandDef(FloatTensor)
    gamma = OperandDef(FloatTensor)
    beta = OperandDef(FloatTensor)
    moving_mean = OperandDef(FloatTensor)
    moving_var = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)
    axis = integer(1, "the channel axis")
    epsilon = real(1e-5, "added to the variance before the square root")
    pattern = PatternKind.OPAQUE
    assembly_format = ("$data `,` $gamma `,` $beta `,` $moving_mean `,` $moving_var attr-dict "
                       "`:` functional-type(operands, results)")

    @classmethod
    def infer(cls, types, attrs):
        data, *params = types
        names = ("gamma", "beta", "moving_mean", "moving_var")
        shape_check(data.rank >= 1, "data must have rank >= 1, got a rank-0 tensor")
        axis = normalize_axis(attrs["axis"], data.rank)
        channels = data.shape[axis]
        for name, t in zip(names, params):
            shape_check(t.shape == (channels,),
                        f"{name} must have shape [{channels}] (the extent of axis {attrs['axis']} "
                        f"of data {list(data.shape)}), got {list(t.shape)}")
        _check_elements(data, params, names)
        shape_check(attrs["epsilon"] >= 0, f"epsilon must be >= 0, got {attrs['epsilon']}")
        return [data]

    @classmethod
    def reference(cls, attrs, data, gamma, beta, mean, var):
        axis = attrs["axis"] % data.ndim
        shape = (-1,) + (1,) * (data.ndim - axis - 1)  # broadcasts along `axis`

        def channel(v):
            return np.asarray(v, np.float64).reshape(shape)

        scale = channel(gamma) / np.sqrt(channel(var) + attrs["epsilon"])
        return (data.astype(np.float64) - channel(mean)) * scale + channel(beta)

    @classmethod
    def compute(cls, te, attrs, data, gamma, beta, mean, var):
        """TOPI's batch_norm at inference: one elementwise stage in the accumulator
        type (the reference's operations in its order)."""
        axis, acc = normalize_axis(attrs["axis"], len(data.shape)), accumulator(data.dtype)

        def normalized(*index):
            def channel(v):
                return te.cast(v[index[axis]], acc)

            scale = channel(gamma) / te.sqrt(channel(var) + attrs["epsilon"])
            value = (te.cast(data[index], acc) - channel(mean)) * scale + channel(beta)
            return te.cast(value, data.dtype)

        return te.compute(data.shape, normalized, name="T_batch_norm")


@graph.op
class LayerNormOp(GraphOp):
    """Layer normalisation (ONNX LayerNormalization): every slice over the axes from
    `axis` to the last is normalised by its own mean and (population) variance,

        (data - mean) / sqrt(var + epsilon) * gamma + beta

    where gamma and beta have the shape of those trailing axes.

    The moments are taken of the slice shifted by its first element, mean = k + sum(x -
    k)/n (two passes on shifted data: as stable as Welford's update and exact where it
    matters): a constant slice has mean exactly its value and variance exactly 0, so it
    normalises to exactly beta, and with epsilon = 0 to NaN (0/0), as onnx.reference
    and onnxruntime give; a one-pass or unshifted mean would leave rounding residue
    divided by sqrt(epsilon) (up to 3.5e-4 in float32).

    NaN: a NaN in a slice makes that slice NaN; computed in float64 and rounded once.
    """

    name = "graph.layer_norm"
    data = OperandDef(FloatTensor)
    gamma = OperandDef(FloatTensor)
    beta = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)
    axis = integer(-1, "the first normalised axis; normalisation runs over it and every later one")
    epsilon = real(1e-5, "added to the variance before the square root")
    pattern = PatternKind.OPAQUE
    assembly_format = "$data `,` $gamma `,` $beta attr-dict `:` functional-type(operands, results)"

    @classmethod
    def infer(cls, types, attrs):
        data, gamma, beta = types
        shape_check(data.rank >= 1, "data must have rank >= 1, got a rank-0 tensor")
        axis = normalize_axis(attrs["axis"], data.rank)
        trailing = data.shape[axis:]
        for name, t in (("gamma", gamma), ("beta", beta)):
            shape_check(t.shape == trailing,
                        f"{name} must have shape {list(trailing)} (the axes from {attrs['axis']} "
                        f"of data {list(data.shape)}), got {list(t.shape)}")
        _check_elements(data, (gamma, beta), ("gamma", "beta"))
        shape_check(attrs["epsilon"] >= 0, f"epsilon must be >= 0, got {attrs['epsilon']}")
        return [data]

    @classmethod
    def reference(cls, attrs, data, gamma, beta):
        x = data.astype(np.float64)
        if x.size == 0:  # no slice to normalise (numpy's mean of nothing would warn)
            return x
        axis = attrs["axis"] % x.ndim
        axes = tuple(range(axis, x.ndim))
        shift = x[(*[slice(None)] * axis, *[slice(0, 1)] * (x.ndim - axis))]
        mean = shift + (x - shift).mean(axis=axes, keepdims=True)
        var = np.square(x - mean).mean(axis=axes, keepdims=True)
        return (x - mean) / np.sqrt(var + attrs["epsilon"]) * gamma.astype(np.float64) \
            + beta.astype(np.float64)

    @classmethod
    def compute(cls, te, attrs, data, gamma, beta):
        """Three stages, as the reference computes (TOPI's layer_norm takes both
        moments in one pass; the shifted two-pass variance is the reference's): the
        slices' sums of their elements less their first, the sums of squared deviations
        from their means, the normalisation; in the accumulator type."""
        rank, acc = len(data.shape), accumulator(data.dtype)
        axis = normalize_axis(attrs["axis"], rank)
        trailing = tuple(range(axis, rank))
        count = math.prod(data.shape[axis:])

        def first(lead):
            return te.cast(data[(*lead, *[0] * len(trailing))], acc)

        def shifted(*lead):
            ks = [te.reduce_axis(data.shape[d], name=f"k{d}") for d in trailing]
            return te.sum(te.cast(data[(*lead, *ks)], acc) - first(lead), axis=ks)

        total = te.compute(data.shape[:axis], shifted, name="T_layer_norm_sum")

        def deviation(index):
            lead = index[:axis]
            return te.cast(data[index], acc) - (first(lead) + total[lead] / count)

        def squares(*lead):
            ks = [te.reduce_axis(data.shape[d], name=f"k{d}") for d in trailing]
            d = deviation((*lead, *ks))
            return te.sum(d * d, axis=ks)

        square_sum = te.compute(total.shape, squares, name="T_layer_norm_squares")

        def normalized(*index):
            spread = te.sqrt(square_sum[index[:axis]] / count + attrs["epsilon"])
            inner = index[axis:]
            value = deviation(index) / spread * te.cast(gamma[inner], acc) \
                + te.cast(beta[inner], acc)
            return te.cast(value, data.dtype)

        return te.compute(data.shape, normalized, name="T_layer_norm")
