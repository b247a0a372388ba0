"""The graph normalisation ops, the graph canonicalization patterns, and the passes
graph-fold-constant, graph-simplify-inference and graph-fold-scale-axis: IR in, IR
out, and the interpreter's outputs before and after equal within float32 tolerance
(rtol 1e-4, atol 1e-5; exactly where no arithmetic changes)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from mlc.graph import GraphBuilder, evaluate
from mlc.graph.canonicalization.algebra import PATTERNS as ALGEBRA
from mlc.graph.ops.constant import ConstantOp, constant_array
from mlc.graph.passes.fold_constant import fold_constants
from mlc.ir import (
    Context,
    DenseResourceElementsAttr,
    IRError,
    RankedTensorType,
    f32,
    parse_module,
    print_op,
    verify,
)
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.instruments import Statistics
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.rewrite.drr import DagPattern

RTOL, ATOL = 1e-4, 1e-5


# ---------------------------------------------------------------------- helpers


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def floats(shape, low=-1.0, high=1.0, seed=0) -> np.ndarray:
    return rng(seed).uniform(low, high, shape).astype(np.float32)


def parse(text: str):
    module = parse_module(text, Context())
    verify(module)
    return module


def run(module, pipeline: str, **context) -> dict[str, dict[str, int]]:
    """Run `pipeline` on `module` (verified after), returning the pass statistics."""
    stats = Statistics()
    with PassContext(opt_level=3, instruments=[stats], **context):
        result = run_pipeline(module, pipeline)
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    verify(module)
    return stats.totals


def ops(module) -> Counter:
    """Op counts in the module's functions, by short name."""
    return Counter(op.name.removeprefix("graph.") for op in module.walk()
                   if op.name.startswith("graph."))


def body(module) -> list[str]:
    """The op names of @main in order, constants left out."""
    fn = next(op for op in module.walk() if op.name == "func.func")
    return [op.name.removeprefix("graph.") for op in fn.entry_block.ops()
            if op.name not in ("graph.constant", "func.return")]


def check_same_results(build, pipeline: str, inputs: list[np.ndarray], exact: bool = False,
                       **context):
    """Build a module twice, run `pipeline` on one; outputs agree. Returns the
    transformed module and the statistics."""
    module = build()
    expected = evaluate(module, inputs)
    stats = run(module, pipeline, **context)
    actual = evaluate(module, inputs)
    for e, a in zip(expected, actual, strict=True):
        if exact:
            np.testing.assert_array_equal(a, e)
        else:
            np.testing.assert_allclose(a, e, rtol=RTOL, atol=ATOL)
    return module, stats


# ====================================================================== norm ops


def test_batch_norm_reference_and_shapes():
    b = GraphBuilder()
    x = b.param("x", (2, 3, 4, 5))
    gamma, beta, mean = (b.const(floats(3, seed=s)) for s in (1, 2, 3))
    var = b.const(floats(3, 0.5, 2.0, seed=4))
    y = b.batch_norm(x, gamma, beta, mean, var, epsilon=1e-3)
    assert y.type == x.type
    xv = floats((2, 3, 4, 5))
    [out] = evaluate(b.module(y), [xv])
    g, bt, m = (floats(3, seed=s).astype(np.float64)[:, None, None] for s in (1, 2, 3))
    v = floats(3, 0.5, 2.0, seed=4).astype(np.float64)[:, None, None]
    want = (xv - m) / np.sqrt(v + np.float32(1e-3)) * g + bt
    np.testing.assert_allclose(out, want, rtol=1e-6, atol=1e-6)


def test_batch_norm_last_axis_and_errors():
    b = GraphBuilder()
    x = b.param("x", (4, 3))
    vec = b.const(np.ones(3, np.float32))
    assert b.batch_norm(x, vec, vec, vec, vec, axis=-1).type == x.type
    with pytest.raises(IRError, match=r"gamma must have shape \[4\]"):
        b.batch_norm(x, vec, vec, vec, vec, axis=0)
    with pytest.raises(IRError, match="axis 2 is out of range"):
        b.batch_norm(x, vec, vec, vec, vec, axis=2)


def test_layer_norm_normalises_trailing_axes():
    b = GraphBuilder()
    x = b.param("x", (2, 3, 4))
    y = b.layer_norm(x, b.const(np.ones((3, 4), np.float32)), b.const(np.zeros((3, 4), np.float32)),
                     axis=1, epsilon=0.0)
    [out] = evaluate(b.module(y), [floats((2, 3, 4))])
    np.testing.assert_allclose(out.reshape(2, -1).mean(axis=1), 0, atol=1e-6)
    np.testing.assert_allclose(out.reshape(2, -1).std(axis=1), 1, rtol=1e-5)
    with pytest.raises(IRError, match=r"gamma must have shape \[4\]"):
        b.layer_norm(x, b.const(np.ones(3, np.float32)), b.const(np.ones(4, np.float32)))


def test_norm_ops_round_trip_as_text():
    text = """
    func.func @main(%x: tensor<1x2x3x3xf32>, %v: tensor<2xf32>, %g: tensor<3xf32>) -> tensor<1x2x3x3xf32> {
      %0 = graph.batch_norm %x, %v, %v, %v, %v {epsilon = 1.000000e-03 : f32} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
      %1 = graph.layer_norm %0, %g, %g : (tensor<1x2x3x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x2x3x3xf32>
      return %1 : tensor<1x2x3x3xf32>
    }"""
    printed = print_op(parse(text))
    assert "graph.batch_norm %x, %v, %v, %v, %v {epsilon = 1.000000e-03 : f32} :" in printed
    assert print_op(parse(printed)) == printed


# ====================================================================== canonicalization


def test_algebra_patterns_are_documented_declarative_patterns():
    assert ALGEBRA and all(isinstance(p, DagPattern) and p.doc for p in ALGEBRA)
    assert len({p.name for p in ALGEBRA}) == len(ALGEBRA)


IDENTITIES = """
func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %one = graph.constant dense<1.0> : tensor<f32>
  %ones = graph.constant dense<1.0> : tensor<3xf32>
  %zero = graph.constant dense<0.0> : tensor<2x3xf32>
  %nzero = graph.constant dense<-0.0> : tensor<1x3xf32>
  %0 = graph.multiply %x, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = graph.multiply %ones, %x : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.add %zero, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = graph.add %x, %nzero : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %4 = graph.subtract %x, %zero : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = graph.divide %x, %ones : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %6 = graph.neg %x : tensor<2x3xf32>
  %7 = graph.neg %6 : tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %7 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}"""


def test_arithmetic_identities_fold_to_the_operand():
    module = parse(IDENTITIES)
    x = floats((2, 3))
    x[0, 0] = -0.0
    expected = evaluate(module, [x])
    stats = run(module, "canonicalize")
    assert body(module) == []
    assert "return %x, %x, %x, %x, %x, %x, %x" in print_op(module)
    assert stats["canonicalize"]["num-patterns"] == 7
    for e, a in zip(expected, evaluate(module, [x])):
        np.testing.assert_array_equal(a, e)  # -0.0 == +0.0: the only difference allowed


def test_identities_that_do_not_hold_stay():
    module = parse("""
    func.func @main(%x: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
      %ones = graph.constant dense<1.0> : tensor<2x3xf32>
      %mixed = graph.constant dense<[1.0, 1.0, 2.0]> : tensor<3xf32>
      %zero = graph.constant dense<0.0> : tensor<3xf32>
      %0 = graph.multiply %x, %ones : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      %1 = graph.multiply %x, %mixed : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %2 = graph.subtract %zero, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %3 = graph.divide %mixed, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %4 = graph.multiply %x, %zero : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
    }""")
    run(module, "canonicalize")
    # 1 broadcasts x up; not all ones; 0 - x; c / x; x * 0 (NaN and -0 for x * 0).
    assert body(module) == ["multiply", "multiply", "subtract", "divide", "multiply"]


def test_reshape_chains_become_one_reshape():
    module = parse("""
    func.func @main(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<2x3x4xf32>, tensor<2x12xf32>) {
      %0 = graph.reshape %x {shape = array<i64: 6, 4>} : tensor<2x3x4xf32> -> tensor<6x4xf32>
      %1 = graph.reshape %0 {shape = array<i64: 0, -1>} : tensor<6x4xf32> -> tensor<6x4xf32>
      %2 = graph.reshape %1 {shape = array<i64: 4, -1>} : tensor<6x4xf32> -> tensor<4x6xf32>
      %3 = graph.flatten %x : tensor<2x3x4xf32> -> tensor<2x12xf32>
      %4 = graph.reshape %3 {shape = array<i64: 2, 3, 4>} : tensor<2x12xf32> -> tensor<2x3x4xf32>
      %5 = graph.expand_dims %3 {axis = 1 : i64, num_newaxis = 2 : i64} : tensor<2x12xf32> -> tensor<2x1x1x12xf32>
      %6 = graph.squeeze %5 {axes = array<i64: 1, 2>} : tensor<2x1x1x12xf32> -> tensor<2x12xf32>
      return %2, %4, %6 : tensor<4x6xf32>, tensor<2x3x4xf32>, tensor<2x12xf32>
    }""")
    x = floats((2, 3, 4))
    expected = evaluate(module, [x])
    run(module, "canonicalize")
    text = print_op(module)
    # reshape(reshape(reshape(x))) -> one reshape to the resolved shape (the 0 in the
    # middle one meant its operand's extent, not x's); reshape(flatten(x)) back to
    # x's shape -> x; squeeze(expand_dims(y)) -> y.
    assert body(module) == ["reshape", "flatten"]
    assert "graph.reshape %x {shape = array<i64: 4, 6>}" in text
    assert "return %0, %x, %1" in text
    for e, a in zip(expected, evaluate(module, [x])):
        np.testing.assert_array_equal(a, e)


def test_transposes_compose_and_identity_disappears():
    module = parse("""
    func.func @main(%x: tensor<2x3x4xf32>) -> (tensor<3x4x2xf32>, tensor<2x3x4xf32>, tensor<4x3x2xf32>) {
      %0 = graph.transpose %x {axes = array<i64: 1, 0, 2>} : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
      %1 = graph.transpose %0 {axes = array<i64: 0, 2, 1>} : tensor<3x2x4xf32> -> tensor<3x4x2xf32>
      %2 = graph.transpose %0 {axes = array<i64: 1, 0, -1>} : tensor<3x2x4xf32> -> tensor<2x3x4xf32>
      %3 = graph.transpose %x : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
      %4 = graph.transpose %3 {axes = array<i64: 2, 1, 0>} : tensor<4x3x2xf32> -> tensor<2x3x4xf32>
      %5 = graph.transpose %4 : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
      return %1, %2, %5 : tensor<3x4x2xf32>, tensor<2x3x4xf32>, tensor<4x3x2xf32>
    }""")
    x = floats((2, 3, 4))
    expected = evaluate(module, [x])
    run(module, "canonicalize")
    assert body(module) == ["transpose", "transpose"]
    assert "graph.transpose %x {axes = array<i64: 1, 2, 0>}" in print_op(module)
    for e, a in zip(expected, evaluate(module, [x])):
        np.testing.assert_array_equal(a, e)


def test_casts_fold_only_when_lossless():
    module = parse("""
    func.func @main(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi8>, tensor<4xf32>) {
      %0 = graph.cast %x : tensor<4xf32> to f64
      %1 = graph.cast %0 : tensor<4xf64> to f32
      %2 = graph.cast %x : tensor<4xf32> to f16
      %3 = graph.cast %2 : tensor<4xf16> to f32
      %4 = graph.cast %i : tensor<4xi8> to f32
      %5 = graph.cast %4 : tensor<4xf32> to i8
      %6 = graph.cast %x : tensor<4xf32> to f32
      return %1, %3, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xi8>, tensor<4xf32>
    }""")
    inputs = [np.array([1e-8, 1 / 3, 7e4, -2.5], np.float32), np.array([-128, -1, 0, 127], np.int8)]
    with np.errstate(over="ignore"):  # 7e4 overflows f16: the lossy pair must stay
        expected = evaluate(module, inputs)
        run(module, "canonicalize")
        actual = evaluate(module, inputs)
    assert body(module) == ["cast", "cast"]  # only f32 -> f16 -> f32 is left
    assert "return %x, %1, %i, %x" in print_op(module)
    for e, a in zip(expected, actual):
        np.testing.assert_array_equal(a, e)


# ====================================================================== fold-constant


def tutorial(shape=(1, 8, 6, 6)) -> tuple:
    """TVM's pass-infrastructure tutorial program (channels made small)."""
    b = GraphBuilder()
    x = b.param("x", shape)
    weight = b.param("weight", (shape[1], shape[1], 3, 3))
    c = b.const(np.ones((shape[0], shape[1], shape[2] - 2, shape[3] - 2), np.float32), name="c")
    conv = b.conv2d(x, weight)
    y = b.add(c, c)
    y = b.multiply(y, b.const(2.0))
    y = b.add(conv, y)
    z = b.add(y, c)
    z1 = b.add(y, c)
    z2 = b.add(z, z1)
    return b.module(z2), [floats(shape), floats((shape[1], shape[1], 3, 3), seed=1)]


def test_fold_constant_tutorial_program():
    module, inputs = tutorial()
    expected = evaluate(module, inputs)
    stats = run(module, "graph-fold-constant")
    assert stats["graph-fold-constant"] == {"num-folded": 2, "num-too-large": 0, "num-undefined": 0,
                                            "num-dead-constants": 2}
    assert body(module) == ["conv2d", "add", "add", "add", "add"]
    values = sorted(float(constant_array(op.value).reshape(-1)[0]) for op in module.walk()
                    if isinstance(op, ConstantOp))
    assert values == [1.0, 4.0]  # c, and c1 = (c + c) * 2
    np.testing.assert_array_equal(evaluate(module, inputs)[0], expected[0])


def test_fold_constant_is_bit_exact_and_keeps_name_hints():
    b = GraphBuilder()
    x = b.param("x", (3, 4))
    w = b.const(floats((4, 3)), name="w")
    wt = b.transpose(w, name="wt")
    s = b.sigmoid(b.multiply(wt, b.const(floats((3, 4), seed=2))))
    module = b.module(b.add(x, s))
    inputs = [floats((3, 4), seed=3)]
    expected = evaluate(module, inputs)
    stats = run(module, "graph-fold-constant")
    assert stats["graph-fold-constant"]["num-folded"] == 3
    assert body(module) == ["add"]
    assert "%wt" not in print_op(module)  # folded further: only its consumer's constant stays
    np.testing.assert_array_equal(evaluate(module, inputs)[0], expected[0])


def test_fold_constant_refuses_large_growth():
    b = GraphBuilder()
    x = b.param("x", (32, 64, 64))
    small = b.const(floats((64,)))
    big = b.broadcast_to(small, shape=(32, 64, 64))  # 131072 elements from 64
    module = b.module(b.add(x, big))
    stats = run(module, "graph-fold-constant")
    assert stats["graph-fold-constant"]["num-too-large"] == 1
    assert body(module) == ["broadcast_to", "add"]
    # Growth within the limit folds.
    stats = run(module, "graph-fold-constant{max-growth-elements=200000}")
    assert stats["graph-fold-constant"]["num-folded"] == 1
    assert body(module) == ["add"]


def test_fold_constant_shares_memory_with_resource_weights():
    data = np.arange(6, dtype=np.float32)
    blob = (16).to_bytes(4, "little") + data.tobytes()
    module = parse(f"""
    func.func @main() -> tensor<3x2xf32> {{
      %w = graph.constant dense_resource<w> : tensor<6xf32>
      %0 = graph.reshape %w {{shape = array<i64: 3, 2>}} : tensor<6xf32> -> tensor<3x2xf32>
      return %0 : tensor<3x2xf32>
    }}
    {{-# dialect_resources: {{builtin: {{w: "0x{blob.hex()}"}}}} #-}}""")
    [weight] = [op for op in module.walk() if isinstance(op, ConstantOp)]
    source = constant_array(weight.value)
    report = fold_constants(module)
    assert (report.folded, report.dead_constants) == (1, 1)
    [folded] = [op for op in module.walk() if isinstance(op, ConstantOp)]
    array = constant_array(folded.value)
    np.testing.assert_array_equal(array, data.reshape(3, 2))
    assert np.shares_memory(array, source)  # a reshape of a weight copies nothing
    assert not array.flags.writeable


def test_fold_constant_warns_on_missing_blob():
    b = GraphBuilder()
    missing = DenseResourceElementsAttr(RankedTensorType((2,), f32), "gone", {})
    w = b.constant(value=missing)
    module = b.module(b.relu(w))
    report = fold_constants(module)
    assert report.folded == 0
    assert ["not folded" in d.message and "gone" in d.message for d in report.warnings] == [True]


def test_fold_constant_multi_result_and_nan_without_warnings():
    b = GraphBuilder()
    c = b.const(np.array([-1.0, 4.0, 0.0, 9.0], np.float32))
    parts = b.split(c, sections=2, axis=0)
    module = b.module(*(b.sqrt(p) for p in parts))
    stats = run(module, "graph-fold-constant")  # sqrt(-1): NaN, and no numpy warning
    assert stats["graph-fold-constant"]["num-folded"] == 3
    assert body(module) == []
    first, second = evaluate(module, [])
    assert np.isnan(first[0]) and first[1] == 2 and list(second) == [0, 3]


# ====================================================================== simplify-inference


def conv_bn(axis: int = 1, constant_stats: bool = True, dropout: bool = True):
    def build():
        b = GraphBuilder()
        x = b.param("x", (2, 3, 5, 5))
        h = b.conv2d(x, b.const(floats((4, 3, 3, 3), seed=1) / 9), padding=1)
        if axis != 1:
            h = b.transpose(h, axes=(0, 2, 3, 1))
        channels = h.type.shape[axis]
        stats = [b.const(floats((channels,), seed=s)) for s in (2, 3, 4)]
        stats.append(b.const(floats((channels,), 0.5, 2.0, seed=5)))
        if not constant_stats:
            stats[2] = b.param("mean", (channels,))
        y = b.batch_norm(h, *stats, axis=axis, epsilon=1e-3)
        if dropout:
            y = b.dropout(b.relu(y), rate=0.3)
        return b.module(y)
    return build


def test_simplify_inference_batch_norm_nchw():
    inputs = [floats((2, 3, 5, 5))]
    module, stats = check_same_results(conv_bn(), "graph-simplify-inference", inputs)
    assert stats["graph-simplify-inference"] == {"num-batch-norms": 1, "num-dropouts": 1}
    assert body(module) == ["conv2d", "add", "sqrt", "divide", "multiply", "subtract",
                            "reshape", "reshape", "multiply", "add", "relu"]
    assert "tensor<4xf32> -> tensor<4x1x1xf32>" in print_op(module)
    # With constant statistics everything but the scale and shift folds away.
    run(module, "graph-fold-constant")
    assert body(module) == ["conv2d", "multiply", "add", "relu"]


def test_simplify_inference_batch_norm_last_axis_needs_no_reshape():
    inputs = [floats((2, 3, 5, 5))]
    module, _ = check_same_results(conv_bn(axis=3, dropout=False), "graph-simplify-inference",
                                   inputs)
    assert "reshape" not in body(module)
    assert "batch_norm" not in body(module)


def test_simplify_inference_with_statistics_that_are_parameters():
    inputs = [floats((2, 3, 5, 5)), floats((4,), seed=9)]
    module, _ = check_same_results(conv_bn(constant_stats=False), "graph-simplify-inference",
                                   inputs)
    run(module, "graph-fold-constant")
    # The scale folds; the shift depends on the mean parameter.
    assert body(module) == ["conv2d", "multiply", "subtract", "reshape", "multiply", "add", "relu"]


def test_simplify_inference_keeps_layer_norm():
    b = GraphBuilder()
    x = b.param("x", (2, 4))
    y = b.layer_norm(b.dropout(x), b.const(np.ones(4, np.float32)), b.const(np.zeros(4, np.float32)))
    module = b.module(y)
    run(module, "graph-simplify-inference")
    assert body(module) == ["layer_norm"]


# ====================================================================== fold-scale-axis


def conv_scaled(scale_shape, *, groups=1, bias=None, weight_param=False, extra_use=False,
                layout=None):
    """multiply(conv2d(x, W) [+ b], s); NCHW (1, 4, 6, 6) -> (1, 4, 4, 4)."""
    def build():
        b = GraphBuilder()
        x = b.param("x", (1, 4, 6, 6))
        w_shape = (4, 4 // groups, 3, 3)
        w = b.param("w", w_shape) if weight_param else b.const(floats(w_shape, seed=1), name="w")
        h = b.conv2d(x, w, groups=groups)
        if bias == "add":
            h = b.add(h, b.const(floats((4, 1, 1), seed=2), name="b"))
        elif bias == "bias_add":
            h = b.bias_add(h, b.const(floats((4,), seed=2), name="b"), axis=1)
        y = b.multiply(h, b.const(floats(scale_shape, 0.5, 2.0, seed=3), name="s"))
        return b.module(y, h) if extra_use else b.module(y)
    return build


def conv_inputs(weight_param=False):
    inputs = [floats((1, 4, 6, 6))]
    return inputs + [floats((4, 4, 3, 3), seed=1)] if weight_param else inputs


@pytest.mark.parametrize("scale_shape", [(), (1,), (4, 1, 1), (1, 4, 1, 1)])
def test_fold_scale_into_conv2d(scale_shape):
    module, stats = check_same_results(conv_scaled(scale_shape), "graph-fold-scale-axis",
                                       conv_inputs())
    assert stats["graph-fold-scale-axis"]["num-folded"] == 1
    assert body(module) == ["conv2d"]
    assert ops(module)["constant"] == 1  # the scaled weight; W and s are gone
    assert "%w = graph.constant" in print_op(module)


def test_fold_scale_into_depthwise_conv2d():
    module, _ = check_same_results(conv_scaled((4, 1, 1), groups=4), "graph-fold-scale-axis",
                                   conv_inputs())
    assert body(module) == ["conv2d"]


@pytest.mark.parametrize("bias", ["add", "bias_add"])
def test_fold_scale_through_a_bias(bias):
    module, _ = check_same_results(conv_scaled((4, 1, 1), bias=bias), "graph-fold-scale-axis",
                                   conv_inputs())
    assert body(module) == ["conv2d", bias]
    assert ops(module)["constant"] == 2  # W*s and b*s


def test_fold_scale_into_a_weight_parameter_emits_ops():
    module, _ = check_same_results(conv_scaled((1, 4, 1, 1), weight_param=True),
                                   "graph-fold-scale-axis", conv_inputs(weight_param=True))
    assert body(module) == ["reshape", "multiply", "conv2d"]
    assert "tensor<1x4x1x1xf32> -> tensor<4x1x1x1xf32>" in print_op(module)


@pytest.mark.parametrize("why, build", [
    ("conv2d has another use", conv_scaled((4, 1, 1), extra_use=True)),
    ("the scale varies along H and W", conv_scaled((1, 1, 4, 4))),
    ("the scale is per element", conv_scaled((1, 4, 4, 4))),
    ("the scale broadcasts the product up", conv_scaled((2, 4, 1, 1))),
])
def test_fold_scale_axis_refuses(why, build):
    module, stats = check_same_results(build, "graph-fold-scale-axis", conv_inputs(), exact=True)
    assert stats["graph-fold-scale-axis"]["num-folded"] == 0, why
    assert body(module) == ["conv2d", "multiply"], why


def test_fold_scale_axis_refuses_a_product_past_the_range_that_rounds_to_its_edge():
    # 8420899·2^104 times 16712881·2^-23 is just above float32's largest value, by less
    # than half its spacing there: the float32 product rounds to that largest value,
    # but the exact product is past it, so the fold is refused as for one that is inf.
    big, factor = np.float32(8420899 * 2.0**104), np.float32(16712881 * 2.0**-23)
    assert float(big) * float(factor) > float(np.finfo(np.float32).max) == big * factor

    def build():
        b = GraphBuilder()
        x = b.param("x", (1, 2, 3, 3))
        weight = np.ones((2, 2, 1, 1), np.float32)
        weight[0, 0] = big
        h = b.conv2d(x, b.const(weight))
        return b.module(b.multiply(h, b.const(np.array([[[factor]], [[1.0]]], np.float32))))
    module, stats = check_same_results(build, "graph-fold-scale-axis",
                                       [np.zeros((1, 2, 3, 3), np.float32)], exact=True)
    assert stats["graph-fold-scale-axis"]["num-folded"] == 0
    assert body(module) == ["conv2d", "multiply"]


def test_fold_scale_axis_weights_are_the_float64_products_rounded_once():
    weight, scale = floats((4, 4, 3, 3), seed=1), floats((4, 1, 1), 0.5, 2.0, seed=3)
    module, _ = check_same_results(conv_scaled((4, 1, 1)), "graph-fold-scale-axis",
                                   conv_inputs())
    [folded] = [constant_array(op.attributes["value"]) for op in module.walk()
                if isinstance(op, ConstantOp)]
    want = (weight.astype(np.float64) * scale.reshape(4, 1, 1, 1)).astype(np.float32)
    assert folded.dtype == np.float32 and np.array_equal(folded, want)


def test_fold_scale_axis_refuses_a_bias_along_another_axis():
    def build():
        b = GraphBuilder()
        x = b.param("x", (1, 4, 6, 6))
        h = b.conv2d(x, b.const(floats((4, 4, 3, 3), seed=1)))
        h = b.bias_add(h, b.const(floats((4,), seed=2)), axis=2)
        return b.module(b.multiply(h, b.const(floats((4, 1, 1), seed=3))))
    module, _ = check_same_results(build, "graph-fold-scale-axis", conv_inputs(), exact=True)
    assert body(module) == ["conv2d", "bias_add", "multiply"]


@pytest.mark.parametrize("scale_shape", [(3,), (1, 3)])
def test_fold_scale_into_dense(scale_shape):
    def build():
        b = GraphBuilder()
        x = b.param("x", (2, 5))
        y = b.bias_add(b.dense(x, b.const(floats((3, 5), seed=1))), b.const(floats((3,), seed=2)),
                       axis=-1)
        return b.module(b.multiply(b.const(floats(scale_shape, 0.5, 2, seed=3)), y))
    module, _ = check_same_results(build, "graph-fold-scale-axis", [floats((2, 5))])
    assert body(module) == ["dense", "bias_add"]


def test_fold_scale_chain_and_full_batch_norm_pipeline():
    module, stats = check_same_results(
        conv_bn(), "graph-simplify-inference,graph-fold-constant,graph-fold-scale-axis",
        [floats((2, 3, 5, 5))])
    assert body(module) == ["conv2d", "add", "relu"]
    assert stats["graph-fold-scale-axis"]["num-folded"] == 1

    def chain():
        b = GraphBuilder()
        x = b.param("x", (1, 4, 6, 6))
        y = b.conv2d(x, b.const(floats((4, 4, 3, 3), seed=1)))
        for seed in (2, 3, 4):
            y = b.multiply(y, b.const(floats((4, 1, 1), 0.5, 2, seed=seed)))
        return b.module(y)
    module, stats = check_same_results(chain, "graph-fold-scale-axis", conv_inputs())
    assert stats["graph-fold-scale-axis"]["num-folded"] == 3
    assert body(module) == ["conv2d"]


def test_fold_scale_axis_ignores_blocked_layouts():
    def build():
        b = GraphBuilder()
        x = b.param("x", (1, 1, 6, 6, 4))
        y = b.conv2d(x, b.const(floats((1, 1, 3, 3, 4, 4), seed=1)), data_layout="NCHW4c",
                     kernel_layout="OIHW4i4o")
        return b.module(b.multiply(y, b.const(np.float32(2.0))))
    module, _ = check_same_results(build, "graph-fold-scale-axis", [floats((1, 1, 6, 6, 4))],
                                   exact=True)
    assert body(module) == ["conv2d", "multiply"]
