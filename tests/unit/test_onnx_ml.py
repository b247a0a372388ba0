"""ONNX's ai.onnx.ml ops against onnx.reference: TreeEnsemble on random forests
(every node mode, set membership, NaN features sent by missing_value_tracks_true, each
aggregate function, several targets), ArrayFeatureExtractor and Binarizer; a model of
the ai.onnx.ml domain alone imports."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from mlc.onnx.backend import MlcBackend, native_available


def _ml_model(node, inputs, output):
    graph = helper.make_graph([node], "ml", inputs, [output])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("ai.onnx.ml", 5)])


def _random_forest(rng, trees: int, features: int, targets: int):
    """TreeEnsemble attributes of `trees` random trees of depth <= 3."""
    nodes = dict(modes=[], features=[], splits=[], true=[], false=[], true_leaf=[],
                 false_leaf=[], tracks=[])
    leaves = dict(targets=[], weights=[])
    members: list[float] = []

    def leaf() -> int:
        leaves["targets"].append(int(rng.integers(0, targets)))
        leaves["weights"].append(float(rng.integers(-8, 9)))
        return len(leaves["weights"]) - 1

    def branch(depth: int) -> int:
        index = len(nodes["modes"])
        mode = int(rng.integers(0, 7))
        nodes["modes"].append(mode)
        nodes["features"].append(int(rng.integers(0, features)))
        nodes["splits"].append(np.nan if mode == 6 else float(rng.integers(-2, 3)))
        if mode == 6:
            # No 0 among members: onnx.reference ends a set at a member that is 0.
            members.extend(sorted(set(rng.choice([-2.0, -1.0, 1.0, 2.0], 2).tolist())) + [np.nan])
        nodes["tracks"].append(int(rng.integers(0, 2)))
        for side in ("true", "false"):
            nodes[side].append(0)
            nodes[f"{side}_leaf"].append(0)
        for side in ("true", "false"):
            if depth == 3 or rng.random() < 0.3:
                nodes[side][index], nodes[f"{side}_leaf"][index] = leaf(), 1
            else:
                nodes[side][index] = branch(depth + 1)
        return index

    roots = [branch(1) for _ in range(trees)]
    attributes = dict(
        nodes_modes=numpy_helper.from_array(np.array(nodes["modes"], np.uint8), "nodes_modes"),
        nodes_featureids=nodes["features"],
        nodes_splits=numpy_helper.from_array(np.array(nodes["splits"], np.float32), "nodes_splits"),
        nodes_truenodeids=nodes["true"], nodes_falsenodeids=nodes["false"],
        nodes_trueleafs=nodes["true_leaf"], nodes_falseleafs=nodes["false_leaf"],
        nodes_missing_value_tracks_true=nodes["tracks"],
        leaf_targetids=leaves["targets"],
        leaf_weights=numpy_helper.from_array(np.array(leaves["weights"], np.float32), "leaf_weights"),
        tree_roots=roots, n_targets=targets)
    if members:
        attributes["membership_values"] = numpy_helper.from_array(
            np.array(members, np.float32), "membership_values")
    return attributes


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), trees=st.integers(1, 3), targets=st.integers(1, 3),
       aggregate=st.integers(0, 3))
def test_tree_ensemble_matches_onnx_reference(seed, trees, targets, aggregate):
    rng = np.random.default_rng(seed)
    attributes = _random_forest(rng, trees, 3, targets)
    x = rng.integers(-3, 4, (6, 3)).astype(np.float32)
    x[rng.random(x.shape) < 0.15] = np.nan
    node = helper.make_node("TreeEnsemble", ["X"], ["Y"], domain="ai.onnx.ml",
                            aggregate_function=aggregate, **attributes)
    model = _ml_model(node, [helper.make_tensor_value_info("X", TensorProto.FLOAT, x.shape)],
                      helper.make_tensor_value_info("Y", TensorProto.FLOAT, [6, targets]))
    (expected,) = ReferenceEvaluator(model).run(None, {"X": x})
    (got,) = MlcBackend.prepare(model).run([x])
    np.testing.assert_allclose(got, expected, rtol=1e-6)


@pytest.mark.parametrize("native", [False, True], ids=["interpreted", "native"])
def test_array_feature_extractor_and_binarizer_match_onnx_reference(native):
    if native and not native_available():
        pytest.skip("native mode unavailable")
    x = np.random.default_rng(1).standard_normal((2, 3, 5)).astype(np.float32)
    indices = np.array([[4, 0, 4]], np.int64)
    for node, output, feeds in (
            (helper.make_node("ArrayFeatureExtractor", ["X", "I"], ["Y"], domain="ai.onnx.ml"),
             [2, 3, 3], {"X": x, "I": indices}),
            (helper.make_node("Binarizer", ["X"], ["Y"], domain="ai.onnx.ml", threshold=0.25),
             [2, 3, 5], {"X": x})):
        inputs = [helper.make_tensor_value_info("X", TensorProto.FLOAT, x.shape)]
        if "I" in feeds:
            inputs.append(helper.make_tensor_value_info("I", TensorProto.INT64, indices.shape))
        model = _ml_model(node, inputs, helper.make_tensor_value_info("Y", TensorProto.FLOAT,
                                                                      output))
        (expected,) = ReferenceEvaluator(model).run(None, feeds)
        (got,) = MlcBackend.prepare(model, native=native).run(list(feeds.values()))
        np.testing.assert_array_equal(got, expected)
