"""canonicalize: fold ops and apply the canonicalization patterns of every op of the
run's IR Context (its loaded dialects, as in MLIR) to a fixpoint."""

from __future__ import annotations

from dataclasses import dataclass

from mlc.ir.core.ir import Operation
from mlc.ir.dialect import OP_CLASSES_BY_NAME, Context
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.greedy import GreedyConfig, apply_patterns_greedily
from mlc.ir.rewrite.pattern import PatternSet


def canonicalization_patterns(ctx: Context | None = None) -> PatternSet:
    """The canonicalization patterns of every op of the dialects loaded in `ctx` (the
    pass uses its run's IR Context); without a context, of every op declared so far."""
    patterns = []
    ops = OP_CLASSES_BY_NAME if ctx is None else {
        name: cls for dialect in ctx.dialects.values() for name, cls in dialect.ops.items()}
    for name in sorted(ops):
        patterns.extend(ops[name].canonicalization_patterns())
    return PatternSet(patterns)


def canonicalization_pattern_names() -> list[str]:
    """The names of the canonicalization patterns of every installed dialect: the
    values canonicalize's enable-patterns and disable-patterns accept."""
    Context().load_all_available()  # declares their ops
    return [pattern.name for pattern in canonicalization_patterns()]


PATTERN_NAMES = "canonicalization pattern names (--list-patterns)"


@dataclass(frozen=True)
class CanonicalizeOptions:
    max_iterations: int = option(10, min=-1, config="canonicalize.max-iterations",
                                 doc="most sweeps over the IR; -1: until nothing changes")
    max_num_rewrites: int = option(-1, min=-1, doc="most rewrites; -1: no limit")
    top_down: bool = option(True, doc="visit ops top-down (else bottom-up)")
    fold: bool = option(True, doc="fold ops, besides applying patterns")
    enable_patterns: tuple[str, ...] = option((), choices=canonicalization_pattern_names,
                                              choices_name=PATTERN_NAMES,
                                              doc="apply only these patterns")
    disable_patterns: tuple[str, ...] = option((), choices=canonicalization_pattern_names,
                                               choices_name=PATTERN_NAMES,
                                               doc="never apply these patterns")
    test_convergence: bool = option(False, doc="fail if the rewrites did not converge")


@register_pass("canonicalize", opt_level=0, options=CanonicalizeOptions,
               summary="Fold ops and apply canonicalization patterns until nothing changes.",
               statistics=(("num-folds", "ops folded"),
                           ("num-patterns", "patterns applied"),
                           ("num-dead", "dead ops erased"),
                           ("num-iterations", "greedy iterations")))
class Canonicalize(Pass):
    def run(self, op: Operation, run) -> None:
        options = run.options
        patterns = canonicalization_patterns(run.ctx)
        if options.enable_patterns or options.disable_patterns:
            patterns = patterns.filtered(options.enable_patterns, options.disable_patterns)
        config = GreedyConfig(
            max_iterations=options.max_iterations,
            max_rewrites=None if options.max_num_rewrites < 0 else options.max_num_rewrites,
            top_down=options.top_down, fold=options.fold)
        result = apply_patterns_greedily(op, patterns, config)
        self.statistics["num-folds"] += result.folds + result.constants_deduplicated
        self.statistics["num-patterns"] += result.patterns_applied
        self.statistics["num-dead"] += result.dead_erased
        self.statistics["num-iterations"] += result.iterations
        for diagnostic in result.diagnostics:
            if options.test_convergence:
                diagnostic.severity = "error"
                raise PassFailure([diagnostic])
            run.emit(diagnostic)
