"""ONNX ops whose result's shape depends on input values (NonMaxSuppression, Unique,
NonZero, Compress) and ReverseSequence, against onnx.reference (Unique: by brute force)
on random inputs: the
first three are computed at import from values bound then, Compress gathers at run
time with its condition bound, ReverseSequence takes its lengths at run time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from mlc.onnx.backend import MlcBackend, native_available


def _model(op_type, inputs, outputs, **attributes):
    """One `op_type` node; `inputs` and `outputs` are (name, TensorProto type, shape)."""
    node = helper.make_node(op_type, [n for n, _, _ in inputs], [n for n, _, _ in outputs],
                            **attributes)
    graph = helper.make_graph([node], op_type.lower(),
                              [helper.make_tensor_value_info(*i) for i in inputs],
                              [helper.make_tensor_value_info(*o) for o in outputs])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])


def _check(model, feeds, native=False):
    rep = MlcBackend.prepare(model, native=native)
    got = rep.run(list(feeds.values()))
    expected = ReferenceEvaluator(model).run(None, feeds)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=1e-6)
    return rep


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), boxes=st.integers(1, 12), classes=st.integers(1, 3),
       center=st.booleans(), limit=st.integers(0, 6), iou=st.sampled_from([0.0, 0.3, 0.5, 0.9]))
def test_non_max_suppression_matches_onnx_reference(seed, boxes, classes, center, limit, iou):
    rng = np.random.default_rng(seed)
    corners = rng.integers(0, 6, (2, boxes, 4)).astype(np.float32)  # overlaps and ties
    scores = rng.integers(0, 4, (2, classes, boxes)).astype(np.float32) / 4
    model = _model("NonMaxSuppression",
                   [("boxes", TensorProto.FLOAT, corners.shape),
                    ("scores", TensorProto.FLOAT, scores.shape),
                    ("limit", TensorProto.INT64, [1]), ("iou", TensorProto.FLOAT, [1]),
                    ("score", TensorProto.FLOAT, [1])],
                   [("selected", TensorProto.INT64, ["n", 3])], center_point_box=int(center))
    _check(model, {"boxes": corners, "scores": scores, "limit": np.array([limit]),
                   "iou": np.array([iou], np.float32), "score": np.array([0.2], np.float32)})


def _unique_by_first_occurrence(x, axis, sort):
    """Unique's four outputs by brute force (onnx.reference's Unique fails on
    unsorted slices with numpy 2): the slices along `axis` in order of first
    occurrence, or sorted lexicographically."""
    slices = [tuple(s.reshape(-1)) for s in np.moveaxis(x, axis, 0)]
    distinct = list(dict.fromkeys(slices))
    if sort:
        distinct.sort()
    position = {s: i for i, s in enumerate(distinct)}
    values = np.moveaxis(np.array(distinct, x.dtype).reshape(
        (len(distinct),) + np.moveaxis(x, axis, 0).shape[1:]), 0, axis)
    return (values, np.array([slices.index(s) for s in distinct]),
            np.array([position[s] for s in slices]), np.array([slices.count(s) for s in distinct]))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.sampled_from([(7,), (4, 3), (5, 2, 2)]),
       axis=st.sampled_from([None, 0, -1]), sort=st.booleans())
def test_unique_matches_brute_force(seed, shape, axis, sort):
    x = np.random.default_rng(seed).integers(0, 3, shape).astype(np.float32)
    attributes = {"sorted": int(sort)} | ({} if axis is None else {"axis": axis})
    model = _model("Unique", [("X", TensorProto.FLOAT, shape)],
                   [("Y", TensorProto.FLOAT, ["n"] * len(shape) if axis is not None else ["n"])]
                   + [(n, TensorProto.INT64, ["m"]) for n in ("indices", "inverse", "counts")],
                   **attributes)
    got = MlcBackend.prepare(model).run([x])
    expected = _unique_by_first_occurrence(x.reshape(-1) if axis is None else x,
                                           0 if axis is None else axis, sort)
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)
        assert g.dtype == (np.float32 if g is got[0] else np.int64)


@pytest.mark.parametrize("native", [False, True], ids=["interpreted", "native"])
def test_reverse_sequence_takes_lengths_at_run_time(native):
    if native and not native_available():
        pytest.skip("native mode unavailable")
    rng = np.random.default_rng(0)
    for time_axis, shape in ((0, (5, 3, 2)), (1, (3, 5, 2))):
        model = _model("ReverseSequence", [("x", TensorProto.FLOAT, shape),
                                           ("lens", TensorProto.INT64, [3])],
                       [("y", TensorProto.FLOAT, shape)], time_axis=time_axis,
                       batch_axis=1 - time_axis)
        rep = MlcBackend.prepare(model, native=native)
        assert rep.constant_inputs == ()  # no specialisation to the lengths
        for lens in ([5, 1, 3], [0, 5, 2]):
            feeds = {"x": rng.standard_normal(shape).astype(np.float32),
                     "lens": np.array(lens, np.int64)}
            np.testing.assert_array_equal(rep.run(list(feeds.values()))[0],
                                          ReferenceEvaluator(model).run(None, feeds)[0])


@pytest.mark.parametrize("native", [False, True], ids=["interpreted", "native"])
def test_compress_binds_the_condition_and_nonzero_its_input(native):
    if native and not native_available():
        pytest.skip("native mode unavailable")
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    model = _model("Compress", [("x", TensorProto.FLOAT, [3, 4]),
                                ("condition", TensorProto.BOOL, [4])],
                   [("y", TensorProto.FLOAT, [3, "n"])], axis=1)
    rep = _check(model, {"x": x, "condition": np.array([1, 0, 1, 1], bool)}, native)
    assert rep.constant_inputs == ("condition",)
    # The data stays a run-time input: new data, the same condition, no new import.
    np.testing.assert_array_equal(rep.run([x + 1, np.array([1, 0, 1, 1], bool)])[0],
                                  (x + 1)[:, [0, 2, 3]])
    assert len(rep._specialised) == 1
    model = _model("NonZero", [("x", TensorProto.FLOAT, [3, 4])], [("y", TensorProto.INT64, [2, "n"])])
    _check(model, {"x": (x % 3 == 0).astype(np.float32)}, native)
