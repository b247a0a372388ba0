"""The ONNX backend's native mode: `prepare(model, native=True)` or MLC_ONNX_NATIVE=1
compiles the optimised module with mlc.llvm.build and runs the native entry point,
equal to the interpreter; the default keeps the interpreter. (All target node tests
natively: tests/onnx_suite/test_node_native.py, slow.)"""

import numpy as np
import pytest
from onnx import TensorProto, helper

import mlc.onnx.backend as backend


def add_relu_model():
    """relu(x * s + b), with the scale a 0-d graph input, the bias a 0-d constant."""
    nodes = [helper.make_node("Mul", ["x", "s"], ["xs"]),
             helper.make_node("Add", ["xs", "b"], ["z"]),
             helper.make_node("Relu", ["z"], ["y"])]
    graph = helper.make_graph(
        nodes, "add_relu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4]),
         helper.make_tensor_value_info("s", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])],
        [helper.make_tensor("b", TensorProto.FLOAT, [], [-0.5])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


INPUTS = [np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4), np.array(3.0, np.float32)]


def test_native_mode_runs_compiled_code_equal_to_the_interpreter(monkeypatch):
    monkeypatch.delenv(backend.NATIVE_ENV, raising=False)
    interpreted = backend.prepare(add_relu_model())
    assert interpreted.compiled is None
    native = backend.prepare(add_relu_model(), native=True)
    assert native.compiled is not None and 'define void @"main"' in native.compiled.llvm_ir
    [expected] = interpreted.run(INPUTS)
    [y] = native.run(INPUTS)
    np.testing.assert_allclose(y, np.maximum(INPUTS[0] * 3 - 0.5, 0), rtol=1e-6)
    np.testing.assert_array_equal(y, expected)


def test_the_environment_variable_chooses_the_default(monkeypatch):
    monkeypatch.setenv(backend.NATIVE_ENV, "1")
    assert backend.prepare(add_relu_model()).compiled is not None
    assert backend.prepare(add_relu_model(), native=False).compiled is None
    monkeypatch.setenv(backend.NATIVE_ENV, "yes")
    with pytest.raises(ValueError, match="MLC_ONNX_NATIVE must be 0 or 1, not 'yes'"):
        backend.prepare(add_relu_model())


def test_shape_setting_inputs_are_compiled_per_value():
    node = helper.make_node("Reshape", ["x", "shape"], ["y"])
    model = helper.make_model(helper.make_graph(
        [node], "reshape",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2])]),
        opset_imports=[helper.make_opsetid("", 17)])
    rep = backend.prepare(model, native=True)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    [y] = rep.run([x, np.array([3, -1])])
    np.testing.assert_array_equal(y, x.reshape(3, 2))
    assert all(compiled is not None for _, compiled in rep._specialised.values())


def test_native_mode_where_llvm_cannot_compile_says_why(monkeypatch):
    monkeypatch.delenv(backend.NATIVE_ENV, raising=False)
    monkeypatch.setattr(backend, "native_problem", lambda: "mlc.llvm is not installed")
    assert not backend.native_available()
    with pytest.raises(backend.NativeBackendError, match="native mode: mlc.llvm is not installed"):
        backend.prepare(add_relu_model(), native=True)
    assert backend.prepare(add_relu_model()).compiled is None
