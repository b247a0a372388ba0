"""Ops over tensors without elements, whose results are known without them: a sum
over no elements is 0, a product 1, a mean NaN (0/0, floats only), whatever the
operand; a concat's operands of extent 0 along its axis add nothing and are dropped,
and so are a split's empty sections;
an op whose results hold no element is an empty constant.

Kernels compute nothing for an empty tensor, so these are also what lets such a
program run natively (a ReduceSum over an empty axis, a rotary embedding rotating
none of its channels).
"""

from __future__ import annotations

import numpy as np

from mlc.graph.dialect import graph
from mlc.graph.op_base import GraphOp
from mlc.graph.ops.constant import ConstantOp
from mlc.graph.ops.reduce import MeanOp, ProdOp, SumOp
from mlc.graph.ops.transform import ConcatOp, SplitOp
from mlc.ir import FloatType, Operation, RankedTensorType, element_dtype
from mlc.ir.rewrite import PatternRewriter, RewritePattern

# What a reduction over no elements gives (None: nothing defined for integers).
_EMPTY_VALUE = {SumOp: 0, ProdOp: 1, MeanOp: None}


class EmptyReduction(RewritePattern):
    """sum/prod/mean over an axis of extent 0, with elements in the result -> the
    constant they all are."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        x, result = op.operands[0], op.results[0].type
        axes = type(op).reduced_axes(x.type.rank, op.values)
        if not any(x.type.shape[a] == 0 for a in axes) or 0 in result.shape:
            return False
        element = result.element_type
        value = _EMPTY_VALUE[type(op)]
        if value is None:
            if not isinstance(element, FloatType):
                return False
            value = np.nan
        from mlc.graph.builder import emit_constant  # the builder imports the ops, and so this

        rewriter.set_insertion_point_before(op)
        constant = emit_constant(rewriter, np.full(result.shape, value, element_dtype(element)),
                                 element, op.loc)
        rewriter.replace_op(op, [constant])
        return True


class EmptyResults(RewritePattern):
    """A graph op all of whose results hold no element -> empty constants (nothing to
    compute, and its operands may then go)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        if not isinstance(op, GraphOp) or isinstance(op, ConstantOp) or not op.results:
            return False
        types = [r.type for r in op.results]
        if not all(isinstance(t, RankedTensorType) and 0 in t.shape for t in types):
            return False
        from mlc.graph.builder import emit_constant  # the builder imports the ops, and so this

        rewriter.set_insertion_point_before(op)
        rewriter.replace_op(op, [emit_constant(rewriter, np.zeros(t.shape, _storage(t)),
                                               t.element_type, op.loc) for t in types])
        return True


class SplitDropsEmpty(RewritePattern):
    """split(x, sections with zeros) -> the split into the other sections (x itself when
    one is left), the empty results empty constants."""

    root = SplitOp
    name = "SplitDropsEmpty"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        results = list(op.results)
        axis = op.values["axis"] % op.operands[0].type.rank
        kept = [r for r in results if r.type.shape[axis] != 0]
        if len(kept) == len(results) or not kept:
            return False
        from mlc.graph.builder import emit_constant, make_op  # the builder imports the ops

        rewriter.set_insertion_point_before(op)
        if len(kept) == 1:
            parts = [op.operands[0]]
        else:
            split = rewriter.insert(make_op("split", op.operands[0], axis=axis, loc=op.loc,
                                            sections=[r.type.shape[axis] for r in kept]))
            parts = list(split.results)
        replacements = []
        for result in results:
            if result.type.shape[axis] != 0:
                replacements.append(parts.pop(0))
            else:
                replacements.append(emit_constant(rewriter, np.zeros(result.type.shape,
                                                                     _storage(result.type)),
                                                  result.type.element_type, op.loc))
        rewriter.replace_op(op, replacements)
        return True


def _storage(type_: RankedTensorType) -> np.dtype:
    try:
        return element_dtype(type_.element_type)
    except (KeyError, ValueError, TypeError):
        return np.dtype(np.float32)  # no elements: the dtype only has to exist


class ConcatDropsEmpty(RewritePattern):
    """concat(a, <extent 0 along the axis>, b) -> concat(a, b), or the one operand left."""

    root = ConcatOp
    name = "ConcatDropsEmpty"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        axis = op.values["axis"] % op.results[0].type.rank
        kept = [v for v in op.operands if v.type.shape[axis] != 0]
        if len(kept) == len(op.operands) or not kept:
            return False
        if len(kept) == 1:
            rewriter.replace_op(op, [kept[0]])
            return True
        from mlc.graph.builder import emit  # the builder imports the ops, and so this

        rewriter.set_insertion_point_before(op)
        rewriter.replace_op(op, [emit(rewriter, "concat", kept, axis=axis, loc=op.loc)])
        return True


# One pattern per reduction, named after it (EmptySum, ...).
PATTERNS: list = [
    *(type(f"Empty{op.op_def.short_name.title()}", (EmptyReduction,), {"root": op})()
      for op in _EMPTY_VALUE),
    ConcatDropsEmpty(),
    SplitDropsEmpty(),
    EmptyResults(),
]

graph.add_canonicalization_patterns(PATTERNS)
