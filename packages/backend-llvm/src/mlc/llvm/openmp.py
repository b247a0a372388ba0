"""The OpenMP runtime that parallel loops run on, and how many threads they use.

    from mlc.llvm.openmp import find_runtime, resolve_num_threads

    resolve_num_threads(None)    # MLC_NUM_THREADS, else the cores this process may use
    find_runtime()               # OpenMPRuntime('libgomp.so.1', '/lib/.../libgomp.so.1')

Parallel loops call the runtime that ships with the system's compiler, as MLIR's and
gcc's code does: gcc's `libgomp.so.1`, or LLVM's `libomp` where that is what is
installed (it exports the same `GOMP_*` entry points). `MLC_OPENMP_RUNTIME` names the
library to use instead (a path, or a name the dynamic loader resolves); then no other
is tried. A library qualifies when it defines every function in `RUNTIME_SYMBOLS`.

The thread count of a build is fixed when it is compiled: `num_threads` given, else
`MLC_NUM_THREADS`, else the cores in this process's affinity mask. One thread is the
serial code path, with no runtime calls at all; without a runtime, a build says so in
one line (an `OpenMPRuntimeWarning`) and runs on one thread.

libgomp is not fork-safe: a child made by `os.fork` (multiprocessing's default start
method on Linux) after the parent ran a parallel region inherits a thread pool whose
threads do not exist, and its next parallel region waits for them forever. So once a
runtime is loaded, a forked child sets the runtime's max-active-levels to 0
(`omp_set_max_active_levels(0)`): every parallel region there is inactive, a team of
one thread (OpenMP's own rule), and the child computes the same results serially
instead of hanging. Processes started with `spawn` or `forkserver` keep their threads.

This module imports only ctypes and the standard library: the loader of exported
libraries (:mod:`mlc.llvm.loader`) finds the runtime with it.
"""

from __future__ import annotations

import ctypes
import os
import sys
import warnings
from dataclasses import dataclass

__all__ = ["ENV_NUM_THREADS", "ENV_RUNTIME", "MAX_THREADS", "RUNTIME_SYMBOLS", "CANDIDATES",
           "OpenMPRuntime", "OpenMPRuntimeWarning", "available_cores", "check_num_threads",
           "resolve_num_threads", "find_runtime", "runtime_problem", "threads_for_build",
           "load_runtime_for_jit"]

ENV_NUM_THREADS = "MLC_NUM_THREADS"
"""The environment variable giving the default thread count."""

ENV_RUNTIME = "MLC_OPENMP_RUNTIME"
"""The environment variable naming the OpenMP runtime library to use."""

MAX_THREADS = 1024
"""The most threads a build may ask for: the runtime aborts the process when it cannot
create a thread, so an absurd count is refused here instead."""

RUNTIME_SYMBOLS = ("GOMP_parallel", "omp_get_thread_num", "omp_get_num_threads",
                   "GOMP_loop_dynamic_start", "GOMP_loop_dynamic_next", "GOMP_loop_end_nowait")
"""What compiled parallel loops call (see mlc.llvm.conversion.scf_parallel_to_gomp)."""

CANDIDATES = ("libgomp.so.1", "libomp.so.5", "libomp.so", "libgomp.1.dylib", "libomp.dylib")
"""The libraries tried in order when MLC_OPENMP_RUNTIME is not set."""


class OpenMPRuntimeWarning(RuntimeWarning):
    """No OpenMP runtime was found: the build runs its parallel loops on one thread."""


@dataclass(frozen=True)
class OpenMPRuntime:
    """A loadable OpenMP runtime: the name it was asked for by, and the file loaded."""

    name: str
    path: str


def available_cores() -> int:
    """The cores this process may run on (its affinity mask, where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def check_num_threads(value: object, what: str = "num_threads") -> int:
    """`value` as a thread count; ValueError, naming `what`, unless it is an integer
    from 1 to MAX_THREADS."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_THREADS:
        raise ValueError(f"{what} must be a whole number of threads from 1 to {MAX_THREADS}, "
                         f"not {value!r}")
    return value


def resolve_num_threads(num_threads: int | None = None) -> int:
    """The thread count to compile for: `num_threads` if given, else MLC_NUM_THREADS
    if set, else the cores this process may use. ValueError for a bad value."""
    if num_threads is not None:
        return check_num_threads(num_threads)
    text = os.environ.get(ENV_NUM_THREADS, "").strip()
    if text:
        what = f"{ENV_NUM_THREADS}={text!r}"
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{what}: a whole number of threads from 1 to {MAX_THREADS} "
                             "is expected") from None
        return check_num_threads(value, what)
    return available_cores()


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def _file_of(address: int, fallback: str) -> str:
    """The file of the shared library holding `address` (dladdr), or `fallback`."""
    try:
        dladdr = ctypes.CDLL(None).dladdr
    except (AttributeError, OSError):
        return fallback
    dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
    info = _DlInfo()
    if dladdr(address, ctypes.byref(info)) and info.dli_fname:
        return os.fsdecode(info.dli_fname)
    return fallback


def _try_load(name: str) -> tuple[OpenMPRuntime | None, str]:
    """(the runtime `name` names, "") or (None, why not)."""
    try:
        library = ctypes.CDLL(name, mode=getattr(os, "RTLD_GLOBAL", 0))
    except OSError as exc:
        return None, str(exc) or f"{name}: cannot be loaded"
    missing = [symbol for symbol in RUNTIME_SYMBOLS if not hasattr(library, symbol)]
    if missing:
        return None, f"{name} is not an OpenMP runtime (it lacks {', '.join(missing)})"
    address = ctypes.cast(library.GOMP_parallel, ctypes.c_void_p).value or 0
    runtime = OpenMPRuntime(name, _file_of(address, name))
    _serialize_forked_children(library, runtime.path)
    return runtime, ""


_FORK_GUARDED: set[str] = set()


def _serialize_forked_children(library: ctypes.CDLL, path: str) -> None:
    """Make parallel regions run on one thread in children this process forks (see the
    module's docstring), once per runtime file."""
    set_levels = getattr(library, "omp_set_max_active_levels", None)
    if set_levels is None or path in _FORK_GUARDED or not hasattr(os, "register_at_fork"):
        return
    set_levels.argtypes, set_levels.restype = [ctypes.c_int], None
    os.register_at_fork(after_in_child=lambda: set_levels(0))
    _FORK_GUARDED.add(path)


_FOUND: dict[str, tuple[OpenMPRuntime | None, str]] = {}


def _search() -> tuple[OpenMPRuntime | None, str]:
    chosen = os.environ.get(ENV_RUNTIME, "")
    cached = _FOUND.get(chosen)
    if cached is not None:
        return cached
    if chosen:
        runtime, problem = _try_load(chosen)
        found = (runtime, f"{ENV_RUNTIME}={chosen!r}: {problem}" if problem else "")
    else:
        problems = []
        found = (None, "")
        for name in CANDIDATES:
            if not name.endswith(".dylib") and sys.platform == "darwin":
                continue
            runtime, problem = _try_load(name)
            if runtime is not None:
                found = (runtime, "")
                break
            problems.append(problem)
        else:
            found = (None, "; ".join(problems))
    _FOUND[chosen] = found
    return found


def find_runtime() -> OpenMPRuntime | None:
    """The OpenMP runtime parallel code runs on, loaded into this process; None when
    there is none (`runtime_problem()` says why). The search is done once per value
    of MLC_OPENMP_RUNTIME."""
    return _search()[0]


def runtime_problem() -> str:
    """Why find_runtime() finds nothing ("" when it finds a runtime)."""
    return _search()[1]


def threads_for_build(num_threads: int | None, stacklevel: int = 3) -> int:
    """The thread count a build compiles for (see resolve_num_threads); 1, with an
    OpenMPRuntimeWarning, when it would be more but no OpenMP runtime is found.
    `stacklevel` points the warning at the caller's caller (the user's build call)."""
    threads = resolve_num_threads(num_threads)
    if threads > 1 and find_runtime() is None:
        warnings.warn(OpenMPRuntimeWarning(
            f"no OpenMP runtime found ({runtime_problem()}), so parallel loops run on one "
            f"thread instead of {threads}: install gcc's libgomp1 or LLVM's libomp, or set "
            f"{ENV_RUNTIME} to its path"), stacklevel=stacklevel)
        return 1
    return threads


def load_runtime_for_jit() -> OpenMPRuntime:
    """Make the runtime's functions resolvable by code the JIT compiles (llvmlite's
    load_library_permanently); RuntimeError when there is no runtime."""
    import llvmlite.binding as llvm

    runtime = find_runtime()
    if runtime is None:
        raise RuntimeError(f"no OpenMP runtime: {runtime_problem()}")
    if runtime.path not in _JIT_LOADED:
        llvm.load_library_permanently(runtime.path)
        _JIT_LOADED.add(runtime.path)
    return runtime


_JIT_LOADED: set[str] = set()
