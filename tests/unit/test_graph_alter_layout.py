"""graph-alter-op-layout: conv2d to NCHW{n}c as a dialect conversion, the blocked
layout carried through layout-agnostic ops, transforms only at the boundaries, and the
layout canonicalization patterns. Results are compared with `evaluate` before and
after (float32, rtol = atol = 1e-4)."""

from __future__ import annotations

import numpy as np
import pytest

import mlc.graph.passes  # noqa: F401 - registers the graph passes
from mlc.graph import GraphBuilder, evaluate, layout
from mlc.graph.canonicalization.layout import PATTERNS
from mlc.graph.passes.alter_op_layout import (
    AlterOpLayout,
    broadcast_operand_array,
    broadcast_operand_shape,
)
from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import PassManager, run_pipeline
from mlc.ir.passes.options import OptionError
from mlc.ir.passes.pipeline import PipelineError, parse_pipeline, pipeline_from_passes
from mlc.ir.rewrite.greedy import apply_patterns_greedily
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.text.printer import PrintOptions

RNG = np.random.default_rng(7)


def _random(*shape) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _alter(module, block: int | None = None):
    """Run the pass (opt level 3) and check the result verifies."""
    pipeline = "graph-alter-op-layout" + (f"{{block={block}}}" if block else "")
    with PassContext(opt_level=3):
        result = run_pipeline(module, pipeline)
    assert result.success, [d.message for d in result.diagnostics]
    verify(module)
    return module


def _ops(module) -> list:
    fn = module.regions[0].blocks[0].first_op
    return list(fn.entry_block.ops())


def _names(module) -> list[str]:
    return [op.name.split(".", 1)[1] for op in _ops(module)]


def _transforms(module) -> list[tuple[str, str]]:
    return [(op.values["src_layout"], op.values["dst_layout"]) for op in _ops(module)
            if op.name == "graph.layout_transform"]


def _check_same_outputs(module, inputs, expected) -> None:
    for got, want in zip(evaluate(module, inputs), expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def _tutorial(weight_constant: bool = False):
    """TVM's pass-infrastructure tutorial program (fusion-examples.md §1)."""
    b = GraphBuilder()
    x = b.param("x", (1, 64, 56, 56))
    weight = b.const(_random(64, 64, 3, 3), name="weight") if weight_constant \
        else b.param("weight", (64, 64, 3, 3))
    c = b.const(_random(1, 64, 54, 54), name="c")
    conv = b.conv2d(x, weight, name="conv")
    y = b.add(c, c, name="y")
    y = b.multiply(y, b.const(2.0), name="y2")
    y = b.add(conv, y, name="y3")
    z = b.add(y, c, name="z")
    z1 = b.add(y, c, name="z1")
    return b.module(b.add(z, z1, name="z2"))


# ---------------------------------------------------------------------- the tutorial


def test_tutorial_program_is_converted_with_transforms_at_the_boundaries():
    module = _tutorial()
    inputs = [_random(1, 64, 56, 56), _random(64, 64, 3, 3)]
    expected = evaluate(module, inputs)
    _alter(module)
    ops = {op.results[0].name_hint: op for op in _ops(module) if op.results and op.results[0].name_hint}
    # The re-laid c keeps the name c; the original is the NCHW one.
    ops["c"] = next(op for op in _ops(module) if op.name == "graph.constant"
                    and op.result_types[0].shape == (1, 64, 54, 54))
    conv = ops["conv"]
    assert conv.values["data_layout"] == "NCHW16c" and conv.values["kernel_layout"] == "OIHW16i16o"
    assert conv.result_types[0].shape == (1, 4, 54, 54, 16)
    data, weight = (v.defining_op for v in conv.operands)
    assert data.name == "graph.layout_transform" and data.values["dst_layout"] == "NCHW16c"
    assert data.operands[0].name_hint == "x"
    assert weight.name == "graph.layout_transform" and weight.values["dst_layout"] == "OIHW16i16o"
    # add(c, c) * 2 stays NCHW, and is transformed once for the add that takes conv.
    assert ops["y"].result_types[0].shape == (1, 64, 54, 54)
    assert ops["y2"].result_types[0].shape == (1, 64, 54, 54)
    y3 = ops["y3"]
    assert y3.result_types[0].shape == (1, 4, 54, 54, 16)
    chain = y3.operands[1].defining_op
    assert chain.name == "graph.layout_transform" and chain.operands[0] is ops["y2"].results[0]
    # c is re-laid (once) for z and z1; the whole tail is blocked.
    relaid_c = ops["z"].operands[1]
    assert relaid_c is ops["z1"].operands[1]
    assert relaid_c.defining_op.name == "graph.constant" and relaid_c.type.shape == (1, 4, 54, 54, 16)
    np.testing.assert_array_equal(relaid_c.defining_op.value.array,
                                  layout.to_blocked(ops["c"].value.array, 16))
    assert ops["z2"].result_types[0].shape == (1, 4, 54, 54, 16)
    # Exactly one transform back, right before the return.
    assert _transforms(module) == [("NCHW", "NCHW16c"), ("OIHW", "OIHW16i16o"),
                                   ("NCHW", "NCHW16c"), ("NCHW16c", "NCHW")]
    back, ret = _ops(module)[-2:]
    assert back.name == "graph.layout_transform" and back.operands[0] is ops["z2"].results[0]
    assert ret.operands == back.results
    _check_same_outputs(module, inputs, expected)


def test_a_constant_weight_is_re_laid_with_numpy():
    module = _tutorial(weight_constant=True)
    [before] = [op.value.array for op in _ops(module) if op.results and op.results[0].name_hint == "weight"]
    inputs = [_random(1, 64, 56, 56)]
    expected = evaluate(module, inputs)
    _alter(module)
    conv = next(op for op in _ops(module) if op.name == "graph.conv2d")
    weight = conv.operands[1].defining_op
    assert weight.name == "graph.constant" and weight.result_types[0].shape == (4, 4, 3, 3, 16, 16)
    np.testing.assert_array_equal(weight.value.array, layout.kernel_to_blocked(before, 16, 16))
    # The OIHW original was left dead, and is gone.
    assert [op.result_types[0].shape for op in _ops(module) if op.name == "graph.constant"] == [
        (1, 64, 54, 54), (4, 4, 3, 3, 16, 16), (), (1, 4, 54, 54, 16)]
    _check_same_outputs(module, inputs, expected)


def test_statistics():
    module = _tutorial()
    pass_ = AlterOpLayout(block=16)
    with PassContext(opt_level=3):
        assert PassManager(pipeline_from_passes([pass_])).run(module).success
    verify(module)
    assert pass_.statistics == {"num-conv2d": 1, "num-dense": 0, "num-followers": 4,
                                "num-transforms": 4, "num-constants": 1}


# ---------------------------------------------------------------------- what converts


def test_channels_that_do_not_divide_by_the_block_take_a_smaller_one():
    # 12 channels: NCHW4c beside NCHW16c (each tensor's block is the largest of 16, 8,
    # 4 dividing its channels), the conv2d between them OIHW4i16o.
    b = GraphBuilder()
    x = b.param("x", (1, 12, 8, 8))
    out = b.relu(b.conv2d(x, b.const(_random(16, 12, 3, 3))))
    module = b.module(b.add(out, out))
    inputs = [_random(1, 12, 8, 8)]
    expected = evaluate(module, inputs)
    _alter(module)
    conv = next(op for op in _ops(module) if op.name == "graph.conv2d")
    assert conv.values["data_layout"] == "NCHW4c" and conv.values["kernel_layout"] == "OIHW4i16o"
    assert _transforms(module) == [("NCHW", "NCHW4c"), ("NCHW16c", "NCHW")]
    _check_same_outputs(module, inputs, expected)


def test_a_first_convolution_takes_its_image_in_one_block():
    b = GraphBuilder()
    x = b.param("x", (1, 3, 8, 8))
    module = b.module(b.relu(b.conv2d(x, b.const(_random(16, 3, 3, 3)), strides=2)))
    inputs = [_random(1, 3, 8, 8)]
    expected = evaluate(module, inputs)
    _alter(module)
    conv = next(op for op in _ops(module) if op.name == "graph.conv2d")
    assert conv.values["data_layout"] == "NCHW3c" and conv.values["kernel_layout"] == "OIHW3i16o"
    assert conv.operands[1].type.shape == (1, 1, 3, 3, 3, 16)
    _check_same_outputs(module, inputs, expected)


def test_a_single_channel_image_is_one_block_not_a_depthwise_convolution():
    # One input channel and groups 1 has an input block of 1, as a depthwise kernel
    # does: its data is NCHW1c, not split into blocks of the output's channels.
    b = GraphBuilder()
    x = b.param("x", (1, 1, 5, 5))
    module = b.module(b.conv2d(x, b.param("w", (16, 1, 3, 3)), dilation=2))
    inputs = [_random(1, 1, 5, 5), _random(16, 1, 3, 3)]
    expected = evaluate(module, inputs)
    _alter(module)
    conv = next(op for op in _ops(module) if op.name == "graph.conv2d")
    assert conv.values["data_layout"] == "NCHW1c" and conv.values["kernel_layout"] == "OIHW1i16o"
    _check_same_outputs(module, inputs, expected)


def test_output_channels_must_take_a_block():
    b = GraphBuilder()
    x = b.param("x", (1, 16, 8, 8))
    module = b.module(b.conv2d(x, b.param("w", (6, 16, 1, 1))))
    before = print_op(module)
    _alter(module)
    assert print_op(module) == before


def test_depthwise_conv2d_is_blocked_and_grouped_stays_nchw():
    b = GraphBuilder()
    x = b.param("x", (1, 32, 8, 8))
    depthwise = b.conv2d(x, b.const(_random(32, 1, 3, 3)), groups=32, padding=1)
    grouped = b.conv2d(depthwise, b.const(_random(32, 16, 1, 1)), groups=2)
    module = b.module(grouped)
    inputs = [_random(1, 32, 8, 8)]
    expected = evaluate(module, inputs)
    _alter(module)
    convs = [op for op in _ops(module) if op.name == "graph.conv2d"]
    assert convs[0].values["data_layout"] == "NCHW16c"
    assert convs[0].values["kernel_layout"] == "OIHW1i16o"  # TOPI's depthwise_conv2d_NCHWc
    assert convs[1].values["data_layout"] == "NCHW"
    _check_same_outputs(module, inputs, expected)


def test_pools_and_channel_biases_follow_the_blocked_layout():
    b = GraphBuilder()
    x = b.param("x", (1, 16, 8, 8))
    conv = b.conv2d(x, b.const(_random(16, 16, 3, 3)), padding=1)
    biased = b.bias_add(conv, b.const(_random(16)), axis=1)
    pooled = b.max_pool2d(biased, pool_size=(2, 2), strides=(2, 2))
    module = b.module(b.global_avg_pool2d(b.avg_pool2d(pooled, pool_size=(2, 2))))
    inputs = [_random(1, 16, 8, 8)]
    expected = evaluate(module, inputs)
    _alter(module)
    assert [op.values["layout"] for op in _ops(module) if "pool" in op.name] == ["NCHW16c"] * 3
    assert "graph.bias_add" not in _names(module) and "add" in _names(module)
    assert _transforms(module) == [("NCHW", "NCHW16c"), ("NCHW16c", "NCHW")]
    _check_same_outputs(module, inputs, expected)


def test_a_non_agnostic_user_gets_one_transform_back():
    b = GraphBuilder()
    x = b.param("x", (1, 16, 8, 8))
    conv = b.relu(b.conv2d(x, b.const(_random(32, 16, 3, 3)), padding=1))
    module = b.module(b.reshape(conv, shape=(1, -1)), b.neg(conv))
    inputs = [_random(1, 16, 8, 8)]
    expected = evaluate(module, inputs)
    _alter(module)
    assert _names(module) == ["layout_transform", "constant", "conv2d", "relu", "layout_transform",
                              "reshape", "neg", "layout_transform", "return"]
    relu, back_relu, reshape, neg, back_neg, ret = _ops(module)[3:]
    assert back_relu.operands == relu.results and reshape.operands == back_relu.results
    assert back_neg.operands == neg.results
    assert ret.operands == [reshape.results[0], back_neg.results[0]]
    assert _transforms(module) == [("NCHW", "NCHW16c"), ("NCHW16c", "NCHW"), ("NCHW16c", "NCHW")]
    _check_same_outputs(module, inputs, expected)


def test_two_convs_in_a_row_stay_blocked_between_them():
    b = GraphBuilder()
    x = b.param("x", (1, 16, 8, 8))
    first = b.conv2d(x, b.param("w1", (32, 16, 3, 3)), padding=1)
    second = b.conv2d(first, b.param("w2", (16, 32, 3, 3)), padding=1)
    module = b.module(second)
    inputs = [_random(1, 16, 8, 8), _random(32, 16, 3, 3), _random(16, 32, 3, 3)]
    expected = evaluate(module, inputs)
    _alter(module)
    assert _names(module) == ["layout_transform", "layout_transform", "conv2d", "layout_transform",
                              "conv2d", "layout_transform", "return"]
    conv1, conv2 = (op for op in _ops(module) if op.name == "graph.conv2d")
    assert conv2.operands[0] is conv1.results[0]
    assert conv2.operands[1].defining_op.values["dst_layout"] == "OIHW16i16o"
    _check_same_outputs(module, inputs, expected)


def test_asymmetric_windows_survive_the_conversion():
    """Strides, dilations and every side of the padding different: the blocked conv2d
    keeps them, and a max_pool2d after it (NCHW only) gets its input back in NCHW."""
    b = GraphBuilder()
    x = b.param("x", (1, 16, 9, 11))
    attrs = {"strides": (2, 1), "padding": (1, 0, 2, 3), "dilation": (1, 2)}
    conv = b.conv2d(x, b.param("w", (32, 16, 3, 2)), **attrs)
    pooled = b.max_pool2d(conv, pool_size=(2, 3), strides=(1, 2), padding=(0, 1, 1, 0),
                          ceil_mode=True)
    module = b.module(pooled)
    inputs = [_random(1, 16, 9, 11), _random(32, 16, 3, 2)]
    expected = evaluate(module, inputs)
    _alter(module)
    [blocked] = (op for op in _ops(module) if op.name == "graph.conv2d")
    assert blocked.values["data_layout"] == "NCHW16c"
    assert (blocked.values["strides"], blocked.values["padding"], blocked.values["dilation"]) == \
        (attrs["strides"], attrs["padding"], attrs["dilation"])
    # H (9 + 1 + 2 - 2 - 1) // 2 + 1 = 5, W (11 + 0 + 3 - 2 - 1) // 1 + 1 = 12
    assert blocked.results[0].type.shape == (1, 2, 5, 12, 16)
    _check_same_outputs(module, inputs, expected)


def test_block_option():
    b = GraphBuilder()
    x = b.param("x", (1, 8, 6, 6))
    conv = b.conv2d(x, b.const(_random(24, 8, 3, 3)))
    module = b.module(b.sigmoid(conv))
    inputs = [_random(1, 8, 6, 6)]
    expected = evaluate(module, inputs)
    _alter(module, block=8)
    conv = next(op for op in _ops(module) if op.name == "graph.conv2d")
    assert conv.values["data_layout"] == "NCHW8c" and conv.values["kernel_layout"] == "OIHW8i8o"
    assert conv.result_types[0].shape == (1, 3, 4, 4, 8)
    assert conv.operands[1].type.shape == (3, 1, 3, 3, 8, 8)
    assert _transforms(module) == [("NCHW", "NCHW8c"), ("NCHW8c", "NCHW")]
    _check_same_outputs(module, inputs, expected)
    # 24 channels do not divide by 16: the default gives them blocks of 8.
    b = GraphBuilder()
    x = b.param("x", (1, 16, 6, 6))
    module = b.module(b.conv2d(x, b.const(_random(24, 16, 3, 3))))
    _alter(module)
    conv = next(op for op in _ops(module) if op.name == "graph.conv2d")
    assert conv.values["kernel_layout"] == "OIHW16i8o"


def test_the_block_must_be_positive():
    with pytest.raises(PipelineError) as info:
        parse_pipeline("graph-alter-op-layout{block=0}")
    assert info.value.diagnostics[0].message == (
        "invalid value for option 'block' of 'graph-alter-op-layout': expected an int >= 1, got '0'")
    with pytest.raises(OptionError, match="expected an int >= 1, got '-2'"):
        AlterOpLayout(block=-2)


def test_a_value_used_by_several_converted_ops_is_transformed_once():
    b = GraphBuilder()
    x = b.param("x", (1, 16, 4, 4))
    w = b.param("w", (16, 16, 1, 1))
    module = b.module(b.add(b.conv2d(x, w), b.conv2d(x, w)))
    _alter(module)
    assert _transforms(module) == [("NCHW", "NCHW16c"), ("OIHW", "OIHW16i16o"), ("NCHW16c", "NCHW")]


# ---------------------------------------------------------------------- broadcast operands


def test_broadcast_operands_take_the_blocked_layout():
    b = GraphBuilder()
    x = b.param("x", (1, 16, 4, 4))
    conv = b.conv2d(x, b.const(_random(32, 16, 1, 1)))
    per_channel = b.add(conv, b.const(_random(32, 1, 1)))  # bias_add spelled as a broadcast
    scaled = b.multiply(per_channel, b.const(_random(1, 32, 1, 1)))
    scalar = b.maximum(scaled, b.const(0.5))
    per_column = b.subtract(scalar, b.const(_random(4)))  # broadcast along the channels
    same_shape = b.divide(per_column, b.exp(b.param("d", (1, 32, 4, 4))))
    module = b.module(b.clip(same_shape, min=-1.0, max=1.0))
    inputs = [_random(1, 16, 4, 4), _random(1, 32, 4, 4)]
    expected = evaluate(module, inputs)
    _alter(module)
    ops = _ops(module)
    shapes = {op.name.removeprefix("graph."): [v.type.shape for v in op.operands] for op in ops
              if op.name != "graph.layout_transform"}
    assert shapes["add"] == [(1, 2, 4, 4, 16), (1, 2, 1, 1, 16)]
    assert shapes["multiply"] == [(1, 2, 4, 4, 16), (1, 2, 1, 1, 16)]
    assert shapes["maximum"] == [(1, 2, 4, 4, 16), ()]
    assert shapes["subtract"] == [(1, 2, 4, 4, 16), (1, 1, 1, 4, 1)]
    assert shapes["divide"] == [(1, 2, 4, 4, 16), (1, 2, 4, 4, 16)]
    assert shapes["exp"] == [(1, 32, 4, 4)]  # not downstream of a conv2d: stays NCHW
    assert shapes["clip"] == [(1, 2, 4, 4, 16)]
    assert _transforms(module) == [("NCHW", "NCHW16c"), ("NCHW", "NCHW16c"), ("NCHW16c", "NCHW")]
    _check_same_outputs(module, inputs, expected)


def test_an_operand_that_cannot_be_blocked_keeps_the_op_in_nchw():
    b = GraphBuilder()
    x = b.param("x", (1, 16, 4, 4))
    conv = b.conv2d(x, b.param("w", (16, 16, 1, 1)))
    mask = b.param("mask", (1, 1, 4, 4))  # a value broadcast along the channels
    module = b.module(b.relu(b.multiply(conv, mask)))
    inputs = [_random(1, 16, 4, 4), _random(16, 16, 1, 1), _random(1, 1, 4, 4)]
    expected = evaluate(module, inputs)
    _alter(module)
    assert _names(module) == ["layout_transform", "layout_transform", "conv2d", "layout_transform",
                              "multiply", "relu", "return"]
    assert _ops(module)[5].result_types[0].shape == (1, 16, 4, 4)
    _check_same_outputs(module, inputs, expected)


def test_comparisons_and_where_follow_the_layout():
    b = GraphBuilder()
    x = b.param("x", (1, 16, 4, 4))
    conv = b.conv2d(x, b.param("w", (16, 16, 1, 1)))
    positive = b.greater(conv, b.const(0.0))
    module = b.module(b.where(positive, conv, b.const(_random(16, 1, 1))))
    inputs = [_random(1, 16, 4, 4), _random(16, 16, 1, 1)]
    expected = evaluate(module, inputs)
    _alter(module)
    assert _names(module) == ["layout_transform", "layout_transform", "conv2d", "constant",
                              "greater", "constant", "where", "layout_transform", "return"]
    _check_same_outputs(module, inputs, expected)


def test_broadcast_operand_shapes_and_arrays():
    assert broadcast_operand_shape((32, 1, 1), 32, 16) == (1, 2, 1, 1, 16)
    assert broadcast_operand_shape((2, 32, 5, 1), 32, 16) == (2, 2, 5, 1, 16)
    assert broadcast_operand_shape((5,), 32, 16) == (1, 1, 1, 5, 1)
    assert broadcast_operand_shape((8, 1, 1), 32, 16) is None
    assert broadcast_operand_shape((1, 1, 1, 1, 1), 32, 16) is None
    per_channel = _random(32, 1, 1)
    relaid = broadcast_operand_array(per_channel, 32, 16)
    np.testing.assert_array_equal(relaid[0, 1, 0, 0], per_channel[16:, 0, 0])
    row = _random(5)
    np.testing.assert_array_equal(broadcast_operand_array(row, 32, 16).reshape(-1), row)


# ---------------------------------------------------------------------- transforms already there


_PARSE = Context(["graph", "func", "builtin"])


def _parse(text: str):
    module = parse_module(text, _PARSE)
    verify(module)
    return module


def test_ops_after_a_transform_out_of_the_blocked_layout_follow_it():
    module = _parse("""
    func.func @main(%xb: tensor<1x1x4x4x16xf32>) -> tensor<1x16x4x4xf32> {
      %x = graph.layout_transform %xb {src_layout = "NCHW16c", dst_layout = "NCHW"} : tensor<1x1x4x4x16xf32> -> tensor<1x16x4x4xf32>
      %r = graph.relu %x : tensor<1x16x4x4xf32>
      return %r : tensor<1x16x4x4xf32>
    }""")
    inputs = [_random(1, 1, 4, 4, 16)]
    expected = evaluate(module, inputs)
    _alter(module)
    assert _names(module) == ["relu", "layout_transform", "return"]
    assert _ops(module)[0].result_types[0].shape == (1, 1, 4, 4, 16)
    _check_same_outputs(module, inputs, expected)


def test_running_twice_changes_nothing():
    module = _tutorial(weight_constant=True)
    hex_weights = PrintOptions(hex_if_larger=16)  # spelling out large constants is slow
    _alter(module)
    once = print_op(module, hex_weights)
    _alter(module)
    assert print_op(module, hex_weights) == once


def test_resource_weights_stay_resources():
    from mlc.graph.resources import module_text_with_resources

    b = GraphBuilder()
    x = b.param("x", (1, 16, 4, 4))
    weight = _random(16, 16, 3, 3)
    b_module = b.module(b.conv2d(x, b.const(weight, name="w")))
    module = _parse(module_text_with_resources(b_module))
    inputs = [_random(1, 16, 4, 4)]
    expected = evaluate(module, inputs)
    _alter(module)
    conv = next(op for op in _ops(module) if op.name == "graph.conv2d")
    attr = conv.operands[1].defining_op.value
    assert attr.handle == "w_OIHW16i16o"
    np.testing.assert_array_equal(attr.array(), layout.kernel_to_blocked(weight, 16, 16))
    _check_same_outputs(module, inputs, expected)


# ---------------------------------------------------------------------- canonicalization


@pytest.mark.parametrize("body, remaining", [
    # A -> A is the identity.
    ("""%0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW"} : tensor<1x16x2x2xf32> -> tensor<1x16x2x2xf32>
        return %0 : tensor<1x16x2x2xf32>""", []),
    # A -> B -> A cancels.
    ("""%0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW8c"} : tensor<1x16x2x2xf32> -> tensor<1x2x2x2x8xf32>
        %1 = graph.layout_transform %0 {src_layout = "NCHW8c", dst_layout = "NCHW"} : tensor<1x2x2x2x8xf32> -> tensor<1x16x2x2xf32>
        return %1 : tensor<1x16x2x2xf32>""", []),
    # A -> B -> C composes into A -> C.
    ("""%0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW8c"} : tensor<1x16x2x2xf32> -> tensor<1x2x2x2x8xf32>
        %1 = graph.layout_transform %0 {src_layout = "NCHW8c", dst_layout = "NCHW16c"} : tensor<1x2x2x2x8xf32> -> tensor<1x1x2x2x16xf32>
        %2 = graph.layout_transform %1 {src_layout = "NCHW16c", dst_layout = "NCHW4c"} : tensor<1x1x2x2x16xf32> -> tensor<1x4x2x2x4xf32>
        return %2 : tensor<1x4x2x2x4xf32>""", [("NCHW", "NCHW4c")]),
])
def test_layout_canonicalization(body, remaining):
    result_type = body.rsplit(": ", 1)[1]
    module = _parse(f"""
    func.func @main(%x: tensor<1x16x2x2xf32>) -> {result_type} {{
      {body}
    }}""")
    inputs = [_random(1, 16, 2, 2)]
    expected = evaluate(module, inputs)
    assert apply_patterns_greedily(module, PatternSet(PATTERNS)).converged
    verify(module)
    assert _transforms(module) == remaining
    _check_same_outputs(module, inputs, expected)


def test_layout_patterns_are_part_of_canonicalize():
    module = _parse("""
    func.func @main(%x: tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32> {
      %0 = graph.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW16c"} : tensor<1x16x2x2xf32> -> tensor<1x1x2x2x16xf32>
      %1 = graph.layout_transform %0 {src_layout = "NCHW16c", dst_layout = "NCHW"} : tensor<1x1x2x2x16xf32> -> tensor<1x16x2x2xf32>
      return %1 : tensor<1x16x2x2xf32>
    }""")
    assert run_pipeline(module, "canonicalize").success
    assert _names(module) == ["return"]


DENSE = """
func.func @main(%x: tensor<2x8xf32>, %w2: tensor<5x8xf32>) -> (tensor<2x3xf32>, tensor<2x5xf32>) {
  %w = graph.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                             [0.5, 0.0, -1.0, 2.0, 0.25, 3.0, -2.0, 1.0],
                             [-1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0]]> : tensor<3x8xf32>
  %y = graph.dense %x, %w : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<2x3xf32>
  %z = graph.dense %x, %w2 : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  return %y, %z : tensor<2x3xf32>, tensor<2x5xf32>
}
"""


def test_dense_of_a_constant_weight_takes_it_transposed():
    module = parse_module(DENSE, Context())
    inputs = [_random(2, 8), _random(5, 8)]
    expected = evaluate(module, inputs)
    _alter(module)
    dense = [op for op in _ops(module) if op.name == "graph.dense"]
    assert [op.values["weight_layout"] for op in dense] == ["KN", "NK"]  # a parameter stays
    weight = dense[0].operands[1].defining_op
    assert weight.result_types[0].shape == (8, 3)
    assert weight.value.array[0].tolist() == [1.0, 0.5, -1.0]
    _check_same_outputs(module, inputs, expected)
    assert "weight_layout = \"KN\"" in print_op(module)


def test_weights_of_dense_and_matmul_are_packed_in_panels():
    b = GraphBuilder()
    x = b.param("x", (2, 3, 8))
    w, m = _random(16, 8), _random(8, 24)
    dense = b.dense(x, b.const(w))
    product = b.matmul(x, b.const(m))  # a constant right-hand side: a dense of its transpose
    module = b.module(dense, product)
    inputs = [_random(2, 3, 8)]
    expected = evaluate(module, inputs)
    _alter(module)
    packed = [op for op in _ops(module) if op.name == "graph.dense"]
    assert [op.values["weight_layout"] for op in packed] == ["NK16n", "NK8n"]
    assert [op.operands[1].type.shape for op in packed] == [(1, 8, 16), (3, 8, 8)]
    np.testing.assert_array_equal(packed[1].operands[1].defining_op.value.array[1, :, 2],
                                  m[:, 8 + 2])  # panel 1, output feature 8 + 2
    _check_same_outputs(module, inputs, expected)
