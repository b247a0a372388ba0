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

__all__ = ["LLVMIRError", "CompileTimes", "NativeLibrary", "ObjectCode", "compile_llvm_ir",
           "compile_object", "link_llvm_ir",
           "parse_llvm_ir", "optimize_module", "bind_symbol", "bind_python_function",
           "compile_cache_info", "clear_compile_cache", "CacheInfo"]


class LLVMIRError(DiagnosticError):
    """LLVM IR that LLVM rejects (parser, verifier) or that refers to a symbol nothing
    defines; located in the IR text where LLVM says where."""


@dataclass(frozen=True)
class CompileTimes:
    """Wall times in seconds of the stages of one compilation; `loaded` is the time
    taken instead by loading the object code from the persistent compile cache (then
    the other stages are 0)."""

    parse_verify: float
    optimize: float
    codegen: float
    opt_level: int
    loaded: float | None = None

    def stages(self) -> list[tuple[str, float]]:
        """(stage name, seconds) in order: what a `--timing` report lists (the pass
        manager's `Timing.record` takes them as they are)."""
        if self.loaded is not None:
            return [("LLVM object code from the compile cache", self.loaded)]
        return [("LLVM parse+verify", self.parse_verify),
                (f"LLVM optimise -O{self.opt_level}", self.optimize),
                ("LLVM codegen", self.codegen)]

    @property
    def total(self) -> float:
        """The stages together."""
        return self.parse_verify + self.optimize + self.codegen + (self.loaded or 0.0)

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

    def __init__(self, engine: llvm.ExecutionEngine, target: Target, timings: CompileTimes,
                 sources: Sequence[str], symbols: _Symbols, module: llvm.ModuleRef | None = None,
                 from_cache: bool = False):
        self.target = target
        self.timings = timings
        self.from_cache = from_cache
        """Whether the code was loaded from the persistent compile cache."""
        self._engine = engine
        self._sources = list(sources)
        self._symbols = symbols
        self._module = module

    def address(self, symbol: str) -> int:
        """The address of a function the module defines; LookupError otherwise."""
        defined = self._symbols.functions
        address = self._engine.get_function_address(symbol) if symbol in defined else 0
        if not address:
            raise LookupError(f"the compiled module defines no function @{symbol} (it "
                              f"defines: {', '.join(defined) or 'none'})")
        return address

    def global_address(self, symbol: str) -> int:
        """The address of a global variable the module defines; LookupError otherwise."""
        defined = symbol in self._symbols.globals
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
        return list(self._symbols.functions)

    def _optimized_module(self) -> llvm.ModuleRef:
        # Code loaded from the cache, or compiled in parts, has no module: compile one
        # again for inspection.
        if self._module is None:
            module = link_llvm_ir(self._sources)
            optimize_module(module, self.target, jit=True)
            self._module = module
        return self._module

    def llvm_ir(self) -> str:
        """The optimised LLVM IR."""
        return str(self._optimized_module())

    def assembly(self) -> str:
        """The generated code as assembly text."""
        return self.target.target_machine(jit=True).emit_assembly(self._optimized_module())

    def object_code(self) -> bytes:
        """The generated code as an object file (JIT code model: for inspection; a
        shared library is built by mlc.llvm.export)."""
        return self.target.target_machine(jit=True).emit_object(self._optimized_module())


class _Symbols(NamedTuple):
    """What a compiled module defines and what it needs from the process."""

    functions: tuple[str, ...]
    globals: tuple[str, ...]
    needed: tuple[str, ...]

    @staticmethod
    def of(module: llvm.ModuleRef) -> _Symbols:
        return _Symbols(
            tuple(sorted(f.name for f in module.functions if not f.is_declaration)),
            tuple(sorted(g.name for g in module.global_variables if not g.is_declaration)),
            tuple(sorted([f.name for f in module.functions
                          if f.is_declaration and not f.name.startswith("llvm.")]
                         + [g.name for g in module.global_variables if g.is_declaration])))


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


def link_llvm_ir(texts: Sequence[str]) -> llvm.ModuleRef:
    """One LLVM module of the modules `texts` (the parts of a build: what one declares
    another may define); LLVMIRError when they do not parse or link."""
    modules = [parse_llvm_ir(text, f"<llvm-ir {i}>" if len(texts) > 1 else "<llvm-ir>")
               for i, text in enumerate(texts, 1)]
    linked = modules[0]
    for other in modules[1:]:
        try:
            linked.link_in(other)
        except RuntimeError as exc:
            raise LLVMIRError(Diagnostic("error", f"cannot link the LLVM modules: {exc}")) from None
    return linked


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


def check_symbols_resolve(module: llvm.ModuleRef | Sequence[str], name: str) -> None:
    """LLVMIRError when the module (or the list of symbols it needs) declares a
    function or global that neither it nor the process defines: MCJIT would abort the
    process when linking it."""
    needed = _Symbols.of(module).needed if isinstance(module, llvm.ModuleRef) else module
    missing = [f"@{symbol}" for symbol in needed if llvm.address_of_symbol(symbol) is None]
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
    disk_hits: int = 0


_CACHE: dict[str, NativeLibrary] = {}
_CACHE_STATS = {"hits": 0, "misses": 0, "disk_hits": 0}
_CACHE_LOCK = threading.Lock()


class ObjectCode(NamedTuple):
    """One LLVM module compiled to an object file MCJIT loads: what a worker process
    compiling part of a build sends back (picklable), and what the persistent compile
    cache keeps."""

    text: str
    code: bytes
    symbols: _Symbols
    timings: CompileTimes


def compile_llvm_ir(text: str | Sequence[str], target: Target | None = None, *,
                    name: str = "<llvm-ir>",
                    compiled: Sequence[ObjectCode | None] = ()) -> NativeLibrary:
    """Compile LLVM IR text for `target` (default: the host CPU at -O3) into native code
    in this process. The text may be one module or a module in parts (a sequence of
    texts, each compiled on its own and linked into one library: a function one part
    declares another defines). `compiled` gives parts already compiled (by
    `compile_object`, e.g. in worker processes), by position. The same text for the same
    target, with the same symbols bound, is compiled once per process: later calls
    return the first NativeLibrary. Across processes, each part's object code is kept in
    the persistent compile cache (:mod:`mlc.llvm.cache`: `MLC_CACHE_DIR`, off with
    `MLC_CACHE=0`), keyed by the text, the target and LLVM's version, and loaded instead
    of compiled again. LLVMIRError when LLVM rejects the IR; `name` is the file name its
    locations use."""
    target = target or Target()
    parts = [text] if isinstance(text, str) else list(text)
    key = _cache_key(parts, target)
    with _CACHE_LOCK:
        cached = _CACHE.get(key)
        if cached is not None:
            _CACHE_STATS["hits"] += 1
            return cached
    started = time.perf_counter()
    objects, modules = [], []
    for i, part in enumerate(parts):
        part_name = name if len(parts) == 1 else f"{name} part {i + 1}"
        given = compiled[i] if i < len(compiled) else None
        found = given if given is not None else _load_cached(part, target)
        module = None
        if found is None:
            found, module = _compile_object(part, target, part_name)
        objects.append(found)
        modules.append(module)
    loaded = None if any(m is not None for m in modules) or any(compiled) else \
        time.perf_counter() - started
    library = _link(objects, target, name, modules, loaded)
    with _CACHE_LOCK:
        _CACHE_STATS["disk_hits" if library.from_cache else "misses"] += 1
        return _CACHE.setdefault(key, library)


def compile_object(text: str, target: Target | None = None, *,
                   name: str = "<llvm-ir>") -> ObjectCode:
    """Compile one LLVM module's text to object code for MCJIT (parse, verify, optimise
    at the target's -O level, generate code), stored in the persistent compile cache:
    the part of a build a worker process compiles (see `compile_llvm_ir`)."""
    return _compile_object(text, target or Target(), name)[0]


def compile_cache_info() -> CacheInfo:
    """Hits, misses and size of the compile cache (in this process; `disk_hits` are
    the modules loaded from the persistent cache)."""
    with _CACHE_LOCK:
        return CacheInfo(_CACHE_STATS["hits"], _CACHE_STATS["misses"], len(_CACHE),
                         _CACHE_STATS["disk_hits"])


def clear_compile_cache() -> None:
    """Forget the compiled modules of this process (those still referenced stay alive)
    and the counts; the persistent cache on disk is left alone."""
    with _CACHE_LOCK:
        _CACHE.clear()
        _CACHE_STATS.update(hits=0, misses=0, disk_hits=0)


def _cache_key(parts: Sequence[str], target: Target) -> str:
    digest = hashlib.sha256(target.key.encode())
    for part in parts:
        digest.update(b"\0" + part.encode())
    # A module calling a bound symbol links to the address bound when it is compiled.
    for symbol, (address, _) in sorted(_BOUND_SYMBOLS.items()):
        if any(symbol in part for part in parts):
            digest.update(f"\0{symbol}={address}".encode())
    return digest.hexdigest()


_OBJECT_FORMAT = "mlc-jit-object-1"


def object_cache_key(text: str, target: Target) -> str:
    """The persistent cache's key for the object code of `text` for `target`: the text,
    the target, and the LLVM that generates the code. Symbols the code needs from the
    process are linked when it is loaded, so their addresses are not part of it."""
    digest = hashlib.sha256(f"{_OBJECT_FORMAT}|{llvm.llvm_version_info}|{target.key}\0".encode())
    digest.update(text.encode())
    return digest.hexdigest()


def _load_cached(text: str, target: Target) -> ObjectCode | None:
    from mlc.llvm.cache import load_entry

    entry = load_entry("objects", object_cache_key(text, target))
    if entry is None:
        return None
    header, blobs = entry
    try:
        symbols = _Symbols(*(tuple(str(s) for s in header[part])
                             for part in ("functions", "globals", "needed")))
        code = blobs["object"]
    except (KeyError, TypeError):
        return None
    return ObjectCode(text, code, symbols, CompileTimes(0.0, 0.0, 0.0, target.opt_level))


def _compile_object(text: str, target: Target, name: str) -> tuple[ObjectCode, llvm.ModuleRef]:
    started = time.perf_counter()
    module = parse_llvm_ir(text, name)
    parsed = time.perf_counter()
    optimize_module(module, target, jit=True)
    optimized = time.perf_counter()
    code = target.target_machine(jit=True).emit_object(module)
    timings = CompileTimes(parsed - started, optimized - parsed,
                           time.perf_counter() - optimized, target.opt_level)
    symbols = _Symbols.of(module)
    from mlc.llvm.cache import store_entry

    store_entry("objects", object_cache_key(text, target), symbols._asdict(), {"object": code})
    return ObjectCode(text, code, symbols, timings), module


def _link(objects: Sequence[ObjectCode], target: Target, name: str,
          modules: Sequence[llvm.ModuleRef | None], loaded: float | None) -> NativeLibrary:
    """One MCJIT engine running the object files: a symbol one needs and another
    defines is linked between them; the rest must be in the process."""
    started = time.perf_counter()
    defined = {s for o in objects for s in (*o.symbols.functions, *o.symbols.globals)}
    needed = sorted({s for o in objects for s in o.symbols.needed} - defined)
    check_symbols_resolve(needed, name)
    initialize_native_target()
    host = llvm.parse_assembly("")
    host.triple = target.triple
    host.data_layout = str(target.target_machine(jit=True).target_data)
    engine = llvm.create_mcjit_compiler(host, target.owned_target_machine())
    for found in objects:
        engine.add_object_file(llvm.ObjectFileRef.from_data(found.code))
    engine.finalize_object()
    engine.run_static_constructors()
    linking = time.perf_counter() - started
    if loaded is not None:
        timings = CompileTimes(0.0, 0.0, 0.0, target.opt_level, loaded + linking)
    else:
        timings = CompileTimes(sum(o.timings.parse_verify for o in objects),
                               sum(o.timings.optimize for o in objects),
                               sum(o.timings.codegen for o in objects) + linking,
                               target.opt_level)
    symbols = _Symbols(*(tuple(sorted({s for o in objects for s in getattr(o.symbols, part)}))
                         for part in ("functions", "globals")), tuple(needed))
    module = modules[0] if len(modules) == 1 else None
    return NativeLibrary(engine, target, timings, [o.text for o in objects], symbols, module,
                         from_cache=loaded is not None)


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
