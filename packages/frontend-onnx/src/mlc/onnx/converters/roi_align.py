"""ONNX RoiAlign: each region of interest (run-time boxes) pooled to a fixed grid of
bins, each bin the average (or maximum) of sampling_ratio² bilinear samples.

Per region, the sample coordinates along each axis are start + bin · t for constant
offsets t (bin index plus the sample's place in it), so a whole axis of samples is one
broadcast product. Each coordinate gives two taps (the row or column below and the one
above, clamped at the last) and their weights, zero for a sample outside [-1, extent]
as onnxruntime and onnx.reference have it. The region's image is gathered by batch
index, its rows by the row taps, then its columns by the column taps: four corners per
sample, weighted and summed (avg), or, in max mode, the largest weighted corner (what
onnxruntime computes), then averaged or maximised over each bin's samples.
"""

from __future__ import annotations

import numpy as np

from mlc.ir import FloatType, IntegerType, Value, element_dtype
from mlc.onnx.node import Node
from mlc.onnx.registry import converter


@converter("RoiAlign", 16)
@converter("RoiAlign", 10)  # opset 10's regions are read as output_half_pixel ones
def roi_align(node: Node) -> Value:
    b, x, rois = node.b, node.input(0), node.input(1)
    node.check(len(x.type.shape) == 4 and isinstance(x.type.element_type, FloatType),
               f"X must be a float [N, C, H, W] tensor, got {x.type}")
    _, channels, height, width = x.type.shape
    regions = rois.type.shape[0]
    out_h, out_w = node.attr("output_height", 1), node.attr("output_width", 1)
    ratio = node.attr("sampling_ratio", 0)
    node.check(ratio > 0, "sampling_ratio 0 (samples per bin set by each region's size) is "
               "not supported")
    mode = node.attr("mode", "avg")
    node.check(mode in ("avg", "max"), f"mode {mode!r} is not avg or max")
    half_pixel = node.opset >= 16 and node.attr("coordinate_transformation_mode",
                                                "half_pixel") == "half_pixel"
    element = x.type.element_type
    dtype = element_dtype(element)
    scale = float(node.attr("spatial_scale", 1.0))

    def const(value) -> Value:
        return b.const(np.asarray(value, dtype))

    def column(index: int) -> Value:
        """Coordinate `index` of every region, scaled: [R, 1]."""
        taken = b.slice(rois, starts=[index], ends=[index + 1], axes=[1], steps=[1])
        if taken.type.element_type != element:
            taken = b.cast(taken, dtype=element)
        return b.subtract(b.multiply(taken, const(scale)), const(0.5 if half_pixel else 0.0))

    taps = []
    for first, bins, extent in ((1, out_h, height), (0, out_w, width)):
        start, end = column(first), column(first + 2)
        size = b.subtract(end, start)
        if not half_pixel:
            size = b.maximum(size, const(1.0))
        offsets = (np.arange(bins).reshape(-1, 1) + (np.arange(ratio) + 0.5) / ratio).reshape(1, -1)
        at = b.add(start, b.multiply(b.divide(size, const(bins)), const(offsets)))  # [R, S]
        taps.append(_taps(b, at, extent, const))

    image = b.gather(x, b.cast(node.input(2), dtype=IntegerType(64))
                     if node.type(2).element_type != IntegerType(64) else node.input(2), axis=0)
    (rows_low, rows_high, rows_w_low, rows_w_high), (cols_low, cols_high, cols_w_low,
                                                     cols_w_high) = taps
    samples_h, samples_w = out_h * ratio, out_w * ratio

    def rows(index: Value) -> Value:
        spread = b.reshape(index, shape=[regions, 1, samples_h, 1])
        return b.gather_elements(image, b.broadcast_to(
            spread, shape=[regions, channels, samples_h, width]), axis=2)

    def columns(picked: Value, index: Value) -> Value:
        spread = b.reshape(index, shape=[regions, 1, 1, samples_w])
        return b.gather_elements(picked, b.broadcast_to(
            spread, shape=[regions, channels, samples_h, samples_w]), axis=3)

    corners = []
    for row_index, row_weight in ((rows_low, rows_w_low), (rows_high, rows_w_high)):
        picked = rows(row_index)
        for col_index, col_weight in ((cols_low, cols_w_low), (cols_high, cols_w_high)):
            weight = b.multiply(b.reshape(row_weight, shape=[regions, 1, samples_h, 1]),
                                b.reshape(col_weight, shape=[regions, 1, 1, samples_w]))
            corners.append(b.multiply(columns(picked, col_index), weight))
    combine = b.add if mode == "avg" else b.maximum
    sampled = combine(combine(corners[0], corners[1]), combine(corners[2], corners[3]))
    binned = b.reshape(sampled, shape=[regions, channels, out_h, ratio, out_w, ratio])
    if mode == "max":
        return b.max(binned, axes=[3, 5])
    return b.divide(b.sum(binned, axes=[3, 5]), const(ratio * ratio))


def _taps(b, at: Value, extent: int, const) -> tuple[Value, Value, Value, Value]:
    """(lower index, upper index, their weights) of bilinear samples at coordinates
    `at` along an axis of `extent`: the weights are 0 outside [-1, extent]; a
    coordinate below 0 reads as 0, one at or past the last element as the last."""
    inside = b.logical_and(b.greater_equal(at, const(-1.0)), b.less_equal(at, const(float(extent))))
    clamped = b.maximum(at, const(0.0))
    low = b.floor(clamped)
    at_end = b.greater_equal(low, const(extent - 1.0))
    low = b.where(at_end, const(extent - 1.0), low)
    high = b.where(at_end, low, b.add(low, const(1.0)))
    clamped = b.where(at_end, low, clamped)
    upper_weight = b.subtract(clamped, low)
    lower_weight = b.subtract(const(1.0), upper_weight)
    mask = b.cast(inside, dtype=at.type.element_type)
    return (b.cast(low, dtype=IntegerType(64)), b.cast(high, dtype=IntegerType(64)),
            b.multiply(lower_weight, mask), b.multiply(upper_weight, mask))
