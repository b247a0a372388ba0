"""What the schedule rules need to know of the machine the code is generated for:
vector width, vector registers, fused multiply-add, cache sizes.

A `ScheduleTarget` is made from a CPU name and LLVM's feature string (what
`mlc.llvm.Target` holds: `ScheduleTarget.from_features("znver4", "+avx512f,...")`),
never from the machine that runs the compiler, so code built for an AVX2 target gets
AVX2 schedules wherever it is built.
"""

from __future__ import annotations

from collections.abc import Callable

from dataclasses import dataclass

__all__ = ["ScheduleTarget"]

# (L1 data, L2) per core, bytes, by LLVM CPU name; others get the generic figures.
_CACHES = {
    "znver3": (32 << 10, 512 << 10), "znver4": (32 << 10, 1 << 20), "znver5": (48 << 10, 1 << 20),
    "skylake-avx512": (32 << 10, 1 << 20), "cascadelake": (32 << 10, 1 << 20),
    "icelake-server": (48 << 10, 1280 << 10), "sapphirerapids": (48 << 10, 2 << 20),
    "emeraldrapids": (48 << 10, 2 << 20), "graniterapids": (48 << 10, 2 << 20),
    "rocketlake": (48 << 10, 512 << 10), "tigerlake": (48 << 10, 1280 << 10),
    "alderlake": (48 << 10, 1280 << 10), "haswell": (32 << 10, 256 << 10),
    "skylake": (32 << 10, 256 << 10),
}
_GENERIC_CACHES = (32 << 10, 512 << 10)

# The vector extensions a CPU name implies when no feature string says otherwise (an
# explicit `+avx512f`/`-avx512f` wins).
_AVX512_CPUS = frozenset({
    "x86-64-v4", "skylake-avx512", "cascadelake", "cooperlake", "cannonlake",
    "icelake-client", "icelake-server", "tigerlake", "rocketlake", "sapphirerapids",
    "emeraldrapids", "graniterapids", "graniterapids-d", "diamondrapids", "znver4",
    "znver5", "knl", "knm",
})
_AVX2_CPUS = frozenset({
    "x86-64-v3", "haswell", "broadwell", "skylake", "alderlake", "raptorlake",
    "meteorlake", "arrowlake", "lunarlake", "gracemont", "znver1", "znver2", "znver3",
    "bdver4",
})


@dataclass(frozen=True)
class ScheduleTarget:
    """The machine facts the rules use: `vector_bits` (the widest vector register code
    may use), `vector_registers` (how many there are), `fma` (a fused multiply-add
    instruction exists), and the per-core `l1_bytes`/`l2_bytes` data caches."""

    cpu: str
    vector_bits: int
    vector_registers: int
    fma: bool
    l1_bytes: int
    l2_bytes: int

    @classmethod
    def from_features(cls, cpu: str, features: str) -> ScheduleTarget:
        """The facts LLVM's CPU name and feature string (`+avx512f,+fma,-avx10.1,...`)
        imply, for x86-64 and AArch64 (other targets: 128-bit vectors): the CPU's own
        extensions, then the features' additions and removals."""
        enabled = {"avx512f", "avx", "fma"} if cpu in _AVX512_CPUS else \
            {"avx", "fma"} if cpu in _AVX2_CPUS else set()
        for flag in (f.strip() for f in features.split(",")):
            if flag.startswith("+"):
                enabled.add(flag[1:])
            elif flag.startswith("-"):
                enabled.discard(flag[1:])
                if flag[1:] == "avx":  # no AVX, no AVX-512 either
                    enabled.discard("avx512f")
        if "avx512f" in enabled:
            bits, registers = 512, 32
        elif "avx" in enabled:
            bits, registers = 256, 16
        elif "neon" in enabled or "sve" in enabled:
            bits, registers = 128, 32
        else:
            bits, registers = 128, 16
        fma = bool(enabled & {"fma", "avx512f", "neon", "sve"})
        l1, l2 = _CACHES.get(cpu, _GENERIC_CACHES)
        return cls(cpu, bits, registers, fma, l1, l2)

    @classmethod
    def host(cls) -> ScheduleTarget:
        """This machine — what `loop-default-schedule` assumes when given no CPU: as
        the code generator sees it when one has registered itself
        (`set_host_provider`: mlc.llvm's `Target()`, LLVM's name for the CPU and its
        caches, so the pass and `build` choose the same schedules), else from the CPU
        flags the kernel reports (/proc/cpuinfo)."""
        if _host_provider is not None:
            return _host_provider()
        flags: set[str] = set()
        try:
            with open("/proc/cpuinfo", encoding="utf-8") as stream:
                for line in stream:
                    if line.startswith(("flags", "Features")):
                        flags = set(line.split(":", 1)[1].split())
                        break
        except OSError:
            pass
        known = {"avx512f": "avx512f", "avx2": "avx", "avx": "avx", "fma": "fma",
                 "asimd": "neon", "neon": "neon", "sve": "sve"}
        features = ",".join(sorted({"+" + known[f] for f in flags if f in known}))
        return cls.from_features("host", features)

    def lanes(self, element_bits: int) -> int:
        """How many elements of `element_bits` one vector register holds."""
        return max(1, self.vector_bits // element_bits)

    def describe(self) -> str:
        """`znver4: 512-bit vectors x 32, FMA, L1 32 KiB, L2 1024 KiB`."""
        return (f"{self.cpu}: {self.vector_bits}-bit vectors x {self.vector_registers}"
                f"{', FMA' if self.fma else ''}, L1 {self.l1_bytes >> 10} KiB, "
                f"L2 {self.l2_bytes >> 10} KiB")


_host_provider: Callable[[], ScheduleTarget] | None = None


def set_host_provider(provider: Callable[[], ScheduleTarget] | None) -> None:
    """Make `ScheduleTarget.host()` ask `provider` (a code generator's view of this
    machine; None: back to /proc/cpuinfo)."""
    global _host_provider
    _host_provider = provider
