"""Unsigned integer tensors compiled natively against numpy on values across the whole
range (the top bit set half the time, where signed and unsigned arithmetic differ):
comparisons, division and remainder, logical right shifts, elementwise and reduced
max and min, argmax and top-k, casts to floats, from floats and to wider integers,
for uint8 to uint64, on shapes large enough to be vectorized."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from mlc.onnx.backend import MlcBackend, native_available

pytestmark = pytest.mark.skipif(not native_available(), reason="native mode unavailable")

ONNX_TYPE = {np.uint8: TensorProto.UINT8, np.uint16: TensorProto.UINT16,
             np.uint32: TensorProto.UINT32, np.uint64: TensorProto.UINT64}
ROWS, COLUMNS = 4, 37


def _cases(dtype):
    """(output, node, its ONNX type, shape, numpy's result from a, b, shift, f)."""
    t = ONNX_TYPE[dtype]
    full, rows = [ROWS, COLUMNS], [ROWS]
    wide = TensorProto.UINT64 if dtype == np.uint64 else TensorProto.INT64
    cases = [
        ("less", helper.make_node("Less", ["a", "b"], ["less"]), TensorProto.BOOL, full,
         lambda a, b, s, f: a < b),
        ("greater_equal", helper.make_node("GreaterOrEqual", ["a", "b"], ["greater_equal"]),
         TensorProto.BOOL, full, lambda a, b, s, f: a >= b),
        ("div", helper.make_node("Div", ["a", "b"], ["div"]), t, full, lambda a, b, s, f: a // b),
        ("mod", helper.make_node("Mod", ["a", "b"], ["mod"]), t, full, lambda a, b, s, f: a % b),
        ("shifted", helper.make_node("BitShift", ["a", "shift"], ["shifted"], direction="RIGHT"),
         t, full, lambda a, b, s, f: np.where(s < a.dtype.itemsize * 8, a >> (s % (a.dtype.itemsize * 8)), 0).astype(a.dtype)),
        ("maximum", helper.make_node("Max", ["a", "b"], ["maximum"]), t, full,
         lambda a, b, s, f: np.maximum(a, b)),
        ("minimum", helper.make_node("Min", ["a", "b"], ["minimum"]), t, full,
         lambda a, b, s, f: np.minimum(a, b)),
        ("argmax", helper.make_node("ArgMax", ["a"], ["argmax"], axis=1, keepdims=0),
         TensorProto.INT64, rows, lambda a, b, s, f: a.argmax(axis=1)),
        ("top", helper.make_node("TopK", ["a", "k"], ["top", "top_indices"], axis=1), t,
         [ROWS, 3], lambda a, b, s, f: np.sort(a, axis=1)[:, ::-1][:, :3]),
        ("f64", helper.make_node("Cast", ["a"], ["f64"], to=TensorProto.DOUBLE),
         TensorProto.DOUBLE, full, lambda a, b, s, f: a.astype(np.float64)),
        ("f32", helper.make_node("Cast", ["a"], ["f32"], to=TensorProto.FLOAT),
         TensorProto.FLOAT, full, lambda a, b, s, f: a.astype(np.float32)),
        ("wide", helper.make_node("Cast", ["a"], ["wide"], to=wide), wide, full,
         lambda a, b, s, f: a.astype(np.uint64 if dtype == np.uint64 else np.int64)),
        ("from_float", helper.make_node("Cast", ["f"], ["from_float"], to=t), t, full,
         lambda a, b, s, f: f.astype(dtype)),
    ]
    if dtype != np.uint16:  # ONNX's ReduceMax and ReduceMin take no uint16
        cases += [
            ("reduce_max", helper.make_node("ReduceMax", ["a", "axes"], ["reduce_max"],
                                            keepdims=0), t, rows, lambda a, b, s, f: a.max(axis=1)),
            ("reduce_min", helper.make_node("ReduceMin", ["a", "axes"], ["reduce_min"],
                                            keepdims=0), t, rows, lambda a, b, s, f: a.min(axis=1)),
        ]
    return cases


def _model(dtype, cases):
    t = ONNX_TYPE[dtype]
    shape = [ROWS, COLUMNS]
    graph = helper.make_graph(
        [node for _, node, _, _, _ in cases], "unsigned",
        [helper.make_tensor_value_info("a", t, shape), helper.make_tensor_value_info("b", t, shape),
         helper.make_tensor_value_info("shift", t, shape),
         helper.make_tensor_value_info("f", TensorProto.DOUBLE, shape)],
        [helper.make_tensor_value_info(name, type_, out) for name, _, type_, out, _ in cases],
        [helper.make_tensor("axes", TensorProto.INT64, [1], [1]),
         helper.make_tensor("k", TensorProto.INT64, [1], [3])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64],
                         ids=lambda d: np.dtype(d).name)
def test_unsigned_arithmetic_natively_matches_numpy(dtype):
    rng = np.random.default_rng(np.dtype(dtype).itemsize)
    info = np.iinfo(dtype)
    a = rng.integers(0, info.max, (ROWS, COLUMNS), dtype=dtype, endpoint=True)
    a[0, :8] = [0, 1, info.max, info.max - 1, 1 << (info.bits - 1), (1 << (info.bits - 1)) - 1,
                2, 3]  # the edges
    a[1, 5] = a[1, 9] = info.max  # a repeated maximum: argmax takes the first
    b = rng.integers(1, info.max, (ROWS, COLUMNS), dtype=dtype, endpoint=True)
    b[2] = rng.integers(1, 9, COLUMNS, dtype=dtype)  # small divisors too
    b[3, :6] = info.max  # the all-ones divisor, which is -1 to a signed division
    # Shifts past the width too: ONNX's BitShift gives 0 there.
    shift = rng.integers(0, info.bits + 3, (ROWS, COLUMNS)).astype(dtype)
    # Whole numbers below 2^bits (float64 holds them exactly up to 2^53).
    f = np.floor(rng.uniform(0, min(float(info.max), 2.0 ** 53), (ROWS, COLUMNS)))
    cases = _cases(dtype)
    got = MlcBackend.prepare(_model(dtype, cases), native=True).run([a, b, shift, f])
    for (name, _, _, _, expected), result in zip(cases, got):
        want = expected(a, b, shift, f)
        assert result.dtype == want.dtype, name
        np.testing.assert_array_equal(result, want, err_msg=name)
