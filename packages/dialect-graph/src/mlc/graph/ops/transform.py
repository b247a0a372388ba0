"""Injective ops: reshapes, transposes, slicing, padding, gathering (gather,
gather_elements), concatenation, splitting and layout changes (and broadcast_to, a
broadcast op); the axis helpers every axis-taking graph op shares."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mlc.graph import layout
from mlc.graph.attributes import flag, integer, ints, real, string
from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp, PatternKind, UndefinedResultError, shape_check
from mlc.graph.ops.compute import from_end, result_shape, row_major_index, row_major_offset
from mlc.graph.ops.elementwise import broadcast_read
from mlc.graph.types import Tensor, tensor
from mlc.ir import (
    DenseArrayAttr,
    FloatType,
    IntegerAttr,
    RankedTensorType,
    Value,
    element_dtype,
    i32,
    i64,
)
from mlc.ir.opdef import OperandDef, ResultDef, TypeMatches

_UNARY_FORMAT = "$x attr-dict `:` type($x) `->` type($result)"

IndexTensor = TypeMatches(lambda t: isinstance(t, RankedTensorType) and t.element_type in (i32, i64),
                          "ranked tensor of i32 or i64")


PAD_MODES = ("constant", "reflect", "edge", "wrap")


def normalize_axis(axis: int, rank: int) -> int:
    """`axis` in [0, rank), from Python's spelling in [-rank, rank); ShapeError otherwise."""
    shape_check(-rank <= axis < rank, f"axis {axis} is out of range for a rank-{rank} tensor")
    return axis % rank


def normalize_axes(axes: Sequence[int], rank: int) -> tuple[int, ...]:
    """Each of `axes` normalized; naming one axis twice is a ShapeError."""
    out = tuple(normalize_axis(a, rank) for a in axes)
    shape_check(len(set(out)) == len(out), f"axes {list(axes)} name an axis twice")
    return out


class Injective(GraphOp):
    """An op of one tensor whose every output element is one input element."""

    x = OperandDef(Tensor)
    result = ResultDef(Tensor)
    pattern = PatternKind.INJECTIVE
    copies_elements = True
    assembly_format = _UNARY_FORMAT


def reshape_target(shape: tuple[int, ...], newshape: tuple[int, ...],
                   allowzero: bool = False) -> tuple[int, ...]:
    """`newshape` with 0 (copy the input dimension, unless `allowzero`: then an extent
    of 0) and one -1 (whatever is left) resolved, as Relay and ONNX read it."""
    if allowzero:
        shape_check(not (0 in newshape and -1 in newshape),
                    f"shape {list(newshape)} has both a 0 and a -1, which allowzero cannot "
                    f"resolve")
        out = list(newshape)
    else:
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


def reshaped(te, x, shape: tuple[int, ...], name: str):
    """`x` with the new `shape`: each element read at its row-major position. The
    position is taken per group of axes whose extents multiply to the same on both
    sides, so an axis the reshape keeps reads itself and a split one reads `i * 4 + j`
    (rather than a division of the whole flat position, which the affine simplifier
    cannot undo without the axes' bounds)."""
    groups = _matching_axes(tuple(shape), tuple(x.shape))

    def element(*index):
        source: list = []
        for out_axes, in_axes in groups:
            offset = row_major_offset([index[a] for a in out_axes], [shape[a] for a in out_axes])
            source.extend(row_major_index(offset, [x.shape[a] for a in in_axes]))
        return x[tuple(source)]

    return te.compute(shape, element, name=name)


def _matching_axes(a: tuple[int, ...], b: tuple[int, ...]) -> list[tuple[list[int], list[int]]]:
    """The shortest consecutive groups of axes of `a` and of `b` (shapes of one
    positive size) whose extents multiply to the same, in order."""
    groups = []
    i = j = 0
    while i < len(a) or j < len(b):
        group_a, group_b, size_a, size_b = [], [], 1, 1
        if i < len(a):
            group_a.append(i)
            size_a, i = a[i], i + 1
        if j < len(b):
            group_b.append(j)
            size_b, j = b[j], j + 1
        while size_a != size_b:
            if size_a < size_b:
                group_a.append(i)
                size_a, i = size_a * a[i], i + 1
            else:
                group_b.append(j)
                size_b, j = size_b * b[j], j + 1
        groups.append((group_a, group_b))
    return groups


@graph.op
class ReshapeOp(Injective):
    """Same elements, new shape; `shape` may hold one -1 (inferred) and 0s (copied
    from the operand's shape, or with `allowzero` extents of 0, as ONNX Reshape).

    Integers and NaN: elements are moved as they are, never computed on."""

    name = "graph.reshape"
    shape = ints(doc="the new shape")
    allowzero = flag(False, "a 0 in shape is an extent of 0 rather than a copy")

    @classmethod
    def infer(cls, types, attrs):
        return [tensor(reshape_target(types[0].shape, attrs["shape"], attrs["allowzero"]),
                       types[0].element_type)]

    @classmethod
    def reference(cls, attrs, x):
        return x.reshape(reshape_target(x.shape, attrs["shape"], attrs["allowzero"]))

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's reshape: each result element reads the operand element at the same
        row-major position."""
        return reshaped(te, x, result_shape(cls, attrs, x), "T_reshape")


@graph.op
class LayoutTransformOp(Injective):
    """Re-lays a tensor from one layout to another.

    Data moves between NCHW and NCHW{n}c, a kernel between OIHW and OIHW{i}i{o}o.

    Integers and NaN: elements are moved as they are, never computed on."""

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

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's layout_transform: a result element's logical (NCHW or OIHW) index,
        read where the source layout keeps it."""
        src, dst = attrs["src_layout"], attrs["dst_layout"]
        return te.compute(result_shape(cls, attrs, x), lambda *index: x[
            layout.physical_index(src, layout.logical_index(dst, index))],
            name="T_layout_trans")


@graph.op
class TransposeOp(Injective):
    """Permutes the axes: result axis i is operand axis `axes[i]`.

    Empty `axes` reverses the axes (numpy's default).

    Integers and NaN: elements are moved as they are, never computed on."""

    name = "graph.transpose"
    axes = ints((), "the permutation (negative axes count from the end); empty: reverse")

    @staticmethod
    def permutation(rank: int, axes: Sequence[int]) -> tuple[int, ...]:
        """The normalized permutation `axes` names for a rank-`rank` tensor."""
        if not axes:
            return tuple(reversed(range(rank)))
        shape_check(len(axes) == rank, f"axes {list(axes)} must name each of the {rank} axes once")
        return normalize_axes(axes, rank)

    @classmethod
    def infer(cls, types, attrs):
        x = types[0]
        perm = cls.permutation(x.rank, attrs["axes"])
        return [tensor([x.shape[a] for a in perm], x.element_type)]

    @classmethod
    def reference(cls, attrs, x):
        return np.transpose(x, cls.permutation(x.ndim, attrs["axes"]))

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's transpose: result axis i walks operand axis `axes[i]`."""
        perm = cls.permutation(len(x.shape), attrs["axes"])

        def element(*index):
            source = [0] * len(perm)
            for i, a in enumerate(perm):
                source[a] = index[i]
            return x[tuple(source)]

        return te.compute(result_shape(cls, attrs, x), element, name="T_transpose")


@graph.op
class FlattenOp(Injective):
    """Collapses to 2-D as ONNX Flatten does: (prod(shape[:axis]), prod(shape[axis:])).

    Integers and NaN: elements are moved as they are, never computed on."""

    name = "graph.flatten"
    axis = integer(1, "the first axis of the second dimension, in [-rank, rank]")

    @staticmethod
    def flat_shape(shape: tuple[int, ...], axis: int) -> tuple[int, int]:
        """The 2-D shape `shape` flattens to at `axis`."""
        rank = len(shape)
        # rank itself is allowed: everything goes into the first dimension.
        shape_check(-rank <= axis <= rank, f"axis {axis} is out of range for flattening a "
                                           f"rank-{rank} tensor (expected -{rank}..{rank})")
        axis = axis + rank if axis < 0 else axis
        return math.prod(shape[:axis]), math.prod(shape[axis:])

    @classmethod
    def infer(cls, types, attrs):
        return [tensor(cls.flat_shape(types[0].shape, attrs["axis"]), types[0].element_type)]

    @classmethod
    def reference(cls, attrs, x):
        return x.reshape(cls.flat_shape(x.shape, attrs["axis"]))

    @classmethod
    def compute(cls, te, attrs, x):
        """A reshape to the flattened shape (TOPI's flatten)."""
        return reshaped(te, x, result_shape(cls, attrs, x), "T_flatten")


@graph.op
class SqueezeOp(Injective):
    """Removes axes of extent 1: those in `axes`, or every one when `axes` is empty.

    Integers and NaN: elements are moved as they are, never computed on."""

    name = "graph.squeeze"
    axes = ints((), "the axes to remove, each of extent 1; empty: every extent-1 axis")

    @staticmethod
    def squeezed_axes(shape: tuple[int, ...], axes: Sequence[int]) -> tuple[int, ...]:
        """The normalized axes removed from `shape`."""
        if not axes:
            return tuple(i for i, d in enumerate(shape) if d == 1)
        out = normalize_axes(axes, len(shape))
        for a in out:
            shape_check(shape[a] == 1, f"cannot squeeze axis {a} of extent {shape[a]} (expected 1)")
        return out

    @classmethod
    def infer(cls, types, attrs):
        x = types[0]
        removed = cls.squeezed_axes(x.shape, attrs["axes"])
        return [tensor([d for i, d in enumerate(x.shape) if i not in removed], x.element_type)]

    @classmethod
    def reference(cls, attrs, x):
        return np.squeeze(x, cls.squeezed_axes(x.shape, attrs["axes"]))

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's squeeze: the removed axes are read at 0, the others in order."""
        removed = cls.squeezed_axes(x.shape, attrs["axes"])

        def element(*index):
            kept = iter(index)
            return x[tuple(0 if a in removed else next(kept) for a in range(len(x.shape)))]

        return te.compute(result_shape(cls, attrs, x), element, name="T_squeeze")


@graph.op
class ExpandDimsOp(Injective):
    """Inserts `num_newaxis` axes of extent 1 at `axis` (Relay's expand_dims).

    `axis` is in [-rank-1, rank]; a negative one counts from the end of the result.

    Integers and NaN: elements are moved as they are, never computed on."""

    name = "graph.expand_dims"
    axis = integer(doc="where the new axes go, in [-rank-1, rank]")
    num_newaxis = integer(1, "how many axes to insert")

    @staticmethod
    def expanded_shape(shape: tuple[int, ...], axis: int, count: int) -> tuple[int, ...]:
        """`shape` with `count` extent-1 axes inserted at `axis`."""
        rank = len(shape)
        shape_check(-rank - 1 <= axis <= rank, f"axis {axis} is out of range for expanding a "
                                               f"rank-{rank} tensor (expected {-rank - 1}..{rank})")
        shape_check(count >= 0, f"num_newaxis must be >= 0, got {count}")
        axis = axis + rank + 1 if axis < 0 else axis
        return (*shape[:axis], *(1,) * count, *shape[axis:])

    @classmethod
    def infer(cls, types, attrs):
        x = types[0]
        return [tensor(cls.expanded_shape(x.shape, attrs["axis"], attrs["num_newaxis"]),
                       x.element_type)]

    @classmethod
    def reference(cls, attrs, x):
        return x.reshape(cls.expanded_shape(x.shape, attrs["axis"], attrs["num_newaxis"]))

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's expand_dims: the new axes are not read."""
        rank, count = len(x.shape), attrs["num_newaxis"]
        axis = attrs["axis"] + rank + 1 if attrs["axis"] < 0 else attrs["axis"]
        return te.compute(result_shape(cls, attrs, x), lambda *index: x[
            (*index[:axis], *index[axis + count:])], name="T_expand_dims")


@graph.op
class BroadcastToOp(Injective):
    """Broadcasts to `shape` by numpy's rules.

    Leading axes are added and extent-1 axes repeated. Its pattern is broadcast, as in
    TVM: an output element reads the input at its own index with axes dropped or
    zeroed.

    Integers and NaN: elements are copied as they are, never computed on."""

    name = "graph.broadcast_to"
    shape = ints(doc="the result shape")
    pattern = PatternKind.BROADCAST

    @classmethod
    def infer(cls, types, attrs):
        x, shape = types[0], tuple(attrs["shape"])
        shape_check(all(d >= 0 for d in shape), f"invalid shape {list(shape)}")
        ok = len(shape) >= x.rank and all(d in (1, t) for d, t in zip(x.shape[::-1], shape[::-1]))
        shape_check(ok, f"cannot broadcast shape {list(x.shape)} to {list(shape)}")
        return [tensor(shape, x.element_type)]

    @classmethod
    def reference(cls, attrs, x):
        return np.broadcast_to(x, tuple(attrs["shape"])).copy()

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's broadcast_to: numpy's pairing of result and operand elements."""
        return te.compute(result_shape(cls, attrs, x), lambda *index: broadcast_read(x, index),
                          name="T_broadcast_to")


@graph.op
class TileOp(Injective):
    """Repeats the tensor `repeats[i]` times along axis i.

    As numpy's tile: a shorter `repeats` is padded with leading 1s, a longer one adds
    leading axes to the operand.

    Integers and NaN: elements are copied as they are, never computed on."""

    name = "graph.tile"
    repeats = ints(doc="repetitions per axis, each >= 0")

    @classmethod
    def infer(cls, types, attrs):
        x, repeats = types[0], tuple(attrs["repeats"])
        shape_check(all(r >= 0 for r in repeats), f"repeats must be >= 0, got {list(repeats)}")
        rank = max(x.rank, len(repeats))
        shape = (1,) * (rank - x.rank) + x.shape
        repeats = (1,) * (rank - len(repeats)) + repeats
        return [tensor([d * r for d, r in zip(shape, repeats)], x.element_type)]

    @classmethod
    def reference(cls, attrs, x):
        return np.tile(x, tuple(attrs["repeats"]))

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's tile: each trailing result axis reads its operand axis modulo the
        operand's extent."""
        shape = result_shape(cls, attrs, x)
        lead = len(shape) - len(x.shape)
        return te.compute(shape, lambda *index: x[tuple(
            i % extent for i, extent in zip(index[lead:], x.shape))], name="T_tile")


@graph.op
class PadOp(Injective):
    """Pads each axis (ONNX Pad): with a constant `value`, or with the operand's own
    elements by `mode`: `reflect` mirrors them about the edge element (which is not
    repeated), `edge` repeats the edge element, `wrap` continues from the other end.

    `pads` is in ONNX's order: the amount added before each axis, then the amount
    added after each axis. `reflect` adds at most extent - 1 on each side of an axis;
    `edge` and `wrap` pad only axes that have elements.

    Integers: `value` must be one of the element type's values (an integer in its
    range; 0 or 1 for i1), which the verifier checks. For floats it is rounded to the
    element type.

    NaN: elements are moved as they are; `value` may be NaN."""

    name = "graph.pad"
    copies_elements = False  # the padding is `value`, not an operand element
    pads = ints(doc="begins for each axis, then ends for each axis; each >= 0")
    value = real(0.0, "the value of the added elements (constant mode)")
    mode = string("constant", "what the added elements are", choices=PAD_MODES)

    @staticmethod
    def widths(rank: int, pads: Sequence[int]) -> list[tuple[int, int]]:
        """(before, after) for each axis."""
        shape_check(len(pads) == 2 * rank, f"pads needs {2 * rank} values (begins then ends) "
                                           f"for a rank-{rank} tensor, got {len(pads)}")
        shape_check(all(p >= 0 for p in pads), f"pads must be >= 0, got {list(pads)}")
        return list(zip(pads[:rank], pads[rank:]))

    @classmethod
    def infer(cls, types, attrs):
        x = types[0]
        widths = cls.widths(x.rank, attrs["pads"])
        element, value, mode = x.element_type, attrs["value"], attrs["mode"]
        if mode == "constant" and not isinstance(element, FloatType):
            dtype = element_dtype(element)
            low, high = (0, 1) if dtype.kind == "b" else (np.iinfo(dtype).min, np.iinfo(dtype).max)
            shape_check(float(value).is_integer() and low <= value <= high,
                        f"value {value} is not a {element} value (an integer in {low}..{high})")
        for axis, (extent, (lo, hi)) in enumerate(zip(x.shape, widths)):
            if mode == "reflect":
                shape_check(max(lo, hi) < max(extent, 1), f"reflect pads axis {axis} of extent "
                            f"{extent} by at most {max(extent - 1, 0)}, got {lo} and {hi}")
            elif mode != "constant":
                shape_check(extent > 0 or lo == hi == 0,
                            f"{mode} mode cannot pad axis {axis}, which has no elements")
        return [tensor([d + lo + hi for d, (lo, hi) in zip(x.shape, widths)], x.element_type)]

    @classmethod
    def reference(cls, attrs, x):
        widths = cls.widths(x.ndim, attrs["pads"])
        if attrs["mode"] != "constant":
            return np.pad(x, widths, mode=attrs["mode"])
        value = attrs["value"]
        # An integer pad value is exact (the verifier checked it): no float detour.
        fill = x.dtype.type(int(value)) if x.dtype.kind in "iub" else value
        return np.pad(x, widths, constant_values=fill)

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's pad (constant mode): reads outside the operand give `value`; the other
        modes read the operand element their index maps to (mirrored or clamped:
        a computed index; wrapped: index modulo the extent)."""
        widths = cls.widths(len(x.shape), attrs["pads"])
        mode = attrs["mode"]
        if mode == "constant":
            value = attrs["value"] if isinstance(x.dtype, FloatType) else int(attrs["value"])
            return te.pad(x, [lo for lo, _ in widths], [hi for _, hi in widths], value,
                          name="T_pad")

        def source(i, extent: int, lo: int, hi: int):
            if lo == hi == 0:
                return i
            if mode == "wrap":  # stays affine: shifted to be non-negative, then mod
                return (i - lo + extent * -(-lo // extent)) % extent
            j = te.IndexValue(i - lo, i64)
            last = extent - 1
            if mode == "edge":
                return te.minimum(te.maximum(j, te.const(0, i64)), te.const(last, i64))
            mirrored = te.if_then_else(j < te.const(0, i64), -j, j)  # reflect about 0 ...
            return te.if_then_else(mirrored > te.const(last, i64),  # ... and about last
                                   te.const(2 * last, i64) - mirrored, mirrored)

        shape = [d + lo + hi for d, (lo, hi) in zip(x.shape, widths)]
        return te.compute(shape, lambda *index: x[tuple(
            source(i, extent, lo, hi) for i, extent, (lo, hi) in zip(index, x.shape, widths))],
            name="T_pad")


@graph.op
class SliceOp(Injective):
    """A strided slice with ONNX Slice's semantics.

    For each i, axis `axes[i]` keeps indices starts[i], starts[i] + steps[i], ... up to
    but excluding ends[i]. Negative starts and ends count from the end of the axis and
    both are clamped to it, so a large end means "to the end"; a negative step walks
    backwards. Empty `axes` means 0..len(starts)-1, empty `steps` means all 1.

    Integers and NaN: elements are moved as they are, never computed on.
    """

    name = "graph.slice"
    starts = ints(doc="first index per sliced axis")
    ends = ints(doc="end index (exclusive) per sliced axis")
    axes = ints((), "the sliced axes; empty: 0..len(starts)-1")
    steps = ints((), "step per sliced axis, non-zero; empty: all 1")

    @staticmethod
    def bounds(shape: tuple[int, ...], attrs) -> list[slice]:
        """One Python slice per axis, with the clamped ONNX bounds."""
        starts, ends = attrs["starts"], attrs["ends"]
        axes = attrs["axes"] or tuple(range(len(starts)))
        steps = attrs["steps"] or (1,) * len(starts)
        shape_check(len(ends) == len(starts) == len(axes) == len(steps),
                    f"starts, ends, axes and steps need the same length, got {len(starts)}, "
                    f"{len(ends)}, {len(axes)} and {len(steps)}")
        shape_check(all(s != 0 for s in steps), f"steps must be non-zero, got {list(steps)}")
        slices = [slice(None)] * len(shape)
        for start, end, axis, step in zip(starts, ends, normalize_axes(axes, len(shape)), steps):
            dim = shape[axis]
            start = start + dim if start < 0 else start
            end = end + dim if end < 0 else end
            if step > 0:
                start, end = min(max(start, 0), dim), min(max(end, 0), dim)
            else:
                # Walking backwards, the first index is at most dim-1 and the end may be
                # -1 (before index 0), which Python spells as None.
                start, end = min(max(start, 0), dim - 1), min(max(end, -1), dim - 1)
            slices[axis] = slice(start, None if end < 0 else end, step)
        return slices

    @classmethod
    def infer(cls, types, attrs):
        x = types[0]
        slices = cls.bounds(x.shape, attrs)
        return [tensor([len(range(*s.indices(d))) for s, d in zip(slices, x.shape)], x.element_type)]

    @classmethod
    def reference(cls, attrs, x):
        return x[tuple(cls.bounds(x.shape, attrs))]

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's strided_slice: result index i of an axis reads start + i·step."""
        steps = [s.indices(d) for s, d in zip(cls.bounds(x.shape, attrs), x.shape)]
        return te.compute(result_shape(cls, attrs, x), lambda *index: x[tuple(
            start + i * step for i, (start, _, step) in zip(index, steps))],
            name="T_strided_slice")


class Gather(GraphOp):
    """Base of the ops that pick elements of `data` by the positions in `indices`."""

    data = OperandDef(Tensor)
    indices = OperandDef(IndexTensor)
    result = ResultDef(Tensor)
    pattern = PatternKind.INJECTIVE
    assembly_format = "$data `,` $indices attr-dict `:` functional-type(operands, results)"


@graph.op
class GatherOp(Gather):
    """Takes the slices of `data` along `axis` that `indices` names (numpy's take).

    The result's shape is data[:axis] + indices + data[axis+1:], as in ONNX Gather;
    negative indices count from the end.

    Integers and NaN: the gathered elements are passed on as they are. An index
    outside [-n, n), n the extent of `axis`, has no defined result (an error in ONNX):
    the interpreter reports it, graph-fold-constant does not fold it.
    """

    name = "graph.gather"
    axis = integer(0, "the axis gathered along")

    @classmethod
    def infer(cls, types, attrs):
        data, indices = types
        axis = normalize_axis(attrs["axis"], data.rank)
        return [tensor((*data.shape[:axis], *indices.shape, *data.shape[axis + 1:]),
                       data.element_type)]

    @classmethod
    def reference(cls, attrs, data, indices):
        extent = data.shape[normalize_axis(attrs["axis"], data.ndim)]
        return np.take(data, check_indices(indices, extent, "gather"), axis=attrs["axis"])

    @classmethod
    def compute(cls, te, attrs, data, indices):
        """TOPI's take: the data element at the index read from `indices`, a negative
        one counted from the end (a data-dependent load; one out of range is
        reported by the access)."""
        axis = normalize_axis(attrs["axis"], len(data.shape))
        rank = len(indices.shape)

        def element(*index):
            position = from_end(te, indices[index[axis:axis + rank]], data.shape[axis])
            return data[(*index[:axis], position, *index[axis + rank:])]

        return te.compute(result_shape(cls, attrs, data, indices), element, name="T_take")


def check_indices(indices: np.ndarray, extent: int, what: str) -> np.ndarray:
    """`indices` as int64, or UndefinedResultError naming the first one outside
    [-extent, extent) (negative ones count from the end, as ONNX's)."""
    indices = indices.astype(np.int64)
    outside = (indices < -extent) | (indices >= extent)
    if np.any(outside):
        raise UndefinedResultError(
            f"{what} index {indices[outside][0]} is out of range for an axis of extent {extent} "
            f"(valid: {-extent}..{extent - 1})")
    return indices


@graph.op
class GatherElementsOp(Gather):
    """Takes one element of `data` per element of `indices`, which names its position
    along `axis` (ONNX GatherElements, PyTorch's gather, numpy's take_along_axis).

    The result has the shape of `indices`, of data's rank; along every other axis
    indices may be shorter than data, not longer. out[i][j][k] is
    data[indices[i][j][k]][j][k] for axis 0, and so on. Negative indices count from the
    end.

    Integers and NaN: the gathered elements are passed on as they are. An index
    outside [-n, n), n the extent of `axis`, has no defined result (an error in ONNX):
    the interpreter reports it, graph-fold-constant does not fold it.
    """

    name = "graph.gather_elements"
    axis = integer(0, "the axis gathered along")

    @classmethod
    def infer(cls, types, attrs):
        data, indices = types
        shape_check(data.rank >= 1, "data must have rank >= 1, got a rank-0 tensor")
        shape_check(indices.rank == data.rank, f"indices must have data's rank {data.rank}, got "
                                               f"shape {list(indices.shape)}")
        axis = normalize_axis(attrs["axis"], data.rank)
        for a, (d, i) in enumerate(zip(data.shape, indices.shape)):
            shape_check(a == axis or i <= d,
                        f"indices shape {list(indices.shape)} is longer than data shape "
                        f"{list(data.shape)} along axis {a}")
        return [tensor(indices.shape, data.element_type)]

    @classmethod
    def reference(cls, attrs, data, indices):
        axis = normalize_axis(attrs["axis"], data.ndim)
        indices = check_indices(indices, data.shape[axis], "gather_elements")
        # Along the other axes only the leading indices.shape[a] positions are read.
        window = tuple(slice(None) if a == axis else slice(0, n) for a, n in enumerate(indices.shape))
        return np.take_along_axis(data[window], indices % max(data.shape[axis], 1), axis=axis)

    @classmethod
    def compute(cls, te, attrs, data, indices):
        """TOPI's gather: along `axis`, the position `indices` holds for the element
        (negative from the end, a data-dependent load); elsewhere its own index."""
        axis = normalize_axis(attrs["axis"], len(data.shape))

        def element(*index):
            position = from_end(te, indices[index], data.shape[axis])
            return data[(*index[:axis], position, *index[axis + 1:])]

        return te.compute(indices.shape, element, name="T_gather")

@graph.op
class ConcatOp(GraphOp):
    """Joins tensors along `axis`.

    The inputs agree in rank, element type and every extent but the one along `axis`.

    Integers and NaN: elements are moved as they are, never computed on."""

    name = "graph.concat"
    copies_elements = True
    inputs = OperandDef(Tensor, variadic=True)
    result = ResultDef(Tensor)
    axis = integer(0, "the axis joined along")
    pattern = PatternKind.INJECTIVE
    assembly_format = "$inputs attr-dict `:` functional-type(operands, results)"

    @classmethod
    def infer(cls, types, attrs):
        shape_check(len(types) >= 1, "needs at least one input")
        first = types[0]
        axis = normalize_axis(attrs["axis"], first.rank)
        extent = 0
        for i, t in enumerate(types):
            shape_check(t.element_type == first.element_type,
                        f"input #{i} has element type {t.element_type}, input #0 has "
                        f"{first.element_type}")
            same = t.rank == first.rank and all(
                a == b for k, (a, b) in enumerate(zip(t.shape, first.shape)) if k != axis)
            shape_check(same, f"input #{i} has shape {list(t.shape)}, which differs from input "
                              f"#0's {list(first.shape)} outside axis {axis}")
            extent += t.shape[axis]
        return [tensor((*first.shape[:axis], extent, *first.shape[axis + 1:]), first.element_type)]

    @classmethod
    def reference(cls, attrs, *inputs):
        return np.concatenate(inputs, axis=attrs["axis"])

    @classmethod
    def compute(cls, te, attrs, *inputs):
        """TOPI's concatenate: the input whose range along `axis` holds the index.
        The selects evaluate every input, so each reads its index wrapped into its
        own extent: every access stays in bounds, the one selected is exact."""
        axis = normalize_axis(attrs["axis"], len(inputs[0].shape))

        offsets = [0]
        for x in inputs:
            offsets.append(offsets[-1] + x.shape[axis])

        def element(*index):
            reads = [x[(*index[:axis], (index[axis] - start) % x.shape[axis], *index[axis + 1:])]
                     for x, start in zip(inputs, offsets)]
            position = te.cast(index[axis], "int64")
            value = reads[-1]
            for read, end in zip(reversed(reads[:-1]), reversed(offsets[1:-1])):
                value = te.if_then_else(position < end, read, value)
            return value

        return te.compute(result_shape(cls, attrs, *inputs), element, name="T_concat")


@graph.op
class SplitOp(GraphOp):
    """Cuts a tensor along `axis` into pieces, one result per piece.

    `sections` lists the pieces' extents, which sum to the extent of `axis`.

    The builder also takes `sections=N` for N equal pieces; it resolves to the list
    of extents when the op is built, where the operand's shape is known.

    Integers and NaN: elements are moved as they are, never computed on.
    """

    name = "graph.split"
    copies_elements = True
    x = OperandDef(Tensor)
    outputs = ResultDef(Tensor, variadic=True, doc="one result per piece")
    sections = ints(doc="the extent of each piece along axis")
    axis = integer(0, "the axis cut along")
    pattern = PatternKind.INJECTIVE
    assembly_format = "$x attr-dict `:` functional-type(operands, results)"

    @classmethod
    def normalize(cls, attrs: dict) -> dict:
        if isinstance(attrs.get("sections"), int):
            # N equal pieces: the extents need the operand's shape, which `build` has.
            attrs["sections"] = IntegerAttr(attrs["sections"], i64)
        return attrs

    @classmethod
    def build(cls, *operands, **kwargs) -> SplitOp:
        # `normalize` sees the attributes only, so an equal split (an i64 `sections`
        # that never reaches the IR) becomes extents here, where the operand is known.
        sections = kwargs.get("sections")
        if isinstance(sections, IntegerAttr) and operands and isinstance(operands[0], Value) \
                and isinstance(operands[0].type, RankedTensorType):
            shape = operands[0].type.shape
            axis = kwargs.get("axis")
            axis = normalize_axis(0 if axis is None else axis.value, len(shape))
            count = sections.value
            shape_check(count >= 1 and shape[axis] % count == 0,
                        f"axis {axis} of extent {shape[axis]} does not split into {count} equal "
                        f"pieces")
            kwargs["sections"] = DenseArrayAttr(i64, (shape[axis] // count,) * count)
        return super().build(*operands, **kwargs)

    @staticmethod
    def offsets(shape: tuple[int, ...], attrs) -> tuple[int, list[int]]:
        """(the normalized axis, where each piece after the first begins)."""
        axis = normalize_axis(attrs["axis"], len(shape))
        sections = attrs["sections"]
        shape_check(len(sections) >= 1 and all(s >= 0 for s in sections),
                    f"sections must be one or more extents >= 0, got {list(sections)}")
        shape_check(sum(sections) == shape[axis],
                    f"sections {list(sections)} sum to {sum(sections)}, but axis {axis} has "
                    f"extent {shape[axis]}")
        return axis, list(np.cumsum(sections)[:-1])

    @classmethod
    def infer(cls, types, attrs):
        x = types[0]
        axis, _ = cls.offsets(x.shape, attrs)
        return [tensor((*x.shape[:axis], s, *x.shape[axis + 1:]), x.element_type)
                for s in attrs["sections"]]

    @classmethod
    def reference(cls, attrs, x):
        axis, offsets = cls.offsets(x.shape, attrs)
        return tuple(np.split(x, offsets, axis=axis))

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's split: piece k reads the operand from its offset along `axis`."""
        axis, offsets = cls.offsets(x.shape, attrs)
        pieces = []
        for n, (start, extent) in enumerate(zip([0, *offsets], attrs["sections"])):
            shape = (*x.shape[:axis], extent, *x.shape[axis + 1:])
            pieces.append(te.compute(shape, lambda *index, start=int(start): x[
                (*index[:axis], index[axis] + start, *index[axis + 1:])], name=f"T_split_{n}"))
        return tuple(pieces)
