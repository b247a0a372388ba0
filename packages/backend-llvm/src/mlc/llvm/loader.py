"""Running a shared library that mlc.llvm.export built, with numpy and ctypes only.

    from mlc.llvm.loader import load_module

    model = load_module("model.so")        # reads model.so's metadata, binds the weights
    y = model(x)                           # calls the entry function
    model.set_input("x", x); model.run(); y = model.get_output(0)   # the same
    model["other"](x, out)                 # any exported function by name

A deployment needs this module, mlc.llvm.native_call, numpy and a C library: no
llvmlite, no mlc.ir, no compiler (importing this module imports none of them). The
library carries its own signature: a JSON string (`METADATA_SYMBOL`) naming the entry
function and every exported function's argument specs and the file of its weights
(with their size and SHA-256), which are loaded and bound once here. Nothing unchecked
is mapped: the library's seal and ELF headers are checked first, and a private copy of
the checked bytes is loaded (:mod:`mlc.llvm.library_seal`), so a truncated or modified
file is a ModuleLoadError, never a crash.
"""

from __future__ import annotations

import ctypes
import io
import json
import os
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from mlc.llvm.executor import ModelExecutor
from mlc.llvm.library_seal import SealError, check_digest, load_checked, read_sealed_library
from mlc.llvm.native_call import ArgSpec, IndexErrorRecord, NativeFunction, UnknownNameError

__all__ = ["LoadedModule", "ModuleLoadError", "load_module", "METADATA_SYMBOL",
           "LIBRARY_FORMAT", "read_signatures"]

METADATA_SYMBOL = "mlc_library_metadata"
"""The global constant holding the library's metadata as NUL-terminated JSON."""

LIBRARY_FORMAT = "mlc-native-library/2"
"""The metadata's `format` value; a loader refuses other formats."""


class ModuleLoadError(RuntimeError):
    """A library that cannot be loaded: missing or unreadable files, not built by mlc,
    truncated or modified since export, another format version, weights that do not
    match the signature."""


class LoadedModule(ModelExecutor):
    """A loaded library: its functions as NativeFunctions with their params bound; the
    entry function run as a model (`model(x)`, or `set_input`, `run`, `get_output`:
    :class:`~mlc.llvm.executor.ModelExecutor`)."""

    def __init__(self, path: Path, library: ctypes.CDLL, metadata: dict[str, Any],
                 functions: dict[str, NativeFunction], params: dict[str, np.ndarray],
                 num_threads: int = 1):
        super().__init__(functions[metadata["entry"]])
        self.path = path
        self.num_threads = num_threads
        self.metadata = metadata
        self.functions = functions
        self.params = params
        self._library = library

    def __getitem__(self, name: str) -> NativeFunction:
        """The exported function `name`."""
        try:
            return self.functions[name]
        except (KeyError, TypeError):
            raise UnknownNameError(f"{self.path.name} exports no function {name!r} (it "
                                   f"exports: {', '.join(sorted(self.functions))})") from None

    def __repr__(self) -> str:
        return f"<LoadedModule {self.path.name}: {self.entry.signature()}>"


def read_signatures(metadata: Mapping[str, Any]) -> dict[str, tuple[list[ArgSpec], str | None]]:
    """Each function's (argument specs, result dtype) from library metadata, checking
    its shape: `entry` names one of `functions`, an object of
    `{name: {"args": [ArgSpec.to_json()...], "result": dtype or null}}`. ValueError
    on anything else."""
    functions = metadata.get("functions")
    if not isinstance(functions, dict) or not functions:
        raise ValueError("metadata 'functions' must be a non-empty object: "
                         "{name: {\"args\": [...], \"result\": dtype or null}}")
    signatures = {}
    for name, signature in functions.items():
        if not isinstance(signature, dict) or not set(signature) <= {"args", "result"} \
                or not isinstance(signature.get("args"), list):
            raise ValueError(f"metadata of function '{name}' must be an object with 'args' "
                             "(a list of argument specs) and an optional 'result'")
        specs = [ArgSpec.from_json(arg) for arg in signature["args"]]
        signatures[name] = (specs, signature.get("result"))
    entry = metadata.get("entry")
    if entry not in signatures:
        raise ValueError(f"metadata 'entry' must name one of the functions "
                         f"({', '.join(sorted(signatures))}), not {entry!r}")
    return signatures


def load_module(path: str | os.PathLike) -> LoadedModule:
    """Load a library written by mlc.llvm.export.export_shared_library and bind its
    weights; ModuleLoadError with the reason when that is not possible. A library
    whose parallel loops run on the OpenMP runtime loads the runtime first (found as
    :func:`mlc.llvm.openmp.find_runtime` finds it)."""
    path = Path(path).absolute()
    if not path.is_file():
        raise ModuleLoadError(f"{path}: no such library")
    _load_openmp_runtime()
    try:
        checked = read_sealed_library(path)
    except SealError as exc:
        raise ModuleLoadError(f"{path}: refused before loading: {exc}") from None
    except OSError as exc:
        raise ModuleLoadError(f"{path}: cannot read the library: {exc.strerror or exc}") from None
    try:
        library = load_checked(checked, path.name)
    except OSError as exc:
        hint = ""
        if any(name in str(exc) for name in ("libgomp", "libomp")):
            hint = (" (its parallel loops run on the OpenMP runtime: install gcc's libgomp1 "
                    "or LLVM's libomp, or set MLC_OPENMP_RUNTIME to the runtime's path)")
        raise ModuleLoadError(f"{path}: cannot load the library: {exc}{hint}") from None
    try:
        raw = ctypes.string_at(ctypes.addressof(ctypes.c_char.in_dll(library, METADATA_SYMBOL)))
    except ValueError:
        raise ModuleLoadError(f"{path}: not a library built by mlc (it has no "
                              f"'{METADATA_SYMBOL}' symbol)") from None
    try:
        metadata = json.loads(raw.decode("utf-8"))
        if not isinstance(metadata, dict):
            raise ValueError("the metadata is not a JSON object")
        if metadata.get("format") != LIBRARY_FORMAT:
            raise ValueError(f"format {metadata.get('format')!r}, this loader reads "
                             f"{LIBRARY_FORMAT!r}")
        signatures = read_signatures(metadata)
        num_threads = _num_threads(metadata)
    except ValueError as exc:  # json.JSONDecodeError and UnicodeDecodeError included
        raise ModuleLoadError(f"{path}: unreadable metadata: {exc}") from None
    params = _load_params(path, metadata)
    index_errors = _index_error_record(path, library, metadata)
    functions = {}
    for name, (specs, result) in signatures.items():
        try:
            address = ctypes.cast(library[name], ctypes.c_void_p).value
        except AttributeError:
            raise ModuleLoadError(f"{path}: the metadata names function '{name}' but the "
                                  "library does not define it") from None
        try:
            function = NativeFunction(address, specs, result, name=name, owner=library,
                                      index_errors=index_errors)
            for spec in specs:
                if spec.role == "param":
                    if spec.name not in params:
                        raise ValueError(f"function '{name}' needs the param '{spec.name}', "
                                         "which the params file lacks")
                    function.bind(spec.name, params[spec.name])
        except ValueError as exc:  # NativeCallError included: a weight of another shape
            raise ModuleLoadError(f"{path}: {exc}") from None
        functions[name] = function
    return LoadedModule(path, library, metadata, functions, params, num_threads)


def _load_openmp_runtime() -> None:
    """Load the OpenMP runtime MLC_OPENMP_RUNTIME names, if it is set, so that a
    library needing the runtime (by its soname) uses that one; without it, the dynamic
    loader finds the runtime as it finds any library."""
    from mlc.llvm.openmp import ENV_RUNTIME, find_runtime

    if os.environ.get(ENV_RUNTIME):
        find_runtime()


def _num_threads(metadata: dict[str, Any]) -> int:
    value = metadata.get("num_threads", 1)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"'num_threads' must be a positive integer, not {value!r}")
    return value


def _index_error_record(path: Path, library: ctypes.CDLL, metadata: dict[str, Any]
                        ) -> IndexErrorRecord | None:
    """The record of the library's index checks (metadata `index_checks`: the symbol of
    the record, the sites and the number of fields, 3 in libraries exported before the
    failure count), if it has any."""
    checks = metadata.get("index_checks")
    if checks is None:
        return None
    if not isinstance(checks, dict) or not isinstance(checks.get("symbol"), str) \
            or not isinstance(checks.get("sites"), list) \
            or not all(isinstance(site, str) for site in checks["sites"]) \
            or checks.get("fields", 3) not in (3, 4) or isinstance(checks.get("fields"), bool):
        raise ModuleLoadError(f"{path}: metadata 'index_checks' must be an object with a "
                              "'symbol', a list of 'sites' and 3 or 4 'fields'")
    try:
        record = ctypes.c_int64.in_dll(library, checks["symbol"])
    except ValueError:
        raise ModuleLoadError(f"{path}: the metadata names the index error record "
                              f"'{checks['symbol']}' but the library does not define it") from None
    return IndexErrorRecord(ctypes.addressof(record), checks["sites"], checks.get("fields", 3))


def _load_params(path: Path, metadata: dict[str, Any]) -> dict[str, np.ndarray]:
    params_file = metadata.get("params_file")
    if params_file is None:
        return {}
    if not isinstance(params_file, str) or os.sep in params_file or params_file in ("", ".", ".."):
        raise ModuleLoadError(f"{path}: metadata 'params_file' must be a file name beside "
                              f"the library, not {params_file!r}")
    params_path = path.with_name(params_file)
    try:
        data = params_path.read_bytes()
    except FileNotFoundError:
        raise ModuleLoadError(f"{path}: its weights file {params_path} is missing") from None
    except OSError as exc:
        raise ModuleLoadError(f"{params_path}: unreadable weights: {exc.strerror or exc}") from None
    try:
        check_digest(data, metadata.get("params_digest"), f"the weights file {params_path.name}")
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            return {name: archive[name] for name in archive.files}
    except SealError as exc:
        raise ModuleLoadError(f"{path}: refused: {exc}") from None
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile) as exc:
        raise ModuleLoadError(f"{params_path}: unreadable weights: {exc}") from None
