"""Running lowered modules natively and with the interpreter, on the same seeded
arrays, for the tests that hold mlc's native code to an independent answer.

The native side is `mlc.llvm.compile_module` (or `build` for a graph module); the
reference is `mlc.ir.interpreter` on the same module (or `mlc.graph.evaluate` on the
graph program). Both get copies of the same arrays; a function's outputs are the
buffers it writes, so every argument is compared after the call.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from mlc.ir import Operation
from mlc.ir.core.attributes import MemRefType
from mlc.ir.interpreter import Interpreter, buffer_dtype

SPLIT_MARKER = re.compile(r"^// -----\s*$", re.M)


def split_input(text: str) -> list[str]:
    """The chunks of a lit file as `mlc-opt --split-input-file` reads them."""
    return SPLIT_MARKER.split(text)


def defined_functions(module: Operation) -> list[Operation]:
    """The `func.func`s of `module` that have a body, in order."""
    return [op for op in module.regions[0].blocks[0].ops()
            if op.name == "func.func" and op.regions[0].blocks]


def seeded_arguments(fn: Operation, seed: int) -> list[object]:
    """Arguments for `fn`: standard-normal floats, small integers (1..7: an index into
    a buffer stays in bounds, a divisor is not zero), one array per memref and a value
    per scalar."""
    rng = np.random.default_rng(seed)
    args: list[object] = []
    for type_ in fn.attributes["function_type"].value.inputs:
        shape = tuple(type_.shape) if isinstance(type_, MemRefType) else ()
        element = type_.element_type if isinstance(type_, MemRefType) else type_
        dtype = np.dtype(buffer_dtype(element))
        if dtype.kind == "f":
            value = rng.standard_normal(shape).astype(dtype)
        elif dtype.kind == "b":
            value = rng.integers(0, 2, shape).astype(bool)
        else:
            value = rng.integers(1, 8, shape).astype(dtype)
        args.append(value if isinstance(type_, MemRefType) else value[()])
    return args


def copies(args: list[object]) -> list[object]:
    """Fresh copies of the arrays in `args` (scalars as they are)."""
    return [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]


def interpreted(module: Operation, name: str, args: list[object]) -> tuple[list, list]:
    """(results, arguments after the call) of `@name` run by mlc's interpreter."""
    interpreter = Interpreter(module)
    arrays = copies(args)
    # The interpreter holds scalars as Python numbers, the native call as numpy's.
    results = interpreter.call(interpreter.lookup_function(name),
                               [a.item() if isinstance(a, np.generic) else a for a in arrays])
    return list(results), arrays


def tolerance_scale(expected: np.ndarray) -> float:
    """The largest finite magnitude of `expected`, at least 1: a sum that cancels keeps
    the rounding errors of its terms, so absolute tolerances scale with the values."""
    finite = np.abs(expected[np.isfinite(expected)].astype(np.float64))
    return max(1.0, float(finite.max())) if finite.size else 1.0


def assert_close(got, expected, rtol: float, atol: float, what: str) -> None:
    """`got` equals `expected`: exactly for integers and booleans, within
    rtol * |expected| + atol * tolerance_scale(expected) for floats."""
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, f"{what}: shape {got.shape} != {expected.shape}"
    if expected.dtype.kind == "f":
        np.testing.assert_allclose(got, expected, rtol=rtol,
                                   atol=atol * tolerance_scale(expected), err_msg=what)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=what)


def lit_run_lines(path: Path) -> list[str]:
    """The `// RUN:` commands of a lit file."""
    return [line.split("RUN:", 1)[1].strip() for line in path.read_text(errors="replace").splitlines()
            if line.startswith("// RUN:")]
