"""graph-fold-scale-axis: fold per-channel scales into the weights of the conv2d or
dense that produces the scaled tensor (TVM's backward FoldScaleAxis).

    multiply(conv2d(x, W), s)              -> conv2d(x, W * s[:, None, None, None])
    multiply(add(conv2d(x, W), b), s)      -> add(conv2d(x, W * s[...]), b * s)
    multiply(bias_add(conv2d(x, W), b), s) -> bias_add(conv2d(x, W * s[...]), b * s)
    multiply(dense(x, W), s)               -> dense(x, W * s[:, None])     (and the same
                                              through add / bias_add)

Why it is right: output channel o of a convolution (any groups, depthwise included)
is a sum of products with W[o] alone, so scaling W[o] by s[o] scales that channel;
a dense's output feature n likewise reads row W[n]. A bias added before the scale
distributes: (y + b)·s = y·s + b·s.

When it applies: `s` is a finite constant that broadcasts only along the output
channels (conv2d NCHW/OIHW: axis 1, shapes (), (C,1,1), (1,C,1,1)...; dense: the last
axis, (N,), (1,N)...) and does not enlarge the product; the conv2d/dense (and the
add/bias_add between) has no other use, since the unscaled value would otherwise
still be needed; a constant W (or b) times s stays within its element type's range
(else the folded weight would be inf where the program's result is finite). The scaled weight is computed with numpy when W (and b) are
constants, as they normally are once graph-fold-constant has run; otherwise the
multiplication is emitted as graph ops on W (and b).

The scales that batch_norm leaves after graph-simplify-inference and
graph-fold-constant are exactly this shape, so conv2d + batch_norm becomes conv2d + add.
Forward folding (a scale on a conv2d's input) is not done.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mlc.graph.builder import emit, emit_constant
from mlc.graph.ops.constant import ConstantOp, computable_array
from mlc.graph.ops.elementwise import AddOp, MultiplyOp
from mlc.graph.ops.nn import BiasAddOp, Conv2DOp, DenseOp
from mlc.ir import Diagnostic, FloatType, Operation, Value, element_dtype
from mlc.ir.passes import Pass, register_pass
from mlc.ir.rewrite import (
    GreedyConfig,
    PatternRewriter,
    PatternSet,
    RewritePattern,
    RewriterListener,
    apply_patterns_greedily,
)

_EXACT_FLOATS = ("f16", "f32", "f64")  # bf16 is stored as raw bits: no numpy arithmetic


def channel_axis(op: Operation) -> int | None:
    """The axis of `op`'s result whose index selects one row of its weight (conv2d
    NCHW/OIHW: 1, dense: the last), or None when `op` is neither."""
    if isinstance(op, Conv2DOp):
        values = op.values
        if values["data_layout"] == "NCHW" and values["kernel_layout"] == "OIHW":
            return 1
        return None
    if isinstance(op, DenseOp) and op.values["weight_layout"] == "NK":
        return op.results[0].type.rank - 1
    return None


def channel_scale(scale: np.ndarray, shape: tuple[int, ...], axis: int) -> np.ndarray | None:
    """`scale` as a vector (of 1 or shape[axis] elements) when it broadcasts against a
    tensor of `shape` along `axis` only and without enlarging it; else None."""
    if scale.ndim > len(shape):
        return None
    offset = len(shape) - scale.ndim
    for j, extent in enumerate(scale.shape):
        allowed = (1, shape[axis]) if offset + j == axis else (1,)
        if extent not in allowed:
            return None
    return scale.reshape(-1)


def _single_use(value: Value) -> bool:
    return len(value.uses) == 1


@dataclass
class _Match:
    """A multiply that folds: its anchor (conv2d/dense), the bias op between them if
    any, and the scale as a vector."""

    scale_value: Value
    scale: np.ndarray
    anchor: Operation
    bias_op: Operation | None
    weight_product: np.ndarray | None
    """The weight times the scale when the weight is a constant (else None)."""
    bias_product: np.ndarray | None
    """The bias times the scale when the bias is a constant (else None)."""


class FoldScaleIntoWeights(RewritePattern):
    """multiply(conv2d/dense(x, W) [+ b], s) -> conv2d/dense(x, W*s) [+ b*s], for a
    per-output-channel constant s."""

    root = "graph.multiply"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        match = None
        for i in (0, 1):
            match = self._match(op, op.operand(i), op.operand(1 - i))
            if match is not None:
                break
        if match is None:
            return rewriter.notify_match_failure(
                op, "not a per-channel constant scale of a single-use conv2d or dense")
        self._rewrite(op, match, rewriter)
        return True

    @staticmethod
    def _match(op: Operation, product: Value, scale_value: Value) -> _Match | None:
        scale = computable_array(scale_value)
        element = scale_value.type.element_type
        if scale is None or not isinstance(element, FloatType) or element.name not in _EXACT_FLOATS:
            return None
        if op.results[0].type != product.type or not _single_use(product):
            return None
        producer = product.defining_op
        bias_op = None
        if producer is not None and isinstance(producer, (AddOp, BiasAddOp)):
            bias_op, producer = producer, None
            if bias_op.results[0].type != product.type:
                return None
            # add is commutative: the conv2d/dense may be either operand.
            candidates = (0, 1) if isinstance(bias_op, AddOp) else (0,)
            for i in candidates:
                candidate = bias_op.operand(i)
                if candidate.type == product.type and _single_use(candidate) \
                        and candidate.defining_op is not None \
                        and channel_axis(candidate.defining_op) is not None:
                    producer = candidate.defining_op
                    break
        if producer is None:
            return None
        axis = channel_axis(producer)
        if axis is None:
            return None
        shape = producer.results[0].type.shape
        if isinstance(bias_op, BiasAddOp) \
                and bias_op.values["axis"] % len(shape) != axis:
            return None  # a bias along another axis does not commute with the scale
        if isinstance(bias_op, AddOp):
            # As TVM's AddSubBackwardPrep: the added operand must broadcast along the
            # channel axis only, so scaling it is folding a small constant, not moving
            # a full-size multiply onto another branch.
            other = bias_op.operand(1 if bias_op.operand(0) is producer.results[0] else 0)
            padded = (1,) * (len(shape) - other.type.rank) + other.type.shape
            if any(d != 1 for i, d in enumerate(padded) if i != axis):
                return None
        vector = channel_scale(scale, shape, axis)
        if vector is None or not np.all(np.isfinite(vector)):
            return None
        # Scaled constants must hold what the program computes: a weight scaled past
        # its type's range would be inf where conv2d(x, W)·s is finite (x = 0).
        weight = producer.operand(1)
        weight_product = _product(weight, vector.reshape((-1,) + (1,) * (weight.type.rank - 1)))
        if weight_product is False:
            return None
        bias_product = None
        if bias_op is not None:
            bias = bias_op.operand(1 if bias_op.operand(0) is producer.results[0] else 0)
            factor = (vector.reshape((-1,) + (1,) * (bias.type.rank - 1))
                      if isinstance(bias_op, BiasAddOp) else scale)
            bias_product = _product(bias, factor)
            if bias_product is False:
                return None
        return _Match(scale_value, vector, producer, bias_op, weight_product, bias_product)

    @staticmethod
    def _rewrite(op: Operation, match: _Match, rewriter: PatternRewriter) -> None:
        anchor, bias_op, vector = match.anchor, match.bias_op, match.scale
        # Everything the new ops read dominates the multiply, so they go before it.
        rewriter.set_insertion_point_before(op)
        data, weight = anchor.operands
        new_weight = _scaled(rewriter, weight, match.weight_product, vector,
                             match.scale_value, anchor.loc)
        new_anchor = type(anchor).create_from_flat([data, new_weight], dict(anchor.attributes),
                                                   anchor.result_types, anchor.loc)
        rewriter.insert(new_anchor)
        result = new_anchor.results[0]
        result.name_hint = anchor.results[0].name_hint
        bias = None
        if bias_op is not None:
            position = 1 if bias_op.operand(0) is anchor.results[0] else 0
            bias = bias_op.operand(position)
            new_bias = _scaled(rewriter, bias, match.bias_product,
                               vector if isinstance(bias_op, BiasAddOp) else None,
                               match.scale_value, bias_op.loc)
            operands = [result, new_bias] if position == 1 else [new_bias, result]
            new_op = type(bias_op).create_from_flat(operands, dict(bias_op.attributes),
                                                    bias_op.result_types, bias_op.loc)
            rewriter.insert(new_op)
            result = new_op.results[0]
        result.name_hint = op.results[0].name_hint
        rewriter.replace_op(op, [result])
        # The unscaled chain is dead now; so are constants nothing else reads.
        dead = [bias_op, anchor] if bias_op is not None else [anchor]
        for old in dead:
            rewriter.erase_op(old)
        for value in (weight, match.scale_value, bias):
            if value is not None:
                _erase_if_dead_constant(value, rewriter)


def _product(value: Value, factor: np.ndarray) -> np.ndarray | None | bool:
    """The constant `value` times `factor`, in float64 (inf · 0 is NaN, as the program
    computes it); None when `value` is not a constant (the product is then computed
    by graph ops at run time, as the program does); False when a finite element
    would leave its element type's range."""
    array = computable_array(value)
    if array is None:
        return None
    limit = float(np.finfo(element_dtype(value.type.element_type)).max)
    if array.dtype == factor.dtype:
        # Computed in their own type, as fast: the exact product of two f16 or f32
        # floats fits a float64, so this is it rounded once, as the float64 product
        # stored in that type is (an f64 product is the float64 one). Only where it
        # reaches the type's largest magnitude may the exact product be beyond it.
        with np.errstate(invalid="ignore", over="ignore"):
            product = array * factor
        edge = np.abs(product) >= limit
        if not edge.any():
            return product
    with np.errstate(invalid="ignore"):
        product = array.astype(np.float64) * factor.astype(np.float64)
    if np.any(np.isfinite(array) & (np.abs(product) > limit)):
        return False
    return product


def _scaled(rewriter: PatternRewriter, value: Value, product: np.ndarray | None,
            vector: np.ndarray | None, scale_value: Value, loc) -> Value:
    """`value` (a weight or a bias) scaled: its `product` with the scale as a constant
    when it has one; else graph ops multiplying it by the scale, each slice along its
    first axis by the matching element of `vector` (of 1 or as many elements), or
    by the scale as the multiply broadcast it when `vector` is None."""
    if product is not None:
        return _named(emit_constant(rewriter, product, value.type.element_type, loc), value)
    if vector is None:
        return emit(rewriter, "multiply", value, scale_value, loc=loc)
    shape = (vector.size,) + (1,) * (value.type.rank - 1)
    factor = emit(rewriter, "reshape", scale_value, shape=shape, loc=loc)
    return emit(rewriter, "multiply", value, factor, loc=loc)


def _named(value: Value, like: Value) -> Value:
    value.name_hint = like.name_hint
    return value


def _erase_if_dead_constant(value: Value, rewriter: PatternRewriter) -> None:
    producer = value.defining_op
    if isinstance(producer, ConstantOp) and producer.parent is not None and not value.uses:
        rewriter.erase_op(producer)


class _Counter(RewriterListener):
    def __init__(self):
        self.folded = 0

    def notify_op_replaced(self, op: Operation, values: Sequence[Value]) -> None:
        if isinstance(op, MultiplyOp):
            self.folded += 1


def fold_scale_axis(root: Operation) -> tuple[int, list[Diagnostic]]:
    """Fold the per-channel scales under `root` into weights: how many were folded,
    and the driver's diagnostics (a warning if it did not converge).

    The greedy driver (without folding) runs the pattern to a fixpoint, so a chain of
    scales folds one after the other, and a scale the rewrite itself emits (on a
    weight or bias that is not a constant) is looked at again. Like every greedy
    rewrite, it also erases the dead ops it meets."""
    counter = _Counter()
    result = apply_patterns_greedily(root, PatternSet([FoldScaleIntoWeights()]),
                                     GreedyConfig(fold=False), counter)
    return counter.folded, result.diagnostics


@register_pass("graph-fold-scale-axis", opt_level=3,
               summary="Fold per-output-channel constant scales into the weights of the "
                       "conv2d or dense producing the scaled tensor.",
               statistics=(("num-folded", "scales folded into weights"),))
class FoldScaleAxis(Pass):
    def run(self, op: Operation, run) -> None:
        folded, diagnostics = fold_scale_axis(op)
        self.statistics["num-folded"] += folded
        for diagnostic in diagnostics:
            run.emit(diagnostic)

