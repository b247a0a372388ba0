"""Ops that address elements by computed indices: gather_nd, scatter_elements,
scatter_nd, one_hot (ONNX GatherND, ScatterElements, ScatterND, OneHot) and top_k
(ONNX TopK).

Indices are i32 or i64 and may be negative (counted from the end of their axis); an
index outside its axis has no defined result: the reference raises
UndefinedResultError, the interpreter reports it, graph-fold-constant does not fold.
"""

from __future__ import annotations

import numpy as np

from mlc.graph.attributes import flag, integer, number, string
from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp, PatternKind, ShapeError, same_element_type, shape_check
from mlc.graph.ops.compute import (
    accumulator,
    from_end,
    ordered,
    result_shape,
    rounded,
    row_major_index,
)
from mlc.graph.ops.constant import number_type, typed_numbers
from mlc.graph.ops.elementwise import wide_floats
from mlc.graph.ops.transform import Gather, IndexTensor, check_indices, normalize_axis
from mlc.graph.types import Tensor, tensor
from mlc.ir import Attribute, FloatType, RankedTensorType, Type, i1, i64
from mlc.ir.interfaces.infer_type import TypeInferenceError
from mlc.ir.opdef import OperandDef, ResultDef


def _nd_positions(data_shape: tuple[int, ...], indices: np.ndarray, first_axis: int,
                  what: str) -> tuple[np.ndarray, ...]:
    """The last axis of `indices` as positions along data's axes from `first_axis` on,
    each checked and wrapped into its axis: one array per addressed axis."""
    return tuple(check_indices(indices[..., j], data_shape[first_axis + j], what)
                 % max(data_shape[first_axis + j], 1) for j in range(indices.shape[-1]))


@graph.op
class GatherNDOp(Gather):
    """Gathers slices of `data` addressed by the last axis of `indices` (ONNX
    GatherND).

    With k = indices.shape[-1] and b = `batch_dims`, each index tuple picks
    data[batch][i0, ..., ik-1]: the result's shape is indices.shape[:-1] +
    data.shape[b + k:]. The first b axes of data and indices agree and are walked
    together.

    Integers and NaN: the gathered elements are passed on as they are. An index
    outside its axis has no defined result (see the module docstring)."""

    name = "graph.gather_nd"
    batch_dims = integer(0, "leading axes data and indices share, walked together")

    @classmethod
    def infer(cls, types, attrs):
        data, indices = types
        b = attrs["batch_dims"]
        shape_check(indices.rank >= 1, "indices must have rank >= 1, got a rank-0 tensor")
        shape_check(0 <= b < min(data.rank, indices.rank),
                    f"batch_dims {b} must be in [0, {min(data.rank, indices.rank) - 1}]")
        shape_check(data.shape[:b] == indices.shape[:b],
                    f"the first {b} axes of data {list(data.shape)} and indices "
                    f"{list(indices.shape)} must agree")
        k = indices.shape[-1]
        shape_check(1 <= k <= data.rank - b,
                    f"indices address {k} axes, data has {data.rank - b} after the batch axes")
        return [tensor((*indices.shape[:-1], *data.shape[b + k:]), data.element_type)]

    @classmethod
    def reference(cls, attrs, data, indices):
        b = attrs["batch_dims"]
        positions = _nd_positions(data.shape, indices, b, "gather_nd")
        # The batch axes index themselves, broadcast against the index tuples.
        batch = tuple(np.arange(n).reshape((-1,) + (1,) * (indices.ndim - 2 - i))
                      for i, n in enumerate(data.shape[:b]))
        return data[batch + positions]

    @classmethod
    def compute(cls, te, attrs, data, indices):
        """TOPI's gather_nd: the batch axes index themselves, then each of the k
        addressed axes reads its position from `indices` (negative from the end, a
        data-dependent load), then the remaining axes index themselves."""
        b, k = attrs["batch_dims"], indices.shape[-1]
        outer = len(indices.shape) - 1

        def element(*index):
            tuple_index = index[:outer]
            positions = [from_end(te, indices[(*tuple_index, j)], data.shape[b + j])
                         for j in range(k)]
            return data[(*tuple_index[:b], *positions, *index[outer:])]

        return te.compute(result_shape(cls, attrs, data, indices), element, name="T_gather_nd")


_REDUCTIONS = ("none", "add", "mul", "max", "min")


def _combine(reduction: str, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    if reduction == "add":
        return old + new
    if reduction == "mul":
        return old * new
    if reduction == "max":
        return np.maximum(old, new)
    if reduction == "min":
        return np.minimum(old, new)
    return new


class Scatter(GraphOp):
    """A copy of `data` with elements written from `updates` at positions `indices`
    names; where several updates meet one element they are applied in row-major
    order of `indices` (the last wins without a reduction)."""

    data = OperandDef(Tensor)
    indices = OperandDef(IndexTensor)
    updates = OperandDef(Tensor)
    result = ResultDef(Tensor)
    reduction = string("none", "how an update combines with the element: none (replaces), "
                               "add, mul, max or min", choices=_REDUCTIONS)
    # TVM's scatter ops are opaque: an output element depends on a search of indices.
    pattern = PatternKind.OPAQUE
    assembly_format = ("$data `,` $indices `,` $updates attr-dict `:` "
                       "functional-type(operands, results)")

    @staticmethod
    def check_reduction(data, attrs) -> None:
        shape_check(attrs["reduction"] in ("none", "max", "min") or data.element_type != i1,
                    f"reduction {attrs['reduction']} is arithmetic, which i1 has not")

    @classmethod
    def scatter_compute(cls, te, attrs, data, count: int, update_at):
        """The result as te stages: each element a reduction over the `count` update
        positions in row-major order (TVM's scatter is sequential code; this does
        |data|·count work for the same result). `update_at(p, n)` gives whether update
        position `n` (an index expression) writes element `p`, and its value.

        Without a reduction the last position that writes p wins: a max over the
        positions finds it, and p reads that update (a data-dependent load) or data.
        With one, data's element comes first, then each update that writes p, combined
        as the reference combines them (in the accumulator type; a float sum from
        -0.0, its exact identity). `update_at` reads the indices from stages made by
        `checked_targets`, which report an index out of range as the reference does."""
        reduction = attrs["reduction"]
        if reduction == "none":
            def last(*p):
                n = te.reduce_axis(count, name="n")
                hit, _ = update_at(p, n)
                return te.max(te.if_then_else(hit, te.cast(n, "int64"), te.const(-1, "int64")),
                              axis=n)

            writer = te.compute(data.shape, last, name="T_scatter_writer")

            def element(*p):
                found = writer[p] >= 0
                position = te.IndexExpr.of(te.if_then_else(found, writer[p], te.const(0, "int64")))
                _, value = update_at(p, position)
                return te.if_then_else(found, value, data[p])

            return te.compute(data.shape, element, name="T_scatter")
        combiner = {"add": "sum", "mul": "prod", "max": "max", "min": "min"}[reduction]
        acc = accumulator(data.dtype) if combiner in ("sum", "prod") else ordered(data.dtype)
        start = -0.0 if combiner == "sum" and isinstance(acc, FloatType) else \
            te.reduction_identity(combiner, acc)

        def combined(*p):
            # Position 0 is data's element, position n + 1 update position n (read at
            # (k - 1) mod count, so position 0 reads in bounds too).
            k = te.reduce_axis(count + 1, name="n")
            hit, value = update_at(p, (k + count - 1) % count)
            update = te.if_then_else(hit, te.cast(value, acc), te.const(start, acc))
            first = te.equal(te.cast(k, "int64"), 0)
            return getattr(te, combiner)(te.if_then_else(first, te.cast(data[p], acc), update),
                                         axis=k, identity=start)

        result = te.compute(data.shape, combined, name=f"T_scatter_{reduction}")
        return rounded(te, result, data.dtype, "T_scatter")

    @staticmethod
    def checked_targets(te, indices, data, axis: int, shape, at, name: str):
        """A stage of `shape` holding the position along `axis` of `data` each index
        `at(q)` of `indices` names (negative from the end), checked to lie in the axis:
        positions are matched, never loaded at, so without it an index out of range
        would write nothing, silently. Checked once per index, in a stage of its own."""
        return te.compute(shape, lambda *q: te.check_index(
            from_end(te, indices[at(q)], data.shape[axis]), data, axis), name=name)

    @classmethod
    def scatter(cls, out: np.ndarray, targets, values: np.ndarray, reduction: str) -> np.ndarray:
        """Apply each (target, value) pair in order; `targets` is a tuple of index
        arrays, one per axis of `out`, shaped like the leading axes of `values`."""
        flat_targets = [t.reshape(-1) for t in targets]
        count = flat_targets[0].size if flat_targets else 0
        values = values.reshape(count, *values.shape[len(targets[0].shape):])
        for n in range(count):
            where = tuple(t[n] for t in flat_targets)
            out[where] = _combine(reduction, out[where], values[n])
        return out


@graph.op
class ScatterElementsOp(Scatter):
    """Writes each element of `updates` into a copy of `data` at the position
    `indices` holds for it along `axis` (ONNX ScatterElements, the inverse of
    gather_elements): for axis 0, out[indices[i][j]][j] = updates[i][j].

    indices and updates have one shape, of data's rank, no longer than data along the
    other axes.

    Integers: add and mul wrap modulo 2^bits.

    NaN: a NaN update is written (or combined) as a value; max and min propagate it.
    An index outside its axis has no defined result (see the module docstring)."""

    name = "graph.scatter_elements"
    axis = integer(0, "the axis indices address (negative counts from the end)")

    @classmethod
    def infer(cls, types, attrs):
        data, indices, updates = types
        same_element_type(data, updates, "data and updates")
        shape_check(indices.shape == updates.shape,
                    f"indices {list(indices.shape)} and updates {list(updates.shape)} must have "
                    f"one shape")
        shape_check(indices.rank == data.rank, f"indices must have data's rank {data.rank}, got "
                                               f"shape {list(indices.shape)}")
        axis = normalize_axis(attrs["axis"], data.rank)
        for a, (d, i) in enumerate(zip(data.shape, indices.shape)):
            shape_check(a == axis or i <= d,
                        f"indices shape {list(indices.shape)} is longer than data shape "
                        f"{list(data.shape)} along axis {a}")
        cls.check_reduction(data, attrs)
        return [data]

    @classmethod
    def reference(cls, attrs, data, indices, updates):
        axis = normalize_axis(attrs["axis"], data.ndim)
        along = check_indices(indices, data.shape[axis], "scatter_elements") % max(data.shape[axis], 1)
        targets = tuple(along if a == axis else np.broadcast_to(
            np.arange(n).reshape((-1,) + (1,) * (indices.ndim - 1 - a)), indices.shape)
            for a, n in enumerate(indices.shape))
        out = wide_floats(data).copy()
        return cls.scatter(out, targets, wide_floats(updates), attrs["reduction"])

    @classmethod
    def compute(cls, te, attrs, data, indices, updates):
        """The update positions that can write element p share its coordinates off
        `axis` (where indices reaches that far): the reduction walks `axis` alone."""
        axis = normalize_axis(attrs["axis"], len(data.shape))
        shape = indices.shape
        targets = cls.checked_targets(te, indices, data, axis, shape, lambda q: q,
                                      "T_scatter_index")

        def update_at(p, j):
            # Off `axis`, p's own coordinate, wrapped into indices' extent where indices
            # is shorter (such a p is written by none: `reached`).
            position = tuple(j if d == axis else p[d] if shape[d] == data.shape[d]
                             else p[d] % shape[d] for d in range(len(shape)))
            hit = te.equal(targets[position], te.cast(p[axis], indices.dtype))
            for d, extent in enumerate(shape):
                if d != axis and extent < data.shape[d]:
                    hit = _both(te, hit, te.cast(p[d], "int64") < extent)
            return hit, updates[position]

        return cls.scatter_compute(te, attrs, data, shape[axis], update_at)


def _both(te, a, b):
    """a and b, of booleans."""
    return te.if_then_else(a, b, te.const(0, "bool"))


def _either(te, a, b):
    """a or b, of booleans."""
    return te.if_then_else(a, te.const(1, "bool"), b)


def _not(te, a):
    """not a, of a boolean."""
    return te.if_then_else(a, te.const(0, "bool"), te.const(1, "bool"))


@graph.op
class ScatterNDOp(Scatter):
    """Writes slices of `updates` into a copy of `data` at the index tuples of the
    last axis of `indices` (ONNX ScatterND, the inverse of gather_nd).

    With k = indices.shape[-1], updates has the shape indices.shape[:-1] +
    data.shape[k:].

    Integers: add and mul wrap modulo 2^bits.

    NaN: a NaN update is written (or combined) as a value; max and min propagate it.
    An index outside its axis has no defined result (see the module docstring)."""

    name = "graph.scatter_nd"

    @classmethod
    def infer(cls, types, attrs):
        data, indices, updates = types
        same_element_type(data, updates, "data and updates")
        shape_check(indices.rank >= 1, "indices must have rank >= 1, got a rank-0 tensor")
        k = indices.shape[-1]
        shape_check(1 <= k <= data.rank, f"indices address {k} axes, data has {data.rank}")
        expected = (*indices.shape[:-1], *data.shape[k:])
        shape_check(updates.shape == expected, f"updates must have shape {list(expected)} "
                                               f"(indices.shape[:-1] + data.shape[{k}:]), got "
                                               f"{list(updates.shape)}")
        cls.check_reduction(data, attrs)
        return [data]

    @classmethod
    def reference(cls, attrs, data, indices, updates):
        targets = _nd_positions(data.shape, indices, 0, "scatter_nd")
        out = wide_floats(data).copy()
        return cls.scatter(out, targets, wide_floats(updates), attrs["reduction"])

    @classmethod
    def compute(cls, te, attrs, data, indices, updates):
        """Index tuple n writes the slice at its k positions: element p is written by
        the tuples whose positions are p's first k coordinates."""
        k = indices.shape[-1]
        tuples = indices.shape[:-1]
        targets = [cls.checked_targets(te, indices, data, j, tuples,
                                       lambda m, j=j: (*m, j), f"T_scatter_index{j}")
                   for j in range(k)]

        def update_at(p, n):
            m = row_major_index(n, tuples)
            hit = te.const(1, "bool")
            for j in range(k):
                hit = _both(te, hit, te.equal(targets[j][m], te.cast(p[j], indices.dtype)))
            return hit, updates[(*m, *p[k:])]

        count = 1
        for extent in tuples:
            count *= extent
        return cls.scatter_compute(te, attrs, data, count, update_at)


@graph.op
class TopKOp(GraphOp):
    """The `k` largest (or with `largest = false` smallest) elements along `axis`, in
    order, and their indices as i64 (ONNX TopK).

    Equal elements come in the order of their indices, the lower first. The results
    are always sorted (ONNX's `sorted = 0` leaves the order open; this is one of the
    orders it allows).

    Integers: exact; on i1 true is the larger.

    NaN: counts as larger than every number (numpy's sort order), so NaNs come first
    among the largest and last among the smallest."""

    name = "graph.top_k"
    x = OperandDef(Tensor)
    # Not `values`: GraphOp.values is the op's attribute values.
    top = ResultDef(Tensor, doc="the k elements")
    indices = ResultDef(Tensor, doc="their indices along axis, i64")
    k = integer(doc="how many elements, in [0, extent of axis]")
    axis = integer(-1, "the axis searched (negative counts from the end)")
    largest = flag(True, "the largest elements; false: the smallest")
    # TVM's topk is opaque.
    pattern = PatternKind.OPAQUE
    assembly_format = "$x attr-dict `:` type($x) `->` type($top) `,` type($indices)"

    @classmethod
    def infer(cls, types, attrs):
        x = types[0]
        shape_check(x.rank >= 1, "needs a tensor of rank >= 1, got a rank-0 tensor")
        axis = normalize_axis(attrs["axis"], x.rank)
        k = attrs["k"]
        shape_check(0 <= k <= x.shape[axis],
                    f"k {k} must be in [0, {x.shape[axis]}] (the extent of axis {axis})")
        shape = (*x.shape[:axis], k, *x.shape[axis + 1:])
        return [tensor(shape, x.element_type), tensor(shape, i64)]

    @classmethod
    def reference(cls, attrs, x):
        axis, k = normalize_axis(attrs["axis"], x.ndim), attrs["k"]
        if attrs["largest"]:
            # A stable ascending sort of the reversed axis puts equal elements' higher
            # indices first; reversed again, descending with the lower index first.
            n = x.shape[axis]
            order = n - 1 - np.argsort(np.flip(x, axis), axis=axis, kind="stable")
            order = np.flip(order, axis)
        else:
            order = np.argsort(x, axis=axis, kind="stable")
        order = np.take(order, np.arange(k), axis=axis)
        return np.take_along_axis(x, order, axis=axis), order.astype(np.int64)

    @classmethod
    def compute(cls, te, attrs, x):
        """A sort by counting (TVM's topk is sequential code; this does n² work per
        row): each element's rank is how many elements of its row come before it
        (larger, or with `largest = false` smaller, NaN the largest of all; equal ones
        by index). The index at result position r is the element whose rank is r,
        found by a max over the row; the value is read there (a data-dependent load)."""
        axis = normalize_axis(attrs["axis"], len(x.shape))
        n, largest = x.shape[axis], attrs["largest"]
        kind = ordered(x.dtype)

        def at(index, position):
            return te.cast(x[(*index[:axis], position, *index[axis + 1:])], kind)

        def rank(*index):
            other = te.reduce_axis(n, name="l")
            a, b = at(index, other), at(index, index[axis])
            nan_a, nan_b = te.isnan(a), te.isnan(b)
            # a beyond b in the order: larger (smaller), a NaN beyond every number.
            beyond = (a > b) if largest else (a < b)
            beyond = _either(te, beyond, _both(te, nan_a, _not(te, nan_b))) if largest else \
                _either(te, beyond, _both(te, nan_b, _not(te, nan_a)))
            same = _either(te, te.equal(a, b), _both(te, nan_a, nan_b))
            earlier = te.cast(other, "int64") < te.cast(index[axis], "int64")
            before = _either(te, beyond, _both(te, same, earlier))
            return te.sum(te.cast(before, "int64"), axis=other)

        ranks = te.compute(x.shape, rank, name="T_topk_rank")
        shape = result_shape(cls, attrs, x)

        def position(*index):
            j = te.reduce_axis(n, name="j")
            rank_j = ranks[(*index[:axis], j, *index[axis + 1:])]
            hit = te.equal(rank_j, te.cast(index[axis], "int64"))
            return te.max(te.if_then_else(hit, te.cast(j, "int64"), te.const(-1, "int64")),
                          axis=j)

        indices = te.compute(shape, position, name="T_topk_indices")
        values = te.compute(shape, lambda *index: x[(*index[:axis], indices[index],
                                                     *index[axis + 1:])], name="T_topk_values")
        return values, indices


@graph.op
class OneHotOp(GraphOp):
    """`on_value` where the position along the new axis `axis` equals the index,
    `off_value` elsewhere (ONNX OneHot, Relay's one_hot): the result has the shape of
    `indices` with an axis of extent `depth` inserted at `axis`.

    on_value and off_value are attributes of one type, the result's element type
    (`on_value = 1.0 : f32`); from the builder, `dtype` gives it (by default i64 for
    integers, f32 otherwise). An index in [-depth, 0) counts from the end; one outside
    [-depth, depth) matches no position, so its row is all off_value (as ONNX
    defines it).

    Integers and NaN: on_value and off_value are placed as they are."""

    name = "graph.one_hot"
    indices = OperandDef(IndexTensor)
    result = ResultDef(Tensor)
    depth = integer(doc="the extent of the new axis, >= 0")
    axis = integer(-1, "where the new axis goes, in [-rank-1, rank]; negative counts from the "
                       "end of the result")
    on_value = number(doc="the value at each index")
    off_value = number(doc="the value everywhere else")
    # out[..., j, ...] reads one index: injective (Relay registers one_hot as
    # out-elemwise-fusable, for its compute schedule; the dependence is injective).
    pattern = PatternKind.INJECTIVE
    assembly_format = "$indices attr-dict `:` type($indices) `->` type($result)"

    @classmethod
    def normalize(cls, attrs: dict) -> dict:
        """The builder's spelling: plain numbers, and `dtype` for their type."""
        return typed_numbers(attrs, ("on_value", "off_value"))

    @staticmethod
    def new_axis(rank: int, axis: int) -> int:
        """The normalized position of the inserted axis."""
        shape_check(-rank - 1 <= axis <= rank, f"axis {axis} is out of range for one-hot of a "
                                               f"rank-{rank} tensor (expected {-rank - 1}..{rank})")
        return axis + rank + 1 if axis < 0 else axis

    @classmethod
    def infer(cls, types, attrs):
        # The shape; infer_result_types gives it the element type of the values.
        shape = types[0].shape
        shape_check(attrs["depth"] >= 0, f"depth must be >= 0, got {attrs['depth']}")
        axis = cls.new_axis(len(shape), attrs["axis"])
        return [tensor((*shape[:axis], attrs["depth"], *shape[axis:]), i1)]

    @classmethod
    def infer_result_types(cls, operand_types: list[Type], attributes: dict[str, Attribute]) -> list[Type]:
        [shaped] = super().infer_result_types(operand_types, attributes)
        try:
            element = number_type(attributes, ("on_value", "off_value"))
        except ShapeError as exc:
            raise TypeInferenceError(cls.op_def.name, str(exc)) from None
        return [RankedTensorType(shaped.shape, element)]

    @classmethod
    def reference(cls, attrs, indices):
        depth = attrs["depth"]
        axis = cls.new_axis(indices.ndim, attrs["axis"])
        wrapped = np.where(indices < 0, indices.astype(np.int64) + depth, indices)
        positions = np.arange(depth).reshape((-1,) + (1,) * (indices.ndim - axis))
        hit = np.expand_dims(wrapped, axis) == positions
        return np.where(hit, attrs["on_value"], attrs["off_value"])

    @classmethod
    def compute(cls, te, attrs, indices):
        """TOPI's one_hot: on_value where the position along the new axis equals the
        index (a negative one counted from the end), off_value elsewhere."""
        element = attrs["result_types"][0].element_type
        axis = cls.new_axis(len(indices.shape), attrs["axis"])
        on, off = te.const(attrs["on_value"], element), te.const(attrs["off_value"], element)

        def value(*index):
            wanted = from_end(te, indices[(*index[:axis], *index[axis + 1:])], attrs["depth"])
            return te.if_then_else(te.equal(wanted, te.cast(index[axis], indices.dtype)), on, off)

        return te.compute(attrs["result_types"][0].shape, value, name="T_one_hot")
