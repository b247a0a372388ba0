"""External functions natively (the MLC course's `env.linear`): a model built with
`extern=` (or a pipeline spelling graph-lower-to-loop's `extern` option) calls Python
functions registered with mlc.ir.extern.register_func from its native entry point, on
numpy views of its own buffers, and equals the graph interpreter; such a model cannot
be exported as a shared library."""

from __future__ import annotations

import numpy as np
import pytest

from mlc.graph.examples import mlp
from mlc.graph.interpreter import evaluate
from mlc.ir.extern import register_func, remove_func
from mlc.llvm.build import GRAPH_TO_STANDARD, BuildError, build

EXTERN = {"fused_dense_bias_add": "env.linear", "fused_dense_bias_add_relu": "env.linear_relu"}


@pytest.fixture
def course_functions():
    """The course's env.linear (and env.linear_relu for the fused first layer),
    recording the arrays each call received."""
    calls: dict[str, list[tuple[np.ndarray, ...]]] = {"env.linear": [], "env.linear_relu": []}

    def linear(x, w, b, out):
        calls["env.linear"].append((x, w, b, out))
        np.matmul(x, w.T, out=out)
        out += b

    def linear_relu(x, w, b, out):
        calls["env.linear_relu"].append((x, w, b, out))
        np.maximum(x @ w.T + b, 0, out=out)

    register_func("env.linear", linear, override=True)
    register_func("env.linear_relu", linear_relu, override=True)
    yield calls
    remove_func("env.linear")
    remove_func("env.linear_relu")


@pytest.fixture(scope="module")
def network():
    example = mlp()
    x = np.random.default_rng(3).standard_normal((1, 784)).astype(np.float32)
    [expected] = evaluate(example.module, [x])
    return example.module, x, expected


def test_the_course_mlp_calls_python_natively(course_functions, network):
    module, x, expected = network
    model = build(module, extern=EXTERN)
    assert model.externals == ("env.linear_relu", "env.linear")
    np.testing.assert_allclose(model(x), expected, rtol=1e-5, atol=1e-6)
    model.set_input("x", x)
    model.run()
    np.testing.assert_allclose(model.get_output(0), expected, rtol=1e-5, atol=1e-6)
    assert [len(c) for c in course_functions.values()] == [2, 2]
    # No copies: the Python functions saw the model's own weights, workspace and output.
    hidden, weight, bias, out = course_functions["env.linear"][-1]
    assert out.ctypes.data == model.get_output(0).ctypes.data
    assert hidden.ctypes.data == model.entry.bound["workspace0"].ctypes.data
    assert weight.ctypes.data == model.params["fc2.weight"].ctypes.data
    assert bias.ctypes.data == model.params["fc2.bias"].ctypes.data
    first = course_functions["env.linear_relu"][-1]
    assert first[0].ctypes.data == x.ctypes.data  # the array given to set_input
    assert first[3].ctypes.data == hidden.ctypes.data


def test_one_layer_python_the_other_native(course_functions, network):
    module, x, expected = network
    pipeline = GRAPH_TO_STANDARD.replace(
        "graph-lower-to-loop", "graph-lower-to-loop{extern=fused_dense_bias_add:env.linear}")
    model = build(module, pipeline=pipeline)
    assert model.externals == ("env.linear",)
    np.testing.assert_allclose(model(x), expected, rtol=1e-5, atol=1e-6)
    assert len(course_functions["env.linear"]) == 1 and not course_functions["env.linear_relu"]


def test_an_exception_in_the_python_function_reaches_the_caller(network):
    module, x, _ = network

    def broken(x, w, b, out):
        raise RuntimeError("no linear today")

    register_func("env.linear", broken, override=True)
    try:
        model = build(module, extern={"fused_dense_bias_add": "env.linear"})
        with pytest.raises(RuntimeError, match="no linear today") as raised:
            model(x)
        assert "called from native code of 'main'" in " ".join(raised.value.__notes__)
    finally:
        remove_func("env.linear")


def test_a_model_calling_python_is_not_exported(course_functions, network, tmp_path):
    model = build(network[0], extern=EXTERN)
    with pytest.raises(BuildError, match=r"cannot export a model that calls Python functions "
                                         r"\('env.linear_relu', 'env.linear'\)"):
        model.export_library(tmp_path / "model.so")
    assert list(tmp_path.iterdir()) == []


def test_unregistered_and_misspelled_external_functions(network):
    module = network[0]
    remove_func("env.nowhere")
    with pytest.raises(BuildError, match=r"@env.nowhere is declared but no Python function "
                                         r"is registered as 'env.nowhere'") as raised:
        build(module, extern={"fused_dense_bias_add": "env.nowhere"})
    assert raised.value.diagnostics[0].loc is not None
    with pytest.raises(BuildError, match="extern names 'fused_conv2d'"):
        build(module, extern={"fused_conv2d": "env.linear"})
    with pytest.raises(BuildError, match="takes `extern` or a `pipeline`, not both"):
        build(module, extern=EXTERN, pipeline=GRAPH_TO_STANDARD)
