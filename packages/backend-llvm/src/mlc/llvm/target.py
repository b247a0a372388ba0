"""The machine code is generated for: a CPU name, its features and an optimisation level.

    from mlc.llvm.target import Target

    host = Target()                                   # this CPU, -O3
    portable = Target(cpu="x86-64-v3", opt_level=2)   # AVX2 machines, -O2
    tm = host.target_machine(jit=True)                # an llvmlite TargetMachine

By default a target is the host: llvmlite's `get_host_cpu_name()` and
`get_host_cpu_features()`. `cpu=` and `features=` override them with LLVM's spellings
(`-mcpu`, `-mattr`: `"+avx2,-avx512f"`); a name LLVM does not know raises
`TargetError` instead of LLVM's warning on stderr and silently generic code.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache

import llvmlite.binding as llvm

__all__ = ["Target", "TargetError", "initialize_native_target"]

OPT_LEVELS = (0, 1, 2, 3)

_FEATURE = re.compile(r"[+-][A-Za-z0-9_.\-]+")
# LLVM's MCSubtargetInfo reports names it does not know on stderr and carries on.
_UNKNOWN_NAME = re.compile(r"'([^']*)' is not a recognized (processor|feature) for this target")


class TargetError(ValueError):
    """A CPU name, feature string or optimisation level that LLVM cannot use."""


@cache
def initialize_native_target() -> None:
    """Initialise LLVM's code generator for the host, once per process (llvmlite 0.50:
    `llvm.initialize()` raises, the native target and asm printer are separate calls)."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.initialize_native_asmparser()
    # The C library's functions (aligned_alloc, free, memcpy, libm's) are what lowered
    # code calls: make the process's own symbols visible to the JIT's linker.
    import ctypes.util

    for library in ("c", "m"):
        path = ctypes.util.find_library(library)
        if path is not None:
            llvm.load_library_permanently(path)


@dataclass(frozen=True)
class Target:
    """What to generate code for. `cpu` and `features` default to the host's (a `cpu`
    given without `features` means that CPU's own features);
    `opt_level` 0..3 is LLVM's -O level for both optimisation and code generation.
    Construction validates everything, so a `Target` always creates a TargetMachine."""

    cpu: str | None = None
    features: str | None = None
    opt_level: int = 3
    triple: str = field(default="", compare=True)

    def __post_init__(self) -> None:
        initialize_native_target()
        if type(self.opt_level) is not int or self.opt_level not in OPT_LEVELS:
            raise TargetError(f"optimisation level must be 0, 1, 2 or 3, not {self.opt_level!r}")
        if not self.triple:
            object.__setattr__(self, "triple", llvm.get_process_triple())
        host = self.cpu is None
        if host:
            object.__setattr__(self, "cpu", llvm.get_host_cpu_name())
        elif not isinstance(self.cpu, str) or not self.cpu.strip():
            raise TargetError(f"a target CPU is a non-empty name such as 'znver4', not {self.cpu!r}")
        if self.features is None:
            # A CPU named without features means that CPU's own (as clang's -march=):
            # `Target(cpu="x86-64-v3")` must not inherit the host's AVX-512.
            features = llvm.get_host_cpu_features().flatten() if host else ""
            object.__setattr__(self, "features", features)
        else:
            object.__setattr__(self, "features", _normalise_features(self.features))
        _check_names(self.triple, self.cpu, self.features)

    @property
    def key(self) -> str:
        """A string that identifies the generated code's target (compile-cache keys)."""
        return f"{self.triple}|{self.cpu}|{self.features}|O{self.opt_level}"

    def describe(self) -> str:
        """One line for reports: `x86_64-unknown-linux-gnu, cpu znver4, -O3`."""
        return f"{self.triple}, cpu {self.cpu}, -O{self.opt_level}"

    @property
    def schedule_target(self):
        """What the schedule rules know of this target
        (:class:`mlc.loop.rules.target.ScheduleTarget`: vector width, registers, FMA,
        caches), from its CPU name and features."""
        from mlc.loop.rules.target import ScheduleTarget

        return ScheduleTarget.from_features(self.cpu, self.features)

    def target_machine(self, jit: bool = True) -> llvm.TargetMachine:
        """An llvmlite TargetMachine for this target: for MCJIT (`jit=True`, LLVM's JIT
        code model) or for position-independent object code to link into a shared
        library (`jit=False`). Created once per target and kind."""
        return _target_machine(self.triple, self.cpu, self.features, self.opt_level, jit)

    def owned_target_machine(self) -> llvm.TargetMachine:
        """A new TargetMachine for MCJIT, which takes ownership of the one it is given
        and frees it with its engine: the shared one of `target_machine` would be freed
        under the other users when a compiled module goes."""
        return _target_machine.__wrapped__(self.triple, self.cpu, self.features,
                                           self.opt_level, True)


def _normalise_features(features: str) -> str:
    if not isinstance(features, str):
        raise TargetError(f"target features are a string such as '+avx2,-avx512f', not {features!r}")
    parts = [part.strip() for part in features.split(",") if part.strip()]
    for part in parts:
        if not _FEATURE.fullmatch(part):
            raise TargetError(f"target feature '{part}' must be '+name' (enable) or '-name' "
                              "(disable), as in '+avx2,-avx512f'")
    return ",".join(parts)


_STDERR_LOCK = threading.Lock()


@contextmanager
def _stderr_captured() -> Iterator[list[str]]:
    """Collect what native code writes to file descriptor 2 inside the block (LLVM
    reports unknown CPU and feature names there, not through an error)."""
    captured: list[str] = []
    with _STDERR_LOCK, tempfile.TemporaryFile() as sink:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(sink.fileno(), 2)
            yield captured
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            captured.append(sink.read().decode("utf-8", "replace"))


@cache  # only successful checks are remembered: a failing one raises each time
def _check_names(triple: str, cpu: str, features: str) -> None:
    """Raise TargetError when LLVM does not know the CPU or a feature."""
    with _stderr_captured() as output:
        _target_machine(triple, cpu, features, 0, True)
    unknown = _UNKNOWN_NAME.findall(output[0])
    if not unknown:
        return
    _target_machine.cache_clear()  # don't keep a machine built from ignored names
    name, kind = unknown[0]
    if kind == "processor":
        raise TargetError(f"unknown target CPU '{name}' for {triple} (the host is "
                          f"'{llvm.get_host_cpu_name()}'; LLVM's names are those of "
                          "clang's -mcpu, e.g. 'x86-64-v3', 'skylake-avx512', 'znver4')")
    names = sorted({n for n, k in unknown if k == "feature"})
    raise TargetError(f"unknown target feature{'s' if len(names) > 1 else ''} "
                      f"{', '.join(repr(n) for n in names)} for {triple} (LLVM's names are "
                      "those of clang's -mattr, e.g. '+avx2', '+fma', '-avx512f')")


@cache
def _target_machine(triple: str, cpu: str, features: str, opt_level: int,
                    jit: bool) -> llvm.TargetMachine:
    try:
        target = llvm.Target.from_triple(triple)
    except RuntimeError as exc:
        raise TargetError(f"LLVM has no target for triple '{triple}': {exc}") from None
    if jit:
        return target.create_target_machine(cpu=cpu, features=features, opt=opt_level,
                                            codemodel="jitdefault", jit=True)
    return target.create_target_machine(cpu=cpu, features=features, opt=opt_level,
                                        reloc="pic", codemodel="default")


def _host_schedule_target():
    return Target().schedule_target


def _register_host_provider() -> None:
    """`loop-default-schedule` without a CPU schedules for this machine as `build`
    does (mlc.loop.rules.target.set_host_provider)."""
    from mlc.loop.rules.target import set_host_provider

    set_host_provider(_host_schedule_target)


_register_host_provider()
