"""Converters of ONNX's ai.onnx.ml domain on numeric tensors: ArrayFeatureExtractor,
Binarizer, TreeEnsemble.

TreeEnsemble evaluates every tree at once with matrix products, the way GEMM-based
tree inference (Hummingbird) does: all nodes' conditions are computed for each row
(one gather of their features, one comparison per mode present), and each root-to-
leaf path is a column of two constant 0/1 matrices, the nodes it passes on their true
and on their false side. A row reaches a path's leaf when the conditions it satisfies
along the path, `c @ true + (1 - c) @ false`, number the path's length; reached
leaves' weights are aggregated per target (a product with their weights for sums and
averages, a masked min or max otherwise).
"""

from __future__ import annotations

import numpy as np

from mlc.ir import FloatType, IntegerType, Value, element_dtype
from mlc.onnx.node import Node
from mlc.onnx.registry import converter

ML_DOMAIN = "ai.onnx.ml"


@converter("ArrayFeatureExtractor", 1, domain=ML_DOMAIN)
def array_feature_extractor(node: Node) -> Value:
    """The elements of the last axis that the indices name, in their order (a 1-D
    input gives one row, as onnxruntime does)."""
    b, data, indices = node.b, node.input(0), node.input(1)
    count = int(np.prod(indices.type.shape, dtype=np.int64))
    flat = b.reshape(indices, shape=[count])
    if indices.type.element_type != IntegerType(64):
        flat = b.cast(flat, dtype=IntegerType(64))
    taken = b.gather(data, flat, axis=len(data.type.shape) - 1)
    return b.reshape(taken, shape=[1, count]) if len(data.type.shape) == 1 else taken


@converter("Binarizer", 1, domain=ML_DOMAIN)
def binarizer(node: Node) -> Value:
    """1 where the input exceeds the threshold, else 0, in the input's type."""
    b, x = node.b, node.input(0)
    dtype = element_dtype(x.type.element_type)
    threshold = b.const(np.asarray(node.attr("threshold", 0.0), dtype))
    return b.cast(b.greater(x, threshold), dtype=x.type.element_type)


# TreeEnsemble's node modes, in the order of the attribute's values.
_MODES = ("less_equal", "less", "greater_equal", "greater", "equal", "not_equal", "member")
_AGGREGATES = ("average", "sum", "min", "max")


@converter("TreeEnsemble", 5, domain=ML_DOMAIN)
def tree_ensemble(node: Node) -> Value:
    b, x = node.b, node.input(0)
    node.check(len(x.type.shape) == 2 and isinstance(x.type.element_type, FloatType),
               f"X must be a [N, F] float tensor, got {x.type}")
    node.check(node.attr("post_transform", 0) == 0, "only post_transform NONE is converted")
    aggregate = _AGGREGATES[node.attr("aggregate_function", 1)]
    dtype = element_dtype(x.type.element_type)
    modes = np.asarray(node.attr("nodes_modes"), np.int64).reshape(-1)
    features = np.asarray(node.attr("nodes_featureids"), np.int64)
    splits = np.asarray(node.attr("nodes_splits"), dtype).reshape(-1)
    tracks_true = np.asarray(node.attr("nodes_missing_value_tracks_true", [0] * len(modes)), bool)
    node.check(len(features) == len(modes) == len(splits), "the nodes_* attributes differ in length")
    members = _member_sets(node, modes, dtype)

    # Each node's condition on each row: [N, nodes].
    taken = b.gather(x, b.const(features), axis=1)
    condition = None
    for mode in sorted(set(modes.tolist())):
        if _MODES[mode] == "member":
            hits = b.equal(b.expand_dims(taken, axis=2), b.const(members))
            holds = b.greater(b.sum(b.cast(hits, dtype=x.type.element_type), axes=[2]),
                              b.const(np.asarray(0, dtype)))
        else:
            holds = getattr(b, _MODES[mode])(taken, b.const(splits))
        condition = holds if condition is None else b.where(b.const(modes == mode), holds, condition)
    if tracks_true.any():
        condition = b.logical_or(condition, b.logical_and(b.isnan(taken), b.const(tracks_true)))
    satisfied = b.cast(condition, dtype=x.type.element_type)

    paths = _paths(node, modes.size)
    on_true = np.zeros((modes.size, len(paths)), dtype)
    on_false = np.zeros((modes.size, len(paths)), dtype)
    for column, (steps, _) in enumerate(paths):
        for index, went_true in steps:
            (on_true if went_true else on_false)[index, column] = 1
    lengths = np.array([len(steps) for steps, _ in paths], dtype)
    unsatisfied = b.subtract(b.const(np.asarray(1, dtype)), satisfied)
    along = b.add(b.matmul(satisfied, b.const(on_true)), b.matmul(unsatisfied, b.const(on_false)))
    reached = b.equal(along, b.const(lengths))                        # [N, paths]

    targets = node.attr("n_targets")
    leaf_targets = np.asarray(node.attr("leaf_targetids"), np.int64)
    leaf_weights = np.asarray(node.attr("leaf_weights"), dtype).reshape(-1)
    placement = np.zeros((len(paths), targets), bool)
    placement[np.arange(len(paths)), [leaf_targets[leaf] for _, leaf in paths]] = True
    weights = np.array([leaf_weights[leaf] for _, leaf in paths], dtype).reshape(-1, 1)
    if aggregate in ("sum", "average"):
        scale = 1 / len(node.attr("tree_roots")) if aggregate == "average" else 1
        return b.matmul(b.cast(reached, dtype=x.type.element_type),
                        b.const((placement * weights * scale).astype(dtype)))
    # No reached leaf for a target leaves it at the largest (min) or lowest (max) number.
    empty = np.finfo(dtype).max if aggregate == "min" else np.finfo(dtype).min
    hit = b.logical_and(b.expand_dims(reached, axis=2), b.const(placement))
    values = b.where(hit, b.const(np.broadcast_to(weights, placement.shape).copy()),
                     b.const(np.asarray(empty, dtype)))
    return getattr(b, aggregate)(values, axes=[1])


def _member_sets(node: Node, modes: np.ndarray, dtype) -> np.ndarray:
    """[nodes, most members]: the set of each MEMBER node (membership_values holds them
    in node order, each ended by a NaN), padded with NaN, which equals nothing."""
    values = np.asarray(node.attr("membership_values", np.zeros(0)), dtype).reshape(-1)
    sets, current = [], []
    for value in values:
        if np.isnan(value):
            sets.append(current)
            current = []
        else:
            current.append(value)
    member_nodes = np.flatnonzero(modes == _MODES.index("member"))
    node.check(len(sets) == len(member_nodes), f"membership_values has {len(sets)} sets for "
               f"{len(member_nodes)} MEMBER nodes")
    table = np.full((modes.size, max([len(s) for s in sets] + [1])), np.nan, dtype)
    for index, members in zip(member_nodes, sets):
        table[index, :len(members)] = members
    return table


def _paths(node: Node, count: int) -> list[tuple[list[tuple[int, bool]], int]]:
    """Every root-to-leaf path of every tree: the (node, went true) steps and the leaf's
    index in the leaf_* attributes."""
    true_ids, false_ids = node.attr("nodes_truenodeids"), node.attr("nodes_falsenodeids")
    true_leaf, false_leaf = node.attr("nodes_trueleafs"), node.attr("nodes_falseleafs")
    paths = []
    for root in node.attr("tree_roots"):
        node.check(0 <= root < count, f"tree root {root} is not a node")
        if true_leaf[root] and false_leaf[root] and true_ids[root] == false_ids[root]:
            paths.append(([], true_ids[root]))  # a tree of one leaf
            continue
        pending = [(root, [])]
        while pending:
            index, steps = pending.pop()
            node.check(len(steps) <= count, "the nodes do not form trees (a cycle)")
            for went_true, child, is_leaf in ((True, true_ids[index], true_leaf[index]),
                                              (False, false_ids[index], false_leaf[index])):
                if is_leaf:
                    paths.append((steps + [(index, went_true)], child))
                else:
                    node.check(0 <= child < count, f"node {index} branches to {child}, not a node")
                    pending.append((child, steps + [(index, went_true)]))
    return paths

