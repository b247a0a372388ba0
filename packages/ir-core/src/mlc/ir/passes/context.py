"""PassContext: which passes run (opt level, required, disabled), configuration, and
instruments, as a `with` scope (TVM's PassContext).

    with PassContext(opt_level=3, disabled={"cse"}, config={"canonicalize.max-iterations": 4}):
        manager.run(module)

The rule deciding whether a pass runs: disabled beats required beats opt level.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

DEFAULT_OPT_LEVEL = 2


@dataclass(frozen=True)
class ConfigKey:
    """A registered configuration key: its type, default and meaning."""

    name: str
    type: type
    default: Any
    doc: str = ""


CONFIG_KEYS: dict[str, ConfigKey] = {}


def register_config(name: str, type_: type, default: Any, doc: str = "") -> ConfigKey:
    """Declare a PassContext configuration key (passes do this where they are defined)."""
    key = ConfigKey(name, type_, default, doc)
    CONFIG_KEYS[name] = key
    return key


class ConfigError(ValueError):
    """An unknown configuration key or a value of the wrong type."""


class PassContext:
    """The settings every pass run consults; see the module docstring."""

    _local = threading.local()

    def __init__(self, opt_level: int = DEFAULT_OPT_LEVEL, required: Iterable[str] = (),
                 disabled: Iterable[str] = (), config: dict[str, Any] | None = None,
                 instruments: Iterable = ()):
        self.opt_level = opt_level
        self.required = frozenset(required)
        self.disabled = frozenset(disabled)
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
    return f"unknown PassContext config key '{key}'; known keys: {known}"


def _check_config(key: str, value: Any) -> Any:
    spec = CONFIG_KEYS.get(key)
    if spec is None:
        raise ConfigError(_unknown_key_message(key))
    if isinstance(value, str) and spec.type is not str:
        try:
            if spec.type is bool:
                if value not in ("true", "false", "1", "0"):
                    raise ValueError
                return value in ("true", "1")
            return spec.type(value)
        except ValueError:
            raise ConfigError(f"config key '{key}' takes a {spec.type.__name__}, got '{value}'") from None
    if not isinstance(value, spec.type) or (spec.type is int and isinstance(value, bool)):
        raise ConfigError(f"config key '{key}' takes a {spec.type.__name__}, "
                          f"got {type(value).__name__}")
    return value
