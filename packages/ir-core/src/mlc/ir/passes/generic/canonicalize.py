"""canonicalize: fold ops and apply the canonicalization patterns of the dialects loaded
in the run's IR Context (as in MLIR) to a fixpoint. Each dialect registers its patterns
where they are defined (`Dialect.add_canonicalization_patterns`)."""

from __future__ import annotations

from dataclasses import dataclass

from mlc.ir.core.dialect_registry import Context
from mlc.ir.core.ir import Operation
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.greedy import GreedyConfig, apply_patterns_greedily
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.rewrite.region_simplify import LEVELS


def canonicalization_patterns(ctx: Context) -> PatternSet:
    """The canonicalization patterns of every dialect loaded in `ctx`."""
    return PatternSet(ctx.canonicalization_patterns())


def canonicalization_pattern_names() -> list[str]:
    """The names of the canonicalization patterns of every installed dialect: the
    values canonicalize's enable-patterns and disable-patterns accept."""
    ctx = Context()
    ctx.load_all_available()
    return [pattern.name for pattern in ctx.canonicalization_patterns()]


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
    region_simplify: str = option("normal", choices=LEVELS,
                                  doc="after each sweep, simplify the regions: normal erases "
                                  "unreachable blocks and dead code (block arguments too), "
                                  "aggressive also merges identical blocks; disabled only "
                                  "erases unreachable blocks (as mlir-opt-22)")


@register_pass("canonicalize", opt_level=0, options=CanonicalizeOptions,
               summary="Fold ops and apply canonicalization patterns until nothing changes.",
               statistics=(("num-folds", "ops folded"),
                           ("num-patterns", "patterns applied"),
                           ("num-dead", "dead ops erased"),
                           ("num-iterations", "greedy iterations")))
class Canonicalize(Pass):
    def __init__(self, **given):
        super().__init__(**given)
        # The pattern set of a Context and its loaded dialects: a pass anchored on each
        # function runs once per function, and indexing the patterns is not free.
        self._patterns: dict[tuple[int, int], tuple[Context, PatternSet]] = {}

    def _patterns_for(self, ctx: Context, options) -> PatternSet:
        key = (id(ctx), len(ctx.dialects))
        cached = self._patterns.get(key)
        if cached is None or cached[0] is not ctx:
            patterns = canonicalization_patterns(ctx)
            if options.enable_patterns or options.disable_patterns:
                patterns = patterns.filtered(options.enable_patterns, options.disable_patterns)
            cached = self._patterns[key] = (ctx, patterns)
        return cached[1]

    def run(self, op: Operation, run) -> None:
        options = run.options
        patterns = self._patterns_for(run.ctx, options)
        config = GreedyConfig(
            max_iterations=options.max_iterations,
            max_rewrites=None if options.max_num_rewrites < 0 else options.max_num_rewrites,
            top_down=options.top_down, fold=options.fold,
            region_simplify=options.region_simplify)
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
