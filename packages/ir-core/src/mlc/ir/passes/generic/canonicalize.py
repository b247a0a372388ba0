"""canonicalize: fold and apply every op's canonicalization patterns to a fixpoint."""

from __future__ import annotations

from dataclasses import dataclass

from mlc.ir.core.ir import Operation
from mlc.ir.dialect import OP_CLASSES_BY_NAME
from mlc.ir.passes.context import register_config
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.greedy import GreedyConfig, apply_patterns_greedily
from mlc.ir.rewrite.pattern import PatternSet

register_config("canonicalize.max-iterations", int, 10,
                "default for canonicalize's max-iterations option")


def canonicalization_patterns() -> PatternSet:
    """The canonicalization patterns of every declared op, by root op name."""
    patterns = []
    for name in sorted(OP_CLASSES_BY_NAME):
        patterns.extend(OP_CLASSES_BY_NAME[name].canonicalization_patterns())
    return PatternSet(patterns)


@dataclass(frozen=True)
class CanonicalizeOptions:
    max_iterations: int = 10
    max_num_rewrites: int = -1
    top_down: bool = True
    fold: bool = True
    enable_patterns: tuple = ()
    disable_patterns: tuple = ()
    test_convergence: bool = False


@register_pass("canonicalize", opt_level=0, options=CanonicalizeOptions,
               summary="Fold ops and apply canonicalization patterns until nothing changes.",
               statistics=(("num-folds", "ops folded"),
                           ("num-patterns", "patterns applied"),
                           ("num-dead", "dead ops erased"),
                           ("num-iterations", "greedy iterations")))
class Canonicalize(Pass):
    def run(self, op: Operation, run) -> None:
        options = self.options
        max_iterations = options.max_iterations
        configured = run.context.config.get("canonicalize.max-iterations")
        if configured is not None and max_iterations == CanonicalizeOptions.max_iterations:
            max_iterations = configured  # the PassContext sets the default
        patterns = canonicalization_patterns()
        if options.enable_patterns or options.disable_patterns:
            patterns = patterns.filtered(options.enable_patterns, options.disable_patterns)
        config = GreedyConfig(
            max_iterations=max_iterations,
            max_rewrites=None if options.max_num_rewrites < 0 else options.max_num_rewrites,
            top_down=options.top_down, fold=options.fold)
        result = apply_patterns_greedily(op, patterns, config)
        self.statistics["num-folds"] += result.folds + result.constants_deduplicated
        self.statistics["num-patterns"] += result.patterns_applied
        self.statistics["num-dead"] += result.dead_erased
        self.statistics["num-iterations"] += result.iterations
        for diagnostic in result.diagnostics:
            if options.test_convergence:
                from mlc.ir.passes.registry import PassFailure

                diagnostic.severity = "error"
                raise PassFailure([diagnostic])
            run.emit(diagnostic)
