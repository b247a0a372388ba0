"""The modules that moved when each dialect became a folder (issue 27), under their
old names: `import mlc.ir.dialects.arith_casts` gives `mlc.ir.dialects.arith.casts`,
the same module object, so code written against the flat layout keeps working.
New code uses the new names; `mlc.ir` installs the finder on import."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from types import ModuleType

_FLAT_DIALECT_MODULES = {
    "arith_canonicalization": "arith.canonicalization", "arith_casts": "arith.casts",
    "arith_cmpf_of_int": "arith.cmpf_of_int", "arith_constants": "arith.constants",
    "arith_int_ranges": "arith.int_ranges", "cf_canonicalization": "cf.canonicalization",
    "func_conversion": "func.conversion", "memref_canonicalization": "memref.canonicalization",
    "memref_semantics": "memref.semantics", "scf_bulk": "scf.bulk",
    "scf_canonicalization": "scf.canonicalization", "scf_forall": "scf.forall",
    "scf_semantics": "scf.semantics", "vector_compute": "vector.compute",
    "vector_memory": "vector.memory", "vector_semantics": "vector.semantics",
    "vector_slicing": "vector.slicing",
}

MOVED_MODULES = {
    "mlc.ir.dialect": "mlc.ir.core.dialect_registry",
    "mlc.ir.passes.analysis": "mlc.ir.passes.analysis_manager",
    **{f"mlc.ir.dialects.{old}": f"mlc.ir.dialects.{new}"
       for old, new in _FLAT_DIALECT_MODULES.items()},
}
"""Old module name -> the module it now is."""


class _Alias(importlib.abc.Loader):
    """Loads an old name as the module it moved to (no second copy: one registry)."""

    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec) -> ModuleType:
        return importlib.import_module(self.target)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the target module was executed under its own name."""


class MovedModuleFinder(importlib.abc.MetaPathFinder):
    """Finds the old names of :data:`MOVED_MODULES`."""

    def find_spec(self, fullname: str, path=None, target=None):
        new = MOVED_MODULES.get(fullname)
        return None if new is None else importlib.util.spec_from_loader(fullname, _Alias(new))


def attributes_of(module: ModuleType, package: str):
    """A module `__getattr__` for `package` that reads the names it lacks from `module`
    (a dialect package forwards to its `ops.py`, the module it used to be)."""

    def forward(name: str):
        try:
            return getattr(module, name)
        except AttributeError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None

    return forward


def install() -> None:
    """Put the finder on `sys.meta_path` (once)."""
    if not any(isinstance(finder, MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedModuleFinder())
