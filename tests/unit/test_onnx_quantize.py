"""ONNX's quantization ops against onnx.reference on random data: values that saturate,
fall half-way between two steps, and NaN; scales per tensor, per axis and per block;
scales and zero points given at run time; int8 natively too."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from mlc.onnx.backend import MlcBackend, native_available

ONNX_TYPE = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
             np.dtype(np.int8): TensorProto.INT8, np.dtype(np.uint8): TensorProto.UINT8,
             np.dtype(np.int16): TensorProto.INT16, np.dtype(np.int32): TensorProto.INT32}


def _model(op: str, inputs: dict[str, np.ndarray], output_type, opset: int = 21, **attributes):
    """The model of one `op` node on graph inputs `inputs`, its output shaped as the
    reference computes it."""
    def model(shape):
        node = helper.make_node(op, list(inputs), ["y"], **attributes)
        graph = helper.make_graph(
            [node], op, [helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype], a.shape)
                         for n, a in inputs.items()],
            [helper.make_tensor_value_info("y", output_type, shape)])
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])

    with np.errstate(invalid="ignore"):  # the reference's int32 of NaN
        [out] = ReferenceEvaluator(model(None)).run(None, inputs)
    return model(out.shape)


def _check(op: str, inputs: dict[str, np.ndarray], output_type, native=False, opset=21, **attrs):
    model = _model(op, inputs, output_type, opset, **attrs)
    with np.errstate(invalid="ignore"):
        [want] = ReferenceEvaluator(model).run(None, inputs)
    [got] = MlcBackend.prepare(model, native=native).run(list(inputs.values()))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def _x(rng, shape, scale=1.0):
    """Random values, a fifth of them exactly half-way between quantization steps of
    `scale`, a few far out of range."""
    x = rng.normal(0, 100 * scale, shape).astype(np.float32)
    halves = rng.random(shape) < 0.2
    x[halves] = (np.round(x[halves] / scale) + 0.5) * scale
    return x


@pytest.mark.parametrize("zero_type", [np.uint8, np.int8, np.int16])
@pytest.mark.parametrize("layout", ["tensor", "axis", "block"])
def test_quantize_and_dequantize_match_the_reference(zero_type, layout):
    rng = np.random.default_rng(len(layout) * 7 + np.dtype(zero_type).itemsize)
    info = np.iinfo(zero_type)
    shape = (2, 6, 3)
    if layout == "tensor":
        scale, attrs = np.array(0.5, np.float32), {}
    elif layout == "axis":
        scale, attrs = np.array([0.25, 0.5, 2.0, 1.0, 0.125, 4.0], np.float32), {"axis": 1}
    else:
        scale, attrs = rng.choice([0.25, 0.5, 2.0], (2, 3, 3)).astype(np.float32), \
            {"axis": 1, "block_size": 2}
    zero = rng.integers(info.min // 4, info.max // 4, scale.shape).astype(zero_type)
    x = _x(rng, shape, 0.5)
    x.flat[0] = np.nan if layout == "tensor" else x.flat[0]
    inputs = {"x": x, "scale": scale, "zero": zero}
    if layout == "tensor":  # the reference's int32 of NaN is no number: compare the rest
        model = _model("QuantizeLinear", inputs, ONNX_TYPE[np.dtype(zero_type)], **attrs)
        with np.errstate(invalid="ignore"):
            [want] = ReferenceEvaluator(model).run(None, inputs)
        [got] = MlcBackend.prepare(model).run(list(inputs.values()))
        assert got.flat[0] == zero
        np.testing.assert_array_equal(got.flat[1:], want.flat[1:])
    else:
        _check("QuantizeLinear", inputs, ONNX_TYPE[np.dtype(zero_type)], **attrs)
    q = rng.integers(info.min, info.max, shape, endpoint=True).astype(zero_type)
    _check("DequantizeLinear", {"x": q, "scale": scale, "zero": zero}, TensorProto.FLOAT,
           **attrs)


@pytest.mark.parametrize("native", [False, True], ids=["interpreted", "native"])
@pytest.mark.parametrize("scale_type", [np.float32, np.float16])
def test_qlinear_matmul_matches_the_reference(scale_type, native):
    if native and not native_available():
        pytest.skip("native mode unavailable")
    rng = np.random.default_rng(3)
    a = rng.integers(-128, 128, (2, 3, 16)).astype(np.int8)
    b = rng.integers(-128, 128, (16, 5)).astype(np.int8)
    scales = [np.array([s], scale_type) for s in (0.02, 0.03, 0.25)]
    inputs = {"a": a, "a_scale": scales[0], "a_zero": np.array([3], np.int8), "b": b,
              "b_scale": scales[1], "b_zero": np.array([-2], np.int8), "y_scale": scales[2],
              "y_zero": np.array([5], np.int8)}
    _check("QLinearMatMul", inputs, TensorProto.INT8, native=native)


@pytest.mark.parametrize("native", [False, True], ids=["interpreted", "native"])
def test_integer_matmul_and_convolution_match_the_reference(native):
    if native and not native_available():
        pytest.skip("native mode unavailable")
    rng = np.random.default_rng(4)
    a = rng.integers(-128, 128, (4, 7)).astype(np.int8)
    b = rng.integers(-128, 128, (7, 3)).astype(np.int8)
    _check("MatMulInteger", {"a": a, "b": b, "a_zero": np.array(-5, np.int8),
                             "b_zero": np.array([1, -2, 3], np.int8)}, TensorProto.INT32,
           native=native, opset=10)
    x = rng.integers(-128, 128, (1, 2, 6, 6)).astype(np.int8)
    w = rng.integers(-128, 128, (3, 2, 3, 3)).astype(np.int8)
    _check("ConvInteger", {"x": x, "w": w, "x_zero": np.array(7, np.int8),
                           "w_zero": np.array([0, 1, -1], np.int8)}, TensorProto.INT32,
           native=native, opset=10, pads=[1, 1, 1, 1], strides=[2, 1])
    model = helper.make_model(helper.make_graph(
        [helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "bias"],
                          ["y"], pads=[1, 0, 1, 0])], "qconv",
        [helper.make_tensor_value_info("x", TensorProto.INT8, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 3, 6, 4])],
        [numpy_helper.from_array(v, n) for n, v in (
            ("xs", np.array(0.05, np.float32)), ("xz", np.array(2, np.int8)), ("w", w),
            ("ws", np.array([0.01, 0.02, 0.03], np.float32)), ("wz", np.zeros(3, np.int8)),
            ("ys", np.array(0.5, np.float32)), ("yz", np.array(-3, np.int8)),
            ("bias", np.array([100, -200, 300], np.int32)))]),
        opset_imports=[helper.make_opsetid("", 10)])
    [want] = ReferenceEvaluator(model).run(None, {"x": x})
    [got] = MlcBackend.prepare(model, native=native).run([x])
    np.testing.assert_array_equal(got, want)
