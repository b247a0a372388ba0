"""Every graph op: result types it infers (negative axes included), its reference
semantics against an independent computation (explicit loops or a different numpy
route), the verifier's message for a bad shape or attribute, its pattern kind, and
its custom form printed, parsed and printed again."""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import numpy as np
import pytest

from mlc.graph import GraphBuilder, PatternKind, evaluate, graph
from mlc.ir import (
    Context,
    DiagnosticError,
    IRError,
    PrintOptions,
    i1,
    i32,
    parse_module,
    print_op,
    verify,
)

ROUNDTRIP = Path(__file__).resolve().parents[1] / "filecheck/graph/ops-roundtrip.mlir"
RNG = np.random.default_rng(0)


def _param(b: GraphBuilder, name: str, spec):
    """A parameter from a shape, a (shape, dtype) pair or an array."""
    if isinstance(spec, np.ndarray):
        return b.param(name, spec.shape, spec.dtype.name)
    if len(spec) == 2 and isinstance(spec[1], str):
        return b.param(name, spec[0], spec[1])
    return b.param(name, spec)


def build(op: str, *operands, **attrs):
    """`graph.<op>` on parameters (a list stands for a variadic group): the builder's
    result(s) and the flat parameter list."""
    b = GraphBuilder()
    flat, groups = [], []
    for i, spec in enumerate(operands):
        if isinstance(spec, list):
            group = [_param(b, f"p{i}_{j}", s) for j, s in enumerate(spec)]
            flat += group
            groups.append(group)
        else:
            flat.append(_param(b, f"p{i}", spec))
            groups.append(flat[-1])
    return b, b.op(op, *groups, **attrs)


def shapes(op: str, *operands, **attrs):
    """The inferred result shape (a list of them for a multi-result op)."""
    _, out = build(op, *operands, **attrs)
    if isinstance(out, list):
        return [v.type.shape for v in out]
    return out.type.shape


def run(op: str, *arrays, **attrs):
    """Build `graph.<op>` on `arrays`, verify it, evaluate it with the interpreter."""
    b, out = build(op, *arrays, **attrs)
    outs = out if isinstance(out, list) else [out]
    module = b.module(*outs)
    verify(module)
    flat = [a for spec in arrays for a in (spec if isinstance(spec, list) else [spec])]
    values = evaluate(module, flat)
    return values if isinstance(out, list) else values[0]


def rand(*shape) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


# ------------------------------------------------------------------ shape inference

SHAPE_CASES = [
    # numpy matmul: 1-D operands gain and lose an axis, batch axes broadcast
    ("matmul", [(2, 3), (3, 4)], {}, (2, 4)),
    ("matmul", [(3,), (3, 4)], {}, (4,)),
    ("matmul", [(2, 3), (3,)], {}, (2,)),
    ("matmul", [(3,), (3,)], {}, ()),
    ("matmul", [(5, 1, 2, 3), (4, 3, 2)], {}, (5, 4, 2, 2)),
    ("matmul", [(2, 3, 4), (4,)], {}, (2, 3)),
    ("batch_matmul", [(2, 3, 4), (2, 4, 5)], {}, (2, 3, 5)),
    ("batch_matmul", [(1, 3, 4), (2, 4, 5)], {}, (2, 3, 5)),
    ("batch_matmul", [(2, 4, 3), (2, 4, 5)], {"transpose_a": True}, (2, 3, 5)),
    ("batch_matmul", [(2, 3, 4), (1, 5, 4)], {"transpose_b": True}, (2, 3, 5)),
    ("bias_add", [(1, 4, 2, 2), (4,)], {}, (1, 4, 2, 2)),
    ("bias_add", [(2, 3), (3,)], {"axis": -1}, (2, 3)),
    ("softmax", [(2, 3)], {"axis": -2}, (2, 3)),
    ("log_softmax", [(2, 3)], {}, (2, 3)),
    ("max_pool2d", [(1, 1, 5, 5)], {"pool_size": 3, "strides": 2, "padding": 1}, (1, 1, 3, 3)),
    ("max_pool2d", [(1, 1, 5, 5)], {"pool_size": 2, "strides": 2}, (1, 1, 2, 2)),
    ("max_pool2d", [(1, 1, 5, 5)], {"pool_size": 2, "strides": 2, "ceil_mode": True}, (1, 1, 3, 3)),
    # ceil_mode's last window would start in the bottom padding: dropped
    ("max_pool2d", [(1, 1, 4, 4)], {"pool_size": 1, "strides": 2, "padding": 1, "ceil_mode": True},
     (1, 1, 3, 3)),
    ("max_pool2d", [(1, 1, 5, 5)], {"pool_size": 2, "dilation": 2}, (1, 1, 3, 3)),
    # padding as wide as the window: floor mode has a last window of padding alone,
    # and ceil_mode never gives fewer windows than floor mode
    ("max_pool2d", [(1, 1, 5, 5)], {"pool_size": 2, "padding": (0, 0, 0, 2)}, (1, 1, 4, 6)),
    ("max_pool2d", [(1, 1, 5, 5)], {"pool_size": 2, "padding": (0, 0, 0, 2), "ceil_mode": True},
     (1, 1, 4, 6)),
    ("avg_pool2d", [(1, 2, 5, 6)], {"pool_size": (2, 3), "padding": (0, 0, 1, 1)}, (1, 2, 5, 5)),
    ("global_avg_pool2d", [(2, 3, 4, 5)], {}, (2, 3, 1, 1)),
    ("global_max_pool2d", [(2, 3, 4, 5)], {}, (2, 3, 1, 1)),
    ("sum", [(2, 3, 4)], {}, ()),
    ("sum", [(2, 3, 4)], {"axes": (-1,)}, (2, 3)),
    ("mean", [(2, 3, 4)], {"axes": (0, 2), "keepdims": True}, (1, 3, 1)),
    ("max", [(2, 3, 4)], {"axes": (1,)}, (2, 4)),
    ("min", [(2, 3, 4)], {"axes": (-3, -2)}, (4,)),
    ("prod", [(2, 3, 4)], {"keepdims": True}, (1, 1, 1)),
    ("argmax", [(2, 3, 4)], {"axis": -1}, (2, 3)),
    ("argmax", [(2, 3, 4)], {"axis": 1, "keepdims": True}, (2, 1, 4)),
    ("transpose", [(2, 3, 4)], {}, (4, 3, 2)),
    ("transpose", [(2, 3, 4)], {"axes": (0, -1, 1)}, (2, 4, 3)),
    ("flatten", [(2, 3, 4)], {}, (2, 12)),
    ("flatten", [(2, 3, 4)], {"axis": 0}, (1, 24)),
    ("flatten", [(2, 3, 4)], {"axis": -1}, (6, 4)),
    ("flatten", [(2, 3, 4)], {"axis": 3}, (24, 1)),
    ("squeeze", [(1, 3, 1)], {}, (3,)),
    ("squeeze", [(1, 3, 1)], {"axes": (-1,)}, (1, 3)),
    ("expand_dims", [(2, 3)], {"axis": 0}, (1, 2, 3)),
    ("expand_dims", [(2, 3)], {"axis": -1}, (2, 3, 1)),
    ("expand_dims", [(2, 3)], {"axis": -3}, (1, 2, 3)),
    ("expand_dims", [(2, 3)], {"axis": 1, "num_newaxis": 2}, (2, 1, 1, 3)),
    ("broadcast_to", [(3,)], {"shape": (2, 3)}, (2, 3)),
    ("broadcast_to", [(2, 1)], {"shape": (4, 2, 5)}, (4, 2, 5)),
    ("tile", [(2, 3)], {"repeats": (2,)}, (2, 6)),
    ("tile", [(2, 3)], {"repeats": (2, 1, 2)}, (2, 2, 6)),
    ("pad", [(2, 3)], {"pads": (1, 0, 2, 3)}, (5, 6)),
    ("slice", [(5,)], {"starts": (1,), "ends": (4,)}, (3,)),
    ("slice", [(5,)], {"starts": (-1,), "ends": (-10,), "steps": (-1,)}, (5,)),
    ("slice", [(4, 6)], {"starts": (1,), "ends": (2**63 - 1,), "axes": (-1,), "steps": (2,)}, (4, 3)),
    ("gather", [(4, 3), ((2, 5), "int64")], {}, (2, 5, 3)),
    ("gather", [(4, 3), ((2, 5), "int32")], {"axis": -1}, (4, 2, 5)),
    ("concat", [[(2, 3), (2, 1)]], {"axis": -1}, (2, 4)),
    ("concat", [[(1, 3), (2, 3), (4, 3)]], {}, (7, 3)),
    ("split", [(6, 4)], {"sections": (1, 5)}, [(1, 4), (5, 4)]),
    ("split", [(2, 6)], {"sections": 3, "axis": -1}, [(2, 2)] * 3),
    ("reshape", [(2, 3, 4)], {"shape": (0, -1)}, (2, 12)),
    ("conv2d", [(1, 4, 5, 5), (6, 2, 3, 3)], {"groups": 2, "padding": 1, "strides": 2},
     (1, 6, 3, 3)),
    # Windows with every padding side different (top != bottom, left != right,
    # left != bottom), strides and dilations different along H and W, by hand:
    # out = (size + before + after - dilation * (kernel - 1) - 1) // stride + 1.
    # H: (11 + 1 + 2 - 2*2 - 1) // 2 + 1 = 5; W: (13 + 0 + 4 - 1*1 - 1) // 3 + 1 = 6
    ("conv2d", [(1, 2, 11, 13), (4, 2, 3, 2)],
     {"strides": (2, 3), "padding": (1, 0, 2, 4), "dilation": (2, 1)}, (1, 4, 5, 6)),
    # H: (9 + 0 + 3 - 1*1 - 1) // 1 + 1 = 11; W: (10 + 2 + 1 - 3*2 - 1) // 2 + 1 = 4
    ("conv2d", [(2, 4, 9, 10), (6, 2, 2, 3)],
     {"groups": 2, "strides": (1, 2), "padding": (0, 2, 3, 1), "dilation": (1, 3)}, (2, 6, 11, 4)),
    # NCHW4c data, OIHW4i4o weight (8 output channels): H (9 + 2 + 0 - 1*2 - 1) // 2 + 1
    # = 5; W (10 + 1 + 3 - 2*2 - 1) // 1 + 1 = 10; the result is NCHW4c
    ("conv2d", [(1, 2, 9, 10, 4), (2, 2, 3, 3, 4, 4)],
     {"data_layout": "NCHW4c", "kernel_layout": "OIHW4i4o", "strides": (2, 1),
      "padding": (2, 1, 0, 3), "dilation": (1, 2)}, (1, 2, 5, 10, 4)),
    # H: (10 + 2 + 1 - 1*3 - 1) // 3 + 1 = 4; W: (13 + 0 + 3 - 2*2 - 1) // 2 + 1 = 6
    ("max_pool2d", [(1, 3, 10, 13)],
     {"pool_size": (4, 3), "strides": (3, 2), "padding": (2, 0, 1, 3), "dilation": (1, 2)},
     (1, 3, 4, 6)),
    # ceil_mode, padding on the left and right only: H (7 - 1 - 1) / 2 = 2.5 rounds up to
    # 3 (+1 = 4; the fourth window starts at row 6, inside the input); W (8 + 2 - 1 - 1)
    # / 2 = 4 exactly (+1 = 5)
    ("max_pool2d", [(1, 1, 7, 8)],
     {"pool_size": (2, 2), "strides": (2, 2), "padding": (0, 1, 0, 1), "ceil_mode": True},
     (1, 1, 4, 5)),
    # ceil_mode decided by the leading padding, not the trailing one: (5 + 2 - 1 - 1) / 3
    # = 1.67 along both axes; a third window starts at 6, past the 5 rows (top padding
    # 0, bottom 2): 2 rows; but inside the 2 + 5 columns (left padding 2): 3 columns
    ("max_pool2d", [(1, 1, 5, 5)],
     {"pool_size": (2, 2), "strides": (3, 3), "padding": (0, 2, 2, 0), "ceil_mode": True},
     (1, 1, 2, 3)),
    # ceil_mode: H (12 + 1 + 0 - 3*2 - 1) / 2 = 3 exactly (+1 = 4); W (9 + 2 + 3 - 1*3 -
    # 1) / 3 = 3.33, but a fifth window would start at column 12 of the padded row,
    # past the input and its left padding (11 columns): dropped, 4
    ("avg_pool2d", [(2, 2, 12, 9)],
     {"pool_size": (3, 4), "strides": (2, 3), "padding": (1, 2, 0, 3), "dilation": (3, 1),
      "ceil_mode": True}, (2, 2, 4, 4)),
    # H: (6 + 1 + 3 - 2*1 - 1) // 1 + 1 = 8; W: (11 + 0 + 2 - 2*2 - 1) // 4 + 1 = 3
    ("avg_pool2d", [(1, 2, 6, 11)],
     {"pool_size": (2, 3), "strides": (1, 4), "padding": (1, 0, 3, 2), "dilation": (2, 2)},
     (1, 2, 8, 3)),
    ("dense", [(2, 5, 3), (4, 3)], {}, (2, 5, 4)),
    ("argmin", [(2, 3, 4)], {"axis": -2, "keepdims": True, "select_last_index": True}, (2, 1, 4)),
    ("prelu", [(1, 4, 5, 5), (4, 1, 1)], {}, (1, 4, 5, 5)),
    ("prelu", [(3, 4), ()], {}, (3, 4)),
    ("greater_equal", [(3, 1), (4,)], {}, (3, 4)),
    ("not_equal", [(2, 1, 3), (5, 1)], {}, (2, 5, 3)),
    # gather_elements: the result has the shape of indices, which may be shorter than
    # data along the other axes
    ("gather_elements", [(3, 3), ((2, 3), "int64")], {}, (2, 3)),
    ("gather_elements", [(3, 4), ((3, 2), "int32")], {"axis": -1}, (3, 2)),
    ("gather_elements", [(3, 4), ((2, 7), "int64")], {"axis": 1}, (2, 7)),
    # range: max(ceil((limit - start) / delta), 0) elements
    ("range", [], {"start": 1, "limit": 10, "delta": 3}, (3,)),
    ("range", [], {"start": 10, "limit": 1, "delta": -3}, (3,)),
    ("range", [], {"start": 0, "limit": 5, "delta": -1}, (0,)),
    ("range", [], {"start": 0.5, "limit": 2.0, "delta": 0.5}, (3,)),
    ("range", [], {"start": 1.0, "limit": 5.0, "delta": 2.0}, (2,)),
    ("range", [], {"start": 0.0, "limit": 1.0, "delta": 0.3}, (4,)),
]


@pytest.mark.parametrize("op, operands, attrs, expected", SHAPE_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(SHAPE_CASES)])
def test_inferred_shape(op, operands, attrs, expected):
    assert shapes(op, *operands, **attrs) == expected


def test_argmax_result_is_i64():
    _, out = build("argmax", (2, 3), axis=0)
    assert str(out.type) == "tensor<3xi64>"


def test_builder_spellings_are_normalized():
    _, out = build("max_pool2d", (1, 1, 6, 6), pool_size=2, strides=2, padding=(1, 0))
    op = out.defining_op
    assert op.values["pool_size"] == (2, 2)
    assert op.values["strides"] == (2, 2)
    assert op.values["padding"] == (1, 0, 1, 0)
    _, pieces = build("split", (2, 6), sections=3, axis=1)
    assert pieces[0].defining_op.values["sections"] == (2, 2, 2)


# ------------------------------------------------------------------ reference semantics


def conv2d_loops(x, k, strides, padding, dilation, groups):
    n, c, h, w = x.shape
    o, i, kh, kw = k.shape
    pt, pl, pb, pr = padding
    oh = (h + pt + pb - dilation[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (w + pl + pr - dilation[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, o, oh, ow))
    per_group = o // groups
    for b, oc, y, z in itertools.product(range(n), range(o), range(oh), range(ow)):
        g = oc // per_group
        for ic, dy, dz in itertools.product(range(i), range(kh), range(kw)):
            iy = y * strides[0] - pt + dy * dilation[0]
            iz = z * strides[1] - pl + dz * dilation[1]
            if 0 <= iy < h and 0 <= iz < w:
                out[b, oc, y, z] += x[b, g * i + ic, iy, iz] * k[oc, ic, dy, dz]
    return out


@pytest.mark.parametrize("attrs", [
    {"strides": (2, 1), "padding": (1, 0, 0, 2), "dilation": (1, 2), "groups": 2},
    {"strides": (1, 3), "padding": (0, 2, 2, 1), "dilation": (2, 1), "groups": 1},
    {"strides": (3, 2), "padding": (2, 1, 1, 0), "dilation": (1, 1), "groups": 4},
], ids=["grouped", "dilated-h", "depthwise"])
def test_conv2d_matches_loops(attrs):
    x, k = rand(1, 4, 5, 5), rand(4, 4 // attrs["groups"], 3, 3)
    got = run("conv2d", x, k, **attrs)
    np.testing.assert_allclose(got, conv2d_loops(x, k, **attrs), rtol=1e-5, atol=1e-5)


def test_dense_matches_sum_of_products():
    x, w = rand(2, 3), rand(4, 3)
    expected = [[sum(float(x[r, j]) * float(w[c, j]) for j in range(3)) for c in range(4)]
                for r in range(2)]
    np.testing.assert_allclose(run("dense", x, w), expected, rtol=1e-5)


@pytest.mark.parametrize("lhs, rhs", [((2, 3), (3, 4)), ((3,), (3, 4)), ((2, 3), (3,)),
                                      ((3,), (3,)), ((2, 1, 2, 3), (4, 3, 2))])
def test_matmul_matches_einsum(lhs, rhs):
    a, b = rand(*lhs), rand(*rhs)
    # promote the 1-D operands by hand, broadcast the batch axes explicitly, then drop
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    a3 = np.broadcast_to(a2, batch + a2.shape[-2:]).reshape(-1, *a2.shape[-2:])
    b3 = np.broadcast_to(b2, batch + b2.shape[-2:]).reshape(-1, *b2.shape[-2:])
    out = np.einsum("bmk,bkn->bmn", a3.astype(np.float64), b3).reshape(batch + (a2.shape[-2],
                                                                                 b2.shape[-1]))
    if a.ndim == 1:
        out = out[..., 0, :]
    if b.ndim == 1:
        out = out[..., 0]
    np.testing.assert_allclose(run("matmul", a, b), out, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("transpose_a, transpose_b", [(False, False), (True, False),
                                                      (False, True), (True, True)])
def test_batch_matmul_matches_per_batch_products(transpose_a, transpose_b):
    a = rand(1, 4, 3) if transpose_a else rand(1, 3, 4)  # batch 1 broadcasts
    b = rand(2, 5, 4) if transpose_b else rand(2, 4, 5)
    expected = np.stack([(a[0].T if transpose_a else a[0]) @ (b[i].T if transpose_b else b[i])
                         for i in range(2)])
    got = run("batch_matmul", a, b, transpose_a=transpose_a, transpose_b=transpose_b)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape, axis", [((2, 3, 4), 1), ((2, 3, 4), -1), ((2, 3, 4), 0)])
def test_bias_add_matches_loop(shape, axis):
    x, bias = rand(*shape), rand(shape[axis])
    expected = np.empty(shape, np.float32)
    for index in np.ndindex(*shape):
        expected[index] = x[index] + bias[index[axis]]
    np.testing.assert_allclose(run("bias_add", x, bias, axis=axis), expected, rtol=1e-6)


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_softmax_and_log_softmax(axis):
    x = rand(2, 3)
    e = np.exp(x.astype(np.float64))
    expected = e / e.sum(axis=axis, keepdims=True)
    np.testing.assert_allclose(run("softmax", x, axis=axis), expected, rtol=1e-6)
    np.testing.assert_allclose(run("log_softmax", x, axis=axis), np.log(expected), rtol=1e-5,
                               atol=1e-6)


def test_softmax_is_stable_for_large_inputs():
    x = np.array([[1000.0, 1000.0 + math.log(2.0)]], np.float32)
    np.testing.assert_allclose(run("softmax", x), [[1 / 3, 2 / 3]], rtol=1e-4)
    np.testing.assert_allclose(run("log_softmax", x), [[math.log(1 / 3), math.log(2 / 3)]],
                               rtol=1e-3)


def pool_loops(x, kind, pool_size, strides=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1),
               ceil_mode=False, count_include_pad=False):
    """Pooling written out: every window element is an input element, a padding
    element, or past the padding (ceil_mode's overhang), decided one by one."""
    n, c, h, w = x.shape
    pt, pl, pb, pr = padding

    def extent(size, k, s, before, after, d):
        span = size + before + after - d * (k - 1) - 1
        out = (math.ceil(span / s) if ceil_mode else math.floor(span / s)) + 1
        if ceil_mode and (out - 1) * s >= size + before:
            out -= 1
        return out

    oh = extent(h, pool_size[0], strides[0], pt, pb, dilation[0])
    ow = extent(w, pool_size[1], strides[1], pl, pr, dilation[1])
    out = np.zeros((n, c, oh, ow))
    for b, ch, y, z in itertools.product(range(n), range(c), range(oh), range(ow)):
        values, padded = [], 0
        for dy, dz in itertools.product(range(pool_size[0]), range(pool_size[1])):
            iy = y * strides[0] - pt + dy * dilation[0]
            iz = z * strides[1] - pl + dz * dilation[1]
            if 0 <= iy < h and 0 <= iz < w:
                values.append(float(x[b, ch, iy, iz]))
            elif -pt <= iy < h + pb and -pl <= iz < w + pr:
                padded += 1
        if kind == "max":
            out[b, ch, y, z] = max(values) if values else -math.inf
        else:
            out[b, ch, y, z] = sum(values) / (len(values) + (padded if count_include_pad else 0))
    return out


POOL_CASES = [
    {"pool_size": (2, 2)},
    {"pool_size": (3, 3), "strides": (2, 2), "padding": (1, 1, 1, 1)},
    {"pool_size": (2, 3), "strides": (2, 2), "padding": (1, 0, 0, 1), "ceil_mode": True},
    {"pool_size": (2, 2), "strides": (2, 2), "ceil_mode": True},
    {"pool_size": (2, 2), "strides": (1, 2), "dilation": (2, 1), "padding": (0, 1, 1, 0)},
    {"pool_size": (3, 3), "strides": (3, 3), "padding": (1, 1, 1, 1), "ceil_mode": True},
    # ceil_mode overhangs along H; only W is padded
    {"pool_size": (2, 2), "strides": (2, 2), "padding": (0, 1, 0, 1), "ceil_mode": True},
    # every side different, the larger stride and the dilation along W
    {"pool_size": (2, 2), "strides": (1, 3), "dilation": (1, 2), "padding": (1, 0, 0, 1),
     "ceil_mode": True},
    {"pool_size": (3, 2), "strides": (2, 1), "dilation": (1, 2), "padding": (2, 1, 0, 0)},
]


@pytest.mark.parametrize("attrs", POOL_CASES)
def test_max_pool2d_matches_loops(attrs):
    x = rand(1, 2, 5, 5)
    np.testing.assert_allclose(run("max_pool2d", x, **attrs), pool_loops(x, "max", **attrs),
                               rtol=1e-6)


@pytest.mark.parametrize("count_include_pad", [False, True])
@pytest.mark.parametrize("attrs", POOL_CASES)
def test_avg_pool2d_matches_loops(attrs, count_include_pad):
    x = rand(1, 2, 5, 5)
    got = run("avg_pool2d", x, count_include_pad=count_include_pad, **attrs)
    expected = pool_loops(x, "avg", count_include_pad=count_include_pad, **attrs)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_avg_pool2d_divisors_by_hand():
    # Ones, 2x2 windows at stride 2, one row and column of padding at the top and
    # left, ceil_mode. Along each axis the three windows hold (input, padding)
    # elements (1, 1), (2, 0) and (1, 0): the last one hangs one element past the
    # input, which is not padding and is never counted.
    ones = np.ones((1, 1, 4, 4), np.float32)
    attrs = {"pool_size": (2, 2), "strides": (2, 2), "padding": (1, 1, 0, 0), "ceil_mode": True}
    np.testing.assert_allclose(run("avg_pool2d", ones, **attrs)[0, 0], np.ones((3, 3)))
    ratio = [1 / 2, 1, 1]  # input elements / counted elements, per axis
    np.testing.assert_allclose(run("avg_pool2d", ones, count_include_pad=True, **attrs)[0, 0],
                               np.outer(ratio, ratio))


def test_global_pools_match_loops():
    x = rand(2, 3, 2, 4)
    mean = [[[[sum(float(v) for v in x[b, c].ravel()) / 8]] for c in range(3)] for b in range(2)]
    peak = [[[[max(float(v) for v in x[b, c].ravel())]] for c in range(3)] for b in range(2)]
    np.testing.assert_allclose(run("global_avg_pool2d", x), mean, rtol=1e-5)
    np.testing.assert_allclose(run("global_max_pool2d", x), peak)


def reduce_rows(x, axes, keepdims, combine):
    """Reduction by moving the reduced axes last and combining each row in Python."""
    axes = sorted(a % x.ndim for a in axes) if axes else list(range(x.ndim))
    kept = [a for a in range(x.ndim) if a not in axes]
    rows = np.transpose(x, kept + axes).reshape(*(x.shape[a] for a in kept), -1)
    out = np.array([combine([float(v) for v in row]) for row in rows.reshape(-1, rows.shape[-1])])
    out = out.reshape([x.shape[a] for a in kept])
    if keepdims:
        out = out.reshape([1 if a in axes else d for a, d in enumerate(x.shape)])
    return out


COMBINE = {"sum": math.fsum, "mean": lambda r: math.fsum(r) / len(r), "max": max, "min": min,
           "prod": math.prod}


@pytest.mark.parametrize("op", sorted(COMBINE))
@pytest.mark.parametrize("axes, keepdims", [((), False), ((-1,), False), ((0, 2), True),
                                            ((1,), True), ((-3, -2), False)])
def test_reductions_match_rows(op, axes, keepdims):
    x = rand(2, 3, 4)
    got = run(op, x, axes=axes, keepdims=keepdims)
    np.testing.assert_allclose(got, reduce_rows(x, axes, keepdims, COMBINE[op]), rtol=1e-5,
                               atol=1e-6)


def test_integer_sum_is_exact():
    x = np.full((3,), 2**40 + 1, np.int64)
    assert run("sum", x) == 3 * (2**40 + 1)


def test_argmax_first_index_on_ties():
    x = np.array([[1, 3, 3], [2, 2, 1]], np.float32)
    got = run("argmax", x, axis=-1)
    assert got.dtype == np.int64
    assert got.tolist() == [1, 0]
    assert run("argmax", x, axis=0, keepdims=True).tolist() == [[1, 0, 0]]


@pytest.mark.parametrize("axes", [(), (1, 2, 0), (-1, 0, -2)])
def test_transpose_matches_index_loop(axes):
    x = rand(2, 3, 4)
    perm = [a % 3 for a in axes] if axes else [2, 1, 0]
    got = run("transpose", x, axes=axes)
    for index in np.ndindex(*x.shape):
        assert got[tuple(index[p] for p in perm)] == x[index]


@pytest.mark.parametrize("axis, expected", [(0, (1, 24)), (1, (2, 12)), (-1, (6, 4)),
                                            (3, (24, 1))])
def test_flatten_keeps_row_major_order(axis, expected):
    x = rand(2, 3, 4)
    got = run("flatten", x, axis=axis)
    assert got.shape == expected
    assert got.ravel().tolist() == x.ravel().tolist()


def test_squeeze_and_expand_dims():
    x = rand(1, 3, 1)
    assert run("squeeze", x).tolist() == [x[0, i, 0] for i in range(3)]
    assert run("squeeze", x, axes=(0,)).tolist() == [[x[0, i, 0]] for i in range(3)]
    y = rand(2, 3)
    assert run("expand_dims", y, axis=1).tolist() == [[list(row)] for row in y]
    assert run("expand_dims", y, axis=-1, num_newaxis=2).shape == (2, 3, 1, 1)
    assert run("expand_dims", y, axis=0, num_newaxis=0).tolist() == y.tolist()


def test_broadcast_to_and_tile_match_index_arithmetic():
    x = rand(2, 1)
    got = run("broadcast_to", x, shape=(3, 2, 4))
    for i, j, k in np.ndindex(3, 2, 4):
        assert got[i, j, k] == x[j, 0]
    y = rand(2, 3)
    tiled = run("tile", y, repeats=(2, 2, 1))
    assert tiled.shape == (2, 4, 3)
    for i, j, k in np.ndindex(*tiled.shape):
        assert tiled[i, j, k] == y[j % 2, k % 3]


def test_pad_places_the_input_and_fills_the_rest():
    x = rand(2, 3)
    got = run("pad", x, pads=(1, 0, 2, 3), value=-7.0)
    assert got.shape == (5, 6)
    for i, j in np.ndindex(*got.shape):
        inside = 1 <= i < 3 and 0 <= j < 3
        assert got[i, j] == (x[i - 1, j] if inside else -7.0)


SLICE_CASES = [
    # (starts, ends, axes, steps, the same slice in Python)
    ((1,), (4,), (), (), np.s_[1:4]),
    ((-4, 1), (-1, 100), (), (), np.s_[-4:-1, 1:100]),
    ((4,), (-100,), (), (-1,), np.s_[4::-1]),
    ((-1,), (0,), (1,), (-2,), np.s_[:, -1:0:-2]),
    ((10,), (-10,), (-1,), (-3,), np.s_[:, 10::-3]),
    ((0, 2), (2**63 - 1, -1), (1, 0), (2, 1), np.s_[2:-1, 0::2]),
    ((3,), (1,), (0,), (1,), np.s_[3:1]),  # empty
    ((-100,), (100,), (-1,), (1,), np.s_[:, -100:100]),
]


@pytest.mark.parametrize("starts, ends, axes, steps, python", SLICE_CASES)
def test_slice_matches_python_slicing(starts, ends, axes, steps, python):
    x = rand(5, 6)
    got = run("slice", x, starts=starts, ends=ends, axes=axes, steps=steps)
    assert got.tolist() == x[python].tolist()


def test_slice_start_below_the_axis_walking_backwards():
    # ONNX clamps a negative-step start into [0, dim-1]: index 0 is kept (Python's
    # slicing would give nothing here).
    x = rand(5)
    assert run("slice", x, starts=(-10,), ends=(-10,), steps=(-1,)).tolist() == [x[0]]


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_gather_matches_loop(axis):
    data = rand(3, 4)
    indices = np.array([[0, -1], [2, 1]], np.int64)
    got = run("gather", data, indices.astype(np.int32), axis=axis)
    for index in np.ndindex(*got.shape):
        a = axis % 2
        picked = indices[index[a], index[a + 1]] % data.shape[a]
        source = (picked, index[2]) if a == 0 else (index[0], picked)
        assert got[index] == data[source]


def test_concat_and_split_are_inverse():
    a, b, c = rand(2, 1), rand(2, 3), rand(2, 2)
    joined = run("concat", [a, b, c], axis=-1)
    assert joined[:, :1].tolist() == a.tolist()
    assert joined[:, 1:4].tolist() == b.tolist()
    assert joined[:, 4:].tolist() == c.tolist()
    pieces = run("split", joined, sections=(1, 3, 2), axis=1)
    assert [p.tolist() for p in pieces] == [a.tolist(), b.tolist(), c.tolist()]
    halves = run("split", joined, sections=2, axis=-1)
    assert [h.tolist() for h in halves] == [joined[:, :3].tolist(), joined[:, 3:].tolist()]


def test_reshape_and_layout_transform():
    x = rand(1, 4, 2, 2)
    assert run("reshape", x, shape=(0, -1)).tolist() == x.reshape(1, 16).tolist()
    blocked = run("layout_transform", x, src_layout="NCHW", dst_layout="NCHW2c")
    for n, cb, h, w, cc in np.ndindex(*blocked.shape):
        assert blocked[n, cb, h, w, cc] == x[n, cb * 2 + cc, h, w]


# ------------------------------------------------------------------ verifier messages

INVALID = [
    ("graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>",
     "%a: tensor<2x3xf32>, %b: tensor<4x5xf32>", "lhs [2, 3] has 3 columns, rhs [4, 5] has 4 rows"),
    ("graph.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>",
     "%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>", "batch sizes 2 and 3 differ and neither is 1"),
    ("graph.bias_add %a, %b {axis = -1} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>",
     "%a: tensor<2x3xf32>, %b: tensor<2xf32>", "bias must be 1-D of length 3"),
    ("graph.softmax %a {axis = 2} : tensor<2x3xf32>", "%a: tensor<2x3xf32>",
     "axis 2 is out of range for a rank-2 tensor"),
    ("graph.max_pool2d %a {pool_size = array<i64: 2>} : tensor<1x1x4x4xf32> -> tensor<1x1x3x3xf32>",
     "%a: tensor<1x1x4x4xf32>", "'pool_size' needs 2 values >= 1, got [2]"),
    ("graph.avg_pool2d %a {pool_size = array<i64: 2, 2>, strides = array<i64: 0, 1>} : "
     "tensor<1x1x4x4xf32> -> tensor<1x1x3x3xf32>", "%a: tensor<1x1x4x4xf32>",
     "'strides' values must be >= 1, got [0, 1]"),
    ("graph.global_max_pool2d %a : tensor<1x2x3x3xf32> -> tensor<1x2x1xf32>",
     "%a: tensor<1x2x3x3xf32>", "result type tensor<1x2x1xf32> does not match the inferred type "
                                "tensor<1x2x1x1xf32>"),
    ("graph.sum %a {axes = array<i64: 0, -2>} : tensor<2x3xf32> -> tensor<f32>",
     "%a: tensor<2x3xf32>", "axes [0, -2] name an axis twice"),
    ("graph.argmax %a {axis = -3} : tensor<2x3xf32> -> tensor<2xi64>", "%a: tensor<2x3xf32>",
     "axis -3 is out of range for a rank-2 tensor"),
    ("graph.transpose %a {axes = array<i64: 1, 1>} : tensor<2x3xf32> -> tensor<3x3xf32>",
     "%a: tensor<2x3xf32>", "axes [1, 1] name an axis twice"),
    ("graph.squeeze %a {axes = array<i64: 1>} : tensor<1x3xf32> -> tensor<1xf32>",
     "%a: tensor<1x3xf32>", "cannot squeeze axis 1 of extent 3 (expected 1)"),
    ("graph.expand_dims %a {axis = -4} : tensor<2x3xf32> -> tensor<1x2x3xf32>",
     "%a: tensor<2x3xf32>", "axis -4 is out of range for expanding a rank-2 tensor"),
    ("graph.broadcast_to %a {shape = array<i64: 3>} : tensor<2x3xf32> -> tensor<3xf32>",
     "%a: tensor<2x3xf32>", "cannot broadcast shape [2, 3] to [3]"),
    ("graph.tile %a {repeats = array<i64: 1, -2>} : tensor<2x3xf32> -> tensor<2x3xf32>",
     "%a: tensor<2x3xf32>", "repeats must be >= 0, got [1, -2]"),
    ("graph.pad %a {pads = array<i64: 0, -1, 0, 0>} : tensor<2x3xf32> -> tensor<2x2xf32>",
     "%a: tensor<2x3xf32>", "pads must be >= 0"),
    ("graph.slice %a {starts = array<i64: 0>, ends = array<i64: 1>, axes = array<i64: 2>} : "
     "tensor<2x3xf32> -> tensor<2x3xf32>", "%a: tensor<2x3xf32>",
     "axis 2 is out of range for a rank-2 tensor"),
    ("graph.gather %a, %i : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>",
     "%a: tensor<2x3xf32>, %i: tensor<2xf32>", "must be ranked tensor of i32 or i64"),
    ("graph.concat %a, %b : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>",
     "%a: tensor<2x3xf32>, %b: tensor<2x4xf32>",
     "input #1 has shape [2, 4], which differs from input #0's [2, 3] outside axis 0"),
    ("%0:2 = graph.split %a {sections = array<i64: 1, 2>} : (tensor<2x3xf32>) -> "
     "(tensor<1x3xf32>, tensor<2x3xf32>)", "%a: tensor<2x3xf32>",
     "sections [1, 2] sum to 3, but axis 0 has extent 2"),
    ("graph.flatten %a {axis = 1.0} : tensor<2x3xf32> -> tensor<2x3xf32>", "%a: tensor<2x3xf32>",
     "attribute 'axis' failed to satisfy constraint: i64 integer"),
    ("graph.prelu %a, %b : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>",
     "%a: tensor<3xf32>, %b: tensor<2x3xf32>", "slope shape [2, 3] does not broadcast to x shape [3]"),
    ("graph.prelu %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>",
     "%a: tensor<2x3xf32>, %b: tensor<2xf32>", "slope shape [2] does not broadcast to x shape [2, 3]"),
    ("graph.mod %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>", "%a: tensor<2xf32>",
     "f32 remainders need fmod (the sign of lhs), as ONNX Mod does"),
    ("graph.left_shift %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>",
     "%a: tensor<2xf32>", "must be ranked tensor of 8-64-bit integers or index"),
    ("graph.bitwise_not %a : tensor<2xi1>", "%a: tensor<2xi1>",
     "must be ranked tensor of 8-64-bit integers or index"),
    ("graph.cumsum %a {axis = 1} : tensor<2xf32>", "%a: tensor<2xf32>",
     "axis 1 is out of range for a rank-1 tensor"),
    ("graph.isnan %a : tensor<2xi1>", "%a: tensor<2xi1>",
     "must be ranked tensor of 8-64-bit integers, index, f16, bf16, f32 or f64"),
    ("graph.shrink %a {bias = 0.5 : f32} : tensor<2xi8>", "%a: tensor<2xi8>",
     "bias 0.5 must be an integer for i8 values"),
    ("graph.gather_nd %a, %i : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2xf32>",
     "%a: tensor<2x3xf32>, %i: tensor<2x3xi64>", "indices address 3 axes, data has 2 after the batch axes"),
    ("graph.gather_nd %a, %i {batch_dims = 1} : (tensor<2x3xf32>, tensor<3x1xi64>) -> tensor<3xf32>",
     "%a: tensor<2x3xf32>, %i: tensor<3x1xi64>",
     "the first 1 axes of data [2, 3] and indices [3, 1] must agree"),
    ("graph.scatter_nd %a, %i, %u : (tensor<2x3xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<2x3xf32>",
     "%a: tensor<2x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2xf32>",
     "updates must have shape [2, 3] (indices.shape[:-1] + data.shape[1:]), got [2]"),
    ("graph.scatter_elements %a, %i, %u : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x2xf32>) -> tensor<2x3xf32>",
     "%a: tensor<2x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x2xf32>",
     "indices [2, 3] and updates [2, 2] must have one shape"),
    ("graph.scatter_elements %a, %i, %a {reduction = \"add\"} : (tensor<2xi1>, tensor<2xi64>, tensor<2xi1>) -> tensor<2xi1>",
     "%a: tensor<2xi1>, %i: tensor<2xi64>", "reduction add is arithmetic, which i1 has not"),
    ("%0:2 = graph.top_k %a {k = 4} : tensor<2x3xf32> -> tensor<2x4xf32>, tensor<2x4xi64>",
     "%a: tensor<2x3xf32>", "k 4 must be in [0, 3] (the extent of axis 1)"),
    ("graph.one_hot %i {depth = 3, on_value = 1.0 : f32, off_value = 0 : i64} : tensor<2xi64> -> tensor<2x3xf32>",
     "%i: tensor<2xi64>", "on_value and off_value must have one type, got f32, i64"),
    ("graph.one_hot %i {depth = 3, axis = 3, on_value = 1 : i64, off_value = 0 : i64} : tensor<2xi64> -> tensor<2x3xi64>",
     "%i: tensor<2xi64>", "axis 3 is out of range for one-hot of a rank-1 tensor (expected -2..1)"),
    ("graph.one_hot %i {depth = -1, on_value = 1 : i64, off_value = 0 : i64} : tensor<2xi64> -> tensor<2x3xi64>",
     "%i: tensor<2xi64>", "depth must be >= 0, got -1"),
    ("graph.one_hot %i {depth = 3, on_value = 1 : i64, off_value = 0 : i64} : tensor<2xf32> -> tensor<2x3xi64>",
     "%i: tensor<2xf32>", "must be ranked tensor of i32 or i64"),
    ("graph.clip %a {min = 0x7FC00000 : f32, max = 1.0 : f32} : tensor<2xf32>", "%a: tensor<2xf32>",
     "min and max must be numbers, got min nan and max 1.0"),
    ("graph.gelu %a {approximate = \"erf\"} : tensor<2xf32>", "%a: tensor<2xf32>",
     "attribute 'approximate' failed to satisfy constraint: string, one of none, tanh"),
    ("graph.celu %a {alpha = 0.0 : f32} : tensor<2xf32>", "%a: tensor<2xf32>",
     "alpha must be non-zero"),
    ("graph.elu %a : tensor<2xi32>", "%a: tensor<2xi32>",
     "must be ranked tensor of f16, bf16, f32 or f64"),
    ("graph.gather_elements %a, %i : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2xf32>",
     "%a: tensor<2x3xf32>, %i: tensor<2xi64>", "indices must have data's rank 2, got shape [2]"),
    ("graph.gather_elements %a, %i {axis = 1} : (tensor<2x3xf32>, tensor<3x3xi64>) -> tensor<3x3xf32>",
     "%a: tensor<2x3xf32>, %i: tensor<3x3xi64>",
     "indices shape [3, 3] is longer than data shape [2, 3] along axis 0"),
    ("graph.gather_elements %a, %i {axis = 2} : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>",
     "%a: tensor<2x3xf32>, %i: tensor<2x3xi64>", "axis 2 is out of range for a rank-2 tensor"),
    ("graph.argmin %a {axis = 0} : tensor<0x3xf32> -> tensor<3xi64>", "%a: tensor<0x3xf32>",
     "cannot reduce axis 0 of extent 0"),
    ("graph.range {start = 0 : i64, limit = 4 : i64, delta = 0 : i64} : tensor<0xi64>", "",
     "delta must be non-zero"),
    ("graph.range {start = 0 : i64, limit = 4 : i32, delta = 1 : i64} : tensor<4xi64>", "",
     "start, limit and delta must have one type, got i64, i32, i64"),
    ("graph.range {start = 0.0 : f32, limit = 0x7F800000 : f32, delta = 1.0 : f32} : tensor<1xf32>",
     "", "start, limit and delta must be finite, got 0.0, inf and 1.0"),
    ("graph.range {start = false, limit = true, delta = true} : tensor<1xi1>", "",
     "must be ranked tensor of 8-64-bit integers, index, f16, bf16, f32 or f64, but got 'tensor<1xi1>'"),
    ("graph.range {start = 0 : i64, limit = 4 : i64, delta = 1 : i64} : tensor<3xi64>", "",
     "does not match the inferred type tensor<4xi64>"),
    ("graph.range {start = 0 : i64, limit = 4 : i64} : tensor<4xi64>", "",
     "requires attribute 'delta'"),
    ("graph.range {start = 0 : i64, limit = 4 : i64, delta = \"1\"} : tensor<4xi64>", "",
     "attribute 'delta' failed to satisfy constraint: integer or float"),
]


@pytest.mark.parametrize("op, args, message", INVALID, ids=[c[0].split()[0] if c[0][0] != "%"
                                                           else c[0].split()[2] for c in INVALID])
def test_verifier_says_what_was_expected(op, args, message):
    line = op if op.startswith("%") else f"%0 = {op}"
    text = f"func.func @f({args}) {{\n  {line}\n  return\n}}\n"
    with pytest.raises(DiagnosticError) as info:
        verify(parse_module(text, Context()))
    messages = [d.message for d in info.value.diagnostics]
    assert any(message in m for m in messages), messages


def test_builder_reports_bad_operands():
    with pytest.raises(IRError, match="axis 1 of extent 3 does not split into 2 equal pieces"):
        build("split", (2, 3), sections=2, axis=1)
    with pytest.raises(IRError, match="cannot reduce axis 0 of extent 0"):
        build("max", (0, 3), axes=(0,))
    with pytest.raises(IRError, match="has no attribute 'axes'"):
        build("argmax", (2, 3), axes=(0,))
    with pytest.raises(IRError, match="cannot make a range of i1"):
        build("range", start=0, limit=1, delta=1, dtype=i1)


def test_range_builder_types_its_bounds():
    """Plain numbers: i64 when all are integers, f32 otherwise; `dtype` chooses."""
    assert str(build("range", start=0, limit=3, delta=1)[1].type) == "tensor<3xi64>"
    assert str(build("range", start=0, limit=1.5, delta=0.5)[1].type) == "tensor<3xf32>"
    _, out = build("range", start=5, limit=-1, delta=-2, dtype=i32)
    assert str(out.type) == "tensor<3xi32>"
    assert str(out.defining_op.attributes["start"]) == "5 : i32"


# ------------------------------------------------------------------ pattern kinds

PATTERNS = {
    "matmul": "out-elemwise-fusable", "batch_matmul": "out-elemwise-fusable",
    "bias_add": "broadcast", "softmax": "opaque", "log_softmax": "opaque",
    "max_pool2d": "out-elemwise-fusable", "avg_pool2d": "out-elemwise-fusable",
    "global_avg_pool2d": "out-elemwise-fusable", "global_max_pool2d": "out-elemwise-fusable",
    "sum": "comm-reduce", "mean": "comm-reduce", "max": "comm-reduce", "min": "comm-reduce",
    "prod": "comm-reduce", "argmax": "comm-reduce",
    "transpose": "injective", "flatten": "injective", "squeeze": "injective",
    "expand_dims": "injective", "broadcast_to": "broadcast", "tile": "injective",
    "pad": "injective", "slice": "injective", "gather": "injective", "concat": "injective",
    "split": "injective", "reshape": "injective", "layout_transform": "injective",
    "conv2d": "out-elemwise-fusable", "dense": "out-elemwise-fusable",
    "elu": "elemwise", "selu": "elemwise", "celu": "elemwise", "thresholded_relu": "elemwise",
    "softplus": "elemwise", "softsign": "elemwise", "mish": "elemwise", "hard_sigmoid": "elemwise",
    "hard_swish": "elemwise", "swish": "elemwise", "prelu": "broadcast",
    "greater_equal": "broadcast", "less_equal": "broadcast", "not_equal": "broadcast",
    "logical_xor": "broadcast", "gather_elements": "injective", "argmin": "comm-reduce",
    "range": "injective", "sin": "elemwise", "atanh": "elemwise", "isnan": "elemwise",
    "isinf": "elemwise", "shrink": "elemwise", "bitwise_not": "elemwise",
    "bitwise_xor": "broadcast", "left_shift": "broadcast", "right_shift": "broadcast",
    "mod": "broadcast", "cumsum": "opaque", "cumprod": "opaque", "gather_nd": "injective",
    "scatter_nd": "opaque", "scatter_elements": "opaque", "top_k": "opaque",
    "one_hot": "injective",
}


@pytest.mark.parametrize("name, label", sorted(PATTERNS.items()))
def test_pattern_kind(name, label):
    assert graph.ops[f"graph.{name}"].pattern.label == label
    assert isinstance(graph.ops[f"graph.{name}"].pattern, PatternKind)


# ------------------------------------------------------------------ custom forms


def test_roundtrip_file_covers_every_graph_op():
    used = set(re.findall(r"^\s*%[\w:]+ = (graph\.\w+)", ROUNDTRIP.read_text(), re.M))
    assert used == set(graph.ops)


def test_every_custom_form_prints_parses_and_prints_again():
    text = ROUNDTRIP.read_text()
    module = parse_module(text, Context())
    verify(module)
    printed = print_op(module)
    again = parse_module(printed, Context())
    verify(again)
    assert print_op(again) == printed
    generic = print_op(module, PrintOptions(generic=True))
    assert '"graph.split"' in generic
    assert print_op(parse_module(generic, Context())) == printed
    # @all is written in the printed form, so each of its op lines comes back verbatim
    # (@spellings is where the shorthand spellings are)
    written = text.split("@spellings")[0]
    ops = [line.strip() for line in written.splitlines() if re.match(r"\s*%\S+ = graph\.", line)]
    printed_lines = {line.strip() for line in printed.splitlines()}
    assert len(ops) > len(graph.ops)
    assert [line for line in ops if line not in printed_lines] == []


def test_bf16_values_are_computed_as_numbers_not_bit_patterns():
    """bf16 tensors are stored as raw 16-bit patterns; ops compute on their values and
    casts to bf16 round to nearest even (so 0.3 stays 0.30078125, not 0)."""
    from mlc.graph import GraphBuilder, evaluate
    from mlc.ir import bf16, f32

    b = GraphBuilder()
    x = b.param("x", (3,), bf16)
    c = b.const(np.array([1.0, 5.0, 0.3], np.float32))
    y = b.add(b.cast(b.relu(b.neg(x)), dtype=f32), b.cast(b.cast(c, dtype=bf16), dtype=f32))
    [out] = evaluate(b.module(y), [np.array([1.5, -2.25, 0.3], np.float32)])
    np.testing.assert_array_equal(out, np.array([1.0, 7.25, 0.30078125], np.float32))
