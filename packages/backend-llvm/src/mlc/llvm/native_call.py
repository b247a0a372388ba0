"""Calling compiled functions on numpy arrays, and native code calling Python.

This module imports only numpy, ctypes and the standard library: a deployed model
(`mlc.llvm.loader`) runs with it alone.

The calling convention is MLIR's bare-pointer convention for static memrefs: a memref
argument is one pointer to its first element, a scalar is passed by value, and outputs
are arguments the function writes (destination passing). An `ArgSpec` describes one
argument; a `NativeFunction` checks the arrays of a call against the specs before the
call, so a wrong call raises `NativeCallError` naming the argument instead of crashing:

    saxpy = NativeFunction(address, [ArgSpec("a", None, "float32"),
                                     ArgSpec("x", (1024,), "float32"),
                                     ArgSpec("y", (1024,), "float32"),
                                     ArgSpec("out", (1024,), "float32", "output")])
    out = saxpy(2.0, x, y)          # the output is allocated and returned
    saxpy(2.0, x, y, out)           # or given
    saxpy.bind("x", x)              # fixed once (weights, the arena): saxpy(2.0, y)

Calls are cheap (about a microsecond for three arrays, see
benchmarks/llvm_call_overhead.py): the checks are a few attribute comparisons and the
data addresses of bound arrays and of the arrays passed last are cached.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["ROLES", "WRITTEN_ROLES", "ArgSpec", "NativeCallError", "NativeIndexError",
           "UnknownNameError", "IndexRangeError",
           "NativeAllocationError", "allocate",
           "IndexErrorRecord", "NativeFunction", "python_callback",
           "data_address"]

ROLES = ("input", "output", "inout", "param", "workspace")
"""What an argument is for: `input` (given per call, only read: a read-only array is
accepted), `output` (only written by the call; allocated when not given), `inout`
(given per call, read and written), `param` (weights: bound once, only read),
`workspace` (scratch memory such as the memory plan's arena: allocated at the first
call and kept). Arrays of the written roles (output, inout, workspace) must be
writeable; a function compiled from IR has its roles from its memory effects
(:mod:`mlc.ir.analysis.argument_access`)."""

WRITTEN_ROLES = frozenset({"output", "inout", "workspace"})
"""The roles whose arrays the native code writes."""

_SCALAR_CTYPES: dict[str, type] = {
    "bool": ctypes.c_bool,
    "int8": ctypes.c_int8, "int16": ctypes.c_int16,
    "int32": ctypes.c_int32, "int64": ctypes.c_int64,
    "uint8": ctypes.c_uint8, "uint16": ctypes.c_uint16,
    "uint32": ctypes.c_uint32, "uint64": ctypes.c_uint64,
    "float32": ctypes.c_float, "float64": ctypes.c_double,
}


class NativeCallError(TypeError, ValueError):
    """A call of native code whose arguments do not match its signature (count, type,
    dtype, shape, contiguity, writeability); raised before the native code runs."""


class UnknownNameError(NativeCallError, KeyError):
    """A function, input or argument name that does not exist; its message names the
    ones that do. (A KeyError too, for code that catches lookups; printed as plain
    text, not as a quoted key.)"""

    __str__ = Exception.__str__


class IndexRangeError(NativeCallError, IndexError):
    """A position (of an input, an output) outside the range there is."""


class NativeAllocationError(MemoryError):
    """An output or workspace of a native call that cannot be allocated (out of
    memory); raised before the native code runs."""


def allocate(spec: ArgSpec, function: str) -> np.ndarray:
    """A zero-filled array for argument `spec` of `function`, or NativeAllocationError
    naming it."""
    try:
        return np.zeros(spec.shape, spec.dtype)
    except MemoryError:
        size = int(np.prod(spec.shape, dtype=object)) * np.dtype(spec.dtype).itemsize
        raise NativeAllocationError(f"{function}(): cannot allocate {spec.role} "
                                    f"'{spec.name}' ({spec.describe()}, {size:,} bytes): out "
                                    "of memory") from None


class NativeIndexError(IndexError):
    """An index read from data (a gather's) outside its buffer, found by the checks the
    native code makes (:mod:`mlc.loop.index_checks`). Raised after the call, which ran
    to its end reading at a safe index instead: its outputs are not meaningful."""


class IndexErrorRecord:
    """Where native code records a failed index check: the address of its record
    (`fields` int64: check site + 1, or 0 for none; the index; the bound; then, in a
    fourth field, how many checks failed, which libraries exported before it was added
    lack) and what each site is, by number. `raise_if_set` turns a recorded failure into
    a NativeIndexError (and clears the record for the next call)."""

    def __init__(self, address: int, sites: Sequence[str], fields: int = 4):
        if not isinstance(address, int) or address == 0:
            raise ValueError("an index error record needs a non-null address")
        if fields not in (3, 4):
            raise ValueError(f"an index error record has 3 or 4 fields, not {fields!r}")
        self.address = address
        self.sites = tuple(sites)
        self.values = (ctypes.c_int64 * fields).from_address(address)

    def raise_if_set(self, function: str) -> None:
        """NativeIndexError naming the failed check, if one is recorded."""
        site, index, bound = self.values[:3]
        if not site:
            return
        failures = self.values[3] if len(self.values) > 3 else 1
        for field in range(len(self.values)):
            self.values[field] = 0
        where = self.sites[site - 1] if 0 < site <= len(self.sites) else f"check {site - 1}"
        more = f"; {failures} checks failed in the call" if failures > 1 else ""
        raise NativeIndexError(f"{function}(): index {index} is out of range [0, {bound}) "
                               f"in {where}{more} (an index read from data; the call ran on "
                               "a safe index instead, its outputs are not meaningful)")


@dataclass(frozen=True)
class ArgSpec:
    """One argument of a native function: its name, its shape (None for a scalar passed
    by value), its numpy dtype name and its role (one of `ROLES`)."""

    name: str
    shape: tuple[int, ...] | None
    dtype: str
    role: str = "input"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"an argument needs a non-empty name, not {self.name!r}")
        try:
            dtype = np.dtype(self.dtype)
        except TypeError:
            raise ValueError(f"argument '{self.name}': unknown dtype {self.dtype!r}") from None
        if not dtype.isbuiltin or dtype.byteorder not in "=|":
            raise ValueError(f"argument '{self.name}': dtype {dtype} is not a native numeric type")
        object.__setattr__(self, "dtype", dtype.name)
        if self.role not in ROLES:
            raise ValueError(f"argument '{self.name}': role must be one of "
                             f"{', '.join(ROLES)}, not {self.role!r}")
        if self.shape is None:
            if self.dtype not in _SCALAR_CTYPES:
                raise ValueError(f"argument '{self.name}': a {self.dtype} scalar cannot be "
                                 "passed by value (pass it in a 0-d array)")
            if self.role not in ("input", "param"):
                raise ValueError(f"argument '{self.name}': a scalar passed by value cannot "
                                 f"be an {self.role}")
            return
        shape = tuple(self.shape)
        if not all(type(d) is int and d >= 0 for d in shape):
            raise ValueError(f"argument '{self.name}': a shape is a tuple of non-negative "
                             f"ints, not {self.shape!r}")
        object.__setattr__(self, "shape", shape)

    @property
    def is_scalar(self) -> bool:
        """True for a scalar passed by value, False for an array passed as a pointer."""
        return self.shape is None

    def describe(self) -> str:
        """`float32[4, 8]` or `float32 scalar`: what the argument must be."""
        if self.shape is None:
            return f"{self.dtype} scalar"
        return f"{self.dtype}[{', '.join(map(str, self.shape))}]"

    def to_json(self) -> dict[str, Any]:
        """The spec as JSON-compatible data (shared-library metadata)."""
        return {"name": self.name, "shape": None if self.shape is None else list(self.shape),
                "dtype": self.dtype, "role": self.role}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ArgSpec:
        """The inverse of `to_json`; ValueError on anything else."""
        if not isinstance(data, dict) or set(data) != {"name", "shape", "dtype", "role"}:
            raise ValueError(f"an argument spec is an object with name, shape, dtype and "
                             f"role, not {data!r}")
        shape = data["shape"]
        if shape is not None and not isinstance(shape, list):
            raise ValueError(f"argument {data['name']!r}: shape must be a list or null")
        return cls(data["name"], None if shape is None else tuple(shape), data["dtype"],
                   data["role"])


def _scalar_dtype_name(dtype: Any, function: str) -> str:
    """The numpy name of a dtype a function can return by value; ValueError else."""
    try:
        name = np.dtype(dtype).name
    except TypeError:
        name = None
    if name not in _SCALAR_CTYPES:
        raise ValueError(f"'{function}': a native function cannot return {dtype!r} (it can "
                         f"return {', '.join(_SCALAR_CTYPES)})")
    return name


def _find_data_address() -> Callable[[np.ndarray], int]:
    """The fastest correct way to read an array's data pointer. `arr.ctypes.data` and
    `arr.__array_interface__` build objects and cost about a microsecond each; the
    pointer itself is the first field after the object header of numpy's public
    PyArrayObject struct, readable through ctypes in a fifth of that. The offset is
    checked here on probe arrays (views included), falling back to the
    `__array_interface__` where the layout differs."""
    offset = object.__basicsize__
    read_pointer = ctypes.c_void_p.from_address

    def read_field(array: np.ndarray) -> int:
        return read_pointer(id(array) + offset).value or 0

    def interface(array: np.ndarray) -> int:
        return array.__array_interface__["data"][0]

    base = np.arange(24, dtype=np.float64).reshape(4, 6)
    probes = [base, base[1:], base[2:, 3:], np.zeros(0, np.int8), np.ones((), np.float32)]
    if all(read_field(p) == interface(p) for p in probes):
        return read_field
    return interface


data_address: Callable[[np.ndarray], int] = _find_data_address()
"""The address of an array's first element, as an int."""


# Exceptions raised by Python functions that native code called, waiting to be
# re-raised by the NativeFunction call that ran the native code: (thread, exception,
# function name). An exception must not unwind through native frames, so the callback
# records it and returns. The thread is None for a thread Python did not start (an
# OpenMP worker running a parallel loop for a call made on a Python thread).
_CALLBACK_ERRORS: list[tuple[int | None, BaseException, str]] = []


def _python_thread() -> int | None:
    """This thread's ident if Python started it, None for a foreign thread (Python
    gives those a dummy Thread object)."""
    if isinstance(threading.current_thread(), threading._DummyThread):
        return None
    return threading.get_ident()


def _raise_callback_error(caller: str) -> None:
    thread = threading.get_ident()
    # A foreign thread's error belongs to the call that started its parallel loop and
    # was waiting for it: this one, unless several threads ran native code at once.
    mine = [entry for entry in _CALLBACK_ERRORS if entry[0] == thread or entry[0] is None]
    if not mine:
        return
    for entry in mine:
        _CALLBACK_ERRORS.remove(entry)
    _, error, callee = mine[0]
    note = f"raised in the Python function '{callee}', called from native code of '{caller}'"
    if len(mine) > 1:
        note += f" ({len(mine) - 1} later call{'s' if len(mine) > 2 else ''} raised too)"
    error.add_note(note)
    raise error


class NativeFunction:
    """A compiled function called on numpy arrays. `specs` describe its arguments in
    order, `result` is the dtype of a scalar it returns (None: it returns nothing).
    `owner` is kept referenced for as long as this object lives (the JIT engine or the
    shared library holding the code). `index_errors` is the record of the code's index
    checks, read after every call (a failed check raises NativeIndexError).

    A call passes the free arguments (those not bound) positionally in order or by
    name; free outputs not given are allocated (zero-filled) and returned; workspaces
    not bound are allocated at the first call and kept. The call returns the scalar
    result followed by the outputs and inouts: one value alone, several as a tuple,
    none as None.

    Each argument's last array stays referenced until the next call (its address is
    cached). Calls from several threads are safe, except that they share the bound
    arrays: with a workspace (the arena), create one NativeFunction per thread.
    """

    def __init__(self, address: int, specs: Sequence[ArgSpec], result: str | None = None,
                 name: str = "native function", owner: object = None,
                 index_errors: IndexErrorRecord | None = None):
        if not isinstance(address, int) or address == 0:
            raise ValueError(f"'{name}': a native function needs a non-null address")
        self.name = name
        self.specs = tuple(specs)
        names = [spec.name for spec in self.specs]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"'{name}': argument names must be unique: {', '.join(duplicates)}")
        self.result = None if result is None else _scalar_dtype_name(result, name)
        self.owner = owner
        self.index_errors = index_errors
        self._index = {spec.name: i for i, spec in enumerate(self.specs)}
        argtypes = [_SCALAR_CTYPES[s.dtype] if s.is_scalar else ctypes.c_void_p
                    for s in self.specs]
        restype = None if self.result is None else _SCALAR_CTYPES[self.result]
        self._cfunc = ctypes.CFUNCTYPE(restype, *argtypes)(address)
        self.address = address
        self._convert_result = None if self.result is None else np.dtype(self.result).type
        self._checks = [_argument_check(spec, position, self.name)
                        for position, spec in enumerate(self.specs)]
        self._bound: dict[int, Any] = {}
        self._values: list[Any] = [None] * len(self.specs)
        self._update_free()

    def _update_free(self) -> None:
        free = [i for i, s in enumerate(self.specs)
                if i not in self._bound and s.role != "workspace"]
        self._free = tuple(free)
        self._free_names = tuple(self.specs[i].name for i in free)
        # Trailing free outputs may be left out of a positional call.
        omittable = len(free)
        while omittable and self.specs[free[omittable - 1]].role == "output":
            omittable -= 1
        self._min_positional = omittable
        self._unbound_workspaces = tuple(i for i, s in enumerate(self.specs)
                                         if s.role == "workspace" and i not in self._bound)
        # What a call returns: the arrays it writes that the caller passes or gets.
        self._outputs = tuple(i for i, s in enumerate(self.specs)
                              if s.role in ("output", "inout"))
        self._call = (self._call_checked if self._unbound_workspaces
                      else _fast_call(self, self._call_checked))

    def _position(self, name_or_index: str | int) -> int:
        if isinstance(name_or_index, str):
            position = self._index.get(name_or_index)
            if position is None:
                raise UnknownNameError(f"{self.name}() has no argument '{name_or_index}' "
                                       f"(its arguments: {', '.join(self._index)})")
            return position
        if type(name_or_index) is int and 0 <= name_or_index < len(self.specs):
            return name_or_index
        raise NativeCallError(f"{self.name}() has no argument {name_or_index!r} (it takes "
                              f"{len(self.specs)})")

    def bind(self, name_or_index: str | int, value: Any) -> NativeFunction:
        """Fix an argument (by name or position) for every later call: weights, the
        arena. The array is checked like a call's argument and kept referenced; its
        address is read once. Returns self."""
        position = self._position(name_or_index)
        if value is None:
            raise NativeCallError(f"{self.name}(): cannot bind argument "
                                  f"'{self.specs[position].name}' to None")
        self._values[position] = self._checks[position](value)
        self._bound[position] = value
        self._update_free()
        return self

    def unbind(self, name_or_index: str | int) -> NativeFunction:
        """Make a bound argument free again. Returns self."""
        position = self._position(name_or_index)
        self._bound.pop(position, None)
        self._values[position] = None
        self._update_free()
        return self

    @property
    def bound(self) -> dict[str, Any]:
        """The bound arguments by name."""
        return {self.specs[i].name: value for i, value in sorted(self._bound.items())}

    @property
    def free(self) -> tuple[str, ...]:
        """The names of the arguments a call passes, in order."""
        return self._free_names

    def signature(self) -> str:
        """`main(x: float32[4, 8], out: float32[4, 8] output) -> None`, bound arguments
        marked."""
        parts = []
        for i, spec in enumerate(self.specs):
            note = "" if spec.role == "input" else f" {spec.role}"
            if i in self._bound:
                note += ", bound"
            parts.append(f"{spec.name}: {spec.describe()}{note}")
        return f"{self.name}({', '.join(parts)}) -> {self.result}"

    def __repr__(self) -> str:
        return f"<NativeFunction {self.signature()}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Check the arguments, run the native code, return the result and outputs."""
        return self._call(args, kwargs)

    def _call_checked(self, args: tuple, kwargs: dict[str, Any]) -> Any:
        """A call of any form (keywords, outputs left out, workspaces to allocate),
        raising NativeCallError for a wrong one: the generic path, which the
        generated fast path (`_fast_call`) defers to for anything but the common
        forms with arguments that pass its checks."""
        if self._unbound_workspaces:
            self._allocate_workspaces()
        free = self._free
        if kwargs:
            args = self._keyword_arguments(args, kwargs)
        elif not self._min_positional <= len(args) <= len(free):
            raise self._count_error(len(args))
        values = self._values.copy()
        checks = self._checks
        for position, arg in zip(free, args):
            values[position] = checks[position](arg)
        allocated: dict[int, np.ndarray] = {}
        if None in values:  # outputs not given (values hold addresses and scalars only)
            for position in free:
                if values[position] is None:
                    allocated[position] = array = allocate(self.specs[position], self.name)
                    values[position] = data_address(array)
        result = self._cfunc(*values)
        if _CALLBACK_ERRORS:
            _raise_callback_error(self.name)
        if self.index_errors is not None:
            self.index_errors.raise_if_set(self.name)
        if self._convert_result is not None:
            result = self._convert_result(result)
        if not self._outputs:
            return result
        returned = [] if self._convert_result is None else [result]
        given = dict(zip(free, args))
        for position in self._outputs:
            array = allocated.get(position)
            if array is None:
                array = given[position] if position in given else self._bound[position]
            returned.append(array)
        return returned[0] if len(returned) == 1 else tuple(returned)

    def _allocate_workspaces(self) -> None:
        for position in self._unbound_workspaces:
            self.bind(position, allocate(self.specs[position], self.name))

    def _keyword_arguments(self, args: tuple, kwargs: dict[str, Any]) -> tuple:
        """The free arguments in order from positional and keyword ones; None for an
        output neither gives (allocated by the call)."""
        free_names = self._free_names
        if len(args) > len(free_names):
            raise self._count_error(len(args))
        filled: dict[str, Any] = dict(zip(free_names, args))
        for name, value in kwargs.items():
            if name not in free_names:
                if name in self._index:
                    raise NativeCallError(f"{self.name}(): argument '{name}' is bound; "
                                          "unbind it to pass it in a call")
                raise NativeCallError(f"{self.name}() has no argument '{name}' (its "
                                      f"arguments: {', '.join(self._index)})")
            if name in filled:
                raise NativeCallError(f"{self.name}(): argument '{name}' given twice")
            filled[name] = value
        ordered = []
        for position, name in zip(self._free, free_names):
            if name not in filled:
                if self.specs[position].role != "output":
                    raise NativeCallError(f"{self.name}(): missing argument '{name}' "
                                          f"({self.specs[position].describe()})")
                ordered.append(None)
            else:
                ordered.append(filled[name])
        return tuple(ordered)

    def _count_error(self, count: int) -> NativeCallError:
        names = self._free_names
        takes = f"{len(names)} argument{'s' if len(names) != 1 else ''} ({', '.join(names)})"
        if self._min_positional < len(names):
            required = names[:self._min_positional]
            takes += (f", or {len(required)} without the outputs "
                      f"({', '.join(required)})")
        return NativeCallError(f"{self.name}() takes {takes}; got {count}")


def _fast_call(function: NativeFunction, fallback: Callable[[tuple, dict], Any]
               ) -> Callable[[tuple, dict], Any]:
    """The calls of `function` that pass every free argument positionally (or leave
    out its trailing outputs), compiled to straight-line Python for its signature: the
    checks of the generic path without loops or per-argument calls, and each
    argument's last address remembered (reading an address is most of a check's
    cost, and the same buffers are passed call after call). Anything unusual, and
    every wrong argument, goes to `fallback`, which raises the precise error.

    The generated code of `main(x: float32[4], out: float32[4] output)` reads:

        def call(args, kwargs):
            if kwargs: return fallback(args, kwargs)
            count = len(args)
            if count == 2: a0, a1 = args
            elif count == 1: (a0,) = args; a1 = allocate(spec1, name)
            else: return fallback(args, kwargs)
            if type(a0) is not ndarray or a0.dtype is not dtype0 or a0.shape != shape0:
                return fallback(args, kwargs)
            ...
            entry = last0[0]
            if entry[0] is a0: v0 = entry[1]
            else: v0 = address(a0); last0[0] = (a0, v0)
            ...
            cfunc(v0, v1)
            if callback_errors: raise_callback_error(name)
            if record[0]: index_errors.raise_if_set(name)   # with index checks
            return a1
    """
    specs = function.specs
    free = function._free
    namespace: dict[str, Any] = {
        "fallback": fallback, "ndarray": np.ndarray, "allocate": allocate,
        "address": data_address, "cfunc": function._cfunc, "name": function.name,
        "callback_errors": _CALLBACK_ERRORS, "raise_callback_error": _raise_callback_error,
        "convert_result": function._convert_result, "index_errors": function.index_errors}
    code = ["def call(args, kwargs):",
            "    if kwargs: return fallback(args, kwargs)",
            "    count = len(args)"]
    names = [f"a{position}" for position in free]
    required = names[:function._min_positional]
    code.append(f"    if count == {len(names)}: ({''.join(n + ', ' for n in names)}) = args")
    if len(required) < len(names):
        code.append(f"    elif count == {len(required)}:")
        code.append(f"        ({''.join(n + ', ' for n in required)}) = args")
        for position in free[len(required):]:
            code.append(f"        a{position} = allocate(spec{position}, name)")
            namespace[f"spec{position}"] = specs[position]
    code.append("    else: return fallback(args, kwargs)")
    for position in free:
        spec = specs[position]
        a = f"a{position}"
        namespace[f"dtype{position}"] = np.dtype(spec.dtype)
        if spec.is_scalar:
            python_type = {"f": "float", "b": "bool"}.get(np.dtype(spec.dtype).kind, "int")
            condition = f"type({a}) is not {python_type}"
            if python_type == "int":
                info = np.iinfo(spec.dtype)
                condition += f" or not {int(info.min)} <= {a} <= {int(info.max)}"
            code.append(f"    if {condition}: return fallback(args, kwargs)")
            continue
        namespace[f"shape{position}"] = spec.shape
        namespace[f"last{position}"] = [(None, 0)]
        writes = " and flags.writeable" if spec.role in WRITTEN_ROLES else ""
        code += [
            f"    if type({a}) is not ndarray or {a}.dtype is not dtype{position} "
            f"or {a}.shape != shape{position}: return fallback(args, kwargs)",
            f"    flags = {a}.flags",
            f"    if not (flags.c_contiguous{writes}): return fallback(args, kwargs)",
            # One tuple, replaced whole: threads calling at once never pair an array
            # with another's address. Holding the array also keeps numpy from
            # resizing it in place, which would move its data.
            f"    entry = last{position}[0]",
            f"    if entry[0] is {a}: v{position} = entry[1]",
            "    else:",
            f"        v{position} = address({a})",
            f"        last{position}[0] = ({a}, v{position})",
        ]
    arguments = []
    for position, spec in enumerate(specs):
        if position in function._bound:
            namespace[f"bound{position}"] = function._values[position]
            arguments.append(f"bound{position}")
        else:
            arguments.append(f"v{position}" if not spec.is_scalar else f"a{position}")
    code.append(f"    result = cfunc({', '.join(arguments)})")
    code.append("    if callback_errors: raise_callback_error(name)")
    if function.index_errors is not None:
        namespace["record"] = function.index_errors.values
        code.append("    if record[0]: index_errors.raise_if_set(name)")
    returned = ["convert_result(result)"] if function._convert_result is not None else []
    for position in function._outputs:
        returned.append(f"bound_array{position}" if position in function._bound
                        else f"a{position}")
        if position in function._bound:
            namespace[f"bound_array{position}"] = function._bound[position]
    if not returned:
        code.append("    return None")
    elif len(returned) == 1:
        code.append(f"    return {returned[0]}")
    else:
        code.append(f"    return ({', '.join(returned)})")
    exec("\n".join(code), namespace)  # noqa: S102 - code built above from the specs only
    return namespace["call"]


def _argument_check(spec: ArgSpec, position: int, function: str) -> Callable[[Any], Any]:
    """A function that checks one call argument against `spec` and returns what the
    native call passes for it (the data address, or the scalar). An output may be None
    (the call allocates it)."""
    where = f"{function}(): argument {position} ('{spec.name}')"
    if spec.is_scalar:
        return _scalar_check(spec, where)
    dtype = np.dtype(spec.dtype)
    shape = spec.shape
    writes = spec.role in WRITTEN_ROLES
    ndarray = np.ndarray

    def check(array: Any) -> int | None:
        if type(array) is not ndarray and not isinstance(array, ndarray):
            if array is None and spec.role == "output":
                return None
            raise NativeCallError(f"{where} must be a numpy.ndarray ({spec.describe()}), "
                                  f"not {type(array).__name__}")
        if array.dtype is not dtype and array.dtype != dtype:
            raise NativeCallError(f"{where} must have dtype {spec.dtype}, not {array.dtype}")
        if array.shape != shape:
            raise NativeCallError(f"{where} must have shape {shape}, not {array.shape}")
        flags = array.flags
        if not flags.c_contiguous:
            raise NativeCallError(f"{where} must be C-contiguous (pass "
                                  "numpy.ascontiguousarray(...) of it)")
        if writes and not flags.writeable:
            raise NativeCallError(f"{where} is written by the call ({spec.role}) but the "
                                  "array is read-only")
        return data_address(array)

    return check


def _scalar_check(spec: ArgSpec, where: str) -> Callable[[Any], Any]:
    kind = np.dtype(spec.dtype).kind
    if kind == "f":
        def check_float(value: Any) -> float:
            if isinstance(value, (bool, np.bool_)) or not isinstance(
                    value, (int, float, np.integer, np.floating)):
                raise NativeCallError(f"{where} must be a real number ({spec.dtype}), "
                                      f"not {type(value).__name__}")
            return float(value)
        return check_float
    if kind == "b":
        def check_bool(value: Any) -> bool:
            if not isinstance(value, (bool, np.bool_)):
                raise NativeCallError(f"{where} must be a bool, not {type(value).__name__}")
            return bool(value)
        return check_bool
    info = np.iinfo(spec.dtype)

    def check_int(value: Any) -> int:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise NativeCallError(f"{where} must be an integer ({spec.dtype}), not "
                                  f"{type(value).__name__}")
        if not info.min <= value <= info.max:
            raise NativeCallError(f"{where} = {value} does not fit in {spec.dtype}")
        return int(value)
    return check_int


def python_callback(function: Callable[..., Any], specs: Sequence[ArgSpec],
                    result: str | None = None, name: str | None = None) -> ctypes._CFuncPtr:
    """A C function pointer (a ctypes CFUNCTYPE object) that native code can call with
    the bare-pointer convention of `specs`, running `function` on numpy views of the
    pointed-to memory (no copies: an output the function writes is the native
    buffer). Inputs and params are read-only views. `result` is the dtype of a scalar
    the function returns (None: its return value is ignored).

    An exception raised by `function` is recorded and the callback returns (zero for a
    result): the NativeFunction call that ran the native code re-raises it after the
    native code returns (native code run otherwise leaves it to the thread's next
    NativeFunction call). One raised on a worker thread of a parallel loop is re-raised
    by the call that ran the loop; when several Python threads run native code at once,
    by whichever of them returns first. Keep the returned object referenced while native code may call
    it (bind_symbol does).
    """
    label = name or getattr(function, "__name__", "callback")
    converters: list[Callable[[Any], Any]] = []
    for spec in specs:
        if spec.is_scalar:
            converters.append(np.dtype(spec.dtype).type)
        else:
            converters.append(_buffer_view(spec))
    argtypes = [_SCALAR_CTYPES[s.dtype] if s.is_scalar else ctypes.c_void_p for s in specs]
    result_dtype = None if result is None else np.dtype(_scalar_dtype_name(result, label))
    restype = None if result_dtype is None else _SCALAR_CTYPES[result_dtype.name]

    def trampoline(*raw: Any) -> Any:
        try:
            value = function(*[convert(arg) for convert, arg in zip(converters, raw)])
            if result_dtype is None:
                return None
            if isinstance(value, tuple) and len(value) == 1:
                value = value[0]
            return result_dtype.type(value).item()
        except BaseException as error:  # noqa: BLE001 - must not unwind into native code
            _CALLBACK_ERRORS.append((_python_thread(), error, label))
            return None if result_dtype is None else result_dtype.type(0).item()

    return ctypes.CFUNCTYPE(restype, *argtypes)(trampoline)


def _buffer_view(spec: ArgSpec) -> Callable[[int | None], np.ndarray]:
    """Pointer -> a numpy array over the memory it points to (shape and dtype of
    `spec`), sharing it."""
    dtype = np.dtype(spec.dtype)
    shape = spec.shape
    count = int(np.prod(shape, dtype=np.int64))
    nbytes = count * dtype.itemsize
    buffer_type = ctypes.c_char * nbytes
    read_only = spec.role in ("input", "param")

    def view(address: int | None) -> np.ndarray:
        if nbytes == 0:
            return np.zeros(shape, dtype)
        if not address:
            raise ValueError(f"argument '{spec.name}': native code passed a null pointer")
        array = np.frombuffer(buffer_type.from_address(address), dtype, count).reshape(shape)
        if read_only:
            array.flags.writeable = False
        return array

    return view
