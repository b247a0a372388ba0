"""Writing compiled code as a shared library that runs without the compiler.

    from mlc.llvm.export import export_shared_library

    export_shared_library([kernels_ir, main_ir], "model.so",
                          metadata={"entry": "main",
                                    "functions": {"main": {"args": specs}}},
                          params={"w": w, "b": b})
    # writes model.so and, beside it, model.params.npz; mlc.llvm.loader.load_module
    # runs it with numpy and ctypes only

The LLVM modules are linked into one, optimised for the target (position-independent
code), emitted as an object file and linked by the system's C compiler (`cc -shared`),
with the OpenMP runtime (:mod:`mlc.llvm.openmp`) when the code calls it (parallel loops
on more than one thread).
The metadata (entry name, argument specs, the weights' file) is embedded in the
library as the constant string `mlc_library_metadata`, so one .so carries its own
signature. The weights are never in the code: they are written beside it, their size
and SHA-256 recorded in the metadata, and the loader binds them once. The library ends
with a seal (its size and SHA-256: :mod:`mlc.llvm.library_seal`) that the loader checks
before the dynamic loader maps it. Files are written under a temporary name and
renamed, with deterministic bytes; a failed export leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import llvmlite.binding as llvm
import numpy as np

from mlc.ir.diagnostics import Diagnostic
from mlc.llvm.jit import LLVMIRError, link_llvm_ir, optimize_module
from mlc.llvm.library_seal import digest_of_file, seal_library
from mlc.llvm.loader import LIBRARY_FORMAT, METADATA_SYMBOL, read_signatures
from mlc.llvm.native_call import ArgSpec
from mlc.llvm.target import Target

__all__ = ["ExportError", "ToolchainError", "export_shared_library", "params_file_name"]


class ToolchainError(RuntimeError):
    """The system's C compiler (the linker driver) is missing or failed."""


class ExportError(OSError):
    """The library or its weights cannot be written where asked (a directory is in the
    way, no permission, a full disk); nothing is left behind."""


def params_file_name(library: str | os.PathLike) -> str:
    """The weights' file name beside a library: `model.so` -> `model.params.npz`."""
    return f"{Path(library).stem}.params.npz"


def export_shared_library(llvm_ir_texts: str | Sequence[str], path: str | os.PathLike,
                          metadata: Mapping[str, Any],
                          params: Mapping[str, np.ndarray] | None = None,
                          target: Target | None = None) -> Path:
    """Write LLVM IR modules as one shared library at `path`, with `metadata` embedded
    and `params` (the weights, by the name of the `param` arguments that take them)
    written beside it. `metadata` holds at least `entry` and `functions`
    (`{name: {"args": [ArgSpec or its JSON...], "result": dtype or None}}`), and may
    hold any other JSON data. `target` defaults to the host CPU at -O3 (the library
    then runs on machines with this CPU's features; pass e.g. `Target(cpu="x86-64-v3")`
    for others). Returns the library's path.

    LLVMIRError for IR LLVM rejects, ValueError for inconsistent metadata or params,
    ToolchainError when no C compiler can link the library."""
    texts = [llvm_ir_texts] if isinstance(llvm_ir_texts, str) else list(llvm_ir_texts)
    if not texts:
        raise ValueError("export_shared_library needs at least one LLVM IR module")
    path = Path(path)
    target = target or Target()
    params = dict(params or {})
    embedded = _library_metadata(metadata, params, path, target)
    params_path = path.with_name(embedded["params_file"]) if params else None
    for destination in (path, params_path):
        if destination is not None and destination.is_dir():
            raise ExportError(f"cannot write '{destination}': it is a directory")
    # As mlir-opt's -o: a missing directory is the caller's mistake (a typo would
    # otherwise create a tree somewhere unexpected), refused before anything is written.
    if not path.parent.is_dir():
        raise ExportError(f"cannot write the library '{path}': no directory "
                          f"'{path.parent}'")
    compiler = _c_compiler()

    written: list[Path] = []  # temporary files, removed unless renamed into place
    try:
        if params_path is not None:
            written.append(_temporary_beside(params_path))
            _write_params(params, written[-1])
            # The library records its weights' digest: the loader checks them by it.
            embedded["params_digest"] = digest_of_file(written[-1])
        module = link_llvm_ir([*texts, _metadata_module(embedded)])
        for name in read_signatures(embedded):
            if not _exports(module, name):
                raise LLVMIRError(Diagnostic("error", f"the metadata names function '{name}' "
                                             "but no module defines it with external linkage"))
        runtime = _openmp_runtime(module)
        optimize_module(module, target, jit=False)
        object_code = target.target_machine(jit=False).emit_object(module)
        with tempfile.TemporaryDirectory(prefix="mlc-export-") as scratch:
            object_path = Path(scratch) / f"{path.stem}.o"
            object_path.write_bytes(object_code)
            linked = Path(scratch) / path.name
            _link_shared(compiler, object_path, linked, runtime)
            written.append(_temporary_beside(path))
            written[-1].write_bytes(seal_library(linked.read_bytes()))
        for temporary, final in zip(written, [p for p in (params_path, path) if p is not None]):
            os.replace(temporary, final)
        written.clear()
    except OSError as exc:
        raise ExportError(f"cannot write the library '{path}': {exc.strerror or exc}") from None
    finally:
        for temporary in written:
            temporary.unlink(missing_ok=True)
    return path


def _library_metadata(metadata: Mapping[str, Any], params: dict[str, np.ndarray],
                      path: Path, target: Target) -> dict[str, Any]:
    """The metadata to embed: the caller's, with argument specs as JSON, the format,
    the weights' file and the target; checked against `params`."""
    if not isinstance(metadata, Mapping):
        raise ValueError("metadata must be a dict with 'entry' and 'functions'")
    embedded = dict(metadata)
    functions = embedded.get("functions")
    if isinstance(functions, Mapping):
        embedded["functions"] = {
            name: {**signature, "args": [arg.to_json() if isinstance(arg, ArgSpec) else arg
                                         for arg in signature.get("args", [])]}
            if isinstance(signature, Mapping) else signature
            for name, signature in functions.items()}
    embedded["format"] = LIBRARY_FORMAT
    embedded["target"] = {"triple": target.triple, "cpu": target.cpu,
                          "features": target.features, "opt_level": target.opt_level}
    embedded["params_file"] = params_file_name(path) if params else None
    signatures = read_signatures(embedded)
    _check_params(signatures, params)
    try:
        json.dumps(embedded, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"metadata must be JSON data: {exc}") from None
    return embedded


def _check_params(signatures: dict[str, tuple[list[ArgSpec], str | None]],
                  params: dict[str, np.ndarray]) -> None:
    wanted: dict[str, ArgSpec] = {}
    for function, (specs, _) in signatures.items():
        for spec in specs:
            if spec.role != "param":
                continue
            other = wanted.setdefault(spec.name, spec)
            if (other.shape, other.dtype) != (spec.shape, spec.dtype):
                raise ValueError(f"param '{spec.name}' is {other.describe()} in one function "
                                 f"and {spec.describe()} in '{function}'")
    missing = sorted(set(wanted) - set(params))
    if missing:
        raise ValueError(f"params missing for the param arguments: {', '.join(missing)}")
    unused = sorted(set(params) - set(wanted))
    if unused:
        raise ValueError(f"params {', '.join(unused)} match no param argument "
                         f"(the param arguments: {', '.join(sorted(wanted)) or 'none'})")
    for name, spec in wanted.items():
        array = params[name]
        if not isinstance(array, np.ndarray):
            raise ValueError(f"param '{name}' must be a numpy.ndarray, not {type(array).__name__}")
        if spec.is_scalar or array.shape != spec.shape or array.dtype != np.dtype(spec.dtype):
            raise ValueError(f"param '{name}' is {array.dtype}{list(array.shape)}, its argument "
                             f"takes {spec.describe()}")


def _metadata_module(metadata: dict[str, Any]) -> str:
    """LLVM IR defining the metadata as a NUL-terminated constant string."""
    data = json.dumps(metadata, sort_keys=True, separators=(",", ":")).encode("ascii") + b"\0"
    escaped = "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:02X}"
                      for b in data)
    return (f'@{METADATA_SYMBOL} = constant [{len(data)} x i8] c"{escaped}", align 1\n')


def _exports(module: llvm.ModuleRef, name: str) -> bool:
    return any(f.name == name and not f.is_declaration and f.linkage == llvm.Linkage.external
               for f in module.functions)


def _c_compiler() -> str:
    compiler = os.environ.get("CC", "cc")
    found = shutil.which(compiler)
    if found is None:
        raise ToolchainError(f"no C compiler '{compiler}' on PATH to link a shared library "
                             "(install one, e.g. `apt-get install gcc`, or set CC)")
    return found


def _openmp_runtime(module: llvm.ModuleRef) -> str | None:
    """The OpenMP runtime library to link when `module` calls it (its path), else None;
    ToolchainError when it does and no runtime is found."""
    from mlc.llvm.openmp import RUNTIME_SYMBOLS, find_runtime, runtime_problem

    if not any(f.is_declaration and f.name in RUNTIME_SYMBOLS for f in module.functions):
        return None
    runtime = find_runtime()
    if runtime is None:
        raise ToolchainError(f"the code runs parallel loops on the OpenMP runtime, and none "
                             f"is found to link it with ({runtime_problem()}); build with "
                             "num_threads=1 for a library without it")
    return runtime.path


def _link_shared(compiler: str, object_path: Path, output: Path,
                 runtime: str | None = None) -> None:
    command = [compiler, "-shared", "-o", str(output), str(object_path), "-lm"]
    if runtime is not None:
        # By its path: the library then needs the runtime by its soname (libgomp.so.1),
        # and no development symlink (libgomp.so) has to be installed.
        command.insert(-1, runtime)
    if sys.platform.startswith("linux"):
        # Refuse symbols nothing defines (a function registered in Python is callable
        # from JIT-compiled code only) at link time, not as a failure when loading.
        command.insert(2, "-Wl,-z,defs")
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    except OSError as exc:
        raise ToolchainError(f"cannot run the C compiler {compiler}: {exc}") from None
    if done.returncode != 0:
        undefined = sorted(set(re.findall(r"undefined reference to [`']([^`']+)'", done.stderr)))
        summary = ""
        if undefined:
            summary = (f": it uses {', '.join(undefined)}, which nothing defines (functions "
                       "registered in Python are callable from JIT-compiled code only)")
        raise ToolchainError(f"linking the shared library failed{summary}\n"
                             f"{' '.join(command)}\n{done.stderr.strip()}")


def _write_params(params: dict[str, np.ndarray], path: Path) -> None:
    """An .npz numpy.load reads, with fixed timestamps and order (numpy.savez stamps
    the current time, so the same weights would give different bytes)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name in sorted(params):
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            with archive.open(info, "w", force_zip64=True) as stream:
                np.lib.format.write_array(stream, np.asarray(params[name], order="C"),
                                          allow_pickle=False)


def _temporary_beside(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")
