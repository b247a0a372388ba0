"""ONNX TfIdfVectorizer against onnx.reference on random token rows and pools: every
mode (with weights: onnx.reference needs them but for TF), n-grams of one to three tokens, skips, [C] and [B, C]
inputs of int32 and int64."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from mlc.onnx.backend import MlcBackend


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(["TF", "IDF", "TFIDF"]),
       weighted=st.booleans(), low=st.integers(1, 3), span=st.integers(0, 2),
       skips=st.integers(0, 3), batch=st.booleans(), int32=st.booleans())
def test_tf_idf_vectorizer_matches_onnx_reference(seed, mode, weighted, low, span, skips,
                                                  batch, int32):
    rng = np.random.default_rng(seed)
    high = min(low + span, 3)
    per_size = [int(rng.integers(0, 4)) for _ in range(3)]
    # Distinct n-grams per size over a small vocabulary, so that rows hit them.
    grams = [np.unique(rng.integers(0, 4, (count, size)), axis=0) if count else
             np.zeros((0, size), np.int64) for size, count in zip((1, 2, 3), per_size)]
    pool = np.concatenate([g.reshape(-1) for g in grams]).astype(np.int64)
    counts = np.cumsum([0] + [g.size for g in grams[:-1]]).tolist()
    total = sum(len(g) for g in grams)
    indexes = rng.permutation(total + 1)[:total].tolist() or [0]
    pool = pool if pool.size else np.array([0], np.int64)
    attributes = dict(mode=mode, min_gram_length=low, max_gram_length=high, max_skip_count=skips,
                      ngram_counts=counts, ngram_indexes=indexes, pool_int64s=pool.tolist())
    if weighted or mode != "TF":  # onnx.reference needs weights for IDF and TFIDF
        attributes["weights"] = rng.uniform(0.5, 2, max(indexes) + 1).round(2).tolist()
    shape = [2, 9] if batch else [9]
    x = rng.integers(0, 4, shape).astype(np.int32 if int32 else np.int64)
    graph = helper.make_graph(
        [helper.make_node("TfIdfVectorizer", ["x"], ["y"], **attributes)], "tfidf",
        [helper.make_tensor_value_info("x", TensorProto.INT32 if int32 else TensorProto.INT64,
                                       shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape[:-1] + ["columns"])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 9)])
    (expected,) = ReferenceEvaluator(model).run(None, {"x": x})
    (got,) = MlcBackend.prepare(model).run([x])
    assert got.shape == expected.shape and got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-6)
