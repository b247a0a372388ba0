"""Running pipelines: the pass manager.

Before anything runs, it checks that the pipeline's anchor is the op it is given
(`func.func(cse)` cannot run on a module) and loads the dialects the passes create into
the IR Context. For each pass it consults the PassContext (disabled > required > opt
level), runs the pass's prerequisites (`PassInfo.required`) first, checks that the op
has the traits the pass needs, resolves the pass's options (given > config > default),
calls the instruments around it, verifies the IR after it (verify-each, naming the
pass on failure), and invalidates cached analyses the pass does not preserve. A nested
pipeline `func.func(...)` runs on each such op directly inside the current one, except
those marked `mlc.skip_optimization`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mlc.ir.core.dialect_registry import Context
from mlc.ir.core.gc_pause import gc_paused
from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic, DiagnosticError
from mlc.ir.opdef.traits import IsolatedFromAbove
from mlc.ir.passes.analysis_manager import AnalysisManager
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.pipeline import PipelineNode, anchor_problem
from mlc.ir.passes.registry import PASSES, Pass, PassFailure

SKIP_OPTIMIZATION_ATTR = "mlc.skip_optimization"


class PassRun:
    """What a running pass can ask of the manager: the options of this run, the IR
    Context (`ctx`: loaded dialects, for looking up ops and dialects), the PassContext,
    cached analyses, and a place for warnings and remarks."""

    def __init__(self, manager: PassManager, pass_: Pass, op: Operation, options: Any):
        self.manager = manager
        self.pass_ = pass_
        self.op = op
        self.options = options
        self.preserve_all = False
        self.diagnostics: list[Diagnostic] = []

    @property
    def ctx(self) -> Context:
        """The IR Context of the module being transformed."""
        return self.manager.ctx

    @property
    def pass_context(self) -> PassContext:
        """The PassContext the pipeline runs under."""
        return self.manager.pass_context

    def get_analysis(self, cls: type, op: Operation | None = None):
        """The analysis `cls` of `op` (default: the op the pass runs on), cached."""
        return self.manager.analyses.get(cls, op if op is not None else self.op)

    def mark_all_analyses_preserved(self) -> None:
        """Keep every cached analysis after this run (the pass changed nothing)."""
        self.preserve_all = True

    def emit(self, diagnostic: Diagnostic) -> None:
        """Report a warning or remark (errors: raise PassFailure)."""
        self.diagnostics.append(diagnostic)


@dataclass
class PipelineResult:
    """The outcome of a pipeline run."""

    success: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)


class PassManager:
    """Runs a pipeline on a module. `ctx` is the module's IR Context (default: one
    holding the dialects of the module's ops)."""

    def __init__(self, pipeline: PipelineNode, verify_each: bool = True, ctx: Context | None = None):
        self.pipeline = pipeline
        self.verify_each = verify_each
        self.given_ctx = ctx
        self.ctx = ctx
        self.pass_context = PassContext.current()
        self.analyses = AnalysisManager()
        self.diagnostics: list[Diagnostic] = []
        self._ran: dict[int, set[str]] = {}

    def run(self, module: Operation) -> PipelineResult:
        """Run the pipeline under the current PassContext; failures come back as
        diagnostics, the module as far as the pipeline got."""
        self.diagnostics = []
        self.pass_context = PassContext.current()
        self.ctx = self.given_ctx if self.given_ctx is not None else context_of(module)
        for pass_ in self.pipeline.passes():
            for dialect in pass_.info.dialects:
                self.ctx.load(dialect)
        try:
            if self.pipeline.anchor is not None and module.name != self.pipeline.anchor:
                self._fail(f"can't run '{self.pipeline.anchor}' pass manager on "
                           f"'{module.name}' op", self.pipeline.loc or module.loc)
            with gc_paused():
                self._run_node(self.pipeline, module)
        except _Failed:
            return PipelineResult(False, self.diagnostics)
        return PipelineResult(True, self.diagnostics)

    # ------------------------------------------------------------------ internals

    def _fail(self, message: str, loc, note: tuple[str, Any] | None = None) -> None:
        diagnostic = Diagnostic("error", message, loc)
        if note is not None and note[1] is not None:
            diagnostic.add_note(*note)
        self.diagnostics.append(diagnostic)
        raise _Failed

    def _run_node(self, node: PipelineNode, op: Operation) -> None:
        for element in node.elements:
            if isinstance(element, PipelineNode):
                for child in self._nested_ops(op, element.anchor):
                    if not (child.op_def is None or child.has_trait(IsolatedFromAbove)):
                        if element.anchor is None:
                            continue  # any(...) runs on isolated ops only
                        self._fail(f"'{child.name}' op trying to schedule a pass on an "
                                   "operation not marked as 'IsolatedFromAbove'", child.loc)
                    self._run_node(element, child)
            else:
                self._run_pass(element, op)

    @staticmethod
    def _nested_ops(op: Operation, anchor: str | None) -> list[Operation]:
        ops = []
        for region in op.regions:
            for child in region.ops():
                if (anchor is None or child.name == anchor) and \
                        SKIP_OPTIMIZATION_ATTR not in child.attributes:
                    ops.append(child)
        return ops

    def _run_pass(self, pass_: Pass, op: Operation, as_prerequisite: bool = False) -> None:
        instruments = self.pass_context.instruments
        enabled, reason = self.pass_context.pass_enabled(pass_.info)
        if enabled:
            for instrument in instruments:
                if not instrument.should_run(pass_, op):
                    enabled, reason = False, "an instrument declined"
                    break
        if not enabled:
            for instrument in instruments:
                instrument.run_skipped(pass_, op, reason)
            return
        problem = anchor_problem(pass_, op.name, op.op_def.trait_set if op.op_def else ())
        if problem:
            self._fail(problem, op.loc, ("the pass is scheduled here", pass_.loc))
        ran = self._ran.setdefault(id(op), set())
        for name in pass_.info.required:
            if name not in ran:
                prerequisite = PASSES[name]()
                self._run_pass(prerequisite, op, as_prerequisite=True)
        for instrument in instruments:
            instrument.run_before_pass(pass_, op)
        run = PassRun(self, pass_, op, pass_.resolve_options(self.pass_context))
        try:
            pass_.run(op, run)
        except PassFailure as failure:
            self.diagnostics.extend(run.diagnostics)
            self.diagnostics.extend(failure.diagnostics or [Diagnostic(
                "error", f"pass '{pass_.name}' failed", op.loc)])
            for instrument in instruments:
                instrument.run_after_pass_failed(pass_, op)
            raise _Failed from None
        except DiagnosticError as failure:
            self.diagnostics.extend(run.diagnostics)
            self.diagnostics.extend(failure.diagnostics)
            for instrument in instruments:
                instrument.run_after_pass_failed(pass_, op)
            raise _Failed from None
        self.diagnostics.extend(run.diagnostics)
        ran.add(pass_.name)
        if not run.preserve_all:
            self.analyses.invalidate(pass_.preserves)
        if self.verify_each:
            from mlc.ir.verify.verifier import Verifier

            problems = Verifier().verify(op)
            if problems:
                self.diagnostics.append(Diagnostic(
                    "error", f"verification failed after running pass '{pass_.name}'", op.loc))
                self.diagnostics.extend(problems)
                for instrument in instruments:
                    instrument.run_after_pass_failed(pass_, op)
                raise _Failed
        try:
            for instrument in instruments:
                instrument.run_after_pass(pass_, op)
        except PassFailure as failure:  # an instrument that checks (--check-semantics)
            self.diagnostics.extend(failure.diagnostics)
            raise _Failed from None


class _Failed(Exception):
    pass


def context_of(module: Operation) -> Context:
    """An IR Context holding the dialects of the ops in `module` (accepting
    unregistered ops if it has some): for modules built without one."""
    ctx = Context()
    for op in module.walk():
        op_def = op.op_def
        if op_def is None:
            ctx.allow_unregistered = True
        elif op_def.dialect is not None:
            ctx.load(op_def.dialect)
    return ctx


def run_pipeline(module: Operation, pipeline: str | PipelineNode, verify_each: bool = True,
                 ctx: Context | None = None) -> PipelineResult:
    """Parse (if needed) and run a pipeline under the current PassContext; `ctx` is the
    module's IR Context (default: see :func:`context_of`)."""
    from mlc.ir.passes.pipeline import parse_pipeline

    node = parse_pipeline(pipeline, ctx) if isinstance(pipeline, str) else pipeline
    return PassManager(node, verify_each, ctx).run(module)
