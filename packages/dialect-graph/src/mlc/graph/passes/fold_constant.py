"""graph-fold-constant: evaluate every graph op whose operands are all constants (or
that has none, as graph.range) and replace it by a constant (Relay's FoldConstant).

One sweep in program order suffices: an op's operands are defined before it, so by
the time the sweep reaches an op, every foldable producer has already become a
constant. Each op runs its own reference semantics (`GraphOp.evaluate`, the
interpreter's oracle) and the result is stored in the result type's dtype, exactly
as the interpreter stores it, so a folded module computes the same bits.

Memory. Weights are not copied to be read: `constant_array` gives read-only views of
dense and `dense_resource` elements. A producer whose last use was just folded is
erased at once, so intermediate constants do not pile up. An op whose result would
hold many more elements than its largest constant operand stores (broadcast_to or
tile of a small constant, `zeros + x` broadcasts) is left alone: folding it would
trade a cheap op at run time for a large tensor in the module
(`max-growth-elements`). Splats stay splats: an elementwise or broadcasting op on
splats is evaluated on one element of each, whatever the shape; any other op on a
large splat counts the splat's elements as growth, since numpy would expand it.

Undefined results. An op whose result the semantics leave undefined on these
constants (an integer division by zero, a gather index out of range, a float cast to
an integer it does not fit) is not folded: the folder does not invent a value the
program would not have. It is counted in `num-undefined`; the program is the user's
to fix, and running it (the interpreter) reports the op.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from mlc.graph.op_base import GraphOp, PatternKind, UndefinedResultError
from mlc.graph.ops.constant import ConstantOp, constant_array, stored_elements
from mlc.ir import DenseElementsAttr, Diagnostic, Operation, RankedTensorType
from mlc.ir.interfaces.infer_type import TypeInferenceError
from mlc.ir.passes import Pass, option, register_pass
from mlc.ir.rewrite import Rewriter

DEFAULT_MAX_GROWTH = 1 << 16  # elements: 256 KiB of f32


@dataclass(frozen=True)
class FoldConstantOptions:
    max_growth_elements: int = option(
        DEFAULT_MAX_GROWTH, min=0,
        doc="most elements a folded result may add beyond its largest constant operand")


@dataclass
class FoldReport:
    """What :func:`fold_constants` did."""

    folded: int = 0
    too_large: int = 0
    undefined: int = 0
    dead_constants: int = 0
    warnings: list[Diagnostic] = field(default_factory=list)


def _elements(types) -> int:
    return sum(math.prod(t.shape) for t in types)


def fold_constants(root: Operation, max_growth_elements: int = DEFAULT_MAX_GROWTH,
                   rewriter: Rewriter | None = None) -> FoldReport:
    """Fold the graph ops nested in `root` whose operands are all graph.constant."""
    rewriter = rewriter or Rewriter()
    report = FoldReport()
    for op in root.walk():
        if op is root or op.parent is None or not _foldable(op):
            continue
        producers = [operand.value.defining_op for operand in op.op_operands]
        try:
            outputs = _evaluate_splats(op, producers)
            if outputs is None:
                if _growth(op, producers) > max_growth_elements:
                    report.too_large += 1
                    continue
                outputs = _evaluate(op, producers, report.warnings.append)
        except UndefinedResultError:
            report.undefined += 1
            continue
        if outputs is None:
            continue
        rewriter.set_insertion_point_before(op)
        replacements = []
        for result, array in zip(op.results, outputs):
            constant = rewriter.create(ConstantOp, value=DenseElementsAttr.from_array(array, result.type),
                                       loc=op.loc)
            constant.results[0].name_hint = result.name_hint
            replacements.append(constant.results[0])
        rewriter.replace_op(op, replacements)
        report.folded += 1
        for producer in dict.fromkeys(producers):
            if producer.parent is not None and not any(r.uses for r in producer.results):
                rewriter.erase_op(producer)
                report.dead_constants += 1
    return report


def _growth(op: Operation, producers: list[Operation]) -> int:
    """How many more elements folding `op` computes than its operands store: the
    result's, or a splat operand's once numpy expands it, beyond the largest operand
    as stored (a splat stores one element)."""
    expanded = [_elements(op.result_types)]
    expanded += [_elements(p.result_types) for p in producers if stored_elements(p.value) == 1]
    return max(expanded) - max((stored_elements(p.value) for p in producers), default=0)


def _evaluate_splats(op: GraphOp, producers: list[Operation]) -> list[np.ndarray] | None:
    """The results of an op whose operands are all splats, as splats, so a splat of
    any size folds without being expanded: an op that copies elements gives the
    operands' one splat; an elementwise or broadcasting op is evaluated on one element
    of each operand (rank kept). None when the op is of another kind, an operand is
    not a splat (or they differ, for a copy), or the one-element problem does not
    give one-element results (an op whose attributes fix the result shape)."""
    values = [p.value for p in producers]
    if not all(isinstance(v, DenseElementsAttr) and v.is_splat() for v in values):
        return None
    if type(op).copies_elements:  # one splat in, the same splat out, at any shape
        element, element_type = values[0].splat_element(), values[0].type.element_type
        if any(v.type.element_type != element_type or v.splat_element().tobytes() != element.tobytes()
               for v in values) or any(r.type.element_type != element_type for r in op.results):
            return None
        return [np.broadcast_to(element, r.type.shape) for r in op.results]
    if type(op).pattern_of(op) not in (PatternKind.ELEMWISE, PatternKind.BROADCAST):
        return None
    ones = [RankedTensorType((1,) * v.type.rank, v.type.element_type) for v in values]
    try:
        inferred = type(op).infer_result_types(ones, op.attributes)
    except TypeInferenceError:  # the op refuses the one-element problem
        return None
    if any(math.prod(t.shape) != 1 for t in inferred):
        return None
    inputs = [v.array[(slice(0, 1),) * v.type.rank] for v in values]
    try:
        outputs = [np.asarray(r) for r in op.evaluate(inputs)]
    except NotImplementedError:
        return None
    if len(outputs) != len(op.results) or any(r.size != 1 for r in outputs):
        return None
    return [np.broadcast_to(r.reshape(()), result.type.shape) for r, result in zip(outputs, op.results)]


def _foldable(op: Operation) -> bool:
    # An op without operands (graph.range) is computed from its attributes alone.
    if not isinstance(op, GraphOp) or isinstance(op, ConstantOp):
        return False
    if not all(isinstance(t, RankedTensorType) for t in op.result_types):
        return False
    return all(isinstance(o.value.defining_op, ConstantOp) for o in op.op_operands)


def _evaluate(op: GraphOp, producers: list[Operation],
              warn: Callable[[Diagnostic], None]) -> list[np.ndarray] | None:
    """The op's results on its constant operands, or None (and why, when it is
    something the user should hear about) if it cannot be computed."""
    try:
        inputs = [constant_array(p.value) for p in producers]
    except ValueError as exc:  # a dense_resource whose blob is missing
        warn(Diagnostic("warning", f"graph-fold-constant: not folded: {exc}", op.loc))
        return None
    # evaluate() computes what the program would at run time, inf and NaN included,
    # and raises UndefinedResultError where there is nothing to compute.
    try:
        outputs = [np.asarray(v) for v in op.evaluate(inputs)]
    except NotImplementedError:
        return None
    for result, array in zip(op.results, outputs):
        if array.shape != result.type.shape:
            warn(Diagnostic("warning", f"graph-fold-constant: not folded: '{op.name}' computed "
                            f"shape {list(array.shape)}, its result type is {result.type}", op.loc))
            return None
    if len(outputs) != len(op.results):
        return None
    return outputs


@register_pass("graph-fold-constant", opt_level=2, options=FoldConstantOptions,
               summary="Evaluate graph ops whose operands are all constants and replace them "
                       "by constants (skipping results much larger than their inputs).",
               statistics=(("num-folded", "ops folded into constants"),
                           ("num-too-large", "ops not folded: result larger than "
                                             "max-growth-elements beyond the inputs"),
                           ("num-undefined", "ops not folded: their result is undefined on "
                                             "these constants"),
                           ("num-dead-constants", "constants erased once their last use folded")))
class FoldConstant(Pass):
    def run(self, op: Operation, run) -> None:
        report = fold_constants(op, run.options.max_growth_elements)
        self.statistics["num-folded"] += report.folded
        self.statistics["num-too-large"] += report.too_large
        self.statistics["num-undefined"] += report.undefined
        self.statistics["num-dead-constants"] += report.dead_constants
        for warning in report.warnings:
            run.emit(warning)
