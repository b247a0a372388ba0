"""mlc.llvm: native code through LLVM.

    from mlc.llvm import compile_llvm_ir, ArgSpec, Target        # JIT in this process
    from mlc.llvm import export_shared_library, load_module      # deploy as a .so

Public names are imported from their modules on first use (PEP 562). This file imports
nothing itself, not even mlc.ir's `lazy_exports` helper: `mlc.llvm.loader` runs a
deployed library with numpy and ctypes alone, and importing it imports this package.
"""

from importlib import import_module
from typing import Any

_EXPORTS = {
    "target": ("Target", "TargetError"),
    "jit": ("LLVMIRError", "CompileTimes", "NativeLibrary", "compile_llvm_ir",
            "bind_symbol", "bind_python_function", "compile_cache_info",
            "clear_compile_cache"),
    "native_call": ("ArgSpec", "NativeCallError", "NativeFunction", "python_callback"),
    "export": ("ToolchainError", "export_shared_library"),
    "loader": ("LoadedModule", "ModuleLoadError", "load_module"),
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'mlc.llvm' has no attribute '{name}'")
    value = getattr(import_module(f"mlc.llvm.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
