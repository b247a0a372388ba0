"""A target's floating-point peak, measured once and cached: what a profile's "% of
peak" divides by.

The peak is measured, not computed from a table, because clock and FMA ports are not
in what LLVM says of a CPU: a loop of independent vector fused multiply-adds (16
accumulators of the target's widest f32 vector, enough to hide the FMA latency on any
current core) runs for about 50 ms, single thread. The figure is cached
(`mlc.llvm.cache`, file `peak.json`) under the target's key and the host CPU's model
name, so it is measured once per machine and target.
"""

from __future__ import annotations

import platform
import time
from dataclasses import dataclass

import numpy as np

from mlc.llvm.cache import cache_dir, read_json, update_json
from mlc.llvm.target import Target

__all__ = ["Peak", "peak_flops", "measure_peak"]

_ACCUMULATORS = 16
_CACHE_FILE = "peak.json"


@dataclass(frozen=True)
class Peak:
    """Single-thread f32 peak in FLOP/s, the vector width it was measured with, and
    whether it came from the cache."""

    flops: float
    vector_bits: int
    cached: bool = False

    def describe(self) -> str:
        return f"{self.flops / 1e9:.0f} GFLOP/s f32 ({self.vector_bits}-bit FMA, one thread)"


def _host_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as stream:
            for line in stream:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _kernel_ir(lanes: int, fma: bool) -> str:
    """`fma_loop(i64 n, float* out)`: n steps of `_ACCUMULATORS` independent vector
    multiply-adds, the accumulators' sum stored to out (so nothing is dead)."""
    vec = f"<{lanes} x float>"
    zero = "zeroinitializer"
    x = f"<{', '.join(['float 0x3FF0000020000000'] * lanes)}>"  # 1 + 2^-26
    y = f"<{', '.join(['float 0x3E80000000000000'] * lanes)}>"  # 2^-23
    lines = [f"declare {vec} @llvm.fma.v{lanes}f32({vec}, {vec}, {vec})",
             "define void @fma_loop(i64 %n, ptr noalias %out) {",
             "entry:", "  br label %loop", "loop:",
             "  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]"]
    for k in range(_ACCUMULATORS):
        lines.append(f"  %a{k} = phi {vec} [ {zero}, %entry ], [ %b{k}, %loop ]")
    for k in range(_ACCUMULATORS):
        if fma:
            lines.append(f"  %b{k} = call {vec} @llvm.fma.v{lanes}f32({vec} %a{k}, {vec} {x}, "
                         f"{vec} {y})")
        else:
            lines.append(f"  %m{k} = fmul {vec} %a{k}, {x}")
            lines.append(f"  %b{k} = fadd {vec} %m{k}, {y}")
    lines += ["  %i.next = add i64 %i, 1", "  %more = icmp ult i64 %i.next, %n",
              "  br i1 %more, label %loop, label %done", "done:"]
    total = "%b0"
    for k in range(1, _ACCUMULATORS):
        lines.append(f"  %s{k} = fadd {vec} {total}, %b{k}")
        total = f"%s{k}"
    lines.append(f"  %lane = extractelement {vec} {total}, i32 0")
    lines += ["  store float %lane, ptr %out", "  ret void", "}"]
    return "\n".join(lines) + "\n"


def measure_peak(target: Target, seconds: float = 0.05) -> Peak:
    """Measure `target`'s single-thread f32 peak on this machine (the target's vector
    width; plain multiplies and adds when it has no FMA)."""
    from mlc.llvm.jit import compile_llvm_ir
    from mlc.llvm.native_call import ArgSpec

    facts = target.schedule_target
    lanes = facts.lanes(32)
    library = compile_llvm_ir(_kernel_ir(lanes, facts.fma), target, name="<fma-peak>")
    kernel = library.function("fma_loop", [ArgSpec("n", None, "int64"),
                                           ArgSpec("out", (1,), "float32", "output")])
    out = np.zeros(1, np.float32)
    steps = 1 << 12
    while True:  # grow the loop until one run takes a tenth of the budget
        began = time.perf_counter()
        kernel(steps, out)
        elapsed = time.perf_counter() - began
        if elapsed > seconds / 10 or steps > 1 << 34:
            break
        steps *= 4
    best = elapsed
    for _ in range(5):
        began = time.perf_counter()
        kernel(steps, out)
        best = min(best, time.perf_counter() - began)
    flops = steps * _ACCUMULATORS * lanes * 2 / best
    return Peak(flops, facts.vector_bits)


def peak_flops(target: Target | None = None) -> Peak:
    """`target`'s peak (default: the host), from the cache or measured and cached."""
    target = target or Target()
    key = f"{target.key}|{_host_model()}"
    folder = cache_dir()
    if folder is not None:
        known = read_json(folder / _CACHE_FILE).get(key)
        if isinstance(known, (int, float)) and known > 0:
            return Peak(float(known), target.schedule_target.vector_bits, cached=True)
    peak = measure_peak(target)
    update_json(_CACHE_FILE, key, peak.flops)
    return peak
