"""Public names of a package, imported from their modules on first use (PEP 562), so
that `from mlc.ir.passes import PassManager` works without `import mlc.ir.passes`
importing every module of the package: mlc-opt's start-up stays small."""

from __future__ import annotations

from importlib import import_module
from typing import Any


def lazy_exports(package: str, exports: dict[str, tuple[str, ...]]):
    """`(__getattr__, __dir__, __all__)` for a package whose public names live in the
    given modules (module name relative to `package` -> names)."""
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module protocol's name
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module '{package}' has no attribute '{name}'")
        value = getattr(import_module(f"{package}.{module}"), name)
        globals_of(package)[name] = value  # next time, a plain global
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted(set(globals_of(package)) | set(where))

    return __getattr__, __dir__, sorted(where)


def globals_of(package: str) -> dict[str, Any]:
    import sys

    return vars(sys.modules[package])
