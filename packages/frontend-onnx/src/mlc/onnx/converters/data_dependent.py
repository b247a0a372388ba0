"""ONNX ops whose result's shape depends on input values: NonZero, Compress, Unique,
NonMaxSuppression.

mlc's tensor types are static, so the values that set such a shape must be known at
import: an initializer, a Constant, a value computed from those, or a graph input the
backend binds per distinct value (as it binds a Reshape's target shape; the CLI's
`--constant-input`). Compress needs only its condition then: the selection itself is
a gather at run time. NonZero, Unique and NonMaxSuppression are determined by their
inputs' values alone, so they fold to constants at import, computed here (a model
using them is specialised to those values; ONNX's node tests check the results
against onnx.reference's).
"""

from __future__ import annotations

import numpy as np

from mlc.ir import Value
from mlc.onnx.node import Node
from mlc.onnx.registry import converter


@converter("NonZero", 9)
def non_zero(node: Node) -> Value:
    """The indices of the non-zero elements, one row per axis, in row-major order."""
    x = node.constant(0)
    if x.ndim == 0:  # numpy's nonzero does not take 0-d arrays: one row of no axes
        return node.b.const(np.zeros((0, int(x != 0)), np.int64))
    return node.b.const(np.array(np.nonzero(x), np.int64).reshape(x.ndim, -1))


@converter("Compress", 11)
@converter("Compress", 9)  # opset 9 had no negative axes; the same otherwise
def compress(node: Node) -> Value:
    """The slices of the input along `axis` (of the flattened input without one)
    whose condition element is true; a condition shorter than the axis selects from
    its first slices only."""
    data = node.input(0)
    condition = node.constant(1).reshape(-1).astype(bool)
    axis = node.attr("axis", None)
    if axis is None:
        data = node.b.reshape(data, shape=(-1,))
        axis = 0
    rank = len(data.type.shape)
    node.check(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    axis %= rank
    extent = data.type.shape[axis]
    node.check(condition.size <= extent, f"the condition has {condition.size} elements, "
               f"more than the {extent} of axis {axis}")
    selected = np.flatnonzero(condition).astype(np.int64)
    return node.b.gather(data, node.b.const(selected), axis=axis)


@converter("Unique", 11)
def unique(node: Node) -> list[Value]:
    """The distinct elements (or slices along `axis`), sorted or in order of first
    occurrence; the index of each one's first occurrence, each input element's index
    among them, and their counts."""
    x = node.constant(0)
    axis = node.attr("axis", None)
    if axis is None:
        x, axis = x.reshape(-1), 0
    node.check(-x.ndim <= axis < x.ndim, f"axis {axis} is out of range for rank {x.ndim}")
    axis %= x.ndim
    values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                               return_counts=True, axis=axis)
    inverse = inverse.reshape(-1)
    if not node.attr("sorted", 1):
        # np.unique sorts; reorder its groups by where each first occurs.
        order = np.argsort(first, kind="stable")
        rank_of = np.empty_like(order)
        rank_of[order] = np.arange(order.size)
        values = np.take(values, order, axis=axis)
        first, counts, inverse = first[order], counts[order], rank_of[inverse]
    element = node.type(0).element_type
    return [node.b.const(values, dtype=element)] + [node.b.const(a.astype(np.int64))
                                                   for a in (first, inverse, counts)]


@converter("NonMaxSuppression", 11)
@converter("NonMaxSuppression", 10)
def non_max_suppression(node: Node) -> Value:
    """[batch, class, box] of each selected box: per batch and class, boxes above the
    score threshold in descending score order (the lower index first among equal
    scores), each kept unless its intersection over union with one kept before
    exceeds the IoU threshold, at most max_output_boxes_per_class of them."""
    boxes, scores = node.constant(0).astype(np.float64), node.constant(1).astype(np.float64)
    limit, iou_threshold, score_threshold = (node.optional_constant(i) for i in (2, 3, 4))
    limit = 0 if limit is None or limit.size == 0 else max(int(limit.reshape(-1)[0]), 0)
    iou_threshold = 0.0 if iou_threshold is None or iou_threshold.size == 0 \
        else float(iou_threshold.reshape(-1)[0])
    has_score_threshold = score_threshold is not None and score_threshold.size > 0
    node.check(boxes.ndim == 3 and boxes.shape[2] == 4 and scores.ndim == 3
               and scores.shape[0] == boxes.shape[0] and scores.shape[2] == boxes.shape[1],
               f"boxes {list(boxes.shape)} and scores {list(scores.shape)} are not "
               "[batch, boxes, 4] and [batch, classes, boxes]")
    selected = []
    for batch in range(boxes.shape[0]):
        overlaps = _intersection_over_union(_corners(boxes[batch], node.attr("center_point_box", 0)))
        for klass in range(scores.shape[1]):
            score = scores[batch, klass]
            candidates = np.arange(score.size)
            if has_score_threshold:
                candidates = candidates[score > float(score_threshold.reshape(-1)[0])]
            candidates = candidates[np.argsort(-score[candidates], kind="stable")]
            kept: list[int] = []
            for box in candidates:
                if len(kept) == limit:
                    break
                if not kept or not np.any(overlaps[box, kept] > iou_threshold):
                    kept.append(int(box))
            selected += [(batch, klass, box) for box in kept]
    return node.b.const(np.array(selected, np.int64).reshape(-1, 3))


def _corners(boxes: np.ndarray, center_point_box: int) -> np.ndarray:
    """[y_min, x_min, y_max, x_max] of each box, given as two opposite corners in
    either order (center_point_box 0) or as [x_center, y_center, width, height]."""
    if center_point_box:
        x, y, half_w, half_h = boxes[:, 0], boxes[:, 1], boxes[:, 2] / 2, boxes[:, 3] / 2
        return np.stack([y - half_h, x - half_w, y + half_h, x + half_w], axis=1)
    return np.concatenate([np.minimum(boxes[:, :2], boxes[:, 2:]),
                           np.maximum(boxes[:, :2], boxes[:, 2:])], axis=1)


def _intersection_over_union(corners: np.ndarray) -> np.ndarray:
    """The [boxes, boxes] matrix of intersection over union; 0 where the boxes do not
    overlap or one has no area."""
    low = np.maximum(corners[:, None, :2], corners[None, :, :2])
    high = np.minimum(corners[:, None, 2:], corners[None, :, 2:])
    intersection = np.prod(np.clip(high - low, 0, None), axis=2)
    area = np.prod(corners[:, 2:] - corners[:, :2], axis=1)
    union = area[:, None] + area[None, :] - intersection
    valid = (intersection > 0) & (area[:, None] > 0) & (area[None, :] > 0) & (union > 0)
    return np.where(valid, intersection / np.where(valid, union, 1), 0.0)
