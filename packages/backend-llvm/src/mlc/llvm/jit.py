"""Compiling LLVM IR text to native code in this process (MCJIT through llvmlite).

    from mlc.llvm.jit import compile_llvm_ir
    from mlc.llvm.native_call import ArgSpec

    library = compile_llvm_ir(llvm_ir_text)              # host CPU, -O3
    add = library.function("add", [ArgSpec("a", (4,), "float32"),
                                   ArgSpec("b", (4,), "float32"),
                                   ArgSpec("out", (4,), "float32", "output")])
    out = add(a, b)
    print(library.timings.report())                      # parse+verify, optimise, codegen

The stages: parse and verify (LLVM's parser and verifier; a failure is an
`LLVMIRError` located in the text and naming the function), set the target's triple
and data layout, optimise with LLVM's new pass manager at the target's -O level,
generate code with MCJIT. A module compiled before in this process with the same
target (and the same bound symbols) is not compiled again.

Native code can call Python: `bind_python_function("env.linear", specs)` makes the
function registered under that name (`mlc.ir.extern.register_func`) callable as the
symbol `env.linear` by modules compiled afterwards.
"""

from __future__ import annotations

import ctypes
import hashlib
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import llvmlite.binding as llvm

from mlc.ir.core.attributes import FileLineColLoc
from mlc.ir.diagnostics import Diagnostic, DiagnosticError
from mlc.llvm.native_call import ArgSpec, IndexErrorRecord, NativeFunction, python_callback
from mlc.llvm.target import Target, initialize_native_target

__all__ = ["LLVMIRError", "CompileTimes", "NativeLibrary", "compile_llvm_ir",
           "parse_llvm_ir", "optimize_module", "bind_symbol", "bind_python_function",
           "compile_cache_info", "clear_compile_cache", "CacheInfo"]


class LLVMIRError(DiagnosticError):
    """LLVM IR that LLVM rejects (parser, verifier) or that refers to a symbol nothing
    defines; located in the IR text where LLVM says where."""


@dataclass(frozen=True)
class CompileTimes:
    """Wall times in seconds of the stages of one compilation."""

    parse_verify: float
    optimize: float
    codegen: float
    opt_level: int

    def stages(self) -> list[tuple[str, float]]:
        """(stage name, seconds) in order: what a `--timing` report lists (the pass
        manager's `Timing.record` takes them as they are)."""
        return [("LLVM parse+verify", self.parse_verify),
                (f"LLVM optimise -O{self.opt_level}", self.optimize),
                ("LLVM codegen", self.codegen)]

    @property
    def total(self) -> float:
        """The three stages together."""
        return self.parse_verify + self.optimize + self.codegen

    def report(self) -> str:
        """The stages as lines of `seconds (share)  name`, as mlc-opt's --timing."""
        lines = ["  ----Wall Time----  ----Name----"]
        for name, seconds in [*self.stages(), ("Total", self.total)]:
            share = 100.0 * seconds / self.total if self.total else 0.0
            lines.append(f"  {seconds:7.4f} ({share:5.1f}%)  {name}")
        return "\n".join(lines) + "\n"


class NativeLibrary:
    """The native code of one compiled LLVM module, alive as long as this object (and
    every NativeFunction taken from it)."""

    def __init__(self, engine: llvm.ExecutionEngine, module: llvm.ModuleRef, target: Target,
                 timings: CompileTimes):
        self.target = target
        self.timings = timings
        self._engine = engine
        self._module = module
        self._defined = sorted(f.name for f in module.functions if not f.is_declaration)

    def address(self, symbol: str) -> int:
        """The address of a function the module defines; LookupError otherwise."""
        address = self._engine.get_function_address(symbol) if symbol in self._defined else 0
        if not address:
            raise LookupError(f"the compiled module defines no function @{symbol} (it "
                              f"defines: {', '.join(self._defined) or 'none'})")
        return address

    def global_address(self, symbol: str) -> int:
        """The address of a global variable the module defines; LookupError otherwise."""
        defined = any(g.name == symbol and not g.is_declaration for g in self._module.global_variables)
        address = self._engine.get_global_value_address(symbol) if defined else 0
        if not address:
            raise LookupError(f"the compiled module defines no global @{symbol}")
        return address

    def function(self, symbol: str, specs: Sequence[ArgSpec], result: str | None = None,
                 index_errors: IndexErrorRecord | None = None) -> NativeFunction:
        """The defined function `symbol` as a NativeFunction with the given argument
        specs (bare-pointer convention) and scalar result dtype; `index_errors` is the
        record of the module's index checks, if it has any."""
        return NativeFunction(self.address(symbol), specs, result, name=symbol, owner=self,
                              index_errors=index_errors)

    @property
    def functions(self) -> list[str]:
        """The names of the functions the module defines, sorted."""
        return list(self._defined)

    def llvm_ir(self) -> str:
        """The optimised LLVM IR."""
        return str(self._module)

    def assembly(self) -> str:
        """The generated code as assembly text."""
        return self.target.target_machine(jit=True).emit_assembly(self._module)

    def object_code(self) -> bytes:
        """The generated code as an object file (JIT code model: for inspection; a
        shared library is built by mlc.llvm.export)."""
        return self.target.target_machine(jit=True).emit_object(self._module)


_PARSE_ERROR = re.compile(r"^[^\n]*?:(\d+):(\d+): error: ([^\n]*)", re.M)


def parse_llvm_ir(text: str, name: str = "<llvm-ir>") -> llvm.ModuleRef:
    """Parse and verify LLVM IR text. LLVMIRError, located in `name`, when LLVM's
    parser or verifier rejects it."""
    initialize_native_target()
    try:
        module = llvm.parse_assembly(text)
    except RuntimeError as exc:
        found = _PARSE_ERROR.search(str(exc))
        if found is None:
            raise LLVMIRError(Diagnostic("error", f"invalid LLVM IR: {exc}")) from None
        line, column, message = int(found[1]), int(found[2]), found[3]
        raise LLVMIRError(Diagnostic("error", f"invalid LLVM IR: {message}",
                                     FileLineColLoc(name, line, column))) from None
    module.name = name
    try:
        module.verify()
    except RuntimeError as exc:
        raise _verifier_error(module, str(exc).strip(), text, name) from None
    return module


def _verifier_error(module: llvm.ModuleRef, message: str, text: str, name: str) -> LLVMIRError:
    """The verifier's message, with the function it is about and where that function
    starts in `text`: the verifier prints the offending values as the module's printer
    does, so they are found in the printed module."""
    headline, *details = message.splitlines()
    printed = str(module)
    function = None
    for detail in details:
        start = printed.find("\n" + detail.rstrip() + "\n") if detail.startswith("  ") else -1
        if start == -1:
            continue
        defines = list(re.finditer(r"^define [^\n]*?@(\"[^\"]*\"|[-\w$.]+)\(", printed[:start + 1],
                                   re.M))
        if defines:
            function = defines[-1][1].strip('"')
            break
    loc = None
    if function is not None:
        quoted = re.escape(function)
        found = re.search(rf"^define\b[^\n]*@(?:{quoted}|\"{quoted}\")\(", text, re.M)
        if found is not None:
            line = text.count("\n", 0, found.start()) + 1
            loc = FileLineColLoc(name, line, 1)
        headline = f"in function @{function}: {headline}"
    detail_text = "".join(f"\n{d}" for d in details if d.strip())
    return LLVMIRError(Diagnostic("error", f"invalid LLVM IR: {headline}{detail_text}", loc))


def optimize_module(module: llvm.ModuleRef, target: Target, jit: bool = True) -> None:
    """Set the module's triple and data layout for `target` and optimise it in place
    with the new pass manager's default pipeline at the target's -O level."""
    machine = target.target_machine(jit=jit)
    module.triple = target.triple
    module.data_layout = str(machine.target_data)
    tuning = llvm.create_pipeline_tuning_options(speed_level=target.opt_level)
    builder = llvm.create_pass_builder(machine, tuning)
    builder.getModulePassManager().run(module, builder)


def check_symbols_resolve(module: llvm.ModuleRef, name: str) -> None:
    """LLVMIRError when the module declares a function or global that neither it nor
    the process defines: MCJIT would abort the process when linking it."""
    missing = [f"@{f.name}" for f in module.functions
               if f.is_declaration and not f.name.startswith("llvm.")
               and llvm.address_of_symbol(f.name) is None]
    missing += [f"@{g.name}" for g in module.global_variables
                if g.is_declaration and llvm.address_of_symbol(g.name) is None]
    if missing:
        raise LLVMIRError(Diagnostic(
            "error", f"{name}: {', '.join(missing)} declared but defined nowhere (neither in "
            "the module nor in the process); bind a Python function to it with "
            "bind_python_function or bind_symbol before compiling"))


class CacheInfo(NamedTuple):
    """How the compile cache has served this process."""

    hits: int
    misses: int
    size: int


_CACHE: dict[str, NativeLibrary] = {}
_CACHE_STATS = {"hits": 0, "misses": 0}
_CACHE_LOCK = threading.Lock()


def compile_llvm_ir(text: str, target: Target | None = None, *,
                    name: str = "<llvm-ir>") -> NativeLibrary:
    """Compile LLVM IR text for `target` (default: the host CPU at -O3) into native code
    in this process. The same text for the same target, with the same symbols bound,
    is compiled once per process: later calls return the first NativeLibrary.
    LLVMIRError when LLVM rejects the IR; `name` is the file name its locations use."""
    target = target or Target()
    key = _cache_key(text, target)
    with _CACHE_LOCK:
        cached = _CACHE.get(key)
        if cached is not None:
            _CACHE_STATS["hits"] += 1
            return cached
    library = _compile(text, target, name)
    with _CACHE_LOCK:
        _CACHE_STATS["misses"] += 1
        return _CACHE.setdefault(key, library)


def compile_cache_info() -> CacheInfo:
    """Hits, misses and size of the compile cache."""
    with _CACHE_LOCK:
        return CacheInfo(_CACHE_STATS["hits"], _CACHE_STATS["misses"], len(_CACHE))


def clear_compile_cache() -> None:
    """Forget the compiled modules (those still referenced stay alive) and the counts."""
    with _CACHE_LOCK:
        _CACHE.clear()
        _CACHE_STATS.update(hits=0, misses=0)


def _cache_key(text: str, target: Target) -> str:
    digest = hashlib.sha256(text.encode())
    digest.update(b"\0" + target.key.encode())
    # A module calling a bound symbol links to the address bound when it is compiled.
    for symbol, (address, _) in sorted(_BOUND_SYMBOLS.items()):
        if symbol in text:
            digest.update(f"\0{symbol}={address}".encode())
    return digest.hexdigest()


def _compile(text: str, target: Target, name: str) -> NativeLibrary:
    started = time.perf_counter()
    module = parse_llvm_ir(text, name)
    parsed = time.perf_counter()
    optimize_module(module, target, jit=True)
    optimized = time.perf_counter()
    check_symbols_resolve(module, name)
    engine = llvm.create_mcjit_compiler(module, target.owned_target_machine())
    engine.finalize_object()
    engine.run_static_constructors()
    finished = time.perf_counter()
    timings = CompileTimes(parsed - started, optimized - parsed, finished - optimized,
                           target.opt_level)
    return NativeLibrary(engine, module, target, timings)


# Symbols bound for native code: name -> (address, the object owning the code).
_BOUND_SYMBOLS: dict[str, tuple[int, Any]] = {}
# Callbacks replaced by a later binding: code compiled before still calls them, so
# they must outlive every such module; they are few and small, and kept for good.
_REPLACED_SYMBOLS: list[Any] = []


def bind_symbol(name: str, function: ctypes._CFuncPtr | int, owner: Any = None) -> None:
    """Make `name` resolve to a native function for modules compiled from now on
    (llvmlite's add_symbol, process-wide): a ctypes function object (kept alive here)
    or a raw address (then keep its `owner` alive, passed here)."""
    if not isinstance(name, str) or not name:
        raise ValueError("a symbol needs a non-empty name")
    if isinstance(function, int):
        address = function
    else:
        address = ctypes.cast(function, ctypes.c_void_p).value or 0
        owner = function
    if not address:
        raise ValueError(f"symbol '{name}': cannot bind a null address")
    previous = _BOUND_SYMBOLS.get(name)
    if previous is not None and previous[0] != address:
        _REPLACED_SYMBOLS.append(previous[1])
    _BOUND_SYMBOLS[name] = (address, owner)
    llvm.add_symbol(name, address)


def bind_python_function(name: str, specs: Sequence[ArgSpec], function: Callable | None = None,
                         result: str | None = None) -> None:
    """Make the Python function registered as `name` (mlc.ir.extern.register_func), or
    `function`, callable from native code as the symbol `name` with the bare-pointer
    convention of `specs`: its arrays are numpy views of the native buffers (no
    copies). An exception it raises is re-raised by the NativeFunction call that ran
    the native code, after that code returns."""
    if function is None:
        from mlc.ir.extern import get_func, list_funcs

        function = get_func(name)
        if function is None:
            known = ", ".join(list_funcs()) or "none"
            raise LookupError(f"no Python function is registered as '{name}' "
                              f"(registered: {known}); see mlc.ir.extern.register_func")
    bind_symbol(name, python_callback(function, specs, result, name=name))
