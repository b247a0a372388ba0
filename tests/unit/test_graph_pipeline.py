"""graph-optimize on the acceptance networks (issue: ResNet-18 at most 24 kernels with
every conv2d carrying its batch-norm and relu and each residual add in its block's
main-branch kernel, the MLP 2, MobileNetV2 at most 34, the transformer at most 15),
with the interpreter giving the same outputs before and after."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

from mlc.graph import evaluate
from mlc.graph.examples import mlp, mobilenet_v2_blocks, resnet18, transformer_encoder
from mlc.graph.fusion.outline import is_primitive
from mlc.ir import verify
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins

# float32 kernels against the float64-accumulating oracle, through up to 20 layers.
RTOL = ATOL = 1e-4


def optimize(example, pipeline: str = "graph-optimize"):
    load_pass_plugins()
    inputs = example.inputs()
    before = evaluate(example.module, inputs)
    with PassContext(opt_level=3):
        result = run_pipeline(example.module, pipeline)
    assert result.success, result.diagnostics
    verify(example.module)
    after = evaluate(example.module, inputs)
    for a, b in zip(after, before):
        np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL * float(np.abs(b).max()))
    kernels = [op for op in example.module.regions[0].ops()
               if op.name == "func.func" and is_primitive(op)]
    return kernels


def kernel_shapes(kernels) -> Counter:
    return Counter(re.sub(r"_\d+$", "", k.sym_name.value) for k in kernels)


def called_kernels(example) -> int:
    return sum(1 for op in example.main.entry_block.ops() if op.name == "func.call")


def test_mlp_is_two_kernels():
    example = mlp()
    kernels = optimize(example)
    assert kernel_shapes(kernels) == {"fused_dense_bias_add_relu": 1, "fused_dense_bias_add": 1}
    assert called_kernels(example) == 2


def test_resnet18_is_24_kernels():
    example = resnet18(image_size=64)
    kernels = optimize(example)
    shapes = kernel_shapes(kernels)
    assert len(kernels) == called_kernels(example) == 24
    # Every conv2d with its (folded) batch-norm shift and relu; the 8 residual adds in
    # the main branch's second conv; the 3 downsample convs with their shift only.
    conv_kernels = {name: n for name, n in shapes.items() if "conv2d" in name}
    assert sum(conv_kernels.values()) == 20
    assert shapes["fused_conv2d_add_add_relu"] == 8
    assert shapes["fused_conv2d_add"] == 3
    assert shapes["fused_conv2d_add_relu"] == 9  # stem + the first conv of each block
    for name in ("fused_max_pool2d", "fused_global_avg_pool2d", "fused_flatten",
                 "fused_dense_bias_add"):
        assert shapes[name] == 1
    # batch_norm is gone (simplify-inference, then its scale folded into the weights).
    ops = Counter(op.name for k in kernels for op in k.entry_block.ops())
    assert ops["graph.batch_norm"] == 0 and ops["graph.multiply"] == 0


def test_resnet18_residual_add_joins_the_main_branch():
    example = resnet18(image_size=64)
    optimize(example)
    for call in example.main.entry_block.ops():
        if call.name == "func.call" and call.callee.leaf.startswith("fused_conv2d_add_add_relu"):
            # operands: data, weight, shift, shortcut: the shortcut comes from another call
            # or the block input, never computed inside this kernel.
            assert len(call.operands) == 4


def test_mobilenet_v2_at_most_34_kernels():
    example = mobilenet_v2_blocks(image_size=64)
    kernels = optimize(example)
    assert len(kernels) <= 34
    shapes = kernel_shapes(kernels)
    assert shapes["fused_conv2d_add_clip"] == 21  # expand and depthwise convs with relu6
    assert shapes["fused_conv2d_add_add"] == 6  # project convs with their residual add


def test_transformer_at_most_15_kernels():
    example = transformer_encoder()
    kernels = optimize(example)
    assert len(kernels) <= 15
    shapes = kernel_shapes(kernels)
    assert shapes["fused_layer_norm"] == 2 and shapes["fused_softmax"] == 1
    # The GELU written as ONNX exports it fuses into the FFN's first dense.
    assert any("erf" in name and name.startswith("fused_dense") for name in shapes)


@pytest.mark.slow
def test_resnet18_full_size():
    example = resnet18()
    assert len(optimize(example)) == 24


def test_fuse_ops_is_idempotent_and_fused_modules_evaluate():
    example = mlp()
    optimize(example)
    from mlc.ir import print_op

    once = print_op(example.module)
    with PassContext(opt_level=3):
        run_pipeline(example.module, "graph-optimize")
    assert print_op(example.module) == once
