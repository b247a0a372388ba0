"""PassContext: which passes run (opt level, required, disabled), configuration, and
instruments, as a `with` scope (TVM's PassContext).

    with PassContext(opt_level=3, disabled={"cse"}, config={"canonicalize.max-iterations": 4}):
        manager.run(module)

The rule deciding whether a pass runs: disabled beats required beats opt level. The
required and disabled passes must be registered ones; config keys are typed, with a
domain (a key backing a pass option is registered from that option's declaration), and
an option not given in the pipeline takes the key's configured value.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mlc.ir.passes.options import (
    KINDS,
    Domain,
    OptionError,
    check_value,
    describe_setting,
    did_you_mean,
    kind_name,
    parse_value,
)

DEFAULT_OPT_LEVEL = 2


@dataclass(frozen=True)
class ConfigKey:
    """A registered configuration key: its type, domain, default and meaning."""

    name: str
    type: type
    default: Any
    doc: str = ""
    domain: Domain = Domain()

    def describe(self) -> str:
        """`int >= 0 = 256`, for --list-passes."""
        return describe_setting(self.type, self.domain, self.default)


CONFIG_KEYS: dict[str, ConfigKey] = {}


def register_config(name: str, type_: type, default: Any, doc: str = "", *,
                    min: float | None = None, max: float | None = None,
                    choices: tuple[str, ...] = ()) -> ConfigKey:
    """Declare a PassContext configuration key. A pass option naming a config key
    (`option(config=...)`) registers it itself; registering a key twice is fine when
    both declarations agree."""
    return register_config_key(ConfigKey(name, type_, default, doc, Domain(min, max, tuple(choices))))


def register_config_key(key: ConfigKey) -> ConfigKey:
    """Register `key` (see :func:`register_config`); returns the registered key."""
    if key.type not in KINDS:
        raise TypeError(f"config key '{key.name}' has type {key.type!r}; keys are "
                        + ", ".join(kind_name(k) for k in KINDS))
    try:
        check_value(key.type, key.domain, key.default)
    except OptionError as exc:
        raise ValueError(f"the default of config key '{key.name}': {exc}") from None
    known = CONFIG_KEYS.get(key.name)
    if known is None:
        CONFIG_KEYS[key.name] = key
        return key
    if (known.type, known.default, known.domain) != (key.type, key.default, key.domain):
        raise ValueError(f"config key '{key.name}' is already registered as {known.describe()}, "
                         f"not {key.describe()}")
    return known


class ConfigError(ValueError):
    """An unknown configuration key, a value outside the key's type or domain, or an
    unknown pass name among the required or disabled ones."""


class PassContext:
    """The settings every pass run consults; see the module docstring."""

    _local = threading.local()

    def __init__(self, opt_level: int = DEFAULT_OPT_LEVEL, required: Iterable[str] = (),
                 disabled: Iterable[str] = (), config: dict[str, Any] | None = None,
                 instruments: Iterable = ()):
        if not isinstance(opt_level, int) or isinstance(opt_level, bool) or opt_level < 0:
            raise ConfigError(f"the opt level is an int >= 0, got {opt_level!r}")
        self.opt_level = opt_level
        self.required = frozenset(required)
        self.disabled = frozenset(disabled)
        _check_pass_names(self.required, "required")
        _check_pass_names(self.disabled, "disabled")
        self.instruments = list(instruments)
        self.config: dict[str, Any] = {}
        for key, value in (config or {}).items():
            self.config[key] = _check_config(key, value)

    def get_config(self, key: str) -> Any:
        """The configured value of `key`, or its registered default."""
        if key not in CONFIG_KEYS:
            raise ConfigError(_unknown_key_message(key))
        return self.config.get(key, CONFIG_KEYS[key].default)

    def pass_enabled(self, info) -> tuple[bool, str]:
        """Whether a pass runs here, and if not, why (for skip reports)."""
        if info.name in self.disabled:
            return False, "disabled"
        if info.name in self.required:
            return True, ""
        if info.opt_level > self.opt_level:
            return False, f"opt level {info.opt_level} > {self.opt_level}"
        return True, ""

    def with_instruments(self, *instruments) -> PassContext:
        """This context's settings with `instruments` added after its own (a caller
        that observes a pipeline, such as a build recording kernel costs, wraps the
        user's context instead of replacing it)."""
        extended = PassContext(self.opt_level, self.required, self.disabled, self.config,
                               [*self.instruments, *instruments])
        return extended

    def __enter__(self) -> PassContext:
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        stack.append(self)
        for instrument in self.instruments:
            instrument.enter_pass_ctx()
        return self

    def __exit__(self, *exc) -> None:
        for instrument in self.instruments:
            instrument.exit_pass_ctx()
        self._local.stack.pop()

    @classmethod
    def current(cls) -> PassContext:
        """The innermost active context, or a default one."""
        stack = getattr(cls._local, "stack", None)
        return stack[-1] if stack else PassContext()


def _unknown_key_message(key: str) -> str:
    known = ", ".join(sorted(CONFIG_KEYS)) or "none"
    return f"unknown PassContext config key '{key}'; known keys: {known}{did_you_mean(key, CONFIG_KEYS)}"


def _check_config(key: str, value: Any) -> Any:
    spec = CONFIG_KEYS.get(key)
    if spec is None:
        raise ConfigError(_unknown_key_message(key))
    try:
        if isinstance(value, str) and spec.type is not str:
            return parse_value(spec.type, spec.domain, value)
        return check_value(spec.type, spec.domain, value)
    except OptionError as exc:
        raise ConfigError(f"invalid value for config key '{key}': {exc}") from None


def _check_pass_names(names: frozenset[str], role: str) -> None:
    if not names:
        return
    from mlc.ir.passes.registry import PASSES, load_pass_plugins

    load_pass_plugins()
    for name in sorted(names):
        if name not in PASSES:
            raise ConfigError(f"{role} pass '{name}' is not a registered pass"
                              f"{did_you_mean(name, PASSES)}")
