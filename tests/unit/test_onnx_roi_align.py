"""ONNX RoiAlign against onnx.reference on random regions (reaching outside the image,
degenerate ones too): avg and max, half_pixel and output_half_pixel, a spatial scale,
several sampling ratios; natively for one."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from mlc.onnx.backend import MlcBackend, native_available


def _model(x_shape, regions, out, **attributes):
    graph = helper.make_graph(
        [helper.make_node("RoiAlign", ["X", "rois", "batch"], ["Y"], output_height=out[0],
                          output_width=out[1], **attributes)], "roi_align",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, x_shape),
         helper.make_tensor_value_info("rois", TensorProto.FLOAT, [regions, 4]),
         helper.make_tensor_value_info("batch", TensorProto.INT64, [regions])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [regions, x_shape[1], *out])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])


def _inputs(rng, x_shape, regions):
    x = rng.standard_normal(x_shape).astype(np.float32)
    corners = rng.uniform(-3, max(x_shape[2:]) + 3, (regions, 2, 2))
    rois = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1).astype(np.float32)
    return x, rois, rng.integers(0, x_shape[0], regions).astype(np.int64)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(["avg", "max"]),
       transform=st.sampled_from(["half_pixel", "output_half_pixel"]),
       ratio=st.integers(1, 3), scale=st.sampled_from([1.0, 0.5]),
       out=st.tuples(st.integers(1, 4), st.integers(1, 4)))
def test_roi_align_matches_onnx_reference(seed, mode, transform, ratio, scale, out):
    rng = np.random.default_rng(seed)
    x_shape = [2, 3, 6, 7]
    x, rois, batch = _inputs(rng, x_shape, 3)
    model = _model(x_shape, 3, out, mode=mode, coordinate_transformation_mode=transform,
                   sampling_ratio=ratio, spatial_scale=scale)
    feeds = {"X": x, "rois": rois, "batch": batch}
    (expected,) = ReferenceEvaluator(model).run(None, feeds)
    (got,) = MlcBackend.prepare(model).run([x, rois, batch])
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(not native_available(), reason="native mode unavailable")
def test_roi_align_natively_matches_onnx_reference():
    rng = np.random.default_rng(3)
    x, rois, batch = _inputs(rng, [2, 4, 9, 8], 5)
    for mode in ("avg", "max"):
        model = _model([2, 4, 9, 8], 5, (3, 2), mode=mode, sampling_ratio=2)
        (expected,) = ReferenceEvaluator(model).run(None, {"X": x, "rois": rois, "batch": batch})
        (got,) = MlcBackend.prepare(model, native=True).run([x, rois, batch])
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
