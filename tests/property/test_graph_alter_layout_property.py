"""graph-alter-op-layout on random small conv nets (conv2d with 8, 16 or 32 channels,
elementwise and broadcast ops, the odd reshape), block 8: the result verifies,
computes what the input did (float32, rtol = atol = 1e-4), has one transform per
boundary, and a second run changes nothing."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import mlc.graph.passes  # noqa: F401 - registers the graph passes
from mlc.graph import GraphBuilder, evaluate
from mlc.ir import print_op, verify
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline

CHANNELS = (8, 16, 32)
SIZE = 4  # H = W
UNARY = ("relu", "neg", "tanh", "abs", "sigmoid")
BINARY = ("add", "multiply", "subtract", "maximum")
OTHER_OPERANDS = ("value", "param", "per_channel", "per_channel_4d", "scalar", "spatial")


@st.composite
def conv_nets(draw):
    """(module, inputs): a random net over one NCHW input, built step by step."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    b = GraphBuilder()
    channels = draw(st.sampled_from(CHANNELS))
    inputs = [rng.standard_normal((1, channels, SIZE, SIZE)).astype(np.float32)]
    values = [b.param("x", inputs[0].shape)]

    def param(shape):
        inputs.append(rng.standard_normal(shape).astype(np.float32))
        return b.param(f"p{len(inputs) - 1}", shape)

    for _ in range(draw(st.integers(1, 8))):
        x = draw(st.sampled_from(values))
        c = x.type.shape[1]
        kind = draw(st.sampled_from(("conv2d", "conv2d", "unary", "binary", "binary", "reshape")))
        if kind == "conv2d":
            out, k = draw(st.sampled_from(CHANNELS)), draw(st.sampled_from((1, 3)))
            weight = (rng.standard_normal((out, c, k, k)) / np.sqrt(c * k * k)).astype(np.float32)
            w = b.const(weight) if draw(st.booleans()) else param(weight.shape)
            values.append(b.conv2d(x, w, padding=k // 2))
        elif kind == "unary":
            values.append(b.op(draw(st.sampled_from(UNARY)), x))
        elif kind == "binary":
            y = _other_operand(draw, b, rng, x, values, param)
            operands = (y, x) if draw(st.booleans()) else (x, y)
            values.append(b.op(draw(st.sampled_from(BINARY)), *operands))
        else:  # a round trip through a layout-dependent op
            values.append(b.reshape(b.reshape(x, shape=(1, -1)), shape=x.type.shape))
    outputs = [values[-1]] + [v for v in values[1:-1] if draw(st.integers(0, 4)) == 0]
    return b.module(*outputs), inputs


def _other_operand(draw, b: GraphBuilder, rng, x, values, param):
    """The second operand of a broadcast op on `x`: another value of its shape, a
    parameter, a per-channel, scalar or spatial constant."""
    other = draw(st.sampled_from(OTHER_OPERANDS))
    shape, c = x.type.shape, x.type.shape[1]
    if other == "value":
        return draw(st.sampled_from([v for v in values if v.type.shape == shape]))
    if other == "param":
        return param(shape)
    if other == "scalar":
        return b.const(float(rng.standard_normal()))
    constant_shape = {"per_channel": (c, 1, 1), "per_channel_4d": (1, c, 1, 1),
                      "spatial": (1, 1, SIZE, SIZE)}[other]
    return b.const(rng.standard_normal(constant_shape).astype(np.float32))


def _alter(module) -> None:
    with PassContext(opt_level=3):
        result = run_pipeline(module, "graph-alter-op-layout{block=8}")
    assert result.success, [d.message for d in result.diagnostics]
    verify(module)


@given(conv_nets())
def test_alter_op_layout_preserves_semantics_and_is_idempotent(net):
    module, inputs = net
    expected = evaluate(module, inputs)
    _alter(module)
    for got, want in zip(evaluate(module, inputs), expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    ops = list(module.regions[0].blocks[0].first_op.entry_block.ops())
    transforms = [(op.operands[0], op.values["dst_layout"]) for op in ops
                  if op.name == "graph.layout_transform"]
    assert len(set(transforms)) == len(transforms)  # no value transformed twice alike
    for op in ops:
        if op.name == "graph.conv2d":  # every channel count divides by 8
            assert op.values["data_layout"] == "NCHW8c"
        if op.name == "graph.layout_transform":  # one transform per boundary
            producer = op.operands[0].defining_op
            assert producer is None or producer.name != "graph.layout_transform"
    once = print_op(module)
    _alter(module)
    assert print_op(module) == once
