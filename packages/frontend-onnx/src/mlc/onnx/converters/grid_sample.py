"""ONNX GridSample: data sampled at coordinates computed at run time (a spatial
transformer's grid, optical flow), of any spatial rank.

Each spatial axis' normalised coordinate is mapped to the input (align_corners or
not), kept inside it by the padding mode (border clamps, reflection mirrors), and read
through its taps: one (nearest, rounded half to even), two (linear) or four (cubic,
Keys' kernel with a = -0.75), each tap's index padded again. The taps of all axes
combine into one gather from the flattened spatial axes per tap combination, weighted
by the product of the axes' weights (zero for a tap outside the input in zeros mode),
and summed: what onnx.reference and torch's grid_sample compute, vectorised.
"""

from __future__ import annotations

import itertools

import numpy as np

from mlc.ir import Value, i64
from mlc.onnx.node import Node
from mlc.onnx.registry import converter

_MODES = {"bilinear": "linear", "bicubic": "cubic", "linear": "linear", "cubic": "cubic",
          "nearest": "nearest"}
_CUBIC_A = -0.75


class _Axis:
    """Builds the taps of one spatial axis of extent `extent`."""

    def __init__(self, node: Node, extent: int, padding: str, align_corners: bool, element):
        self.b = node.b
        self.extent = extent
        self.padding = padding
        self.element = element
        # The interval the padding modes keep coordinates in: pixel centres with
        # align_corners, pixel edges without.
        self.low, self.high = (0.0, extent - 1.0) if align_corners else (-0.5, extent - 0.5)

    def const(self, value: float) -> Value:
        return self.b.const(np.array(value), dtype=self.element)

    def affine(self, x: Value, scale: float, offset: float) -> Value:
        return self.b.add(self.b.multiply(x, self.const(scale)), self.const(offset))

    def reflect(self, x: Value) -> Value:
        """`x` mirrored at [low, high] until inside it (torch's reflect_coordinates)."""
        b, span = self.b, self.high - self.low
        if span == 0:
            return b.multiply(x, self.const(0.0))
        below = b.less(x, self.const(self.low))
        above = b.greater(x, self.const(self.high))
        distance = b.where(below, b.subtract(self.const(self.low), x),
                           b.subtract(x, self.const(self.high)))
        flips = b.floor(b.divide(distance, self.const(span)))
        rest = b.subtract(distance, b.multiply(flips, self.const(span)))
        even = b.equal(b.subtract(flips, b.multiply(b.floor(b.multiply(flips, self.const(0.5))),
                                                    self.const(2.0))), self.const(0.0))
        from_low, from_high = b.add(self.const(self.low), rest), b.subtract(self.const(self.high), rest)
        return b.where(below, b.where(even, from_low, from_high),
                       b.where(above, b.where(even, from_high, from_low), x))

    def padded(self, x: Value) -> Value:
        """A coordinate outside [low, high] moved in by the padding mode."""
        if self.padding == "border":
            # Only outside [low, high], as onnx.reference and onnxruntime (torch's
            # bicubic clamps every coordinate; its linear and nearest agree).
            b = self.b
            outside = b.logical_or(b.less(x, self.const(self.low)),
                                   b.greater(x, self.const(self.high)))
            return b.where(outside, b.clip(x, min=0.0, max=self.extent - 1.0), x)
        if self.padding == "reflection":
            return self.reflect(x)
        return x

    def tap(self, index: Value, weight: Value | None) -> tuple[Value, Value | None]:
        """A tap at the whole-number float `index`: its int64 index inside the input
        and its weight (times 0 outside the input in zeros mode)."""
        b = self.b
        if self.padding == "zeros":
            inside = b.logical_and(b.greater_equal(index, self.const(0.0)),
                                   b.less(index, self.const(float(self.extent))))
            mask = b.cast(inside, dtype=self.element)
            weight = mask if weight is None else b.multiply(weight, mask)
        elif self.padding == "reflection":
            index = self.reflect(index)
        # In range for every mode now but zeros', whose outside taps weigh nothing.
        index = b.clip(index, min=0.0, max=self.extent - 1.0)
        return b.cast(index, dtype=i64), weight

    def taps(self, x: Value, mode: str) -> list[tuple[Value, Value | None]]:
        b = self.b
        if mode == "nearest":
            return [self.tap(x, None)]
        base = b.floor(x)
        t = b.subtract(x, base)
        if mode == "linear":
            return [self.tap(base, b.subtract(self.const(1.0), t)),
                    self.tap(b.add(base, self.const(1.0)), t)]
        one, two = self.const(1.0), self.const(2.0)
        weights = [self._keys_far(b.add(t, one)), self._keys_near(t),
                   self._keys_near(b.subtract(one, t)), self._keys_far(b.subtract(two, t))]
        return [self.tap(b.add(base, self.const(float(offset))), w)
                for offset, w in zip((-1, 0, 1, 2), weights)]

    def _keys_near(self, d: Value) -> Value:
        """Keys' kernel for 0 <= d <= 1: ((a + 2)·d - (a + 3))·d² + 1."""
        b, a = self.b, _CUBIC_A
        return b.add(b.multiply(self.affine(d, a + 2, -(a + 3)), b.multiply(d, d)), self.const(1.0))

    def _keys_far(self, d: Value) -> Value:
        """Keys' kernel for 1 <= d <= 2: ((a·d - 5a)·d + 8a)·d - 4a."""
        b, a = self.b, _CUBIC_A
        inner = b.add(b.multiply(self.affine(d, a, -5 * a), d), self.const(8 * a))
        return b.subtract(b.multiply(inner, d), self.const(4 * a))


@converter("GridSample", 16)
def grid_sample(node: Node) -> Value:
    b = node.b
    x, grid = node.input(0), node.input(1)
    shape, grid_shape = x.type.shape, grid.type.shape
    rank = len(shape) - 2
    node.check(rank >= 1 and len(grid_shape) == rank + 2 and grid_shape[0] == shape[0]
               and grid_shape[-1] == rank,
               f"grid of shape {list(grid_shape)} does not sample X of shape {list(shape)}")
    mode_name = node.attr("mode", "bilinear" if node.opset < 20 else "linear")
    mode = _MODES.get(mode_name)
    node.check(mode is not None, f"mode '{mode_name}' is not supported")
    padding = node.attr("padding_mode", "zeros")
    node.check(padding in ("zeros", "border", "reflection"),
               f"padding_mode '{padding}' is not supported")
    align = bool(node.attr("align_corners", 0))
    element = x.type.element_type
    if grid.type.element_type != element:
        grid = b.cast(grid, dtype=element)
    batch, channels, spatial = shape[0], shape[1], shape[2:]
    positions = int(np.prod(grid_shape[1:-1], dtype=np.int64))
    grid = b.reshape(grid, shape=[batch, positions, rank])
    per_axis = []
    for axis, extent in enumerate(spatial):
        builder = _Axis(node, extent, padding, align, element)
        # The grid's last axis lists the coordinates innermost axis first (x, y, z).
        g = b.reshape(b.slice(grid, starts=[rank - 1 - axis], ends=[rank - axis], axes=[2],
                              steps=[1]), shape=[batch, positions])
        if align:
            c = builder.affine(g, (extent - 1) / 2, (extent - 1) / 2)
        else:
            c = builder.affine(g, extent / 2, (extent - 1) / 2)
        # NaN, inf and far-away coordinates become finite ones that read the same
        # (zeros: a few taps outside; the other modes bring any coordinate in), so
        # every float-to-index conversion is defined.
        c = b.where(b.isnan(c), builder.const(-4.0), c)
        c = b.clip(c, min=-4.0, max=extent + 3.0) if padding == "zeros" else \
            b.clip(c, min=-2.0 ** 24, max=2.0 ** 24)
        if mode == "nearest":
            c = b.round(c)
        per_axis.append(builder.taps(builder.padded(c), mode))
    strides = [int(np.prod(spatial[axis + 1:], dtype=np.int64)) for axis in range(rank)]
    flat = b.reshape(x, shape=[batch, channels, int(np.prod(spatial, dtype=np.int64))])
    total = None
    for combination in itertools.product(*per_axis):
        index, weight = None, None
        for (tap_index, tap_weight), stride in zip(combination, strides):
            term = tap_index if stride == 1 else b.multiply(tap_index, b.const(np.array(stride, np.int64)))
            index = term if index is None else b.add(index, term)
            if tap_weight is not None:
                weight = tap_weight if weight is None else b.multiply(weight, tap_weight)
        index = b.broadcast_to(b.expand_dims(index, axis=1), shape=[batch, channels, positions])
        sample = b.gather_elements(flat, index, axis=2)
        if weight is not None:
            sample = b.multiply(sample, b.expand_dims(weight, axis=1))
        total = sample if total is None else b.add(total, sample)
    return b.reshape(total, shape=[batch, channels, *grid_shape[1:-1]])
