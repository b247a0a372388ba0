"""Neural-network ops: convolution, dense and matrix products, normalisation,
softmax and pooling."""

from __future__ import annotations

import numpy as np

from mlc.graph import layout
from mlc.graph.dialect import (
    FloatTensor,
    GraphOp,
    PatternKind,
    graph,
    integer,
    ints,
    shape_check,
    string,
    tensor,
)
from mlc.ir.opdef.declare import OperandDef, ResultDef

_BINARY_FORMAT = "$data `,` $weight attr-dict `:` functional-type(operands, results)"


def expand_padding(padding, spatial: int = 2) -> tuple[int, ...]:
    """Relay's padding spellings: one value for all sides, one per spatial axis, or
    (top, left, bottom, right)."""
    padding = (padding,) if isinstance(padding, int) else tuple(padding)
    if len(padding) == 1:
        return padding * (2 * spatial)
    if len(padding) == spatial:
        return padding * 2
    return padding


def window_output(size: int, kernel: int, stride: int, pad_before: int, pad_after: int,
                  dilation: int = 1, ceil_mode: bool = False) -> int:
    """Output length of a sliding window along one axis."""
    span = size + pad_before + pad_after - dilation * (kernel - 1) - 1
    out = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (out - 1) * stride >= size + pad_before:
        out -= 1  # the last window must start inside the input or its leading padding
    return out


def sliding_windows(x: np.ndarray, kernel: tuple[int, int], strides: tuple[int, int],
                    dilation: tuple[int, int], out: tuple[int, int]) -> np.ndarray:
    """A view (N, C, KH, KW, OH, OW) of the windows of a padded NCHW array, no copy."""
    n, c, _, _ = x.shape
    sn, sc, sh, sw = x.strides
    return np.lib.stride_tricks.as_strided(
        x, (n, c, kernel[0], kernel[1], out[0], out[1]),
        (sn, sc, sh * dilation[0], sw * dilation[1], sh * strides[0], sw * strides[1]),
        writeable=False)


def check_sliding_attrs(attrs, spatial: int = 2) -> None:
    for name, count in (("strides", spatial), ("dilation", spatial), ("padding", 2 * spatial)):
        if name in attrs:
            values = attrs[name]
            shape_check(len(values) == count, f"'{name}' needs {count} values, got {len(values)}")
            low = 0 if name == "padding" else 1
            shape_check(all(v >= low for v in values), f"'{name}' values must be >= {low}, "
                                                       f"got {list(values)}")


@graph.op
class Conv2DOp(GraphOp):
    """2-D convolution (cross-correlation, as Relay's `nn.conv2d`).

    Data is NCHW or channel-blocked NCHW{n}c; the kernel is OIHW (O output channels,
    I = input channels / groups) or OIHW{i}i{o}o as graph-alter-op-layout produces it,
    in which case the result is NCHW{o}c. `padding` is (top, left, bottom, right).
    `groups` splits the channels into independent convolutions (depthwise when it
    equals the channel count).
    """

    name = "graph.conv2d"
    data = OperandDef(FloatTensor)
    weight = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)
    strides = ints((1, 1), "stride along H and W")
    padding = ints((0, 0, 0, 0), "zero padding: top, left, bottom, right")
    dilation = ints((1, 1), "kernel dilation along H and W")
    groups = integer(1, "number of channel groups")
    data_layout = string("NCHW", "NCHW or NCHW<n>c")
    kernel_layout = string("OIHW", "OIHW or OIHW<i>i<o>o")
    pattern = PatternKind.OUT_ELEMWISE_FUSABLE
    assembly_format = _BINARY_FORMAT

    @classmethod
    def normalize(cls, attrs: dict) -> dict:
        if "padding" in attrs:
            attrs["padding"] = expand_padding(attrs["padding"])
        return attrs

    @classmethod
    def infer(cls, types, attrs):
        data, weight = types
        check_sliding_attrs(attrs)
        block = layout.data_block(attrs["data_layout"])
        in_block, out_block = layout.kernel_blocks(attrs["kernel_layout"])
        shape_check((block == 0) == (in_block == 0),
                    f"data layout {attrs['data_layout']} needs a matching kernel layout, got "
                    f"{attrs['kernel_layout']}")
        shape_check(block == in_block, f"data block {block} must equal the kernel's input block "
                                       f"{in_block}")
        shape_check(data.rank == (5 if block else 4),
                    f"data must be a {attrs['data_layout']} tensor, got shape {list(data.shape)}")
        shape_check(weight.rank == (6 if block else 4),
                    f"weight must be a {attrs['kernel_layout']} tensor, got shape {list(weight.shape)}")
        shape_check(data.element_type == weight.element_type,
                    f"data and weight element types differ: {data.element_type} and "
                    f"{weight.element_type}")
        n, c, h, w = layout.converted_shape(data.shape, attrs["data_layout"], "NCHW")
        o, i, kh, kw = layout.converted_shape(weight.shape, attrs["kernel_layout"], "OIHW")
        groups = attrs["groups"]
        shape_check(groups >= 1 and c % groups == 0 and o % groups == 0,
                    f"groups {groups} must divide the {c} input and {o} output channels")
        shape_check(i * groups == c, f"weight expects {i * groups} input channels "
                                     f"({i} per group x {groups} groups), data has {c}")
        (pt, pl, pb, pr), (sh, sw), (dh, dw) = attrs["padding"], attrs["strides"], attrs["dilation"]
        oh = window_output(h, kh, sh, pt, pb, dh)
        ow = window_output(w, kw, sw, pl, pr, dw)
        shape_check(oh > 0 and ow > 0, f"the {kh}x{kw} kernel does not fit the padded {h}x{w} input")
        out = (n, o, oh, ow)
        if block:
            out = layout.blocked_shape(out, out_block)
        return [tensor(out, data.element_type)]

    @classmethod
    def reference(cls, attrs, data, weight):
        x = layout.convert(data, attrs["data_layout"], "NCHW")
        k = layout.convert(weight, attrs["kernel_layout"], "OIHW")
        result = conv2d_nchw(x, k, attrs["strides"], attrs["padding"], attrs["dilation"],
                             attrs["groups"])
        if attrs["data_layout"] != "NCHW":
            result = layout.to_blocked(result, layout.kernel_blocks(attrs["kernel_layout"])[1])
        return result


def conv2d_nchw(x: np.ndarray, k: np.ndarray, strides, padding, dilation, groups: int) -> np.ndarray:
    """NCHW x OIHW convolution through one matrix product per group (im2col on a
    strided view, accumulated in float64 so the oracle is more exact than what it checks)."""
    pt, pl, pb, pr = padding
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    n, c, h, w = x.shape
    o, i, kh, kw = k.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (w - dilation[1] * (kw - 1) - 1) // strides[1] + 1
    windows = sliding_windows(x, (kh, kw), strides, dilation, (oh, ow))
    windows = windows.reshape(n, groups, i, kh, kw, oh, ow)
    kernel = k.astype(np.float64).reshape(groups, o // groups, i, kh, kw)
    out = np.einsum("ngcyxhw,gocyx->ngohw", windows, kernel, optimize=True)
    return out.reshape(n, o, oh, ow)


@graph.op
class DenseOp(GraphOp):
    """Fully connected layer x·Wᵀ: data (..., K), weight (N, K) -> (..., N)."""

    name = "graph.dense"
    data = OperandDef(FloatTensor)
    weight = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)
    pattern = PatternKind.OUT_ELEMWISE_FUSABLE
    assembly_format = _BINARY_FORMAT

    @classmethod
    def infer(cls, types, attrs):
        data, weight = types
        shape_check(data.rank >= 1 and weight.rank == 2,
                    f"needs data of rank >= 1 and a 2-D weight, got {list(data.shape)} and "
                    f"{list(weight.shape)}")
        shape_check(data.shape[-1] == weight.shape[1],
                    f"data has {data.shape[-1]} features, weight expects {weight.shape[1]}")
        shape_check(data.element_type == weight.element_type,
                    f"data and weight element types differ: {data.element_type} and "
                    f"{weight.element_type}")
        return [tensor((*data.shape[:-1], weight.shape[0]), data.element_type)]

    @classmethod
    def reference(cls, attrs, data, weight):
        return np.matmul(data.astype(np.float64), weight.astype(np.float64).T)
