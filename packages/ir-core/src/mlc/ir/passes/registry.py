"""Declaring passes and named pipelines; the registries mlc-opt reads.

    @register_pass("cse", opt_level=3, summary="Eliminate common subexpressions.")
    class CSE(Pass):
        def run(self, op, run): ...

A pass's options are a dataclass (field names with `_` become `-` on the command
line); its statistics are counters it declares by name.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from mlc.ir.core.ir import Operation


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


class PassFailure(Exception):
    """Raised by a pass that cannot complete; the diagnostics say why."""

    def __init__(self, diagnostics=()):
        super().__init__("pass failed")
        self.diagnostics = list(diagnostics)


class Pass:
    """Base of passes. `run(op, run)` transforms `op` (the anchor op) in place;
    `run` is the :class:`~mlc.ir.passes.manager.PassRun` giving analyses, the pass
    context and diagnostics."""

    info: ClassVar[PassInfo]
    preserves: ClassVar[tuple[type, ...]] = ()

    def __init__(self, options: Any = None):
        self.options = options if options is not None else self.info.options()
        self.statistics: Counter[str] = Counter()

    def run(self, op: Operation, run) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def name(self) -> str:
        return self.info.name

    def pipeline_text(self) -> str:
        """`name{opt=value ...}` with every option, as --dump-pass-pipeline shows it."""
        fields = dataclasses.fields(self.options)
        if not fields:
            return self.name
        parts = []
        for f in fields:
            parts.append(f"{option_name(f.name)}={format_option(getattr(self.options, f.name))}")
        return f"{self.name}{{{' '.join(parts)}}}"


PASSES: dict[str, type[Pass]] = {}
PIPELINES: dict[str, tuple[str, str]] = {}  # name -> (pipeline text, summary)


def register_pass(name: str, *, opt_level: int = 0, summary: str = "", options: type = NoOptions,
                  anchor: str | None = None, required: tuple[str, ...] = (),
                  statistics: tuple[tuple[str, str], ...] = ()) -> Callable[[type[Pass]], type[Pass]]:
    """Class decorator registering a pass under `name`."""

    def register(cls: type[Pass]) -> type[Pass]:
        if name in PASSES and PASSES[name] is not cls:
            raise ValueError(f"a pass named '{name}' is already registered")
        cls.info = PassInfo(name, opt_level, tuple(required), summary, options, anchor,
                            tuple(statistics))
        PASSES[name] = cls
        return cls

    return register


def register_pipeline(name: str, pipeline: str, summary: str = "") -> None:
    """A named pipeline, usable in a pipeline string like a pass."""
    PIPELINES[name] = (pipeline, summary)


def option_name(field_name: str) -> str:
    return field_name.replace("_", "-")


def format_option(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        text = ",".join(str(v) for v in value)
    else:
        text = str(value)
    # Braces keep a value with spaces or separators in one piece, as MLIR prints it.
    if any(c in text for c in " {}=") or (text and text != text.strip()):
        return "{" + text + "}"
    return text


def parse_option(field: dataclasses.Field, text: str) -> Any:
    """An option value from its pipeline spelling, by the field's declared type."""
    kind = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", "")
    kind = kind.replace(" ", "")
    if kind == "bool":
        if text in ("true", "1", ""):
            return True
        if text in ("false", "0"):
            return False
        raise ValueError(f"expected true or false, got '{text}'")
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text)
    if kind.startswith(("tuple", "list")):
        return tuple(part for part in text.split(",") if part)
    return text


_PASSES_LOADED = False


def load_pass_plugins() -> None:
    """Import the core passes and every package's `mlc.passes` entry points (once)."""
    global _PASSES_LOADED
    if _PASSES_LOADED:
        return
    _PASSES_LOADED = True
    from importlib.metadata import entry_points

    import mlc.ir.passes.generic  # noqa: F401 - registers the core passes

    for entry in entry_points(group="mlc.passes"):
        entry.load()
