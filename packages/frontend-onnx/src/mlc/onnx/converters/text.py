"""ONNX text featurization of token ids: TfIdfVectorizer.

Each row of token ids is searched for the pool's n-grams, of every length from
min_gram_length to max_gram_length, their tokens skip_distance apart for each distance
from 1 to max_skip_count + 1 (unigrams once). As graph ops: one gather takes every
candidate window (a start and a distance, the n tokens it spans), each is compared
with every pool n-gram of its length, a window counts for an n-gram whose tokens all
match, and the counts per n-gram land in their output columns through a product with
a constant 0/1 matrix; the mode then weighs them. Strings (pool_strings) are not
converted: graph tensors hold numbers.
"""

from __future__ import annotations

import numpy as np

from mlc.ir import IntegerType, Value, f32
from mlc.onnx.node import Node
from mlc.onnx.registry import converter


@converter("TfIdfVectorizer", 9)
def tf_idf_vectorizer(node: Node) -> Value:
    b, x = node.b, node.input(0)
    node.check(node.has_attr("pool_int64s"), "only pools of int64 tokens (pool_int64s) are "
               "converted, not strings")
    node.check(1 <= len(x.type.shape) <= 2, f"the input must be [C] or [B, C], got "
               f"{list(x.type.shape)}")
    pool = np.asarray(node.attr("pool_int64s"), np.int64)
    starts = list(node.attr("ngram_counts")) + [pool.size]
    output_index = np.asarray(node.attr("ngram_indexes"), np.int64)
    low, high = node.attr("min_gram_length"), node.attr("max_gram_length")
    distances = node.attr("max_skip_count") + 1
    mode = node.attr("mode")
    node.check(mode in ("TF", "IDF", "TFIDF"), f"mode {mode!r} is not TF, IDF or TFIDF")
    columns = int(output_index.max()) + 1 if output_index.size else 0
    tokens = b.cast(x, dtype=IntegerType(64)) if x.type.element_type != IntegerType(64) else x
    length = x.type.shape[-1]
    counts = None
    first_id = 0  # ids number the pool's n-grams in order, all lengths
    for size in range(1, len(starts)):
        grams = pool[starts[size - 1]:starts[size]].reshape(-1, size)
        ids = np.arange(first_id, first_id + len(grams))
        first_id += len(grams)
        if not (low <= size <= high) or len(grams) == 0:
            continue
        windows = np.array([start + distance * np.arange(size)
                            for distance in range(1, (distances if size > 1 else 1) + 1)
                            for start in range(length - distance * (size - 1))],
                           np.int64).reshape(-1, size)
        if len(windows) == 0:
            continue
        node.check(int(ids.max()) < output_index.size, "ngram_indexes has fewer entries than "
                   "the pool has n-grams")
        taken = b.expand_dims(b.gather(tokens, b.const(windows), axis=len(x.type.shape) - 1),
                              axis=-2)                                  # [.., W, 1, size]
        matches = b.min(b.cast(b.equal(taken, b.const(grams)), dtype=f32), axes=[-1])
        found = b.sum(matches, axes=[-2])                               # [.., grams]
        placement = np.zeros((len(grams), columns), np.float32)
        placement[np.arange(len(grams)), output_index[ids]] = 1
        placed = b.matmul(found, b.const(placement))
        counts = placed if counts is None else b.add(counts, placed)
    if counts is None:
        counts = b.const(np.zeros((*x.type.shape[:-1], columns), np.float32))
    weights = node.attr("weights", None)
    if mode == "TF":
        return counts
    present = b.cast(b.greater(counts, b.const(np.float32(0))), dtype=f32)
    if weights is None:
        return present if mode == "IDF" else counts
    node.check(len(weights) >= columns, f"weights has {len(weights)} entries, not one per "
               f"output column ({columns})")
    weights = b.const(np.asarray(weights[:columns], np.float32))
    return b.multiply(present if mode == "IDF" else counts, weights)
