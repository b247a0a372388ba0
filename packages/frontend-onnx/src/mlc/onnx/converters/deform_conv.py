"""ONNX DeformConv (2-D): a convolution whose kernel taps are moved by run-time
offsets (and optionally weighed by a run-time mask).

Each tap of each output position samples the input at its usual place plus its
offset, bilinearly, a corner outside the image reading 0 (GridSample's zeros padding
with aligned corners, as onnx.reference has it). As graph ops: the sample coordinates
of every (offset group, tap, position) are one broadcast sum; each of the four corners
is one gather from the flattened image of its offset group's channels, weighted by
the corner's bilinear weight, its validity and the mask; the samples form the im2col
matrix, and the convolution is one batched matrix product per convolution group.
"""

from __future__ import annotations

import numpy as np

from mlc.ir import FloatType, IntegerType, Value, element_dtype
from mlc.onnx.node import Node
from mlc.onnx.registry import converter


@converter("DeformConv", 19)
def deform_conv(node: Node) -> Value:
    b, x, w, offset = node.b, node.input(0), node.input(1), node.input(2)
    node.check(len(x.type.shape) == 4 and isinstance(x.type.element_type, FloatType),
               f"only 2-D DeformConv of floats is converted, X is {x.type}")
    batch, channels, height, width = x.type.shape
    out_channels, group_channels, kernel_h, kernel_w = w.type.shape
    kernel_h, kernel_w = node.attr("kernel_shape", [kernel_h, kernel_w])
    group, offset_groups = node.attr("group", 1), node.attr("offset_group", 1)
    stride_h, stride_w = node.attr("strides", [1, 1])
    dilation_h, dilation_w = node.attr("dilations", [1, 1])
    pad_top, pad_left = node.attr("pads", [0, 0, 0, 0])[:2]
    out_h, out_w = offset.type.shape[2:]
    taps, positions = kernel_h * kernel_w, out_h * out_w
    node.check(channels == group_channels * group and out_channels % group == 0
               and channels % offset_groups == 0
               and offset.type.shape[:2] == (batch, offset_groups * 2 * taps),
               f"X {list(x.type.shape)}, W {list(w.type.shape)} and offset "
               f"{list(offset.type.shape)} disagree with group {group} and offset_group "
               f"{offset_groups}")
    element = x.type.element_type
    dtype = element_dtype(element)

    def const(value) -> Value:
        return b.const(np.asarray(value, dtype))

    # [N, G, kH, kW, 2, oH, oW]: the offsets of each tap, y then x.
    moved = b.reshape(offset, shape=[batch, offset_groups, kernel_h, kernel_w, 2, out_h, out_w])
    corner_sets = []
    for axis, (stride, dilation, pad, extent, kernel, outputs) in enumerate((
            (stride_h, dilation_h, pad_top, height, kernel_h, out_h),
            (stride_w, dilation_w, pad_left, width, kernel_w, out_w))):
        delta = b.reshape(b.slice(moved, starts=[axis], ends=[axis + 1], axes=[4], steps=[1]),
                          shape=[batch, offset_groups, kernel_h, kernel_w, out_h, out_w])
        tap = np.arange(kernel) * dilation
        place = np.arange(outputs) * stride - pad
        base = (tap.reshape(-1, 1, 1, 1) + place.reshape(1, 1, -1, 1)) if axis == 0 else \
            (tap.reshape(1, -1, 1, 1) + place.reshape(1, 1, 1, -1))
        corner_sets.append(_corners(b, b.add(delta, const(base)), extent, const))

    flat_image = b.reshape(x, shape=[batch, offset_groups, channels // offset_groups,
                                     height * width])
    mask = node.optional_input(4)
    sampled = None
    for row, row_weight in corner_sets[0]:
        for col, col_weight in corner_sets[1]:
            index = b.add(b.multiply(row, b.const(np.int64(width))), col)
            index = b.reshape(index, shape=[batch, offset_groups, 1, taps * positions])
            index = b.broadcast_to(index, shape=[batch, offset_groups, channels // offset_groups,
                                                 taps * positions])
            weight = b.multiply(row_weight, col_weight)
            weight = b.reshape(weight, shape=[batch, offset_groups, 1, taps * positions])
            if mask is not None:
                weight = b.multiply(weight, b.reshape(mask, shape=[batch, offset_groups, 1,
                                                                   taps * positions]))
            corner = b.multiply(b.gather_elements(flat_image, index, axis=3), weight)
            sampled = corner if sampled is None else b.add(sampled, corner)
    # im2col per convolution group: [N, group, (C / group) · taps, positions].
    columns = b.reshape(sampled, shape=[batch, group, group_channels * taps, positions])
    kernels = b.reshape(w, shape=[1, group, out_channels // group, group_channels * taps])
    result = b.reshape(b.matmul(kernels, columns), shape=[batch, out_channels, out_h, out_w])
    bias = node.optional_input(3)
    if bias is not None:
        result = b.add(result, b.reshape(bias, shape=[1, out_channels, 1, 1]))
    return result


def _corners(b, at: Value, extent: int, const) -> list[tuple[Value, Value]]:
    """The two taps (int64 index kept inside the axis, weight: 0 for a tap outside it)
    of bilinear samples at coordinates `at` along an axis of `extent`."""
    low = b.floor(at)
    upper_weight = b.subtract(at, low)
    taps = []
    for index, weight in ((low, b.subtract(const(1.0), upper_weight)),
                          (b.add(low, const(1.0)), upper_weight)):
        inside = b.logical_and(b.greater_equal(index, const(0.0)),
                               b.less_equal(index, const(extent - 1.0)))
        kept = b.clip(index, min=0.0, max=extent - 1.0)
        taps.append((b.cast(kept, dtype=IntegerType(64)),
                     b.multiply(weight, b.cast(inside, dtype=at.type.element_type))))
    return taps
