"""Neural-network ops: convolution, dense and matrix products, bias_add, softmax and
pooling (the normalisations are in norm.py)."""

from __future__ import annotations

import math
import re

import numpy as np

from mlc.graph import layout
from mlc.graph.attributes import flag, integer, ints, string
from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp, PatternKind, ShapeError, same_element_type, shape_check
from mlc.graph.ops.compute import accumulator, reduce_stage, result_shape, rounded
from mlc.graph.ops.elementwise import broadcast_shape
from mlc.graph.ops.transform import normalize_axis
from mlc.graph.types import FloatTensor, NumericTensor, tensor
from mlc.ir.opdef import OperandDef, ResultDef, SameOperandsAndResultType

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


def expand_pair(value) -> tuple[int, ...]:
    """One value for both spatial axes, or one per axis (strides, dilation, pool_size)."""
    return (value, value) if isinstance(value, int) else tuple(value)


def window_output(size: int, kernel: int, stride: int, pad_before: int, pad_after: int,
                  dilation: int = 1, ceil_mode: bool = False) -> int:
    """Output length of a sliding window along one axis."""
    span = size + pad_before + pad_after - dilation * (kernel - 1) - 1
    out = span // stride + 1
    if ceil_mode and span % stride and out * stride < size + pad_before:
        # ceil_mode's extra window, which must start inside the input or its leading
        # padding (as PyTorch and ONNX's reference); never fewer windows than floor mode
        out += 1
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

    NaN: computed in float64 and rounded once; NaN and inf propagate as IEEE
    arithmetic says (a padding zero times inf is NaN, as in ONNX Conv).
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
        for name in ("strides", "dilation"):
            if name in attrs:
                attrs[name] = expand_pair(attrs[name])
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
        depthwise = attrs["groups"] > 1 and in_block == 1 and block == out_block
        shape_check(block == in_block or depthwise,
                    f"data block {block} must equal the kernel's input block {in_block} (or, "
                    "grouped, the kernel's input block be 1 and its output block the data's)")
        shape_check(data.rank == (5 if block else 4),
                    f"data must be a {attrs['data_layout']} tensor, got shape {list(data.shape)}")
        shape_check(weight.rank == (6 if block else 4),
                    f"weight must be a {attrs['kernel_layout']} tensor, got shape {list(weight.shape)}")
        same_element_type(data, weight, "data and weight")
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

    @classmethod
    def compute(cls, te, attrs, data, weight):
        """TOPI's conv2d_nchw (and conv2d_NCHWc when blocked): a padding stage, the
        sum of products over input channels and the window in the accumulator type.
        Blocked layouts are read through their logical NCHW/OIHW indices."""
        shape = result_shape(cls, attrs, data, weight)
        block = layout.data_block(attrs["data_layout"])
        in_block, out_block = layout.kernel_blocks(attrs["kernel_layout"])
        o, i, kh, kw = layout.converted_shape(weight.shape, attrs["kernel_layout"], "OIHW")
        (pt, pl, pb, pr), (sh, sw), (dh, dw) = attrs["padding"], attrs["strides"], attrs["dilation"]
        spatial_pad = ((0, 0, pt, pl), (0, 0, pb, pr))
        if any(attrs["padding"]):
            extra = (0,) if block else ()
            data = te.pad(data, spatial_pad[0] + extra, spatial_pad[1] + extra, 0.0,
                          name="pad_temp")
        per_group = o // attrs["groups"]
        acc = accumulator(data.dtype)

        def read_data(n, c, h, w):
            return data[n, c // block, h, w, c % block] if block else data[n, c, h, w]

        def read_weight(oc, ic, y, x):
            if in_block:
                return weight[oc // out_block, ic // in_block, y, x, ic % in_block, oc % out_block]
            return weight[oc, ic, y, x]

        def conv(n, oc, y, x):
            rc = te.reduce_axis(i, name="rc")
            ry = te.reduce_axis(kh, name="ry")
            rx = te.reduce_axis(kw, name="rx")
            channel = (oc // per_group) * i + rc if attrs["groups"] > 1 else rc
            pixel = read_data(n, channel, y * sh + ry * dh, x * sw + rx * dw)
            return te.sum(te.cast(pixel, acc) * te.cast(read_weight(oc, rc, ry, rx), acc),
                          axis=(rc, ry, rx))

        if block:
            result = te.compute(shape, lambda n, oc_block, y, x, oc_inner:
                                conv(n, oc_block * out_block + oc_inner, y, x),
                                name="conv2d_NCHWc")
        else:
            result = te.compute(shape, conv, name="conv2d_nchw")
        return rounded(te, result, weight.dtype, "T_conv2d")


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
    """Fully connected layer x·Wᵀ: data (..., K), weight (N, K) -> (..., N).

    `weight_layout` NK{b}n takes the weight packed in panels of b output features,
    (N/b, K, b), and KN transposed, (K, N): what graph-alter-op-layout makes of a
    constant weight, so that consecutive output features read consecutive weights and
    each panel is one contiguous stream along K (TVM's dense_pack).

    NaN: computed in float64 and rounded once; NaN and inf propagate as IEEE
    arithmetic says."""

    name = "graph.dense"
    data = OperandDef(FloatTensor)
    weight = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)
    weight_layout = string("NK", "NK (features out x in), KN (transposed) or NK<b>n "
                                 "(panels of b output features)")
    pattern = PatternKind.OUT_ELEMWISE_FUSABLE
    assembly_format = _BINARY_FORMAT

    @staticmethod
    def panel(weight_layout: str) -> int:
        """b of an NK{b}n layout, 0 for NK and KN."""
        if weight_layout in ("NK", "KN"):
            return 0
        match = re.fullmatch(r"NK(\d+)n", weight_layout)
        if match is None or int(match.group(1)) < 1:
            raise ShapeError(f"weight_layout must be NK, KN or NK<b>n, got '{weight_layout}'")
        return int(match.group(1))

    @classmethod
    def logical_weight_shape(cls, shape: tuple[int, ...], weight_layout: str) -> tuple[int, int]:
        """(N, K) of a weight of `shape` in `weight_layout`."""
        panel = cls.panel(weight_layout)
        if panel:
            shape_check(len(shape) == 3 and shape[2] == panel,
                        f"an {weight_layout} weight is (N/{panel}, K, {panel}), got {list(shape)}")
            return shape[0] * panel, shape[1]
        shape_check(len(shape) == 2, f"needs a 2-D weight, got {list(shape)}")
        return (shape[1], shape[0]) if weight_layout == "KN" else (shape[0], shape[1])

    @classmethod
    def infer(cls, types, attrs):
        data, weight = types
        shape_check(data.rank >= 1, f"needs data of rank >= 1, got {list(data.shape)}")
        outputs, features = cls.logical_weight_shape(weight.shape,
                                                     attrs.get("weight_layout", "NK"))
        shape_check(data.shape[-1] == features,
                    f"data has {data.shape[-1]} features, weight expects {features}")
        same_element_type(data, weight, "data and weight")
        return [tensor((*data.shape[:-1], outputs), data.element_type)]

    @classmethod
    def reference(cls, attrs, data, weight):
        weight = weight.astype(np.float64)
        panel = cls.panel(attrs["weight_layout"])
        if panel:  # (N/b, K, b) -> (K, N)
            weight = weight.transpose(1, 0, 2).reshape(weight.shape[1], -1)
        elif attrs["weight_layout"] == "NK":
            weight = weight.T
        return np.matmul(data.astype(np.float64), weight)

    @classmethod
    def compute(cls, te, attrs, data, weight):
        """TOPI's dense (and dense_pack): the sum of products over K in the
        accumulator type."""
        acc = accumulator(data.dtype)
        layout_name = attrs["weight_layout"]
        panel = cls.panel(layout_name)
        features = cls.logical_weight_shape(weight.shape, layout_name)[1]

        def read_weight(n, k):
            if panel:
                return weight[n // panel, k, n % panel]
            return weight[k, n] if layout_name == "KN" else weight[n, k]

        def dense(*index):
            k = te.reduce_axis(features, name="k")
            return te.sum(te.cast(data[(*index[:-1], k)], acc) *
                          te.cast(read_weight(index[-1], k), acc), axis=k)

        result = te.compute(result_shape(cls, attrs, data, weight), dense, name="T_dense")
        return rounded(te, result, data.dtype, "T_dense_round")


_PRODUCT_FORMAT = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"


@graph.op
class MatmulOp(GraphOp):
    """Matrix product with numpy's rules (ONNX MatMul).

    The last two axes multiply and the leading (batch) axes broadcast. A 1-D lhs is a
    row vector and a 1-D rhs a column vector; the axis added for them is dropped from
    the result.

    NaN: computed in float64 and rounded once; NaN and inf propagate as IEEE
    arithmetic says."""

    name = "graph.matmul"
    lhs = OperandDef(FloatTensor)
    rhs = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)
    pattern = PatternKind.OUT_ELEMWISE_FUSABLE
    assembly_format = _PRODUCT_FORMAT

    @classmethod
    def infer(cls, types, attrs):
        a, b = types
        shape_check(a.rank >= 1 and b.rank >= 1,
                    f"needs operands of rank >= 1, got {list(a.shape)} and {list(b.shape)}")
        same_element_type(a, b, "lhs and rhs")
        lhs = (1, *a.shape) if a.rank == 1 else a.shape
        rhs = (*b.shape, 1) if b.rank == 1 else b.shape
        shape_check(lhs[-1] == rhs[-2], f"lhs {list(a.shape)} has {lhs[-1]} columns, rhs "
                                        f"{list(b.shape)} has {rhs[-2]} rows")
        batch = broadcast_shape(lhs[:-2], rhs[:-2])
        rows = (lhs[-2],) if a.rank > 1 else ()
        cols = (rhs[-1],) if b.rank > 1 else ()
        return [tensor((*batch, *rows, *cols), a.element_type)]

    @classmethod
    def reference(cls, attrs, a, b):
        return np.matmul(a.astype(np.float64), b.astype(np.float64))

    @classmethod
    def compute(cls, te, attrs, a, b):
        """The sum of products over the shared axis in the accumulator type; a batch
        axis of extent 1 is read at 0 (broadcast)."""
        shape = result_shape(cls, attrs, a, b)
        acc, extent = accumulator(a.dtype), a.shape[-1]
        batch = len(shape) - (len(a.shape) > 1) - (len(b.shape) > 1)

        def broadcast(operand, batch_index):
            # The operand's batch axes are the trailing ones of the result's.
            own = operand.shape[:-2]
            return [0 if d == 1 else i for d, i in zip(own, batch_index[batch - len(own):])]

        def product(*index):
            k = te.reduce_axis(extent, name="k")
            batch_index, rest = index[:batch], list(index[batch:])
            row = [rest.pop(0)] if len(a.shape) > 1 else []
            col = [rest.pop(0)] if len(b.shape) > 1 else []
            lhs = a[(*broadcast(a, batch_index), *row, k)]
            rhs = b[(*broadcast(b, batch_index), k, *col)] if len(b.shape) > 1 else b[k]
            return te.sum(te.cast(lhs, acc) * te.cast(rhs, acc), axis=k)

        result = te.compute(shape, product, name="T_matmul")
        return rounded(te, result, a.dtype, "T_matmul_round")


@graph.op
class BatchMatmulOp(GraphOp):
    """Batched matrix product of rank-3 tensors: (B, M, K) x (B, K, N) -> (B, M, N).

    A batch of 1 broadcasts against the other operand's. `transpose_a`/`transpose_b`
    swap the last two axes of that operand first (attention's q·kᵀ is
    `transpose_b`).

    NaN: computed in float64 and rounded once; NaN and inf propagate as IEEE
    arithmetic says."""

    name = "graph.batch_matmul"
    lhs = OperandDef(FloatTensor)
    rhs = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)
    transpose_a = flag(False, "lhs is (B, K, M)")
    transpose_b = flag(False, "rhs is (B, N, K)")
    pattern = PatternKind.OUT_ELEMWISE_FUSABLE
    assembly_format = _PRODUCT_FORMAT

    @classmethod
    def infer(cls, types, attrs):
        a, b = types
        shape_check(a.rank == 3 and b.rank == 3,
                    f"needs rank-3 operands, got {list(a.shape)} and {list(b.shape)}")
        same_element_type(a, b, "lhs and rhs")
        batch_a, m, k = a.shape[0], *a.shape[1:][::-1 if attrs["transpose_a"] else 1]
        batch_b, k2, n = b.shape[0], *b.shape[1:][::-1 if attrs["transpose_b"] else 1]
        shape_check(batch_a == batch_b or 1 in (batch_a, batch_b),
                    f"batch sizes {batch_a} and {batch_b} differ and neither is 1")
        shape_check(k == k2, f"lhs {list(a.shape)} has reduction extent {k}, rhs "
                             f"{list(b.shape)} has {k2}")
        return [tensor((*broadcast_shape((batch_a,), (batch_b,)), m, n), a.element_type)]

    @classmethod
    def reference(cls, attrs, a, b):
        a, b = a.astype(np.float64), b.astype(np.float64)
        if attrs["transpose_a"]:
            a = a.transpose(0, 2, 1)
        if attrs["transpose_b"]:
            b = b.transpose(0, 2, 1)
        return np.matmul(a, b)

    @classmethod
    def compute(cls, te, attrs, a, b):
        """TOPI's batch_matmul: the sum of products over K in the accumulator type; a
        batch of 1 is read at 0."""
        acc = accumulator(a.dtype)
        extent = a.shape[1] if attrs["transpose_a"] else a.shape[2]

        def product(batch, i, j):
            k = te.reduce_axis(extent, name="k")
            lhs = a[(0 if a.shape[0] == 1 else batch, *((k, i) if attrs["transpose_a"] else (i, k)))]
            rhs = b[(0 if b.shape[0] == 1 else batch, *((j, k) if attrs["transpose_b"] else (k, j)))]
            return te.sum(te.cast(lhs, acc) * te.cast(rhs, acc), axis=k)

        result = te.compute(result_shape(cls, attrs, a, b), product, name="T_batch_matmul")
        return rounded(te, result, a.dtype, "T_batch_matmul_round")


@graph.op
class BiasAddOp(GraphOp):
    """Adds a 1-D `bias` along `axis` of `data`.

    The axis is the channels for NCHW data, the features (axis -1) after dense.

    Integers: wraps modulo 2^bits.

    NaN: a NaN gives NaN."""

    name = "graph.bias_add"
    data = OperandDef(NumericTensor)
    bias = OperandDef(NumericTensor)
    result = ResultDef(NumericTensor)
    axis = integer(1, "the axis of data the bias runs along")
    pattern = PatternKind.BROADCAST
    assembly_format = "$data `,` $bias attr-dict `:` functional-type(operands, results)"

    @classmethod
    def infer(cls, types, attrs):
        data, bias = types
        axis = normalize_axis(attrs["axis"], data.rank)
        shape_check(bias.rank == 1 and bias.shape[0] == data.shape[axis],
                    f"bias must be 1-D of length {data.shape[axis]} (axis {axis} of data "
                    f"{list(data.shape)}), got shape {list(bias.shape)}")
        same_element_type(data, bias, "data and bias")
        return [data]

    @classmethod
    def reference(cls, attrs, data, bias):
        axis = normalize_axis(attrs["axis"], data.ndim)
        return data + bias.reshape((-1,) + (1,) * (data.ndim - axis - 1))

    @classmethod
    def compute(cls, te, attrs, data, bias):
        """TOPI's bias_add: an add in the element type, the bias read along `axis`."""
        axis = normalize_axis(attrs["axis"], len(data.shape))
        return te.compute(data.shape, lambda *i: data[i] + bias[i[axis]], name="T_bias_add")


class Softmax(GraphOp):
    """A normalisation along one axis; subtracting the axis' maximum first keeps the
    exponentials finite."""

    x = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)
    axis = integer(-1, "the axis normalised over")
    pattern = PatternKind.OPAQUE
    traits = (SameOperandsAndResultType,)
    assembly_format = "$x attr-dict `:` type($result)"

    @classmethod
    def infer(cls, types, attrs):
        normalize_axis(attrs["axis"], types[0].rank)
        return [types[0]]

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's stages: the maximum along the axis, the sum of the shifted
        exponentials (in the accumulator type), then the normalisation
        (`normalized(te, shifted, log_total)`) in the element type."""
        axis = normalize_axis(attrs["axis"], len(x.shape))
        short = cls.op_def.name.split(".")[1]
        maximum = reduce_stage(te, x, (axis,), False, "max", x.dtype, f"T_{short}_maxelem")
        acc = accumulator(x.dtype)

        def shifted(index):
            outer = (*index[:axis], *index[axis + 1:])
            return te.cast(x[index], acc) - te.cast(maximum[outer], acc)

        def exp_sum(*outer):
            k = te.reduce_axis(x.shape[axis], name="k")
            return te.sum(te.exp(shifted((*outer[:axis], k, *outer[axis:]))), axis=k)

        total = te.compute(maximum.shape, exp_sum, name=f"T_{short}_expsum")

        def normalize(*index):
            log_total = te.log(total[(*index[:axis], *index[axis + 1:])])
            return te.cast(cls.normalized(te, shifted(index), log_total), x.dtype)

        return te.compute(x.shape, normalize, name=f"T_{short}_norm")

    @staticmethod
    def normalized(te, shifted, log_total):
        """The result element from x - max and the log of the exponentials' sum."""
        raise NotImplementedError

    @staticmethod
    def shifted(x: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
        """(x - max along axis, log of the sum of its exponentials), in float64."""
        if x.size == 0:  # nothing to normalise (and no maximum to take)
            return x.astype(np.float64), np.zeros((), np.float64)
        shifted = x.astype(np.float64) - np.max(x, axis=axis, keepdims=True)
        return shifted, np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


@graph.op
class SoftmaxOp(Softmax):
    """exp(x) / sum(exp(x)) along `axis`.

    NaN: a NaN or +inf makes its whole slice NaN; -inf elements get 0, and a slice of
    -inf alone is NaN. Computed in float64."""

    name = "graph.softmax"

    @classmethod
    def reference(cls, attrs, x):
        shifted, log_total = cls.shifted(x, attrs["axis"])
        return np.exp(shifted - log_total)

    @staticmethod
    def normalized(te, shifted, log_total):
        return te.exp(shifted - log_total)


@graph.op
class LogSoftmaxOp(Softmax):
    """x - log(sum(exp(x))) along `axis`.

    NaN: a NaN or +inf makes its whole slice NaN; -inf elements stay -inf, and a slice
    of -inf alone is NaN. Computed in float64."""

    name = "graph.log_softmax"

    @classmethod
    def reference(cls, attrs, x):
        shifted, log_total = cls.shifted(x, attrs["axis"])
        return shifted - log_total

    @staticmethod
    def normalized(te, shifted, log_total):
        return shifted - log_total


# ------------------------------------------------------------------ pooling


def _check_data_layout(x, attrs) -> None:
    """An NCHW tensor, or an NCHW{n}c one whose last axis is n."""
    block = layout.data_block(attrs["layout"])
    shape_check(x.rank == (5 if block else 4) and (not block or x.shape[4] == block),
                f"needs an {attrs['layout']} tensor, got shape {list(x.shape)}")


class Pool2D(GraphOp):
    """A sliding-window reduction over H and W of NCHW data, or of channel-blocked
    NCHW{n}c data as graph-alter-op-layout makes it (`ceil_mode` as graph.avg_pool2d's
    description says)."""

    x = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)
    pool_size = ints(doc="window extent along H and W")
    strides = ints((1, 1), "stride along H and W")
    padding = ints((0, 0, 0, 0), "padding: top, left, bottom, right")
    dilation = ints((1, 1), "window dilation along H and W")
    ceil_mode = flag(False, "round the output size up instead of down")
    layout = string("NCHW", "NCHW or NCHW<n>c")
    pattern = PatternKind.OUT_ELEMWISE_FUSABLE
    assembly_format = "$x attr-dict `:` type($x) `->` type($result)"

    @classmethod
    def normalize(cls, attrs: dict) -> dict:
        for name in ("pool_size", "strides", "dilation"):
            if name in attrs:
                attrs[name] = expand_pair(attrs[name])
        if "padding" in attrs:
            attrs["padding"] = expand_padding(attrs["padding"])
        return attrs

    @staticmethod
    def output_size(shape: tuple[int, ...], attrs) -> tuple[int, int]:
        """(OH, OW) of the pooled NCHW (or NCHW{n}c) `shape`."""
        h, w = shape[2], shape[3]
        (kh, kw), (sh, sw), (dh, dw) = attrs["pool_size"], attrs["strides"], attrs["dilation"]
        pt, pl, pb, pr = attrs["padding"]
        return (window_output(h, kh, sh, pt, pb, dh, attrs["ceil_mode"]),
                window_output(w, kw, sw, pl, pr, dw, attrs["ceil_mode"]))

    @classmethod
    def infer(cls, types, attrs):
        x = types[0]
        _check_data_layout(x, attrs)
        check_sliding_attrs(attrs)
        size = attrs["pool_size"]
        shape_check(len(size) == 2 and all(k >= 1 for k in size),
                    f"'pool_size' needs 2 values >= 1, got {list(size)}")
        oh, ow = cls.output_size(x.shape, attrs)
        shape_check(oh > 0 and ow > 0, f"the {size[0]}x{size[1]} window does not fit the "
                                       f"padded {x.shape[2]}x{x.shape[3]} input")
        return [tensor((*x.shape[:2], oh, ow, *x.shape[4:]), x.element_type)]

    @classmethod
    def in_nchw(cls, attrs, x: np.ndarray, reference) -> np.ndarray:
        """`reference` (NCHW in, NCHW out) applied to `x` in the op's layout."""
        if attrs["layout"] == "NCHW":
            return reference(x)
        block = layout.data_block(attrs["layout"])
        return layout.to_blocked(reference(layout.from_blocked(x)), block)

    @classmethod
    def windows(cls, x: np.ndarray, attrs, pad_value: float, overhang_value: float) -> np.ndarray:
        """The (N, C, KH, KW, OH, OW) windows of `x` padded with `pad_value`, and with
        `overhang_value` where ceil_mode's last windows run past the padding."""
        (kh, kw), strides, (dh, dw) = attrs["pool_size"], attrs["strides"], attrs["dilation"]
        pt, pl, pb, pr = attrs["padding"]
        oh, ow = cls.output_size(x.shape, attrs)
        over_h, over_w = cls.overhang(x.shape, attrs)
        x = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)), constant_values=pad_value)
        x = np.pad(x, ((0, 0), (0, 0), (0, over_h), (0, over_w)), constant_values=overhang_value)
        return sliding_windows(x, (kh, kw), strides, (dh, dw), (oh, ow))

    @classmethod
    def overhang(cls, shape: tuple[int, ...], attrs) -> tuple[int, int]:
        """How far ceil_mode's last windows run past the padded input, along H and W."""
        (kh, kw), strides, (dh, dw) = attrs["pool_size"], attrs["strides"], attrs["dilation"]
        pt, pl, pb, pr = attrs["padding"]
        oh, ow = cls.output_size(shape, attrs)
        return (max(0, (oh - 1) * strides[0] + dh * (kh - 1) + 1 - (shape[2] + pt + pb)),
                max(0, (ow - 1) * strides[1] + dw * (kw - 1) + 1 - (shape[3] + pl + pr)))

    @classmethod
    def window_reduction(cls, te, x, attrs, pad_value: float, overhang_value: float,
                         combiner: str, dtype, name: str):
        """The `combiner` of each window of `x` (converted to `dtype`), the padding
        reading `pad_value` and ceil_mode's overhang `overhang_value` (as `windows`):
        TOPI's pad stage and pool stage."""
        (kh, kw), (sh, sw), (dh, dw) = attrs["pool_size"], attrs["strides"], attrs["dilation"]
        pt, pl, pb, pr = attrs["padding"]
        inner = x.shape[4:]  # the channel block of NCHW{n}c
        shape = (*x.shape[:2], *cls.output_size(x.shape, attrs), *inner)
        over_h, over_w = cls.overhang(x.shape, attrs)
        if pad_value == overhang_value:
            pb, pr, over_h, over_w = pb + over_h, pr + over_w, 0, 0
        flat = (0,) * len(inner)
        if pt or pl or pb or pr:
            x = te.pad(x, (0, 0, pt, pl, *flat), (0, 0, pb, pr, *flat), pad_value,
                       name=f"{name}_pad")
        if over_h or over_w:
            x = te.pad(x, (0, 0, 0, 0, *flat), (0, 0, over_h, over_w, *flat), overhang_value,
                       name=f"{name}_overhang")
        reducer = getattr(te, combiner)

        def window(n, c, y, z, *inner):
            ry, rx = te.reduce_axis(kh, name="ry"), te.reduce_axis(kw, name="rx")
            return reducer(te.cast(x[(n, c, y * sh + ry * dh, z * sw + rx * dw, *inner)],
                                   dtype), axis=(ry, rx))

        return te.compute(shape, window, name=name)


@graph.op
class MaxPool2DOp(Pool2D):
    """Maximum over each window of NCHW data.

    Padding never wins: it counts as -inf. See `graph.avg_pool2d` for `ceil_mode`.

    NaN: a window holding a NaN gives NaN."""

    name = "graph.max_pool2d"

    @classmethod
    def reference(cls, attrs, x):
        return cls.in_nchw(attrs, x, lambda v: cls.windows(
            v.astype(np.float64), attrs, -np.inf, -np.inf).max(axis=(2, 3)))

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's pool2d (max): the padding stage, then the window maxima (exact in
        the element type)."""
        return cls.window_reduction(te, x, attrs, -math.inf, -math.inf, "max", x.dtype,
                                    "T_max_pool2d")


@graph.op
class AvgPool2DOp(Pool2D):
    """Mean over each window of NCHW data.

    The divisor counts the window's input elements, and its padding elements too
    with `count_include_pad`. With `ceil_mode` the output size rounds up, so the last
    window may run past the padded input (it must start inside the input or its
    leading padding); that overhang is never counted.

    NaN: a window holding a NaN gives NaN; sums are taken in float64."""

    name = "graph.avg_pool2d"
    count_include_pad = flag(False, "count padding elements in the divisor")

    @classmethod
    def reference(cls, attrs, x):
        def average(v):
            total = cls.windows(v.astype(np.float64), attrs, 0.0, 0.0).sum(axis=(2, 3))
            ones = np.ones((1, 1, *v.shape[2:]))
            counted = 1.0 if attrs["count_include_pad"] else 0.0
            count = cls.windows(ones, attrs, counted, 0.0).sum(axis=(2, 3))
            # A window of padding alone (possible only when padding exceeds the window)
            # averages nothing; it gives 0 rather than a division by zero.
            return total / np.maximum(count, 1.0)

        return cls.in_nchw(attrs, x, average)

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's pool2d (avg): the window sums in the accumulator type; the divisors
        as the window sums of a plane of ones, padded with ones (`count_include_pad`)
        or zeros and with zeros past the padding; their quotient in the element type."""
        acc = accumulator(x.dtype)
        total = cls.window_reduction(te, x, attrs, 0.0, 0.0, "sum", acc, "T_avg_pool2d_sum")
        ones = te.compute((1, 1, *x.shape[2:4]), lambda n, c, y, z: te.const(1.0, acc),
                          name="T_avg_pool2d_ones")
        counted = 1.0 if attrs["count_include_pad"] else 0.0
        count = cls.window_reduction(te, ones, attrs, counted, 0.0, "sum", acc,
                                     "T_avg_pool2d_count")
        return te.compute(total.shape, lambda n, c, y, z, *inner: te.cast(
            total[(n, c, y, z, *inner)] / te.maximum(count[0, 0, y, z], 1.0), x.dtype),
            name="T_avg_pool2d")


class GlobalPool2D(GraphOp):
    """A reduction of each channel of NCHW data to one element: (N, C, 1, 1); of
    NCHW{n}c data: (N, C/n, 1, 1, n)."""

    x = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)
    layout = string("NCHW", "NCHW or NCHW<n>c")
    pattern = PatternKind.OUT_ELEMWISE_FUSABLE
    assembly_format = "$x attr-dict `:` type($x) `->` type($result)"

    @classmethod
    def infer(cls, types, attrs):
        x = types[0]
        _check_data_layout(x, attrs)
        shape_check(x.shape[2] * x.shape[3] > 0, f"cannot pool an empty {x.shape[2]}x"
                                                 f"{x.shape[3]} plane")
        return [tensor((*x.shape[:2], 1, 1, *x.shape[4:]), x.element_type)]


@graph.op
class GlobalAvgPool2DOp(GlobalPool2D):
    """Mean of each channel over H and W.

    NaN: a NaN gives NaN; the sum is taken in float64."""

    name = "graph.global_avg_pool2d"

    @classmethod
    def reference(cls, attrs, x):
        return x.astype(np.float64).mean(axis=(2, 3), keepdims=True)

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's global_pool (avg): the plane's sum in the accumulator type over its
        size."""
        total = reduce_stage(te, x, (2, 3), True, "sum", accumulator(x.dtype),
                             "T_global_avg_pool2d_sum")
        size = x.shape[2] * x.shape[3]
        return te.compute(total.shape, lambda *i: te.cast(total[i] / size, x.dtype),
                          name="T_global_avg_pool2d")


@graph.op
class GlobalMaxPool2DOp(GlobalPool2D):
    """Maximum of each channel over H and W.

    NaN: a NaN gives NaN."""

    name = "graph.global_max_pool2d"

    @classmethod
    def reference(cls, attrs, x):
        return x.max(axis=(2, 3), keepdims=True)

    @classmethod
    def compute(cls, te, attrs, x):
        """TOPI's global_pool (max): the plane's maximum, exact in the element type."""
        return reduce_stage(te, x, (2, 3), True, "max", x.dtype, "T_global_max_pool2d")
