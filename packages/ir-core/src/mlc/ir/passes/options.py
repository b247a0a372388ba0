"""Pass options and PassContext config values: declared once, then parsed, checked,
listed and resolved from that one declaration.

    @dataclass(frozen=True)
    class FuseOpsOptions:
        max_depth: int = option(256, min=0, config="graph.fuse-ops.max-depth",
                                doc="most ops in one kernel")

A field's type (bool, int, float, str, or a tuple of strs or of ints) and its domain
(`min`, `max`, `choices`; for a tuple, of each element; and `check`, a function saying
what is wrong with a whole value, for the formats a domain cannot say) drive the
pipeline parser, which reports a bad value at its place in the pipeline text,
`--list-passes`, and `--dump-pass-pipeline`. A plain field
(`count: int = 3`) is an option with no domain.

Which value a run uses: the one given in the pipeline, else the PassContext config key
the option names (`config=`; the key is registered from the option, so it has the
option's type, default and domain), else the default. An option declared
`from_opt_level=True` takes the PassContext's opt level instead of a config key.
"""

from __future__ import annotations

import dataclasses
import difflib
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

OPTION_METADATA = "mlc.option"

KINDS: tuple[type, ...] = (bool, int, float, str, tuple)
"""The value types an option or a config key may have (a tuple holds strs or ints, as
its domain's `element` says)."""


class OptionError(ValueError):
    """An option or config value outside its type or domain, or an unknown option."""


@dataclass(frozen=True)
class Domain:
    """The values an option accepts beyond its type: bounds for numbers, choices for
    strs (for a tuple, its every element, of type `element`). Choices may be computed
    when a value is checked (`choices=function`, then `choices_name` says what they are)."""

    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] | Callable[[], Iterable[str]] = ()
    choices_name: str = ""  # e.g. "canonicalization pattern names"
    element: type = str  # what a tuple holds: str or int
    check: Callable[[Any], str | None] | None = None  # what is wrong with a value, or None

    def in_bounds(self, value: Any) -> bool:
        """Whether a number (or each number of a tuple) lies within `min` and `max`
        (anything else does)."""
        if isinstance(value, tuple):
            return all(self.in_bounds(v) for v in value)
        if isinstance(value, (str, bool)):
            return True
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def choice_problem(self, value: Any) -> str | None:
        """Why `value` (a str or a tuple of them) is not among the choices, or None."""
        if not self.choices or not isinstance(value, (tuple, str)) or value == ():
            return None  # (an empty list needs no choices: computing them may import much)
        allowed = tuple(self.choices()) if callable(self.choices) else self.choices
        for item in value if isinstance(value, tuple) else (value,):
            if item not in allowed:
                what = f"among the {self.choices_name}" if self.choices_name else \
                    "one of " + ", ".join(allowed)
                return f"'{item}' is not {what}{did_you_mean(item, allowed)}"
        return None

    def problem(self, value: Any) -> str | None:
        """Why `value`, of the option's type, is outside the domain (bounds aside), or
        None: not among the choices, or refused by `check`."""
        return self.choice_problem(value) or (self.check(value) if self.check else None)

    def describe(self) -> str:
        """` >= 0`, ` in [1, 8]`, ` in {a, b}`; empty without a domain."""
        if callable(self.choices):
            return f" of {self.choices_name}"
        if self.choices:
            return " in {" + ", ".join(self.choices) + "}"
        if self.min is not None and self.max is not None:
            return f" in [{self.min}, {self.max}]"
        if self.min is not None:
            return f" >= {self.min}"
        if self.max is not None:
            return f" <= {self.max}"
        return ""


def kind_name(kind: type, domain: Domain | None = None) -> str:
    """`int`, `bool`, ..., `list` (a tuple of strs), `list of ints`: a type as listings
    name it."""
    if kind is tuple:
        return "list of ints" if domain is not None and domain.element is int else "list"
    return kind.__name__


def describe_setting(kind: type, domain: Domain, default: Any) -> str:
    """`int >= 0 = 256`: a type, its domain and a default, as --list-passes shows them."""
    shown = format_value(default) if default not in ("", ()) else '""'
    return f"{kind_name(kind, domain)}{domain.describe()} = {shown}"


def describe_kind(kind: type, domain: Domain) -> str:
    """What a value must be, as an error message says it: `an int >= 0`, `true or false`."""
    if kind is bool:
        return "true or false"
    article = "an" if kind is int else "a"
    noun = {tuple: "comma-separated list", str: "string"}.get(kind, kind.__name__)
    if kind is tuple and domain.element is int:
        noun += " of ints"
    return f"{article} {noun}{domain.describe()}"


def parse_value(kind: type, domain: Domain, text: str) -> Any:
    """A value from its pipeline (or --pass-config) spelling; OptionError says what
    was expected."""
    value: Any
    try:
        if kind is bool:
            if text not in ("true", "1", "false", "0"):
                raise ValueError
            value = text in ("true", "1")
        elif kind is int:
            value = int(text, 10)
        elif kind is float:
            value = float(text)
        elif kind is tuple:
            parts = [part for part in text.split(",") if part]
            value = tuple(int(p, 10) for p in parts) if domain.element is int else tuple(parts)
        else:
            value = text
    except ValueError:
        raise OptionError(f"expected {describe_kind(kind, domain)}, got '{text}'") from None
    if not domain.in_bounds(value):
        raise OptionError(f"expected {describe_kind(kind, domain)}, got '{text}'")
    problem = domain.problem(value)
    if problem:
        raise OptionError(problem)
    return value


def check_value(kind: type, domain: Domain, value: Any) -> Any:
    """A Python value of the option's type and in its domain (an int is a float; a
    list of strs is a tuple); OptionError otherwise."""
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    elif kind is tuple and isinstance(value, list):
        value = tuple(value)
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if ok and kind is tuple:
        ok = all(isinstance(v, domain.element) and not isinstance(v, bool) for v in value)
    if not ok:
        raise OptionError(f"expected {describe_kind(kind, domain)}, got {type(value).__name__} "
                          f"{value!r}")
    if not domain.in_bounds(value):
        raise OptionError(f"expected {describe_kind(kind, domain)}, got '{format_value(value)}'")
    problem = domain.problem(value)
    if problem:
        raise OptionError(problem)
    return value


def format_value(value: Any) -> str:
    """The pipeline spelling of a value, which parses back to it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = ",".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)
    if not any(c.isspace() or c in '{}="' for c in text):
        return text
    # Braces keep a value with spaces or separators in one piece, as MLIR prints it;
    # quotes one whose braces do not pair up.
    return "{" + text + "}" if _braces_pair_up(text) or '"' in text else f'"{text}"'


def _braces_pair_up(text: str) -> bool:
    depth = 0
    for char in text:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0


def did_you_mean(name: str, known) -> str:
    """`; did you mean 'x'?` naming the known name closest to `name`, or nothing."""
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.75)
    return f"; did you mean '{close[0]}'?" if close else ""


@dataclass(frozen=True)
class _Declared:
    """What `option()` attaches to a dataclass field."""

    doc: str
    domain: Domain
    config: str | None
    from_opt_level: bool


def option(default: Any, *, doc: str = "", min: float | None = None, max: float | None = None,
           choices: tuple[str, ...] | Callable[[], Iterable[str]] = (), choices_name: str = "",
           check: Callable[[Any], str | None] | None = None,
           config: str | None = None, from_opt_level: bool = False) -> Any:
    """A dataclass field declaring a pass option: its default, domain, meaning, and the
    PassContext config key (or the opt level) it falls back to when not given. `check`
    (optional) says what is wrong with a value (a message), or returns None: checked
    wherever the value comes from, so a pipeline reports it where it is written."""
    if config is not None and from_opt_level:
        raise ValueError("an option falls back to a config key or to the opt level, not both")
    if callable(choices) and not choices_name:
        raise ValueError("computed choices need a choices_name saying what they are")
    domain = Domain(min, max, choices if callable(choices) else tuple(choices), choices_name,
                    check=check)
    declared = _Declared(doc, domain, config, from_opt_level)
    return dataclasses.field(default=default, metadata={OPTION_METADATA: declared})


@dataclass(frozen=True)
class PassOption:
    """One option of a pass, as its options dataclass declares it."""

    field: str  # the dataclass field (and keyword argument) name
    name: str  # as spelled in pipelines: `_` becomes `-`
    kind: type
    default: Any
    domain: Domain = Domain()
    doc: str = ""
    config: str | None = None
    from_opt_level: bool = False

    def parse(self, text: str) -> Any:
        """The value spelled `text` in a pipeline (OptionError if none of the domain)."""
        return parse_value(self.kind, self.domain, text)

    def check(self, value: Any) -> Any:
        """`value` as the option holds it (OptionError if none of the domain)."""
        return check_value(self.kind, self.domain, value)

    def describe(self) -> str:
        """`int >= 0 = 256 (config graph.fuse-ops.max-depth)`, for --list-passes."""
        if self.from_opt_level:
            return (f"{kind_name(self.kind, self.domain)}{self.domain.describe()} = the "
                    "PassContext's opt level")
        text = describe_setting(self.kind, self.domain, self.default)
        return text + (f" (config {self.config})" if self.config else "")


def declared_options(options_class: type) -> tuple[PassOption, ...]:
    """The options an options dataclass declares, in field order; TypeError for a field
    of an unsupported type or without a default, ValueError for a default outside
    its domain."""
    hints = typing.get_type_hints(options_class)
    specs = []
    for f in dataclasses.fields(options_class):
        kind = typing.get_origin(hints[f.name]) or hints[f.name]
        if kind not in KINDS:
            raise TypeError(f"option '{f.name}' of {options_class.__name__} has type "
                            f"{hints[f.name]!r}; options are bool, int, float, str, tuple[str, ...] or tuple[int, ...]")
        if f.default is dataclasses.MISSING:
            raise TypeError(f"option '{f.name}' of {options_class.__name__} has no default")
        declared = f.metadata.get(OPTION_METADATA, _Declared("", Domain(), None, False))
        domain = declared.domain
        if kind is tuple:
            element = (typing.get_args(hints[f.name]) or (str,))[0]
            if element not in (str, int):
                raise TypeError(f"option '{f.name}' of {options_class.__name__} is a tuple of "
                                f"{element!r}; tuples hold strs or ints")
            domain = dataclasses.replace(domain, element=element)
        spec = PassOption(f.name, f.name.replace("_", "-"), kind, f.default, domain,
                          declared.doc, declared.config, declared.from_opt_level)
        try:
            spec.check(f.default)
        except OptionError as exc:
            raise ValueError(f"the default of option '{spec.name}' of {options_class.__name__}: "
                             f"{exc}") from None
        specs.append(spec)
    return tuple(specs)


def resolve_options(options_class: type, specs: tuple[PassOption, ...], given: dict[str, Any],
                    pass_context: Any) -> Any:
    """The options a run uses: given > the PassContext (config key or opt level) > default."""
    values = {}
    for spec in specs:
        if spec.field in given:
            values[spec.field] = given[spec.field]
        elif spec.config is not None and spec.config in pass_context.config:
            values[spec.field] = pass_context.config[spec.config]
        elif spec.from_opt_level:
            values[spec.field] = pass_context.opt_level
        else:
            values[spec.field] = spec.default
    return options_class(**values)


def allow_pattern_rollback_option() -> Any:
    """MLIR's `allow-pattern-rollback` option of its conversion passes, for passes whose
    patterns produce the same IR under either of MLIR's drivers: mlc's one driver always
    rolls back a failed pattern, so the value is accepted and changes nothing."""
    return option(True, doc="MLIR's switch between its two conversion drivers; mlc's driver "
                            "always rolls back a failed pattern, and these patterns produce "
                            "the same IR either way, so the value changes nothing")
