"""graph-simplify-inference: rewrite training-time ops into their inference form
(Relay's SimplifyInference).

- batch_norm becomes `data * scale + shift`, with per-channel
  `scale = gamma / sqrt(moving_var + epsilon)` and `shift = beta - moving_mean * scale`,
  both computed by graph ops on the batch_norm's own operands (reshaped to broadcast
  along its axis). With constant statistics, graph-fold-constant turns them into two
  constants, and graph-fold-scale-axis can then move `scale` into a conv2d's weights.
- dropout is the identity.

layer_norm stays one op: its statistics depend on the data, so splitting it gains
nothing here (fusion and lowering handle it whole).

The rewrites are local, so one walk applies them (no fixpoint needed: nothing they
create matches again).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from mlc.graph.builder import emit, emit_constant
from mlc.ir import Operation, Value
from mlc.ir.passes import Pass, register_pass
from mlc.ir.rewrite import (
    Dag,
    DagPattern,
    PatternRewriter,
    PatternSet,
    RewritePattern,
    RewriterListener,
    V,
    apply_patterns_once,
)


def channel_shape(channels: int, axis: int, rank: int) -> tuple[int, ...]:
    """The shape that broadcasts a vector of `channels` along `axis` of a rank-`rank`
    tensor: (C, 1, ..., 1) with one 1 per later axis."""
    return (channels,) + (1,) * (rank - axis - 1)


class BatchNormToScaleShift(RewritePattern):
    """batch_norm(x, gamma, beta, mean, var) -> x * scale + shift, with
    scale = gamma / sqrt(var + epsilon) and shift = beta - mean * scale per channel."""

    root = "graph.batch_norm"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        data, gamma, beta, mean, var = op.operands
        values = op.values
        rank = data.type.rank
        axis = values["axis"] % rank
        element = data.type.element_type
        loc = op.loc
        rewriter.set_insertion_point_before(op)
        epsilon = emit_constant(rewriter, np.asarray(values["epsilon"]), element, loc)
        scale = emit(rewriter, "divide", gamma,
                     emit(rewriter, "sqrt", emit(rewriter, "add", var, epsilon, loc=loc), loc=loc),
                     loc=loc)
        shift = emit(rewriter, "subtract", beta, emit(rewriter, "multiply", mean, scale, loc=loc),
                     loc=loc)
        if axis != rank - 1:
            shape = channel_shape(data.type.shape[axis], axis, rank)
            scale = emit(rewriter, "reshape", scale, shape=shape, loc=loc)
            shift = emit(rewriter, "reshape", shift, shape=shape, loc=loc)
        result = emit(rewriter, "add", emit(rewriter, "multiply", data, scale, loc=loc), shift,
                      loc=loc)
        result.name_hint = op.results[0].name_hint
        rewriter.replace_op(op, [result])
        return True


PATTERNS = [
    BatchNormToScaleShift(),
    DagPattern("DropoutIsIdentity", Dag("graph.dropout", V("x")), V("x"),
               doc="dropout(x) -> x: nothing is dropped at inference"),
]


class _Counter(RewriterListener):
    def __init__(self):
        self.replaced: Counter[str] = Counter()

    def notify_op_replaced(self, op: Operation, values: Sequence[Value]) -> None:
        self.replaced[op.name] += 1


def simplify_inference(root: Operation) -> Counter[str]:
    """Apply the rewrites under `root`; how many ops of each name were replaced."""
    counter = _Counter()
    apply_patterns_once(root, PatternSet(PATTERNS), counter)
    return counter.replaced


@register_pass("graph-simplify-inference", opt_level=0,
               summary="Rewrite batch_norm into a per-channel multiply and add, and drop "
                       "dropout (inference forms).",
               statistics=(("num-batch-norms", "batch_norm ops rewritten"),
                           ("num-dropouts", "dropout ops removed")))
class SimplifyInference(Pass):
    def run(self, op: Operation, run) -> None:
        replaced = simplify_inference(op)
        self.statistics["num-batch-norms"] += replaced["graph.batch_norm"]
        self.statistics["num-dropouts"] += replaced["graph.dropout"]
