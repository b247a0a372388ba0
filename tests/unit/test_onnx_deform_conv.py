"""ONNX DeformConv against onnx.reference on random offsets (taps moved off the image
too): groups, offset groups, strides, dilations, pads, masks and biases; natively for
one."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from mlc.onnx.backend import MlcBackend, native_available


def _case(rng, group, offset_group, stride, dilation, pad, masked, biased):
    channels, out_channels, kernel = 2 * group * offset_group, 2 * group, (2, 3)
    x = rng.standard_normal((2, channels, 5, 6)).astype(np.float32)
    w = rng.standard_normal((out_channels, channels // group, *kernel)).astype(np.float32)
    out = [(extent + 2 * pad - (k - 1) * dilation - 1) // stride + 1
           for extent, k in zip(x.shape[2:], kernel)]
    taps = kernel[0] * kernel[1]
    feeds = {"X": x, "W": w,
             "offset": rng.uniform(-2.5, 2.5, (2, offset_group * 2 * taps, *out)).astype(np.float32)}
    if biased:
        feeds["B"] = rng.standard_normal(out_channels).astype(np.float32)
    if masked:
        feeds["mask"] = rng.uniform(0, 1, (2, offset_group * taps, *out)).astype(np.float32)
    names = ["X", "W", "offset", "B" if biased else "", "mask" if masked else ""]
    while not names[-1]:
        names.pop()
    graph = helper.make_graph(
        [helper.make_node("DeformConv", names, ["Y"], group=group, offset_group=offset_group,
                          strides=[stride] * 2, dilations=[dilation] * 2, pads=[pad] * 4,
                          kernel_shape=list(kernel))], "deform_conv",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, a.shape) for n, a in feeds.items()],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, out_channels, *out])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)]), feeds


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), group=st.integers(1, 2), offset_group=st.integers(1, 2),
       stride=st.integers(1, 2), dilation=st.integers(1, 2), pad=st.integers(0, 1),
       masked=st.booleans(), biased=st.booleans())
def test_deform_conv_matches_onnx_reference(seed, group, offset_group, stride, dilation, pad,
                                            masked, biased):
    model, feeds = _case(np.random.default_rng(seed), group, offset_group, stride, dilation,
                         pad, masked, biased)
    (expected,) = ReferenceEvaluator(model).run(None, feeds)
    (got,) = MlcBackend.prepare(model).run(list(feeds.values()))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.skipif(not native_available(), reason="native mode unavailable")
def test_deform_conv_natively_matches_onnx_reference():
    model, feeds = _case(np.random.default_rng(7), 2, 2, 1, 2, 1, True, True)
    (expected,) = ReferenceEvaluator(model).run(None, feeds)
    (got,) = MlcBackend.prepare(model, native=True).run(list(feeds.values()))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
