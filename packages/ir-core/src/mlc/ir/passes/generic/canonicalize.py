"""canonicalize: fold and apply the dialects' canonicalization patterns to a fixpoint.

The patterns come from a Context: the one given, or, when the pass runs, one holding
the dialects of the ops it canonicalizes (IR does not carry the Context it was parsed
with). Each dialect registers its patterns where they are defined
(`Dialect.add_canonicalization_patterns`).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlc.ir.core.ir import Operation
from mlc.ir.dialect import Context, Dialect
from mlc.ir.passes.context import register_config
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.greedy import GreedyConfig, apply_patterns_greedily
from mlc.ir.rewrite.pattern import PatternSet

register_config("canonicalize.max-iterations", int, 10,
                "default for canonicalize's max-iterations option")


def canonicalization_patterns(context: Context) -> PatternSet:
    """The canonicalization patterns of every dialect loaded in `context`."""
    return PatternSet(context.canonicalization_patterns())


def dialects_under(root: Operation) -> list[Dialect]:
    """The dialects of the registered ops nested in `root`, by name."""
    found: dict[str, Dialect] = {}
    for op in root.walk():
        op_def = op.op_def
        if op_def is not None and op_def.dialect is not None:
            found.setdefault(op_def.dialect.name, op_def.dialect)
    return [found[name] for name in sorted(found)]


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
    def __init__(self, options=None):
        super().__init__(options)
        self._patterns: dict[tuple[Dialect, ...], PatternSet] = {}

    def _patterns_for(self, op: Operation) -> PatternSet:
        dialects = tuple(dialects_under(op))
        patterns = self._patterns.get(dialects)
        if patterns is None:
            patterns = canonicalization_patterns(Context(dialects, load_on_demand=False))
            options = self.options
            if options.enable_patterns or options.disable_patterns:
                patterns = patterns.filtered(options.enable_patterns, options.disable_patterns)
            self._patterns[dialects] = patterns
        return patterns

    def run(self, op: Operation, run) -> None:
        options = self.options
        max_iterations = options.max_iterations
        configured = run.context.config.get("canonicalize.max-iterations")
        if configured is not None and max_iterations == CanonicalizeOptions.max_iterations:
            max_iterations = configured  # the PassContext sets the default
        patterns = self._patterns_for(op)
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
