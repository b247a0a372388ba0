"""The persistent build cache: a second `build` of the same model with the same options
skips the compiler and loads what the first one made.

A build is keyed by everything its result depends on: the graph module (its
:func:`~mlc.ir.text.fingerprint.fingerprint`: the text with locations, weights hashed
as bytes), the entry, the names of the bound params, the pipeline, the schedule, the
thread count, the target, the active PassContext's settings (opt level, required and
disabled passes, config), and mlc's own source code (a changed pass must never be
served an old build; the source is hashed once per process). The entry (one file of
:mod:`mlc.llvm.cache`, checksummed) holds what `build` hands to `CompiledModel`: the
LLVM IR, the weights as the graph passes left them (re-laid constants included), the
argument specs, the schedules' traces, the kernels' costs and the profiled entry. The
object code comes from the object cache of :mod:`mlc.llvm.jit`, keyed by that LLVM IR.

Builds that call Python functions (`extern`) are not cached: their bindings live in
the process; nor are builds under a PassContext with instruments, which expect to see
the passes run. Caching is off with `MLC_CACHE=0`.
"""

from __future__ import annotations

import hashlib
import io
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mlc.ir.core.ir import Operation
from mlc.llvm.cache import cache_dir, load_entry, store_entry
from mlc.llvm.native_call import ArgSpec

__all__ = ["CachedBuild", "build_key", "load_build", "store_build"]

_FORMAT = "mlc-build-1"
_SOURCE_DIGEST: str | None = None


def _source_digest() -> str:
    """The SHA-256 of mlc's Python sources and grammars (every package of the `mlc`
    namespace), computed once per process."""
    global _SOURCE_DIGEST
    if _SOURCE_DIGEST is None:
        import mlc

        digest = hashlib.sha256()
        for root in sorted(str(p) for p in mlc.__path__):
            for path in sorted(Path(root).rglob("*")):
                if path.suffix in (".py", ".lark") and path.is_file():
                    digest.update(str(path.relative_to(root)).encode() + b"\0")
                    digest.update(path.read_bytes())
        _SOURCE_DIGEST = digest.hexdigest()
    return _SOURCE_DIGEST


def build_key(module: Operation, entry: str, params: Mapping[str, Any], stages: list[str],
              schedule: str | None, num_threads: int, target_key: str) -> str | None:
    """The cache key of a build (module docstring), or None when the build must run:
    caching is off (no need to hash the model then), or the active PassContext has
    instruments, which watch the passes run."""
    from mlc.ir.passes.context import PassContext
    from mlc.ir.text.fingerprint import fingerprint

    context = PassContext.current()
    if context.instruments or cache_dir() is None:
        return None
    settings = repr((context.opt_level, sorted(context.required), sorted(context.disabled),
                     sorted(context.config.items())))
    parts = [_FORMAT, _source_digest(), fingerprint(module), entry, ",".join(sorted(params)),
             *stages, str(schedule), str(num_threads), target_key, settings]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


@dataclass
class CachedBuild:
    """What a build leaves for `CompiledModel` (module docstring)."""

    llvm_ir: str | list[str]
    """One LLVM module, or the parts worker processes compiled (mlc.llvm.compile_parts)."""
    specs: list[ArgSpec]
    workspaces: list[ArgSpec]
    weights: dict[str, np.ndarray]
    index_sites: list[str] | None
    profiled: tuple[str, tuple[str, ...]] | None
    kernel_costs: dict[str, Any]
    """mlc.loop.cost.KernelCost by kernel."""
    schedules: dict[str, list]


def _spec_json(spec: ArgSpec) -> list:
    return [spec.name, None if spec.shape is None else list(spec.shape), spec.dtype, spec.role]


def _spec(data: list) -> ArgSpec:
    name, shape, dtype, role = data
    return ArgSpec(str(name), None if shape is None else tuple(int(n) for n in shape),
                   str(dtype), str(role))


def store_build(key: str, build: CachedBuild) -> None:
    """Keep `build` as the entry `key` (nothing when caching is off)."""
    weights = io.BytesIO()
    np.savez(weights, **build.weights)
    header = {
        "specs": [_spec_json(s) for s in build.specs],
        "workspaces": [_spec_json(s) for s in build.workspaces],
        "weights": list(build.weights),
        "index_sites": build.index_sites,
        "profiled": None if build.profiled is None else [build.profiled[0],
                                                         list(build.profiled[1])],
        "kernel_costs": {name: [cost.flops, cost.bytes]
                         for name, cost in build.kernel_costs.items()},
        "schedules": build.schedules,
    }
    parts = [build.llvm_ir] if isinstance(build.llvm_ir, str) else build.llvm_ir
    header["llvm_ir_parts"] = len(parts)
    store_entry("builds", key, header, {
        **{f"llvm_ir_{i}": zlib.compress(text.encode(), 1) for i, text in enumerate(parts)},
        "weights": weights.getvalue()})


def load_build(key: str) -> CachedBuild | None:
    """The build kept as `key`, or None (a miss)."""
    from mlc.loop.cost import KernelCost

    entry = load_entry("builds", key)
    if entry is None:
        return None
    header, blobs = entry
    try:
        with np.load(io.BytesIO(blobs["weights"]), allow_pickle=False) as stored:
            weights = {str(name): stored[name] for name in header["weights"]}
        profiled = header["profiled"]
        return CachedBuild(
            llvm_ir=[zlib.decompress(blobs[f"llvm_ir_{i}"]).decode()
                     for i in range(int(header["llvm_ir_parts"]))],
            specs=[_spec(s) for s in header["specs"]],
            workspaces=[_spec(s) for s in header["workspaces"]],
            weights=weights,
            index_sites=header["index_sites"],
            profiled=None if profiled is None else (str(profiled[0]),
                                                    tuple(str(s) for s in profiled[1])),
            kernel_costs={str(k): KernelCost(int(v[0]), int(v[1]))
                          for k, v in header["kernel_costs"].items()},
            schedules=dict(header["schedules"]))
    except (KeyError, TypeError, ValueError, IndexError, OSError, zlib.error,
            UnicodeDecodeError):
        return None  # an entry of another shape: build again


def dumps_schedules(traces: Mapping[str, Any]) -> dict[str, list]:
    """The traces of `model.schedules` as JSON data."""
    return {name: trace.as_json() for name, trace in traces.items()}


def loads_schedules(data: Mapping[str, list]) -> dict:
    """`model.schedules` from what `dumps_schedules` wrote."""
    from mlc.loop.schedule.trace import Trace

    return {name: Trace.from_json(trace) for name, trace in data.items()}

