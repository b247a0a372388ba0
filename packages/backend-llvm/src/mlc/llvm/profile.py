"""Where the time goes: a per-kernel profile of a compiled model (TVM's debug executor,
onnxruntime's profiling).

    profile = model.profile(x, runs=20)       # CompiledModel.profile
    print(profile.table())                    # kernels by time: calls, ms, share, GFLOP/s, % of peak
    profile.to_json()                         # the same as data (mlc-run --profile-json)

How: every build compiles, beside the entry `@main`, a timed copy `@main__profile`
(:func:`add_profiled_entry`) that reads the monotonic clock (`clock_gettime`, the C
library's, a few tens of nanoseconds) around each call into a kernel and around the
whole entry, and adds each interval to a slot of an extra `i64` buffer argument. The
kernels are the same native code the entry calls: profiling measures what runs. A
kernel's FLOPs and bytes come from its loop IR (:mod:`mlc.loop.cost`), the peak from
:mod:`mlc.llvm.peak`. Time spent in the entry outside the kernels is its own row.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from mlc.ir.core.attributes import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
)
from mlc.ir.core.ir import Operation
from mlc.ir.dialects import arith, memref
from mlc.ir.dialects.func import CallOp, FuncOp, ReturnOp
from mlc.ir.rewrite.rewriter import Rewriter

__all__ = ["ProfiledEntry", "KernelProfile", "Profile", "add_profiled_entry", "PROFILE_SUFFIX"]

PROFILE_SUFFIX = "__profile"
_CLOCK = "clock_gettime"
_CLOCK_MONOTONIC = 1  # Linux's CLOCK_MONOTONIC
_i64 = IntegerType(64)
_i32 = IntegerType(32)


@dataclass(frozen=True)
class ProfiledEntry:
    """The timed copy of an entry: its name, and the kernel each slot of its `i64`
    buffer times (the last slot is the whole entry)."""

    name: str
    slots: tuple[str, ...]

    @property
    def buffer_size(self) -> int:
        return len(self.slots) + 1


def _functions(module: Operation) -> dict[str, Operation]:
    return {op.attributes["sym_name"].value: op for op in module.regions[0].blocks[0].ops()
            if isinstance(op, FuncOp)}


def add_profiled_entry(module: Operation, entry: str = "main") -> ProfiledEntry | None:
    """Add `@{entry}__profile` to `module` (standard dialects, after the AOT entry is
    made): `entry`'s body with the clock read around each `func.call` and around the
    whole body, the intervals added to a new last argument `memref<Nxi64>` in
    nanoseconds. None (nothing added) when the module already defines something
    named `clock_gettime`, or the entry is missing."""
    functions = _functions(module)
    fn = functions.get(entry)
    if fn is None or not fn.regions[0].blocks or _CLOCK in functions \
            or entry + PROFILE_SUFFIX in functions:
        return None
    rewriter = Rewriter()
    timed = fn.clone()
    timed.attributes["sym_name"] = StringAttr(entry + PROFILE_SUFFIX)
    body = timed.regions[0].blocks[0]
    calls = [op for op in timed.walk() if isinstance(op, CallOp)]
    slots = tuple(op.callee.leaf for op in calls)
    buffer_type = MemRefType((len(slots) + 1,), _i64)
    buffer = body.add_argument(buffer_type, "profile_ns", timed.loc)
    old = timed.attributes["function_type"].value
    timed.attributes["function_type"] = TypeAttr(FunctionType((*old.inputs, buffer_type),
                                                              old.results))
    arg_attrs = timed.attributes.get("arg_attrs")
    if isinstance(arg_attrs, ArrayAttr):
        timed.attributes["arg_attrs"] = ArrayAttr((*arg_attrs, DictionaryAttr(())))
    clock = _Clock(rewriter, buffer)
    rewriter.set_insertion_point_to_start(body)
    clock.setup()
    began = clock.now()
    for slot, call in enumerate(calls):
        rewriter.set_insertion_point_before(call)
        start = clock.now()
        rewriter.set_insertion_point_after(call)
        clock.add(slot, start)
    for ret in [op for op in timed.walk() if isinstance(op, ReturnOp)
                and op.parent_op is timed]:
        rewriter.set_insertion_point_before(ret)
        clock.add(len(slots), began)
    top = module.regions[0].blocks[0]
    rewriter.set_insertion_point_after(fn)
    rewriter.insert(timed)
    rewriter.set_insertion_point_to_end(top)
    declaration = FuncOp.create_function(
        _CLOCK, FunctionType((_i32, MemRefType((2,), _i64)), (_i32,)), "private")
    declaration.regions[0].blocks[0].erase()
    rewriter.insert(declaration)
    return ProfiledEntry(entry + PROFILE_SUFFIX, slots)


class _Clock:
    """Emits the clock reads and the accumulation into the profile buffer."""

    def __init__(self, rewriter: Rewriter, buffer):
        self.rewriter, self.buffer = rewriter, buffer

    def _constant(self, value: int, type_):
        return self.rewriter.insert(arith.ConstantOp.build(
            value=IntegerAttr(value, type_))).results[0]

    def setup(self) -> None:
        self.timespec = self.rewriter.insert(memref.AllocaOp.build(
            [], [], result_types=[MemRefType((2,), _i64)])).results[0]
        self.clock_id = self._constant(_CLOCK_MONOTONIC, _i32)
        self.billion = self._constant(1_000_000_000, _i64)
        self.zero = self._constant(0, IndexType())
        self.one = self._constant(1, IndexType())

    def now(self):
        """Nanoseconds of the monotonic clock, as an i64 value."""
        insert = self.rewriter.insert
        insert(CallOp.build([self.clock_id, self.timespec], callee=SymbolRefAttr(_CLOCK),
                            result_types=[_i32]))
        seconds = insert(memref.LoadOp.build(self.timespec, [self.zero],
                                             result_types=[_i64])).results[0]
        nanos = insert(memref.LoadOp.build(self.timespec, [self.one],
                                           result_types=[_i64])).results[0]
        scaled = insert(arith.MulIOp.build(seconds, self.billion)).results[0]
        return insert(arith.AddIOp.build(scaled, nanos)).results[0]

    def add(self, slot: int, start) -> None:
        """buffer[slot] += now() - start."""
        insert = self.rewriter.insert
        end = self.now()
        interval = insert(arith.SubIOp.build(end, start)).results[0]
        index = self._constant(slot, IndexType())
        total = insert(memref.LoadOp.build(self.buffer, [index], result_types=[_i64])).results[0]
        added = insert(arith.AddIOp.build(total, interval)).results[0]
        insert(memref.StoreOp.build(added, self.buffer, [index]))


@dataclass(frozen=True)
class KernelProfile:
    """One kernel's row: calls over all runs, total seconds, share of the entry's time,
    FLOPs and bytes per call (None when unknown)."""

    name: str
    calls: int
    seconds: float
    share: float
    flops: int | None = None
    bytes: int | None = None

    @property
    def per_call(self) -> float:
        return self.seconds / self.calls if self.calls else 0.0

    @property
    def flop_rate(self) -> float | None:
        """FLOP/s achieved."""
        if self.flops is None or not self.seconds:
            return None
        return self.flops * self.calls / self.seconds

    @property
    def byte_rate(self) -> float | None:
        """Bytes/s of compulsory traffic."""
        if self.bytes is None or not self.seconds:
            return None
        return self.bytes * self.calls / self.seconds


@dataclass
class Profile:
    """Per-kernel times of `runs` runs of a model's entry, sorted by time."""

    runs: int
    total_seconds: float
    kernels: list[KernelProfile] = field(default_factory=list)
    peak_flops: float | None = None
    target: str = ""

    @property
    def seconds_per_run(self) -> float:
        return self.total_seconds / self.runs if self.runs else 0.0

    def percent_of_peak(self, row: KernelProfile) -> float | None:
        rate = row.flop_rate
        if rate is None or not self.peak_flops:
            return None
        return 100.0 * rate / self.peak_flops

    def table(self, limit: int | None = None) -> str:
        """The rows as a text table, heaviest first: calls, ms per run, share, FLOPs per
        call, GFLOP/s, % of peak, and GB/s where the kernel moves more bytes than it
        computes FLOPs (where memory traffic is what bounds it)."""
        header = (f"{'kernel':<44} {'calls':>6} {'ms/run':>9} {'share':>6} {'FLOP':>8} "
                  f"{'GFLOP/s':>8} {'%peak':>6} {'GB/s':>7}")
        lines = [f"profile of {self.runs} run{'s' if self.runs != 1 else ''}: "
                 f"{self.seconds_per_run * 1e3:.3f} ms per run"
                 + (f"; peak {self.peak_flops / 1e9:.0f} GFLOP/s ({self.target})"
                    if self.peak_flops else ""), header, "-" * len(header)]
        rows = self.kernels if limit is None else self.kernels[:limit]
        for row in rows:
            rate, percent = row.flop_rate, self.percent_of_peak(row)
            memory_bound = row.bytes is not None and row.flops is not None \
                and row.bytes > row.flops
            bytes_rate = row.byte_rate if memory_bound else None
            lines.append(
                f"{_clip(row.name, 44):<44} {row.calls // max(self.runs, 1):>6} "
                f"{row.seconds / max(self.runs, 1) * 1e3:>9.3f} {row.share * 100:>5.1f}% "
                f"{_count(row.flops):>8} {_number(rate, 1e9, 1):>8} "
                f"{_number(percent, 1, 1):>6} {_number(bytes_rate, 1e9, 1):>7}")
        if limit is not None and len(self.kernels) > limit:
            lines.append(f"... {len(self.kernels) - limit} more")
        return "\n".join(lines)

    def to_json(self) -> dict:
        """The profile as JSON data."""
        return {
            "runs": self.runs, "ms_per_run": self.seconds_per_run * 1e3,
            "peak_gflops": None if self.peak_flops is None else self.peak_flops / 1e9,
            "target": self.target,
            "kernels": [{
                "name": row.name, "calls_per_run": row.calls // max(self.runs, 1),
                "ms_per_run": row.seconds / max(self.runs, 1) * 1e3, "share": row.share,
                "flops_per_call": row.flops, "bytes_per_call": row.bytes,
                "gflops_per_s": None if row.flop_rate is None else row.flop_rate / 1e9,
                "percent_of_peak": self.percent_of_peak(row),
                "gbytes_per_s": None if row.byte_rate is None else row.byte_rate / 1e9,
            } for row in self.kernels]}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def best_of(cls, profiles: list[Profile]) -> Profile:
        """One run made of each kernel's fastest run among `profiles` (of one run each,
        of the same model): on a shared machine, what a kernel costs when nothing else
        takes its core, as a benchmark's minimum is. Sorted by time again."""
        if not profiles or any(p.runs != 1 for p in profiles):
            raise ValueError("best_of takes profiles of one run each")
        fastest: dict[str, KernelProfile] = {}
        for profile in profiles:
            for row in profile.kernels:
                if row.name not in fastest or row.seconds < fastest[row.name].seconds:
                    fastest[row.name] = row
        total = sum(row.seconds for row in fastest.values())
        rows = sorted((KernelProfile(r.name, r.calls, r.seconds,
                                     r.seconds / total if total else 0.0, r.flops, r.bytes)
                       for r in fastest.values()), key=lambda r: -r.seconds)
        return cls(1, total, rows, profiles[0].peak_flops, profiles[0].target)

    def markdown(self) -> str:
        """The rows as a Markdown table: calls, ms per run, share, GFLOP/s, % of peak."""
        lines = ["| kernel | calls | ms | share | FLOP per call | GFLOP/s | % of peak |",
                 "|:---|---:|---:|---:|---:|---:|---:|"]
        for row in self.kernels:
            lines.append(
                f"| {row.name} | {row.calls // max(self.runs, 1)} | "
                f"{row.seconds / max(self.runs, 1) * 1e3:.3f} | {row.share * 100:.1f}% | "
                f"{_count(row.flops)} | {_number(row.flop_rate, 1e9, 1)} | "
                f"{_number(self.percent_of_peak(row), 1, 1)} |")
        return "\n".join(lines)


def _number(value: float | None, scale: float, digits: int) -> str:
    return "-" if value is None else f"{value / scale:.{digits}f}"


def _count(value: int | None) -> str:
    """`2.48G`, `201K`: a count with an SI prefix."""
    if value is None:
        return "-"
    for scale, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K")):
        if value >= scale:
            return f"{value / scale:.3g}{prefix}"
    return str(value)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def summarize(entry: ProfiledEntry, totals, runs: int, costs: dict, peak_flops: float | None,
              target: str) -> Profile:
    """The Profile of `runs` runs from the profile buffer's `totals` (nanoseconds per
    slot, the entry's last), grouping the slots by kernel."""
    whole = int(totals[-1]) / 1e9
    by_kernel: dict[str, list[float]] = {}
    for name, nanos in zip(entry.slots, totals[:-1]):
        by_kernel.setdefault(name, []).append(int(nanos) / 1e9)
    rows = []
    inside = 0.0
    for name, times in by_kernel.items():
        seconds = sum(times)
        inside += seconds
        cost = costs.get(name)
        rows.append(KernelProfile(name, len(times) * runs, seconds,
                                  seconds / whole if whole else 0.0,
                                  None if cost is None else cost.flops,
                                  None if cost is None else cost.bytes))
    outside = max(whole - inside, 0.0)
    caller = entry.name.removesuffix(PROFILE_SUFFIX)
    own = costs.get(caller)
    rows.append(KernelProfile(f"@{caller} (outside calls)" if by_kernel else f"@{caller}", runs,
                              outside, outside / whole if whole else 0.0,
                              None if own is None or by_kernel else own.flops,
                              None if own is None or by_kernel else own.bytes))
    rows.sort(key=lambda row: (-row.seconds, row.name))
    return Profile(runs, whole, rows, peak_flops, target)
