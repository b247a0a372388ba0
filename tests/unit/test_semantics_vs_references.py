"""Regressions of issue 22's semantics items, each checked against an independent
reference (onnx.reference, torch, mlir-opt-22, or values computed by hand where
onnx.reference itself is off), through the graph interpreter and natively."""

from __future__ import annotations

import subprocess
import warnings

import numpy as np
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from mlc.graph import GraphBuilder, evaluate
from mlc.llvm.build import build
from mlc.onnx import import_onnx


def onnx_model(node, inputs, output_shape, initializers=(), opset=18):
    graph = helper.make_graph(
        [node], "case", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
        [helper.make_tensor_value_info(node.output[0], TensorProto.FLOAT, output_shape)],
        list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def ours(model, *arrays):
    """(interpreter, native) outputs of the imported model."""
    module = import_onnx(model)
    return evaluate(module, list(arrays))[0], build(module)(*arrays)


def reference(model, **feeds):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ReferenceEvaluator(model).run(None, feeds)[0]


def test_clip_with_one_element_bounds():
    """Bounds of shape [1] (exporters write them; MobileNets) were a TypeError."""
    node = helper.make_node("Clip", ["x", "low", "high"], ["y"])
    model = onnx_model(node, [("x", [6])], [6], [
        helper.make_tensor("low", TensorProto.FLOAT, [1], [0.0]),
        helper.make_tensor("high", TensorProto.FLOAT, [1], [6.0])], opset=13)
    x = np.array([-3, 0, 2.5, 6, 7, np.nan], np.float32)
    expected = reference(model, x=x)
    for got in ours(model, x):
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("op", ["ReduceSumSquare", "ReduceL1", "ReduceL2", "ReduceLogSum"])
def test_composite_reductions_over_no_axis_keep_their_element_step(op):
    node = helper.make_node(op, ["x", "axes"], ["y"], noop_with_empty_axes=1)
    model = onnx_model(node, [("x", [2, 3])], [2, 3],
                       [helper.make_tensor("axes", TensorProto.INT64, [0], [])])
    x = np.array([[-2.0, 0.5, np.inf], [3, -np.inf, np.nan]], np.float32)
    expected = reference(model, x=x)
    for got in ours(model, x):
        np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_log_sum_exp_with_infinities():
    """A slice holding +inf gave NaN (inf - inf); onnxruntime gives inf, and log of a
    sum of exp(-inf) terms is log 0 = -inf. onnx.reference agrees on the finite and
    +inf rows."""
    node = helper.make_node("ReduceLogSumExp", ["x", "axes"], ["y"], keepdims=0)
    model = onnx_model(node, [("x", [4, 3])], [4],
                       [helper.make_tensor("axes", TensorProto.INT64, [1], [1])])
    x = np.array([[-2.0, 0.5, np.inf], [1, 2, 3], [-np.inf] * 3, [1e30, 1e30, 1.0]],
                 np.float32)
    expected = [np.inf, np.log(np.exp(1) + np.exp(2) + np.exp(3)), -np.inf,
                1e30 + np.log(2)]
    np.testing.assert_allclose(reference(model, x=x)[:2], expected[:2], rtol=1e-6)
    for got in ours(model, x):
        np.testing.assert_allclose(got, np.array(expected, np.float32), rtol=1e-6)


def test_layer_norm_of_a_constant_row_and_epsilon_zero():
    """A constant row gave up to 3.5e-4 instead of 0 and, with epsilon 0, finite values
    where torch gives NaN (onnx.reference is itself off here: -2.4e-6 and -1)."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x = np.stack([np.full(64, 0.1), np.full(64, 3.7), rng.standard_normal(64) * 100 + 1000]
                 ).astype(np.float32)
    gamma = rng.standard_normal(64).astype(np.float32)
    beta = rng.standard_normal(64).astype(np.float32)
    for epsilon in (1e-5, 0.0):
        b = GraphBuilder()
        module = b.module(b.layer_norm(b.param("x", (3, 64)), b.const(gamma), b.const(beta),
                                       axis=-1, epsilon=epsilon))
        expected = torch.nn.functional.layer_norm(torch.tensor(x), (64,), torch.tensor(gamma),
                                                  torch.tensor(beta), eps=epsilon).numpy()
        for got in (evaluate(module, [x])[0], build(module)(x)):
            if epsilon:
                np.testing.assert_array_equal(got[:2], np.broadcast_to(beta, (2, 64)))
            else:
                assert np.isnan(got[:2]).all() and np.isnan(expected[:2]).all()
            np.testing.assert_allclose(got[2], expected[2], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", ["erf", "tan", "asin", "acos", "atan", "sinh", "cosh",
                                  "asinh", "acosh", "atanh", "round"])
def test_float16_math_compiles_natively(name):
    """These were 'convert-to-llvm cannot lower math.erf' for f16: now widened to f32
    first (math-extend-to-supported-types), as MLIR does."""
    low, high = {"acosh": (1, 3), "asin": (-1, 1), "acos": (-1, 1),
                 "atanh": (-0.99, 0.99)}.get(name, (-3, 3))
    x = np.random.default_rng(1).uniform(low, high, 64).astype(np.float16)
    b = GraphBuilder()
    module = b.module(getattr(b, name)(b.param("x", (64,), "float16")))
    got = build(module)(x)
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, evaluate(module, [x])[0])


def test_math_extend_to_supported_types_as_mlir_opt(mlir_opt, tmp_path):
    source = tmp_path / "f16.mlir"
    source.write_text("""func.func @f(%x: f16, %v: vector<4xbf16>, %y: f32) -> (f16, vector<4xbf16>, f32, f16) {
  %0 = math.erf %x : f16
  %1 = math.tan %v : vector<4xbf16>
  %2 = math.erf %y : f32
  %3 = math.fma %x, %x, %x : f16
  return %0, %1, %2, %3 : f16, vector<4xbf16>, f32, f16
}
""")
    from mlc.tools.opt import main as mlc_opt

    out = tmp_path / "ours.mlir"
    assert mlc_opt([str(source), "-p", "math-extend-to-supported-types", "-o", str(out)]) == 0
    theirs = subprocess.run([mlir_opt, str(source), "--math-extend-to-supported-types"],
                            capture_output=True, text=True, check=True).stdout
    strip = subprocess.run([mlir_opt, str(out)], capture_output=True, text=True,
                           check=True).stdout
    assert strip == theirs


def test_extf_keeps_nan_payloads_as_mlir_opt(mlir_opt, tmp_path):
    """The interpreter read an f16/bf16 NaN constant as a plain NaN; mlir-opt-22's fold
    keeps the payload, moved to the top of the wider fraction."""
    from mlc.ir import Context, parse_module
    from mlc.ir.interpreter import evaluate as interpret

    text = """func.func @f() -> (f64, f64, f32) {
  %c = arith.constant 0x7E12 : f16
  %d = arith.extf %c : f16 to f64
  %e = arith.constant 0x7FC1 : bf16
  %g = arith.extf %e : bf16 to f64
  %h = arith.constant 0xFFC5 : bf16
  %i = arith.extf %h : bf16 to f32
  return %d, %g, %i : f64, f64, f32
}
"""
    (tmp_path / "extf.mlir").write_text(text)
    folded = subprocess.run([mlir_opt, str(tmp_path / "extf.mlir"), "--canonicalize"],
                            capture_output=True, text=True, check=True).stdout
    for constant in ("0x7FF8480000000000 : f64", "0x7FF8200000000000 : f64",
                     "0xFFC50000 : f32"):
        assert constant in folded
    d, g, i = interpret(parse_module(text, Context()), "f", [])
    assert np.array([d, g], np.float64).view(np.uint64).tolist() == [0x7FF8480000000000,
                                                                     0x7FF8200000000000]
    assert np.array([i], np.float32).view(np.uint32)[0] == 0xFFC50000
