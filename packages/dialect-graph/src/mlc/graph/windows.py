"""Sliding-window ops of any spatial rank composed of the graph dialect's 2-D ones, for
the frontends: convolutions and pools over 1, 2, 3 or more spatial axes, transposed
convolutions and Lp pools.

    from mlc.graph.windows import convolution, pool
    y = convolution(b, x, w, strides=[1, 1, 1], pads=[1] * 6, dilations=[1, 1, 1])

Windows are given as ONNX gives them: data (N, C, *spatial), a kernel (O, C/groups,
*kernel), one stride and dilation per spatial axis and `pads` as the begins of every
spatial axis, then the ends. One spatial axis runs through an extent-1 height; two are
graph.conv2d or a 2-D pool as they are; more are decomposed along the first spatial
axis (TVM's frontends do the same with their 2-D ops when a target lacks 3-D ones):

- a convolution is the sum, over the kernel's taps along that axis, of the
  convolutions of the remaining axes, each on the input rows that tap reads (a
  strided slice), those rows folded into the batch;
- a max or average pool is separable: the window is a box, so its maximum is the
  maximum along the first axis of the maxima of the other axes, and its mean the mean
  of the means (the count of a box's elements, padding counted or not, is the product
  of its counts along each axis);
- a transposed convolution is the convolution of the input spread by the strides
  (zeros between its elements), padded by the kernel's extent less its own padding,
  with the kernel flipped and its channel axes exchanged (TOPI's conv2d_transpose);
- an Lp pool is the p-th root of the sum of |x|^p over each window: a depthwise
  convolution with a kernel of ones, zeros in the padding (which add nothing).

Each function returns the graph value of its result; bias and activation are the
caller's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mlc.graph.builder import GraphBuilder
from mlc.graph.ops.nn import window_output
from mlc.ir import Value


def _begins_ends(pads: Sequence[int]) -> tuple[list[int], list[int]]:
    rank = len(pads) // 2
    return list(pads[:rank]), list(pads[rank:])


def _without_first(pads: Sequence[int]) -> list[int]:
    """`pads` (begins, then ends) of the spatial axes after the first."""
    begins, ends = _begins_ends(pads)
    return begins[1:] + ends[1:]


def _pad_or_crop(b: GraphBuilder, x: Value, axis: int, before: int, after: int) -> Value:
    """`x` with `before`/`after` zeros added on `axis` (negative amounts crop)."""
    if before < 0 or after < 0:
        extent = x.type.shape[axis]
        start = max(-before, 0)
        x = b.slice(x, starts=[start], ends=[max(extent + min(after, 0), start)], axes=[axis],
                    steps=[1])
        before, after = max(before, 0), max(after, 0)
    if not before and not after:
        return x
    rank = len(x.type.shape)
    pads = [0] * (2 * rank)
    pads[axis], pads[rank + axis] = before, after
    return b.pad(x, pads=pads)


def _fold_first_spatial(b: GraphBuilder, x: Value) -> Value:
    """(N, C, D, *rest) -> (N·D, C, *rest)."""
    n, c, depth, *rest = x.type.shape
    moved = b.transpose(x, axes=[0, 2, 1, *range(3, 3 + len(rest))])
    return b.reshape(moved, shape=[n * depth, c, *rest])


def _unfold_first_spatial(b: GraphBuilder, y: Value, n: int) -> Value:
    """(N·D, C, *rest) -> (N, C, D, *rest)."""
    nd, c, *rest = y.type.shape
    y = b.reshape(y, shape=[n, nd // n, c, *rest])
    return b.transpose(y, axes=[0, 2, 1, *range(3, 3 + len(rest))])


def convolution(b: GraphBuilder, x: Value, weight: Value, strides: Sequence[int],
                pads: Sequence[int], dilations: Sequence[int], groups: int = 1) -> Value:
    """The convolution (cross-correlation) of `x` (N, C, *spatial) with `weight`
    (O, C/groups, *kernel), without bias."""
    rank = len(x.type.shape) - 2
    begins, ends = _begins_ends(pads)
    if rank == 2:
        return b.conv2d(x, weight, strides=list(strides), padding=[*begins, *ends],
                        dilation=list(dilations), groups=groups)
    if rank == 1:
        y = b.conv2d(b.expand_dims(x, axis=2), b.expand_dims(weight, axis=2),
                     strides=[1, strides[0]], padding=[0, begins[0], 0, ends[0]],
                     dilation=[1, dilations[0]], groups=groups)
        return b.squeeze(y, axes=[2])
    if rank < 1:
        raise ValueError(f"a convolution needs a spatial axis, got data of shape {x.type.shape}")
    x = _pad_or_crop(b, x, 2, begins[0], ends[0])
    depth, taps = x.type.shape[2], weight.type.shape[2]
    stride, dilation = strides[0], dilations[0]
    out_depth = window_output(depth, taps, stride, 0, 0, dilation)
    if out_depth < 1:
        raise ValueError(f"the kernel of {taps} taps does not fit the padded extent {depth}")
    total = None
    for tap in range(taps):
        start = tap * dilation
        rows = b.slice(x, starts=[start], ends=[start + stride * (out_depth - 1) + 1], axes=[2],
                       steps=[stride])
        tap_weight = b.squeeze(b.slice(weight, starts=[tap], ends=[tap + 1], axes=[2], steps=[1]),
                               axes=[2])
        partial = convolution(b, _fold_first_spatial(b, rows), tap_weight, strides[1:],
                              _without_first(pads), dilations[1:], groups)
        total = partial if total is None else b.add(total, partial)
    return _unfold_first_spatial(b, total, x.type.shape[0])


def pool(b: GraphBuilder, x: Value, kind: str, kernel: Sequence[int], strides: Sequence[int],
         pads: Sequence[int], dilations: Sequence[int], ceil_mode: bool = False,
         **extra) -> Value:
    """The max (`kind` "max") or average ("avg", `count_include_pad` in `extra`) pool
    of `x` (N, C, *spatial) over windows of `kernel`."""
    graph_op = f"{kind}_pool2d"
    rank = len(x.type.shape) - 2
    begins, ends = _begins_ends(pads)
    if rank == 2:
        return b.op(graph_op, x, pool_size=list(kernel), strides=list(strides),
                    padding=[*begins, *ends], dilation=list(dilations), ceil_mode=ceil_mode,
                    **extra)
    if rank == 1:
        y = b.op(graph_op, b.expand_dims(x, axis=2), pool_size=[1, kernel[0]],
                 strides=[1, strides[0]], padding=[0, begins[0], 0, ends[0]],
                 dilation=[1, dilations[0]], ceil_mode=ceil_mode, **extra)
        return b.squeeze(y, axes=[2])
    if rank < 1:
        raise ValueError(f"a pool needs a spatial axis, got data of shape {x.type.shape}")
    n, c, depth, *rest = x.type.shape
    inner = pool(b, b.reshape(x, shape=[n, c * depth, *rest]), kind, kernel[1:], strides[1:],
                 _without_first(pads), dilations[1:], ceil_mode, **extra)
    pooled_rest = inner.type.shape[2:]
    columns = b.reshape(inner, shape=[n, c, depth, int(np.prod(pooled_rest, dtype=np.int64))])
    y = b.op(graph_op, columns, pool_size=[kernel[0], 1], strides=[strides[0], 1],
             padding=[begins[0], 0, ends[0], 0], dilation=[dilations[0], 1], ceil_mode=ceil_mode,
             **extra)
    return b.reshape(y, shape=[n, c, y.type.shape[2], *pooled_rest])


def transposed_convolution(b: GraphBuilder, x: Value, weight: Value, strides: Sequence[int],
                           pads: Sequence[int], dilations: Sequence[int], output: Sequence[int],
                           groups: int = 1) -> Value:
    """The transposed convolution of `x` (N, C, *spatial) with `weight`
    (C, O/groups, *kernel), without bias: the full result (every position a kernel tap
    reaches) read from `pads`' begins on, `output` long along each spatial axis (zeros
    past its end)."""
    rank = len(x.type.shape) - 2
    begins, _ = _begins_ends(pads)
    kernel = weight.type.shape[2:]
    for axis, stride in enumerate(strides):
        if stride > 1:
            x = _spread(b, x, 2 + axis, stride)
    for axis in range(rank):
        reach = (kernel[axis] - 1) * dilations[axis]
        before = reach - begins[axis]
        # The convolution's result is as long as its padded input less `reach`.
        after = output[axis] + reach - x.type.shape[2 + axis] - before
        x = _pad_or_crop(b, x, 2 + axis, before, after)
    return convolution(b, x, _transposed_kernel(b, weight, groups), [1] * rank, [0] * (2 * rank),
                       dilations, groups)


def _spread(b: GraphBuilder, x: Value, axis: int, stride: int) -> Value:
    """`x` with stride - 1 zeros between consecutive elements along `axis`."""
    shape = list(x.type.shape)
    extent = shape[axis]
    y = b.expand_dims(x, axis=axis + 1)
    y = _pad_or_crop(b, y, axis + 1, 0, stride - 1)
    y = b.reshape(y, shape=[*shape[:axis], extent * stride, *shape[axis + 1:]])
    return b.slice(y, starts=[0], ends=[(extent - 1) * stride + 1], axes=[axis], steps=[1])


def _transposed_kernel(b: GraphBuilder, weight: Value, groups: int) -> Value:
    """A transposed convolution's kernel (C, O/groups, *kernel) as the kernel of the
    convolution that computes it: (O, C/groups, *kernel), flipped along every spatial
    axis."""
    c, per_group, *kernel = weight.type.shape
    spatial = list(range(3, 3 + len(kernel)))
    grouped = b.reshape(weight, shape=[groups, c // groups, per_group, *kernel])
    swapped = b.transpose(grouped, axes=[0, 2, 1, *spatial])
    flipped = b.reshape(swapped, shape=[groups * per_group, c // groups, *kernel])
    axes = list(range(2, 2 + len(kernel)))
    # Walking back from the last element to before the first.
    return b.slice(flipped, starts=[-1] * len(axes), ends=[-k - 1 for k in kernel], axes=axes,
                   steps=[-1] * len(axes))


def lp_pool(b: GraphBuilder, x: Value, p: float, kernel: Sequence[int], strides: Sequence[int],
            pads: Sequence[int], dilations: Sequence[int], ceil_mode: bool = False) -> Value:
    """(sum of |x|^p over each window)^(1/p) of `x` (N, C, *spatial), the padding
    (and ceil_mode's overhang) zeros."""
    rank = len(x.type.shape) - 2
    element = x.type.element_type
    begins, ends = _begins_ends(pads)
    if ceil_mode:
        for axis in range(rank):
            extent = x.type.shape[2 + axis]
            out = window_output(extent, kernel[axis], strides[axis], begins[axis], ends[axis],
                                dilations[axis], True)
            reach = (out - 1) * strides[axis] + (kernel[axis] - 1) * dilations[axis] + 1
            ends[axis] += max(0, reach - (extent + begins[axis] + ends[axis]))
    if p == 1:
        powered = b.abs(x)
    elif p == 2:
        powered = b.multiply(x, x)
    else:
        powered = b.power(b.abs(x), b.const(np.array(p), dtype=element))
    channels = x.type.shape[1]
    ones = b.const(np.ones((channels, 1, *kernel)), dtype=element)
    total = convolution(b, powered, ones, strides, [*begins, *ends], dilations, groups=channels)
    if p == 1:
        return total
    if p == 2:
        return b.sqrt(total)
    return b.power(total, b.const(np.array(1.0 / p), dtype=element))
