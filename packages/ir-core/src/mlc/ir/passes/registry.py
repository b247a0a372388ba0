"""Declaring passes and named pipelines; the registries mlc-opt reads.

    @register_pass("symbol-dce", opt_level=1, op_traits=(SymbolTable,),
                   summary="Erase the symbols nothing live references.")
    class SymbolDCE(Pass):
        def run(self, op, run): ...

A pass's options are a dataclass (see :mod:`mlc.ir.passes.options`); a pass object
records the options given to it (`given`), and each run resolves the rest from the
PassContext or the defaults (`run.options`). A pass runs on any op, or on ops of one
name (`anchor`), and may need traits of that op (`op_traits`: symbol-dce needs a
symbol table); the pipeline parser and the pass manager enforce both. Its
statistics are counters it declares by name; `dialects` names the dialects whose ops
it creates, loaded into the run's IR Context before the pipeline starts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from mlc.ir.core.attributes import Location
from mlc.ir.core.ir import Operation
from mlc.ir.opdef.traits import Trait
from mlc.ir.passes.context import ConfigKey, PassContext, register_config_key
from mlc.ir.passes.options import (
    OptionError,
    PassOption,
    declared_options,
    did_you_mean,
    format_value,
    resolve_options,
)


@dataclass(frozen=True)
class NoOptions:
    """Options of a pass that has none."""


@dataclass(frozen=True)
class PassInfo:
    """What the pass manager knows about a pass."""

    name: str
    opt_level: int = 0
    required: tuple[str, ...] = ()
    summary: str = ""
    options: type = NoOptions
    anchor: str | None = None  # op name the pass runs on; None: any op
    statistics: tuple[tuple[str, str], ...] = ()
    op_traits: tuple[Trait, ...] = ()  # what the op it runs on must have
    dialects: tuple[str, ...] = ()  # dialects whose ops it creates
    option_specs: tuple[PassOption, ...] = field(default=(), compare=False)

    def option(self, name: str) -> PassOption | None:
        """The option spelled `name` (`max-depth`) or named by its field (`max_depth`)."""
        for spec in self.option_specs:
            if name in (spec.name, spec.field):
                return spec
        return None

    def unknown_option_message(self, name: str) -> str:
        """What a pipeline naming an option the pass does not have is told."""
        known = ", ".join(spec.name for spec in self.option_specs) or "none"
        return f"pass '{self.name}' has no option '{name}' (options: {known})"

    def runs_on(self) -> str:
        """`'func.func' ops`, `ops with SymbolTable`, `any op`: for messages and listings."""
        if self.anchor is not None:
            return f"'{self.anchor}' ops"
        if self.op_traits:
            return "ops with " + ", ".join(t.name for t in self.op_traits)
        return "any op"


class PassFailure(Exception):
    """Raised by a pass that cannot complete; the diagnostics say why."""

    def __init__(self, diagnostics=()):
        super().__init__("pass failed")
        self.diagnostics = list(diagnostics)


class Pass:
    """Base of passes. `run(op, run)` transforms `op` (the anchor op) in place;
    `run` is the :class:`~mlc.ir.passes.manager.PassRun` giving the options of this
    run, analyses, the IR and pass contexts, and diagnostics.

    `Pass(**given)` takes options by field name (`FuseOps(max_depth=8)`), checked
    against their declared types and domains (OptionError otherwise)."""

    info: ClassVar[PassInfo]
    preserves: ClassVar[tuple[type, ...]] = ()

    def __init__(self, **given: Any):
        self.given: dict[str, Any] = {}
        for key, value in given.items():
            spec = self.info.option(key)
            if spec is None:
                raise OptionError(self.info.unknown_option_message(key))
            try:
                self.given[spec.field] = spec.check(value)
            except OptionError as exc:
                raise OptionError(f"invalid value for option '{spec.name}' of '{self.name}': "
                                  f"{exc}") from None
        self.statistics: Counter[str] = Counter()
        self.loc: Location | None = None  # where a parsed pipeline names this pass

    def run(self, op: Operation, run) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def name(self) -> str:
        return self.info.name

    def resolve_options(self, pass_context: PassContext | None = None) -> Any:
        """The options a run under `pass_context` (default: the current one) uses: the
        given ones, then the context's config keys (or opt level), then the defaults."""
        return resolve_options(self.info.options, self.info.option_specs, self.given,
                               pass_context or PassContext.current())

    def pipeline_text(self, pass_context: PassContext | None = None) -> str:
        """`name{opt=value ...}` with every option as a run under `pass_context` uses
        it, as --dump-pass-pipeline shows it."""
        if not self.info.option_specs:
            return self.name
        options = self.resolve_options(pass_context)
        parts = [f"{spec.name}={format_value(getattr(options, spec.field))}"
                 for spec in self.info.option_specs]
        return f"{self.name}{{{' '.join(parts)}}}"


PASSES: dict[str, type[Pass]] = {}
PIPELINES: dict[str, tuple[str, str]] = {}  # name -> (pipeline text, summary)


def register_pass(name: str, *, opt_level: int = 0, summary: str = "", options: type = NoOptions,
                  anchor: str | None = None, required: tuple[str, ...] = (),
                  statistics: tuple[tuple[str, str], ...] = (), op_traits: tuple[Trait, ...] = (),
                  dialects: tuple[str, ...] = ()) -> Callable[[type[Pass]], type[Pass]]:
    """Class decorator registering a pass under `name` (see the module docstring); the
    config keys its options name are registered with it."""

    def register(cls: type[Pass]) -> type[Pass]:
        if name in PASSES and PASSES[name] is not cls:
            raise ValueError(f"a pass named '{name}' is already registered")
        specs = declared_options(options)
        for spec in specs:
            if spec.config is not None:
                register_config_key(ConfigKey(spec.config, spec.kind, spec.default,
                                              spec.doc or f"default of {name}'s {spec.name}",
                                              spec.domain))
        cls.info = PassInfo(name, opt_level, tuple(required), summary, options, anchor,
                            tuple(statistics), tuple(op_traits), tuple(dialects), specs)
        PASSES[name] = cls
        return cls

    return register


def register_pipeline(name: str, pipeline: str, summary: str = "") -> None:
    """A named pipeline, usable in a pipeline string like a pass."""
    PIPELINES[name] = (pipeline, summary)


def unknown_pass_message(name: str) -> str:
    """MLIR's words for a name that is no pass or pipeline, with the closest names."""
    return (f"'{name}' does not refer to a registered pass or pass pipeline"
            f"{did_you_mean(name, [*PASSES, *PIPELINES])}")


_PLUGINS_LOADED = False


def load_pass_plugins(name: str | None = None) -> None:
    """Register the core passes, and the passes of every package's `mlc.passes`
    entry points (once). Given the `name` of a pass or pipeline the core registers,
    the plugins are not imported: a core pipeline does not pay for importing every
    package (the graph dialect's passes import numpy)."""
    global _PLUGINS_LOADED
    import mlc.ir.passes.arith  # noqa: F401 - registers arith's passes
    import mlc.ir.passes.conversion  # noqa: F401 - registers the dialect conversions
    import mlc.ir.passes.func  # noqa: F401 - registers func's passes
    import mlc.ir.passes.generic  # noqa: F401 - registers the core passes
    import mlc.ir.passes.math  # noqa: F401 - registers math's passes

    if _PLUGINS_LOADED or (name is not None and (name in PASSES or name in PIPELINES)):
        return
    _PLUGINS_LOADED = True
    from importlib.metadata import entry_points

    for entry in entry_points(group="mlc.passes"):
        entry.load()
